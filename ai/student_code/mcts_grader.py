"""The MCTS exercise's grader: a student's Monte Carlo tree search against the textbook's.

The student writes `monte_carlo_tree_search(game, state, iterations, rng, c)` in AIMA's
form (`ai.student_code.templates`: the node record and the loop given; SELECT, EXPAND,
SIMULATE, BACK-PROPAGATE and UCB1 to write), returning (move, root node).  Both searches
run on the same position with the same random stream, `random.Random(seed)`, drawn only
where the template says (a playout's move: `rng.choice(list(game.actions(s)))`), so a
right solution grows exactly the reference's tree.  The student's runs in a worker
(`ai.student_code.child.MctsExerciseHost`, in the sandbox, one fresh worker a case), which
sends back plain data only (`ai.student_code.mcts_watch`): the root's N and its children's
(move, N, U) after every iteration, the whole tree at the end, and the chosen move.  This
side checks every field, then judges in this order, one line each:

1. the invariants after each iteration (at the root: N is the iteration count and equals its
   children's N added up; 0 <= U <= N), then the first iteration whose root counts part
   from the reference's (what each had);
2. the invariants of the final tree (a node's N is its children's plus its own playout: one
   for a node expansion added, none at the root; a finished game's node only its own), then
   its first node whose counts differ from the reference's;
3. the chosen move: the most visited root child (ties: the first expanded).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from plyground import games
from plyground.ai.student_code.exercise_game import Case, StudentGame
from plyground.ai.student_code.messages import MessageError, bounded_move
from plyground.ai.student_code.worker import (
    Asker,
    Refusal,
    StudentWorker,
    check_number,
    short_repr,
)
from plyground.ai.textbook.mcts import MctsNode, monte_carlo_tree_search
from plyground.games.base import CHANCE, Move, State, capabilities
from plyground.games.trees import examples as tree_examples

C = math.sqrt(2)
"""The exploration constant both searches use (UCB1's c, AIMA's sqrt(2))."""
TREE_ITERATIONS = 30
"""Iterations on a textbook tree (enough to expand it whole and revisit its leaves)."""
GAME_ITERATIONS = 60
"""Iterations on a game position (each playout is a round trip a move to the grader)."""
RANDOM_TREES = 2
"""Random win/loss trees per exercise."""
DRAWN_POSITIONS = 8
"""Positions of a named game (`exercise mcts --game`) graded, drawn by seeded random play."""
"""Random win/loss trees per exercise."""
TOLERANCE = 1e-9
"""U values closer than this are equal (halves added up)."""

WIN_LOSS_TREE = tree_examples.three_ply((1, 1, 0, -1, 1, 1, 1, -1, 1))
"""AIMA fig. 5.2's shape with finished games at the leaves (MAX wins 1, loses -1, draws 0):
B draws at best, C and D lose; 30 iterations show MCTS finding B."""
TWICE_TREE = (
    "max",
    (
        ("a", ("max", (("a1", ("min", (("a11", 1), ("a12", -1)))), ("a2", -1)))),
        ("b", ("min", (("b1", 1), ("b2", 0)))),
        ("c", ("min", (("c1", -1), ("c2", 1)))),
    ),
)
"""MAX moves twice after a: a1 is credited to MAX, the player who moved into it."""


def _win_loss(tree: Any) -> Any:
    """A tree's leaves made finished games: above 5 MAX wins, below it loses, 5 a draw."""
    if isinstance(tree, (int, float)):
        return (tree > 5) - (tree < 5)
    return (tree[0], tuple((move, _win_loss(child)) for move, child in tree[1]))


