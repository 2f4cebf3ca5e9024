"""The side panel: players and score, the AI-vs-AI labels, the analysis and the move list."""

from __future__ import annotations

from typing import Any

import pygame
from plyground.gui import analysis_panel, drawing, theme
from plyground.gui.kits.base import BoardView
from plyground.gui.play import move_list
from plyground.gui.play.controller import PlayController
from plyground.gui.play.jobs import SearchRecord


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


def sections(scene: Any, top: int, bottom: int, width: int, extra_rows: int) -> tuple[int, int]:
    """Heights of the analysis and the move list between `top` and `bottom`: the analysis
    takes what shows all its rows (no more), the move list the rest."""
    controller: PlayController = scene.controller
    m = scene.app.metrics
    record = as_analysis(controller.shown_analysis(), live_entries(controller))
    wanted = analysis_panel.content_height(record, controller.game, m, width, extra_rows)
    height = min(wanted, bottom - top)
    return height, max(0, bottom - top - height - m.gap)


def layout(panel: pygame.Rect, m: Any, scene: Any) -> tuple[pygame.Rect | None, pygame.Rect | None]:
    """Where the analysis (when shown) and the move list go (None: no room for it)."""
    controller: PlayController = scene.controller
    inner = panel.inflate(-2 * m.gap, 0)
    y = scene.controls_bottom
    bottom = panel.bottom - m.gap
    analysis = None
    if controller.settings.show_analysis:
        extra = scene.kit_rows.get(controller, scene.view)
        height, _ = sections(scene, y, bottom, inner.width, len(extra))
        analysis = pygame.Rect(inner.x, bottom - height, inner.width, height)
        bottom = analysis.y - m.gap
    history = pygame.Rect(inner.x, y, inner.width, bottom - y)
    if history.height < round(m.font_size(12) * 1.8 + m.font_size(14) * 1.5):
        return analysis, None  # no room for even one row of the move list
    return analysis, history


def draw(surface: pygame.Surface, panel: pygame.Rect, m: Any, scene: Any) -> None:
    """The whole panel: frame, players, AI-vs-AI labels, analysis and history."""
    controller: PlayController = scene.controller
    drawing.shadow(surface, panel, m.radius, spread=m.px(16))
    drawing.rounded_rect(surface, panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
    inner = panel.inflate(-2 * m.gap, 0)
    draw_players(surface, panel, m, scene)
    if scene.speed_slider is not None:
        draw_speed(surface, inner, m, scene)
    analysis, history = layout(panel, m, scene)
    if analysis is not None:
        analysis_panel.draw(
            surface,
            analysis,
            as_analysis(controller.shown_analysis(), live_entries(controller)),
            controller.game,
            m,
            controller.colour_names(),
            thinking=controller.job is not None,
            extra=scene.kit_rows.get(controller, scene.view),
        )
    if history is not None:
        rows = controller.match.history_rows()
        review = controller.review
        move_list.draw(
            surface,
            history,
            m,
            rows,
            bool(controller.game.stochastic),
            review.scroll,
            highlighted_row(controller),
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
