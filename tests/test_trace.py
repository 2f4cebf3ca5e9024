"""The recorded search (ai.textbook.trace): same values as ai.search, textbook counts, replay,
examples."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import ai, games
from plyground.ai.engine.full_width_search import book_units
from plyground.ai.textbook.trace import TraceEvent, TraceTooLarge, build_tree, trace
from plyground.ai.textbook.trace_text import explain, render_json, render_text
from plyground.cli import run
from plyground.games import CHANCE
from plyground.games.trees import examples


def main(argv: list[str]) -> int:
    """`plyground trace ARGS`."""
    return run(["trace", *argv])


FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAME_DEPTHS = {"tictactoe": 4, "connect4": 3, "pig": 2}


def _game(name: str) -> Any:
    return games.get_game(name, goal=20) if name == "pig" else games.get_game(name)


def random_position(game: Any, seed: int, max_moves: int, chance_root: bool = False) -> Any:
    """A non-terminal position reached by random moves (a chance node only if asked)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randint(0, max_moves)):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    if state.is_terminal():
        state = game.initial_state()
    if state.to_move == CHANCE and not chance_root:
        state = state.play(rng.choice(state.legal_moves()))
    return state if not state.is_terminal() else game.initial_state()


def tree_state(tree: Any) -> Any:
    return examples.TreeGame(tree).initial_state()


# ------------------------------------------------------------------ same values as ai.search
@FAST
@given(
    name=st.sampled_from(sorted(GAME_DEPTHS)),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_traced_root_value_is_the_search_value(name: str, seed: int, data: Any) -> None:
    game = _game(name)
    state = random_position(game, seed, 12, chance_root=data.draw(st.booleans()))
    depth = data.draw(st.integers(1, GAME_DEPTHS[name]))
    heuristic = data.draw(st.sampled_from(sorted(game.heuristics)))
    for algorithm in ai.algorithms_for(game):
        traced = trace(state, algorithm, depth, heuristic, node_budget=200_000)
        assert (
            traced.value
            == ai.search(
                state, ai.SearchConfig(ai.DepthLimited(algorithm, depth, heuristic), book=False)
            ).value
        )


@FAST
@given(
    name=st.sampled_from(["tictactoe", "connect4"]),
    seed=st.integers(0, 10**6),
    ordering=st.sampled_from(["game", "reversed", "best"]),
    table=st.booleans(),
    data=st.data(),
)
@pytest.mark.slow
def test_traced_alphabeta_equals_traced_minimax(
    name: str, seed: int, ordering: str, table: bool, data: Any
) -> None:
    game = _game(name)
    state = random_position(game, seed, 20)
    depth = data.draw(st.integers(1, GAME_DEPTHS[name]))
    heuristic = data.draw(st.sampled_from(sorted(game.heuristics)))
    reference = trace(state, "minimax", depth, heuristic, node_budget=200_000)
    pruned = trace(state, "alphabeta", depth, heuristic, ordering, table, node_budget=200_000)
    assert pruned.value == reference.value
    assert pruned.totals()[0] <= reference.totals()[0]


@FAST
@given(seed=st.integers(0, 10**6), table=st.booleans(), data=st.data())
def test_chance_trace_with_a_table_keeps_the_value(seed: int, table: bool, data: Any) -> None:
    state = random_position(_game("pig"), seed, 12)
    ordering = data.draw(st.sampled_from(["game", "reversed", "best"]))
    plain = trace(state, "expectiminimax", 2)
    other = trace(state, "expectiminimax", 2, ordering=ordering, table=table)
    assert other.value == plain.value
    assert all(not node.cut for node in other.nodes)
    assert other.totals()[2] == 0


@FAST
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 4))
def test_a_cutoff_never_changes_a_root_value(seed: int, depth: int) -> None:
    """Every cut-off's skipped children, searched anyway, leave the root value unchanged."""
    tree = examples.random_tree(seed, depth=depth)
    state = tree_state(tree)
    pruned = trace(state, "alphabeta", depth)
    assert pruned.value == examples.value_of(tree) == trace(state, "minimax", depth).value
    for node in pruned.nodes:
        if node.cut:
            # The node's true value is no better for its player than the bound that cut it.
            true = examples.value_of(pruned.state_of(node.id).tree)
            assert node.value is not None and node.cut_bound is not None
            if node.cut_by == "alpha":
                assert true <= node.value <= node.cut_bound
            else:
                assert true >= node.value >= node.cut_bound


