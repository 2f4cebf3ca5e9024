"""Monte Carlo tree search, the engine's: UCB1 selection, expansion, playouts and back-up for
every game, on a budget of iterations or of time (`settings`, `tree`, `playouts`, `runner`)."""
