"""A small OpenAI-compatible server for tests: serves a local model with the HF backend on 127.0.0.1.

Run as a process: ``python openai_server.py MODEL_DIR [--name NAME]``; it prints ``PORT <n>`` once listening.

- ``GET /v1/models``, ``POST /v1/chat/completions`` (the model's chat template), ``POST /v1/completions``
  (the prompt as text), with ``seed`` (child ``i`` of an ``n``-sample request draws with ``seed + i``, as vLLM
  does; no seed: a random one), ``temperature``, ``top_p``, ``n``, ``max_tokens``, ``stop`` and ``usage``;
  bad fields answer 400 and an unknown model 404, with OpenAI's ``{"error": {"message": ...}}``.
- ``POST /admin/fail`` ``{"count": K, "mode": "503" | "429" | "400" | "drop", "after": A}``: after A more
  generation requests, the next K fail with that status (``drop``: the connection is closed without an answer).
- ``POST /admin/delay`` ``{"seconds": s}``: each generation request waits ``s`` seconds first.
- ``POST /admin/models`` ``{"extra": [names]}`` lists more models; ``{"hide": true}``: ``/v1/models`` answers 404.
- ``GET /admin/stats``: generation requests answered, failed on purpose, and the most in flight at once
  (``POST /admin/reset`` restarts that count).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from verifiers.errors import ConfigError
from verifiers_train.evaluation._backends import GenerationRequest, SamplingConfig
from verifiers_train.evaluation._hf import HFBackend


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class State:
    def __init__(self, backend: HFBackend, name: str, root: str) -> None:
        self.backend, self.name, self.root = backend, name, root
        self.lock = threading.Lock()  # one generation at a time (the model is not shared across threads)
        self.stats = {"answered": 0, "failed": 0, "in_flight": 0, "peak_in_flight": 0}
        self.fail_count, self.fail_mode, self.fail_after, self.delay = 0, "503", 0, 0.0
        self.extra_models: list[str] = []
        self.hide_models = False
        self.counter = threading.Lock()


def make_handler(state: State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, data: dict[str, Any]) -> None:
            body = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "BadRequestError", "code": status}})

        def do_GET(self) -> None:
            if self.path == "/v1/models" and not state.hide_models:
                self._send(200, {"object": "list", "data": [
                    {"id": name, "object": "model", "root": state.root, "owned_by": "tests"}
                    for name in [state.name, *state.extra_models]]})
            elif self.path == "/admin/stats":
                with state.counter:
                    self._send(200, dict(state.stats))
            else:
                self._error(404, f"no route {self.path}")

        def do_POST(self) -> None:
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            except ValueError:
                self._error(400, "body is not JSON")
                return
            if self.path == "/admin/fail":
                with state.counter:
                    state.fail_count, state.fail_mode = int(body["count"]), str(body.get("mode", "503"))
                    state.fail_after = int(body.get("after", 0))
                self._send(200, {"ok": True})
            elif self.path == "/admin/reset":  # the peak counts from now
                with state.counter:
                    state.stats["peak_in_flight"] = state.stats["in_flight"]
                self._send(200, {"ok": True})
            elif self.path == "/admin/models":
                state.extra_models, state.hide_models = list(body.get("extra", [])), bool(body.get("hide"))
                self._send(200, {"ok": True})
            elif self.path == "/admin/delay":
                state.delay = float(body["seconds"])
                self._send(200, {"ok": True})
            elif self.path in ("/v1/chat/completions", "/v1/completions"):
                self._generate(body, chat=self.path.endswith("chat/completions"))
            else:
                self._error(404, f"no route {self.path}")

        def _generate(self, body: dict[str, Any], chat: bool) -> None:
            with state.counter:
                state.stats["in_flight"] += 1
                state.stats["peak_in_flight"] = max(state.stats["peak_in_flight"], state.stats["in_flight"])
                fail, mode = state.fail_count > 0 and state.fail_after == 0, state.fail_mode
                state.fail_after = max(0, state.fail_after - 1)
                if fail:
                    state.fail_count -= 1
                    state.stats["failed"] += 1
            try:
                time.sleep(state.delay)
                if fail and mode == "drop":
                    self.close_connection = True
                    self.connection.shutdown(2)  # no answer at all: the client sees the connection drop
                    return
                if fail:
                    self.send_response(int(mode))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                try:
                    self._send(200, answer(state, body, chat))
                except BadRequest as e:
                    self._error(e.status, str(e))
                    return
                with state.counter:
                    state.stats["answered"] += 1
            finally:
                with state.counter:
                    state.stats["in_flight"] -= 1

    return Handler


def answer(state: State, body: dict[str, Any], chat: bool) -> dict[str, Any]:
    """The OpenAI-shaped answer to one generation request."""
    if body.get("model") != state.name:
        raise BadRequest(404, f"The model `{body.get('model')}` does not exist.")
    n = body.get("n", 1)
    max_tokens = body.get("max_tokens", 16)
    stop = body.get("stop") or []
    stop = [stop] if isinstance(stop, str) else stop
    if not isinstance(n, int) or not isinstance(max_tokens, int) or not isinstance(stop, list):
        raise BadRequest(400, "n and max_tokens must be integers, stop a string or a list")
    try:
        sampling = SamplingConfig(n=n, temperature=float(body.get("temperature", 1.0)),
                                  top_p=float(body.get("top_p", 1.0)), max_tokens=max_tokens, stop=tuple(stop))
    except (ConfigError, TypeError, ValueError) as e:
        raise BadRequest(400, str(e)) from e
    seed = body.get("seed")
    seed = random.randrange(2**31 - 2**20) if seed is None else int(seed)
    if chat:
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest(400, "messages must be a non-empty list")
        text, ids = state.backend.render(messages)
    else:
        prompt = body.get("prompt")
        if not isinstance(prompt, str):
            raise BadRequest(400, "prompt must be a string")
        text, ids = state.backend.render(prompt)
    with state.lock:
        outs = state.backend.generate([GenerationRequest(0, text, ids, tuple(range(n)), seed)], sampling)
    choices = [{"index": c.sample_index, "finish_reason": c.finish_reason,
                **({"message": {"role": "assistant", "content": c.text}} if chat else {"text": c.text})}
               for c in outs]
    completion = sum(c.response_tokens for c in outs)
    return {"id": f"cmpl-{random.randrange(10**9)}", "object": "chat.completion" if chat else "text_completion",
            "model": state.name, "choices": choices,
            "usage": {"prompt_tokens": len(ids), "completion_tokens": completion,
                      "total_tokens": len(ids) + completion}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--name", help="served model name (default: the model path)")
    args = ap.parse_args()
    state = State(HFBackend(args.model, device="cpu"), args.name or args.model, args.model)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
