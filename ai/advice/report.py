"""How a search's figures are worded, shared by the analysis panel and `analyze` so that the
window and the terminal say the same thing about the same search.

Every figure says what it is: only exact values are chances to win
(ai.evaluation.values.describe), a speed is shown only when the search ran long enough to
time, alpha-beta is compared with minimax pass for pass, and a tree size is counted from the
game, never b^d.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH
from plyground.ai.engine.result import MoveStatistics, SearchProgress, SearchResult
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.provenance import Evaluation
from plyground.ai.evaluation.values import is_proven
from plyground.ai.evaluation.wording import board_text, counted
from plyground.ai.textbook.counts import share_of_minimax
from plyground.games.base import Game

MIN_RATE_SECONDS = 0.05
"""A search quicker than this has no meaningful speed (timer and start-up noise)."""
MIN_RATE_NODES = 2_000
"""Nor has one that visited fewer nodes than this."""

SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def speed(result: SearchResult) -> str | None:
    """'412k nodes/s', or None when the search was too small or quick to time."""
    if result.elapsed < MIN_RATE_SECONDS or result.nodes < MIN_RATE_NODES:
        return None
    return f"{compact(result.nodes_per_second)} nodes/s"


def passes(result: SearchResult) -> list[tuple[int | str, int]]:
    """(depth, nodes) of each finished pass of iterative deepening, in order."""
    out: list[tuple[int | str, int]] = []
    before = 0
    for row in result.details.iterations:
        out.append((row.depth, row.nodes - before))
        before = row.nodes
    return out


def last_pass_nodes(result: SearchResult) -> int:
    """Nodes of the deepest finished pass alone (all nodes when there was one pass)."""
    done = passes(result)
    return done[-1][1] if done else result.nodes


def versus_minimax(result: SearchResult, minimax_nodes: int) -> str:
    """Alpha-beta's work against a measured minimax count at the same depth, like with like:
    its own pass at that depth, then everything iterative deepening spent.  A share is
    never above 100% (`ai.textbook.counts.SHARE`): more nodes than minimax is said in words
    (the engine values every root move exactly, which a tree this small does not repay)."""
    own = last_pass_nodes(result)
    measured = counted(minimax_nodes, "node", compact(minimax_nodes))
    done = passes(result)
    last = done[-1][0] if done else 0
    solved = last == "solve" or (isinstance(last, int) and last >= UNLIMITED_DEPTH)
    engine = result.details.exact_engine
    if engine:
        searcher = f"the {engine} solver (alpha-beta)"
    elif solved:
        searcher = "alpha-beta's solve to the end"
    else:
        searcher = f"alpha-beta's depth-{result.depth} pass"
    text = f"{measured} measured at depth {result.depth}; {searcher} "
    text += _against(own, minimax_nodes)
    if own != result.nodes:
        count = len(passes(result))
        share = share_of_minimax(result.nodes, minimax_nodes)
        text += (
            f" ({share * 100:.1f}% with all {count} passes of iterative deepening)"
            if share is not None
            else f" ({counted(result.nodes, 'node', compact(result.nodes))} with all {count} "
            "passes of iterative deepening, more than minimax)"
        )
    return text


def _against(nodes: int, minimax_nodes: int) -> str:
    """'used 12.5%', or 'visited 600 nodes, more than minimax (...)' past minimax's count."""
    share = share_of_minimax(nodes, minimax_nodes)
    if share is not None:
        return f"used {share * 100:.1f}%"
    visited = counted(nodes, "node", compact(nodes))
    return f"visited {visited}, more than minimax (it values every root move exactly)"


