"""Advice for a person: the advisor behind hints and board values, and the game review."""
