"""Deciding equality of two typed answers: kind by kind, by value in-process, by sympy in killable workers."""
