"""Explicit game trees: the textbook examples as a game, and trees typed as text."""
