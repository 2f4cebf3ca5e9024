"""Plyground, a game-AI playground: the one import package of the installed distribution.

The repository keeps its folders at the top (`ai/`, `games/`, `gui/`, `cli/`, `assets/`, and this
one, `package/`, the package's root); `pyproject.toml` maps them under this name, so the wheel
holds `plyground.ai`, `plyground.games`, `plyground.gui`, `plyground.cli` and `plyground.assets`
and nothing else at the top level of an environment.
"""

from __future__ import annotations

__version__ = "0.2.0"
