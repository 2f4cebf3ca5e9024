"""The textbook's Monte Carlo tree search (ai/textbook/mcts.py) and its recorder: seeded, its
counts invariant, the first iterations exactly as worked by hand, right where a move is
clear, credited to the side that moved (twice in a row too), on every kind of game."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import games
from plyground.ai.engine.bookkeeping import SearchError
from plyground.ai.engine.mcts.settings import MonteCarlo
from plyground.ai.engine.search import SearchConfig, search
from plyground.ai.textbook.counts import MCTS_DEFINITIONS, MctsCounts, definitions_text
from plyground.ai.textbook.game_view import Position, TextbookGame
from plyground.ai.textbook.mcts import MctsNode, monte_carlo_tree_search, ucb1
from plyground.ai.textbook.mcts_trace import (
    ITERATION_BUDGET,
    MctsEvent,
    MctsTrace,
    Recorder,
    record_mcts,
)
from plyground.ai.textbook.observer import CHANCE, MAX, MIN
from plyground.cli import run as run_app
from plyground.games.base import State
from plyground.games.trees import examples
from plyground.games.trees.examples import Tree, TreeGame

FILES = Path(__file__).resolve().parent / "game_files"
C = math.sqrt(2)


def tree_state(tree: Tree) -> Any:
    return TreeGame(tree).initial_state()


def file_game(name: str) -> Any:
    return games.get_game(games.resolve(str(FILES / name)))


def run(state: State[Any], iterations: int, seed: int = 0, c: float = C) -> MctsNode[Position]:
    view = TextbookGame(state)
    return monte_carlo_tree_search(view, view.start(0), iterations, random.Random(seed), c)[1]


def ended_at(trace: MctsTrace) -> Counter[int]:
    """How many iterations ended at each node (its playout, or a finished game there)."""
    return Counter(event.node for event in trace.events if event.kind == "playout")


def assert_invariants(trace: MctsTrace) -> None:
    """A node's N is its children's plus the iterations that ended at it; the root's N is
    the iterations; U is within [0, N]; each node is credited to the side that moved into
    it; the move is the most visited child's (the first such)."""
    root = trace.root
    ended = ended_at(trace)
    assert trace.iterations == root.N
    root_player = root.state.state.player
    for node in root.walk():
        assert ended[node.id] + sum(child.N for child in node.children) == node.N
        assert 0 <= node.U <= node.N
        if node.parent is None:
            assert node.mover == MIN
        elif node.parent.chance:
            assert node.mover == node.parent.mover
        else:
            parent = node.parent.state.state
            assert node.mover == (MAX if parent.player == root_player else MIN)
    best = max(root.children, key=lambda child: child.N)
    assert trace.move == best.move
    assert trace.events[-1].child == best.id
    final = {n.id: (n.N, n.U) for n in trace.tree_at(len(trace.events))}
    assert final == {n.id: (n.N, n.U) for n in root.walk()}
    counts = trace.counters[-1]
    assert counts.iterations == trace.iterations
    assert counts.tree_nodes == sum(1 for _ in root.walk())


# ------------------------------------------------------------------ one seed, one tree
def test_one_seed_one_tree() -> None:
    state = games.get_game("connect4").replay([3, 3, 2])
    first, again = record_mcts(state, 200, seed=7), record_mcts(state, 200, seed=7)
    assert first.events == again.events
    assert first.move == again.move
    other = record_mcts(state, 200, seed=8)
    assert other.events != first.events


def test_the_recorder_does_not_change_the_search() -> None:
    state = games.get_game("tictactoe").replay([4])
    quiet = run(state, 150, seed=3)
    traced = record_mcts(state, 150, seed=3).root
    assert [(n.id, n.N, n.U) for n in quiet.walk()] == [(n.id, n.N, n.U) for n in traced.walk()]


