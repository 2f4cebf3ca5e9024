"""Pig's kit: the race track, the die, the turn total, the turn log and the odds."""
