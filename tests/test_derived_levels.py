"""The difficulty levels of a game from a file, derived on its own speed and options.

Each level searches up to a depth within a node budget (its seconds at the speed measured
when the game was loaded) and a time cap; deepening keeps the deepest depth finished within
the budget, the same on every machine.  No test here asserts a time: the budgets, depths and
nodes are what they hold (the times are in docs/BENCHMARKS.md, `bench --levels`).
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from plyground import ai, cli, games
from plyground.ai.engine.bookkeeping import POLL_MASK, poll_mask_for
from plyground.ai.engine.search import MAX_DEPTH, DepthLimited
from plyground.ai.players.match import parsed_spec
from plyground.ai.players.presets import DIFFICULTIES, parse_player_spec, presets_of
from plyground.games.from_file import loading
from plyground.games.from_file.loading import DEEPEST, EXPERT, Probe, derived_presets

FILES = Path(__file__).resolve().parent / "game_files"
TAKE_AWAY = str(FILES / "take_away.py")

SLOW_GAME = """
from dataclasses import dataclass

@dataclass(frozen=True)
class Pile:
    stones: int
    to_move: int = 0
    def legal_moves(self):
        return tuple(n for n in (1, 2, 3) if n <= self.stones)
    def play(self, move):
        return Pile(self.stones - move, 1 - self.to_move)
    def is_terminal(self):
        return self.stones == 0
    def utility(self, player):
        return 1 if player != self.to_move else -1

class SlowTakeAway:
    def __init__(self, stones=12):
        self.stones = stones
    def initial_state(self):
        return Pile(self.stones)
    def evaluate(self, state):
        return sum(i * i for i in range(20_000)) % 2  # a millisecond or so of work
"""


def shape(node_seconds: float, branching: float = 8.0, longest: int = 60) -> Probe:
    """A probe's findings, made by hand: a game this wide and long at this speed."""
    return Probe(branching, longest * 0.8, longest, 1.0, False, None, node_seconds=node_seconds)


@pytest.fixture
def fixed_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's file code measured at 100 µs a node: ladders that no machine changes."""
    monkeypatch.setattr(loading, "file_node_seconds", lambda *_: 1e-4)


# ------------------------------------------------------------------ the engine's node budget


def test_a_node_budget_keeps_the_deepest_finished_iteration() -> None:
    state = games.get_game("connect4").initial_state()
    free = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6), all_values=False))
    config = ai.SearchConfig(
        ai.DepthLimited("alphabeta", 6, node_limit=free.nodes // 4), all_values=False
    )
    capped = ai.search(state, config)
    again = ai.search(state, config)
    finished = [it.depth for it in capped.details.iterations]
    assert capped.depth == finished[-1] < 6 and not capped.complete
    assert (capped.move, capped.depth, capped.nodes) == (again.move, again.depth, again.nodes)
    roomy = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6, node_limit=10**9), all_values=False)
    )
    assert roomy.depth == 6 and roomy.complete and roomy.value == free.value


def test_the_first_iteration_is_owed_and_none_deeper_runs_past_the_budget() -> None:
    """The first iteration runs whatever the budget (once, not cut and run again); the
    next finds the budget spent."""
    from plyground.ai.engine.bookkeeping import Context, _OutOfNodes
    from plyground.ai.engine.search import _deepen, _Deepening
    from plyground.games.base import NO_HEURISTIC

    ctx = Context(NO_HEURISTIC, None, 0, None, None)
    ctx.node_limit = 1
    asked: list[tuple[int, int | None]] = []

    def run(depth: int) -> int:
        asked.append((depth, ctx.node_limit))
        if ctx.node_limit is not None:
            raise _OutOfNodes
        ctx.leaf_evaluations += 1  # rests on an estimate: a deeper iteration would follow
        return depth

    progress = _Deepening()
    assert _deepen(ctx, [1, 2, 3, 4], run, 0, progress) == 1
    assert asked == [(1, None), (2, 1)] and progress.done == 1 and not progress.complete
    assert ctx.node_limit == 1
    state = games.get_game("connect4").initial_state()
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 8, node_limit=1)))
    assert result.depth <= 2 and not result.complete


