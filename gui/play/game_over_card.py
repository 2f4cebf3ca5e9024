"""The result card under the board when a game is over."""

from __future__ import annotations

from typing import Any

import pygame

from plyground.ai.evaluation.wording import counted
from plyground.gui import theme
from plyground.gui.play.controller import PlayController
from plyground.gui.widgets import drawing


def headline(controller: PlayController) -> tuple[str, int | None]:
    """'You win!', 'Red wins — the AI got you', "It's a draw"; and the winner."""
    if controller.at_move_limit():
        return "Stopped at the move limit", None
    winner = controller.state.winner()
    if winner is None:
        return "It's a draw", None
    roles = controller.player_roles()
    colours = controller.colour_names()
    if roles[winner] == "You":
        return "You win!", winner
    if not controller.is_human(winner) and "You" in roles:
        return f"{colours[winner]} wins — the AI got you", winner
    return f"{colours[winner]} wins!", winner


def detail(controller: PlayController) -> str:
    """'9 moves · AI · Hard 2 – 1 AI · Easy' (counted by player, whichever side each
    played), and whether the next AI-vs-AI game starts soon."""
    score = controller.score
    names = controller.current_series_labels()
    roles = controller.player_roles()
    names = ["You" if role == "You" else name for name, role in zip(names, roles, strict=True)]
    moves = counted(controller.history.decisions(), "move")
    if controller.at_move_limit():  # the headline says it stopped there
        moves = f"{moves} (its limit), a draw"
    text = f"{moves} · {names[0]} {score[0]} – {score[1]} {names[1]}"
    if score[2]:
        text += f", {score[2]} drawn"
    if controller.ai_vs_ai() and not controller.paused:
        text += " · next game starts soon"
    return text


def draw(
    surface: pygame.Surface, card: pygame.Rect, m: Any, controller: PlayController, text_right: int
) -> None:
    """The card with its headline and detail (the buttons are widgets of the scene)."""
    title, winner = headline(controller)
    colour = theme.TEXT if winner is None else theme.PLAYER_COLOURS[winner]
    drawing.shadow(surface, card, m.radius, spread=m.px(18), alpha=130)
    drawing.rounded_rect(
        surface, card, theme.PANEL_RAISED, m.radius, 2, theme.mix(theme.PANEL_BORDER, colour, 0.7)
    )
    width = text_right - m.pad - card.x - m.pad
    size = drawing.fit_size(title, width, m.font_size(28), "bold")
    drawing.draw_text(
        surface,
        title,
        (card.x + m.pad, card.centery - m.px(4)),
        size,
        colour,
        "bold",
        anchor="bottomleft",
    )
    for i, line in enumerate(drawing.wrap(detail(controller), width, m.font_size(14))[:2]):
        drawing.draw_text(
            surface,
            line,
            (card.x + m.pad, card.centery + m.px(4) + i * m.font_size(14) * 1.4),
            m.font_size(14),
            theme.TEXT_DIM,
        )