# ------------------------------------------------------------------ textbook counts
def in_book(state: Any) -> bool:
    """A position the game's opening book knows exactly: a leaf in every search."""
    return hasattr(state, "book_value") and book_units(state) is not None


def textbook_minimax(state: Any, remaining: int, counts: list[int], root: bool = True) -> None:
    """Count nodes and leaves of plain depth-limited minimax (chance layers free): the
    textbook's tree, with no opening book (a trace's default)."""
    counts[0] += 1
    book = False
    if state.is_terminal() or (remaining == 0 and state.to_move != CHANCE) or book:
        counts[1] += 1
        return
    step = 0 if state.to_move == CHANCE else 1
    for move in state.legal_moves():
        textbook_minimax(state.play(move), remaining - step, counts, root=False)


def textbook_alphabeta(
    state: Any,
    remaining: int,
    alpha: float,
    beta: float,
    me: int,
    counts: list[int],
    root: bool = True,
) -> float:
    """AIMA's MAX-VALUE / MIN-VALUE with depth, on the trace's values; counts nodes and leaves."""
    counts[0] += 1
    if state.is_terminal() or remaining == 0:
        counts[1] += 1
        return float(trace_leaf(state))
    if state.player == me:
        v = -math.inf
        for move in state.legal_moves():
            after = state.play(move)
            child = textbook_alphabeta(after, remaining - 1, alpha, beta, me, counts, False)
            v = max(v, child)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for move in state.legal_moves():
        child = textbook_alphabeta(state.play(move), remaining - 1, alpha, beta, me, counts, False)
        v = min(v, child)
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


LEAVES: dict[Any, float] = {}


def trace_leaf(state: Any) -> float:
    return LEAVES[state.key(), state.ply]


@pytest.mark.slow
@FAST
@given(name=st.sampled_from(["tictactoe", "connect4"]), seed=st.integers(0, 10**6), data=st.data())
def test_node_counts_are_the_textbook_ones(name: str, seed: int, data: Any) -> None:
    game = _game(name)
    state = random_position(game, seed, 16)
    depth = data.draw(st.integers(1, GAME_DEPTHS[name]))
    traced = trace(state, "minimax", depth, node_budget=200_000)
    counts = [0, 0]
    textbook_minimax(state, depth, counts)
    assert traced.totals()[:2] == (counts[0], counts[1])
    pruned = trace(state, "alphabeta", depth, node_budget=200_000)
    # The textbook alpha-beta scores leaves exactly as the trace did (same scale, same sign).
    LEAVES.clear()
    for node in traced.nodes:
        if node.kind == "leaf":
            LEAVES[traced.state_of(node.id).key(), traced.state_of(node.id).ply] = node.value  # type: ignore[assignment]
    counts = [0, 0]
    value = textbook_alphabeta(state, depth, -math.inf, math.inf, state.player, counts)
    assert value == pruned.value
    assert pruned.totals()[:2] == (counts[0], counts[1])


def test_pig_node_counts_are_the_textbook_ones() -> None:
    state = _game("pig").initial_state().play("roll").play(4)
    traced = trace(state, "expectiminimax", 2)
    counts = [0, 0]
    textbook_minimax(state, 2, counts)
    assert traced.totals()[:2] == (counts[0], counts[1])


# ------------------------------------------------------------------ the textbook examples
def test_aima_figure_and_lesson_one() -> None:
    for tree in (examples.AIMA_FIG_5_2, examples.LESSON_TREE):
        state = tree_state(tree)
        full = trace(state, "minimax", 2)
        assert full.value == 3
        assert [full.nodes[c].value for c in full.root.children] == [
            3,
            2 if tree is examples.AIMA_FIG_5_2 else 1,
            2,
        ]
        assert full.totals() == (13, 9, 0, 0)
        pruned = trace(state, "alphabeta", 2)
        assert pruned.value == 3
        cuts = [
            (node.label, node.skipped, node.cut_by, node.cut_bound)
            for node in pruned.nodes
            if node.cut
        ]
        assert cuts == [("C", ("C2", "C3"), "alpha", 3)]
        assert pruned.totals() == (11, 7, 1, 0)
        assert pruned.best_child is not None and pruned.best_child.label == "B"


