"""Hostile programs for any code task, and a verl reward that puts them into a real run's rollouts.

A randomly initialised or tiny policy never writes an attack, so a GPU run proves nothing about hostile
rollouts by itself. `injected` is a verl custom reward that replaces a share of the policy's responses by
hostile programs (`FAMILIES`) before scoring them with our reward (`verifiers_train.reward.compute_score`),
inside verl's own reward workers, during a real GRPO run. Each program attacks at module level (so it runs
for a function task's tests and for a stdin/stdout task's ``__main__`` alike) and then defines the task's entry
point (``solve`` when the task has none), so it is extracted and run, never dropped as ``no_answer``::

    reward.custom_reward_function.path=/abs/evals/gpu/hostile_code.py
    reward.custom_reward_function.name=injected
    +reward.custom_reward_function.reward_kwargs.share=0.25
    +reward.custom_reward_function.reward_kwargs.sample_log=/abs/RUN/reward_samples.jsonl

Every hostile sample must score 0 (``acc`` 0) and the run must go on; ``tests/verifiers_train/test_code_rl.py``
feeds the same families through verl's reward worker on a CPU.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from typing import Any

from verifiers import tasks
from verifiers_train.reward import compute_score

# The file a host-write attack tries to create (its absence after a run is checked): /tmp/<MARKER>_*.
MARKER = "verifiers_pwned"
# family -> module-level attack; ``{f}`` is the entry point, ``{marker}`` the host-write marker.
FAMILIES: dict[str, str] = {
    "infinite_loop": "while True:\n    pass\n",
    "sleep_forever": "import time\ntime.sleep(10 ** 6)\n",
    "fork_bomb": ("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"),
    "memory_hog": "x = bytearray(8 * 1024 ** 3)\nx[::4096] = b'x' * len(x[::4096])\n",
    "memory_creep": "blocks = []\nwhile True:\n    blocks.append(bytearray(64 * 1024 ** 2))\n",
    "output_flood": "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    "exit_before_tests": "import os\nos._exit(0)\n",
    "system_exit": "raise SystemExit(0)\n",
    "kill_parent": ("import os, signal\nfor pid in (os.getppid(), 1, -1):\n    try:\n"
                    "        os.kill(pid, signal.SIGKILL)\n    except Exception:\n        pass\n"),
    "read_files": ("import os\nfound = []\nfor root, dirs, files in os.walk('/'):\n"
                   "    found += [os.path.join(root, n) for n in files if n.endswith(('.jsonl', '.parquet'))]\n"
                   "    if len(found) > 50:\n        break\n"
                   "for p in ['/etc/passwd', '/proc/1/environ', '/proc/self/environ'] + found:\n    try:\n"
                   "        print(open(p, 'rb').read(2000))\n    except Exception as e:\n        print(p, e)\n"),
    "monkeypatch_builtins": ("import builtins, sys\n"
                             "builtins.AssertionError = type('AssertionError', (Exception,), {})\n"
                             "builtins.isinstance = lambda *a: True\nbuiltins.abs = lambda x: 0\n"
                             "builtins.all = lambda *a: True\nbuiltins.any = lambda *a: True\n"
                             "sys.exit = lambda *a: None\n"),
    "always_equal": ("class Anything:\n    def __eq__(self, other):\n        return True\n"
                     "    def __ne__(self, other):\n        return False\n    def __str__(self):\n"
                     "        return ''\nprint(Anything())\n"),
    "host_write": ("import os\nfor d in ('/tmp', os.getcwd(), os.path.expanduser('~')):\n    try:\n"
                   "        open(os.path.join(d, '{marker}_' + str(os.getpid())), 'w').write('pwned')\n"
                   "    except Exception:\n        pass\n"),
    "thread_spin": ("import threading\ndef spin():\n    while True:\n        pass\n"
                    "for _ in range(64):\n    threading.Thread(target=spin, daemon=True).start()\n"
                    "spin()\n"),
}


def entry_point(data_source: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None) -> str:
    """The function a row's tests call (``solve`` for a task without one, e.g. a stdin/stdout program)."""
    spec = tasks.for_data_source(data_source)
    if spec is None:
        return "solve"
    try:
        ref = spec.reference.decode(ground_truth, str((extra_info or {}).get("setup_code") or ""))
    except Exception:  # noqa: BLE001 - an undecodable reference: any name will do, the scorer reports the error
        return "solve"
    return str(getattr(ref, "entry_point", "") or "solve")


def hostile_response(family: str, function: str) -> str:
    """A response holding family ``family``'s program, which then defines ``function``."""
    attack = FAMILIES[family].replace("{marker}", MARKER)
    return (f"Here is my solution.\n```python\n{attack}\n\ndef {function}(*args, **kwargs):\n"
            f"    return None\n\nif __name__ == '__main__':\n    print({function}())\n```\n")


def pick(solution_str: str, index: Any, share: float) -> str | None:
    """The family replacing this response, or ``None``: a hash of the response and row, so replays agree."""
    digest = hashlib.sha256(f"{index}\0{solution_str}".encode()).digest()
    if int.from_bytes(digest[:4], "big") / 2 ** 32 >= share:
        return None
    names = sorted(FAMILIES)
    return names[int.from_bytes(digest[4:8], "big") % len(names)]


def injected(data_source: str, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None, *,
             share: float = 0.25, sample_log: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """Our reward, with ``share`` of the responses replaced by hostile programs; one log line per sample.

    The log line (one ``O_APPEND`` write: Ray stops reward workers without exit handlers) holds the worker pid,
    the family (``null`` for the policy's own response), the scorer's seconds and the reward fields.
    """
    index = (extra_info or {}).get("index")
    family = pick(solution_str, index, share)
    response = solution_str if family is None else hostile_response(
        family, entry_point(data_source, ground_truth, extra_info))
    start = time.perf_counter()
    result = compute_score(data_source, response, ground_truth, extra_info, **kwargs)
    if sample_log:
        line = {"pid": os.getpid(), "family": family, "data_source": data_source, "index": index,
                "seconds": round(time.perf_counter() - start, 4),
                **{k: v for k, v in result.items() if k != "pred"}}
        try:  # a log that cannot be written must not crash verl's reward worker; the summary sees it missing
            os.makedirs(os.path.dirname(os.path.abspath(sample_log)), exist_ok=True)
            fd = os.open(sample_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                os.write(fd, (json.dumps(line) + "\n").encode())
            finally:
                os.close(fd)
        except OSError:
            pass
    return result
