"""Players, difficulty presets, matches and tournaments (in this process, a pool, or on Ray)."""
