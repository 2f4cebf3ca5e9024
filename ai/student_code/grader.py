"""The exercise grader: a student's minimax, alpha-beta or expectiminimax against the reference.

The student writes the textbook's root form (`ai.textbook.minimax.minimax_decision` and its
kin: the move and the value) against the textbook's game API (`exercise_game`).
`grade(algorithm, path, seed=N)` runs the student's function (in a worker process,
`ai.student_code.worker`) on the textbook trees, random trees drawn from seeds N to N+5, and
positions of the registered games, and compares with the reference trace
(`ai.textbook.trace`, the textbook algorithm with the game's move order and no table): the
root value, and the sequence of leaves evaluated.  The leaves are recorded on this side: the
student's search asks this process for every move, position and leaf value
(`exercise_game.StudentGame`), so what is graded is what the search did.  The first leaf where
the two differ is named, so an alpha-beta that prunes too little or too much, or a chance
layer that uses up depth, fails at the step where it goes wrong; then the value, then the move
(one of the moves worth the root's value: ties may go either way).
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground import games
from plyground.ai.evaluation.wording import counted
from plyground.ai.student_code.exercise_game import (
    ALGORITHMS,
    MCTS_WATCHED,
    Case,
    StudentGame,
    function_of,
)
from plyground.ai.student_code.messages import MessageError, bounded_move
from plyground.ai.student_code.worker import (
    LOAD_SECONDS,
    Limits,
    Refusal,
    StudentWorker,
    UserCodeError,
    check_number,
    require_function,
    resolve,
)
from plyground.ai.textbook.trace import Trace, trace
from plyground.games.base import Move, State, capabilities
from plyground.games.trees import examples as tree_examples
from plyground.untrusted import printable

CASE_SECONDS = 10.0
"""Seconds the student's search may take on one case."""
GRADE_SECONDS = 120.0
"""Seconds one file's whole exercise may take (its loads and every case together): a file
slow on every case fails the cases it leaves, rather than keeping a class's grading waiting."""
TOLERANCE = 1e-6
"""Values closer than this are equal (chance nodes' weighted sums)."""
RANDOM_TREES = 6
"""Random trees per exercise."""


@dataclass(frozen=True)
class Outcome:
    """One graded case: passed or not, and one line saying what happened."""

    case: Case
    passed: bool
    line: str
    details: tuple[str, ...] = ()
    student_leaves: tuple[tuple[Move, ...], ...] = ()
    student_value: float | None = None


def reference(case: Case) -> Trace:
    """The reference trace of a case."""
    return trace(case.state(), case.algorithm, case.depth, None, "game", False)


def reference_leaves(found: Trace) -> list[tuple[Move, ...]]:
    """The leaves a trace evaluates, in order, each as the moves from the root to it."""
    paths: dict[int, tuple[Move, ...]] = {}
    leaves = []
    for event in found.events:
        if event.kind == "enter":
            paths[event.node] = () if event.parent < 0 else (*paths[event.parent], event.move)
        elif event.kind == "leaf":
            leaves.append(paths[event.node])
    return leaves


def path_text(case: Case, path: tuple[Move, ...]) -> str:
    """A leaf named for a reader: a tree's node name, or the moves in the game's notation."""
    if not path:
        return "the root"
    if case.tree is not None:
        return str(path[-1])
    game = case.state().game
    return f"after {game.format_moves(list(path))}"


