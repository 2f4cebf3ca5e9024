"""How an `Evaluation` is written: the one wording of values for every surface.

The window's panel, hints and board labels, the explorer and every terminal command render
values through these functions, so a value reads the same everywhere and no surface writes
its own sentence about exactness.  `LEGEND` is the one key to how values look.
"""

from __future__ import annotations

from collections.abc import Iterable

from plyground.ai.engine.values import plies_to_end, signed
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source

LEGEND = (
    "win in 5 · draw: exact (proven)",
    "≤ / ≥: a proven bound",
    "book: from the opening book",
    "est. +0.31: a heuristic estimate (-1 to +1, not a proof)",
)
"""The one key to how values look (the panel's legend and `analyze`'s footnote)."""
CHANCE_LEGEND = (
    "62.0% to win: exact (optimal play)",
    "est. +0.31: a heuristic estimate, not a chance",
)
"""The key for a game with dice (values are win chances only when exact)."""

SOURCE_TITLES = {
    Source.SEARCH: "searched to the end",
    Source.BOOK: "opening book",
    Source.SOLVER: "solver",
    Source.TABLE: "exact table",
    Source.HEURISTIC: "heuristic",
}


def legend(stochastic: bool, shown: Iterable[Evaluation] | None = None) -> tuple[str, ...]:
    """The legend lines for a game (with or without dice); with `shown`, only the lines for
    the kinds and sources of the values on show."""
    lines = CHANCE_LEGEND if stochastic else LEGEND
    if shown is None:
        return lines
    values = list(shown)
    kinds = {value.kind for value in values}
    wanted = [
        Kind.EXACT in kinds,
        bool(kinds & {Kind.LOWER, Kind.UPPER}),
        any(value.source is Source.BOOK for value in values),
        Kind.ESTIMATE in kinds,
    ]
    if stochastic:
        wanted = [bool(kinds - {Kind.ESTIMATE}), Kind.ESTIMATE in kinds]
    return tuple(line for line, keep in zip(lines, wanted, strict=True) if keep)


SHORT_LEGEND = (
    "win in 5 / draw: exact",
    "≤ ≥: bound",
    "book: opening book",
    "est.: estimate",
)
CHANCE_SHORT_LEGEND = ("62%: exact chance", "est.: estimate, not a chance")


def short_legend(stochastic: bool, shown: Iterable[Evaluation] | None = None) -> tuple[str, ...]:
    """`legend`, short enough for a panel row."""
    full = legend(stochastic, shown)
    lines = CHANCE_LEGEND if stochastic else LEGEND
    short = CHANCE_SHORT_LEGEND if stochastic else SHORT_LEGEND
    return tuple(short[lines.index(line)] for line in full)


def panel_key(stochastic: bool, shown: Iterable[Evaluation]) -> tuple[str, ...]:
    """The analysis panel's Key: the signs its Values row (`ai.evaluation.report.values_note`, which
    names exact values and estimates) leaves unexplained: bounds."""
    return tuple(line for line in short_legend(stochastic, shown) if line.startswith("≤"))


def _for(side: str | None) -> str:
    return f" for {side}" if side else ""


def _proven_text(evaluation: Evaluation, side: str | None) -> str:
    """'win in 5 for Red', 'loss, distance unknown', 'draw' for an exact value."""
    value = evaluation.value
    plies = plies_to_end(value)
    if plies is None:
        return "draw" if value == 0 else signed(value)
    word = "win" if value > 0 else "loss"
    if not evaluation.distance_known:
        return f"{word}{_for(side)}, distance unknown"
    return f"{word} in {plies}{_for(side)}"


def value_text(evaluation: Evaluation, stochastic: bool, side: str | None = None) -> str:
    """A value in words: 'win in 5 for Red', 'draw', '62.0% to win for Player 1',
    '≤ loss in 4', 'est. +0.31'.  `side` names the player the value is for (the player to
    move where it was searched); any win or loss says for whom when it is given."""
    kind = evaluation.kind
    if kind is Kind.ESTIMATE:
        return f"est. {signed(evaluation.value)}"
    if stochastic:
        text = f"{(evaluation.value + 1) * 50:.1f}% to win{_for(side)}"
    else:
        text = _proven_text(evaluation, side)
    return _bounded(kind, text)


def board_text(evaluation: Evaluation, stochastic: bool) -> str:
    """A compact label drawn on the board: 'win in 3', 'draw', '≤ loss in 4', '62%',
    'est. +0.07', 'win' (a book win whose distance is not stored)."""
    kind = evaluation.kind
    if kind is Kind.ESTIMATE:
        return f"est. {signed(evaluation.value)}"
    if stochastic:
        text = f"{(evaluation.value + 1) * 50:.0f}%"
    elif not evaluation.distance_known and plies_to_end(evaluation.value) is not None:
        text = "win" if evaluation.value > 0 else "loss"
    else:
        text = _proven_text(evaluation, None)
    return _bounded(kind, text)


def _bounded(kind: Kind, text: str) -> str:
    """`text` marked as a bound where it is one: '≤ loss in 4', '≥ draw'."""
    if kind is Kind.UPPER:
        return f"≤ {text}"
    if kind is Kind.LOWER:
        return f"≥ {text}"
    return text


def source_text(evaluation: Evaluation) -> str:
    """What produced a value: 'opening book', 'exact table', 'solver', 'searched to the
    end', 'heuristic at depth 6'."""
    if evaluation.source is Source.HEURISTIC:
        depth = evaluation.depth
        return "heuristic" if depth is None else f"heuristic at depth {depth}"
    return SOURCE_TITLES[evaluation.source]


def kind_text(evaluation: Evaluation) -> str:
    """'exact', 'upper bound', 'lower bound', 'estimate'."""
    return {
        Kind.EXACT: "exact",
        Kind.UPPER: "upper bound",
        Kind.LOWER: "lower bound",
        Kind.ESTIMATE: "estimate",
    }[evaluation.kind]


def as_json(evaluation: Evaluation) -> dict[str, object]:
    """`value`, `kind`, `source` (and `depth`, `distance_known`) for JSON output."""
    data: dict[str, object] = {
        "value": round(evaluation.value, 6),
        "kind": evaluation.kind.value,
        "source": evaluation.source.value,
        "depth": evaluation.depth,
    }
    if not evaluation.distance_known:
        data["distance_known"] = False
    return data
