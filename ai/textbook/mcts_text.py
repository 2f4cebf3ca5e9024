"""A recorded Monte Carlo tree search as words: each iteration's four phases, the root's
children and the move chosen (`trace --algorithm mcts`), or the same as JSON.

Every U/N and UCB1 printed is an estimate from random playouts and says so; none is an
exact value of a position.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.ai.textbook.mcts_trace import MctsEvent, MctsTrace, final_ucb
from plyground.ai.textbook.observer import MAX
from plyground.games.base import State, capabilities
from plyground.games.trees.examples import TreeGame, leaf_values
from plyground.untrusted import printable

ESTIMATES = "every U/N and UCB1 below is an estimate from random playouts, never an exact value"
FORMULA = "UCB1 = U/N + c * sqrt(ln N(parent) / N)"
SHOWN_MOVES = 16
"""A longer playout is shown by its first moves and its length."""
RESULTS = {1.0: "MAX wins (1)", 0.5: "a draw (1/2)", 0.0: "MAX loses (0)"}
"""A playout's result for MAX, in words."""


def number(value: float) -> str:
    """A count or a total of results: 3, 2.5."""
    return f"{value:g}"


def node_name(trace: MctsTrace, node: int) -> str:
    """A node's name: the root's (A, or "the root"), a textbook tree's own label (B1), else
    the moves from the root joined by · (4·3·5)."""
    places = trace.places
    if places[node].parent is None:
        return "the root" if trace.root_label == "root" else trace.root_label
    if capabilities(trace.state.game).labels_name_nodes:
        return printable(trace.label(node))
    path = []
    at: int | None = node
    while at is not None and places[at].parent is not None:
        path.append(trace.label(at))
        at = places[at].parent
    return printable("·".join(reversed(path)))


def event_line(trace: MctsTrace, event: MctsEvent) -> str:
    """One event as an indented line of its iteration (a backup is written with the others
    of its iteration, by `render_mcts_text`)."""
    name = node_name(trace, event.node)
    kind = event.kind
    if kind == "select":
        assert event.child is not None
        child = node_name(trace, event.child)
        if not event.ucb:
            return f"  select   {name}: the dice decide → {child}"
        scores = " | ".join(f"{printable(trace.label(c))} {u:.2f}" for c, u in event.ucb)
        return f"  select   {name}: UCB1 {scores} → {child}"
    if kind == "expand":
        assert event.child is not None
        if not event.added:
            return f"  expand   {name}: the game is over here, nothing to add"
        outcomes = len(event.added) - 1
        extra = f" (dice decide there: its {counted(outcomes, 'outcome')} added too)"
        return f"  expand   add {node_name(trace, event.child)}{extra if outcomes else ''}"
    if kind == "playout":
        result = RESULTS.get(event.result or 0.0, str(event.result))
        if not event.moves:
            return f"  playout  none: the game is over at {name}: {result}"
        moves = " ".join(printable(move) for move in event.moves[:SHOWN_MOVES])
        if len(event.moves) > SHOWN_MOVES:
            moves += f" … ({counted(len(event.moves), 'move')} in all)"
        return f"  playout  from {name}: {moves} → {result}"
    return f"  {kind}"


def backup_line(trace: MctsTrace, events: list[MctsEvent]) -> str:
    """An iteration's back-up: each node's new N and U, the new node first."""
    parts = [
        f"{node_name(trace, e.node)} N={e.N} U={number(e.U)} ({trace.places[e.node].mover.upper()})"
        for e in events
    ]
    return "  back up  " + ", ".join(parts)


def stop_line(trace: MctsTrace, expand: MctsEvent) -> str:
    """Where selection stopped, and why: the node the iteration expands."""
    name = node_name(trace, expand.node)
    if not expand.added:
        return f"  select   stop at {name}: the game is over there"
    return f"  select   stop at {name}: not all of its moves are in the tree yet"


def iteration_lines(trace: MctsTrace) -> list[str]:
    """Every iteration's phases, a heading then one line each (the back-up on one line)."""
    lines: list[str] = []
    backups: list[MctsEvent] = []
    for event in trace.events:
        if event.kind == "backup":
            backups.append(event)
            continue
        if backups:
            lines.append(backup_line(trace, backups))
            backups = []
        if event.kind == "iteration":
            lines.append(f"iteration {event.iteration}")
        elif event.kind != "decide":
            if event.kind == "expand":
                lines.append(stop_line(trace, event))
            lines.append(event_line(trace, event))
    return lines


