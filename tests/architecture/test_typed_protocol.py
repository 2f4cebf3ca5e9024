"""The game protocol is the typed seam between the games and everything else: `ai/` sees a
position as `State[Any]` and a game as `Game[Any]`, so mypy --strict refuses code that reads a
member only one game has (an opening book, a solver's hooks) instead of its capability."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ONE_GAME_MEMBER = """
from typing import Any
from plyground.games.base import Game, State, state_capabilities

def books(state: State[Any]) -> object:
    return state.book_value()

def sets(game: Game[Any]) -> object:
    return game.solver_benchmark

def through_the_capability(state: State[Any]) -> object:
    hook = state_capabilities(state).book_value
    return None if hook is None else hook(state)
"""


@pytest.mark.slow
def test_mypy_refuses_a_member_only_one_game_has(tmp_path: Path) -> None:
    from mypy import api

    snippet = tmp_path / "reads_a_hook.py"
    snippet.write_text(ONE_GAME_MEMBER, encoding="utf-8")
    out, _, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    errors = re.findall(r"reads_a_hook\.py:(\d+): error: (.*)", out)
    assert status == 1
    assert [(int(line), text.split("  [")[0]) for line, text in errors] == [
        (6, '"State[Any]" has no attribute "book_value"'),
        (9, '"Game[Any]" has no attribute "solver_benchmark"'),
    ]


def test_ai_annotates_positions_and_games_with_the_protocol() -> None:
    loose = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "ai").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(state|game|root): Any\b", line)
    ]
    assert loose == []


SPINE_READS = """
from plyground.gui.play.browse import Browse
from plyground.gui.play.events import BrowsedSearched
from plyground.gui.play.game_history import GameHistory
from plyground.gui.play.match import Match
from plyground.gui.play.search_jobs import Analysis, BoardValues

def history(history: GameHistory) -> object:
    return history.state.turn_total

def history_after(history: GameHistory) -> object:
    return history.state_after(0).turn_total

def match(match: Match) -> object:
    return match.state.turn_total

def browse(browse: Browse) -> object:
    return browse.shown_state().turn_total

def analysis(record: Analysis) -> object:
    return record.result.elapsd

def browsed(event: BrowsedSearched) -> object:
    return event.result.elapsd

def board(values: BoardValues) -> object:
    return [value.elapsd for value in values.values.values()]

from plyground.gui.worker.messages import Progress, Result

def answer(message: Result) -> object:
    return None if message.result is None else message.result.elapsd

def progress(message: Progress) -> object:
    return message.snapshot.elapsd
"""


@pytest.mark.slow
def test_mypy_refuses_a_one_game_member_or_a_misspelt_field_through_the_windows_spine(
    tmp_path: Path,
) -> None:
    """The window's spine (the history, the match, the browse, the analyses it shows, the
    worker's answers) hands on `State[Any]`, `SearchResult`, `SearchProgress` and `Evaluation`,
    never `Any`: a Pig-only member or a misspelt field read through it is refused, as
    docs/ARCHITECTURE.md says."""
    from mypy import api

    snippet = tmp_path / "reads_the_spine.py"
    snippet.write_text(SPINE_READS, encoding="utf-8")
    out, _, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    errors = re.findall(r"reads_the_spine\.py:(\d+): error: (.*?)(?:;|  \[)", out)
    assert status == 1, out
    assert [(int(line), text.strip()) for line, text in errors] == [
        (9, '"State[Any]" has no attribute "turn_total"'),
        (12, '"State[Any]" has no attribute "turn_total"'),
        (15, '"State[Any]" has no attribute "turn_total"'),
        (18, '"State[Any]" has no attribute "turn_total"'),
        (21, '"SearchResult" has no attribute "elapsd"'),
        (24, '"SearchResult" has no attribute "elapsd"'),
        (27, '"Evaluation" has no attribute "elapsd"'),
        (32, '"SearchResult" has no attribute "elapsd"'),
        (35, '"SearchProgress" has no attribute "elapsd"'),
    ], out