# ------------------------------------------------------------------ the invariants
@pytest.mark.parametrize(
    ("make", "iterations"),
    [
        (lambda: games.get_game("tictactoe").initial_state(), 300),
        (lambda: games.get_game("connect4").replay([3, 3]), 150),
        (lambda: games.get_game("pig", goal=20).initial_state(), 150),
        (lambda: tree_state(examples.LESSON_TREE), 40),
        (lambda: tree_state(examples.DICE_SMALL), 40),
        (lambda: tree_state(examples.MCTS_TREE), 40),
        (lambda: file_game("kalah.py").initial_state(), 150),
        (lambda: file_game("twice.py").initial_state(), 30),
        (lambda: file_game("dice_race.py").initial_state(), 150),
    ],
    ids=[
        "tictactoe",
        "connect4",
        "pig",
        "lesson",
        "dice tree",
        "mcts lesson",
        "kalah",
        "twice",
        "dice race",
    ],
)
def test_the_counts_hold_on_every_kind_of_game(make: Any, iterations: int) -> None:
    assert_invariants(record_mcts(make(), iterations, seed=1))


def _shifted(tree: Tree) -> Tree:
    """A practice tree with its leaves 0..9 moved to -5..4: wins, draws and losses."""
    if isinstance(tree, int | float):
        return tree - 5
    return (tree[0], tuple((move, _shifted(sub)) for move, sub in tree[1]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tree_seed=st.integers(0, 10_000),
    depth=st.integers(1, 4),
    iterations=st.integers(1, 60),
    seed=st.integers(0, 1000),
    c=st.floats(0, 3),
)
def test_the_counts_hold_on_random_trees(
    tree_seed: int, depth: int, iterations: int, seed: int, c: float
) -> None:
    tree = _shifted(examples.random_tree(tree_seed, depth))
    assert_invariants(record_mcts(tree_state(tree), iterations, seed, c))


# ------------------------------------------------------------------ by hand
FIXED = (
    "max",
    (
        ("B", ("min", (("B1", 1), ("B2", 1)))),
        ("C", ("min", (("C1", -1), ("C2", -1)))),
        ("D", ("min", (("D1", 0), ("D2", 0)))),
    ),
)
"""Every playout from B is a win for MAX, from C a loss, from D a draw: whatever the dice."""


def test_the_first_iterations_as_worked_by_hand() -> None:
    trace = record_mcts(tree_state(FIXED), 6)
    starts = trace.iteration_starts()
    assert starts[0] == 0 and len(starts) == 6
    by_iteration: dict[int, list[MctsEvent]] = {}
    for event in trace.events:
        by_iteration.setdefault(event.iteration, []).append(event)
    label = trace.label

    def shape(events: Sequence[MctsEvent]) -> list[tuple[Any, ...]]:
        found: list[tuple[Any, ...]] = []
        for e in events:
            if e.kind == "select":
                assert e.child is not None
                found.append(("select", label(e.node), label(e.child)))
            elif e.kind == "expand":
                assert e.child is not None
                found.append(("expand", label(e.node), label(e.child)))
            elif e.kind == "playout":
                found.append(("playout", label(e.node), e.result))
            elif e.kind == "backup":
                found.append((label(e.node), e.N, e.U))
        return found

    # 1-3: A has untried moves: B, C, D are added in the game's order, one playout each.
    assert shape(by_iteration[1]) == [
        ("expand", "A", "B"),
        ("playout", "B", 1.0),
        ("B", 1, 1.0),
        ("A", 1, 0.0),
    ]
    assert shape(by_iteration[2]) == [
        ("expand", "A", "C"),
        ("playout", "C", 0.0),
        ("C", 1, 0.0),
        ("A", 2, 1.0),
    ]
    assert shape(by_iteration[3]) == [
        ("expand", "A", "D"),
        ("playout", "D", 0.5),
        ("D", 1, 0.5),
        ("A", 3, 1.5),
    ]
    # 4: UCB1 at A (N 3): B 1 + sqrt(2 ln 3), C 0 + sqrt(2 ln 3), D 0.5 + sqrt(2 ln 3).
    bonus = math.sqrt(2 * math.log(3))
    select = by_iteration[4][1]
    assert [(label(c), u) for c, u in select.ucb] == [
        ("B", pytest.approx(1 + bonus)),
        ("C", pytest.approx(bonus)),
        ("D", pytest.approx(0.5 + bonus)),
    ]
    assert shape(by_iteration[4]) == [
        ("select", "A", "B"),
        ("expand", "B", "B1"),
        ("playout", "B1", 1.0),
        ("B1", 1, 0.0),
        ("B", 2, 2.0),
        ("A", 4, 1.5),
    ]
    # 5: at N 4, B 2/2 + sqrt(2 ln 4 / 2) = 2.177 still beats D 0.5 + sqrt(2 ln 4) = 2.165.
    ucb = dict((label(c), u) for c, u in by_iteration[5][1].ucb)
    assert ucb["B"] == pytest.approx(1 + math.sqrt(math.log(4)))
    assert ucb["D"] == pytest.approx(0.5 + math.sqrt(2 * math.log(4)))
    assert shape(by_iteration[5])[:2] == [("select", "A", "B"), ("expand", "B", "B2")]
    # 6: at N 5, B's bonus has shrunk with its 3 visits: D (0.5 + 1.794) now beats
    # B (1 + 1.036) and C (0 + 1.794): the draw is explored though B never lost.
    ucb = dict((label(c), u) for c, u in by_iteration[6][1].ucb)
    assert ucb == {
        "B": pytest.approx(1 + math.sqrt(2 * math.log(5) / 3)),
        "C": pytest.approx(math.sqrt(2 * math.log(5))),
        "D": pytest.approx(0.5 + math.sqrt(2 * math.log(5))),
    }
    assert shape(by_iteration[6]) == [
        ("select", "A", "D"),
        ("expand", "D", "D1"),
        ("playout", "D1", 0.5),
        ("D1", 1, 0.5),
        ("D", 2, 1.0),
        ("A", 6, 2.0),
    ]
    assert [(n.move, n.N, n.U) for n in trace.tree_at(len(trace.events)) if n.parent == 0] == [
        ("B", 3, 3.0),
        ("C", 1, 0.0),
        ("D", 2, 1.0),
    ]
    assert trace.move == "B"


def test_ucb1_is_infinite_before_a_visit_and_exploits_with_no_exploration() -> None:
    parent: MctsNode[str] = MctsNode("p", N=10)
    assert ucb1(MctsNode("a", parent, N=0), 10, C) == math.inf
    child = MctsNode("b", parent, N=4, U=3.0)
    assert ucb1(child, 10, 0.0) == 0.75
    assert ucb1(child, 10, 1.0) == pytest.approx(0.75 + math.sqrt(math.log(10) / 4))


def test_tree_at_and_phase_at_step_through_the_search() -> None:
    trace = record_mcts(tree_state(examples.MCTS_TREE), 8, seed=2)
    assert [(n.id, n.N) for n in trace.tree_at(0)] == [(0, 0)]
    assert trace.counts_at(0) == MctsCounts(tree_nodes=1)
    phases = [trace.phase_at(step) for step in range(len(trace.events))]
    assert phases[0] == "selection" and phases[-1] == "decision"
    order = ["selection", "expansion", "simulation", "backpropagation"]
    for start, end in zip(
        trace.iteration_starts(), [*trace.iteration_starts()[1:], -1], strict=True
    ):
        seen = list(dict.fromkeys(phases[start:end]))
        assert seen == order
    grown = [len(trace.tree_at(step)) for step in range(len(trace.events) + 1)]
    assert grown == sorted(grown) and grown[-1] == trace.counters[-1].tree_nodes
    assert trace.phase_at(10**6) == "decision" and trace.phase_at(-5) == "selection"


# ------------------------------------------------------------------ right where it is clear
@pytest.mark.parametrize(
    ("moves", "best", "what"),
    [("1524", 3, "X wins at once"), ("152", 3, "O must block")],
)
def test_tictactoe_finds_the_winning_move_and_the_forced_block(
    moves: str, best: int, what: str
) -> None:
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves(moves))
    for seed in range(3):
        trace = record_mcts(state, 1000, seed)
        assert game.format_move(trace.move) == str(best), what