def cases(seed: int = 0, game: str | None = None) -> Iterator[Case]:
    """The MCTS exercise's cases: two textbook trees, random win/loss trees from `seed`,
    and positions of every game without chance (or of `game`), each with its own seed."""
    yield Case(
        "textbook tree", "mcts", 0, tree=WIN_LOSS_TREE, iterations=TREE_ITERATIONS, seed=seed
    )
    yield Case("MAX moves twice", "mcts", 0, tree=TWICE_TREE, iterations=20, seed=seed + 1)
    for offset in range(RANDOM_TREES):
        tree_seed = seed + offset
        tree = _win_loss(tree_examples.random_tree(tree_seed, depth=3 + tree_seed % 2))
        yield Case(
            f"random win/loss tree {tree_seed}",
            "mcts",
            0,
            tree=tree,
            iterations=TREE_ITERATIONS,
            seed=tree_seed + 2,
        )
    if game is not None:
        yield from _drawn(game, seed)
        return
    for name, factory in games.GAMES.items():
        if getattr(factory, "stochastic", False):
            continue
        for index, (moves, _, options) in enumerate(capabilities(factory).exercise_positions):
            title = f"{getattr(factory, 'title', name)} {moves or 'start'}"
            yield Case(
                title,
                "mcts",
                0,
                name,
                tuple(sorted(options.items())),
                moves,
                iterations=GAME_ITERATIONS,
                seed=seed + 3 + index,
            )


def _drawn(name: str, seed: int) -> Iterator[Case]:
    """Positions of the game `name` reached by seeded random play (no chance node)."""
    game = games.get_game(name)
    rng = random.Random(seed)
    made = 0
    seen: set[str] = set()
    for _ in range(DRAWN_POSITIONS * 4):
        state, moves = game.initial_state(), []
        for _ in range(rng.randint(0, 6)):
            if state.is_terminal() or state.to_move == CHANCE:
                break
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        text = game.format_moves(moves)
        if state.is_terminal() or state.to_move == CHANCE or text in seen:
            continue
        seen.add(text)
        title = f"{game.title} {text or 'start'}"
        yield Case(
            title,
            "mcts",
            0,
            game.name,
            (),
            game.format_moves(moves),
            iterations=GAME_ITERATIONS,
            seed=seed + made,
        )
        made += 1
        if made == DRAWN_POSITIONS:
            return


# --------------------------------------------------------------------------- one run


@dataclass(frozen=True)
class Run:
    """One MCTS run as plain data: the root's counts after each iteration (its N, its
    children's (move, N, U)), the final tree's rows (parent row, move, N, U, terminal;
    breadth first) and the chosen move."""

    move: Move
    rounds: tuple[tuple[float, tuple[tuple[Move, float, float], ...]], ...]
    rows: tuple[tuple[int, Move, float, float, bool], ...]


class _Rounds:
    """The reference's observer: the root's counts as each iteration starts."""

    def __init__(self) -> None:
        self.rounds: list[tuple[float, tuple[tuple[Move, float, float], ...]]] = []

    def iteration(self, number: int, root: MctsNode[Any]) -> None:
        if number > 1:
            self.rounds.append(_root_counts(root))

    def selected(self, node: MctsNode[Any], child: MctsNode[Any], ucb: Any) -> None:
        """Not watched."""

    def expanded(self, leaf: MctsNode[Any], child: MctsNode[Any]) -> None:
        """Not watched."""

    def simulated(self, child: MctsNode[Any], moves: Any, result: float) -> None:
        """Not watched."""

    def backed_up(self, node: MctsNode[Any], result: float) -> None:
        """Not watched."""

    def decided(self, root: MctsNode[Any], move: Move) -> None:
        """Not watched."""


def _root_counts(root: MctsNode[Any]) -> tuple[float, tuple[tuple[Move, float, float], ...]]:
    return float(root.N), tuple((c.move, float(c.N), float(c.U)) for c in root.children)


