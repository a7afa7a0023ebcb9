"""Rewarding: the `Score` value, presets and configs, format parts, and batch scoring."""
