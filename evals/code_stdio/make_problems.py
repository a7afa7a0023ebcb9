"""Write ``src/verifiers/data/code_stdio.jsonl``: the committed stdin/stdout problem set (written for this project).

Each problem: a statement, tests whose expected outputs come from an oracle function here (not from running the
reference program), a reference program and wrong programs of the usual kinds (wrong answer, off by one, too
slow, wrong format, extra output). Fixed seed: the file is the same on every run.

    python evals/code_stdio/make_problems.py
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "src" / "verifiers" / "data" / "code_stdio.jsonl"
rng = random.Random(26)
problems = []


def add(pid, split, question, inputs, oracle, solutions, wrong, **extra):
    tests = [{"input": i, "output": oracle(i)} for i in inputs]
    problems.append({"id": pid, "split": split, "question": question, "tests": tests, "solutions": solutions,
                     "wrong_solutions": wrong, **extra})


def ints(s):
    return list(map(int, s.split()))


# 1. sum of two integers
add("sum-two", "train", "Read two integers a and b (|a|, |b| <= 10^18) on one line and print a + b.",
    ["1 2\n", "-5 5\n", "1000000000000000000 999999999999999999\n", "0 -7"],
    lambda i: f"{sum(ints(i))}\n",
    ["a, b = map(int, input().split())\nprint(a + b)\n"],
    ["a, b = map(int, input().split())\nprint(a - b)\n", "print(3)\n"])

# 2. maximum of a list
lst = [rng.randint(-10**9, 10**9) for _ in range(1000)]
add("max-of-list", "train", "The first line holds n (1 <= n <= 10^5), the second n integers. Print the largest.",
    ["3\n1 9 4\n", "1\n-5\n", "5\n-1 -2 -3 -4 -5\n", f"{len(lst)}\n{' '.join(map(str, lst))}\n"],
    lambda i: f"{max(ints(i.split(chr(10), 1)[1]))}\n",
    ["n = int(input())\nprint(max(map(int, input().split())))\n"],
    ["n = int(input())\na = sorted(map(int, input().split()))\nprint(a[-2] if n > 1 else a[0])\n",
     "n = int(input())\nprint(min(map(int, input().split())))\n"])

# 3. reverse the words of a line
add("reverse-words", "train", "Read one line of words separated by single spaces; print the words in reverse order.",
    ["hello world\n", "a\n", "the quick brown fox\n"],
    lambda i: " ".join(reversed(i.split())) + "\n",
    ["print(' '.join(input().split()[::-1]))\n"],
    ["print(input()[::-1])\n"])

# 4. count vowels
add("count-vowels", "train", "Read a line of letters (upper and lower case). Print how many are vowels (a, e, i, o, u).",
    ["Hello\n", "AEIOUaeiou\n", "xyz\n", "Programming Contest\n"],
    lambda i: f"{sum(c in 'aeiouAEIOU' for c in i)}\n",
    ["s = input()\nprint(sum(c.lower() in 'aeiou' for c in s))\n"],
    ["s = input()\nprint(sum(c in 'aeiou' for c in s))\n"])

# 5. several test cases in one input
add("triangular-cases", "train", "The first line holds T; each of the next T lines holds n (0 <= n <= 10^9). "
    "For each, print 1 + 2 + ... + n on its own line.",
    ["3\n1\n2\n10\n", "1\n0\n", "2\n1000000000\n7\n"],
    lambda i: "".join(f"{n * (n + 1) // 2}\n" for n in ints(i)[1:]),
    ["t = int(input())\nfor _ in range(t):\n    n = int(input())\n    print(n * (n + 1) // 2)\n"],
    ["t = int(input())\nn = int(input())\nprint(n * (n + 1) // 2)\n",
     "t = int(input())\nfor _ in range(t):\n    n = int(input())\n    print(n * (n - 1) // 2)\n"])

# 6. count primes (a too-slow wrong solution)
def primes_upto(n):
    if n < 2:
        return 0
    s = bytearray([1]) * (n + 1)
    s[0] = s[1] = 0
    for p in range(2, int(n ** 0.5) + 1):
        if s[p]:
            s[p * p::p] = bytearray(len(range(p * p, n + 1, p)))
    return sum(s)


add("count-primes", "train", "Read n (1 <= n <= 2*10^6). Print how many primes are <= n.",
    ["10\n", "1\n", "2000000\n"],
    lambda i: f"{primes_upto(int(i))}\n",
    [("n = int(input())\ns = bytearray([1]) * (n + 1)\ns[0] = 0\nif n >= 1:\n    s[1] = 0\n"
     "for p in range(2, int(n ** 0.5) + 1):\n    if s[p]:\n        s[p * p::p] = bytearray(len(range(p * p, n + 1, p)))\n"
     "print(sum(s))\n")],
    ["n = int(input())\nc = 0\nfor k in range(2, n + 1):\n    if all(k % d for d in range(2, k)):\n        c += 1\nprint(c)\n"])

# 7. a float answer, compared with a tolerance
vals = [rng.uniform(-1000, 1000) for _ in range(50)]
add("mean", "train", "The first line holds n, the second n real numbers. Print their mean; answers within 1e-6 "
    "(absolute, or relative for large values) are accepted.",
    ["2\n1 2\n", "3\n1 1 2\n", f"{len(vals)}\n{' '.join(f'{v:.4f}' for v in vals)}\n"],
    lambda i: f"{sum(map(float, i.split()[1:])) / int(i.split()[0]):.9f}\n",
    ["n = int(input())\na = list(map(float, input().split()))\nprint(f'{sum(a) / n:.10f}')\n"],
    ["n = int(input())\na = list(map(float, input().split()))\nprint(int(sum(a)) // n)\n",
     "n = int(input())\na = list(map(float, input().split()))\nprint(f'{sum(a) / n:.1f}')\n"],
    float_tol=1e-6)

# 8. several right answers: a checker decides
CHECK_PAIR = '''def check(input, expected, output):
    lines = input.split()
    n, target = int(lines[0]), int(lines[1])
    a = list(map(int, lines[2:2 + n]))
    got = output.split()
    if expected.split() == ["-1"]:
        return got == ["-1"]
    if len(got) != 2 or not all(t.lstrip("-").isdigit() for t in got):
        return False
    i, j = int(got[0]), int(got[1])
    return 1 <= i < j <= n and a[i - 1] + a[j - 1] == target
'''


def pair_oracle(i):
    t = ints(i)
    _n, target, a = t[0], t[1], t[2:]
    seen = {}
    for j, x in enumerate(a, 1):
        if target - x in seen:
            return f"{seen[target - x]} {j}\n"
        seen.setdefault(x, j)
    return "-1\n"


add("pair-sum", "test", "The first line holds n and a target t; the second n integers a_1..a_n. Print two indices "
    "i < j (1-based) with a_i + a_j = t, any such pair, or -1 if there is none.",
    ["4 9\n2 7 11 15\n", "5 6\n3 3 1 5 2\n", "3 100\n1 2 3\n", "6 0\n-1 1 -2 2 0 0\n"],
    pair_oracle,
    [("n, t = map(int, input().split())\na = list(map(int, input().split()))\nseen = {}\nfor j, x in enumerate(a, 1):\n"
     "    if t - x in seen:\n        print(seen[t - x], j)\n        break\n    seen.setdefault(x, j)\nelse:\n    print(-1)\n"),
     ("n, t = map(int, input().split())\na = list(map(int, input().split()))\nbest = None\nfor i in range(n):\n"
     "    for j in range(i + 1, n):\n        if a[i] + a[j] == t:\n            best = (i + 1, j + 1)\n"
     "print(*best) if best else print(-1)\n")],
    ["print(1, 2)\n", "n, t = map(int, input().split())\na = list(map(int, input().split()))\nprint(0, 1)\n"],
    checker=CHECK_PAIR)

# 9. a large input
big = [rng.randint(0, 10**9) for _ in range(60_000)]
add("sum-large", "test", "The first line holds n (n <= 2*10^5), the second n integers in [0, 10^9]. Print their sum.",
    ["3\n1 2 3\n", f"{len(big)}\n{' '.join(map(str, big))}\n", "1\n0\n"],
    lambda i: f"{sum(ints(i)[1:])}\n",
    ["import sys\ndata = sys.stdin.buffer.read().split()\nprint(sum(map(int, data[1:])))\n"],
    ["n = int(input())\nprint(n)\n"])

# 10. shortest path in a graph
def bfs_oracle(i):
    t = ints(i)
    n, m = t[0], t[1]
    adj = [[] for _ in range(n + 1)]
    for k in range(m):
        u, v = t[2 + 2 * k], t[3 + 2 * k]
        adj[u].append(v)
        adj[v].append(u)
    dist = [-1] * (n + 1)
    dist[1] = 0
    q = [1]
    for u in q:
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                q.append(v)
    return f"{dist[n]}\n"


chain = "\n".join(f"{k} {k + 1}" for k in range(1, 1000))
add("shortest-path", "test", "An undirected graph: n and m on the first line, then m edges u v. Print the number of "
    "edges on a shortest path from vertex 1 to vertex n, or -1 if n cannot be reached.",
    ["4 4\n1 2\n2 3\n3 4\n1 3\n", "3 1\n1 2\n", "2 1\n1 2\n", f"1000 999\n{chain}\n"],
    bfs_oracle,
    [("import sys\nfrom collections import deque\ndef main():\n    d = sys.stdin.read().split()\n    n, m = int(d[0]), int(d[1])\n"
     "    adj = [[] for _ in range(n + 1)]\n    for k in range(m):\n        u, v = int(d[2 + 2 * k]), int(d[3 + 2 * k])\n"
     "        adj[u].append(v)\n        adj[v].append(u)\n    dist = [-1] * (n + 1)\n    dist[1] = 0\n    q = deque([1])\n"
     "    while q:\n        u = q.popleft()\n        for v in adj[u]:\n            if dist[v] < 0:\n"
     "                dist[v] = dist[u] + 1\n                q.append(v)\n    print(dist[n])\n\n"
     "if __name__ == \"__main__\":\n    main()\n")],
    ["import sys\nd = sys.stdin.read().split()\nprint(int(d[1]))\n",
     "import sys\nd = sys.stdin.read().split()\nn = int(d[0])\nprint(n - 1)\n"])

# 11. exact output format (YES/NO)
add("palindromes", "train", "The first line holds q; each of the next q lines a lowercase word. Print YES if it is a "
    "palindrome, else NO, one answer a line.",
    ["3\nabba\nabc\na\n", "1\nracecar\n", "2\nab\naa\n"],
    lambda i: "".join("YES\n" if w == w[::-1] else "NO\n" for w in i.split()[1:]),
    ["q = int(input())\nfor _ in range(q):\n    w = input().strip()\n    print('YES' if w == w[::-1] else 'NO')\n"],
    ["q = int(input())\nfor _ in range(q):\n    w = input().strip()\n    print('Yes' if w == w[::-1] else 'No')\n"])

# 12. extra output is wrong
arr = [rng.randint(-50, 50) for _ in range(30)]
add("sort-numbers", "train", "The first line holds n, the second n integers. Print them in non-decreasing order, "
    "separated by spaces.",
    ["3\n3 1 2\n", "1\n5\n", f"{len(arr)}\n{' '.join(map(str, arr))}\n"],
    lambda i: " ".join(map(str, sorted(ints(i)[1:]))) + "\n",
    ["input()\nprint(*sorted(map(int, input().split())))\n"],
    ["input()\na = sorted(map(int, input().split()))\nprint('sorted:', *a)\n",
     "input()\nprint(*sorted(input().split()))\n"])

# 13. gcd and lcm
add("gcd-lcm", "test", "Read two positive integers a and b (<= 10^12). Print gcd(a, b) and lcm(a, b) separated by a space.",
    ["4 6\n", "7 13\n", "1000000000000 999999999999\n", "12 12\n"],
    lambda i: f"{math.gcd(*ints(i))} {math.lcm(*ints(i))}\n",
    ["import math\na, b = map(int, input().split())\ng = math.gcd(a, b)\nprint(g, a // g * b)\n"],
    ["import math\na, b = map(int, input().split())\nprint(math.gcd(a, b), a * b)\n"])

# 14. matrix transpose
mat = "\n".join(" ".join(str(rng.randint(0, 9)) for _ in range(5)) for _ in range(3))
add("transpose", "train", "The first line holds r and c; then r lines of c integers. Print the transposed matrix "
    "(c lines of r integers).",
    ["2 3\n1 2 3\n4 5 6\n", "1 1\n7\n", f"3 5\n{mat}\n"],
    lambda i: "".join(" ".join(row) + "\n" for row in zip(*(ln.split() for ln in i.splitlines()[1:]))),
    ["r, c = map(int, input().split())\nm = [input().split() for _ in range(r)]\nfor col in zip(*m):\n    print(*col)\n"],
    ["r, c = map(int, input().split())\nfor _ in range(r):\n    print(input())\n"])

# 15. queries: an off-by-one wrong solution
qs = sorted(rng.randint(0, 100) for _ in range(40))
add("count-at-most", "train", "The first line holds n and q; the second n integers; then q lines each with x. For each "
    "x print how many of the integers are <= x.",
    ["5 3\n1 3 3 7 9\n3\n0\n9\n", "1 1\n5\n5\n", f"40 4\n{' '.join(map(str, qs))}\n50\n{qs[0]}\n{qs[-1]}\n-1\n"],
    lambda i: "".join(f"{sum(v <= x for v in ints(i)[2:2 + ints(i)[0]])}\n" for x in ints(i)[2 + ints(i)[0]:]),
    [("import sys, bisect\nd = sys.stdin.read().split()\nn, q = int(d[0]), int(d[1])\na = sorted(map(int, d[2:2 + n]))\n"
     "print('\\n'.join(str(bisect.bisect_right(a, int(x))) for x in d[2 + n:2 + n + q]))\n")],
    [("import sys, bisect\nd = sys.stdin.read().split()\nn, q = int(d[0]), int(d[1])\na = sorted(map(int, d[2:2 + n]))\n"
     "print('\\n'.join(str(bisect.bisect_left(a, int(x))) for x in d[2 + n:2 + n + q]))\n")])

# 16. a program in a main() function that exits with sys.exit(0)
add("running-total", "test", "Read integers, one a line, until the end of the input. After each, print the running total.",
    ["1\n2\n3\n", "5\n", "-1\n1\n-1\n1\n"],
    lambda i: "".join(f"{sum(ints(i)[:k + 1])}\n" for k in range(len(ints(i)))),
    [("import sys\n\ndef main():\n    total = 0\n    for line in sys.stdin:\n        if line.strip():\n"
     "            total += int(line)\n            print(total)\n    sys.exit(0)\n\nif __name__ == '__main__':\n    main()\n")],
    [("import sys\n\ndef main():\n    total = 0\n    for line in sys.stdin:\n        total += int(line)\n    print(total)\n\n"
     "if __name__ == '__main__':\n    main()\n"),
     ("import sys\n\ndef main():\n    total = 0\n    for line in sys.stdin:\n        total += int(line)\n        print(total)\n"
     "    sys.exit(1)\n\nif __name__ == '__main__':\n    main()\n")])

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text("".join(json.dumps(p) + "\n" for p in problems), encoding="utf-8")
print(f"wrote {len(problems)} problems, {sum(len(p['tests']) for p in problems)} tests -> {OUT}")
