"""The textbook algorithms (ai.textbook): the slide functions, the engine kept equal to them,
and every surface that shows a tree counting the same numbers as they do."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from plyground import ai, games
from plyground.ai.compare import comparison
from plyground.ai.engine.bookkeeping import Context
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.evaluation.values import INF_UNITS
from plyground.ai.student_code import grader
from plyground.ai.textbook.alphabeta import alphabeta
from plyground.ai.textbook.counts import Counter, Counts, share_of_minimax, tally
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.game_view import TextbookGame
from plyground.ai.textbook.minimax import minimax
from plyground.ai.textbook.observer import MAX, MIN
from plyground.ai.textbook.trace import trace
from plyground.cli import run
from plyground.games import CHANCE
from plyground.games.base import Move
from plyground.games.trees import examples
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.explorer.practice import EDITOR

SEARCHES: dict[str, Callable[..., float]] = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "expectiminimax": expectiminimax,
}


def textbook(
    algorithm: str, state: Any, depth: int, heuristic: str | None = None
) -> tuple[float, Counts]:
    """The slide function's root value (shown scale) and its counts."""
    view = TextbookGame(state, heuristic)
    counter = Counter()
    value = SEARCHES[algorithm](view, view.start(depth), depth, observer=counter)
    shown = view.show(value)
    assert shown is not None
    return shown, counter.counts


def random_position(game: Any, rng: random.Random, max_moves: int) -> Any:
    """A position some random moves in, never finished (a chance node stays one)."""
    state = game.initial_state()
    for _ in range(rng.randint(0, max_moves)):
        if state.is_terminal():
            break
        after = state.play(rng.choice(state.legal_moves()))
        if after.is_terminal():
            break
        state = after
    return state


# ------------------------------------------------------------------ the slide functions
class TinyGame:
    """A two-ply game written by hand, the way a student would: any object with the six
    methods is a game to the textbook functions."""

    TREE: ClassVar[dict[str, list[str]]] = {"": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]}
    LEAVES: ClassVar[dict[str, float]] = {"a1": 3.0, "a2": 12.0, "b1": 2.0, "b2": 4.0}

    def to_move(self, state: str) -> str:
        return MAX if len(state) == 0 else MIN

    def actions(self, state: str) -> Sequence[Move]:
        return self.TREE[state]

    def result(self, state: str, move: Move) -> str:
        return str(move)

    def chance_outcomes(self, state: str) -> Sequence[tuple[Move, float]]:
        return ()

    def is_cutoff(self, state: str, depth: int) -> bool:
        return state in self.LEAVES or depth == 0

    def evaluate(self, state: str) -> float:
        return self.LEAVES[state]


def test_the_slide_functions_on_a_hand_written_game() -> None:
    game = TinyGame()
    for search in (minimax, alphabeta, expectiminimax):
        counter = Counter()
        assert search(game, "", 2, observer=counter) == 3.0
        assert counter.decision() == ("a", 3.0)
    counter = Counter()
    alphabeta(game, "", 2, observer=counter)
    # b1 = 2 <= alpha = 3: b2 is skipped.
    assert counter.counts == Counts(nodes=6, leaves=3, cutoffs=1, table_hits=0)


def test_the_textbook_figures() -> None:
    state = examples.TreeGame(examples.AIMA_FIG_5_2).initial_state()
    assert textbook("minimax", state, 2) == (3, Counts(13, 9, 0, 0))
    assert textbook("alphabeta", state, 2) == (3, Counts(11, 7, 1, 0))
    dice = examples.TreeGame(examples.DICE_SMALL).initial_state()
    assert textbook("expectiminimax", dice, 2)[0] == pytest.approx(2.1)


def test_a_cutoff_with_nothing_left_to_skip_is_no_cut_off() -> None:
    """The brief's example: tic-tac-toe after 531964, depth 3.  Alpha-beta's window closes at
    some last moves; nothing is skipped there, so no cut-off is counted."""
    ttt = games.get_game("tictactoe")
    state = ttt.replay(ttt.parse_moves("531964"))
    assert textbook("alphabeta", state, 3)[1] == Counts(16, 6, 0, 0)


