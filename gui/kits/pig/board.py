"""Pig as a race: two tokens on a track to the goal, a rolling die, Roll and Hold.

What moves, read from the context: `ctx.chance` (the die: its faces cycling while it rolls,
then the face thrown), `ctx.numbers` (the scores sliding as a bank moves a token, the turn
total counting up) and `ctx.note` (a fading message, e.g. when a 1 wipes the turn out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from plyground.ai.evaluation.wording import value_text
from plyground.games.base import Game
from plyground.games.pig.rules import State as PigState
from plyground.gui import theme
from plyground.gui.kits.base import BoardView, PlayEffect, ViewContext, value_colour
from plyground.gui.kits.best_move import best_button
from plyground.gui.kits.pig import effects
from plyground.gui.kits.pig.odds import pig_rows
from plyground.gui.kits.pig.turn_log import turn_text as pig_turn_text
from plyground.gui.widgets import drawing

PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@dataclass
class PigLayout:
    """Where each part of the Pig table goes inside the board rect."""

    unit: float
    lanes: tuple[pygame.Rect, pygame.Rect]
    die: pygame.Rect
    total: pygame.Rect
    roll: pygame.Rect
    hold: pygame.Rect
    message: pygame.Rect


def layout(rect: pygame.Rect) -> PigLayout:
    """Split the board area into the race track, the die, the turn total and the buttons."""
    unit = min(rect.width / 10, rect.height / 8.6)
    width = min(rect.width, unit * 11)
    left = rect.centerx - width / 2
    top = rect.centery - unit * 4.2
    lane_h = unit * 1.05
    lanes = (
        pygame.Rect(round(left), round(top), round(width), round(lane_h)),
        pygame.Rect(round(left), round(top + lane_h * 1.25), round(width), round(lane_h)),
    )
    die_size = round(unit * 1.9)
    centre_y = top + unit * 4.05
    die = pygame.Rect(0, 0, die_size, die_size)
    die.center = (round(rect.centerx - unit * 1.6), round(centre_y))
    total = pygame.Rect(0, 0, round(unit * 3.2), die_size)
    total.midleft = (round(rect.centerx + unit * 0.2), round(centre_y))
    button_w, button_h = round(unit * 2.6), round(max(36, unit * 0.85))
    buttons_y = round(top + unit * 6.5)
    roll = pygame.Rect(0, buttons_y, button_w, button_h)
    hold = pygame.Rect(0, buttons_y, button_w, button_h)
    roll.right = round(rect.centerx - unit * 0.2)
    hold.left = round(rect.centerx + unit * 0.2)
    message = pygame.Rect(0, 0, round(width), round(unit * 0.72))
    message.center = (rect.centerx, round(top + unit * 5.6))
    return PigLayout(unit, lanes, die, total, roll, hold, message)


def draw_die(
    surface: pygame.Surface,
    rect: pygame.Rect,
    face: int | None,
    tilt: float = 0.0,
    bad: bool = False,
) -> None:
    """A rounded die showing `face` (None: a blank die), optionally tilted while rolling."""
    size = rect.width
    layer = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(0, 0, size, size)
    radius = round(size * 0.18)
    drawing.rounded_rect(layer, body, (225, 229, 240), radius)
    drawing.rounded_rect(
        layer,
        body.inflate(-size * 0.06, -size * 0.06).move(0, -size * 0.02),
        (250, 251, 255),
        round(radius * 0.9),
    )
    pip_colour = theme.DANGER if bad else (34, 38, 52)
    for px, py in PIPS.get(face or 0, ()):
        drawing.circle(layer, pip_colour, (px * size, py * size), size * 0.085)
    if tilt:
        layer = pygame.transform.rotozoom(layer, tilt, 1.0)
    drawing.shadow(
        surface, rect.move(0, round(size * 0.05)), radius, spread=round(size * 0.12), alpha=120
    )
    surface.blit(layer, layer.get_rect(center=rect.center))


def draw_button(
    surface: pygame.Surface,
    rect: pygame.Rect,
    label: str,
    key: str,
    enabled: bool,
    hovered: bool,
    colour: theme.Colour,
    size: int,
    highlight: bool = False,
) -> None:
    """A large table button (Roll / Hold) with its key shown."""
    if not enabled:
        fill, text_colour, border = theme.PANEL, theme.TEXT_FAINT, theme.PANEL_BORDER
    elif hovered:
        fill, text_colour, border = (
            theme.mix(colour, (255, 255, 255), 0.15),
            (20, 22, 30),
            theme.mix(colour, (255, 255, 255), 0.4),
        )
    else:
        fill, text_colour, border = colour, (20, 22, 30), theme.mix(colour, (255, 255, 255), 0.25)
    if enabled:
        drawing.shadow(
            surface, rect, round(rect.height * 0.3), spread=round(rect.height * 0.25), alpha=90
        )
    drawing.rounded_rect(
        surface,
        rect,
        fill,
        round(rect.height * 0.3),
        2 if highlight else 1,
        theme.SUCCESS if highlight else border,
    )
    drawing.draw_text(
        surface,
        label,
        (rect.centerx - size * 0.5, rect.centery),
        size,
        text_colour,
        "bold",
        anchor="center",
    )
    key_rect = pygame.Rect(0, 0, round(size * 1.2), round(size * 1.2))
    key_rect.midleft = (
        rect.centerx + drawing.text_size(label, size, "bold")[0] / 2 - size * 0.1,
        rect.centery,
    )
    drawing.rounded_rect(surface, key_rect, theme.mix(fill, (0, 0, 0), 0.25), round(size * 0.25))
    drawing.draw_text(
        surface,
        key,
        key_rect.center,
        max(11, round(size * 0.6)),
        theme.mix(text_colour, fill, 0.2),
        "semibold",
        anchor="center",
    )


def draw_flag(surface: pygame.Surface, x: float, y: float, unit: float) -> None:
    """The goal flag at the end of a track (pole at `x`, centred on `y`)."""
    pygame.draw.line(
        surface,
        theme.TEXT_DIM,
        (x, y - unit * 0.3),
        (x, y + unit * 0.3),
        2,
    )
    drawing.polygon(
        surface,
        theme.TEXT_DIM,
        [
            (x, y - unit * 0.3),
            (x + unit * 0.22, y - unit * 0.2),
            (x, y - unit * 0.1),
        ],
    )


def score_width(unit: float, goal: int) -> int:
    """Room at a track's right end for the flag (0.32-0.54 units in), a gap and the widest
    score the race can reach (goal + 5), drawn 0.3 units from the lane's end."""
    widest = drawing.text_size("8" * len(str(goal + 6)), score_size(unit), "bold")[0]
    return max(round(unit * 1.6), round(unit * 1.0) + widest)


