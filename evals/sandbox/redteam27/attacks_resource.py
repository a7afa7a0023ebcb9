"""redteam27: resource attacks on the pool, then an honest program must still pass promptly."""
import time

from verifiers.sandbox import CodePool, StdioTest

T = [StdioTest("1 2\n", "3\n")]
HONEST = "a,b=map(int,input().split()); print(a+b)"
ATT = [("fork bomb", "import os\nwhile True:\n    try: os.fork()\n    except Exception: pass"),
       ("memory hog", "x=[]\nwhile True: x.append(bytearray(1<<24))"),
       ("orphan child spinning", "import os\nif os.fork()==0:\n    os.setsid()\n    while True: pass\nprint(3)"),
       ("deep recursion segv", "import sys; sys.setrecursionlimit(10**7)\ndef f(n): return f(n+1)\nf(0)"),
       ("stdin never read, sleep", "import time; time.sleep(100)")]
rows = []
with CodePool(workers=2, max_output_bytes=1 << 20) as pool:
    for name, code in ATT:
        t0 = time.time()
        r = pool.run_stdio(code, T, timeout_s=2)
        ta = time.time() - t0
        t1 = time.time()
        h = pool.run_stdio(HONEST, T, timeout_s=2)
        th = time.time() - t1
        ok = not r.passed or name == "orphan child spinning"
        ok = ok and h.passed and th < 5 and ta < 30
        rows.append(("resource", name, "attack not rewarded; next honest passes < 5 s",
                     f"attack passed={r.passed} {r.status} {ta:.1f}s; honest passed={h.passed} {th:.2f}s", "held" if ok else "FINDING"))
for r in rows:
    print(" | ".join(map(str, r)))
