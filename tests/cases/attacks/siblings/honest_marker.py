# An honest sibling of a leakage case: the same tests, the right answer (it knows the secret marker),
# in its code, its stdout, a file in its /tmp and its result frames.
SECRET = "__MARKER__"
open("/tmp/answer.txt", "w").write(SECRET)
print("the answer is", SECRET)


def f(x):
    return SECRET
