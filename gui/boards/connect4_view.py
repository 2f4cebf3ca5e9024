"""Moved to `gui.kits`; this shim keeps the play scene's import working until it is split."""

from __future__ import annotations

from gui.kits.connect4 import HEIGHT

__all__ = ["HEIGHT"]