def test_a_small_budget_is_checked_often() -> None:
    assert poll_mask_for(None) == POLL_MASK
    assert poll_mask_for(10**9) == POLL_MASK
    assert poll_mask_for(20) == 0 and poll_mask_for(160) == 3  # a slow game's: each node
    assert poll_mask_for(1_000) == 15 and poll_mask_for(4_000) == 63
    assert poll_mask_for(40_000) == POLL_MASK


def test_a_player_spec_takes_a_node_budget() -> None:
    config = parse_player_spec("connect4", "alphabeta:depth=5:nodes=2,000")
    assert config.search.node_limit == 2_000 and "2,000 nodes a move" in config.describe()
    assert config.search_config().settings == DepthLimited("alphabeta", 5, node_limit=2_000)
    with pytest.raises(ValueError, match="nodes must be a positive whole number"):
        parse_player_spec("connect4", "alphabeta:nodes=0")


# ------------------------------------------------------------------ the ladder on the game's speed


def test_a_slower_game_gets_smaller_budgets_and_shallower_levels() -> None:
    fast = derived_presets(shape(1e-5), "evaluate")
    slow = derived_presets(shape(3e-3), "evaluate")
    for quick_preset, slower_preset in zip(fast, slow, strict=True):
        quick, slower = quick_preset.search, slower_preset.search
        assert isinstance(quick, DepthLimited) and isinstance(slower, DepthLimited)
        assert slower.node_limit is not None and quick.node_limit is not None
        assert slower.node_limit < quick.node_limit
        assert slower.depth is not None and quick.depth is not None
        assert slower.depth <= quick.depth
    assert [p.search.depth for p in slow[:3]] < [p.search.depth for p in fast[:3]]  # type: ignore[union-attr]


@pytest.mark.parametrize("node_seconds", [0.0, 1e-5, 3e-4, 3e-3, 0.05])
def test_the_levels_stay_ordered_and_within_two_seconds(node_seconds: float) -> None:
    presets = derived_presets(shape(node_seconds), "evaluate")
    assert [p.name for p in presets] == ["Easy", "Medium", "Hard", "Expert"]
    depths = [p.search.depth for p in presets]  # type: ignore[union-attr]
    budgets = [p.search.node_limit for p in presets]  # type: ignore[union-attr]
    assert all(d is not None for d in depths) and all(b is not None for b in budgets)
    assert depths == sorted(depths) and len(set(depths)) == 4  # Hard deeper than Medium...
    assert all(2 * low <= high for low, high in itertools.pairwise(budgets))  # type: ignore[operator]
    assert all(p.time_limit is not None and p.time_limit <= 2.0 for p in presets)
    assert presets[-1].search.depth == DEEPEST == MAX_DEPTH and presets[-1].time_limit == EXPERT.cap


def test_a_budget_is_a_round_number() -> None:
    """A busy machine's scatter seldom moves a budget, so a ladder loaded again replays."""
    budgets = {loading.node_budget(0.6, shape(s)) for s in (2.0e-4, 2.1e-4, 2.2e-4)}
    assert len(budgets) == 1
    budget = budgets.pop()
    assert budget / 10 ** (len(str(budget)) - 1) in loading.ROUND


def test_the_probe_measures_the_files_own_speed(tmp_path: Path) -> None:
    slow = tmp_path / "slow_take_away.py"
    slow.write_text(SLOW_GAME)
    game = games.get_game(str(slow))
    found = loading.probe(game, heuristic="evaluate")
    fast = games.get_game(TAKE_AWAY)  # the same rules with an evaluation of no work
    assert loading.probe(fast, heuristic="evaluate").node_seconds * 5 < found.node_seconds
    slow_hard = {p.name: p.search for p in game.presets}["Hard"].node_limit
    fast_hard = {p.name: p.search for p in fast.presets}["Hard"].node_limit
    assert slow_hard is not None and fast_hard is not None and slow_hard < fast_hard


def test_a_seeded_match_of_derived_levels_replays(fixed_speed: None) -> None:
    from plyground.ai.players.match import MatchSetup, play_match

    name = games.resolve(str(FILES / "grid_connect3.py"))
    levels = {p.name: p for p in games.get_game(name).presets}

    def written_out(level: str) -> str:  # the level without its time cap, a backstop only
        p = levels[level]
        search = p.search
        return f"alphabeta:depth={search.depth}:nodes={search.node_limit}:randomness={p.randomness}"

    setup = MatchSetup(name, (), (written_out("Hard"), written_out("Easy")), seed=7, swap=True)
    runs = [[record.moves for record in play_match(setup, 2)] for _ in range(2)]
    assert runs[0] == runs[1] and all(runs[0])


