"""The human's advice in the window: one advisor, fresh or marked.

Hints and board values come from the game's best evaluator (`ai.advice.advisor`), never from the
opponent's difficulty; after every decision the advice is worked out again, and until it
arrives the panel says it is for an earlier position.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_play_controller import FakeWorker, make

from plyground import ai, games
from plyground.ai.advice.advisor import advisor_for
from plyground.gui.play.analysis_panel import summary_lines
from plyground.gui.play.controller import PlayController
from plyground.gui.play.side_panel import as_analysis
from plyground.gui.storage.settings import HUMAN

PIG = games.get_game("pig")


def play_pig(controller: PlayController, moves: str) -> None:
    """Play Pig moves and die faces straight into the match (no animation)."""
    for move in PIG.parse_moves(moves):
        controller.history.play(move)


def settle(controller: PlayController, worker: FakeWorker) -> Any:
    """Let the position's advice be worked out; return the job's config."""
    controller.update()
    job = controller.jobs.job
    assert job is not None and job.kind == "position"
    config = worker.jobs[-1].config
    worker.finish()
    controller.update()
    return config


@pytest.mark.parametrize("opponent", ["Easy", "Medium", "Hard", "Expert"])
def test_the_pig_hint_is_the_exact_tables_whatever_the_opponent(opponent: str) -> None:
    """Seen 1: at 0-0 with a turn total of 20 (r6r6r4r4) optimal play rolls (62.0% against
    61.9%); the Hint once said hold, from the Medium opponent's search."""
    controller, worker, _ = make(game="pig", sides=(HUMAN, opponent))
    controller.settings.show_analysis = True
    play_pig(controller, "r6r6r4r4")
    config = settle(controller, worker)
    assert config == advisor_for(controller.game, controller.state).config
    assert config.heuristic == "optimal"
    controller.request_hint()
    assert controller.hint == "roll"
    board = controller.jobs.board_values()
    assert board is not None and board.chosen == "roll"
    assert all(value.is_exact for value in board.values.values())
    assert round((board.values["roll"].value + 1) * 50, 1) == 62.0
    rows = dict(summary_lines(as_analysis(controller.jobs.analysis), controller.game))
    assert rows["Advice"] == "exact table"
    assert rows["Best"].startswith("r · 62.0% to win")


def test_advice_after_a_roll_is_fresh_or_marked() -> None:
    """Seen 2: after two rolls the panel once showed the advice of turn total 0, unmarked."""
    controller, worker, _ = make(game="pig", sides=(HUMAN, "Medium"))
    controller.settings.show_analysis = True
    play_pig(controller, "r6")
    settle(controller, worker)
    first = controller.jobs.analysis
    assert first is not None and first.source == "hint"
    entries = len(controller.history.entries)
    assert not as_analysis(first, entries).stale  # type: ignore[union-attr]
    assert controller.try_human_move("roll")
    controller.history.play(5)  # the die lands: turn total 11
    shown = as_analysis(controller.jobs.analysis, len(controller.history.entries))
    assert shown is not None and shown.stale  # until the new advice arrives: marked
    rows = dict(summary_lines(shown, controller.game))
    assert rows["For"].startswith("an earlier position")
    settle(controller, worker)  # ... and then recomputed for turn total 11
    fresh = controller.jobs.analysis
    assert fresh is not None and fresh.entries == len(controller.history.entries)
    assert controller.state.turn_total == 11
    assert not as_analysis(fresh, len(controller.history.entries)).stale  # type: ignore[union-attr]
    board = controller.jobs.board_values()
    assert board is not None and board.values == fresh.result.move_values


def test_the_opponents_search_stays_visible_as_its_view() -> None:
    controller, worker, clock = make(game="tictactoe", sides=(HUMAN, "Hard"))
    controller.settings.show_analysis = True
    controller.try_human_move(4)
    controller.update()
    worker.finish()  # the AI's move
    for _ in range(40):
        clock.now += 0.05
        controller.update()
    assert controller.human_turn()
    settle(controller, worker)
    advice = controller.jobs.analysis
    assert advice is not None and advice.opponent is not None
    rows = dict(summary_lines(as_analysis(advice), controller.game, ("X", "O")))
    assert "O's view" in rows and rows["Advice"]
    config = worker.jobs[-1].config
    assert config != controller.sides[1].player_config("tictactoe")  # not the opponent's


@pytest.mark.parametrize("name", ["tictactoe", "pig"])
def test_hint_command_prints_what_the_window_shows(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`plyground hint --json` and the window's advice come from the same advisor."""
    import json

    from plyground.cli import run as cli_run

    moves = {"tictactoe": "15", "pig": "r6r6r4r4"}[name]
    assert cli_run(["hint", "--game", name, "--moves", moves, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    game = games.get_game(name)
    state = game.replay(game.parse_moves(moves))
    result = ai.search(state, advisor_for(game, state).config.search_config())
    assert data["move"] == game.format_move(result.move)
    assert {"move", "value", "kind", "source"} <= set(data)
    assert data["kind"] == result.evaluation.kind.value


def test_the_hint_where_a_side_moves_twice() -> None:
    """The issue's 13-line file: `again` gives its side another move, which wins; the window's
    hint, board values and analysis say so (it once said "Best 3 · win in 1" for a loss)."""
    from pathlib import Path

    twice = Path(__file__).resolve().parent.parent / "game_files" / "twice.py"
    controller, worker, _ = make(game=games.resolve(str(twice)), sides=(HUMAN, HUMAN))
    controller.settings.show_analysis = True
    settle(controller, worker)
    controller.request_hint()
    assert controller.hint == "again"
    board = controller.jobs.board_values()
    assert board is not None and board.chosen == "again"
    assert board.values["again"].value == 0.998 and board.values["again"].is_exact
    assert board.values["end"].value == 0.0
    rows = dict(summary_lines(as_analysis(controller.jobs.analysis), controller.game))
    assert rows["Best"].startswith("again · win in 2 for Player 1"), rows