def versus_tree(result: SearchResult) -> str | None:
    """Alpha-beta's work against the estimated size of minimax's tree (`details.minimax_tree`),
    or None."""
    tree = result.details.minimax_tree
    if not tree:
        return None
    share = result.nodes / tree * 100
    whole = round(tree)  # an estimate of a count: a whole number of nodes
    size = f"minimax ≈ {counted(whole, 'node', compact(whole))} (sampled tree)"
    if share >= 100:
        return f"{size}: too small for pruning to save"
    used = f"{share:.1f}%" if share >= 0.1 else "under 0.1%"
    engine = result.details.exact_engine
    searcher = f"the {engine} solver (alpha-beta)" if engine else "alpha-beta"
    return f"{size}; {searcher} used {used}"


def values_note(result: SearchResult, stochastic: bool) -> str | None:
    """What the move values are, counted from their own provenance (never a claim of its
    own): 'all exact', '3 exact · 4 estimates (heuristic at depth 6)'; None when, without
    chance, every value is of one kind: each label says it ('est. +0.31', 'win in 5').  The
    sources are named only where the values have more than one (`search_line` says the
    root's)."""
    from plyground.ai.evaluation.wording import source_text

    evaluations = list(result.move_values.values())
    if not evaluations:
        return None
    counts: dict[str, int] = {}
    for evaluation in evaluations:
        noun = {"exact": "exact", "estimate": "estimate"}.get(evaluation.kind.value, "bound")
        counts[noun] = counts.get(noun, 0) + 1
    if not stochastic and len(counts) == 1 and "bound" not in counts:
        return None
    from plyground.ai.evaluation.provenance import Source
    from plyground.ai.evaluation.wording import SOURCE_TITLES

    sources = sorted(  # playouts are one source, whatever their number
        {
            SOURCE_TITLES[ev.source] if ev.source is Source.PLAYOUTS else source_text(ev)
            for ev in evaluations
        }
    )
    if len(counts) == 1:
        (noun,) = counts
        text = f"all {_plural_kind(noun)}" if len(evaluations) > 1 else noun
    else:
        text = " · ".join(
            f"{n} exact" if noun == "exact" else counted(n, noun) for noun, n in counts.items()
        )
    note = f"{text} ({', '.join(sources)})" if len(sources) > 1 else text
    if stochastic and "estimate" in counts:
        note += "; estimates are not chances to win"
    return note


def _plural_kind(noun: str) -> str:
    """'exact' stays; 'estimate' -> 'estimates', 'bound' -> 'bounds'."""
    return noun if noun == "exact" else noun + "s"


def looked_up(result: SearchResult) -> bool:
    """Whether the root's value was looked up rather than searched for: the opening book
    before any search, or an exact table.  A search's depth, nodes, time and pruning then do
    not describe the answer and are not shown beside it."""
    from plyground.ai.evaluation.provenance import Source

    evaluation = result.evaluation
    return evaluation.source is Source.TABLE or (
        evaluation.source is Source.BOOK and evaluation.depth is None
    )


COUNTERS = (
    ("leaves", "leaf"),
    ("cutoffs", "cut-off"),
    ("table_hits", "table hit"),
)
"""The counters beside nodes, in the order they are shown (attribute, noun)."""


def counters(result: SearchResult) -> list[tuple[str, int]]:
    """(noun, count) of the counters that apply to the search: a game's compiled engine
    counts nodes only, so its zero leaves, cut-offs and table hits are not shown."""
    details = getattr(result, "details", None)  # a SearchResult's; Compare's rows have none
    playouts = getattr(details, "playouts", None)
    if playouts is not None:  # Monte Carlo tree search counts iterations and playouts
        return [("iteration", playouts.iterations), ("playout", playouts.playouts)]
    uncounted = details is not None and details.exact_engine is not None
    found = [(noun, int(getattr(result, name))) for name, noun in COUNTERS]
    return [(noun, count) for noun, count in found if count or not uncounted]


