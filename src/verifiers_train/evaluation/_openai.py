"""OpenAI-compatible backend: a model served by ``vllm serve``, SGLang, TGI or any server of that API.

Each sample is one HTTP request (``n=1``) carrying the sample's own seed (``base_seed + j``, the seeds the
local backends use): a server that honours ``seed`` (vLLM, SGLang) draws each sample with it (up to the
server's batch-dependent numerics: it batches our requests with its other traffic), the response's
``usage.completion_tokens`` is that sample's token count, and a resumed run asks only for the samples it lacks. ``concurrency`` requests are in flight at once; the next batch's requests are
queued while the current one finishes, so the server stays busy across batches.

Chat prompts go to ``/chat/completions`` as messages (the server applies the model's chat template); a
plain-text template's prompt (``gsm8k-8shot-cot``) goes to ``/completions`` as it is. Connection errors,
timeouts, 429 and 5xx answers are retried with exponential backoff (``retry_wait`` doubling, at most
``max_retries`` times, honouring ``Retry-After``); any other 4xx stops the run at once with the server's message.
"""

from __future__ import annotations

import hashlib
import json
import queue
import random
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, wait
from typing import Any
from urllib.parse import urlsplit

from verifiers.cli_common import one_line
from verifiers.errors import ConfigError
from verifiers.extras import require
from verifiers_train.evaluation._backends import Completion, GenerationRequest, SamplingConfig, cut_at_stop

_PURPOSE = "verifiers-eval checkpoint --backend openai"
_MAX_WAIT = 60.0  # longest single backoff, also for a server's Retry-After
_AHEAD = 2  # batches whose requests are queued at once (the one being finished and the next)