def reference_run(case: Case) -> Run:
    """The textbook MCTS on the case's position, `random.Random(case.seed)`."""
    from plyground.ai.textbook.game_view import Position, TextbookGame

    state = case.state()
    view = TextbookGame(state)
    watch = _Rounds()
    move, root = monte_carlo_tree_search(
        view, view.start(0), case.iterations, random.Random(case.seed), C, watch
    )
    rows: list[tuple[int, Move, float, float, bool]] = []
    queue: list[tuple[MctsNode[Position], int]] = [(root, -1)]
    while queue:
        node, parent = queue.pop(0)
        terminal = bool(node.state.state.is_terminal())
        rows.append((parent, node.move, float(node.N), float(node.U), terminal))
        queue.extend((child, len(rows) - 1) for child in node.children)
    return Run(move, (*watch.rounds, _root_counts(root)), tuple(rows))


# --------------------------------------------------------------------------- the answer


def _number(value: Any, what: str) -> float:
    return check_number(value, what)


def _moves_at(state: State[Any]) -> list[Move]:
    return [] if state.is_terminal() else list(state.legal_moves())


def student_run(answer: Any, case: Case) -> tuple[Run, list[State[Any]]]:
    """The worker's answer checked field by field as a `Run` (and each row's state), or a
    `Refusal` saying what is wrong with it."""
    what = "monte_carlo_tree_search()"
    if not isinstance(answer, dict) or set(answer) != {"move", "rounds", "tree"}:
        raise Refusal(f"{what} did not return (move, root node)")
    root = case.state()
    root_moves = _moves_at(root)
    rounds = student_rounds(answer["rounds"], root_moves, case, 1)
    rows_data = answer["tree"]
    rows, states = student_rows(rows_data, root, case)
    last = (rows[0][2], tuple((move, n, u) for parent, move, n, u, _ in rows if parent == 0))
    if rounds[-1] != last:  # the root and its children, read twice: a node that lies
        raise Refusal(
            "its tree's counts changed while they were read (the root's, after the last "
            "iteration, then in the whole tree): a node's fields are plain values"
        )
    move = _move(answer["move"], root_moves, f"{what} chose {{move}}, not a legal move at the root")
    return Run(move, rounds, rows), states


Round = tuple[float, tuple[tuple[Move, float, float], ...]]
"""The root's N and its children's (move, N, U) after one iteration."""


def student_rounds(data: Any, root_moves: list[Move], case: Case, least: int) -> tuple[Round, ...]:
    """The root's counts after each iteration as the worker sent them, checked (at least
    `least` of them, at most one an iteration)."""
    if not isinstance(data, list) or not least <= len(data) <= case.iterations:
        raise Refusal("its tree's counts did not come back as one list an iteration")
    rounds = []
    for item in data:
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], list):
            raise Refusal("its root's counts did not come back as (N, children)")
        children: list[tuple[Move, float, float]] = []
        if len(item[1]) > len(root_moves):
            raise Refusal(f"its root has {len(item[1])} children, more than its moves")
        for child in item[1]:
            if not isinstance(child, list) or len(child) != 3:
                raise Refusal("a child's counts did not come back as (move, N, U)")
            move = _move(
                child[0], root_moves, "its root has a child for {move}, not a legal move there"
            )
            if any(move == other for other, _, _ in children):
                raise Refusal(_twice(case, (move,)))
            children.append((move, _number(child[1], "N"), _number(child[2], "U")))
        rounds.append((_number(item[0], "N"), tuple(children)))
    return tuple(rounds)