def compare(
    case: Case, value: float, leaves: list[tuple[Move, ...]], found: Trace
) -> tuple[bool, str]:
    """(passed, one line): the first differing leaf, else the value."""
    expected = reference_leaves(found)
    for step, (mine, theirs) in enumerate(zip(leaves, expected, strict=False), start=1):
        if mine != theirs:
            return False, (
                f"leaf {step}: you evaluated {path_text(case, mine)}, the reference "
                f"evaluates {path_text(case, theirs)}"
            )
    if len(leaves) > len(expected):
        extra = path_text(case, leaves[len(expected)])
        return False, (
            f"leaf {len(expected) + 1}: you evaluated {extra}, but the reference stops after "
            f"{counted(len(expected), 'leaf')} (it cannot matter: prune it)"
        )
    if len(leaves) < len(expected):
        missing = path_text(case, expected[len(leaves)])
        return False, (
            f"leaf {len(leaves) + 1}: you stopped after {counted(len(leaves), 'leaf')}; "
            f"the reference evaluates {missing} next (a cut-off too many?)"
        )
    if not math.isclose(value, found.value, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
        return False, (
            f"value: you return {value:g}, the reference {found.value:g} "
            f"(the same {counted(len(leaves), 'leaf')}: check how values are backed up)"
        )
    return True, f"value {found.value:g}, {counted(len(leaves), 'leaf')}, as the reference"


def _chance_tree(rng: random.Random) -> Any:
    """A small random tree: MAX over chance nodes over MIN nodes over leaves."""
    moves = []
    for side in range(rng.randint(2, 3)):
        outcomes = []
        weights = [rng.randint(1, 4) for _ in range(2)]
        for branch, weight in enumerate(weights):
            name = f"{'abc'[side]}{branch + 1}"
            leaves = tuple((f"{name}.{i + 1}", rng.randint(0, 9)) for i in range(2))
            outcomes.append((name, weight / sum(weights), ("min", leaves)))
        moves.append(("abc"[side], ("chance", tuple(outcomes))))
    return ("max", tuple(moves))


GAME_POSITIONS = 8
"""Positions of a named game (`exercise --game`) graded, drawn by seeded random play."""
GAME_CASE_LEAVES = 4_000
"""The most leaves a full-width search of a drawn game position may have: its depth is the
deepest that fits (at least 1)."""


def cases(algorithm: str, seed: int = 0, game: str | None = None) -> Iterator[Case]:
    """The graded cases of an exercise: lesson trees, random trees drawn from seeds `seed`
    to `seed` + RANDOM_TREES - 1, game positions (the built-in games' own, or positions of
    `game` drawn from `seed`)."""
    if algorithm == "mcts":
        from plyground.ai.student_code.mcts_grader import cases as mcts_cases

        yield from mcts_cases(seed, game)
        return
    if algorithm == "expectiminimax":
        for title, tree in (
            ("lesson 3, leaves 2 2 3 3 1 1 4 4", tree_examples.DICE_SMALL),
            ("lesson 3, stretched leaves", tree_examples.DICE_STRETCHED),
        ):
            yield Case(title, algorithm, tree_examples.height(tree), tree=tree)
        for tree_seed in range(seed, seed + RANDOM_TREES):
            tree = _chance_tree(random.Random(tree_seed))
            yield Case(f"random chance tree {tree_seed}", algorithm, 2, tree=tree)
    else:
        for title, tree in (
            ("lesson 1", tree_examples.LESSON_TREE),
            ("AIMA figure 5.2", tree_examples.AIMA_FIG_5_2),
            ("lesson 2, worst order", tree_examples.WORST_ORDER_TREE),
            ("lesson 2, best order", tree_examples.BEST_ORDER_TREE),
        ):
            yield Case(title, algorithm, tree_examples.height(tree), tree=tree)
        for tree_seed in range(seed, seed + RANDOM_TREES):
            tree = tree_examples.random_tree(tree_seed, depth=3 + tree_seed % 2)
            title = f"random tree {tree_seed}"
            yield Case(title, algorithm, tree_examples.height(tree), tree=tree)
    if game is not None:
        yield from drawn_positions(algorithm, game, seed)
    else:
        yield from _game_cases(algorithm)


def _full_width_leaves(state: State[Any], depth: int, limit: int) -> int:
    """Leaves of a full-width search of `depth` decisions from `state`, counted up to `limit`."""
    if depth == 0 or state.is_terminal():
        return 1
    if state.to_move == games.CHANCE:
        children = [state.play(outcome) for outcome, _ in state.chance_outcomes()]
        return sum(_full_width_leaves(child, depth, limit) for child in children)
    total = 0
    for move in state.legal_moves():
        total += _full_width_leaves(state.play(move), depth - 1, limit)
        if total > limit:
            break
    return total


def drawn_positions(algorithm: str, name: str, seed: int) -> Iterator[Case]:
    """`GAME_POSITIONS` positions of the game `name`, each reached by seeded random play from
    the start, each searched as deep as `GAME_CASE_LEAVES` allows."""
    game = games.get_game(name)
    rng = random.Random(seed)
    made = 0
    for _ in range(GAME_POSITIONS * 4):
        state, moves = game.initial_state(), []
        for _ in range(rng.randint(0, 6)):
            if state.is_terminal():
                break
            if state.to_move == games.CHANCE:
                move = games.sample_outcome(state, rng)
            else:
                move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        if state.is_terminal() or state.to_move == games.CHANCE:
            continue
        depth = 1
        while (
            depth < 6 and _full_width_leaves(state, depth + 1, GAME_CASE_LEAVES) <= GAME_CASE_LEAVES
        ):
            depth += 1
        text = game.format_moves(moves)
        title = f"{game.title} {text or 'start'}, depth {depth}"
        yield Case(title, algorithm, depth, game.name, (), text)
        made += 1
        if made == GAME_POSITIONS:
            return


def _game_cases(algorithm: str) -> Iterator[Case]:
    """Positions of every registered game the algorithm can search (games' own positions)."""
    for name, factory in games.GAMES.items():
        positions = capabilities(factory).exercise_positions
        stochastic = bool(getattr(factory, "stochastic", False))
        if stochastic != (algorithm == "expectiminimax"):
            continue
        for moves, depth, options in positions:
            title = f"{getattr(factory, 'title', name)} {moves or 'start'}, depth {depth}"
            yield Case(title, algorithm, depth, name, tuple(sorted(options.items())), moves)


def check_file(algorithm: str, path: str) -> str:
    """The file's absolute path; ValueError (one line) unless it defines the function."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown exercise {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}")
    file = resolve(path)
    require_function(file, function_of(algorithm))
    if algorithm == "mcts":
        require_function(file, MCTS_WATCHED)  # the loop calls it once an iteration
    return str(file)


def file_seed(path: str) -> int:
    """The seed a file's random trees come from unless the run names one: drawn from the
    file's name, so the same file gets the same cases (and the same score) every run, and
    two students' files different ones."""
    return zlib.crc32(Path(path).name.encode("utf-8", "replace")) % 999_983 + 1


def grade(
    algorithm: str,
    path: str,
    on_case: Callable[[Outcome], None] | None = None,
    seconds: float = CASE_SECONDS,
    seed: int = 0,
    game: str | None = None,
    budget: float = GRADE_SECONDS,
) -> list[Outcome]:
    """Run the student's function on every case, in a worker process; report each.  Each
    case may take `seconds`, the whole run `budget` (loads included): a case the budget
    leaves no time for fails unrun."""
    file = check_file(algorithm, path)
    kind = "mcts_exercise" if algorithm == "mcts" else "exercise"
    host = {"kind": kind, "path": file, "function": function_of(algorithm)}
    worker = StudentWorker(file, host, Limits(seconds))
    deadline = time.monotonic() + budget
    outcomes = []
    try:
        for case in cases(algorithm, seed, game):
            left = deadline - time.monotonic()
            if left <= 0:
                outcome = Outcome(case, False, f"not run: the exercise's {budget:g} s are spent")
            else:
                left = max(0.1, round(left, 1))  # said in tenths of a second
                worker.limits = Limits(min(seconds, left), min(LOAD_SECONDS, left))
                late = "" if left >= seconds else f" (all that was left of the {budget:g} s)"
                outcome = grade_one(worker, case, f"on this case{late}")
                worker.close()  # each case a fresh worker: nothing the file held carries over
            outcomes.append(outcome)
            if on_case is not None:
                on_case(outcome)
    finally:
        worker.close()
    return outcomes


def grade_one(worker: StudentWorker, case: Case, late: str = "on this case") -> Outcome:
    """One case graded: whatever the student's answer makes fail here (a move the game
    cannot take, a value the comparison cannot use) fails this case, never the run."""
    try:
        if case.algorithm == "mcts":
            from plyground.ai.student_code.mcts_grader import grade_case

            passed, line, details = grade_case(worker, case, late, _answering)
            return Outcome(case, passed, line, details)
        return _grade_case(worker, case, late)
    except UserCodeError as error:
        if error.setup:  # Plyground's worker did not start: no case is the file's to fail
            raise ValueError(error.line) from None
        return Outcome(case, False, error.reason, error.details)
    except Refusal as refusal:
        return Outcome(case, False, printable(refusal, SHOWN_LINE))
    except Exception as error:  # our code failed on the student's answer: this case fails
        return Outcome(case, False, f"its answer could not be graded ({type(error).__name__})")


def _grade_case(worker: StudentWorker, case: Case, late: str = "on this case") -> Outcome:
    """One minimax-family case: the leaves the search asked for, its value, its move."""
    found = reference(case)
    tree = StudentGame(case.state())
    request = {"root": tree.root_handle(), "depth": case.depth}
    what = f"{function_of(case.algorithm)}()"
    answer = worker.call(request, asker=_answering(tree), what=late)
    if not isinstance(answer, dict) or set(answer) != {"move", "value"}:
        raise Refusal(f"{what} did not return (move, value)")
    value = check_number(answer["value"], what)
    root = tree.positions[0]
    try:
        move = bounded_move(answer["move"], tree.own_moves(root))
    except MessageError as error:
        raise Refusal(f"{what} returned {error}") from None
    leaves = tree.leaves
    passed, line = compare(case, value, leaves, found)
    if passed:
        passed, line = _judge_move(case, move, found, line)
    return Outcome(case, passed, line, (), tuple(leaves), value)


SHOWN_LINE = 300
"""Characters of a refusal shown as a case's line."""


def _answering(tree: StudentGame) -> Callable[[list[Any]], Any]:
    """`tree.answer`, with any failure of ours on a question (whatever the student asked)
    turned into a refusal the student's code receives, so the case goes on or fails alone."""

    def answer(question: list[Any]) -> Any:
        try:
            return tree.answer(question)
        except Refusal:
            raise
        except Exception as error:
            raise Refusal(f"the grader could not answer that ({type(error).__name__})") from None

    return answer


def best_moves(case: Case, found: Trace) -> dict[Any, float]:
    """Every root move's exact value (alpha-beta's trace has bounds: minimax's has not);
    empty at a chance node, where no one decides."""
    exact = found if case.algorithm != "alphabeta" else trace(case.state(), "minimax", case.depth)
    root = exact.root
    if root.kind == "chance":
        return {}
    return {
        exact.nodes[child].move: float(exact.nodes[child].value or 0.0) for child in root.children
    }


def _judge_move(case: Case, move: Any, found: Trace, line: str) -> tuple[bool, str]:
    """(passed, line) for the move the student's root form chose."""
    values = best_moves(case, found)
    if not values:
        if move is None:
            return True, line
        return False, f"move: you chose {move!r} at a chance node, where dice decide (None)"
    named = {str(m): m for m in values}
    chosen = move if move in values else named.get(str(move), move)
    if chosen not in values:
        return False, f"move: you chose {move!r}, not one of the root's moves"
    if not math.isclose(values[chosen], found.value, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
        best = [m for m, v in values.items() if math.isclose(v, found.value, abs_tol=TOLERANCE)]
        return False, (
            f"move: you chose {_move_name(case, chosen)}, worth {values[chosen]:g}; the best "
            f"is worth {found.value:g} ({', '.join(_move_name(case, m) for m in best)})"
        )
    return True, line + ", and a best move"


def _move_name(case: Case, move: Any) -> str:
    """A root move named for a reader: a tree's node name, or the move in the game's notation."""
    if case.tree is not None:
        return str(move)
    return str(case.state().game.format_moves([move]))