def test_lesson_one_explains_the_cutoff() -> None:
    pruned = trace(tree_state(examples.LESSON_TREE), "alphabeta", 2)
    step = next(i for i, e in enumerate(pruned.events) if e.kind == "cutoff")
    assert explain(pruned, step) == (
        "MIN at C already has 1 ≤ α = 3: the rest of C's children (C2, C3) cannot matter."
    )
    assert "✂ 2 moves skipped (C2, C3): value ≤ 1 already worse than α 3" in render_text(pruned)


def test_lesson_two_ordering_changes_the_leaves_evaluated() -> None:
    best = trace(tree_state(examples.BEST_ORDER_TREE), "alphabeta", 2)
    worst = trace(tree_state(examples.WORST_ORDER_TREE), "alphabeta", 2)
    assert best.value == worst.value == 3
    assert best.totals()[1] == 5
    assert worst.totals()[1] == 9
    # The trace's own "best" ordering on the game order finds the same best case.
    assert trace(tree_state(examples.LESSON_TREE), "alphabeta", 2, ordering="best").totals()[1] == 5


def test_lesson_three_stretched_leaves_flip_the_decision() -> None:
    small = trace(tree_state(examples.DICE_SMALL), "expectiminimax", 2)
    stretched = trace(tree_state(examples.DICE_STRETCHED), "expectiminimax", 2)
    assert [small.nodes[c].value for c in small.root.children] == pytest.approx([2.1, 1.3])
    assert [stretched.nodes[c].value for c in stretched.root.children] == pytest.approx([21, 40.9])
    assert small.best_child is not None and small.best_child.label == "a1"
    assert stretched.best_child is not None and stretched.best_child.label == "a2"
    chance = small.nodes[small.root.children[0]]
    assert chance.kind == "chance"
    assert [(label, p) for label, p, _ in chance.terms] == [("a1.1", 0.9), ("a1.2", 0.1)]
    assert "0.9·2 + 0.1·3 = 2.1" in render_text(small)
    assert [small.nodes[c].probability for c in chance.children] == [0.9, 0.1]
    with pytest.raises(ai.SearchError, match="chance"):
        trace(tree_state(examples.DICE_SMALL), "alphabeta", 2)


def test_lessons_are_searchable() -> None:
    for lesson in examples.LESSONS:
        for tree in (lesson.tree, lesson.other):
            if tree is not None:
                traced = trace(tree_state(tree), lesson.algorithm, examples.height(tree))
                assert traced.value == pytest.approx(examples.value_of(tree))