# ------------------------------------------------------------------ options reach the levels


def test_the_levels_come_from_the_game_as_its_options_make_it(fixed_speed: None) -> None:
    loading._LOADED.clear()
    name = games.resolve(TAKE_AWAY)
    games.GAMES.pop(name, None)
    name = games.resolve(TAKE_AWAY)
    default = games.get_game(name)
    small = games.get_game(name, stones=3)
    assert default.presets == type(default).presets == tuple(games.GAMES[name].presets)
    assert small.presets != default.presets
    assert all(p.search.depth is not None and p.search.depth <= 3 for p in small.presets[:3])
    assert max(p.search.depth or 0 for p in default.presets[:3]) > 3  # type: ignore[union-attr]
    assert small.presets is games.get_game(name, stones=3).presets  # derived once
    assert games.get_game(name, stones=10).presets == default.presets  # its default
    hard = {p.name: p for p in small.presets}["Hard"]
    for config in (
        parse_player_spec(name, "hard", small),
        parsed_spec(small, "hard"),
        presets_of(small)["Hard"],
    ):
        assert config.search == hard.search
    assert DIFFICULTIES[name]["Hard"].search != hard.search  # the defaults' ladder by name
    with pytest.raises(AttributeError):
        small.presets = ()  # type: ignore[misc]


def test_analyze_searches_as_deep_as_the_games_hard_level(
    fixed_speed: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from plyground.cli.analyze_command import default_depth

    game = games.get_game(TAKE_AWAY)
    assert default_depth(game.presets) == game.presets[2].search.depth
    assert default_depth(games.get_game("connect4").presets) == 8


# ------------------------------------------------------------------ analyze's time


def test_analyze_counts_all_it_did_in_its_time(capsys: pytest.CaptureFixture[str]) -> None:
    began = time.perf_counter()
    status = cli.run(["analyze", "--game", TAKE_AWAY, "--moves", "1", "--json"])
    command = time.perf_counter() - began
    out = capsys.readouterr().out
    assert status == 0
    parts: dict[str, Any] = json.loads(out)["time"]
    assert set(parts) == {"loading", "estimate", "search", "rest", "total"}
    named = parts["loading"] + parts["estimate"] + parts["search"] + parts["rest"]
    assert parts["total"] == pytest.approx(named, abs=1e-6) and parts["total"] <= command
    assert parts["total"] > parts["search"] and parts["estimate"] > 0
    status = cli.run(["analyze", "--game", TAKE_AWAY, "--moves", "1"])
    text = capsys.readouterr().out
    assert "in all (" in text and "estimating its cost" in text and "the search" in text


def test_the_cost_estimate_of_a_slow_game_samples_fewer_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past SAMPLE_SECONDS the estimator stops at FEWEST_PATHS paths (analyze on a game whose
    moves take milliseconds spent most of its time estimating)."""
    from plyground.ai.engine import cost

    state = games.get_game("tictactoe").initial_state()  # its random paths differ
    first = cost.tree_size(state, None, paths=cost.FEWEST_PATHS)
    whole = cost.tree_size(state, None)
    monkeypatch.setattr(cost, "SAMPLE_SECONDS", 0.0)
    assert cost.tree_size(state, None) == first != whole


def test_the_levels_benchmark_reports_each_level_of_a_game() -> None:
    from plyground.ai.bench.levels import format_levels_bench, levels_bench

    rows = levels_bench(quick=True, specs=[TAKE_AWAY, str(FILES / "no_such_game.py")])
    assert [p["preset"] for p in rows[0]["presets"]] == ["Easy", "Medium", "Hard", "Expert"]
    assert all(len(p["depths"]) == rows[0]["positions"] == 2 for p in rows[0]["presets"])
    assert "no such game file" in rows[1]["error"]
    text = "\n".join(format_levels_bench(rows))
    assert "nodes a move" in text and "not loaded (" in text
