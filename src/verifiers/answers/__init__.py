"""Reading an answer: find it in a response, normalize it, read its numbers, parse it into a typed answer."""
