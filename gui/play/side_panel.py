"""The side panel: players and score, the AI-vs-AI labels, the analysis and the move list."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, NamedTuple

import pygame

from plyground.gui import theme
from plyground.gui.play import analysis_panel, move_list
from plyground.gui.play.controller import PlayController
from plyground.gui.play.search_jobs import Analysis
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.gui.play.model import PlayModel
    from plyground.gui.play.screen import PlayScreen


def as_analysis(
    record: Analysis | None, entries: int | None = None, game_over: bool = False
) -> Analysis | None:
    """The controller's analysis as the panel shows it: advice searched when the match had
    other than `entries` entries is marked as for an earlier position (and, once the game is
    over, as the last there will be)."""
    if record is None:
        return None
    stale = record.source == "hint" and entries is not None and record.entries not in (-1, entries)
    if not stale:
        return record
    return dataclasses.replace(record, stale=True, final=game_over)


def draw_players(surface: pygame.Surface, model: PlayModel, screen: PlayScreen) -> None:
    """PLAYERS heading, the score, and each side's dot and name beside its role menu."""
    controller = model.controller
    panel, m = screen.panel, screen.metrics
    inner = panel.inflate(-2 * m.gap, 0)
    small = m.font_size(12)
    drawing.draw_text(
        surface, "PLAYERS", (inner.x, panel.y + m.px(16)), small, theme.TEXT_FAINT, "semibold"
    )
    score = f"SCORE {controller.score[0]} – {controller.score[1]}"
    if controller.score[2]:
        score += f" · {controller.score[2]} drawn"
    drawing.draw_text(
        surface,
        drawing.ellipsize(score, round(inner.width * 0.7), small),
        (inner.right, panel.y + m.px(16)),
        small,
        theme.TEXT_DIM,
        anchor="topright",
    )
    state = controller.state
    colours = controller.colour_names()
    for i, menu in enumerate(screen.role_menus):
        y = menu.centery
        active = not state.is_terminal() and state.player == i
        colour = theme.PLAYER_COLOURS[i]
        if active:
            drawing.glow(surface, colour, (inner.x + m.px(8), y), m.px(16), 80)
        drawing.circle(surface, colour, (inner.x + m.px(8), y), m.px(7))
        label_w = menu.x - inner.x - m.px(24)
        drawing.draw_text(
            surface,
            drawing.ellipsize(colours[i], label_w, m.font_size(15), "semibold"),
            (inner.x + m.px(22), y),
            m.font_size(15),
            theme.TEXT if active else theme.TEXT_DIM,
            "semibold",
            anchor="midleft",
        )


def draw_speed(
    surface: pygame.Surface, inner: pygame.Rect, m: Metrics, srect: pygame.Rect, speed: float
) -> None:
    """The speed slider's labels (AI vs AI): `srect` is the slider, `speed` its seconds."""
    label = "instant" if speed < 0.05 else f"{speed:.1f} s"
    size = m.font_size(13)
    drawing.draw_text(
        surface, "Speed", (inner.x, srect.centery), size, theme.TEXT_DIM, anchor="midleft"
    )
    drawing.draw_text(
        surface, label, (inner.right, srect.centery), size, theme.TEXT, anchor="midright"
    )


MOVE_ROWS = 6
"""The move list keeps at least this many lines, the analysis shown or not."""


def text_metrics(m: Metrics) -> Metrics:
    """The metrics the panel's text is drawn with: it grows with the window up to
    `theme.PANEL_TEXT_SCALE`, then a bigger window shows more instead of bigger."""
    return m.capped(theme.PANEL_TEXT_SCALE)


def move_list_height(pm: Metrics, lines: int) -> int:
    """The height of the MOVES heading and `lines` lines of the move list."""
    return move_list.heading_height(pm) + move_list.line_height(pm) * lines + 1


def analysis_wanted(model: PlayModel, m: Metrics, width: int) -> int:
    """The height that shows the whole analysis (its kit rows too) in the roomiest layout."""
    controller = model.controller
    pm = text_metrics(m)
    extra = model.kit_rows.get(controller, model.kit)
    record = shown_analysis(controller)
    if record is None:
        return analysis_panel.preferred_height(pm, len(extra))
    names = controller.colour_names()
    return analysis_panel.full_height(record, controller.game, pm, width, extra, names)


def sections(
    model: PlayModel, m: Metrics, top: int, bottom: int, width: int, extra_rows: int
) -> tuple[int, int]:
    """Heights of the analysis and the move list between `top` and `bottom`: the move list
    keeps `MOVE_ROWS` lines, the analysis takes what shows all its rows (no more) of the
    rest, the move list whatever is left.  (`extra_rows` is no longer needed: the kit's rows
    are measured.)"""
    keep = move_list_height(text_metrics(m), MOVE_ROWS) + m.gap
    height = max(0, min(analysis_wanted(model, m, width), bottom - top - keep))
    return height, max(0, bottom - top - height - m.gap)


