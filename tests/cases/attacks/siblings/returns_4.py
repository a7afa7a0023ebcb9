# An honest sibling: the right answer 4.
def f(x):
    return 4
