"""Moved to `gui.kits`; this shim keeps old imports working until the play scene is split."""

from __future__ import annotations

from gui.kits import BoardView, ViewContext, view_for

__all__ = ["BoardView", "ViewContext", "view_for"]
