"""How an `Evaluation` is written: the one wording of values for every surface.

The window's panel, hints and board labels, the explorer and every terminal command render
values through these functions, so a value reads the same everywhere and no surface writes
its own sentence about exactness.  `legend` is the one key to how values look: it quotes
the values on show, never a fixed example.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
from plyground.ai.evaluation.values import plies_to_end, signed

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
    Source.PLAYOUTS: "playouts",
}
PLAYOUT_MARK = "○"
"""How a mean of playouts is marked: '○ 0.62 from 4,000 playouts' (never drawn as exact)."""


EXAMPLES_SHOWN = 2
"""The most values a legend line quotes as its example."""


def legend(stochastic: bool, shown: Iterable[Evaluation] | None = None) -> tuple[str, ...]:
    """The legend lines for a game (with or without dice); with `shown`, only the lines for
    the kinds and sources of the values on show, each quoting those values as its example
    ('loss in 4 / draw: exact (proven)'), never a value no square says."""
    if shown is None:
        return CHANCE_LEGEND if stochastic else LEGEND
    return tuple(_line(stochastic, kind, found, False) for kind, found in _kinds(stochastic, shown))


def _kinds(stochastic: bool, shown: Iterable[Evaluation]) -> list[tuple[str, list[Evaluation]]]:
    """The values on show grouped by legend line ('exact', 'bound', 'estimate', 'playouts'),
    in the legend's order, only the groups that have values: a heuristic's estimates and
    playouts' means are estimates of two kinds, each keyed on its own line.  Their source (the
    opening book, a solver) is said by each surface once, beside the values, not again in the
    key."""
    values = list(shown)
    estimates = [v for v in values if v.kind is Kind.ESTIMATE]
    groups: dict[str, list[Evaluation]] = {
        "exact": [v for v in values if v.kind is Kind.EXACT],
        "bound": [v for v in values if v.is_bound],
    }
    if stochastic:
        groups = {"exact": [v for v in values if v.kind is not Kind.ESTIMATE]}
    groups["estimate"] = [v for v in estimates if v.source is not Source.PLAYOUTS]
    groups["playouts"] = [v for v in estimates if v.source is Source.PLAYOUTS]
    return [(name, found) for name, found in groups.items() if found]


def _examples(
    values: Sequence[Evaluation],
    stochastic: bool,
    short: bool,
    most: int = EXAMPLES_SHOWN,
    compact: bool = False,
) -> str:
    """The labels of `values` as the board writes them, best first, at most `most`
    different ones: 'win in 3 / draw' (compact: 'W3 win in 3 / = draw')."""
    texts: list[str] = []
    for value in sorted(values, key=lambda v: -v.value):
        text = board_text(value, stochastic) if short else value_text(value, stochastic)
        if compact and compact_text(value, stochastic) != text:
            text = f"{compact_text(value, stochastic)} {text}"
        if text not in texts:
            texts.append(text)
    return " / ".join(texts[:most])


def _line(
    stochastic: bool, kind: str, values: list[Evaluation], short: bool, compact: bool = False
) -> str:
    """One legend line for the values of one kind, quoting them."""
    if kind == "exact":
        example = _examples(values, stochastic, short, compact=compact)
        if stochastic:
            return f"{example}: exact chance" if short else f"{example}: exact (optimal play)"
        return f"{example}: exact" if short else f"{example}: exact (proven)"
    if kind == "bound":
        signs = sorted({"≤" if v.kind is Kind.UPPER else "≥" for v in values})
        return f"{' '.join(signs)}: bound" if short else f"{' / '.join(signs)}: a proven bound"
    if kind == "playouts":
        if short:
            return f"{PLAYOUT_MARK}: mean of playouts, estimate"
        example = _examples(values, stochastic, True, most=1)
        return f"{example}: the mean result of playouts (1 win, 1/2 draw, 0 loss), an estimate"
    if short:
        mark = "~" if compact else "est."
        return f"{mark}: estimate, not a chance" if stochastic else f"{mark}: estimate"
    example = _examples(values, stochastic, True, most=1)  # one estimate reads like all
    if stochastic:
        return f"{example}: a heuristic estimate, not a chance"
    return f"{example}: a heuristic estimate (-1 to +1, not a proof)"


SHORT_LEGEND = (
    "win in 5 / draw: exact",
    "≤ ≥: bound",
    "book: opening book",
    "est.: estimate",
)
CHANCE_SHORT_LEGEND = ("62%: exact chance", "est.: estimate, not a chance")


def short_legend(
    stochastic: bool, shown: Iterable[Evaluation] | None = None, compact: bool = False
) -> tuple[str, ...]:
    """`legend`, short enough for a panel row (the values quoted as the board writes them;
    `compact`: the board writes `compact_text`, and each example says what it stands for)."""
    if shown is None:
        return CHANCE_SHORT_LEGEND if stochastic else SHORT_LEGEND
    kinds = _kinds(stochastic, shown)
    return tuple(_line(stochastic, kind, found, True, compact) for kind, found in kinds)


def panel_key(stochastic: bool, shown: Iterable[Evaluation]) -> tuple[str, ...]:
    """The analysis panel's Key: the signs its Values row (`ai.advice.report.values_note`, which
    names exact values and estimates) leaves unexplained: bounds."""
    return tuple(line for line in short_legend(stochastic, shown) if line.endswith(": bound"))


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
    if evaluation.source is Source.PLAYOUTS and kind is Kind.ESTIMATE:
        if not evaluation.playouts:
            return f"{playout_text(evaluation)} (not played out)"
        return f"{playout_text(evaluation)} from {counted(evaluation.playouts, 'playout')}"
    if evaluation.score is not None:
        return _score_text(evaluation, " ")
    if kind is Kind.ESTIMATE:
        return f"est. {signed(evaluation.value)}"
    if stochastic:
        text = f"{(evaluation.value + 1) * 50:.1f}% to win{_for(side)}"
    else:
        text = _proven_text(evaluation, side)
    return _bounded(kind, text)


def playout_text(evaluation: Evaluation, space: str = " ") -> str:
    """A mean of playouts as the share of the points its playouts scored for the side the value
    is for (1 a win, 0.5 a draw, 0 a loss): '○ 0.62', '○ –' before any playout."""
    if not evaluation.playouts:
        return f"{PLAYOUT_MARK}{space}–"
    share = f"{(evaluation.value + 1) / 2:.2f}"
    return f"{PLAYOUT_MARK}{space}{share.replace('0.', '.', 1) if not space else share}"


def _score_text(evaluation: Evaluation, space: str) -> str:
    """A game of scores' value in its own numbers: 'score 3', '≤ score 2', 'est. score 1.5'."""
    score = evaluation.score
    text = f"score{space}{score:.4g}" if space else f"{score:+.3g}"
    if evaluation.kind is Kind.ESTIMATE:
        return f"est. {text}" if space else f"~{text}"
    return _bounded(evaluation.kind, text, space)