def test_it_agrees_with_the_engines_mcts_where_the_move_is_clear() -> None:
    game = games.get_game("tictactoe")
    for moves in ("1524", "152", "15"):
        state = game.replay(game.parse_moves(moves))
        textbook = record_mcts(state, 3000, seed=0).move
        engine = search(state, SearchConfig(MonteCarlo(3000, playout="random"), seed=0)).move
        if moves == "15":  # after X 1, O 5 no move wins or loses at once: both just legal
            assert textbook in state.legal_moves() and engine in state.legal_moves()
        else:
            assert textbook == engine


def test_a_side_that_moves_twice_is_credited_with_both_moves() -> None:
    trace = record_mcts(file_game("twice.py").initial_state(), 30)
    again = next(child for child in trace.root.children if child.move == "again")
    finish = again.children[0]
    # "again" then "finish": the same side moves twice and wins every time.
    assert again.mover == MAX and finish.mover == MAX
    assert again.U == again.N and finish.U == finish.N
    assert trace.move == "again"


def test_chance_nodes_draw_their_outcomes() -> None:
    trace = record_mcts(games.get_game("pig", goal=20).initial_state(), 200, seed=4)
    chances = [node for node in trace.root.walk() if node.chance]
    assert chances
    for node in chances:
        outcomes = [o for o, _ in node.state.state.chance_outcomes()]
        assert [child.move for child in node.children] == outcomes
        assert node.untried == []
    draws = [e for e in trace.events if e.kind == "select" and not e.ucb]
    assert draws and all(trace.places[e.node].chance for e in draws)