def api_root(base_url: str) -> str:
    """``base_url`` without a trailing slash; a bare ``http://host:port`` gets the usual ``/v1``."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"--base-url must be an http(s) URL such as http://localhost:8000/v1, got {base_url!r}")
    root = base_url.rstrip("/")
    return root + "/v1" if parts.path in ("", "/") else root


def check_options(*, base_url: str, concurrency: int = 8, max_retries: int = 5, retry_wait: float = 1.0,
                  request_timeout: float = 600.0) -> None:
    """Refuse settings `OpenAIBackend` cannot use, before anything is sent (`ConfigError`, one line)."""
    api_root(base_url)
    if concurrency < 1:
        raise ConfigError(f"--concurrency must be at least 1, got {concurrency}")
    if max_retries < 0 or not retry_wait >= 0 or not request_timeout > 0:
        raise ConfigError(f"--max-retries and --retry-wait must be >= 0 and --request-timeout > 0, got "
                          f"{max_retries}, {retry_wait}, {request_timeout}")


class RequestRefused(ConfigError):
    """The server answered a 4xx other than 429: the request itself is wrong, so it is not retried."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class _DaemonPool:
    """A fixed set of daemon threads running submitted calls: unlike `ThreadPoolExecutor`'s, a process that
    stops (an error, Ctrl-C) does not wait for the requests still in flight."""

    def __init__(self, workers: int) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None] = (
            queue.SimpleQueue())
        self._workers = workers
        for i in range(workers):
            threading.Thread(target=self._work, name=f"openai-{i}", daemon=True).start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._queue.put((future, fn, args))
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except Exception as e:  # noqa: BLE001 - handed to whoever reads the future
                future.set_exception(e)

    def shutdown(self) -> None:
        """Cancel what has not started; each thread ends after its current call."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[0].cancel()
        for _ in range(self._workers):
            self._queue.put(None)


class OpenAIBackend:
    """Generate through an OpenAI-compatible HTTP API.

    Args:
        model: the served model's name (``model`` of each request), as the server's ``/v1/models`` lists it.
        base_url: the API root, e.g. ``http://localhost:8000/v1``.
        api_key: sent as ``Authorization: Bearer ...`` when given.
        concurrency: requests in flight at once.
        max_retries: retries of one request after a connection error, timeout, 429 or 5xx.
        retry_wait: seconds before the first retry; doubled for each next one (with jitter), at most 60.
        request_timeout: seconds one request may take (a long generation needs a long timeout).
    """

    name = "openai"

    def __init__(self, model: str, *, base_url: str, api_key: str | None = None, concurrency: int = 8,
                 max_retries: int = 5, retry_wait: float = 1.0, request_timeout: float = 600.0) -> None:
        httpx = require("httpx", "train", _PURPOSE)
        check_options(base_url=base_url, concurrency=concurrency, max_retries=max_retries, retry_wait=retry_wait,
                      request_timeout=request_timeout)
        self.model = model
        self.root = api_root(base_url)
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.retry_wait = retry_wait
        self._closed = threading.Event()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(headers=headers, timeout=httpx.Timeout(request_timeout, connect=30.0),
                                   limits=httpx.Limits(max_connections=concurrency,
                                                       max_keepalive_connections=concurrency))

    def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
        """The prompt as the samples file records it; the server tokenizes, so there are no ids here."""
        return render_messages(messages), ()

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        """Every requested sample, one request each, ``concurrency`` at a time."""
        for _, completions in self.generate_each([list(requests)], sampling):
            return completions
        return []

    def generate_each(self, batches: Iterable[list[GenerationRequest]], sampling: SamplingConfig
                      ) -> Generator[tuple[list[GenerationRequest], list[Completion]], None, None]:
        """Each batch with its completions, in order; the next batch's requests are sent while one finishes."""
        pool = _DaemonPool(self.concurrency)
        window: deque[tuple[list[GenerationRequest], list[Future[Completion]]]] = deque()
        upcoming = iter(batches)
        try:
            while True:
                while len(window) < _AHEAD and (batch := next(upcoming, None)) is not None:
                    window.append((batch, [pool.submit(self._sample, req, j, sampling)
                                           for req in batch for j in req.sample_indices]))
                if not window:
                    return
                batch, futures = window.popleft()
                done, _ = wait(futures, return_when=FIRST_EXCEPTION)
                for f in done:  # a failed request stops the run at once, whatever is still in flight
                    if (error := f.exception()) is not None:
                        raise error
                yield batch, [f.result() for f in futures]
        finally:
            pool.shutdown()

    def _sample(self, req: GenerationRequest, j: int, sampling: SamplingConfig) -> Completion:
        seed = req.base_seed + j
        body: dict[str, Any] = {"model": self.model, "max_tokens": sampling.max_tokens, "n": 1, "seed": seed,
                                "temperature": sampling.temperature, "top_p": sampling.top_p}
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if req.chat is None:
            answer = self._post("completions", body | {"prompt": req.prompt})
            choice = _first_choice(answer, "completions")
            text = choice.get("text")
        else:
            answer = self._post("chat/completions", body | {"messages": list(req.chat)})
            choice = _first_choice(answer, "chat/completions")
            text = (choice.get("message") or {}).get("content")
        usage = answer.get("usage") or {}
        tokens = usage.get("completion_tokens")
        if not isinstance(text, str) or not isinstance(tokens, int):
            raise ConfigError(f"{self.root}: an answer without text or usage.completion_tokens "
                              f"({one_line(json.dumps(answer))[:200]}); is this an OpenAI-compatible server?")
        text, cut = cut_at_stop(text, sampling.stop)
        reason = "length" if choice.get("finish_reason") == "length" and not cut else "stop"
        return Completion(req.problem_index, j, seed, text, tokens, reason)

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", path, body)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """One API call with the retry policy; returns the JSON answer.

        Raises:
            ConfigError: a 4xx other than 429 (at once), or still failing after ``max_retries`` retries.
        """
        import httpx

        url = f"{self.root}/{path}"
        for attempt in range(self.max_retries + 1):
            if self._closed.is_set():
                raise ConfigError(f"{url}: backend closed")
            retry_after = None
            try:
                resp = self.client.request(method, url, json=body)
            except httpx.TransportError as e:  # refused, dropped, timed out
                problem = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
            else:
                if resp.status_code < 300:
                    try:
                        data = resp.json()
                    except ValueError as e:
                        raise ConfigError(f"{url}: HTTP {resp.status_code} but not JSON ({resp.text[:200]!r})") from e
                    if not isinstance(data, dict):
                        raise ConfigError(f"{url}: expected a JSON object, got {resp.text[:200]!r}")
                    return data
                problem = f"HTTP {resp.status_code}: {_server_message(resp)}"
                if resp.status_code != 429 and resp.status_code < 500:
                    hint = " (pass --api-key or set OPENAI_API_KEY)" if resp.status_code == 401 else ""
                    raise RequestRefused(f"{method} {url}: {problem}{hint}", resp.status_code)
                retry_after = _seconds(resp.headers.get("retry-after"))
            if attempt == self.max_retries:
                raise ConfigError(f"{method} {url} failed after {attempt + 1} attempts (last: {problem}); samples "
                                  "already generated are saved: add --resume to continue once the server answers")
            pause = retry_after if retry_after is not None else self.retry_wait * 2**attempt * random.uniform(0.5, 1.0)
            if self._closed.wait(min(pause, _MAX_WAIT)):
                raise ConfigError(f"{url}: backend closed")
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Stop retrying and close the connections (in-flight requests end with an error nobody reads)."""
        self._closed.set()
        self.client.close()


