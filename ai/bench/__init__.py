"""Benchmarks: search speed, a game's solver test sets, and the strongest preset at play."""