def student_rows(
    rows_data: Any, root: State[Any], case: Case
) -> tuple[tuple[tuple[int, Move, float, float, bool], ...], list[State[Any]]]:
    """The final tree's rows as the worker sent them, checked: each under an earlier row,
    by a move of its parent's position (and each row's position)."""
    if not isinstance(rows_data, list) or not rows_data:
        raise Refusal("its tree did not come back as rows")
    if len(rows_data) > case.iterations + 1:
        raise Refusal(
            f"its tree has more than {case.iterations + 1} nodes after {case.iterations} "
            "iterations: EXPAND adds one node an iteration"
        )
    rows: list[tuple[int, Move, float, float, bool]] = []
    states: list[State[Any]] = []
    paths: list[tuple[Move, ...]] = []
    seen: set[tuple[Move, ...]] = set()
    for index, row in enumerate(rows_data):
        if not isinstance(row, list) or len(row) != 5 or type(row[0]) is not int:
            raise Refusal("a node of its tree did not come back as (parent, move, N, U)")
        parent = row[0]
        if index == 0:
            state, move, path = root, None, ()
        else:
            if not 0 <= parent < index:
                raise Refusal("a node of its tree did not come back under its parent")
            above = states[parent]
            under = _path_name(case, paths[parent])
            move = _move(
                row[1],
                _moves_at(above),
                f"its tree has a child for {{move}} under {under}, not a legal move there",
            )
            path = (*paths[parent], move)
            if path in seen:
                raise Refusal(_twice(case, path))
            seen.add(path)
            state = above.play(move)
        states.append(state)
        paths.append(path)
        rows.append(
            (parent, move, _number(row[2], "N"), _number(row[3], "U"), bool(state.is_terminal()))
        )
    return tuple(rows), states


def _move(data: Any, moves: list[Move], refused: str) -> Move:
    """The game's own move among `moves` (a position's legal moves) that the worker's `data`
    names, or a `Refusal`: `refused` with the data (bounded) as its {move}."""
    try:
        move = bounded_move(data, moves)
    except MessageError as error:
        raise Refusal(f"it sent {error}") from None
    if not any(move is own for own in moves):
        raise Refusal(refused.format(move=short_repr(move)))
    return move


# --------------------------------------------------------------------------- the judgement


def _name(case: Case, move: Move) -> str:
    if case.tree is not None:
        return str(move)
    return str(case.state().game.format_moves([move]))


def _counts(case: Case, children: tuple[tuple[Move, float, float], ...]) -> str:
    if not children:
        return "no children"
    return ", ".join(f"{_name(case, m)} {n:g}/{u:g}" for m, n, u in children)


def _path_name(case: Case, path: tuple[Move, ...]) -> str:
    if not path:
        return "the root"
    if case.tree is not None:
        return f"node {path[-1]}"
    return f"the node after {case.state().game.format_moves(list(path))}"


def _twice(case: Case, path: tuple[Move, ...]) -> str:
    """The line for a tree holding two nodes for one move (EXPAND adds each move once)."""
    return (
        f"its tree has {_path_name(case, path)} twice (EXPAND adds a child for each untried "
        "move once)"
    )


BROKEN = "the counts break the invariants"


def root_invariants(i: int, n: float, children: Any, case: Case) -> str | None:
    """What is wrong with the root's counts after iteration `i`, or None."""
    total = sum(child[1] for child in children)
    for move, child_n, u in children:
        if child_n < 1:
            return (
                f"{BROKEN}: after iteration {i} the root's child {_name(case, move)} has "
                f"N = {child_n:g} (a node is added with its own playout: N = 1)"
            )
        if not 0 <= u <= child_n + TOLERANCE:
            return (
                f"{BROKEN}: after iteration {i} the root's child {_name(case, move)} has "
                f"U = {u:g} with N = {child_n:g} (each playout adds 0, 0.5 or 1 to U)"
            )
    if total != n:
        return (
            f"{BROKEN}: after iteration {i} the root has N = {n:g} but its children's N "
            f"add up to {total:g} (a parent's N is its children's plus its own "
            "expansions' playouts, none at the root)"
        )
    if n != i:
        return (
            f"{BROKEN}: after iteration {i} the root has N = {n:g} (every playout is "
            f"counted at the root once: N = {i})"
        )
    return None


