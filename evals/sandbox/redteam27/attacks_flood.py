"""redteam27: parent CPU on correct-looking huge outputs under code_stdio's 8 MiB cap; default-pool cap."""
import resource
import time

from verifiers import code_stdio
from verifiers.sandbox import StdioTest, run_stdio


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime

rows = []
ref = {"tests": [{"input": "1 2\n", "output": "3\n"}] * 8}
for name, prog in [("8MiB of single-char tokens", "import sys; sys.stdout.write('3 ' * (4 << 20 - 1))"),
                   ("8MiB single line no ws", "import sys; sys.stdout.write('3' * (8 << 20 - 8))"),
                   ("8MiB of newlines then 3", "import sys; sys.stdout.write('\\n' * (8 << 20 - 8) + '3')")]:
    c0, t0 = cpu(), time.time()
    s = code_stdio.score(f"```python\n{prog}\n```", ref)
    dc, dt = cpu() - c0, time.time() - t0
    exp_pass = name.endswith("then 3")
    ok = bool(s.correct if hasattr(s, "correct") else s.value) == exp_pass and dc < 5
    rows.append(("flood", name, f"{'pass' if exp_pass else 'fail'}, parent CPU < 5 s", f"score={s.value if hasattr(s,'value') else s} parent_cpu={dc:.2f}s wall={dt:.2f}s", "held" if ok else "FINDING"))
# honest big output through the public sandbox.run_stdio default pool
r = run_stdio("import sys; n=int(input()); sys.stdout.write(' '.join(['1']*n))", [StdioTest("20000\n", " ".join(["1"] * 20000))])
rows.append(("honest", "sandbox.run_stdio default pool, 40 KB correct output", "pass", f"passed={r.passed} {r.detail[:80]!r}", "held" if r.passed else "FINDING"))
for r in rows:
    print(" | ".join(rows and map(str, r)))