def test_the_lessons_mcts_plays_the_sure_win() -> None:
    (lesson,) = examples.MCTS_LESSONS
    assert lesson.algorithm == "mcts" and lesson.iterations
    assert examples.TRACE_LESSONS[: len(examples.LESSONS)] == examples.LESSONS
    trace = record_mcts(tree_state(lesson.tree), lesson.iterations)
    assert trace.move == "B"  # minimax: B is a win, C a loss, D a draw
    assert "UCB1" in lesson.text and "explor" in lesson.text


# ------------------------------------------------------------------ refusals and counters
def test_what_the_recorder_refuses_in_one_line() -> None:
    ttt = games.get_game("tictactoe")
    with pytest.raises(SearchError, match="game is over"):
        record_mcts(ttt.replay(ttt.parse_moves("14253")), 10)
    with pytest.raises(SearchError, match=f"1 to {ITERATION_BUDGET:,}"):
        record_mcts(ttt.initial_state(), ITERATION_BUDGET + 1)
    with pytest.raises(SearchError, match="1 to"):
        record_mcts(ttt.initial_state(), 0)
    pig = games.get_game("pig")
    with pytest.raises(SearchError, match="dice decide"):
        record_mcts(pig.replay(pig.parse_moves("r")), 10)


def test_the_counters_are_defined_once_beside_the_others() -> None:
    assert set(MCTS_DEFINITIONS) == {"iterations", "playouts", "tree nodes", "playout plies"}
    assert "playout plies" in definitions_text()
    trace = record_mcts(tree_state(examples.MCTS_TREE), 20)
    counts = trace.counters[-1]
    playouts = [e for e in trace.events if e.kind == "playout"]
    assert counts.playouts == sum(1 for e in playouts if e.moves)
    assert counts.playout_plies == sum(len(e.moves) for e in playouts)
    assert counts.playouts < counts.iterations  # some iterations end at a finished game


def test_a_game_view_says_when_the_game_is_over() -> None:
    state = tree_state(examples.MCTS_TREE)
    view = TextbookGame(state)
    root = view.start(0)
    assert not view.is_terminal(root)
    assert view.to_move(root) == MAX
    leaf = view.result(view.result(view.result(root, "B"), "B1"), "B1a")
    assert view.is_terminal(leaf) and view.evaluate(leaf) == 1
    assert CHANCE == "chance"


def test_a_recorder_is_an_observer_of_the_search() -> None:
    recorder = Recorder(str)
    view = TextbookGame(tree_state(FIXED))
    move, _root = monte_carlo_tree_search(view, view.start(0), 4, random.Random(0), C, recorder)
    assert move == "B"
    assert [e.kind for e in recorder.events][:4] == ["iteration", "expand", "playout", "backup"]


# ------------------------------------------------------------------ trace --algorithm mcts
def trace_command(argv: list[str]) -> int:
    """`plyground trace ARGS`."""
    return run_app(["trace", *argv])


def test_trace_prints_each_iteration_the_root_table_and_the_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert trace_command(["--lesson", "4"]) == 0
    out = capsys.readouterr().out
    assert "iteration 20" in out and "iteration 21" not in out  # the lesson's own 20
    assert "select   A: UCB1 B 2.48 | C 1.48 | D 1.98 → B" in out  # iteration 4
    assert "  expand   add B\n" in out
    assert "playout  from B:" in out and "MAX wins (1)" in out
    assert "back up  B N=1 U=1 (MAX), A N=1 U=0 (MIN)" in out
    assert "estimate" in out and "exact value" in out
    assert "move chosen: B, the most visited" in out
    lines = out.splitlines()
    table = lines.index(next(line for line in lines if line.startswith("the root's children")))
    assert lines[table + 1].split() == ["move", "N", "U/N", "UCB1"]
    assert lines[-1].startswith("20 iterations, ")


