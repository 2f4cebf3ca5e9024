"""Reviewing a finished (or unfinished) game, as lichess does: an evaluation graph, marks on
the moves that gave a result away or lost a share of the win chance, the best move and a few
engine lines per position.

The review asks an `Evaluator` (any callable: the default one is `ai.advice.review_evaluator`, a
stronger "advisor" can replace it) for each position before a decision, and for the last one:
the position's `Evaluation` for the player to move and its engine lines, best first.  A line
per legal move lets the review judge the move played from the same search that found the
best one; a move with no line of its own is valued by evaluating the position after it.

Win chance: a value on the [-1, 1] scale is turned into an expected score on the same scale
(1 a win, 0 even or a draw, -1 a loss).  An exact value is one already (a proven result,
or a chance game's 2p - 1); a heuristic estimate is mapped through a logistic curve, and the
judgement says it rests on an estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from plyground.ai.engine.result import MoveStatistics
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source, exact
from plyground.ai.evaluation.values import PROVEN, describe
from plyground.games.base import CHANCE, Move, State

MAX_LINES = 3
"""Engine lines shown per position."""
INACCURACY_DROP = 0.10
MISTAKE_DROP = 0.20
BLUNDER_DROP = 0.30
"""Win-chance drops (on the [-1, 1] scale, as lichess measures them) that mark a move ?!, ?
and ??."""
ESTIMATE_STEEPNESS = 3.0
"""The logistic curve's steepness for heuristic estimates: win chance tanh(k * v / 2)."""
CERTAIN = 1e-9
"""With chance, a value this close to +-1 is a certain result (a hold that reaches the goal)."""


@dataclass(frozen=True, slots=True)
class Line:
    """An engine line: moves from the position, and its value for the player to move there."""

    moves: tuple[Move, ...]
    evaluation: Evaluation
    statistics: MoveStatistics | None = None
    """Where Monte Carlo tree search valued the line's first move: its visits, mean, share of
    the budget and UCB term at the root."""


Evaluator = Callable[[Any], tuple[Evaluation, list[Line]]]
"""Evaluates a non-terminal position: its value for the player to move and its lines, best
first (ideally one per legal move; a chance node has no lines)."""


class Judgement(StrEnum):
    """What a move did, worst first."""

    WIN_GIVEN_AWAY = "gave a win away"
    DRAW_GIVEN_AWAY = "gave a draw away"
    BLUNDER = "blunder"
    MISTAKE = "mistake"
    INACCURACY = "inaccuracy"


MARKS = {
    Judgement.WIN_GIVEN_AWAY: "✗",
    Judgement.DRAW_GIVEN_AWAY: "✗",
    Judgement.BLUNDER: "??",
    Judgement.MISTAKE: "?",
    Judgement.INACCURACY: "?!",
}
"""The move list's mark for each judgement: a result given away has its own."""
SEVERITY = {judgement: rank for rank, judgement in enumerate(reversed(Judgement))}
"""Higher is worse (to keep the worst mark of a turn of several decisions)."""


@dataclass(frozen=True, slots=True)
class PositionReview:
    """One position of the game: `index` entries after the start (chance outcomes count)."""

    index: int
    player: int
    """Who is to move (the first player at the end of the game)."""
    evaluation: Evaluation
    """For `player`; at the end, the result for the first player."""
    graph: Evaluation
    """The same from the first player's point of view (the graph's)."""
    lines: tuple[Line, ...] = ()

    @property
    def best_move(self) -> Move | None:
        """The first move of the best line (None at the end or a chance node)."""
        return self.lines[0].moves[0] if self.lines and self.lines[0].moves else None


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision: entry `index` of the game, its value and the best one for its player."""

    index: int
    move: Move
    player: int
    played: Evaluation
    best: Evaluation
    best_move: Move | None
    judgement: Judgement | None
    reason: str
    """Why, in a few words ('' when the move is fine)."""
    chance_lost: float
    """Win chance lost on the [-1, 1] scale (0 when the best move was played)."""
    statistics: MoveStatistics | None = None
    """Where Monte Carlo tree search valued the move played: its figures at the root."""

    @property
    def mark(self) -> str:
        """'??', '?', '?!', '✗' (a result given away) or ''."""
        return MARKS[self.judgement] if self.judgement is not None else ""


@dataclass(frozen=True, slots=True)
class GameReview:
    """A game's review so far: positions and decisions not evaluated yet are missing."""

    positions: tuple[PositionReview, ...]
    moves: tuple[MoveReview, ...]
    total: int
    """How many positions the whole review has (start, before each decision, the end)."""

    @property
    def complete(self) -> bool:
        """Whether every position has been evaluated."""
        return len(self.positions) == self.total


