"""A sampling profiler for every Python process of a verl run: driver, Ray workers, vLLM (diagnostic).

Put this folder first on PYTHONPATH and set PROF_OUT; Ray workers inherit both, so each Python process
imports this file at start-up. Every 20 ms a thread records the stack of every other thread; every 15 s it
writes the stacks that were not idle to ``$PROF_OUT/<pid>.folded`` ("frame;frame;...;leaf count", the
first line names the process). Summarise with ``python evals/gpu/profile_summary.py $PROF_OUT``.

    PYTHONPATH=$PWD/evals/gpu/sampling_profiler PROF_OUT=/root/prof bash evals/gpu/gpu_e2e.sh grpo
"""

import os

_IDLE = frozenset(("wait", "select", "poll", "sleep", "acquire", "_recv", "recv", "readinto", "accept",
                   "epoll", "_worker", "get", "join", "read", "run_forever", "_run_once", "serve_forever",
                   "main_loop"))


def _sample_forever(out_dir: str, period_s: float = 0.02, flush_s: float = 15.0) -> None:
    import collections
    import sys
    import threading
    import time

    counts: collections.Counter[str] = collections.Counter()
    me, last = threading.get_ident(), time.time()
    while True:
        time.sleep(period_s)
        for tid, frame in sys._current_frames().items():
            if tid == me or frame.f_code.co_name in _IDLE:
                continue
            names, f = [], frame
            while f is not None and len(names) < 60:
                names.append(f"{os.path.basename(f.f_code.co_filename)}:{f.f_code.co_name}:{f.f_lineno}")
                f = f.f_back
            counts[";".join(reversed(names))] += 1
        if counts and time.time() - last > flush_s:
            last = time.time()
            try:
                os.makedirs(out_dir, exist_ok=True)
                tmp = f"{out_dir}/{os.getpid()}.folded.tmp"
                with open(tmp, "w") as fh:
                    fh.write("# " + " ".join(sys.argv)[:300] + "\n")
                    fh.writelines(f"{k} {v}\n" for k, v in counts.most_common(3000))
                os.replace(tmp, f"{out_dir}/{os.getpid()}.folded")
            except OSError:
                pass


if os.environ.get("PROF_OUT"):
    import threading

    threading.Thread(target=_sample_forever, args=(os.environ["PROF_OUT"],), daemon=True,
                     name="sampling-profiler").start()