def tree_invariants(
    rows: tuple[tuple[int, Move, float, float, bool], ...],
    case: Case,
    paths: list[tuple[Move, ...]],
) -> str | None:
    """What is wrong with the final tree's counts, or None."""
    below = [0.0] * len(rows)
    children = [0] * len(rows)
    for parent, _, n, _, _ in rows[1:]:
        below[parent] += n
        children[parent] += 1
    for index, (_, _, n, u, terminal) in enumerate(rows):
        name = _path_name(case, paths[index])
        if not 0 <= u <= n + TOLERANCE:
            return (
                f"{BROKEN}: at the end {name} has U = {u:g} with N = {n:g} (each playout "
                "adds 0, 0.5 or 1 to U)"
            )
        if index == 0 or (terminal and not children[index]):
            if index == 0 and n != below[0]:
                return (
                    f"{BROKEN}: at the end the root has N = {n:g}, its children "
                    f"{below[0]:g} (the root's N is its children's added up)"
                )
            continue
        if n != below[index] + 1:
            return (
                f"{BROKEN}: at the end {name} has N = {n:g}, its children's N add up to "
                f"{below[index]:g} (a node's N is its children's plus its own playout: "
                f"{below[index] + 1:g})"
            )
    return None


def _paths(rows: tuple[tuple[int, Move, float, float, bool], ...]) -> list[tuple[Move, ...]]:
    paths: list[tuple[Move, ...]] = []
    for parent, move, *_ in rows:
        paths.append(() if parent < 0 else (*paths[parent], move))
    return paths


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


Verdict = tuple[bool, str, tuple[str, ...]]
"""(passed, one line, detail lines)."""


def judge(case: Case, mine: Run, theirs: Run) -> Verdict:
    """(passed, one line, detail lines): broken invariants first (the root's after each
    iteration, then the final tree's), then the first iteration where the root's counts
    part, the first node of the final tree that differs, the move."""
    if len(mine.rounds) < len(theirs.rounds):  # the counts of each iteration are not known
        return (
            False,
            (
                f"the grader saw {len(mine.rounds)} of {case.iterations} iterations (one "
                "select(game, tree, c) on the root an iteration): keep the template's loop"
            ),
            (),
        )
    for i, (n, children) in enumerate(mine.rounds, start=1):
        broken = root_invariants(i, n, children, case)
        if broken is not None:
            return False, broken, ()
    paths = _paths(mine.rows)
    broken = tree_invariants(mine.rows, case, paths)
    if broken is not None:
        return False, broken, ()
    return _compare_rounds(case, mine, theirs) or _compare_trees(case, mine, theirs, paths)


def _compare_rounds(case: Case, mine: Run, theirs: Run) -> Verdict | None:
    """The first iteration whose root counts part from the reference's, or None."""
    for i, ((_, children), (_, ref_children)) in enumerate(
        zip(mine.rounds, theirs.rounds, strict=False), start=1
    ):
        if len(children) != len(ref_children) or any(
            m != rm or not _same(cn, rn) or not _same(u, ru)
            for (m, cn, u), (rm, rn, ru) in zip(children, ref_children, strict=False)
        ):
            return (
                False,
                f"iteration {i}: {_parting(case, children, ref_children)}",
                (
                    f"your root's children (move N/U): {_counts(case, children)}",
                    f"the reference's:                 {_counts(case, ref_children)}",
                ),
            )
    return None