def search_line(result: SearchResult) -> str:
    """What the search was, from its root value's provenance: 'alpha-beta, depth 6',
    'opening book · depth 3' (the book answered every line), 'solved to the end
    (alpha-beta)'; a lookup is its source alone: 'opening book', 'exact table'."""
    from plyground.ai.engine.search import ALGORITHM_TITLES
    from plyground.ai.evaluation.provenance import Source

    algorithm = ALGORITHM_TITLES.get(result.algorithm, result.algorithm)
    playouts = result.details.playouts
    if playouts is not None:
        done = f"{algorithm}, {counted(playouts.iterations, 'iteration')}"
        return done + (": proven" if playouts.proven else "" if result.complete else " (cut short)")
    if looked_up(result):
        return "opening book" if result.evaluation.source is Source.BOOK else "exact table"
    status = "" if result.complete else " (cut short)"
    source = result.evaluation.source
    if source is Source.BOOK:
        return f"opening book · depth {result.depth}{status}"
    if source is Source.SOLVER:
        return f"solved to the end ({algorithm}){status}"
    if source is Source.SEARCH and all(ev.is_exact for ev in result.move_values.values()):
        return f"{algorithm}, depth {result.depth}: reached every end{status}"
    return f"{algorithm}, depth {result.depth}{status}"


LINE_MOVES = 10
"""The most moves of a principal variation shown."""


def line_text(
    result: SearchResult,
    game: Game[Any],
    most: int = LINE_MOVES,
    book: bool = True,
    side: str | None = None,
) -> str:
    """The principal variation as text: '4 4 3 5 …' when it goes on past `most` moves or
    stops before the game's end (a depth limit, a line the search did not keep), and
    '6 4 4 3 · then the book: draw' where it stops at a position the game's opening book
    answered (`book`), so a cut line is never shown as if it were whole."""
    pv = tuple(result.pv)
    text = " ".join(game.format_move(move) for move in pv[:most])
    details = result.details
    if len(pv) > most or (details.pv_stops_early and not details.pv_ends_in_book):
        return text + " …"
    end = book_end_text(result, side) if book else None
    return text if end is None else f"{text} · {end}"


def book_end(result: SearchResult, side: str | None = None) -> str | None:
    """Where the principal variation stops at a book position (the book holds values, not
    moves), the book's value there for the player to move at the root (`side` names them),
    counted from the line's end: 'win in 40 more for Red', 'draw', 'loss for Red, distance
    unknown'; else None."""
    from plyground.ai.evaluation.values import describe, to_value

    end = result.details.pv_book_value
    if end is None:
        return None
    low, high = end
    who = f" for {side}" if side else ""
    if low != high:
        return f"{'win' if low > 0 else 'loss'}{who}, distance unknown"
    value = describe(to_value(low), False, True)
    return value if value == "draw" else f"{value} more{who}"


def book_end_text(result: SearchResult, side: str | None = None) -> str | None:
    """'then the book: win in 40 more for Red' (see `book_end`), or None."""
    end = book_end(result, side)
    return None if end is None else f"then the book: {end}"


def progress_line(progress: SearchProgress) -> str:
    """A progress snapshot as one line: 'depth 9 · 1.2M nodes · 3.1 s' ('solving' when the
    search has no depth limit)."""
    from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH

    depth = "solving" if progress.depth >= UNLIMITED_DEPTH else f"depth {progress.depth}"
    nodes = counted(progress.nodes, "node", compact(progress.nodes))
    return f"{depth} · {nodes} · {progress.elapsed:.1f} s"


