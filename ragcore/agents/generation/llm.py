"""A generator that asks a local LLM behind an OpenAI-compatible chat-completions endpoint.

Works with llama.cpp server, Ollama, vLLM and anything else that serves
``POST {base_url}/chat/completions``. ``base_url`` is used as given, minus a trailing
slash, so it must include the API prefix the server uses (usually ``/v1``):
``http://127.0.0.1:8080/v1`` → ``http://127.0.0.1:8080/v1/chat/completions``.

Only the standard library is used. Environment proxies are ignored: the endpoint is a
local deployment, and a loopback request must not leave the machine through a proxy.
The generator does not judge the answer; the validator checks citations and support.
"""

from __future__ import annotations

import json
import math
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from http.client import HTTPException
from urllib.parse import urlsplit

from ragcore.agents.evidence import NO_ANSWER, Draft, Evidence, split_statements
from ragcore.config import DEFAULT_LLM_CONTEXT_CHARS
from ragcore.errors import ConfigError, GenerationError
from ragcore.text.citations import strip_citations

NO_ANSWER_TEXT = NO_ANSWER
"""The exact reply the model is told to give when the context does not hold the answer."""

DEFAULT_MAX_CONTEXT_CHARS = DEFAULT_LLM_CONTEXT_CHARS
_SNIPPET_CHARS = 200

SYSTEM_PROMPT = (
    "You answer questions using ONLY the numbered context passages you are given. "
    "Do not use outside knowledge or guess; every fact must come from the context. "
    "Cite every sentence with the number of the context passage it comes from, in square "
    "brackets, like [1] or [2][3]; the numbers refer to the context numbers. "
    f"If the context does not contain the answer, reply exactly: {NO_ANSWER_TEXT} "
    "Keep the answer short: a few sentences at most."
)


def build_messages(
    question: str,
    evidence: Sequence[Evidence],
    max_context_chars: int = DEFAULT_MAX_CONTEXT_CHARS,
) -> list[dict[str, str]]:
    """The chat messages for ``question``: the system rules, then the numbered context.

    Each passage reads ``[n] (title, updated_at) chunk text`` with ``n`` its
    ``Evidence.number``, in number order. Passages are kept whole while the context
    (passages joined by blank lines) fits ``max_context_chars``; the highest-numbered
    ones are dropped first. A first passage longer than the budget is cut to it, so the
    model never gets an empty context when evidence exists.
    """
    return _messages(question, _passages(evidence, max_context_chars))


def _messages(question: str, passages: list[tuple[int, str]]) -> list[dict[str, str]]:
    context = "\n\n".join(entry for _, entry in passages)
    user = f"Context:\n{context}\n\nQuestion: {question.strip()}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _passages(evidence: Sequence[Evidence], max_context_chars: int) -> list[tuple[int, str]]:
    """(evidence number, context entry) of each passage that fits the budget."""
    entries: list[tuple[int, str]] = []
    used = 0
    for item in sorted(evidence, key=lambda e: e.number):
        doc = item.document
        dated = doc.updated_at.isoformat() if doc.updated_at else "undated"
        entry = f"[{item.number}] ({doc.title or doc.id}, {dated}) {item.text.strip()}"
        cost = len(entry) + (2 if entries else 0)
        if used + cost > max_context_chars:
            if not entries:
                entries.append((item.number, entry[:max_context_chars]))
            break
        entries.append((item.number, entry))
        used += cost
    return entries


def _is_http_url(url: object) -> bool:
    try:
        parts = urlsplit(url) if isinstance(url, str) else None
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False
    return parts is not None and parts.scheme in ("http", "https") and bool(parts.hostname)


# Models do not always reply with the exact sentence: "The documents do not say what
# the WS-50 weighs; its manual gives …", "No warranty is stated in the context."
_DECLINES = re.compile(
    r"^(?:(?:the|these|this)\s+)?(?:provided\s+)?(?:documents?|sources?|context|passages?|"
    r"manuals?|texts?)(?:\s+provided)?\s+(?:do(?:es)?\s+not|don't|doesn't)\s+"
    r"(?:say|state|give|contain|mention|specify|include|provide|list|cover)\b"
    r"|^(?:there\s+is\s+)?no\s+(?:information|figure|data|mention|value)\b"
    r"|^I\s+(?:cannot|can't|could\s+not)\s+find\b",
    re.IGNORECASE,
)


def _is_no_answer(text: str) -> bool:
    """Whether ``text`` declines to answer: the no-answer sentence (ignoring case,
    citations, final stop), or a first sentence that says the documents do not say."""

    def norm(s: str) -> str:
        return strip_citations(s).strip().rstrip(".").strip().casefold()

    return norm(text) == norm(NO_ANSWER_TEXT) or bool(_DECLINES.match(text.strip()))


