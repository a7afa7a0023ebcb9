"""Run every redteam27b attempt; print one line per attempt: class | attempt | expected | observed | verdict.

    PYTHONPATH=src python evals/sandbox/redteam27b/run_all.py            # as this user
    RT_AS_USER=rt27b PYTHONPATH=... python .../run_all.py                # also the limits/fairness attempts as
                                                                         # that user (needs root and RT_USER_PY)

RT_AS_USER: a normal user to re-run the `AS_USER` attempts under (su); RT_USER_PY: a Python that user can
execute; RT_USER_PATH: a PYTHONPATH readable by that user (a copy of src/ and the needed site-packages).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ATTEMPTS = ["a1_fairness_threads.py", "a2_head_of_line.py", "a3_socket_kmem.py", "a4_fork_memory.py",
            "a5_parent_memory.py", "a6_cli_rows.py", "a7_value_decoding.py", "a8_humaneval_cli.py",
            "a9_side_channels.py", "a10_cpu_starvation.py", "a11_lcb_bomb.py", "a12_sleep_every_test.py",
            "a13_single_process_memory.py", "a14_pool_block.py",
            "a15_honest_idioms.py"]
AS_USER = ["a1_fairness_threads.py", "a2_head_of_line.py", "a3_socket_kmem.py", "a4_fork_memory.py",
           "a10_cpu_starvation.py", "a13_single_process_memory.py", "a15_honest_idioms.py"]


def run(cmd: list[str], name: str) -> None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)  # noqa: PLW1510
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = f"RESULT {json.dumps({'class': '?', 'attempt': name, 'expected': '', 'observed': f'runner timeout {e}', 'verdict': 'FINDING'})}"
    lines = [ln[7:] for ln in out.splitlines() if ln.startswith("RESULT ")]
    if not lines:
        print(f"?\t{name}\t-\tno result: {out.strip()[-300:]}\tERROR", flush=True)
    for ln in lines:
        r = json.loads(ln)
        print("\t".join([r["class"], r["attempt"], r["expected"], r["observed"], r["verdict"]]), flush=True)


def main() -> None:
    only = sys.argv[1:]
    for a in ATTEMPTS:
        if only and a not in only:
            continue
        path = os.path.join(HERE, a)
        if os.path.exists(path):
            run([sys.executable, path], a)
    user = os.environ.get("RT_AS_USER")
    if user and os.getuid() == 0:
        py = os.environ.get("RT_USER_PY", "/usr/bin/python3")
        pp = os.environ.get("RT_USER_PATH", os.environ.get("PYTHONPATH", ""))
        here = os.environ.get("RT_USER_DIR", HERE)
        for a in AS_USER:
            if only and a not in only:
                continue
            run(["su", user, "-c", f"cd {here} && PYTHONPATH={pp} {py} {a}"], f"{a} as {user}")


if __name__ == "__main__":
    main()
