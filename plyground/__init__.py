"""Plyground, a game-AI playground: the one import package of the installed distribution.

The wheel installs the repository's folders under this name (`plyground.ai`, `plyground.games`,
`plyground.gui`, `plyground.cli`, `plyground.assets`), so nothing else lands at the top level of
an environment. In a checkout the folders stay where they are, beside this one, and this file
points the package at them: `python main.py`, an editable install and the tests all import
the same `plyground.*` modules.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.2.0"

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parent


def _in_checkout() -> bool:
    """True when this file sits in a repository checkout rather than an installed wheel."""
    return (
        not (_HERE / "ai").is_dir()
        and (_CHECKOUT / "ai" / "__init__.py").is_file()
        and (_CHECKOUT / "main.py").is_file()
    )


if _in_checkout():
    __path__.append(str(_CHECKOUT))  # plyground.ai is ./ai, plyground.gui is ./gui, ...
