"""Every test runs headless and never touches the real user's settings or saves."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("PLYGROUND_CONFIG_DIR", tempfile.mkdtemp(prefix="plyground-test-config-"))