def win_chance(evaluation: Evaluation, stochastic: bool) -> float:
    """The expected score on [-1, 1]: exact values as they are (a proven result is +-1), the
    mean result of playouts as it is (it estimates the expected score itself), heuristic
    estimates through the logistic curve (`ESTIMATE_STEEPNESS`)."""
    value = evaluation.value
    if evaluation.source is Source.PLAYOUTS and evaluation.kind is Kind.ESTIMATE:
        return max(-1.0, min(1.0, value))
    if evaluation.kind is Kind.ESTIMATE:
        return math.tanh(ESTIMATE_STEEPNESS * value / 2)
    if stochastic:
        return max(-1.0, min(1.0, value))
    if abs(value) > PROVEN:
        return 1.0 if value > 0 else -1.0
    return 0.0 if evaluation.is_exact else math.tanh(ESTIMATE_STEEPNESS * value / 2)


def outcome(evaluation: Evaluation, stochastic: bool) -> int | None:
    """The result an exact value proves (+1 win, 0 draw, -1 loss), None if not proven."""
    if not evaluation.is_exact:
        return None
    value = evaluation.value
    if stochastic:
        if value >= 1 - CERTAIN:
            return 1
        return -1 if value <= -1 + CERTAIN else None
    if abs(value) > PROVEN:
        return 1 if value > 0 else -1
    return 0


def _at_most(evaluation: Evaluation, stochastic: bool) -> int | None:
    """The best result the value leaves possible (exact, or an upper bound), else None."""
    if evaluation.kind is Kind.UPPER and not stochastic:
        value = evaluation.value
        return 1 if value > PROVEN else (-1 if value < -PROVEN else 0)
    if evaluation.kind is Kind.UPPER and stochastic and evaluation.value < 1 - CERTAIN:
        return 0  # not a certain win
    found = outcome(evaluation, stochastic)
    if found is None and stochastic and evaluation.is_exact:
        return 0  # an exact chance below 1: not a certain win, not a certain loss
    return found


def judge(best: Evaluation, played: Evaluation, stochastic: bool) -> tuple[Judgement | None, str]:
    """The judgement of a move valued `played` where the best move was valued `best` (both
    for the player who moved), and why, in a few words."""
    best_outcome = outcome(best, stochastic)
    played_at_most = _at_most(played, stochastic)
    if best_outcome == 1 and played_at_most is not None and played_at_most < 1:
        return Judgement.WIN_GIVEN_AWAY, "a won position is no longer won (proven)"
    if best_outcome == 0 and played_at_most == -1 and not stochastic:
        return Judgement.DRAW_GIVEN_AWAY, "a drawn position is now lost (proven)"
    if played.kind is Kind.LOWER or best.kind is Kind.UPPER:
        return None, ""  # the drop would only be an upper bound on the true one
    drop = win_chance(best, stochastic) - win_chance(played, stochastic)
    if drop < INACCURACY_DROP:
        return None, ""
    judgement = (
        Judgement.BLUNDER
        if drop >= BLUNDER_DROP
        else Judgement.MISTAKE
        if drop >= MISTAKE_DROP
        else Judgement.INACCURACY
    )
    before = (win_chance(best, stochastic) + 1) * 50
    after = (win_chance(played, stochastic) + 1) * 50
    if best.is_exact and played.is_exact:
        return judgement, f"exact win chance {before:.0f}% → {after:.0f}%"
    if Source.PLAYOUTS in (best.source, played.source):
        return judgement, f"win chance {before:.0f}% → {after:.0f}%, estimated from playouts"
    return judgement, f"estimated win chance {before:.0f}% → {after:.0f}%"


def provenance_text(evaluation: Evaluation) -> str:
    """'exact, book', 'estimate, depth 9', 'estimate from 600 playouts', 'bound, search': the
    kind and where it came from."""
    if evaluation.kind is Kind.ESTIMATE and evaluation.source is Source.PLAYOUTS:
        from plyground.ai.evaluation.wording import counted

        return f"estimate from {counted(evaluation.playouts or 0, 'playout')}"
    if evaluation.kind is Kind.ESTIMATE:
        depth = evaluation.depth
        return "estimate" if depth is None else f"estimate, depth {depth}"
    if evaluation.is_bound:
        return f"bound, {evaluation.source.value}"
    return f"exact, {evaluation.source.value}"


