"""The caption over the board while move values are drawn on it: for whom they are, where
they come from, and the one short legend (how exact, bound, book and estimate look).

Board labels are short ('loss', 'win in 3', '62%'); this one line per idea says whose view
they are (the AI's own search, or advice for a person) so a 'loss' never leaves a reader
wondering whose loss it is.  Every game's kit draws its labels its own way; the caption is
the play scene's, the same for all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from plyground.ai.evaluation.provenance import Source
from plyground.ai.evaluation.wording import SOURCE_TITLES, short_legend, source_text
from plyground.gui import theme
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.gui.play.controller import PlayController
    from plyground.gui.play.model import PlayModel
    from plyground.gui.play.screen import PlayScreen

TEXT_SIZE = 13
"""The caption's text size (before the window's scale)."""
SMALLEST = 10
"""The smallest size a line shrinks to before it is shortened."""
DOT_ROOM = 18
"""Room left of the first line for the player's dot (before the window's scale)."""


def reserved(model: PlayModel, m: Metrics) -> int:
    """The height the board gives up for the caption: two lines whenever the analysis is
    shown (the values come and go with the turns; the board must not jump with them)."""
    if not model.controller.settings.show_analysis:
        return 0
    return line_height(m) * 2 + m.px(4)


def line_height(m: Metrics) -> int:
    """One caption line's height."""
    return round(m.font_size(TEXT_SIZE) * 1.35)


def board_top(model: PlayModel, m: Metrics, header: pygame.Rect) -> int:
    """Where the board's area starts: under the status line and the caption's room."""
    room = reserved(model, m)
    return header.bottom + m.gap + (room + m.gap // 2 if room else 0)


def caption_rect(model: PlayModel, m: Metrics, header: pygame.Rect) -> pygame.Rect:
    """The caption's strip, between the status line and the board's area."""
    return pygame.Rect(header.x, header.bottom + m.gap, header.width, reserved(model, m))


def whose_values(controller: PlayController) -> tuple[int, str] | None:
    """(player, 'Values for Red (you, to move)') for the values on the board, or None when
    none are drawn.  The values are always for the side to move in the position shown: the
    AI's own view when an AI is to move, advice when a person is."""
    board = controller.browse.shown_values()
    if board is None or not board.values:
        return None
    state = controller.browse.shown_state()
    player = state.player
    name = controller.colour_names()[player]
    if controller.browse.browsing:
        return player, f"Values for {name} (to move here) · advice"
    if not controller.is_human(player):
        return player, f"Values for {name} (AI, to move) · its own search"
    role = controller.player_roles()[player]
    who = "you, to move" if role == "You" else "to move"
    return player, f"Values for {name} ({who}) · advice"


def caption_lines(controller: PlayController, compact: bool = False) -> tuple[int, str, str] | None:
    """(player, whose line, legend line) for the values on the board, or None (`compact`:
    the board writes them in the compact form, and the key says what 'W3' stands for).

    The first line says for whom and from what ('Values for Yellow (AI, to move) · its own
    search · source: opening book'); the second is `ai.evaluation.wording.short_legend` for the
    kinds of value on show."""
    whose = whose_values(controller)
    if whose is None:
        return None
    player, text = whose
    board = controller.browse.shown_values()
    values = list(board.values.values()) if board is not None else []
    sources = sorted(  # playouts are one source, whatever their number (the panel has each)
        {
            SOURCE_TITLES[value.source] if value.source is Source.PLAYOUTS else source_text(value)
            for value in values
        }
    )
    text += f" · source: {', '.join(sources)}"
    stochastic = bool(controller.game.stochastic)
    legend = "Key: " + " · ".join(short_legend(stochastic, values, compact))
    return player, text, legend


def fitted(text: str, width: int, m: Any) -> tuple[str, int]:
    """`text` and the size it is drawn at to fit `width`: smaller first, then without its
    last ' · ' parts (the sources, which the panel lists too), the first part kept whole
    where it can be (for whom the values are)."""
    parts = text.split(" · ")
    size = m.font_size(TEXT_SIZE)
    for keep in range(len(parts), 0, -1):
        shown = " · ".join(parts[:keep])
        size = drawing.fit_size(shown, width, m.font_size(TEXT_SIZE), smallest=SMALLEST)
        if drawing.text_size(shown, size)[0] <= width:
            return shown, size
    return drawing.ellipsize(parts[0], width, size), size


def compact_board(model: PlayModel, screen: PlayScreen) -> bool:
    """True when the kit writes the values on show in the compact form at this size."""
    board = model.controller.browse.shown_values()
    if board is None or not board.values:
        return False
    stochastic = bool(model.controller.game.stochastic)
    return model.kit.compact_labels(screen.board, dict(board.values), stochastic)


def layout(model: PlayModel, screen: PlayScreen) -> list[tuple[str, int, pygame.Rect]]:
    """Each caption line's text, size and rect (empty: no caption now); the first line
    leaves room for the player's dot on its left."""
    m = screen.metrics
    lines = caption_lines(model.controller, compact_board(model, screen))
    rect = caption_rect(model, m, screen.header)
    if lines is None or rect.height <= 0:
        return []
    dot = m.px(DOT_ROOM)
    out = []
    for i, text in enumerate(lines[1:]):
        room = rect.width - (dot if i == 0 else 0)
        shown, size = fitted(text, room, m)
        width, height = drawing.text_size(shown, size)
        line = pygame.Rect(0, 0, width, height)
        line.centerx = rect.centerx + (dot // 2 if i == 0 else 0)
        line.centery = rect.y + line_height(m) * i + line_height(m) // 2
        out.append((shown, size, line))
    return out


def draw(surface: pygame.Surface, model: PlayModel, screen: PlayScreen) -> list[pygame.Rect]:
    """The caption (nothing when no values are on the board); returns its lines' rects."""
    lines = caption_lines(model.controller, compact_board(model, screen))
    placed = layout(model, screen)
    if lines is None or not placed:
        return []
    m = screen.metrics
    first = placed[0][2]
    colour = theme.PLAYER_COLOURS[lines[0]]
    drawing.circle(surface, colour, (first.x - m.px(11), first.centery), m.px(5))
    for i, (text, size, rect) in enumerate(placed):
        tone = theme.TEXT_DIM if i == 0 else theme.TEXT_FAINT
        drawing.draw_text(surface, text, rect.topleft, size, tone)
    return [rect for _, _, rect in placed]
