"""The AI worker: searches in a separate process, so the window keeps drawing while it thinks."""
