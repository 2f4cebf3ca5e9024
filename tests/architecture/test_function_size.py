"""Functions are sized for reading: about 80 lines at most, each longer one with its reason."""

from __future__ import annotations

import pytest

MAX_FUNCTION_LINES = 80
"""About 80 lines per function (decorators and docstring included)."""
SIZE_EXCEPTIONS = {
    "games/pig/optimal.py:solve": "value iteration with its inner loops inlined for speed",
    "ai/engine/pruning_search.py:_search": (
        "the hot loop, kept in one function (a split adds a call per node)"
    ),
    "ai/engine/pruning_search.py:node_value": "the inner recursion, kept whole for the same reason",
}
"""Functions ("path:name") allowed to be longer, each with its reason (modules are sized by
the concept they hold, not by a line count)."""


def _too_long() -> list[str]:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    for package in ("gui", "games", "ai", "cli"):
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    if (node.end_lineno or start) - start + 1 > MAX_FUNCTION_LINES:
                        found.append(f"{name}:{node.name}")
    return found


MAX_ENGINE_FUNCTION_LINES = 120
"""No function of the engine (ai/engine) is longer, not even the hot loop with its reason."""


def _lengths(folder: str) -> dict[str, int]:
    """Each function's length in lines under `folder` ("path:name" -> lines, decorators and
    docstring included; a nested function counts in its own and in the enclosing one)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = {}
    for path in sorted((root / folder).rglob("*.py")):
        name = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                found[f"{name}:{node.name}"] = (node.end_lineno or start) - start + 1
    return found


def test_no_engine_function_is_over_120_lines() -> None:
    lengths = _lengths("ai/engine")
    assert "ai/engine/pruning_search.py:_search" in lengths  # the measure sees the hot loop
    assert {name: n for name, n in lengths.items() if n > MAX_ENGINE_FUNCTION_LINES} == {}


@pytest.mark.slow
def test_no_function_is_too_long_without_a_reason():
    too_long = _too_long()
    assert [name for name in too_long if name not in SIZE_EXCEPTIONS] == []
    assert [name for name in SIZE_EXCEPTIONS if name not in too_long] == [], "drop it"
