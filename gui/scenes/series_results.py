"""Series results: the cross table of the games played in this window, as `tournament` prints it,
and each player's score with its 95% interval (drawn as a bar).  Esc or Back returns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.evaluation.wording import counted
from plyground.gui import theme
from plyground.gui.play.controller import PlayController
from plyground.gui.play.sides import game_title
from plyground.gui.scenes.base import Scene
from plyground.gui.widgets import drawing

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App


def cell_text(result: Any, i: int, j: int) -> tuple[str, theme.Colour]:
    """One cross-table cell: row player i's points / games against j, coloured by share."""
    if i == j:
        return "–", theme.TEXT_FAINT
    pair = result.pairs[(i, j)]
    if not pair.games:
        return "·", theme.TEXT_FAINT
    share = pair.points / pair.games
    colour = theme.SUCCESS if share > 0.5 else theme.DANGER if share < 0.5 else theme.TEXT
    return f"{pair.points:g} / {pair.games}", colour


class SeriesScene(Scene):
    """Shown over a play scene (which waits, paused, underneath)."""

    title = "series"

    def __init__(self, app: App, play: PlayController) -> None:
        """`play`: the play controller whose series this shows."""
        super().__init__(app)
        self.play = play
        self.back_button: Any = None

    def card_rect(self) -> pygame.Rect:
        """The results card, centred."""
        m = self.app.metrics
        w, h = self.app.size
        players = max(2, len(self.play.series.result().specs))
        content = (
            m.px(22)
            + round(m.font_size(26) * 1.45)
            + round(m.font_size(14) * 2.3)
            + round(m.font_size(12) * 3.8)
            + players * (round(m.font_size(15) * 1.9) + m.px(2))
            + m.px(18)
            + round(m.font_size(12) * 2.2)
            + players * round(m.font_size(15) * 2.1)
            + round(m.font_size(12) * 2.4)
            + round(m.font_size(15) * 2.8)
            + m.button_h
            + 2 * m.pad
        )
        card = pygame.Rect(0, 0, min(w - 2 * m.pad, m.px(880)), min(h - 2 * m.pad, content))
        card.center = (w // 2, h // 2)
        return card

    def build(self) -> None:
        """The Back button."""
        m = self.app.metrics
        card = self.card_rect()
        rect = pygame.Rect(0, 0, m.px(140), m.button_h)
        rect.bottomright = (card.right - m.pad, card.bottom - m.pad)
        self.back_button = self.add_back_button(rect)

    def keys_help(self) -> list[tuple[str, str]]:
        """The table's keys."""
        return [("Esc  Enter  T", "close the table, back to the game")]

    def handle(self, event: pygame.event.Event) -> bool:
        """Back, Esc, Enter or T close the table."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back_button:
            self.app.pop()
            return True
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_ESCAPE,
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
            pygame.K_t,
        ):
            self.app.pop()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Title, cross table, scores with interval bars, the head-to-head line."""
        m = self.app.metrics
        card = self.card_rect()
        drawing.shadow(surface, card, m.radius, spread=m.px(24), alpha=140)
        drawing.rounded_rect(surface, card, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
        x = card.x + m.pad
        width = card.width - 2 * m.pad
        y = card.y + m.px(22)
        series = self.play.series
        drawing.draw_text(
            surface,
            f"Series results · {game_title(self.play.game_name)}",
            (x, y),
            m.font_size(26),
            theme.TEXT,
            "bold",
        )
        y += round(m.font_size(26) * 1.45)
        count = len(series)
        drawing.draw_text(
            surface,
            f"{counted(count, 'game')} played in this window, "
            "counted by player (not by colour), as in a tournament",
            (x, y),
            m.font_size(14),
            theme.TEXT_DIM,
        )
        y += round(m.font_size(14) * 2.3)
        stopped = series.limit_draws(self.play.move_limit())
        if stopped is not None:
            y -= round(m.font_size(14) * 0.8)
            drawing.draw_text(surface, f"{stopped}.", (x, y), m.font_size(14), theme.TEXT_DIM)
            y += round(m.font_size(14) * 2.3)
        result = series.result()
        labels = [label for i, label in enumerate(result.specs) if result.games(i)]
        y = self.draw_cross_table(surface, result, labels, x, y, width)
        y += m.px(18)
        self.draw_scores(surface, series, x, y, width)

    def draw_cross_table(
        self, surface: pygame.Surface, result: Any, labels: list[str], x: int, y: int, width: int
    ) -> int:
        """Points of the row player against each column player; returns the bottom."""
        m = self.app.metrics
        small = m.font_size(12)
        size = m.font_size(15)
        drawing.draw_text(
            surface,
            "CROSS TABLE · POINTS OF THE ROW PLAYER / GAMES",
            (x, y),
            small,
            theme.TEXT_FAINT,
            "semibold",
        )
        y += round(small * 2)
        count = len(result.specs)
        cell_w = m.px(86)
        name_w = max(m.px(120), width - cell_w * (count + 1))
        row_h = round(size * 1.9)
        header_y = y
        for j in range(count):
            drawing.draw_text(
                surface,
                str(j + 1),
                (x + name_w + cell_w * j + cell_w // 2, header_y),
                small,
                theme.TEXT_FAINT,
                "semibold",
                anchor="midtop",
            )
        drawing.draw_text(
            surface,
            "total",
            (x + name_w + cell_w * count + cell_w // 2, header_y),
            small,
            theme.TEXT_FAINT,
            "semibold",
            anchor="midtop",
        )
        y += round(small * 1.8)
        for i, label in enumerate(result.specs):
            row = pygame.Rect(x, y, name_w + cell_w * (count + 1), row_h)
            if i % 2 == 0:
                drawing.rounded_rect(
                    surface, row, theme.mix(theme.PANEL, theme.PANEL_RAISED, 0.6), m.px(6)
                )
            name = drawing.ellipsize(f"{i + 1}. {label}", name_w - m.px(16), size, "semibold")
            drawing.draw_text(
                surface,
                name,
                (x + m.px(10), row.centery),
                size,
                theme.TEXT if label in labels else theme.TEXT_FAINT,
                "semibold",
                anchor="midleft",
            )
            for j in range(count):
                cx = x + name_w + cell_w * j + cell_w // 2
                text, colour = cell_text(result, i, j)
                drawing.draw_text(surface, text, (cx, row.centery), size, colour, anchor="center")
            total = f"{result.points(i):g} / {result.games(i)}"
            drawing.draw_text(
                surface,
                total,
                (x + name_w + cell_w * count + cell_w // 2, row.centery),
                size,
                theme.TEXT,
                "semibold",
                anchor="center",
            )
            y += row_h + m.px(2)
        return y

    def draw_scores(self, surface: pygame.Surface, series: Any, x: int, y: int, width: int) -> None:
        """Each player's score with its 95% Wilson interval as a bar on a 0-100% axis."""
        m = self.app.metrics
        small = m.font_size(12)
        size = m.font_size(15)
        drawing.draw_text(
            surface,
            "SCORE · WINS / DRAWS / LOSSES · 95% INTERVAL (WILSON)",
            (x, y),
            small,
            theme.TEXT_FAINT,
            "semibold",
        )
        y += round(small * 2.2)
        row_h = round(size * 2.1)
        name_w = round(width * 0.34)
        figures_w = round(width * 0.27)
        bar_x = x + name_w + figures_w
        bar_w = width - name_w - figures_w
        for line in series.lines():
            cy = y + row_h // 2
            drawing.draw_text(
                surface,
                drawing.ellipsize(line.label, name_w - m.px(12), size, "semibold"),
                (x, cy),
                size,
                theme.TEXT,
                "semibold",
                anchor="midleft",
            )
            figures = (
                f"{100 * line.score:.1f}%  ·  {line.wins}/{line.draws}/{line.losses}  ·  "
                f"{100 * line.low:.0f}–{100 * line.high:.0f}%"
            )
            drawing.draw_text(
                surface,
                drawing.ellipsize(figures, figures_w - m.px(10), m.font_size(14)),
                (x + name_w, cy),
                m.font_size(14),
                theme.TEXT_DIM,
                anchor="midleft",
            )
            track = pygame.Rect(bar_x, cy - m.px(3), bar_w, m.px(6))
            drawing.rounded_rect(surface, track, theme.HOLE, track.height // 2)
            middle = track.x + track.width // 2
            pygame.draw.line(
                surface, theme.TEXT_FAINT, (middle, cy - m.px(9)), (middle, cy + m.px(9)), 1
            )
            span = pygame.Rect(
                track.x + round(track.width * line.low),
                cy - m.px(5),
                max(m.px(4), round(track.width * (line.high - line.low))),
                m.px(10),
            )
            drawing.rounded_rect(surface, span, theme.mix(theme.ACCENT, theme.PANEL, 0.45), m.px(5))
            drawing.circle(surface, theme.ACCENT, (track.x + track.width * line.score, cy), m.px(6))
            y += row_h
        drawing.draw_text(
            surface,
            "0%",
            (bar_x, y),
            small,
            theme.TEXT_FAINT,
            anchor="topleft",
        )
        drawing.draw_text(
            surface, "50%", (bar_x + bar_w // 2, y), small, theme.TEXT_FAINT, anchor="midtop"
        )
        drawing.draw_text(
            surface, "100%", (bar_x + bar_w, y), small, theme.TEXT_FAINT, anchor="topright"
        )
        verdict = series.head_to_head()
        if verdict:
            m_y = y + round(small * 2.4)
            for i, text in enumerate(drawing.wrap(verdict, width - m.px(170), size)[:2]):
                drawing.draw_text(
                    surface, text, (x, m_y + i * round(size * 1.4)), size, theme.TEXT, "semibold"
                )