def test_trace_counts_iterations_as_iterations_and_names_a_tie(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lesson 4 runs 20 iterations of which 9 are playouts: the table is after 20 iterations,
    not "after 20 playouts", and B's 11 are iterations.  On tic-tac-toe 15, 50 iterations leave
    7 and 6 with 9 visits each: the choice of 7 says why."""
    assert trace_command(["--lesson", "4"]) == 0
    out = capsys.readouterr().out
    assert "the root's children after 20 iterations" in out
    assert "mean result over 11 iterations" in out
    assert "20 iterations, 17 tree nodes, 9 playouts" in out
    assert "N counts the iterations through a node" in out
    assert "Every U/N and UCB1 below is an estimate" in out
    argv = ["--game", "tictactoe", "--moves", "15", "--algorithm", "mcts", "--iterations", "50"]
    assert trace_command(argv) == 0
    out = capsys.readouterr().out
    assert "move chosen: 7, the most visited (9 of 50 iterations; tied with 6, it was " in out


def test_trace_mcts_on_a_tree_of_scores_says_what_it_makes_of_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`trace --lesson 1 --algorithm mcts` printed "MAX wins (1)" at leaves of 3, 5 and 9 with
    no word that MCTS reads a score by its sign; lesson 4's results need no note."""
    assert trace_command(["--lesson", "1", "--algorithm", "mcts", "--iterations", "5"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Note: this tree's leaves are scores (3, 5, 9, 1, ...), not results")
    assert trace_command(["--tree", "(3,-5)(1,7)", "--algorithm", "mcts", "--iterations", "3"]) == 0
    assert "scores (3, -5, 1, 7), not results" in capsys.readouterr().out
    assert trace_command(["--lesson", "4", "--iterations", "3"]) == 0
    assert "Note:" not in capsys.readouterr().out


def test_trace_mcts_on_a_game_with_a_seed_and_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--game", "tictactoe", "--moves", "152", "--algorithm", "mcts", "--iterations"]
    assert trace_command([*argv, "400", "--seed", "2"]) == 0
    first = capsys.readouterr().out
    assert trace_command([*argv, "400", "--seed", "2"]) == 0
    assert capsys.readouterr().out == first  # one seed, one tree
    assert "move chosen: 3," in first
    assert trace_command([*argv, "50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["algorithm"] == "mcts" and data["kind"] == "estimate"
    assert data["iterations"] == 50 and data["nodes"][0]["N"] == 50
    assert sum(1 for event in data["events"] if event["kind"] == "iteration") == 50


def test_trace_mcts_runs_a_chance_game_and_a_file_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--algorithm", "mcts", "--iterations", "5"]
    assert trace_command(["--game", "pig", "--option", "goal=20", *argv]) == 0
    assert "the dice decide" in capsys.readouterr().out
    assert trace_command(["--game", str(FILES / "twice.py"), *argv]) == 0
    assert "move chosen: again" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--lesson", "4", "--depth", "2"], "--depth means nothing to MCTS"),
        (["--game", "tictactoe", "--algorithm", "mcts", "--table"], "--table means nothing"),
        (["--game", "tictactoe", "--algorithm", "mcts", "--heuristic", "x"], "--heuristic"),
        (["--game", "tictactoe", "--iterations", "9"], "--iterations is for --algorithm mcts"),
        (["--lesson", "1", "--seed", "3"], "--seed is for --algorithm mcts"),
        (
            ["--game", "tictactoe", "--algorithm", "mcts", "--iterations", "20000"],
            "at most 10,000, not 20,000",
        ),
        (["--game", "tictactoe", "--moves", "14253", "--algorithm", "mcts"], "game is over"),
        (["--game", "pig", "--moves", "r", "--algorithm", "mcts"], "the dice decide here"),
        (["--lesson", "5"], "--lesson must be 1 to 4"),
    ],
)
def test_trace_mcts_refuses_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert trace_command(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1
