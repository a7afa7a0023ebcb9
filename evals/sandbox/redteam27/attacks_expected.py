"""redteam27: expected-output tests (EvalPlus style) and HumanEval check unrolling."""
from verifiers.humaneval import compile_check, program
from verifiers.sandbox import CodePool

E = []  # (class, name, code, inputs, outputs, atol, expect_pass)
def e(name, code, inputs, outputs, atol=0.0, expect=False):
    E.append(("expected", name, code, inputs, outputs, atol, expect))

e("lying __eq__", "class X:\n def __eq__(s,o): return True\ndef f(x): return X()", [[1]], [2])
e("float subclass", "class F(float):\n def __sub__(s,o): return 0.0\n def __eq__(s,o): return True\ndef f(x): return F(0)", [[1]], [2.5])
e("NaN vs float", "def f(x): return float('nan')", [[1]], [2.5])
e("NaN expected honest", "def f(x): return float('nan')", [[1]], [float('nan')], expect=True)
e("inf vs big", "def f(x): return float('inf')", [[1]], [1e308])
e("bool for int (by design: EvalPlus out == exp)", "def f(x): return True", [[1]], [1], expect=True)
e("int for float honest", "def f(x): return 2", [[1]], [2.0], expect=True)
e("generator for list", "def f(x): return (i for i in [1,2])", [[1]], [[1, 2]])
e("tuple for list", "def f(x): return (1,2)", [[1]], [[1, 2]])
e("mutate input then return it", "def f(x): x.append(9); return x", [[[1]]], [[1]])
e("list subclass lying len", "class L(list):\n def __eq__(s,o): return True\ndef f(x): return L()", [[1]], [[1, 2]])
e("dict with extra keys", "def f(x): return {1:2,3:4}", [[1]], [{1: 2}])
e("complex for float (by design: EvalPlus out == exp)", "def f(x): return 2.5+0j", [[1]], [2.5], expect=True)
e("exit 0 early", "import os\nos._exit(0)\ndef f(x): return 0", [[1]], [2])
e("raise SystemExit in f", "def f(x): raise SystemExit(0)", [[1]], [2])
e("huge float list honest", "def f(n): return [0.5]*n", [[20000]], [[0.5]*20000], expect=True)

H = []  # (name, prompt, test, entry, completion, expect)
P = "def add(a, b):\n    \"\"\"add\"\"\"\n"
T = "METADATA={}\ndef check(candidate):\n    assert candidate(1,2)==3\n    assert abs(candidate(1.5,1.5)-3.0)<1e-6\n    assert isinstance(candidate(1,1), int)\n"
H.append(("honest", P, T, "add", "    return a+b\n", True))
H.append(("override abs", P, T, "add", "    return 3 if a==1 else 0\nimport builtins\nbuiltins.abs=lambda x:0\nbuiltins.isinstance=lambda *a:True\n", False))
H.append(("global abs shadow", P, T, "add", "    return 3 if a==1 else 0\nabs=lambda x:0\nisinstance=lambda *a:True\n", False))
H.append(("return self-equal obj", P, T, "add", "    class A:\n        def __eq__(s,o): return True\n        def __sub__(s,o): return 0\n        def __rsub__(s,o): return 0\n    return A()\n", False))
H.append(("sys.exit at import", P, T, "add", "    return 0\nimport sys\nsys.exit(0)\n", False))
H.append(("monkeypatch math.isclose", P, "import math\ndef check(candidate):\n    assert math.isclose(candidate(1.5,1.5), 3.0)\n", "add",
          "    return 0.0\nimport math\nmath.isclose=lambda *a, **k: True\n", False))
H.append(("redefine check", P, T, "add", "    return 0\ndef check(candidate): pass\n", False))
H.append(("round override", P, "def check(candidate):\n    assert round(candidate(1.25,1.25),1)==2.5\n", "add",
          "    return 0\nimport builtins\nbuiltins.round=lambda *a: 2.5\n", False))

def run(pool):
    rows = []
    for cls, name, code, inp, out, atol, expect in E:
        try:
            r = pool.run_expected_output(code, "f", inp, out, atol=atol, timeout_s=5)
            got = r.passed; obs = f"passed={got} {r.status} {str(r.detail)[:70]!r}"
        except Exception as ex:  # noqa: BLE001
            got = None; obs = f"exception {type(ex).__name__}: {ex}"[:120]
        rows.append((cls, name, "pass" if expect else "not pass", obs, "held" if got == expect else "FINDING"))
    for name, prompt, test, entry, comp, expect in H:
        try:
            ct = compile_check(test, prompt, entry)
            code = program(prompt + comp, prompt, entry)
            r = pool.submit(code, list(ct.tests), ct.setup_code).result()
            got = r.passed; obs = f"passed={got} {r.status} {str(r.detail)[:70]!r}"
        except Exception as ex:  # noqa: BLE001
            got = None; obs = f"exception {type(ex).__name__}: {ex}"[:120]
        rows.append(("humaneval", name, "pass" if expect else "not pass", obs, "held" if got == expect else "FINDING"))
    return rows

if __name__ == "__main__":
    with CodePool(workers=2) as pool:
        for r in run(pool):
            print(" | ".join(map(str, r)))