def evaluation_text(evaluation: Evaluation, stochastic: bool) -> str:
    """'win in 13 (exact, book)', '+0.31 (estimate, depth 9)', '62.0% to win (exact, table)',
    'at most draw (bound, search)', '○ 0.62 (estimate from 600 playouts)'."""
    if evaluation.kind is Kind.ESTIMATE and evaluation.source is Source.PLAYOUTS:
        from plyground.ai.evaluation.wording import playout_text

        return f"{playout_text(evaluation)} ({provenance_text(evaluation)})"
    value = describe(evaluation.value, stochastic, evaluation.is_exact)
    if not evaluation.distance_known and abs(evaluation.value) > PROVEN:
        value = "win" if evaluation.value > 0 else "loss"
    if evaluation.is_bound:
        value = f"{'at least' if evaluation.kind is Kind.LOWER else 'at most'} {value}"
    return f"{value} ({provenance_text(evaluation)})"


def line_value_text(line: Line, stochastic: bool) -> str:
    """A line's value as the review card shows it: `evaluation_text`, and where Monte Carlo
    tree search valued it, its figures as the analysis panel writes them ('○ 0.62 estimate ·
    N 1,204 · 60.2% · UCB 0.112')."""
    statistics = line.statistics
    if statistics is None:
        return evaluation_text(line.evaluation, stochastic)
    from plyground.ai.advice.report import statistics_text
    from plyground.ai.evaluation.wording import board_text

    evaluation = line.evaluation
    kind = "proven" if evaluation.is_exact else "estimate"
    return f"{board_text(evaluation, stochastic)} {kind} · {statistics_text(statistics)}"


TIE = 1e-9
"""Values closer than this are equal."""


def unmarked_text(review: MoveReview, played: str, best: str, stochastic: bool) -> str:
    """What a move without a mark was (`played` and `best` are the moves as text), claiming
    only what the values prove: 'the best move', 'a best move (5 is as good)', 'good enough ·
    best was 5'.  A bound proves an order only where the two values cannot overlap; else no
    move is called best or as good: 'not compared: a bound proves no order here (3 ≤ loss in
    22, 5 loss in 28)'."""
    from plyground.ai.evaluation.wording import board_text

    mine, top = review.played, review.best
    if best in ("", played):
        return "the engine's choice (its value is a bound)" if mine.is_bound else "the best move"
    if not mine.is_bound and not top.is_bound:
        if mine.value >= top.value - TIE:
            return f"a best move ({best} is as good)"
        return f"good enough · best was {best}"
    at_least = mine.kind in (Kind.EXACT, Kind.LOWER) and top.kind in (Kind.EXACT, Kind.UPPER)
    at_most = mine.kind in (Kind.EXACT, Kind.UPPER) and top.kind in (Kind.EXACT, Kind.LOWER)
    if at_least and mine.value >= top.value - TIE:
        return f"a best move ({best} is as good)"
    if at_most and mine.value < top.value - TIE:
        return f"good enough · best was {best}"
    values = f"{played} {board_text(mine, stochastic)}, {best} {board_text(top, stochastic)}"
    return f"not compared: a bound proves no order here ({values})"


def findings_text(moves: Sequence[MoveReview]) -> str:
    """What a review found, as the review card's title and `review`'s last line say it:
    '2 of 19 moves lost value: 1 gave a win away, 1 gave a draw away', 'No move lost value'."""
    from plyground.ai.evaluation.wording import counted, plural

    marked = [m.judgement for m in moves if m.judgement is not None]
    if not marked:
        return "No move lost value" if moves else "No move to judge"
    kinds = []
    for judgement in Judgement:  # worst first
        count = marked.count(judgement)
        if count and judgement in (Judgement.WIN_GIVEN_AWAY, Judgement.DRAW_GIVEN_AWAY):
            kinds.append(f"{count} {judgement.value}")
        elif count:
            kinds.append(f"{count} {judgement.value if count == 1 else plural(judgement.value)}")
    total = counted(len(moves), "move")
    return f"{len(marked)} of {total} lost value: {', '.join(kinds)}"


def terminal_evaluation(state: State[Any], player: int) -> Evaluation:
    """A finished game's result for `player`: exact."""
    return exact(float(state.utility(player)), Source.SEARCH)