def children_table(trace: MctsTrace) -> list[str]:
    """The root's children: move, N, U/N and UCB1 (as the next iteration would score them)."""
    rows = [("move", "N", "U/N", "UCB1")]
    for child, ucb in final_ucb(trace):
        mean = "-" if not child.N else f"{child.U / child.N:.2f}"
        rows.append((printable(trace.label(child.id)), str(child.N), mean, f"{ucb:.2f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return [
        "  "
        + "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]


def scores_note(state: State[Any]) -> str:
    """For a textbook tree whose leaves are scores (3, 5, 9), not results (1, 0, -1): what MCTS
    makes of them (a reader of "MAX wins" at a leaf of 3 would otherwise not know); else ""."""
    if not isinstance(state.game, TreeGame):
        return ""
    leaves = leaf_values(state.game.tree)
    if all(value in (-1.0, 0.0, 1.0) for value in leaves):
        return ""
    shown = ", ".join(f"{value:g}" for value in leaves[:4]) + (", ..." if len(leaves) > 4 else "")
    return (
        f"Note: this tree's leaves are scores ({shown}), not results: MCTS counts a leaf above 0 "
        "a win for MAX, below 0 a loss, 0 a draw, so its choice can differ from minimax's "
        "(lesson 4 is MCTS's own tree)."
    )


def render_mcts_text(trace: MctsTrace) -> str:
    """The whole search as text: settings, iterations, the root's children, the choice."""
    root = trace.root
    lines = [
        f"Monte Carlo tree search, {counted(trace.iterations, 'iteration')}, seed {trace.seed}, "
        f"c = {trace.c:.2f}; {FORMULA}",
        f"MAX is the side to move at {node_name(trace, 0)}. N counts the iterations through a "
        "node (each backs up one result: its playout's, or the finished game's where it has no "
        "playout), U their results for the player who moved into it (MAX or MIN, in brackets): "
        "win 1, draw 1/2, loss 0.",
        ESTIMATES[0].upper() + ESTIMATES[1:] + ".",
        "",
        *iteration_lines(trace),
        "",
        f"the root's children after {counted(root.N, 'iteration')} (estimates, not exact values):",
        *children_table(trace),
    ]
    best = trace.events[-1].child
    assert best is not None
    chosen = next(child for child in root.children if child.id == best)
    who = "MAX" if chosen.mover == MAX else "MIN"
    tied = [
        printable(trace.label(child.id))
        for child in root.children
        if child.N == chosen.N and child is not chosen
    ]
    tie = f"; tied with {', '.join(tied)}, it was expanded first" if tied else ""
    lines.append(
        f"move chosen: {printable(trace.move_label)}, the most visited ({chosen.N} of "
        f"{root.N} iterations{tie}); U/N {chosen.U / chosen.N:.2f} is {who}'s mean result over "
        f"{counted(chosen.N, 'iteration')} (win 1, draw 1/2): an estimate, not an exact value"
    )
    counts = trace.counters[-1]
    lines.append(
        f"{counted(counts.iterations, 'iteration')}, {counted(counts.tree_nodes, 'tree node')}, "
        f"{counted(counts.playouts, 'playout')}, {counted(counts.playout_plies, 'playout ply')}"
    )
    return "\n".join(lines)


def render_mcts_json(trace: MctsTrace) -> dict[str, Any]:
    """The settings, the counters, every event, the final tree and the move chosen."""
    counts = trace.counters[-1]
    return {
        "algorithm": "mcts",
        "iterations": trace.iterations,
        "seed": trace.seed,
        "c": trace.c,
        "kind": "estimate",
        "source": "playouts",
        "best_move": trace.move_label,
        "tree_nodes": counts.tree_nodes,
        "playouts": counts.playouts,
        "playout_plies": counts.playout_plies,
        "events": [_event_json(event) for event in trace.events],
        "nodes": [
            {
                "id": node.id,
                "parent": node.parent,
                "move": node.move,
                "N": node.N,
                "U": node.U,
                "mover": node.mover,
                "chance": node.chance,
            }
            for node in trace.tree_at(len(trace.events))
        ],
    }


def _event_json(event: MctsEvent) -> dict[str, Any]:
    """An event's fields that say something (defaults left out)."""
    out: dict[str, Any] = {"kind": event.kind, "iteration": event.iteration, "node": event.node}
    if event.child is not None:
        out["child"] = event.child
    if event.ucb:
        out["ucb"] = [list(pair) for pair in event.ucb]
    if event.kind == "playout":
        out["moves"] = list(event.moves)
        out["result"] = event.result
    if event.kind == "backup":
        out["N"], out["U"] = event.N, event.U
    if event.added:
        out["added"] = list(event.added)
    return out
