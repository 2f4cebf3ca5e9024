"""Pig, the dice race: the rules, heuristics, and the optimal policy."""
