"""What every game kit offers, and the context the play scene hands it each frame."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pygame

from plyground.ai.evaluation.provenance import Evaluation
from plyground.games.base import Game, State
from plyground.gui import sound, theme
from plyground.gui.theme import Colour
from plyground.gui.widgets import drawing


@dataclass(frozen=True)
class MoveMotion:
    """The newest move, animating: `progress` 0..1 of its animation (the kit draws it, a
    disc falling or a mark drawn in)."""

    move: Any
    progress: float


@dataclass(frozen=True)
class ChanceMotion:
    """A chance event on the board: `outcome` the last one drawn (None: none yet); while
    `rolling` the next is being drawn (`progress` 0..1 of it, `now` the clock for a kit
    that shows the draw moving, a die's faces cycling)."""

    outcome: Any
    rolling: bool = False
    progress: float = 1.0
    now: float = 0.0


@dataclass(frozen=True)
class BoardNote:
    """A play message on the board ("Rolled a 1!"), in its tone's colour, `strength` 0..1 as
    it fades in and out."""

    text: str
    colour: tuple[int, int, int]
    strength: float


@dataclass
class ViewContext:
    """Everything a view needs besides the state; built fresh by the play scene each frame.

    Views only read it: drawing changes neither the state nor the context.
    """

    now: float = 0.0
    """The clock pulsing marks (hint, winning line) read; it holds still once they have
    pulsed for a while, so a board at rest is not redrawn.  Motion uses `moving` and
    `chance`, not this."""
    scale: float = 1.0
    mouse: tuple[int, int] | None = None
    interactive: bool = False
    """True when a human may move now (hover previews and clicks are live)."""
    winning_line: tuple[Any, ...] | None = None
    values: dict[Any, Evaluation] | None = None
    """Value of each legal move for the player to move, with its provenance (analysis
    panel shown): labels render through `short_value` (ai.evaluation.wording)."""
    stochastic: bool = False
    chosen: Any = None
    hint: Any = None
    last_move: Any = None
    moving: MoveMotion | None = None
    """The newest move while it animates."""
    strike: float = 1.0
    """How far the winning line is drawn through (0..1: it grows in at the end of a game)."""
    chance: ChanceMotion | None = None
    """A chance game's last outcome, or the one being drawn (None in a game without chance)."""
    numbers: tuple[float, ...] = ()
    """The numbers the board shows easing to their values (`BoardView.shown_numbers`); ()
    shows the position's own."""
    note: BoardNote | None = None
    """The play message shown on the board, if any (the kits with chance show it)."""
    cue: tuple[Any, float] | None = None
    """A gentle 'not here' cue: (what it is about, seconds since it started)."""
    names: tuple[str, str] = ("Player 1", "Player 2")
    cursor: Any = None
    """The keyboard cursor's move while it is shown (drawn by kits with `draws_cursor`)."""


@dataclass(frozen=True)
class PlayEffect:
    """What the window does as a move or a chance outcome lands: a sound, a message, a pause.

    `sound` is a play event of the kit's `sounds` map (None: silent); `message` is
    (text, tone) with tone "success", "danger" or "warning" ("" text clears the message,
    None leaves it); `pause` holds the next move this many seconds at full speed so the
    message can be read; `stops_motion` ends a move animation still running.
    """

    sound: str | None = None
    message: tuple[str, str] | None = None
    pause: float = 0.0
    stops_motion: bool = False


S = TypeVar("S", bound=State[Any])
"""The State class of the kit's game (`BoardView[connect4 State]`)."""


class BoardView(Generic[S]):
    """A game's kit: draws its board, turns clicks and keys into moves, draws its menu icon.

    Subclasses implement draw, move_at and move_for_key, and usually draw_icon; the class
    attributes below are what the menu, set-up and benchmarks show or use.  A kit is generic
    over its game's State class, so it reads its own positions typed.
    """

    blurb: str = ""
    """One line for the game's menu card."""
    keys_help: str = ""
    """How a person moves, one sentence ('Click a cell or press 1-9.')."""
    bench_presets: tuple[str, str] | None = None
    """The two presets `gui.bench.frame_bench` pits against each other (None: the second and
    last)."""
    side_names_are_colours = False
    """Whether the game names its sides by their colour (then a palette renames them)."""
    sounds: Mapping[str, str] = sound.COMMON_SOUNDS
    """Which effect each play event makes (see `gui.sound`); the default: buttons and results."""

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: S, ctx: ViewContext) -> None:
        """Draw `state` inside `rect`."""
        raise NotImplementedError

    def move_at(self, rect: pygame.Rect, state: S, pos: tuple[int, int]) -> Any:
        """The move a click at `pos` means, or None (which may be an illegal move)."""
        raise NotImplementedError

    def move_for_key(self, state: S, key: int, unicode: str) -> Any:
        """The move a key press means, or None."""
        raise NotImplementedError

    move_help: str = ""
    """How a human moves, in a few words for the status line ('' : the game's notation help)."""
    draws_cursor: bool = False
    """Whether `draw` shows `ctx.cursor` (otherwise the play scene names the selected move)."""

    def cursor_move(self, state: S, cursor: Any, dx: int, dy: int) -> Any:
        """Where the keyboard cursor goes on an arrow (dx, dy in -1..1), or None when that
        arrow does not move it (then ↓ plays the move under it).  `cursor` None: where it
        first appears.  The default steps ←/→ through the legal moves in the game's order."""
        moves = list(state.legal_moves()) if not state.is_terminal() else []
        if not moves:
            return None
        if cursor not in moves:
            return moves[0]
        if dx == 0:
            return None
        return moves[(moves.index(cursor) + dx) % len(moves)]

    def move_seconds(self, before: S, move: Any) -> float:
        """How long `move` from `before` animates at full speed (default: no animation)."""
        return 0.0

    def move_effect(self, before: S, move: Any, names: tuple[str, str]) -> PlayEffect:
        """What a player's `move` from `before` sounds and says (`names`: the sides' names);
        the default: the "move" sound."""
        return PlayEffect(sound="move")

    def chance_effect(self, before: S) -> PlayEffect:
        """What starting to draw a chance outcome at `before` sounds and says (default: the
        "chance" sound)."""
        return PlayEffect(sound="chance")

    def outcome_effect(self, before: S, outcome: Any, names: tuple[str, str]) -> PlayEffect:
        """What a chance `outcome` at `before` sounds and says as it comes to rest (default:
        the "landed" sound)."""
        return PlayEffect(sound="landed")

    def shown_numbers(self, state: S) -> tuple[float, ...]:
        """Numbers the board shows easing towards their values in `state` (scores of a race,
        say); the default: none."""
        return ()

    def ease_numbers(self, shown: tuple[float, ...], state: S, ease: float) -> tuple[float, ...]:
        """The displayed numbers one frame on: each moves `ease` (0..1) of the way to
        `shown_numbers(state)`."""
        targets = self.shown_numbers(state)
        return tuple(s + (t - s) * ease for s, t in zip(shown, targets, strict=True))

    def refusal(self, state: S, move: Any) -> str | None:
        """Why a human's illegal `move` is refused here, in a few words (None: say nothing)."""
        return None

    def analysis_rows(
        self, game: Game[Any], initial: S, entries: Sequence[Any], names: tuple[str, str]
    ) -> list[tuple[str, str]]:
        """Extra (label, text) rows for the analysis panel (default: none).

        `entries` are the match's entries (move, state after it, chance flag) after `initial`;
        `names` the two players' names.
        """
        return []

    def turn_text(self, game: Game[Any], before: S, entries: Sequence[Any]) -> str | None:
        """One row of the move list in words (None, the default: the game's notation).

        `before` is the state the row starts from, `entries` its moves (move, state after
        it, chance flag); a dice game's row is a whole turn with its dice.
        """
        return None

    def draw_best_move(
        self, surface: pygame.Surface, rect: pygame.Rect, state: S, move: Any
    ) -> None:
        """Mark `move` as the best one in `state` (drawn over the board in `rect` while a game
        is reviewed): kits draw an arrow or a ring; the default names the move."""
        from plyground.gui.kits.best_move import best_caption

        best_caption(surface, rect, f"Best move: {move}")

    def compact_labels(self, rect: pygame.Rect, values: dict[Any, Any], stochastic: bool) -> bool:
        """True when the board at `rect` writes these values in the compact form ('W21',
        '≤L4': `ai.evaluation.wording.compact_text`), so the caption's key says so."""
        return False

    def needs_hover_redraw(self) -> bool:
        """Whether mouse movement changes the picture (all current views: yes)."""
        return True

    def draw_icon(self, surface: pygame.Surface, rect: pygame.Rect, now: float) -> None:
        """A small picture of the game for its menu card (default: two players' pieces)."""
        s = min(rect.width, rect.height)
        for player, dx in ((0, -0.17), (1, 0.17)):
            centre = (rect.centerx + dx * s, rect.centery + math.sin(now * 2 + player) * s * 0.03)
            drawing.circle(surface, theme.PLAYER_COLOURS[player], centre, s * 0.16)


Kit = BoardView[Any]
"""A game kit of any game: a board view with its menu icon and texts (the same class)."""


def value_colour(value: float) -> Colour:
    """Green for good, red for bad, grey near zero (from the mover's point of view)."""
    if value > 0.02:
        return theme.mix(theme.TEXT_DIM, theme.SUCCESS, min(1.0, 0.35 + value))
    if value < -0.02:
        return theme.mix(theme.TEXT_DIM, theme.DANGER, min(1.0, 0.35 - value))
    return theme.TEXT_DIM


def short_value(value: Evaluation, stochastic: bool) -> str:
    """Compact value text for a board label ('win in 3', 'draw', '≤ loss in 4', 'est. +0.25',
    '62%'): `ai.evaluation.wording.board_text`, the one wording."""
    from plyground.ai.evaluation.wording import board_text

    return board_text(value, stochastic)


def digit_of(key: int, unicode: str) -> int | None:
    """The digit a key press typed (top row or keypad), or None."""
    if unicode and unicode.isdigit():
        return int(unicode)
    keypad = {getattr(pygame, f"K_KP{i}", -1): i for i in range(10)}
    keypad.update({getattr(pygame, f"K_KP_{i}", -1): i for i in range(10)})
    return keypad.get(key)
