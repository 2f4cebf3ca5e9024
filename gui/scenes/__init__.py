"""The screens of the game: menu, set-up and play (with its game-over overlay)."""
