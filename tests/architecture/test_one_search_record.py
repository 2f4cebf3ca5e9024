"""One record declares what a search is asked: `games.search_settings` (`DepthLimited`: its
algorithm, depth, heuristic and node budget; `MonteCarlo`: its iterations, exploration,
playouts, heuristic and processes).  Presets, players and `ai.search`'s `SearchConfig` hold
one whole.

Read from the source of every module of the package, so a record added later with its own
`depth` and `heuristic` fails here.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from plyground.ai.engine.search import SearchConfig
from plyground.ai.players.players import SearchPlayer
from plyground.games.base import Preset
from plyground.games.search_settings import DepthLimited, MonteCarlo

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("ai", "cli", "games", "gui", "package")
RECORDS = {"games/search_settings.py": {"DepthLimited", "MonteCarlo"}}
"""Where a search's asked settings are declared: the one module, its two families."""
DONE = {
    "ai/engine/result.py": {"SearchResult", "PlayoutDetails"},
    "ai/textbook/trace_tree.py": {"Trace"},
}
"""Records of a search that ran: the depth it reached, the heuristic it used, the iterations
it ran (what happened, not what is asked)."""
ASKED = ({"depth", "heuristic"}, {"iterations", "exploration"})
"""Fields that together declare what a search is asked (one family's each)."""


def _classes_declaring() -> dict[str, set[str]]:
    """{module: classes} of every class in the package whose own annotated fields include
    one family's asked fields."""
    found: dict[str, set[str]] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                fields = {
                    item.target.id
                    for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                }
                if any(family <= fields for family in ASKED):
                    module = path.relative_to(ROOT).as_posix()
                    found.setdefault(module, set()).add(node.name)
    return found


def test_one_record_declares_a_searchs_depth_and_heuristic() -> None:
    found = _classes_declaring()
    assert found == {**RECORDS, **DONE}, "declare a search's settings in games/search_settings.py"


def test_presets_players_and_searches_hold_the_settings_whole() -> None:
    for record in (Preset, SearchPlayer, SearchConfig):
        names = {field.name for field in dataclasses.fields(record)}
        assert not names & {"depth", "heuristic", "node_limit", "iterations", "mcts"}, record
        annotations = {field.name: str(field.type) for field in dataclasses.fields(record)}
        assert "SearchSettings" in annotations.values(), record
    assert {field.name for field in dataclasses.fields(DepthLimited)} == {
        "algorithm",
        "depth",
        "heuristic",
        "node_limit",
    }
    assert {field.name for field in dataclasses.fields(MonteCarlo)} == {
        "iterations",
        "exploration",
        "playout",
        "heuristic",
        "processes",
    }
