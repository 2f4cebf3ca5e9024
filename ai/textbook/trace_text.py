"""A trace as words: the indented text tree, JSON nodes, and one plain sentence per event."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from plyground.ai.engine.search import ALGORITHM_TITLES
from plyground.ai.evaluation.wording import counted, kind_text, source_text
from plyground.ai.textbook.trace import SHAPES, Trace, TraceEvent, TraceNode
from plyground.games.base import capabilities
from plyground.untrusted import printable

ROLE_NAMES = {"max": "MAX", "min": "MIN", "chance": "chance", "leaf": "leaf"}


def probability_text(probability: float) -> str:
    """1/6 for a simple fraction (a die's face), else the decimal (0.9)."""
    fraction = Fraction(probability).limit_denominator(24)
    if abs(float(fraction) - probability) < 1e-9 and 1 < fraction.denominator < 10:
        return f"{fraction.numerator}/{fraction.denominator}"
    return f"{probability:g}"


def node_name(trace: Trace, node: TraceNode) -> str:
    """A node's name: its path of moves from the root ("4·3·5"), or 'the root' (or the
    root's own name, as A).  A game whose move labels already name nodes uniquely (the
    textbook trees: B, B1, B2; `labels_name_nodes`) keeps them."""
    if node.parent < 0:
        return "the root" if node.label == "root" else node.label
    game = getattr(trace.root_state, "game", None)
    if game is not None and capabilities(game).labels_name_nodes:
        return node.label
    return "·".join(n.label for n in trace.path(node.id)[1:])


def so_far_text(trace: Trace, node: TraceNode, value: float) -> str:
    """A value while the node is still being searched, written as the bound it is: MAX's
    best so far is a floor (≥), MIN's a ceiling (≤), a chance node's a running sum."""
    shown = trace.format_value(value)
    if node.kind == "max":
        return f"≥ {shown} so far"
    if node.kind == "min":
        return f"≤ {shown} so far"
    if node.kind == "chance":
        return f"{shown} so far"
    return shown


def bound_text(trace: Trace, node: TraceNode) -> str:
    """Why a finished node shows a bound (≤ for a fail-low, ≥ for a fail-high); '' when
    its value is exact."""
    if node.bound not in ("upper", "lower"):
        return ""
    name = node_name(trace, node)
    value = trace.format_value(node.value)
    every = all(
        trace.nodes[c].bound == "exact" and trace.nodes[c].finished >= 0 for c in node.children
    )
    exact_note = (
        f" Every child of {name} was searched, so here it is in fact exactly {value}."
        if every and not node.cut
        else ""
    )
    if node.bound == "upper":
        alpha = trace.format_value(node.alpha)
        if node.cut:
            why = (
                f"MIN stopped looking once it found {value}, since MAX already has {alpha} "
                f"elsewhere (α = {alpha}); the moves MIN skipped could only lower {name}."
            )
        else:
            why = (
                f"that is no better for MAX than α = {alpha}, which MAX already has "
                "elsewhere; alpha-beta only needs to know that much."
            )
        return f"≤ {value}: {why}{exact_note}"
    beta = trace.format_value(node.beta)
    if node.cut:
        why = (
            f"MAX stopped looking once it found {value}, since MIN can already hold MAX to "
            f"{beta} elsewhere (β = {beta}); the moves MAX skipped could only raise {name}."
        )
    else:
        why = (
            f"that is already as good for MAX as β = {beta}, which MIN can hold MAX to "
            "elsewhere; alpha-beta only needs to know that much."
        )
    return f"≥ {value}: {why}{exact_note}"


def value_text(trace: Trace, node: TraceNode, value: float | None = None) -> str:
    """The node's value with its bound sign (≤ for a fail-low, ≥ for a fail-high)."""
    shown = trace.format_value(node.value if value is None else value)
    if node.bound == "upper":
        return f"≤ {shown}"
    if node.bound == "lower":
        return f"≥ {shown}"
    return shown


def window_text(trace: Trace, alpha: float | None, beta: float | None) -> str:
    """[α, β] with infinities."""
    low = "−∞" if alpha is None else trace.format_value(alpha)
    high = "+∞" if beta is None else trace.format_value(beta)
    return f"[α {low}, β {high}]"


def cut_text(trace: Trace, node: TraceNode) -> str:
    """The one stub line for a cut-off: what was skipped and why."""
    count = len(node.skipped)
    moves = "move" if count == 1 else "moves"
    value = trace.format_value(node.value)
    bound = trace.format_value(node.cut_bound)
    if node.cut_by == "alpha":
        why = f"value ≤ {value} already worse than α {bound}"
    else:
        why = f"value ≥ {value} already worse than β {bound}"
    return f"✂ {count} {moves} skipped ({', '.join(node.skipped)}): {why}"


def sum_text(trace: Trace, node: TraceNode) -> str:
    """A chance node's weighted sum written out: 1/6·(−1.00) + 1/6·0.41 + … = 0.27."""
    parts = []
    for _label, probability, value in node.terms:
        shown = trace.format_value(value).lstrip("+")
        if shown.startswith(("−", "-")):
            shown = f"({shown})"
        parts.append(f"{probability_text(probability)}·{shown}")
    if len(parts) > 6:
        parts = [*parts[:3], "…", *parts[-1:]]
    return f"{' + '.join(parts)} = {trace.format_value(node.value)}"


def node_line(trace: Trace, node: TraceNode) -> str:
    """One node as a line of text (no indentation)."""
    parts = [SHAPES[node.kind], node.label]
    if node.probability is not None:
        parts.append(f"p={probability_text(node.probability)}")
    parts.append(ROLE_NAMES[node.kind])
    shown = value_text(trace, node)
    parts.append(shown if shown.startswith(("≤", "≥")) else f"= {shown}")
    if node.kind == "leaf" and node.source and not (trace.raw_values and node.source == "terminal"):
        parts.append(f"({printable(node.source)})")
    if node.table_hit:
        parts.append("(table)")
    if trace.shows_window and node.kind in ("max", "min"):
        parts.append(window_text(trace, node.alpha, node.beta))
    if node.kind == "chance" and node.terms:
        parts.append(f": {sum_text(trace, node)}")
    return " ".join(parts)


def render_text(trace: Trace) -> str:
    """The whole tree, indented; each cut-off is one ✂ line under its node."""
    lines = [
        f"{ALGORITHM_TITLES[trace.algorithm]}, depth {trace.depth}, "
        f"heuristic {printable(trace.heuristic)}, "
        f"ordering {trace.ordering}, table {'on' if trace.table else 'off'}"
    ]
    stack = [(0, 0)]
    while stack:
        node_id, indent = stack.pop()
        node = trace.nodes[node_id]
        lines.append("  " * indent + node_line(trace, node))
        if node.cut:
            # The cut stub comes after the searched children: push it first (a stack).
            stack.append((-1 - node_id, indent + 1))
        stack.extend((child, indent + 1) for child in reversed(node.children))
        while stack and stack[-1][0] < 0:
            cut_id, cut_indent = stack.pop()
            lines.append("  " * cut_indent + cut_text(trace, trace.nodes[-1 - cut_id]))
    visited, leaves, cutoffs, hits = trace.totals()
    lines.append(
        f"value {trace.format_value(trace.value)}; {counted(visited, 'node')}, "
        f"{counted(leaves, 'leaf')}, {counted(cutoffs, 'cut-off')}, {counted(hits, 'table hit')}"
    )
    if trace.evaluation is not None:  # what the root's number is (ai.evaluation.wording)
        evaluation = trace.evaluation
        lines.append(f"root value: {kind_text(evaluation)}, {source_text(evaluation)}")
    return "\n".join(lines)


def render_json(trace: Trace) -> dict[str, Any]:
    """The settings, the totals and every node: value, α/β, kind, cut flag, skipped moves."""
    visited, leaves, cutoffs, hits = trace.totals()
    best = trace.best_child
    return {
        "algorithm": trace.algorithm,
        "depth": trace.depth,
        "heuristic": trace.heuristic,
        "ordering": trace.ordering,
        "table": trace.table,
        "value": trace.value,
        "kind": None if trace.evaluation is None else trace.evaluation.kind.value,
        "source": None if trace.evaluation is None else trace.evaluation.source.value,
        "book": trace.book,
        "best_move": None if best is None else best.label,
        "nodes_visited": visited,
        "leaves": leaves,
        "cutoffs": cutoffs,
        "table_hits": hits,
        "nodes": [
            {
                "id": node.id,
                "parent": None if node.parent < 0 else node.parent,
                "move": None if node.parent < 0 else node.label,
                "kind": node.kind,
                "value": node.value,
                "bound": node.bound,
                "alpha": node.alpha,
                "beta": node.beta,
                "probability": node.probability,
                "cut": node.cut,
                "skipped": list(node.skipped),
                "table_hit": node.table_hit,
            }
            for node in trace.nodes
        ],
    }


def explain(trace: Trace, step: int) -> str:
    """The event at `step` in one plain sentence."""
    if not trace.events:
        return ""
    event: TraceEvent = trace.events[max(0, min(step, len(trace.events) - 1))]
    node = trace.nodes[event.node]
    name = node_name(trace, node)
    role = ROLE_NAMES[node.kind]
    show = trace.format_value
    kind = event.kind
    if kind == "enter":
        where = f"{role} node {name}" if node.kind != "leaf" else f"leaf {name}"
        text = f"Visit {where} at depth {event.ply}"
        if event.probability is not None:
            text += f" (probability {probability_text(event.probability)})"
        if trace.shows_window and node.kind in ("max", "min"):
            text += f" with window {window_text(trace, event.alpha, event.beta)}"
        return text + "."
    if kind == "leaf":
        if event.source == "terminal" and trace.raw_values:
            return f"Leaf {name} is worth {show(event.value)} for MAX."
        if event.source == "terminal":
            return f"{name} ends the game: worth {show(event.value)} for MAX."
        return (
            f"The {printable(event.source)} heuristic scores {name} at {show(event.value)} for MAX."
        )
    if kind == "table":
        return f"{name} was searched before: the table answers {show(event.value)}."
    if kind == "backup":
        child = trace.nodes[event.child]
        child_name = node_name(trace, child)
        if node.kind == "chance":
            return (
                f"Outcome {child_name} (probability {probability_text(event.probability or 0)}) "
                f"is worth {show(event.value)}; the running sum at {name} is {show(event.best)}."
            )
        where = f"the root ({role})" if name == "the root" else f"{role} {name}"
        sign = "≥" if node.kind == "max" else "≤"
        return (
            f"{child_name} backs up {value_text(trace, child, event.value)} to {where}, "
            f"now worth {sign} {show(event.best)} so far."
        )
    if kind == "alpha":
        old = _bound(trace, event.old, "−∞")
        return f"MAX at {name} can now get {show(event.value)}: α rises from {old}."
    if kind == "beta":
        old = _bound(trace, event.old, "+∞")
        return f"MIN at {name} can hold MAX to {show(event.value)}: β falls from {old}."
    if kind == "cutoff":
        rest = f"the rest of {name}'s children ({', '.join(event.skipped)}) cannot matter"
        if event.source == "alpha":
            return f"MIN at {name} already has {show(event.value)} ≤ α = {show(event.old)}: {rest}."
        return f"MAX at {name} already has {show(event.value)} ≥ β = {show(event.old)}: {rest}."
    if kind == "chance":
        return f"Chance node {name} averages its outcomes: {sum_text(trace, node)}."
    if kind == "exit":
        if event.source in ("upper", "lower"):
            return f"{name} is done, {bound_text(trace, node)}"
        if node.parent < 0:
            best = trace.best_child
            choice = "" if best is None else f"; the best move is {best.label}"
            return f"The search is done: the root is worth {show(event.value)}{choice}."
        return f"{name} is worth {show(event.value)}."
    return kind


def _bound(trace: Trace, value: float | None, infinite: str) -> str:
    return infinite if value is None else trace.format_value(value)