def test_share_of_minimax_never_exceeds_one() -> None:
    assert share_of_minimax(50, 200) == 0.25
    assert share_of_minimax(200, 200) == 1.0
    assert share_of_minimax(300, 200) is None
    assert share_of_minimax(10, None) is None


# ------------------------------------------------------------------ the engine equals them
ENGINE_CASES = [
    ("tictactoe", {}, 5, 6),
    ("connect4", {}, 3, 4),
    ("pig", {"goal": 12}, 3, 4),
]


@pytest.mark.parametrize(("name", "options", "max_depth", "count"), ENGINE_CASES)
def test_the_engine_values_equal_the_textbook_at_every_depth(
    name: str, options: dict[str, int], max_depth: int, count: int
) -> None:
    game = games.get_game(name, **options)
    rng = random.Random(2026)
    heuristics = sorted(game.heuristics)
    checked = 0
    for index in range(count * 4):
        state = random_position(game, rng, 14)
        heuristic = heuristics[index % len(heuristics)]
        for depth in range(1, max_depth + 1):
            values = set()
            counts = {}
            for algorithm in ai.algorithms_for(game):
                value, counts[algorithm] = textbook(algorithm, state, depth, heuristic)
                engine = ai.search(
                    state, ai.SearchConfig(ai.DepthLimited(algorithm, depth, heuristic), book=False)
                )
                assert value == engine.value, (name, state.key(), depth, algorithm)
                if algorithm == "minimax":
                    assert counts[algorithm] == (engine.nodes, engine.leaves, 0, 0)
                assert_counts_partition_the_nodes(engine)
                values.add(value)
                checked += 1
            assert len(values) == 1
            if "minimax" in counts:
                assert counts["alphabeta"].nodes <= counts["minimax"].nodes
                assert counts["alphabeta"].leaves <= counts["minimax"].leaves
                assert counts["minimax"].cutoffs == 0
    assert checked >= count * 4 * max_depth


def assert_counts_partition_the_nodes(result: Any) -> None:
    """Every node the engine counts is at most one of: a leaf, a table hit, a cut-off (the
    rest searched all their moves), as `ai.textbook.counts` defines them."""
    assert result.leaves + result.table_hits + result.cutoffs <= result.nodes
    assert result.leaf_evaluations <= result.leaves


def _one_pass(state: Any, depth: int, searcher: PruningSearch | None = None) -> tuple[int, Counts]:
    """One full-window pass of the engine's alpha-beta (no iterative deepening), its value in
    units and its counts."""
    game = state.game if hasattr(state, "game") else None
    heuristic = game.heuristics["none"] if game is not None else None
    ctx = searcher.ctx if searcher is not None else Context(heuristic, None, 0, None, None)
    ctx.book = False
    before = Counts(ctx.nodes, ctx.leaves, ctx.cutoffs, ctx.table_hits)
    searcher = searcher or PruningSearch(ctx)
    value = searcher.search(state, depth, -INF_UNITS, INF_UNITS)
    after = Counts(ctx.nodes, ctx.leaves, ctx.cutoffs, ctx.table_hits)
    return value, Counts(*(a - b for a, b in zip(after, before, strict=True)))


def test_the_engine_counts_by_the_textbooks_definitions() -> None:
    """On a tree whose order the engine cannot change, one pass of the engine counts what the
    slide function counts: D's last leaf closes its window with nothing left to skip, which
    is no cut-off; a second pass is the table's answer at the root."""
    tree = examples.TreeGame(examples.three_ply((0, 1, 1, -1, 0, 0, 1, 1, -1)))
    root = tree.initial_state()
    assert textbook("alphabeta", root, 2) == (0, Counts(11, 7, 1, 0))
    ctx = Context(tree.heuristics["none"], None, 0, None, None)
    searcher = PruningSearch(ctx)
    assert _one_pass(root, 2, searcher) == (0, Counts(11, 7, 1, 0))
    assert _one_pass(root, 2, searcher) == (0, Counts(1, 0, 0, 1))


def test_known_counts_of_the_textbook_functions() -> None:
    c4 = games.get_game("connect4")
    state = c4.replay(c4.parse_moves("4453"))
    assert [textbook("minimax", state, d)[1].nodes for d in (1, 2, 3, 4)] == [8, 57, 400, 2717]
    assert [textbook("alphabeta", state, d)[1].nodes for d in (1, 2, 3, 4)] == [8, 30, 177, 459]
    assert textbook("minimax", c4.initial_state(), 3)[1].nodes == 400
    pig = games.get_game("pig", goal=30).initial_state().play("roll").play(4)
    assert [textbook("expectiminimax", pig, d)[1].nodes for d in (1, 2, 3)] == [9, 63, 427]


