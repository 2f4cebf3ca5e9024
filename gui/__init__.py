"""Plyground's pygame front end: scenes, board views, widgets and the AI worker.

Importing this package does not import pygame; `gui.app.run()` opens the window,
`gui.screenshot.render()` draws a scene to a PNG and `gui.bench.frame_bench.run()` measures
frame times while the AI thinks.
"""

import os as _os

# Keep pygame's banner out of the terminal; must be set before pygame is first imported.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
