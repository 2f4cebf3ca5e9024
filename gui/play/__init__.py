"""The play screen's parts: a pygame-free controller (history, sides, AI jobs, autosave,
series) and the panels the play scene draws with."""