def render_messages(prompt: list[dict[str, str]] | str) -> str:
    """A readable record of a chat prompt (``<|role|>`` then the content, per message); text as it is."""
    if isinstance(prompt, str):
        return prompt
    return "".join(f"<|{m['role']}|>\n{m['content']}\n" for m in prompt)


def served_model(base_url: str, model: str | None, api_key: str | None = None, *, max_retries: int = 2,
                 retry_wait: float = 0.5) -> tuple[str, str]:
    """The model name to request (``model``, or the only one the server lists) and a fingerprint of it.

    The fingerprint hashes the server's ``id`` and ``root`` (vLLM: the weights' path) for the model, so a
    resume against a server of another model is refused; a server that does not list ``model`` hashes the name.

    Raises:
        ConfigError: the server is unreachable, lists no model, or lists several and ``model`` is not given.
    """
    backend = OpenAIBackend(model or "", base_url=base_url, api_key=api_key, max_retries=max_retries,
                            retry_wait=retry_wait, request_timeout=30.0)
    try:
        listed = backend.request("GET", "models").get("data")
    except RequestRefused:
        if not model:
            raise
        listed = None  # a server without /models: the name is all there is to go on
    finally:
        backend.close()
    entries = {str(e.get("id")): e for e in listed if isinstance(e, dict)} if isinstance(listed, list) else {}
    if not model:
        if len(entries) != 1:
            raise ConfigError(f"{backend.root}/models lists {len(entries)} models"
                              + (f" ({', '.join(sorted(entries))})" if entries else "")
                              + "; pass the one to evaluate as MODEL")
        model = next(iter(entries))
    entry = entries.get(model, {})
    key = json.dumps({"id": model, "root": entry.get("root")}, sort_keys=True)
    return model, hashlib.sha256(key.encode()).hexdigest()[:16]


def _first_choice(answer: dict[str, Any], endpoint: str) -> dict[str, Any]:
    choices = answer.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ConfigError(f"/{endpoint} answered without choices ({one_line(json.dumps(answer))[:200]})")
    return choices[0]


def _server_message(resp: Any) -> str:
    """The error message of an answer: OpenAI's ``{"error": {"message": ...}}``, else the body's start."""
    try:
        data = resp.json()
    except ValueError:
        return one_line(resp.text)[:300] or resp.reason_phrase
    err = data.get("error") if isinstance(data, dict) else None
    msg = err.get("message") if isinstance(err, dict) else err if isinstance(err, str) else data.get("message") \
        if isinstance(data, dict) else None
    return one_line(str(msg if msg is not None else data))[:300]


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: use the backoff instead