def board_text(evaluation: Evaluation, stochastic: bool) -> str:
    """A compact label drawn on the board: 'win in 3', 'draw', '≤ loss in 4', '62%',
    'est. +0.07', 'win' (a book win whose distance is not stored)."""
    kind = evaluation.kind
    if evaluation.source is Source.PLAYOUTS and kind is Kind.ESTIMATE:
        return playout_text(evaluation)
    if evaluation.score is not None:
        return _score_text(evaluation, " ")
    if kind is Kind.ESTIMATE:
        return f"est. {signed(evaluation.value)}"
    if stochastic:
        text = f"{(evaluation.value + 1) * 50:.0f}%"
    elif not evaluation.distance_known and plies_to_end(evaluation.value) is not None:
        text = "win" if evaluation.value > 0 else "loss"
    else:
        text = _proven_text(evaluation, None)
    return _bounded(kind, text)


def compact_text(evaluation: Evaluation, stochastic: bool) -> str:
    """`board_text` in the fewest letters, for a label under a narrow column: 'W21' (win in
    21), 'L28', '=' (draw), 'W' (a win, distance unknown), '≥=' and '≤L4' (bounds), '62%',
    '~+.07' (an estimate).  It never drops the count: where `board_text` does not fit, this
    does."""
    kind = evaluation.kind
    value = evaluation.value
    if evaluation.source is Source.PLAYOUTS and kind is Kind.ESTIMATE:
        return playout_text(evaluation, "")
    if evaluation.score is not None:
        return _score_text(evaluation, "")
    if kind is Kind.ESTIMATE:
        text = f"{value:+.2f}".replace("0.", ".", 1)
        return f"~{text}"
    if stochastic:
        return _bounded(kind, f"{(value + 1) * 50:.0f}%", "")
    plies = plies_to_end(value)
    if plies is None:
        text = "=" if value == 0 else signed(value)
    else:
        letter = "W" if value > 0 else "L"
        text = f"{letter}{plies}" if evaluation.distance_known else letter
    return _bounded(kind, text, "")


def _bounded(kind: Kind, text: str, space: str = " ") -> str:
    """`text` marked as a bound where it is one: '≤ loss in 4', '≥ draw'."""
    if kind is Kind.UPPER:
        return f"≤{space}{text}"
    if kind is Kind.LOWER:
        return f"≥{space}{text}"
    return text


def source_text(evaluation: Evaluation) -> str:
    """What produced a value: 'opening book', 'exact table', 'solver', 'searched to the
    end', 'heuristic at depth 6'."""
    if evaluation.source is Source.HEURISTIC:
        depth = evaluation.depth
        return "heuristic" if depth is None else f"heuristic at depth {depth}"
    if evaluation.source is Source.PLAYOUTS:
        return f"mean of {counted(evaluation.playouts or 0, 'playout')}"
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
    if evaluation.playouts is not None:
        data["playouts"] = evaluation.playouts
    return data


IRREGULAR_PLURALS = {"leaf": "leaves", "child": "children", "ply": "plies", "pass": "passes"}


def plural(noun: str) -> str:
    """'node' -> 'nodes', 'leaf' -> 'leaves', 'inaccuracy' -> 'inaccuracies', 'table hit' ->
    'table hits' (the last word)."""
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR_PLURALS:
        word = IRREGULAR_PLURALS[last]
    elif last.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("", *"aeiou"):
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def counted(number: float, noun: str, figure: str | None = None) -> str:
    """A count and its noun, singular for exactly one: '1 node', '12,345 nodes', '3 leaves';
    `figure` writes the number another way ('1.2M' from `ai.evaluation.numbers.compact`)."""
    text = figure if figure is not None else f"{number:,}"
    return f"{text} {noun if number == 1 else plural(noun)}"


def move_limit_draws(count: int, limit: int | None = None) -> str:
    """Games stopped at the move limit (`games.base.move_limit_reached`), in words that agree
    with `count`: '3 games reached the move limit of 2,000 moves and were scored as draws'
    (`limit`: the move limit, where known)."""
    scored = "was scored as a draw" if count == 1 else "were scored as draws"
    of = f" of {counted(limit, 'move')}" if limit is not None else ""
    return f"{counted(count, 'game')} reached the move limit{of} and {scored}"