# ------------------------------------------------------------------ every surface agrees
def _ttt(moves: str) -> Any:
    game = games.get_game("tictactoe")
    return game.replay(game.parse_moves(moves))


def _c4(moves: str) -> Any:
    game = games.get_game("connect4")
    return game.replay(game.parse_moves(moves))


SURFACE_CASES = [
    ("tictactoe", "531964", "alphabeta", 3),
    ("tictactoe", "5", "alphabeta", 3),
    ("tictactoe", "5", "minimax", 2),
    ("connect4", "4453", "alphabeta", 3),
    ("connect4", "4453", "minimax", 2),
]
ROW_OF = {"minimax": "minimax", "alphabeta": "alphabeta-plain"}


@pytest.mark.parametrize(("name", "moves", "algorithm", "depth"), SURFACE_CASES)
def test_trace_compare_and_the_explorer_count_what_the_textbook_function_counts(
    name: str, moves: str, algorithm: str, depth: int
) -> None:
    state = _ttt(moves) if name == "tictactoe" else _c4(moves)
    value, counts = textbook(algorithm, state, depth)
    traced = trace(state, algorithm, depth)
    assert traced.totals() == counts and traced.value == value
    assert tally(traced.events)[-1] == counts
    row = comparison.run_variant(state, ROW_OF[algorithm], depth)
    assert (row.nodes, row.leaves, row.cutoffs, row.table_hits) == counts
    assert row.value == value
    model = ExplorerModel(state, algorithm, depth)
    assert model.record().totals() == counts


def test_the_commands_give_the_same_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`trace --json` and `compare --json` on the same search."""
    for moves, depth in (("531964", 3), ("5", 3)):
        expected = textbook("alphabeta", _ttt(moves), depth)[1]
        game = ["--game", "tictactoe", "--moves", moves, "--depth", str(depth)]
        assert run(["trace", *game, "--algorithm", "alphabeta", "--json"]) == 0
        traced = json.loads(capsys.readouterr().out)
        keys = ("nodes_visited", "leaves", "cutoffs", "table_hits")
        assert tuple(traced[key] for key in keys) == expected
        rows = tmp_path / f"rows{moves}.json"
        assert run(["compare", *game, "--json", str(rows)]) == 0
        capsys.readouterr()
        data = json.loads(rows.read_text(encoding="utf-8"))
        plain = next(row for row in data["rows"] if row["variant"] == "alphabeta-plain")
        keys = ("nodes", "leaves", "cutoffs", "table_hits")
        assert tuple(plain[key] for key in keys) == expected
        assert all(row["share"] is None or row["share"] <= 1.0 for row in data["rows"])


def test_pig_in_trace_compare_and_the_explorer() -> None:
    state = games.get_game("pig", goal=30).initial_state().play("roll").play(4)
    for depth in (1, 2):
        value, counts = textbook("expectiminimax", state, depth)
        assert trace(state, "expectiminimax", depth).totals() == counts
        row = comparison.run_variant(state, "expectiminimax-plain", depth)
        assert (row.nodes, row.leaves, row.cutoffs, row.table_hits) == counts
        assert row.value == value
        assert ExplorerModel(state, "expectiminimax", depth).record().totals() == counts


def test_the_lessons_and_the_tree_editor_count_what_the_textbook_function_counts() -> None:
    for index, lesson in enumerate(examples.LESSONS):
        model = ExplorerModel(examples.TreeGame(lesson.tree).initial_state(), lesson=index)
        found = model.record()
        expected = textbook(lesson.algorithm, model.state, examples.height(lesson.tree))[1]
        assert found.totals() == expected, lesson.title
    editor = ExplorerModel(examples.TreeGame(examples.LESSON_TREE).initial_state(), lesson=EDITOR)
    for text in ("(3,5,9)(1,7,14)(8,11,2)", "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]"):
        assert editor.load_editor_text(text)
        expected = textbook(editor.algorithm, editor.state, editor.depth)[1]
        assert editor.record().totals() == expected, text


def test_the_graders_reference_counts_what_the_textbook_function_counts() -> None:
    for algorithm in ("minimax", "alphabeta", "expectiminimax"):
        for case in list(grader.cases(algorithm))[:6]:
            reference = grader.reference(case)
            value, counts = textbook(case.algorithm, case.state(), case.depth)
            assert reference.totals() == counts, case.title
            assert reference.value == pytest.approx(value)
            leaves = grader.reference_leaves(reference)
            assert len(leaves) == counts.leaves


def test_a_chance_root_is_searched_like_any_node() -> None:
    state = games.get_game("pig", goal=12).initial_state().play("roll")
    assert state.to_move == CHANCE
    value, counts = textbook("expectiminimax", state, 1)
    assert (
        value
        == ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 1), book=False)).value
    )
    assert counts.nodes == trace(state, "expectiminimax", 1).totals()[0]


def _one_move_position() -> Any:
    """A tic-tac-toe position with exactly one legal move, not over."""
    game = games.get_game("tictactoe")
    rng = random.Random(1)
    while True:
        state = game.initial_state()
        while not state.is_terminal() and len(state.legal_moves()) > 1:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


@pytest.mark.parametrize("position", ["one move", "5193"])
def test_a_pass_counts_its_root_as_the_textbook_does(position: str) -> None:
    """The engine's alpha-beta pass visits the root like the slide function, so a position
    with one legal move is 2 nodes in both, and alpha-beta never 'used 50%' of minimax."""
    from plyground.ai.advice.report import versus_minimax

    game = games.get_game("tictactoe")
    if position == "one move":
        state = _one_move_position()
    else:
        state = game.replay(game.parse_moves(position))
    engine = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 1)))
    found = trace(state, "alphabeta", 1)
    assert engine.nodes == found.totals(len(found.events) - 1).nodes
    minimax_nodes = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 1))).nodes
    if position == "one move":
        assert engine.nodes == minimax_nodes == 2
        assert "used 100.0%" in versus_minimax(engine, minimax_nodes)


class _LeafLog:
    """A game view that logs each position the search evaluates (by its moves)."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.leaves: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.view, name)

    def evaluate(self, position: Any) -> float:
        self.leaves.append(position)
        return float(self.view.evaluate(position))


