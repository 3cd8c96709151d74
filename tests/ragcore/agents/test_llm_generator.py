"""OpenAICompatibleGenerator against real HTTP servers on loopback standing in for the LLM.

Each server is a ``ThreadingHTTPServer`` on port 0 whose reply function plays one kind
of LLM: faithful, hallucinating, abstaining, failing or slow. The evidence comes from
real hits of the real engine over the sample documents.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ragcore.agents.evidence import Evidence, Statement
from ragcore.agents.generation.llm import NO_ANSWER_TEXT, OpenAICompatibleGenerator, build_messages
from ragcore.errors import ConfigError, GenerationError
from ragcore.text.citations import strip_citations

KEY = "sk-test-5f1d2c9a7b"
MODEL = "qwen2.5-1.5b-instruct"
QUESTION = "How often must the mechanical seal of the CP-200 be replaced?"


@dataclass(frozen=True)
class Received:
    """One request as the stand-in LLM saw it."""

    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.raw)

    @property
    def user(self) -> str:
        return next(m["content"] for m in self.json["messages"] if m["role"] == "user")


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        request = Received(self.path, dict(self.headers.items()), raw)
        self.server.requests.append(request)
        status, body = self.server.reply(request, self.server)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (the timeout test)
            pass

    def log_message(self, *_args) -> None:  # keep test output quiet
        pass


@pytest.fixture
def serve():
    """Start a stand-in LLM: ``serve(reply)`` → (base_url, server); all stop at teardown."""
    started = []

    def start(reply):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = False  # so server_close() joins the handler threads
        server.reply, server.requests, server.release = reply, [], threading.Event()
        thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        thread.start()
        started.append((server, thread))
        host, port = server.server_address[:2]
        return f"http://{host}:{port}/v1", server

    yield start
    for server, thread in started:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def evidence(engine, docs) -> list[Evidence]:
    engine.ingest(docs)
    hits = engine.search(QUESTION, k=3)
    assert len(hits) == 3
    return [
        Evidence(number=i, hit=h, score=h.score, credibility=0.5) for i, h in enumerate(hits, 1)
    ]


def completion(content) -> dict:
    return {"id": "x", "object": "chat.completion", "choices": [{"message": {"content": content}}]}


def faithful(request: Received, _server):
    """Quote the first sentence of the first numbered context passage, with its citation."""
    body = request.json
    if not body.get("model") or not body.get("messages"):
        return 400, {"error": "model and messages are required"}
    passages = re.findall(r"^\[(\d+)\] \(.*?\) (.+)$", request.user, re.MULTILINE)
    if not passages:
        return 200, completion(NO_ANSWER_TEXT)
    number, text = passages[0]
    sentence = re.split(r"(?<=\.)\s", text)[0].rstrip(".")
    return 200, completion(f"{sentence} [{number}].")


def fixed(status, body):
    return lambda _request, _server: (status, body)


def generator(url: str, **kwargs) -> OpenAICompatibleGenerator:
    return OpenAICompatibleGenerator(url, MODEL, **kwargs)


def generation_error(gen, evidence) -> str:
    """The GenerationError message for one call; it must never reveal the api key."""
    with pytest.raises(GenerationError) as caught:
        gen.generate(QUESTION, evidence)
    message = str(caught.value)
    assert KEY not in message
    assert caught.value.__cause__ is not None or "empty" in message
    return message


# -- answers -------------------------------------------------------------------------
def test_faithful_answer_cites_the_evidence_it_quotes(serve, evidence):
    url, server = serve(faithful)
    with generator(url, api_key=KEY, temperature=0.0, max_tokens=123) as gen:
        draft = gen.generate(QUESTION, evidence, perception=object())

    assert draft.generator == "openai-compatible" and not draft.abstained
    assert draft.citations == (1,)
    assert [s.citations for s in draft.statements] == [(1,)]
    assert strip_citations(draft.statements[0].text) in evidence[0].text

    (request,) = server.requests
    body = request.json
    assert request.path == "/v1/chat/completions"
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert body["model"] == MODEL and body["temperature"] == 0.0 and body["max_tokens"] == 123
    assert body["stream"] is False
    system = body["messages"][0]
    assert system["role"] == "system"
    assert "ONLY" in system["content"] and "outside knowledge" in system["content"]
    assert "Cite every sentence" in system["content"] and "[1]" in system["content"]
    assert NO_ANSWER_TEXT in system["content"]
    assert QUESTION in request.user


def test_trailing_slash_and_no_key_send_no_authorization(serve, evidence):
    url, server = serve(faithful)
    generator(url + "/").generate(QUESTION, evidence)
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert "Authorization" not in request.headers


def test_hallucinated_answer_is_returned_unchanged_for_the_validator(serve, evidence):
    made_up = "The pump needs 9999 W [7]."
    url, _ = serve(fixed(200, completion(made_up)))
    draft = generator(url).generate(QUESTION, evidence)

    assert draft.text == made_up and not draft.abstained
    assert draft.statements == (Statement(made_up, (7,)),)
    assert 7 not in {e.number for e in evidence}
    assert not any("9999" in e.text for e in evidence)


@pytest.mark.parametrize(
    "reply",
    [
        NO_ANSWER_TEXT,
        f"  {NO_ANSWER_TEXT.lower()[:-1]} \n",
        # Models decline in their own words too.
        "The documents do not say what the WS-50 weighs; its manual gives no weight.",
        "The provided context doesn't mention a warranty for the UV-80.",
        "No information is given about the colour of the enclosure.",
    ],
)
def test_no_answer_reply_abstains(serve, evidence, reply):
    url, _ = serve(fixed(200, completion(reply)))
    draft = generator(url).generate(QUESTION, evidence)
    assert draft.abstained and draft.citations == ()


def test_empty_evidence_abstains_without_calling_the_endpoint(serve):
    url, server = serve(faithful)
    draft = generator(url).generate(QUESTION, [])
    assert draft.abstained and draft.text == NO_ANSWER_TEXT
    assert server.requests == []


# -- failures ------------------------------------------------------------------------
def test_http_500_names_status_and_body(serve, evidence):
    url, _ = serve(fixed(500, b"model crashed: CUDA out of memory " + b"x" * 1000))
    message = generation_error(generator(url, api_key=KEY), evidence)
    assert "500" in message and "out of memory" in message and url in message
    assert "x" * 201 not in message  # the body snippet is capped at 200 characters


def test_401_never_reveals_the_api_key(serve, evidence):
    def echo_auth(request, _server):
        return 401, {"error": f"invalid key: {request.headers['Authorization']}"}

    url, _ = serve(echo_auth)
    message = generation_error(generator(url, api_key=KEY), evidence)
    assert "401" in message and "invalid key" in message


def test_slow_endpoint_times_out(serve, evidence):
    def slow(_request, server):
        server.release.wait(5)  # set at teardown, long after the client gave up
        return 200, completion("too late [1].")

    url, _ = serve(slow)
    message = generation_error(generator(url, api_key=KEY, timeout=0.3), evidence)
    assert "timeout" in message and "0.3 s" in message and url in message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"<html>Bearer " + KEY.encode() + b" is not JSON</html>", "did not answer JSON"),
        (b"\xff\xfe not utf-8", "did not answer JSON"),
        ({"error": {"message": "model not found"}}, "without choices"),
        ({"choices": []}, "without choices"),
        ({"choices": [{"text": "legacy completion"}]}, "without choices"),
        (completion(""), "empty"),
        (completion(None), "empty"),
    ],
)
def test_malformed_response_raises(serve, evidence, body, expected):
    url, _ = serve(fixed(200, body))
    message = generation_error(generator(url, api_key=KEY), evidence)
    assert expected in message and url in message


def test_closed_port_names_the_url(evidence):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    message = generation_error(generator(url, api_key=KEY), evidence)
    assert f"{url}/chat/completions" in message and "cannot reach" in message


# -- prompt --------------------------------------------------------------------------
def _entries(messages) -> list[str]:
    user = messages[1]["content"]
    return re.findall(r"^\[\d+\] .*$", user, re.MULTILINE)


def test_build_messages_numbers_by_evidence_number(evidence):
    renumbered = [Evidence(n, e.hit, e.score, 0.5) for n, e in zip((6, 4, 5), evidence)]
    messages = build_messages(QUESTION, renumbered)
    assert [m["role"] for m in messages] == ["system", "user"]
    entries = _entries(messages)
    assert [e.split("]")[0] for e in entries] == ["[4", "[5", "[6"]
    by_number = {e.number: e for e in renumbered}
    doc = by_number[4].document
    assert entries[0] == f"[4] ({doc.title}, {doc.updated_at.isoformat()}) {by_number[4].text}"
    assert messages[1]["content"].endswith(f"Question: {QUESTION}")  # context first


def test_build_messages_truncates_context_to_budget(evidence):
    full = _entries(build_messages(QUESTION, evidence, max_context_chars=100_000))
    assert len(full) == 3
    budget = len(full[0]) + 2 + len(full[1]) - 1  # one character short of two passages
    kept = _entries(build_messages(QUESTION, evidence[::-1], max_context_chars=budget))
    assert kept == full[:1]  # the highest-numbered passages go first

    cut = _entries(build_messages(QUESTION, evidence, max_context_chars=40))
    assert cut == [full[0][:40]]


def test_generator_applies_its_context_budget(serve, evidence):
    url, server = serve(faithful)
    draft = generator(url, max_context_chars=50).generate(QUESTION, evidence)
    (request,) = server.requests
    assert len(_entries([None, {"content": request.user}])) == 1
    # The draft says which passages the model read: a citation of another points at nothing.
    assert draft.shown == (min(e.number for e in evidence),)


# -- configuration -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"base_url": "ftp://127.0.0.1/v1"}, "base_url"),
        ({"base_url": "127.0.0.1:8080/v1"}, "base_url"),
        ({"base_url": "http://[::1/v1"}, "base_url"),
        ({"model": ""}, "model"),
        ({"model": "   "}, "model"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": -1.0}, "timeout"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"temperature": 3.0}, "temperature"),
        ({"max_context_chars": 0}, "max_context_chars"),
        ({"api_key": KEY + "\r\nX-Evil: 1"}, "api_key"),
    ],
)
def test_bad_constructor_arguments_name_the_field(kwargs, field):
    args = {"base_url": "http://127.0.0.1:8080/v1", "model": MODEL} | kwargs
    with pytest.raises(ConfigError) as caught:
        OpenAICompatibleGenerator(args.pop("base_url"), args.pop("model"), **args)
    assert caught.value.field == field
    assert field in str(caught.value) and KEY not in str(caught.value)


def test_an_answer_that_mentions_what_the_documents_do_not_say_later_is_an_answer(serve, evidence):
    reply = "The pump delivers 450 L/min [1]; the documents do not say what it weighs."
    url, _ = serve(fixed(200, completion(reply)))
    assert not generator(url).generate(QUESTION, evidence).abstained