def layout(model: PlayModel, screen: PlayScreen) -> tuple[pygame.Rect | None, pygame.Rect | None]:
    """Where the analysis (when shown) and the move list go (None: no room for it)."""
    controller = model.controller
    panel, m = screen.panel, screen.metrics
    inner = panel.inflate(-2 * m.gap, 0)
    y = screen.controls_bottom
    bottom = panel.bottom - m.gap
    analysis = None
    if controller.settings.show_analysis:
        height, _ = sections(model, m, y, bottom, inner.width, 0)
        analysis = pygame.Rect(inner.x, bottom - height, inner.width, height)
        bottom = analysis.y - m.gap
    history = pygame.Rect(inner.x, y, inner.width, bottom - y)
    if history.height < move_list_height(text_metrics(m), 1):
        return analysis, None  # no room for even one row of the move list
    return analysis, history


class PanelAreas(NamedTuple):
    """Where the panel drew its analysis and its move list, and how many analysis rows it
    had no room for (then pointing at the analysis shows them all)."""

    analysis: pygame.Rect | None
    history: pygame.Rect | None
    analysis_hidden: int


def draw(surface: pygame.Surface, model: PlayModel, screen: PlayScreen) -> PanelAreas:
    """The whole panel: frame, players, AI-vs-AI labels, analysis and history."""
    controller = model.controller
    panel, m = screen.panel, screen.metrics
    pm = text_metrics(m)
    drawing.shadow(surface, panel, m.radius, spread=m.px(16))
    drawing.rounded_rect(surface, panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
    inner = panel.inflate(-2 * m.gap, 0)
    draw_players(surface, model, screen)
    if screen.speed_slider is not None:
        draw_speed(surface, inner, m, screen.speed_slider, controller.settings.speed)
    analysis, history = layout(model, screen)
    hidden = 0
    if analysis is not None:
        hidden = analysis_panel.draw(
            surface,
            analysis,
            shown_analysis(controller),
            controller.game,
            pm,
            controller.colour_names(),
            thinking=controller.jobs.job is not None,
            extra=model.kit_rows.get(controller, model.kit),
        )
    if history is not None:
        browse_state = controller.browse
        move_list.draw(
            surface,
            history,
            pm,
            model.move_rows.get(controller, model.kit),
            bool(controller.game.stochastic),
            browse_state.scroll,
            highlighted_row(controller),
            controller.review.row_marks(),
        )
    return PanelAreas(analysis, history, hidden)


def pin_analysis(model: PlayModel) -> str | None:
    """V: all of the analysis over the buttons (the keyboard's way to what pointing shows);
    returns a notice to show when there is nothing more to show, else None."""
    if not model.analysis_hidden:
        return "All of the analysis is shown already"
    model.analysis_pinned = not model.analysis_pinned
    return None


def unpin_analysis(model: PlayModel, event: pygame.event.Event) -> bool:
    """Any other key, a click or the pointer moving puts the analysis back in its place
    (True when it did)."""
    if not model.analysis_pinned:
        return False
    other_key = event.type == pygame.KEYDOWN and event.key != pygame.K_v
    if other_key or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
        model.analysis_pinned = False
        return True
    return False


def expanded_rect(model: PlayModel, screen: PlayScreen) -> pygame.Rect | None:
    """Where the whole analysis shows while the pointer is over a panel too short for it, or
    after V (it grows upwards over the buttons), or None."""
    mouse = screen.mouse
    pinned = model.analysis_pinned
    if not model.analysis_hidden or (mouse is None and not pinned):
        return None
    m = screen.metrics
    panel = screen.panel
    analysis = layout(model, screen)[0]
    if analysis is None or not (pinned or (mouse is not None and analysis.collidepoint(mouse))):
        return None
    height = analysis_wanted(model, m, analysis.width)
    top = max(panel.y + m.gap, analysis.bottom - height)
    return pygame.Rect(analysis.x, top, analysis.width, analysis.bottom - top)


def draw_expanded(surface: pygame.Surface, model: PlayModel, screen: PlayScreen) -> None:
    """The whole analysis over the panel's widgets while the pointer is over it."""
    rect = expanded_rect(model, screen)
    if rect is None:
        return
    m = screen.metrics
    controller = model.controller
    drawing.shadow(surface, rect, m.px(10), spread=m.px(12))
    analysis_panel.draw(
        surface,
        rect,
        shown_analysis(controller),
        controller.game,
        text_metrics(m),
        controller.colour_names(),
        thinking=controller.jobs.job is not None,
        extra=model.kit_rows.get(controller, model.kit),
    )


def shown_analysis(controller: PlayController) -> Analysis | None:
    """The analysis the panel shows for the position on the board."""
    over = not controller.browse.browsing and controller.history.state.is_terminal()
    return as_analysis(controller.browse.shown_analysis(), live_entries(controller), over)


def live_entries(controller: PlayController) -> int | None:
    """The live match's length (None while browsing: a browsed record is never stale)."""
    return None if controller.browse.browsing else len(controller.history.entries)


def highlighted_row(controller: PlayController) -> int | None:
    """The move list's row of the browsed position (None: the live game, or the start)."""
    index = controller.browse.index
    if not index:
        return None
    return next(
        (row for row, end in enumerate(controller.history.row_ends()) if end >= index), None
    )
