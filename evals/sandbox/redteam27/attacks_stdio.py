"""redteam27: stdin/stdout output spoofing, state across tests, leaks, checker abuse."""
from verifiers.sandbox import CodePool, OutputMatch, StdioTest

T = [StdioTest("1 2\n", "3\n"), StdioTest("5 7\n", "12\n"), StdioTest("10 20\n", "30\n")]
ATTEMPTS = []  # (class, name, code, tests, match, expect_pass)

def a(cls, name, code, expect_pass=False, tests=T, match=None):
    ATTEMPTS.append((cls, name, code, tests, match, expect_pass))

# spoofing
a("spoof", "write expected to fd 2", "import os; os.write(2, b'3\\n')")
a("spoof", "write via /proc/self/fd/1", "open('/proc/self/fd/1','w').write('3\\n')")
a("spoof", "dup2 stderr onto stdout then print", "import os,sys; os.dup2(2,1); print(3)")
a("spoof", "close stdout and reopen", "import os; os.close(1); fd=os.open('/dev/stdout', os.O_WRONLY); os.write(fd,b'3')")
a("spoof", "NUL bytes + token", "import sys; sys.stdout.buffer.write(b'3\\x00\\n')")
a("spoof", "unicode digit", "print('\\u0663')")  # arabic-indic 3
a("spoof", "fullwidth digit", "print('\\uff13')")
a("spoof", "trailing tokens", "a,b=map(int,input().split()); print(a+b, 'extra')")
a("spoof", "ANSI CR overwrite", "print('999\\r3')")
a("spoof", "unicode whitespace NBSP", "a,b=map(int,input().split()); print(str(a+b)+'\\u00a0')")
a("float", "nan vs 3 tol", "print('nan')", match=OutputMatch(float_tol=1e-6))
a("float", "inf vs 3 tol", "print('inf')", match=OutputMatch(float_tol=1e-6))
a("float", "1e999 vs 3 tol", "print('1e999')", match=OutputMatch(float_tol=1e-6))
a("float", "-0 vs 0 (by design: numerically equal)", "print('-0')", expect_pass=True, tests=[StdioTest('', '0\n')], match=OutputMatch(float_tol=1e-6))
a("float", "honest 3.0000001 passes", "a,b=map(int,input().split()); print(f'{a+b+1e-9:.9f}')", expect_pass=True, match=OutputMatch(float_tol=1e-6))
a("float", "hex float 0x3", "print('0x3')", match=OutputMatch(float_tol=1e-6))
a("float", "underscore 3_0 for 30", "print('3_0')", tests=[StdioTest('', '30\n')], match=OutputMatch(float_tol=1e-6))
# leak / state
a("leak", "grep /proc for expected in parent", """
import os
found=[]
for p in os.listdir('/proc'):
    if p.isdigit():
        try: found.append(open(f'/proc/{p}/cmdline','rb').read())
        except Exception: pass
try: m=open(f'/proc/{os.getppid()}/mem','rb')
except Exception as e: pass
print(3)""")
a("state", "file in /tmp counts tests", """
import os,sys
p='/tmp/rt27cnt'
try: n=int(open(p).read())
except Exception: n=0
open(p,'w').write(str(n+1))
print([3,12,30][n%3])""")
a("state", "globals via builtins across runs", """
import builtins
n=getattr(builtins,'_rt27',0); builtins._rt27=n+1
print([3,12,30][n%3])""")
a("state", "env var across runs", """
import os
n=int(os.environ.get('RT27','0')); os.environ['RT27']=str(n+1)
print([3,12,30][n%3])""")
a("state", "forked child survives and writes later", """
import os,time
if os.fork()==0:
    time.sleep(0.3); os.write(1,b'3\\n'); os._exit(0)
""")
# honest program should pass
a("honest", "sys.stdin.buffer read", "import sys; a,b=map(int,sys.stdin.buffer.read().split()); sys.stdout.write(str(a+b))", expect_pass=True)
a("honest", "__main__ guard", "def main():\n a,b=map(int,input().split()); print(a+b)\nif __name__=='__main__': main()", expect_pass=True)
a("honest", "os.write no flush", "import os; a,b=map(int,open(0).read().split()); os.write(1,str(a+b).encode())", expect_pass=True)
a("honest", "print without newline flush=False then exit()", "import sys; a,b=map(int,input().split()); print(a+b,end=''); sys.exit(0)", expect_pass=True)
a("honest", "big correct output", "import sys; n=int(input()); sys.stdout.write(' '.join(['1']*n))", expect_pass=True,
  tests=[StdioTest('200000\n', ' '.join(['1']*200000))])
a("honest", "deep recursion with setrecursionlimit", "import sys; sys.setrecursionlimit(10**6)\ndef f(n): return 0 if n==0 else 1+f(n-1)\ninput(); print(f(50000)*0+3)", expect_pass=True, tests=[T[0]])
a("honest", "threading recursion trick", "import sys,threading\nsys.setrecursionlimit(1<<25); threading.stack_size(1<<27)\ndef m():\n a,b=map(int,input().split()); print(a+b)\nt=threading.Thread(target=m); t.start(); t.join()", expect_pass=True)
# checker abuse
CHK = "def check(inp, exp, out):\n    return out.split() == exp.split()\n"
a("checker", "honest with checker", "a,b=map(int,input().split()); print(a+b)", expect_pass=True, match=OutputMatch(checker=CHK))
a("checker", "huge output to checker", "import sys; sys.stdout.write('9 '*5_000_000)", match=OutputMatch(checker=CHK))
a("checker", "invalid utf8 output", "import sys; sys.stdout.buffer.write(b'\\xff\\xfe3')", match=OutputMatch(checker=CHK))

def run(pool):
    rows = []
    for cls, name, code, tests, match, expect in ATTEMPTS:
        try:
            r = pool.run_stdio(code, tests, match=match, timeout_s=5)
            got = r.passed
            obs = f"passed={got} status={r.status} {str(getattr(r,'detail',''))[:80]!r}"
        except Exception as e:  # noqa: BLE001
            got = None; obs = f"exception {type(e).__name__}: {e}"[:120]
        ok = (got == expect)
        rows.append((cls, name, "pass" if expect else "not pass", obs, "held" if ok else "FINDING"))
    return rows

if __name__ == "__main__":
    with CodePool(workers=2) as pool:
        for r in run(pool):
            print(" | ".join(map(str, r)))
