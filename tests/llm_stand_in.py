"""An OpenAI-compatible LLM on loopback for the table tests: asked for SQL (the prompt
says "SQLite SELECT"), it answers ``server.sql``; otherwise it quotes the first passage
of the numbered context, cited. ``server.requests`` records every (system, user) pair."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StandInServer(ThreadingHTTPServer):
    sql: str
    requests: list[tuple[str, str]]

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: StandInServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        system, user = (m["content"] for m in body["messages"])
        self.server.requests.append((system, user))
        if "SQLite SELECT" in system:  # the SQL proposal: whatever the test set
            content = self.server.sql
        else:  # a faithful answer: the first passage, cited
            number, text = re.findall(r"^\[(\d+)\] \(.*?\) (.+)$", user, re.MULTILINE)[0]
            content = f"{text.rstrip('.')} [{number}]."
        data = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_args) -> None:
        pass


@contextlib.contextmanager
def stand_in_llm(sql: str) -> Iterator[StandInServer]:
    """The server, running on a free port until the block ends."""
    server = StandInServer(("127.0.0.1", 0), _Handler)
    server.sql, server.requests = sql, []
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