# ------------------------------------------------------------------ replay, budget, errors
@pytest.mark.parametrize(
    ("name", "algorithm", "depth", "table"),
    [
        ("connect4", "alphabeta", 3, True),
        ("pig", "expectiminimax", 2, True),
        ("tictactoe", "minimax", 2, False),
    ],
)
def test_replaying_the_events_rebuilds_the_same_tree(
    name: str, algorithm: str, depth: int, table: bool
) -> None:
    state = random_position(_game(name), 7, 6)
    traced = trace(state, algorithm, depth, table=table)
    wire = json.loads(json.dumps([event.to_json() for event in traced.events]))
    rebuilt = build_tree([TraceEvent.from_json(item) for item in wire])
    assert len(rebuilt) == len(traced.nodes)
    assert all(a.same_as(b) for a, b in zip(rebuilt, traced.nodes, strict=True))
    # A prefix gives the tree searched so far.
    half = build_tree(traced.events[: len(traced.events) // 2])
    assert 0 < len(half) <= len(traced.nodes)
    assert all(n.label == traced.nodes[n.id].label for n in half)


def test_table_hits_are_recorded() -> None:
    state = games.get_game("tictactoe").initial_state()
    with_table = trace(state, "minimax", 4, table=True, node_budget=200_000)
    without = trace(state, "minimax", 4, node_budget=200_000)
    assert with_table.value == without.value
    assert with_table.totals()[3] > 0
    assert with_table.totals()[0] < without.totals()[0]
    assert any(event.kind == "table" for event in with_table.events)


def test_the_node_budget_stops_with_a_clear_message() -> None:
    state = games.get_game("connect4").initial_state()
    with pytest.raises(TraceTooLarge) as caught:
        trace(state, "minimax", 6, node_budget=20_000)
    assert str(caught.value) == (
        "the trace passed its budget of 20,000 nodes at depth 6: try depth 5 or less, or alpha-beta"
    )
    assert trace(state, "minimax", 3).totals()[0] == 400


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"algorithm": "negamax"}, "unknown algorithm"),
        ({"depth": 0}, "depth must be"),
        ({"ordering": "random"}, "unknown ordering"),
        ({"heuristic": "nope"}, "unknown heuristic"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, Any], message: str) -> None:
    state = games.get_game("tictactoe").initial_state()
    with pytest.raises(ai.SearchError, match=message):
        trace(state, **kwargs)


# ------------------------------------------------------------------ rendering and the command
def test_json_nodes_carry_kind_value_window_and_cut() -> None:
    data = render_json(trace(tree_state(examples.LESSON_TREE), "alphabeta", 2))
    assert data["value"] == 3 and data["best_move"] == "B" and data["cutoffs"] == 1
    c_node = next(node for node in data["nodes"] if node["move"] == "C")
    assert c_node == {
        "id": 5,
        "parent": 0,
        "move": "C",
        "kind": "min",
        "value": 1.0,
        "bound": "upper",
        "alpha": 3.0,
        "beta": None,
        "probability": None,
        "cut": True,
        "skipped": ["C2", "C3"],
        "table_hit": False,
    }
    assert {node["kind"] for node in data["nodes"]} == {"max", "min", "leaf"}


def test_the_command_prints_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--game", "connect4", "--moves", "44", "--algorithm", "alphabeta", "--depth", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("alpha-beta, depth 2") and "✂" in out and "▼" in out
    assert main(["--game", "pig", "--option", "goal=20", "--depth", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["algorithm"] == "expectiminimax"
    assert "chance" in {node["kind"] for node in data["nodes"]}
    assert main(["--lesson", "1", "--ordering", "reversed"]) == 0
    assert "value 3;" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "tictactoe", "--moves", "11"], "illegal move"),
        (["--game", "pig", "--algorithm", "alphabeta"], "use expectiminimax"),
        (["--game", "connect4", "--depth", "9"], "try depth 8 or less"),
        (["--game", "pig", "--option", "goal"], "NAME=VALUE"),
        (["--lesson", "9"], "--lesson must be"),
        ([], "say which game"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_a_root_the_book_knows_is_still_searched_as_ai_search_does() -> None:
    """A position with 12 stones the opening book knows: the trace expands it, like the
    search (found by hypothesis: the trace once took the book's value at the root)."""
    game = _game("connect4")
    state = random_position(game, 56, 12)
    assert in_book(state)
    for depth in (1, 2, 3):
        for algorithm in ("minimax", "alphabeta"):
            traced = trace(state, algorithm, depth, "threats", node_budget=200_000, book=True)
            assert (
                traced.value
                == ai.search(
                    state, ai.SearchConfig(ai.DepthLimited(algorithm, depth, "threats"))
                ).value
            )
            assert traced.root.kind == "max"


def test_a_proven_draw_reads_draw_in_trace_as_in_compare(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import main

    assert main.main(["trace", "--game", "tictactoe", "--moves", "5193", "--depth", "9"]) == 0
    out = capsys.readouterr().out
    assert "value draw;" in out and "0.00" not in out
    assert main.main(["trace", "--game", "tictactoe", "--moves", "5193", "--depth", "2"]) == 0
    assert "value 0.00;" in capsys.readouterr().out  # an estimate of 0 is no draw
