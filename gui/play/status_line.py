"""The status line above the board: the game's title, whose turn it is, the AI thinking."""

from __future__ import annotations

import math
from typing import Any

import pygame

from plyground.games.base import CHANCE
from plyground.gui import theme
from plyground.gui.play import motion
from plyground.gui.play import sides as side_info
from plyground.gui.play.controller import PlayController
from plyground.gui.play.search_jobs import Purpose
from plyground.gui.widgets import drawing


def whose_turn(controller: PlayController) -> str:
    """'your turn', 'Red to move', 'game over · Red wins': the position in a few words (what
    the status line says after opening a saved game)."""
    state = controller.state
    colours = controller.colour_names()
    if controller.at_move_limit():
        return "game over · a draw at the move limit"
    if state.is_terminal():
        winner = state.winner()
        return "game over · a draw" if winner is None else f"game over · {colours[winner]} wins"
    player = state.player
    if controller.is_human(player) and controller.player_names()[player].endswith("You"):
        return "your turn"
    return f"{colours[player]} to move"


def ai_working(controller: PlayController) -> bool:
    """Whether the AI is working for this game (the spinner turns): any search under way (its
    move, advice, the board's values, a browsed position, the game's review) or its move
    waiting for its moment."""
    if controller.jobs.job is not None:
        return True
    pending = controller.jobs.pending
    return pending is not None and pending.entries == len(controller.history.entries)


def status_text(controller: PlayController, view: Any) -> str:
    """What the status line says now (a notice wins over everything)."""
    state = controller.state
    names = controller.player_names()
    colours = controller.colour_names()
    player = state.player
    if controller.at_move_limit():
        text = "Game over · a draw at the move limit"
    elif state.is_terminal():
        winner = state.winner()
        text = "Game over · a draw" if winner is None else f"Game over · {colours[winner]} wins"
    elif controller.jobs.forfeited:  # a player's own file failed: the game is lost by forfeit
        text = f"Game over · {controller.jobs.forfeited.split(':')[0]}"  # the reason: the banner
    elif controller.jobs.job is not None and controller.jobs.job.kind != Purpose.POSITION:
        text = controller.jobs.thinking_text()
    elif (failed := controller.jobs.ai_failed_here()) is not None:
        text = f"{colours[player]} could not move: {failed} · R retries · undo, or change players"
    elif state.to_move == CHANCE:
        text = f"{names[player]} rolls…"
    elif controller.is_human(player):
        you = names[player].endswith("You")
        help_text = motion.move_help(view, controller.game)
        text = f"Your turn · {help_text}" if you else f"{colours[player]} to move · {help_text}"
    elif controller.ai_vs_ai() and controller.paused:
        text = f"Paused · {colours[player]} to move · Space resumes, S steps"
    else:
        text = f"{names[player]} to move"
    return controller.current_notice() or text


def draw(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    controller: PlayController,
    view: Any,
    now: float,
) -> pygame.Rect:
    """Title, then a pill with a coloured dot and the status text (spinner while thinking);
    returns the pill."""
    title_size = m.font_size(22)
    title = drawing.draw_text(
        surface,
        side_info.game_title(controller.game_name),
        (rect.x, rect.centery),
        title_size,
        theme.TEXT,
        "bold",
        anchor="midleft",
    )
    x = title.right + m.pad
    state = controller.state
    player = state.player
    if state.is_terminal():
        winner = state.winner()
        player = winner if winner is not None else player
    colour = (
        theme.PLAYER_COLOURS[player]
        if not controller.game_ended() or (state.is_terminal() and state.winner() is not None)
        else theme.TEXT_DIM
    )
    pill = pygame.Rect(x, rect.centery - m.px(17), rect.right - x, m.px(34))
    drawing.rounded_rect(
        surface,
        pill,
        theme.PANEL,
        pill.height // 2,
        1,
        theme.mix(theme.PANEL_BORDER, colour, 0.5),
    )
    drawing.circle(surface, colour, (pill.x + m.px(18), pill.centery), m.px(7))
    if ai_working(controller):
        draw_spinner(surface, (pill.right - m.px(20), pill.centery), m.px(8), now)
    text = status_text(controller, view)
    text_colour = theme.WARNING if controller.current_notice() else theme.TEXT
    size = m.font_size(16)
    text_x = pill.x + m.px(34)
    width = pill.right - text_x - m.px(40)
    while " · " in text and drawing.text_size(text, size, "semibold")[0] > width:
        text = text.rsplit(" · ", 1)[0]  # drop the least important part first
    size = drawing.fit_size(text, width, size, "semibold")  # smaller letters before a cut
    drawing.draw_text(
        surface,
        drawing.ellipsize(text, width, size, "semibold"),
        (text_x, pill.centery),
        size,
        text_colour,
        "semibold",
        anchor="midleft",
    )
    return pill


def draw_spinner(surface: pygame.Surface, centre: tuple[int, int], radius: int, now: float) -> None:
    """Eight dots chasing round: the AI is thinking."""
    for i in range(8):
        angle = i / 8 * math.tau
        fade = (now * 1.4 - i / 8) % 1.0
        colour = theme.mix(theme.ACCENT, theme.PANEL, fade)
        drawing.circle(
            surface,
            colour,
            (centre[0] + math.cos(angle) * radius, centre[1] + math.sin(angle) * radius),
            max(1.5, radius * 0.28),
        )