@dataclass(frozen=True, slots=True)
class PlayoutRow:
    """One root move's figures in Monte Carlo tree search, written once for every surface (the
    analysis panel, the board's labels, `analyze`, `hint` and the review), so two places never
    write the same figure two ways."""

    move: Any
    value: str
    """The move's value as the board labels it (`wording.board_text`): '○ 0.62' (the mean
    result of its playouts, an estimate), or a proven 'win in 3'."""
    visits: str
    """'1,204': the iterations through the move (N)."""
    share: float
    """The move's visits as a share of the root's (the share of the budget it took)."""
    share_text: str
    """'60.2%'."""
    ucb: str
    """UCB1's exploration term when the search ended: '0.112' ('∞' before any visit)."""
    proven: bool

    def text(self) -> str:
        """'○ 0.62 · N 1,204 · 60.2% · UCB 0.112'; a proven move 'win in 3 · proven · N ...'."""
        value = f"{self.value} · proven" if self.proven else self.value
        return f"{value} · N {self.visits} · {self.share_text} · UCB {self.ucb}"

    def short_text(self) -> str:
        """`text` without the figures' names, for a narrow panel under a heading that names
        them: '○ 0.62 · 1,204 · 60.2% · 0.112' ('win in 3 · proven · 40 · ...')."""
        value = f"{self.value} · proven" if self.proven else self.value
        return f"{value} · {self.visits} · {self.share_text} · {self.ucb}"


def playout_row(
    move: Any, evaluation: Evaluation, statistics: MoveStatistics, stochastic: bool
) -> PlayoutRow:
    """One root move's figures (see `PlayoutRow`)."""
    visits, share, ucb = statistics_texts(statistics)
    return PlayoutRow(
        move=move,
        value=board_text(evaluation, stochastic),
        visits=visits,
        share=statistics.share,
        share_text=share,
        ucb=ucb,
        proven=statistics.proven,
    )


def statistics_text(statistics: MoveStatistics) -> str:
    """'N 1,204 · 60.2% · UCB 0.112': a move's visits, share and UCB term in one phrase (as
    `PlayoutRow.text` ends)."""
    visits, share, ucb = statistics_texts(statistics)
    return f"N {visits} · {share} · UCB {ucb}"


def statistics_texts(statistics: MoveStatistics) -> tuple[str, str, str]:
    """A root move's visits, share of the budget and UCB term as every surface writes them:
    ('1,204', '60.2%', '0.112'); an unvisited move's UCB term is '∞'."""
    ucb = statistics.ucb_term
    return (
        f"{statistics.visits:,}",
        f"{statistics.share:.1%}",
        "∞" if math.isinf(ucb) else f"{ucb:.3f}",
    )


def shown_mean(statistics: MoveStatistics, evaluation: Evaluation) -> float:
    """The mean result a move's row shows, on the playouts' scale for the player to move (1 a
    win, 0.5 a draw, 0 a loss): its playouts' mean, or for a move MCTS proved, the proven
    result (a win 1, a loss 0; a draw, a score or a chance of winning where it lies)."""
    if not statistics.proven:
        return statistics.mean
    value = evaluation.value
    if is_proven(value):
        return 1.0 if value > 0 else 0.0
    return (value + 1) / 2


def statistics_data(statistics: MoveStatistics, evaluation: Evaluation) -> dict[str, Any]:
    """A root move's Monte Carlo figures as plain data, as every command's JSON writes them:
    `mean` the mean result its row shows (`shown_mean`: the proven result where `proven`),
    `playout_mean` its playouts' own average, whatever was proven."""
    ucb = statistics.ucb_term
    return {
        "visits": statistics.visits,
        "mean": round(shown_mean(statistics, evaluation), 6),
        "playout_mean": round(statistics.mean, 6),
        "ucb_term": None if math.isinf(ucb) else round(ucb, 6),
        "share": round(statistics.share, 6),
        "proven": statistics.proven,
    }


def playout_rows(result: SearchResult, stochastic: bool) -> list[PlayoutRow]:
    """Every root move's figures in Monte Carlo tree search, best value first (the most
    visited first among equals), as every table of values is ordered; [] for another search."""
    found = result.details.playouts
    if found is None:
        return []
    moves = [move for move in result.move_values if move in found.moves]
    moves.sort(key=lambda move: (-result.move_values[move].value, -found.moves[move].visits))
    return [
        playout_row(move, result.move_values[move], found.moves[move], stochastic) for move in moves
    ]
