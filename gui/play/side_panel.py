"""The side panel: players and score, the AI-vs-AI labels, the analysis and the move list."""

from __future__ import annotations

from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.kits.base import BoardView
from plyground.gui.play import analysis_panel, move_list
from plyground.gui.play.controller import PlayController
from plyground.gui.play.jobs import SearchRecord
from plyground.gui.widgets import drawing


def as_analysis(
    record: SearchRecord | None, entries: int | None = None
) -> analysis_panel.Analysis | None:
    """The controller's record of a search as the analysis panel's `Analysis`; advice searched
    when the match had other than `entries` entries is marked as for an earlier position."""
    if record is None:
        return None
    stale = record.source == "hint" and entries is not None and record.entries not in (-1, entries)
    return analysis_panel.Analysis(
        result=record.result,
        source=record.source,
        player=record.player,
        branching=record.branching,
        minimax_nodes=record.minimax_nodes,
        all_values=record.all_values,
        played=record.played,
        advice=record.advice,
        stale=stale,
        opponent=record.opponent,
    )


class KitRows:
    """The kit's extra analysis rows (`BoardView.analysis_rows`), worked out once per position."""

    def __init__(self) -> None:
        self.key: Any = None
        self.rows: list[tuple[str, str]] = []

    def get(self, controller: PlayController, view: BoardView) -> list[tuple[str, str]]:
        """The rows for the current position (empty for games without them)."""
        names = controller.colour_names()
        match = controller.match
        key = (view, controller.game, len(match.entries), match.state, names)
        if self.key != key:
            self.rows = view.analysis_rows(controller.game, match.initial, match.entries, names)
            self.key = key
        return self.rows


def draw_players(surface: pygame.Surface, panel: pygame.Rect, m: Any, scene: Any) -> None:
    """PLAYERS heading, the score, and each side's dot and name beside its role menu."""
    controller: PlayController = scene.controller
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
    for i, menu in enumerate(scene.role_menus):
        y = menu.relative_rect.centery
        active = not state.is_terminal() and state.player == i
        colour = theme.PLAYER_COLOURS[i]
        if active:
            drawing.glow(surface, colour, (inner.x + m.px(8), y), m.px(16), 80)
        drawing.circle(surface, colour, (inner.x + m.px(8), y), m.px(7))
        label_w = menu.relative_rect.x - inner.x - m.px(24)
        drawing.draw_text(
            surface,
            drawing.ellipsize(colours[i], label_w, m.font_size(15), "semibold"),
            (inner.x + m.px(22), y),
            m.font_size(15),
            theme.TEXT if active else theme.TEXT_DIM,
            "semibold",
            anchor="midleft",
        )


def draw_speed(surface: pygame.Surface, inner: pygame.Rect, m: Any, scene: Any) -> None:
    """The speed slider's labels (AI vs AI)."""
    srect = scene.speed_slider.relative_rect
    speed = scene.controller.settings.speed
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


def text_metrics(m: Any) -> Any:
    """The metrics the panel's text is drawn with: it grows with the window up to
    `theme.PANEL_TEXT_SCALE`, then a bigger window shows more instead of bigger."""
    return m.capped(theme.PANEL_TEXT_SCALE)


def move_list_height(pm: Any, lines: int) -> int:
    """The height of the MOVES heading and `lines` lines of the move list."""
    return move_list.heading_height(pm) + move_list.line_height(pm) * lines + 1


class MoveRows:
    """The move list's rows, in the kit's words where it has them (`BoardView.turn_text`:
    a dice game's turn log), worked out once per position."""

    def __init__(self) -> None:
        self.key: Any = None
        self.rows: list[tuple[int, str]] = []

    def get(self, controller: PlayController, view: BoardView) -> list[tuple[int, str]]:
        """(player, text) for each row of `controller.match.history_rows()`."""
        match = controller.match
        key = (view, controller.game, len(match.entries), match.state)
        if self.key == key:
            return self.rows
        rows, start = [], 0
        for (player, text), end in zip(match.history_rows(), match.row_ends(), strict=True):
            before = match.initial if start == 0 else match.entries[start - 1].state
            words = view.turn_text(controller.game, before, match.entries[start:end])
            rows.append((player, words or text))
            start = end
        self.key, self.rows = key, rows
        return rows


def analysis_wanted(scene: Any, width: int) -> int:
    """The height that shows the whole analysis (its kit rows too) in the roomiest layout."""
    controller: PlayController = scene.controller
    pm = text_metrics(scene.app.metrics)
    extra = scene.kit_rows.get(controller, scene.view)
    record = as_analysis(controller.shown_analysis(), live_entries(controller))
    if record is None:
        return analysis_panel.preferred_height(pm, len(extra))
    names = controller.colour_names()
    return analysis_panel.full_height(record, controller.game, pm, width, extra, names)