def review_points(initial: Any, moves: Sequence[Move]) -> list[tuple[int, Any]]:
    """The positions a review evaluates, as (entries played, state): the start, the position
    before each decision, and the end (chance outcomes are played through)."""
    points: list[tuple[int, Any]] = []
    state = initial
    for index, move in enumerate(moves):
        if state.to_move != CHANCE:
            points.append((index, state))
        state = state.play(move)
    if not points or points[-1][0] != len(moves):
        points.append((len(moves), state))
    return points


def _child_value(state: State[Any], move: Move, evaluate: Evaluator) -> Evaluation:
    """The value of `move` at `state` for its mover, from the position after it."""
    return _value_for(state.play(move), state.to_move, evaluate)


def _value_for(node: Any, player: int, evaluate: Evaluator) -> Evaluation:
    """The value of `node` for `player` (a chance node's: its outcomes' mean)."""
    if node.is_terminal():
        return terminal_evaluation(node, player)
    if node.to_move == CHANCE:
        parts = [
            (p, _value_for(node.play(face), player, evaluate)) for face, p in node.chance_outcomes()
        ]
        value = sum(p * e.value for p, e in parts)
        kind = Kind.EXACT if all(e.is_exact for _, e in parts) else Kind.ESTIMATE
        source = parts[0][1].source if kind is Kind.EXACT else Source.HEURISTIC
        return Evaluation(value, kind, source)
    found = evaluate(node)[0]
    return found if node.to_move == player else found.negated()


def position_review(
    index: int, state: State[Any], found: tuple[Evaluation, Sequence[Line]] | None
) -> PositionReview:
    """The review of one position from its evaluation (None: a finished game)."""
    if state.is_terminal() or found is None:
        result = terminal_evaluation(state, 0)
        return PositionReview(index, 0, result, result)
    evaluation, lines = found
    player = state.to_move
    graph = evaluation if player == 0 else evaluation.negated()
    return PositionReview(index, player, evaluation, graph, tuple(lines))


def move_review(
    index: int,
    state: State[Any],
    move: Move,
    found: tuple[Evaluation, Sequence[Line]],
    evaluate: Evaluator | None,
) -> MoveReview | None:
    """The judgement of the decision `move` at `state` (entry `index`), from the position's
    evaluation; a move without a line of its own needs `evaluate` (None: not judged)."""
    evaluation, lines = found
    line_played = next((line for line in lines if line.moves[:1] == (move,)), None)
    played = None if line_played is None else line_played.evaluation
    statistics = None if line_played is None else line_played.statistics
    if played is None:
        if evaluate is None:
            return None
        played = _child_value(state, move, evaluate)
    best = lines[0].evaluation if lines else evaluation
    if played.value > best.value and played.kind is best.kind:
        best = played  # the best line is not always the first (ties, bounds)
    stochastic = bool(state.STOCHASTIC)
    judgement, reason = judge(best, played, stochastic)
    lost = max(0.0, win_chance(best, stochastic) - win_chance(played, stochastic))
    best_move = lines[0].moves[0] if lines and lines[0].moves else None
    return MoveReview(
        index, move, state.to_move, played, best, best_move, judgement, reason, lost, statistics
    )


def assemble(
    initial: Any,
    moves: Sequence[Move],
    known: Mapping[Any, tuple[Evaluation, Sequence[Line]]],
    evaluate: Evaluator | None = None,
) -> GameReview:
    """The review from the evaluations known so far (by position): positions in order until
    the first one not evaluated yet, and the decisions they judge."""
    points = review_points(initial, moves)
    positions: list[PositionReview] = []
    judged: list[MoveReview] = []
    for index, state in points:
        terminal = state.is_terminal()
        if not terminal and state not in known:
            break
        found = None if terminal else known[state]
        positions.append(position_review(index, state, found))
        if found is not None and index < len(moves):
            review = move_review(index, state, moves[index], found, evaluate)
            if review is not None:
                judged.append(review)
    return GameReview(tuple(positions), tuple(judged), len(points))


def review_game(
    initial: Any,
    moves: Sequence[Move],
    evaluate: Evaluator,
    on_position: Callable[[PositionReview], None] | None = None,
) -> GameReview:
    """Review a whole game now, position by position (`on_position` hears each one)."""
    known: dict[Any, tuple[Evaluation, Sequence[Line]]] = {}
    for index, state in review_points(initial, moves):
        if state.is_terminal():
            continue
        if state not in known:
            evaluation, lines = evaluate(state)
            known[state] = (evaluation, lines)
        if on_position is not None:
            on_position(position_review(index, state, known[state]))
    return assemble(initial, moves, known, evaluate)
