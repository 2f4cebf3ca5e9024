"""Moved to `gui.kits`; this shim keeps old imports working until the play scene is split.

The old module names (``gui.boards.<game>_view``) are aliases of the kit modules, so the
kit files stay plain renames for git.  The integrator removes this package.
"""

from __future__ import annotations

import sys

from gui import kits
from gui.kits import BoardView, ViewContext, view_for

for _name in kits.KITS:
    _module = sys.modules.get(kits.KITS[_name].__module__)
    if _module is not None:
        sys.modules[f"{__name__}.{_name}_view"] = _module

__all__ = ["BoardView", "ViewContext", "view_for"]
