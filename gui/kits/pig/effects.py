"""Pig's play effects: the dice sounds, the hold and wipe-out messages, the easing totals.

`PigView` (gui.kits.pig.board) answers the kit hooks with these; nothing here draws.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.games.pig.rules import HOLD, ROLL
from plyground.games.pig.rules import State as PigState
from plyground.gui.kits.base import ChanceMotion
from plyground.gui.sound import COMMON_SOUNDS

DICE_SOUNDS: dict[str, str] = {
    **COMMON_SOUNDS,
    "roll": "die_tumble",  # the die starts tumbling
    "landed": "die_land",  # it comes to rest on 2-6
    "bust": "wipeout",  # it comes to rest on 1: the turn total is lost
    "hold": "bank",  # the turn total is banked
}
"""Which effect each of Pig's play events makes (see `gui.sound`)."""
WIPE_OUT_PAUSE = 0.9
"""Seconds (at full speed) the next move waits after a 1, so the message is read."""


def move_sound(move: Any) -> str:
    """The play event of a decision: banking sounds unlike rolling."""
    return "hold" if move == HOLD else "move"


def move_message(before: PigState, move: Any, names: tuple[str, str]) -> tuple[str, str] | None:
    """A hold says what was banked; a roll clears the last message; (text, tone)."""
    if move == HOLD:
        return f"{names[before.player]} holds and banks {before.turn_total}", "success"
    if move == ROLL:
        return "", ""
    return None


def wipe_out_message(before: PigState, names: tuple[str, str]) -> tuple[str, str]:
    """What a 1 costs the player at `before` (the chance node), as (text, tone)."""
    lost = before.turn_total
    name = names[before.player]
    text = (
        f"Rolled a 1! {name} loses {counted(lost, 'point')}"
        if lost
        else f"Rolled a 1! {name}'s turn is over"
    )
    return text, "danger"


def shown_numbers(state: PigState) -> tuple[float, ...]:
    """Both banked scores and the turn total, as the board eases them."""
    return (float(state.scores[0]), float(state.scores[1]), float(state.turn_total))


def ease_numbers(shown: tuple[float, ...], state: PigState, ease: float) -> tuple[float, ...]:
    """Scores slide towards their values; a lost or banked turn total vanishes at once."""
    first, second, total = shown
    first += (state.scores[0] - first) * ease
    second += (state.scores[1] - second) * ease
    target = state.turn_total
    if target < total:
        total = float(target)
    total += (target - total) * ease
    return first, second, total


def shown_scores(shown: tuple[float, ...], state: PigState) -> tuple[float, float]:
    """Both scores as the board shows them: easing (`shown`, the context's numbers) or, with
    none, the position's own."""
    if len(shown) < 2:
        return float(state.scores[0]), float(state.scores[1])
    return shown[0], shown[1]


def shown_turn_total(shown: tuple[float, ...], state: PigState) -> float:
    """The turn total as the board shows it (counting up), or the position's own."""
    return shown[2] if len(shown) > 2 else float(state.turn_total)


DIE_FACES = 6


def die(chance: ChanceMotion | None) -> tuple[int | None, bool, float]:
    """(face, rolling, progress) of the die: its faces cycling while it rolls, then the face
    thrown (None before any roll)."""
    if chance is None:
        return None, False, 1.0
    if chance.rolling:
        face = 1 + (int(chance.now * 14) * 5 + 3) % DIE_FACES
        return face, True, min(1.0, chance.progress)
    outcome = chance.outcome
    return (outcome if isinstance(outcome, int) else None), False, 1.0