@pytest.mark.parametrize(
    ("name", "moves", "depth"),
    [("tictactoe", "5", 4), ("connect4", "4433", 3), ("pig", "", 2), ("tictactoe", "15", 7)],
)
def test_each_root_form_is_its_value_forms_search_with_the_decision(
    name: str, moves: str, depth: int
) -> None:
    """MINIMAX-DECISION and its kin: the same value and the same leaves, in the same order,
    as the function the trace runs, and a move worth that value (the first such)."""
    from plyground import games
    from plyground.ai.textbook.alphabeta import alphabeta_decision
    from plyground.ai.textbook.expectiminimax import expectiminimax_decision
    from plyground.ai.textbook.minimax import minimax_decision

    game = games.get_game(name)
    state = game.replay(game.parse_moves(moves)) if moves else game.initial_state()
    chance = bool(game.stochastic)
    pairs = (
        [("expectiminimax", expectiminimax_decision)]
        if chance
        else [("minimax", minimax_decision), ("alphabeta", alphabeta_decision)]
    )
    exact_view = TextbookGame(state, None)
    for algorithm, decision in pairs:
        whole = _LeafLog(TextbookGame(state, None))
        value = SEARCHES[algorithm](whole, whole.start(depth), depth)
        rooted = _LeafLog(TextbookGame(state, None))
        move, decided = decision(rooted, rooted.start(depth), depth)
        assert decided == value
        assert [p.state.key() for p in rooted.leaves] == [p.state.key() for p in whole.leaves]
        root = exact_view.start(depth)
        child = exact_view.result(root, move)
        worth = (expectiminimax if chance else minimax)(exact_view, child, depth - 1)
        assert worth == value
        for earlier in exact_view.actions(root)[: exact_view.actions(root).index(move)]:
            before = (expectiminimax if chance else minimax)(
                exact_view, exact_view.result(root, earlier), depth - 1
            )
            assert before < value  # the first best move
