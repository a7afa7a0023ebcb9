# An honest sibling: a right answer for tests that need a non-square.
def f(x):
    return 101
