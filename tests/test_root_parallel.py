"""Root-parallel Monte Carlo tree search (`ai.players.root_parallel`): helper processes search
the same position, and their root counts are added to the search's own (`runner.fold`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from test_mcts import KALAH, assert_counts, kalah

from plyground import games
from plyground.ai.engine.mcts.runner import KeptTree, RootCounts, fold, root_counts
from plyground.ai.engine.mcts.tree import MonteCarloTree
from plyground.ai.engine.search import MonteCarlo, SearchConfig, search
from plyground.ai.evaluation.values import PROVEN
from plyground.ai.players import root_parallel
from plyground.ai.players.players import AIPlayer, SearchPlayer
from plyground.ai.players.presets import parse_player_spec
from plyground.games.search_settings import settings_from_flat, settings_to_flat


def searched(state: Any, iterations: int, seed: int) -> KeptTree:
    kept = KeptTree()
    search(state, SearchConfig(MonteCarlo(iterations), seed=seed), tree=kept)
    return kept


def tree_of(kept: KeptTree) -> MonteCarloTree:
    assert kept.root is not None
    return MonteCarloTree(kept.root, 1.0, None, None)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _no_spare_helpers_left() -> Any:
    yield
    root_parallel.end_spare_helpers()


def test_folded_counts_add_up_and_keep_every_node_counted() -> None:
    state = games.get_game("tictactoe").initial_state()
    ours, theirs = searched(state, 60, seed=1), searched(state, 90, seed=2)
    assert ours.root is not None and theirs.root is not None
    before = {child.move: child.visits for child in ours.root.children}
    counts = root_counts(theirs.root, state, 90, 100)
    folded = fold(tree_of(ours), [counts], state)
    assert folded.iterations == 90
    assert ours.root.visits == 60 + 90
    for child in ours.root.children:
        theirs_child = next(c for c in theirs.root.children if c.move == child.move)
        assert child.visits == before.get(child.move, 0) + theirs_child.visits
    assert_counts(ours.root)
    folded.undo(ours.root)  # the kept tree goes on with its own counts
    assert ours.root.visits == 60
    assert {child.move: child.visits for child in ours.root.children} == before
    assert_counts(ours.root)


def test_a_move_only_the_helper_tried_joins_the_tree() -> None:
    state = games.get_game("connect4").initial_state()
    ours = searched(state, 3, seed=1)  # three of seven moves tried
    assert ours.root is not None and len(ours.root.children) == 3
    text = state.game.format_move
    moves = {str(text(move)): (5, 1.0, None) for move in state.legal_moves()}
    folded = fold(tree_of(ours), [RootCounts(35, 35, moves)], state)
    assert len(ours.root.children) == 7 and not ours.root.untried
    assert ours.root.visits == 3 + 35
    assert_counts(ours.root)
    folded.undo(ours.root)
    assert len(ours.root.children) == 3 and len(ours.root.untried) == 4
    assert ours.root.visits == 3


def test_a_win_the_helper_proved_is_proven_here() -> None:
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves("1 4 2 5"))  # X to move wins at 3
    kept = KeptTree()
    search(state, SearchConfig(MonteCarlo(1), seed=0), tree=kept)
    assert kept.root is not None
    kept.root.solved = None  # as if this process had not found it
    for child in kept.root.children:
        child.solved = None
    win = str(game.format_move(game.parse_move("3", state)))
    fold(tree_of(kept), [RootCounts(1, 1, {win: (1, 1.0, 1.0)})], state)
    assert kept.root.solved is not None and kept.root.solved > PROVEN


def test_two_processes_search_twice_the_iterations_and_choose_the_same_each_time() -> None:
    game = games.get_game("connect4")
    config = SearchPlayer(MonteCarlo(400, processes=2), seed=3)
    chosen, counts = [], []
    for _ in range(2):
        player = AIPlayer(config, game)
        if root_parallel.usable_processes(2) < 2:
            pytest.skip("one core: no helper is started")
        state = game.initial_state()
        move = player.choose(state)
        result = player.last_result
        assert result is not None and result.details.playouts is not None
        counts.append(result.details.playouts.iterations)
        chosen.append((move, dict(result.details.playouts.moves)))
        player.close()
    assert counts == [800, 800]  # an iteration budget waits for every helper
    assert chosen[0] == chosen[1]  # one seed, one pair of trees


def test_a_helper_that_dies_costs_only_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(root_parallel.os, "cpu_count", lambda: 2)
    game = games.get_game("connect4")
    player = AIPlayer(SearchPlayer(MonteCarlo(200, processes=2), seed=1), game)
    helpers = player.tree.helpers
    assert isinstance(helpers, root_parallel.RootParallel)
    for helper in helpers.helpers:
        helper.process.kill()
        helper.process.wait(5)
    move = player.choose(game.initial_state())
    assert move in game.initial_state().legal_moves()
    result = player.last_result
    assert result is not None and result.details.playouts is not None
    assert result.details.playouts.iterations in (200, 400)  # a new helper, or none in time
    player.close()


def test_one_core_starts_no_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(root_parallel.os, "cpu_count", lambda: 1)
    player = AIPlayer(SearchPlayer(MonteCarlo(50, processes=4)), games.get_game("tictactoe"))
    assert player.tree.helpers is None


def test_a_game_from_a_file_is_searched_by_its_helpers_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(root_parallel.os, "cpu_count", lambda: 2)
    game = kalah()
    player = AIPlayer(SearchPlayer(MonteCarlo(150, processes=2), seed=2), game)
    state = game.initial_state()
    for _ in range(2):  # the helper keeps its tree between moves, as the player does
        move = player.choose(state)
        result = player.last_result
        assert result is not None and result.details.playouts is not None
        assert result.details.playouts.iterations == 300
        state = state.play(move)
        while not state.is_terminal() and state.to_move == 0:
            state = state.play(state.legal_moves()[0])
    player.close()
    assert Path(KALAH).exists()


def test_the_setting_checks_describes_and_travels() -> None:
    assert "2 processes" in MonteCarlo(processes=2).describe(1.5)
    assert "processes" not in MonteCarlo().describe(1.5)
    for bad in (0, -1, True, 2.0, "2", 65):
        with pytest.raises(ValueError, match="processes must be 1 to 64"):
            dataclasses.replace(MonteCarlo(), processes=bad).check()
    flat = settings_to_flat(MonteCarlo(processes=2))
    assert flat["mcts"]["processes"] == 2
    assert settings_from_flat(flat) == MonteCarlo(processes=2)
    assert "processes" not in settings_to_flat(MonteCarlo())["mcts"]
    spec = parse_player_spec("tictactoe", "mcts:time=1:processes=2")
    assert isinstance(spec, SearchPlayer) and spec.search == MonteCarlo(processes=2)


def test_a_helper_ends_when_its_input_closes_as_when_its_parent_dies() -> None:
    helper = root_parallel.Helper()
    assert helper.alive()
    assert helper.process.stdin is not None
    helper.process.stdin.close()  # what the parent's end does when it dies
    assert helper.process.wait(30) == 0


def test_a_game_that_prints_writes_nothing_into_the_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(root_parallel.os, "cpu_count", lambda: 2)
    source = (Path(KALAH).read_text(encoding="utf-8")).replace(
        "def legal_moves(", "def _quiet_legal_moves(", 1
    )
    loud = tmp_path / "loud_kalah.py"
    loud.write_text(
        source
        + "\n\nimport os as _os\n\n"
        + "def _loud(self, *args):\n"
        + "    print('chatter')\n"
        + "    _os.write(1, b'noise on the descriptor')\n"
        + "    return self._quiet_legal_moves(*args)\n\n"
        + "Board.legal_moves = _loud\n",
        encoding="utf-8",
    )
    assert "def _quiet_legal_moves(" in source
    game = games.get_game(games.resolve(str(loud)))
    player = AIPlayer(SearchPlayer(MonteCarlo(60, processes=2), seed=4), game)
    player.choose(game.initial_state())
    result = player.last_result
    assert result is not None and result.details.playouts is not None
    assert result.details.playouts.iterations == 120
    player.close()
