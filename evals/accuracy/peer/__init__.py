"""Peer test suites: labelled cases from other projects' tests and outputs, as development sets."""