def _compare_trees(case: Case, mine: Run, theirs: Run, paths: list[tuple[Move, ...]]) -> Verdict:
    """The first node of the final tree that differs from the reference's, else the move."""
    reference = {path: row for path, row in zip(_paths(theirs.rows), theirs.rows, strict=True)}
    yours = {path: row for path, row in zip(paths, mine.rows, strict=True)}
    for path, (_, _, n, u, _) in reference.items():
        name = _path_name(case, path)
        if path not in yours:
            return False, f"at the end your tree has no {name}; the reference's has (N {n:g})", ()
        _, _, my_n, my_u, _ = yours[path]
        if not path:  # the root's U counts for no one: nobody chooses the root
            my_u = u
        if not _same(my_n, n) or not _same(my_u, u):
            return (
                False,
                (
                    f"at the end {name} has N {my_n:g}, U {my_u:g}; the reference's N {n:g}, "
                    f"U {u:g} (the root's counts agreed at every iteration)"
                ),
                (),
            )
    extra = next((path for path in yours if path not in reference), None)
    if extra is not None:
        return (
            False,
            f"at the end your tree has {_path_name(case, extra)}; the reference's has not",
            (),
        )
    if mine.move != theirs.move:
        visits = {m: n for m, n, _ in theirs.rounds[-1][1]}
        return (
            False,
            (
                f"move: you chose {_name(case, mine.move)} (N {visits.get(mine.move, 0):g}); the "
                f"reference chooses {_name(case, theirs.move)}, the most visited (N "
                f"{visits.get(theirs.move, 0):g}; ties: the first expanded)"
            ),
            (),
        )
    root_n = theirs.rounds[-1][0]
    return (
        True,
        (
            f"{case.iterations} iterations, {len(mine.rows)} nodes, N {root_n:g} at the root, "
            f"move {_name(case, mine.move)}: as the reference"
        ),
        (),
    )


def _parting(case: Case, children: Any, ref_children: Any) -> str:
    """The first root child whose counts differ, said with both counts."""
    for index, ((m, n, u), (rm, rn, ru)) in enumerate(zip(children, ref_children, strict=False)):
        if m != rm:
            return (
                f"your root's child {index + 1} is {_name(case, m)}, the reference's "
                f"{_name(case, rm)} (EXPAND takes the first untried move)"
            )
        if not _same(n, rn) or not _same(u, ru):
            return (
                f"the counts part: {_name(case, m)} has N {n:g}, U {u:g}; the reference's "
                f"N {rn:g}, U {ru:g}"
            )
    if len(children) > len(ref_children):
        return (
            f"your root has a child {_name(case, children[len(ref_children)][0])} the "
            "reference has not expanded"
        )
    missing = _name(case, ref_children[len(children)][0])
    return f"the reference's root has a child {missing} yours has not"


def grade_case(
    worker: StudentWorker, case: Case, late: str, answering: Callable[[StudentGame], Asker]
) -> Verdict:
    """One case graded in its worker (`grader.grade_one` gives a fresh one a case and turns
    what the student's code did wrong, raised as `UserCodeError` or `Refusal`, into a failed
    case); `answering` makes the grader's answers to the search's questions."""
    theirs = reference_run(case)
    tree = StudentGame(case.state())
    request = {
        "root": tree.root_handle(),
        "iterations": case.iterations,
        "seed": case.seed,
        "c": C,
    }
    answer = worker.call(request, asker=answering(tree), what=late)
    if isinstance(answer, dict) and set(answer) == {"failed", "details", "rounds"}:
        return (False, *crashed(answer, case))
    mine, _ = student_run(answer, case)
    return judge(case, mine, theirs)


def crashed(answer: dict[str, Any], case: Case) -> tuple[str, tuple[str, ...]]:
    """(line, details) for a search that raised: the counts before it, where they already
    break the invariants (the likelier cause: ``log(0)`` of a root whose N was never
    counted), else what it raised; its own traceback lines under it."""
    from plyground.untrusted import printable

    failed = printable(str(answer["failed"]), 200)
    details = answer["details"]
    lines = (
        tuple(printable(str(line), 200) for line in details[:FRAMES])
        if isinstance(details, list)
        else ()
    )
    rounds = student_rounds(answer["rounds"], _moves_at(case.state()), case, 0)
    for i, (n, children) in enumerate(rounds, start=1):
        broken = root_invariants(i, n, children, case)
        if broken is not None:
            return f"{broken}; then it {failed}", lines
    return failed, lines


FRAMES = 8
"""Lines of a failed search's traceback shown (the worker sends its last few)."""