def sections(scene: Any, top: int, bottom: int, width: int, extra_rows: int) -> tuple[int, int]:
    """Heights of the analysis and the move list between `top` and `bottom`: the move list
    keeps `MOVE_ROWS` lines, the analysis takes what shows all its rows (no more) of the
    rest, the move list whatever is left.  (`extra_rows` is no longer needed: the kit's rows
    are measured.)"""
    m = scene.app.metrics
    keep = move_list_height(text_metrics(m), MOVE_ROWS) + m.gap
    height = max(0, min(analysis_wanted(scene, width), bottom - top - keep))
    return height, max(0, bottom - top - height - m.gap)


def layout(panel: pygame.Rect, m: Any, scene: Any) -> tuple[pygame.Rect | None, pygame.Rect | None]:
    """Where the analysis (when shown) and the move list go (None: no room for it)."""
    controller: PlayController = scene.controller
    inner = panel.inflate(-2 * m.gap, 0)
    y = scene.controls_bottom
    bottom = panel.bottom - m.gap
    analysis = None
    if controller.settings.show_analysis:
        height, _ = sections(scene, y, bottom, inner.width, 0)
        analysis = pygame.Rect(inner.x, bottom - height, inner.width, height)
        bottom = analysis.y - m.gap
    history = pygame.Rect(inner.x, y, inner.width, bottom - y)
    if history.height < move_list_height(text_metrics(m), 1):
        return analysis, None  # no room for even one row of the move list
    return analysis, history


def draw(surface: pygame.Surface, panel: pygame.Rect, m: Any, scene: Any) -> None:
    """The whole panel: frame, players, AI-vs-AI labels, analysis and history."""
    controller: PlayController = scene.controller
    pm = text_metrics(m)
    drawing.shadow(surface, panel, m.radius, spread=m.px(16))
    drawing.rounded_rect(surface, panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
    inner = panel.inflate(-2 * m.gap, 0)
    draw_players(surface, panel, m, scene)
    if scene.speed_slider is not None:
        draw_speed(surface, inner, m, scene)
    analysis, history = layout(panel, m, scene)
    scene.analysis_hidden = 0
    if analysis is not None:
        scene.analysis_hidden = analysis_panel.draw(
            surface,
            analysis,
            as_analysis(controller.shown_analysis(), live_entries(controller)),
            controller.game,
            pm,
            controller.colour_names(),
            thinking=controller.job is not None,
            extra=scene.kit_rows.get(controller, scene.view),
        )
    if history is not None:
        review_state = controller.review
        move_list.draw(
            surface,
            history,
            pm,
            scene.move_rows.get(controller, scene.view),
            bool(controller.game.stochastic),
            review_state.scroll,
            highlighted_row(controller),
            controller.row_marks(),
        )


def pin_analysis(scene: Any) -> None:
    """V: all of the analysis over the buttons (the keyboard's way to what pointing shows)."""
    if not scene.analysis_hidden:
        scene.set_notice(
            "All of the analysis is shown already" if scene.analysis_hidden == 0 else ""
        )
        return
    scene.analysis_pinned = not scene.analysis_pinned
    scene.app.request_frame()


def unpin_analysis(scene: Any, event: pygame.event.Event) -> None:
    """Any other key, a click or the pointer moving puts the analysis back in its place."""
    if not scene.analysis_pinned:
        return
    other_key = event.type == pygame.KEYDOWN and event.key != pygame.K_v
    if other_key or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
        scene.analysis_pinned = False
        scene.app.request_frame()


def expanded_rect(scene: Any) -> pygame.Rect | None:
    """Where the whole analysis shows while the pointer is over a panel too short for it, or
    after V (it grows upwards over the buttons), or None."""
    mouse = scene.app.mouse()
    pinned = getattr(scene, "analysis_pinned", False)
    if not getattr(scene, "analysis_hidden", 0) or (mouse is None and not pinned):
        return None
    m = scene.app.metrics
    panel = scene.panel_rect()
    analysis = layout(panel, m, scene)[0]
    if analysis is None or not (pinned or (mouse is not None and analysis.collidepoint(mouse))):
        return None
    height = analysis_wanted(scene, analysis.width)
    top = max(panel.y + m.gap, analysis.bottom - height)
    return pygame.Rect(analysis.x, top, analysis.width, analysis.bottom - top)


def draw_expanded(surface: pygame.Surface, scene: Any) -> None:
    """The whole analysis over the panel's widgets while the pointer is over it."""
    rect = expanded_rect(scene)
    if rect is None:
        return
    m = scene.app.metrics
    controller: PlayController = scene.controller
    drawing.shadow(surface, rect, m.px(10), spread=m.px(12))
    analysis_panel.draw(
        surface,
        rect,
        as_analysis(controller.shown_analysis(), live_entries(controller)),
        controller.game,
        text_metrics(m),
        controller.colour_names(),
        thinking=controller.job is not None,
        extra=scene.kit_rows.get(controller, scene.view),
    )


def live_entries(controller: PlayController) -> int | None:
    """The live match's length (None while reviewing: a reviewed record is never stale)."""
    return None if controller.reviewing else len(controller.match.entries)


def highlighted_row(controller: PlayController) -> int | None:
    """The move list's row of the reviewed position (None: the live game, or the start)."""
    index = controller.review.index
    if not index:
        return None
    return next((row for row, end in enumerate(controller.match.row_ends()) if end >= index), None)
