"""The textbook algorithms in the form of the course slides (`minimax`, `alphabeta`,
`expectiminimax`), the observer that watches them, and the recorded trace a learner reads:
start with README.md in this folder."""
