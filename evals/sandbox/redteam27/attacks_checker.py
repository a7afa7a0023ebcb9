"""redteam27: checker abuse through the code_stdio task (a checker that crashes / is slow on hostile output)."""
from verifiers import code_stdio

CHK_INT = "def check(inp, exp, out):\n    return int(out.split()[0]) == int(exp.split()[0])\n"
CHK_SLOW = ("def check(inp, exp, out):\n    toks = out.split()\n    seen = []\n    for t in toks:\n"
            "        if t in seen: return False\n        seen.append(t)\n    return toks[:1] == exp.split()[:1]\n")
ref = lambda chk: {"tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "5 7\n", "output": "12\n"}], "checker": chk}
rows = []
for name, chk, prog, exp in [
    ("honest with int checker", CHK_INT, "a,b=map(int,input().split()); print(a+b)", True),
    ("non-int output crashes checker", CHK_INT, "print('x')", False),
    ("empty output IndexError in checker", CHK_INT, "pass", False),
    ("'ok' / '1' output", CHK_INT, "import os; os.write(1,b'1')", False),
    ("quadratic checker on many distinct tokens (checker timeout)", CHK_SLOW, "import sys; sys.stdout.write(' '.join(map(str,range(3,200000))))", False),
]:
    s = code_stdio.score(f"```python\n{prog}\n```", ref(chk))
    rows.append(("checker", name, "reward>0 only if solved" if not exp else "reward 1",
                 f"reward={s.reward} status={s.status} {s.explanation[:110]!r}", "held" if (s.reward == 1.0) == exp else "FINDING"))
for r in rows:
    print(" | ".join(map(str, r)))