def score_size(unit: float) -> int:
    """The font size of a lane's score."""
    return max(13, round(unit * 0.42))


class PigView(BoardView[PigState]):
    """Draws the Pig race and maps the Roll/Hold buttons and keys R/H to moves."""

    blurb = "A dice race to 100: roll on, or hold before a 1 wipes you out."
    keys_help = "Roll with R, hold with H (or ← → and Enter)."
    bench_presets = ("Medium", "Hard")
    move_help = "Roll (R) or Hold (H)"
    sounds = effects.DICE_SOUNDS
    draws_cursor = True
    turn_text = staticmethod(pig_turn_text)

    def refusal(self, state: PigState, move: Any) -> str | None:
        """Holding needs a turn total; other refusals say nothing."""
        return "Roll at least once before holding" if move == "hold" else None

    def move_effect(self, before: PigState, move: Any, names: tuple[str, str]) -> PlayEffect:
        """Holding banks (its sound, and a message saying how much); a roll clears it."""
        return PlayEffect(effects.move_sound(move), effects.move_message(before, move, names))

    def chance_effect(self, before: PigState) -> PlayEffect:
        """The die starts tumbling."""
        return PlayEffect(sound="roll")

    def outcome_effect(self, before: PigState, outcome: Any, names: tuple[str, str]) -> PlayEffect:
        """The die lands; a 1 wipes the turn out, says so and holds the game a moment."""
        if outcome != 1:
            return PlayEffect(sound="landed")
        message = effects.wipe_out_message(before, names)
        return PlayEffect("bust", message, effects.WIPE_OUT_PAUSE, stops_motion=True)

    def shown_numbers(self, state: PigState) -> tuple[float, ...]:
        """Both scores and the turn total ease on the track."""
        return effects.shown_numbers(state)

    def ease_numbers(
        self, shown: tuple[float, ...], state: PigState, ease: float
    ) -> tuple[float, ...]:
        """Scores slide; a lost or banked turn total vanishes at once."""
        return effects.ease_numbers(shown, state, ease)

    def analysis_rows(
        self, game: Game[Any], initial: PigState, entries: Sequence[Any], names: tuple[str, str]
    ) -> list[tuple[str, str]]:
        """Both sides' chances under optimal play, the optimal decision and the last one."""
        return pig_rows(game, initial, entries, names)

    def draw_icon(self, surface: pygame.Surface, rect: pygame.Rect, now: float) -> None:
        """A tilting die above a short race track with both tokens."""
        cx, cy = rect.center
        s = min(rect.width, rect.height)
        die = pygame.Rect(0, 0, round(s * 0.42), round(s * 0.42))
        die.center = (round(cx - s * 0.12), round(cy - s * 0.1))
        draw_die(surface, die, 5, tilt=math.sin(now * 1.7) * 8)
        track = pygame.Rect(0, 0, round(s * 0.9), max(4, round(s * 0.05)))
        track.center = (cx, round(cy + s * 0.3))
        drawing.rounded_rect(surface, track, theme.HOLE, track.height // 2)
        for player, share in ((0, 0.62), (1, 0.38)):
            centre = (track.x + track.width * share, track.centery + (player * 2 - 1) * s * 0.04)
            drawing.circle(surface, theme.PLAYER_COLOURS[player], centre, s * 0.05)
        drawing.circle(surface, theme.TEXT_DIM, (track.right, track.centery), s * 0.03)

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: PigState, ctx: ViewContext
    ) -> None:
        """Track with tokens, die, turn total, buttons, and the wipe-out message."""
        lay = layout(rect)
        unit = lay.unit
        goal = state.goal
        for player, lane in enumerate(lay.lanes):
            self._draw_lane_label(surface, lane, unit, player, state, ctx)
            self._draw_track(surface, lane, unit, player, state, ctx)
        drawing.draw_text(
            surface,
            f"first to {goal}",
            (lay.lanes[1].right, lay.lanes[1].bottom + unit * 0.12),
            max(11, round(unit * 0.24)),
            theme.TEXT_FAINT,
            anchor="topright",
        )
        self._draw_die_and_total(surface, lay, state, ctx)
        self._draw_message(surface, lay, ctx)
        self._draw_buttons(surface, lay, state, ctx)

    def _draw_lane_label(
        self,
        surface: pygame.Surface,
        lane: pygame.Rect,
        unit: float,
        player: int,
        state: PigState,
        ctx: ViewContext,
    ) -> None:
        """A player's lane: its frame (raised for the player to move), name and score."""
        shown_scores = effects.shown_scores(ctx.numbers, state)
        name_size = max(12, round(unit * 0.27))
        colour = theme.PLAYER_COLOURS[player]
        active = player == state.player and not state.is_terminal()
        label_w = round(unit * 2.9)
        drawing.rounded_rect(
            surface,
            lane,
            theme.PANEL_RAISED if active else theme.PANEL,
            round(lane.height * 0.3),
            1,
            theme.mix(theme.PANEL_BORDER, colour, 0.6) if active else theme.PANEL_BORDER,
        )
        name = drawing.ellipsize(
            ctx.names[player].split(" · ", 1)[-1],
            label_w - round(unit * 0.7),
            name_size,
            "semibold",
        )
        drawing.circle(surface, colour, (lane.x + unit * 0.35, lane.centery), unit * 0.11)
        drawing.draw_text(
            surface,
            name,
            (lane.x + unit * 0.58, lane.centery),
            name_size,
            theme.TEXT if active else theme.TEXT_DIM,
            "semibold",
            anchor="midleft",
        )
        drawing.draw_text(
            surface,
            f"{round(shown_scores[player])}",
            (lane.right - unit * 0.3, lane.centery),
            score_size(unit),
            theme.TEXT,
            "bold",
            anchor="midright",
        )

    def _draw_track(
        self,
        surface: pygame.Surface,
        lane: pygame.Rect,
        unit: float,
        player: int,
        state: PigState,
        ctx: ViewContext,
    ) -> None:
        """A player's track to the goal: banked score, this turn's ghost, flag and token."""
        goal = state.goal
        shown_scores = effects.shown_scores(ctx.numbers, state)
        turn_total = effects.shown_turn_total(ctx.numbers, state)
        colour = theme.PLAYER_COLOURS[player]
        active = player == state.player and not state.is_terminal()
        label_w = round(unit * 2.9)
        score_w = score_width(unit, goal)
        track = pygame.Rect(
            lane.x + label_w, 0, lane.width - label_w - score_w, max(6, round(unit * 0.16))
        )
        track.centery = lane.centery
        drawing.rounded_rect(surface, track, theme.HOLE, track.height // 2)
        for tick in range(1, 10):
            x = track.x + track.width * tick / 10
            pygame.draw.line(
                surface, theme.PANEL_BORDER, (x, track.y - 3), (x, track.bottom + 2), 1
            )

        def at(score: float, track: pygame.Rect = track) -> float:
            return float(track.x + track.width * max(0.0, min(1.0, score / goal)))

        banked_x = at(shown_scores[player])
        if banked_x > track.x + 1:
            drawing.rounded_rect(
                surface,
                pygame.Rect(track.x, track.y, round(banked_x - track.x), track.height),
                theme.mix(theme.HOLE, colour, 0.7),
                track.height // 2,
            )
        if active and turn_total > 0:
            ghost_x = at(shown_scores[player] + turn_total)
            seg = pygame.Rect(
                round(banked_x), track.y, max(2, round(ghost_x - banked_x)), track.height
            )
            drawing.rounded_rect(
                surface, seg, theme.mix(theme.HOLE, colour, 0.35), track.height // 2
            )
            drawing.circle(
                surface,
                theme.mix(theme.PANEL_RAISED, colour, 0.45),
                (ghost_x, track.centery),
                unit * 0.2,
                2,
            )
        draw_flag(surface, track.right + unit * 0.32, track.centery, unit)
        drawing.circle(
            surface, theme.PLAYER_SHADES[player], (banked_x, track.centery + 1), unit * 0.23
        )
        drawing.circle(surface, colour, (banked_x, track.centery), unit * 0.2)
        drawing.player_mark(
            surface, player, (banked_x, track.centery), unit * 0.2, theme.PLAYER_SHADES[player]
        )
        if state.is_terminal() and state.winner() == player:
            pulse = 0.5 + 0.5 * math.sin(ctx.now * 5)
            drawing.glow(
                surface,
                colour,
                (banked_x, track.centery),
                round(unit * 0.7),
                round(60 + 60 * pulse),
            )

    def _draw_die_and_total(
        self, surface: pygame.Surface, lay: PigLayout, state: PigState, ctx: ViewContext
    ) -> None:
        """The die (a six before any roll, tumbling in a roll), turn total, what holding banks."""
        unit = lay.unit
        current = state.player
        turn_total = effects.shown_turn_total(ctx.numbers, state)
        die_face, rolling, progress = effects.die(ctx.chance)
        tilt = 0.0
        die_rect = lay.die.copy()
        if rolling:
            tilt = math.sin(progress * math.pi * 5) * 25 * (1 - progress)
            die_rect.y -= round(
                abs(math.sin(progress * math.pi * 3)) * unit * 0.35 * (1 - progress)
            )
        draw_die(surface, die_rect, die_face or 6, tilt, bad=(die_face == 1 and not rolling))
        label_size = max(11, round(unit * 0.24))
        drawing.draw_text(
            surface,
            "TURN TOTAL",
            (lay.total.x, lay.total.y + unit * 0.1),
            label_size,
            theme.TEXT_DIM,
            "semibold",
        )
        total_colour = theme.PLAYER_COLOURS[current] if turn_total else theme.TEXT_DIM
        drawing.draw_text(
            surface,
            f"{round(turn_total)}",
            (lay.total.x, lay.total.centery + unit * 0.12),
            max(20, round(unit * 0.95)),
            total_colour,
            "bold",
            anchor="midleft",
        )
        if not state.is_terminal():
            banked = state.scores[current]
            hint = f"hold → {banked + state.turn_total}" if state.turn_total else "roll to start"
            drawing.draw_text(
                surface,
                hint,
                (lay.total.x, lay.total.bottom - unit * 0.05),
                label_size,
                theme.TEXT_FAINT,
                anchor="bottomleft",
            )

    def _draw_message(self, surface: pygame.Surface, lay: PigLayout, ctx: ViewContext) -> None:
        """The fading message under the die (a 1 wiping out the turn, a bank...)."""
        unit = lay.unit
        note = ctx.note
        if note is not None:
            text, colour, strength = note.text, note.colour, note.strength
            if strength > 0:
                size = drawing.fit_size(
                    text, lay.message.width - 20, max(14, round(unit * 0.4)), "bold"
                )
                box_w = drawing.text_size(text, size, "bold")[0] + round(unit * 0.8)
                box = pygame.Rect(0, 0, box_w, lay.message.height)
                box.center = lay.message.center
                alpha = round(255 * max(0.0, min(1.0, strength)))
                drawing.rounded_rect(
                    surface,
                    box,
                    theme.mix(theme.BG_BOTTOM, colour, 0.25),
                    box.height // 2,
                    1,
                    colour,
                    alpha=alpha,
                )
                drawing.draw_text(
                    surface, text, box.center, size, colour, "bold", anchor="center", alpha=alpha
                )

    def _draw_buttons(
        self, surface: pygame.Surface, lay: PigLayout, state: PigState, ctx: ViewContext
    ) -> None:
        """Roll and Hold, live for a human's turn, with their values under them."""
        unit = lay.unit
        current = state.player
        label_size = max(11, round(unit * 0.24))
        legal = state.legal_moves() if state.to_move == current and not state.is_terminal() else ()
        button_size = max(14, round(unit * 0.36))
        for move, rect_b, label, key, colour in (
            ("roll", lay.roll, "Roll", "R", theme.ACCENT),
            ("hold", lay.hold, "Hold", "H", theme.WARNING),
        ):
            enabled = ctx.interactive and move in legal
            hovered = enabled and ctx.mouse is not None and rect_b.collidepoint(ctx.mouse)
            if ctx.cursor is not None:  # the keyboard's choice wins over the mouse
                hovered = enabled and ctx.cursor == move
            draw_button(
                surface,
                rect_b,
                label,
                key,
                enabled,
                hovered,
                colour,
                button_size,
                highlight=ctx.hint == move,
            )
            if hovered and ctx.cursor == move:  # the keyboard's choice: ringed
                ring = rect_b.inflate(round(unit * 0.12), round(unit * 0.12))
                pygame.draw.rect(surface, theme.ACCENT, ring, 2, round(ring.height * 0.3))
            if ctx.values is not None and move in ctx.values:
                value = ctx.values[move]
                text = value_text(value, stochastic=True)
                if move == ctx.chosen:
                    text += " · best"
                drawing.draw_text(
                    surface,
                    text,
                    (rect_b.centerx, rect_b.bottom + unit * 0.12),
                    label_size,
                    value_colour(value.value),
                    "semibold",
                    anchor="midtop",
                )

    def draw_best_move(
        self, surface: pygame.Surface, rect: pygame.Rect, state: PigState, move: Any
    ) -> None:
        """A ring round the best move's button, tagged "best"."""
        lay = layout(rect)
        best_button(surface, lay.roll if move == "roll" else lay.hold, lay.unit)

    def move_at(self, rect: pygame.Rect, state: PigState, pos: tuple[int, int] | None) -> Any:
        """'roll' or 'hold' when a button is clicked; None elsewhere."""
        if pos is None:
            return None
        lay = layout(rect)
        if lay.roll.collidepoint(pos):
            return "roll"
        if lay.hold.collidepoint(pos):
            return "hold"
        return None

    def move_for_key(self, state: PigState, key: int, unicode: str) -> Any:
        """R rolls, H holds."""
        if key == pygame.K_r:
            return "roll"
        if key == pygame.K_h:
            return "hold"
        return None