class OpenAICompatibleGenerator:
    """Answers from evidence with a chat-completions endpoint; see the module docstring."""

    name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_tokens: int = 400,
        temperature: float = 0.0,
        max_context_chars: int = DEFAULT_MAX_CONTEXT_CHARS,
    ) -> None:
        if not _is_http_url(base_url):
            raise ConfigError(
                "base_url", base_url, "give an http(s) URL like http://127.0.0.1:8080/v1"
            )
        if not isinstance(model, str) or not model.strip():
            raise ConfigError("model", model, "name the model the endpoint serves")
        # The key itself never goes into an error message.
        if api_key is not None and (not api_key.strip() or any(c in api_key for c in "\r\n")):
            raise ConfigError("api_key", "<redacted>", "give a one-line key, or None for no key")
        if not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout <= 0:
            raise ConfigError("timeout", timeout, "give the seconds to wait, greater than 0")
        if not isinstance(max_tokens, int) or max_tokens < 1:
            raise ConfigError("max_tokens", max_tokens, "give a whole number of tokens, at least 1")
        if not isinstance(temperature, int | float) or not 0 <= temperature <= 2:
            raise ConfigError("temperature", temperature, "give a number from 0 to 2 (0 is exact)")
        if not isinstance(max_context_chars, int) or max_context_chars < 1:
            raise ConfigError("max_context_chars", max_context_chars, "give at least 1 character")
        self.url = f"{base_url.rstrip('/')}/chat/completions"
        self.model = model
        self.timeout = float(timeout)
        self.max_tokens = max_tokens
        self.temperature = float(temperature)
        self.max_context_chars = max_context_chars
        self._api_key = api_key
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def generate(
        self, question: str, evidence: Sequence[Evidence], perception: object | None = None
    ) -> Draft:
        """The model's answer to ``question`` from ``evidence``, cut into statements.

        With no evidence the endpoint is not called and the draft abstains. ``perception``
        is accepted for the Generator protocol and not used. Raises ``GenerationError``
        when the endpoint is unreachable, slow, failing or answers malformed JSON.
        """
        if not evidence:
            return Draft(NO_ANSWER_TEXT, (), self.name, abstained=True)
        passages = _passages(evidence, self.max_context_chars)
        payload = {
            "model": self.model,
            "messages": _messages(question, passages),
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "stream": False,
        }
        content = self._content(self._post(payload))
        shown = tuple(number for number, _ in passages)
        return Draft(
            content, split_statements(content), self.name, _is_no_answer(content), shown=shown
        )

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int | None = None) -> str:
        """The model's reply to ``messages`` (another agent's prompt, e.g. a SQL
        proposal), with this generator's endpoint, model and settings; GenerationError
        as for ``generate``."""
        payload = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens or self.max_tokens,
            "temperature": self.temperature,
            "stream": False,
        }
        return self._content(self._post(payload))

    def close(self) -> None:
        """Nothing to free: each request opens and closes its own connection."""

    def __enter__(self) -> OpenAICompatibleGenerator:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def _redact(self, text: str) -> str:
        # Some servers echo the request (headers included) in an error body.
        return text.replace(self._api_key, "<redacted>") if self._api_key else text

    def _post(self, payload: dict) -> bytes:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        data = json.dumps(payload).encode("utf-8")
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        where = f"the LLM endpoint {self.url}"
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return response.read()
        except urllib.error.HTTPError as exc:
            with exc:  # the error owns the response socket
                body = exc.read(_SNIPPET_CHARS * 4).decode("utf-8", "replace")
            snippet = " ".join(self._redact(body).split())[:_SNIPPET_CHARS]
            raise GenerationError(
                f"{where} answered HTTP {exc.code} {exc.reason}: {snippet!r}; check the model "
                "name, the api key and the server log"
            ) from exc
        except (TimeoutError, urllib.error.URLError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError):
                raise GenerationError(
                    f"{where} did not answer within the {self.timeout:g} s timeout; check the "
                    "server is not overloaded, or raise timeout"
                ) from exc
            raise GenerationError(
                f"cannot reach {where} ({reason}); check the server is running and base_url"
            ) from exc
        except (OSError, HTTPException) as exc:
            raise GenerationError(
                f"{where} broke the connection ({exc!r}); check the server log"
            ) from exc

    def _content(self, body: bytes) -> str:
        """``choices[0].message.content`` of a chat-completions response body."""
        snippet = self._redact(body[: _SNIPPET_CHARS * 4].decode("utf-8", "replace"))
        snippet = " ".join(snippet.split())[:_SNIPPET_CHARS]
        try:
            data = json.loads(body)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            raise GenerationError(
                f"the LLM endpoint {self.url} did not answer JSON: {snippet!r}; check base_url "
                "points at an OpenAI-compatible API (usually ending in /v1)"
            ) from exc
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise GenerationError(
                f"the LLM endpoint {self.url} answered JSON without choices[0].message.content: "
                f"{snippet!r}; check it serves OpenAI-compatible chat completions"
            ) from exc
        if not isinstance(content, str) or not content.strip():
            raise GenerationError(
                f"the LLM endpoint {self.url} answered an empty message; check the model loaded "
                "and max_tokens is large enough"
            )
        return content.strip()
