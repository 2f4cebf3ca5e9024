"""Pig's turn log: each turn of the move list in words (its rolls, and a hold or a wipe-out)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plyground.games.base import Game
from plyground.games.pig.rules import State as PigState


def turn_text(game: Game[Any], before: PigState, entries: Sequence[Any]) -> str:
    """One turn as the move list shows it: 'rolled 4 6 3 · held 13 → 28', 'rolled 5 1 · wiped
    out, 5 lost', or while it goes on 'rolled 2 4 · 6 at stake'.

    `before` is the state the turn starts from, `entries` its moves (move, state after it,
    chance flag), the dice included.
    """
    player = getattr(before, "player", 0)
    faces = [int(e.move) for e in entries if e.chance]
    rolled = "rolled " + " ".join(str(face) for face in faces) if faces else ""
    at_stake, last = 0, before
    for entry in entries:
        if entry.chance and entry.move == 1:
            lost = getattr(last, "turn_total", 0)
            return f"{rolled} · wiped out" + (f", {lost} lost" if lost else "")
        if not entry.chance and entry.move == "hold":
            banked = getattr(last, "turn_total", 0)
            total = entry.state.scores[player]
            return f"{rolled} · held {banked} → {total}".strip(" ·")
        last = entry.state
        at_stake = getattr(last, "turn_total", at_stake)
    if not rolled:
        return "rolling…"
    return f"{rolled} · {at_stake} at stake"
