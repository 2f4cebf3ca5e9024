"""The tuned search engine behind every move the AI plays: `search()`, pruning with a transposition
table and move ordering, iterative deepening, exact solving and proofs, the value scale."""
