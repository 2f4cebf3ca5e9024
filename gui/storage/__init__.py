"""What the window keeps on disk: settings, saved games, safe writes and the writes that failed."""
