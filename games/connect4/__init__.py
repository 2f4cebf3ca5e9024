"""Connect-four: the rules on bitboards, heuristics, opening books and the exact solver."""
