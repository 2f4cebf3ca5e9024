"""The menu: the three games as cards with a drawn icon and one line each, and Quit."""

from __future__ import annotations

import contextlib
import math
from typing import Any

import pygame
import pygame_gui

from gui import drawing, savefile, theme
from gui.boards.connect4_view import draw_disc
from gui.boards.pig_view import draw_die
from gui.boards.tictactoe_view import draw_o, draw_x
from gui.safe_files import keep_aside
from gui.scenes.file_dialog import FileDialogScene

GAME_CARDS = (
    ("tictactoe", "Tic-tac-toe", "Three in a row on a 3x3 grid. Perfect play is a draw."),
    ("connect4", "Connect Four", "Drop discs, line up four. Deep search shines here."),
    ("pig", "Pig", "A dice race to 100: roll on, or hold before a 1 wipes you out."),
)


def draw_icon(surface: pygame.Surface, game: str, rect: pygame.Rect, now: float) -> None:
    """A small picture of each game."""
    cx, cy = rect.center
    s = min(rect.width, rect.height)
    if game == "tictactoe":
        cell = s / 3.4
        left, top = cx - cell * 1.5, cy - cell * 1.5
        for i in (1, 2):
            drawing.thick_line(
                surface,
                theme.PANEL_BORDER,
                (left + i * cell, top + 4),
                (left + i * cell, top + 3 * cell - 4),
                4,
            )
            drawing.thick_line(
                surface,
                theme.PANEL_BORDER,
                (left + 4, top + i * cell),
                (left + 3 * cell - 4, top + i * cell),
                4,
            )
        marks = {0: 0, 4: 0, 2: 1, 6: 1, 8: 0}
        for index, player in marks.items():
            r, c = divmod(index, 3)
            centre = (left + (c + 0.5) * cell, top + (r + 0.5) * cell)
            (draw_x if player == 0 else draw_o)(
                surface, centre, cell * 0.5, theme.PLAYER_COLOURS[player], 1.0, max(4, cell * 0.1)
            )
        drawing.thick_line(
            surface,
            theme.TEXT,
            (left + cell * 0.3, top + cell * 0.3),
            (left + cell * 2.7, top + cell * 2.7),
            3,
        )
    elif game == "connect4":
        cell = s / 4.6
        board = pygame.Rect(0, 0, round(cell * 4), round(cell * 3.3))
        board.center = (cx, round(cy + cell * 0.3))
        drawing.rounded_rect(surface, board, theme.BOARD_BLUE, round(cell * 0.3))
        pattern = ((0, 0, 1), (1, 0, 0), (1, 1, 0), (2, 0, 1), (3, 0, 0), (2, 1, 1), (1, 2, 1))
        for col in range(4):
            for row in range(3):
                centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.55) * cell)
                drawing.circle(surface, theme.HOLE, centre, cell * 0.36)
        for col, row, player in pattern:
            centre = (board.x + (col + 0.5) * cell, board.bottom - (row + 0.55) * cell)
            draw_disc(surface, centre, cell * 0.36, player)
        bob = math.sin(now * 2.2) * cell * 0.12
        draw_disc(surface, (board.x + 2.5 * cell, board.y - cell * 0.55 + bob), cell * 0.36, 0)
    else:
        die = pygame.Rect(0, 0, round(s * 0.42), round(s * 0.42))
        die.center = (round(cx - s * 0.12), round(cy - s * 0.1))
        draw_die(surface, die, 5, tilt=math.sin(now * 1.7) * 8)
        track = pygame.Rect(0, 0, round(s * 0.9), max(4, round(s * 0.05)))
        track.center = (cx, round(cy + s * 0.3))
        drawing.rounded_rect(surface, track, theme.HOLE, track.height // 2)
        for player, share in ((0, 0.62), (1, 0.38)):
            x = track.x + track.width * share
            drawing.circle(
                surface,
                theme.PLAYER_COLOURS[player],
                (x, track.centery + (player * 2 - 1) * s * 0.04),
                s * 0.05,
            )
        drawing.circle(surface, theme.TEXT_DIM, (track.right, track.centery), s * 0.03)


class MenuScene(FileDialogScene):
    """Pick a game; the cards react to the mouse, keys 1-3 pick one, Esc quits."""

    title = "menu"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.hover_lift = [0.0, 0.0, 0.0]
        self.quit_button: pygame_gui.elements.UIButton | None = None
        self.open_button: pygame_gui.elements.UIButton | None = None
        self.resume_button: pygame_gui.elements.UIButton | None = None
        self.discard_button: pygame_gui.elements.UIButton | None = None
        self.file_dialog: Any = None
        self.resume: Any = None
        """The game in autosave.json (a checked SavedGame) offered for resuming, or None."""

    def enter(self) -> None:
        """Look for the last game in progress, then build."""
        self.resume = self.find_resumable()
        super().enter()

    def find_resumable(self) -> Any:
        """The autosaved game, if there is a good one; a bad one is set aside (said once)."""
        if not getattr(self.app, "autosave_enabled", False):
            return None
        path = savefile.autosave_path()
        if not path.exists() and not path.is_symlink():
            return None
        try:
            saved = savefile.load_game(path)
        except savefile.SaveError as error:
            kept = keep_aside(path)
            why = str(error).split(": ", 1)[-1]
            self.app.toast(
                f"Your last game could not be restored ({why}){kept}.", theme.WARNING, seconds=9
            )
            return None
        if saved.state.is_terminal() or not saved.moves:
            return None
        return saved

    def resume_text(self) -> str:
        """'Connect Four · Human vs AI · Hard · 12 moves'."""
        saved = self.resume
        if saved is None:
            return ""
        title = dict((g, n) for g, n, _ in GAME_CARDS).get(saved.game_name, saved.game_name)
        if saved.game_name == "pig":
            title += f" to {saved.game.goal}"
        moves = saved.decisions
        return f"{title} · {saved.describe_players()} · {moves} move{'s' if moves != 1 else ''}"

    def resume_rect(self) -> pygame.Rect:
        """The 'Resume last game' bar above the bottom buttons."""
        m = self.app.metrics
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(w - 2 * m.pad, m.px(860)), m.button_h + 2 * m.px(12))
        rect.midbottom = (w // 2, h - m.pad - m.button_h - m.gap)
        return rect

    def do_resume(self) -> None:
        """Go on with the autosaved game."""
        from gui.scenes.play import open_saved

        saved, self.resume = self.resume, None
        if saved is not None:
            play = open_saved(self.app, saved)
            play.set_notice(f"Resumed · {saved.decisions} moves replayed", 3.0)

    def discard(self) -> None:
        """Forget the autosaved game."""
        self.resume = None
        with contextlib.suppress(OSError):
            savefile.autosave_path().unlink(missing_ok=True)
        self.clear()
        self.build()

    def card_rects(self) -> list[pygame.Rect]:
        """Where the three cards go: a row when the window is wide enough, else a column."""
        m = self.app.metrics
        w, h = self.app.size
        top = round(h * 0.27)
        bottom_space = m.button_h + m.pad * 2
        if self.resume is not None:
            bottom_space += self.resume_rect().height + m.gap
        if w >= 980:
            card_w = min(m.px(330), (w - 2 * m.pad - 2 * m.gap * 2) // 3)
            card_h = min(m.px(400), h - top - bottom_space)
            total = card_w * 3 + m.gap * 2 * 2
            left = (w - total) // 2
            return [
                pygame.Rect(left + i * (card_w + m.gap * 2), top, card_w, card_h) for i in range(3)
            ]
        card_w = min(w - 2 * m.pad, m.px(620))
        card_h = (h - top - bottom_space - 2 * m.gap) // 3
        left = (w - card_w) // 2
        return [pygame.Rect(left, top + i * (card_h + m.gap), card_w, card_h) for i in range(3)]

    def build(self) -> None:
        """Open a saved game, Quit, and the resume bar when there is a game to resume."""
        m = self.app.metrics
        w, h = self.app.size
        self.file_dialog = None
        button_w = m.px(190)
        rect = pygame.Rect(0, 0, button_w, m.button_h)
        rect.bottomright = (w // 2 - m.gap // 2, h - m.pad)
        self.open_button = self.add(
            pygame_gui.elements.UIButton(
                rect,
                "Open saved game…",
                self.manager,
                object_id="#quiet",
                tool_tip_text="Ctrl+O",
            )
        )
        rect = pygame.Rect(0, 0, button_w, m.button_h)
        rect.bottomleft = (w // 2 + m.gap // 2, h - m.pad)
        self.quit_button = self.add(
            pygame_gui.elements.UIButton(rect, "Quit", self.manager, object_id="#quiet")
        )
        self.resume_button = self.discard_button = None
        if self.resume is not None:
            bar = self.resume_rect()
            discard = pygame.Rect(0, 0, m.px(110), m.button_h)
            discard.midright = (bar.right - m.px(12), bar.centery)
            resume = pygame.Rect(0, 0, m.px(130), m.button_h)
            resume.midright = (discard.x - m.px(8), bar.centery)
            self.resume_button = self.add(
                pygame_gui.elements.UIButton(
                    resume, "Resume", self.manager, object_id="#primary", tool_tip_text="R"
                )
            )
            self.discard_button = self.add(
                pygame_gui.elements.UIButton(
                    discard,
                    "Discard",
                    self.manager,
                    tool_tip_text="Forget this game",
                )
            )

    def open_game(self, game: str) -> None:
        """Go to the set-up of `game`."""
        from gui.scenes.setup import SetupScene

        self.app.settings.last_game = game
        self.app.push(SetupScene(self.app, game))

    def handle(self, event: pygame.event.Event) -> bool:
        """Card clicks, keys 1-3, Resume (R), Open (Ctrl+O), Quit and Esc."""
        if self.handle_file_dialog(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.quit_button:
                self.app.quit()
                return True
            if event.ui_element is self.open_button:
                self.open_file_dialog()
                return True
            if event.ui_element is self.resume_button:
                self.do_resume()
                return True
            if event.ui_element is self.discard_button:
                self.discard()
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for (game, _, _), rect in zip(GAME_CARDS, self.card_rects(), strict=False):
                if rect.collidepoint(event.pos):
                    self.open_game(game)
                    return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.quit()
                return True
            if event.key == pygame.K_o and event.mod & pygame.KMOD_CTRL:
                self.open_file_dialog()
                return True
            if event.key == pygame.K_r and self.resume is not None:
                self.do_resume()
                return True
            if event.unicode in ("1", "2", "3"):
                self.open_game(GAME_CARDS[int(event.unicode) - 1][0])
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.open_game(self.app.settings.last_game)
                return True
        return False

    def update(self, dt: float) -> None:
        """Ease the hovered card up."""
        mouse = self.app.mouse()
        for i, rect in enumerate(self.card_rects()):
            target = 1.0 if mouse and rect.collidepoint(mouse) else 0.0
            self.hover_lift[i] += (target - self.hover_lift[i]) * (1 - math.exp(-dt * 14))

    def draw(self, surface: pygame.Surface) -> None:
        """Title, cards with icons, and the footer."""
        m = self.app.metrics
        w, h = self.app.size
        title_size = m.font_size(64)
        title_y = round(h * 0.08)
        drawing.glow(surface, theme.ACCENT_SOFT, (w / 2, title_y + title_size * 0.6), m.px(260), 55)
        drawing.draw_text(
            surface, "Plyground", (w / 2, title_y), title_size, theme.TEXT, "bold", anchor="midtop"
        )
        drawing.draw_text(
            surface,
            "Play classic games against a thinking machine, and watch how it thinks.",
            (w / 2, title_y + title_size * 1.25),
            m.font_size(17),
            theme.TEXT_DIM,
            anchor="midtop",
        )
        wide = w >= 980
        for i, ((game, name, line), rect) in enumerate(
            zip(GAME_CARDS, self.card_rects(), strict=False)
        ):
            lift = self.hover_lift[i]
            card = rect.move(0, -round(lift * m.px(6)))
            drawing.shadow(surface, card, m.radius, spread=m.px(18), alpha=round(90 + 60 * lift))
            border = theme.mix(theme.PANEL_BORDER, theme.ACCENT, lift)
            drawing.rounded_rect(
                surface,
                card,
                theme.mix(theme.PANEL, theme.PANEL_RAISED, lift),
                m.radius,
                1 + round(lift),
                border,
            )
            if wide:
                icon = pygame.Rect(0, 0, card.width - 2 * m.pad, round(card.height * 0.52))
                icon.midtop = (card.centerx, card.y + m.pad)
                draw_icon(surface, game, icon, self.app.now)
                text_y = icon.bottom + m.gap
                drawing.draw_text(
                    surface, name, (card.x + m.pad, text_y), m.font_size(24), theme.TEXT, "bold"
                )
                lines = drawing.wrap(line, card.width - 2 * m.pad, m.font_size(15))
                for j, text in enumerate(lines[:3]):
                    drawing.draw_text(
                        surface,
                        text,
                        (
                            card.x + m.pad,
                            text_y + m.font_size(24) * 1.5 + j * m.font_size(15) * 1.45,
                        ),
                        m.font_size(15),
                        theme.TEXT_DIM,
                    )
                cue = theme.mix(theme.TEXT_DIM, theme.ACCENT, lift)
                drawing.draw_text(
                    surface,
                    "Play  →",
                    (card.x + m.pad, card.bottom - m.px(18)),
                    m.font_size(15),
                    cue,
                    "semibold",
                    anchor="bottomleft",
                )
                drawing.draw_text(
                    surface,
                    f"key {i + 1}",
                    (card.right - m.pad, card.bottom - m.px(18)),
                    m.font_size(13),
                    theme.TEXT_FAINT,
                    anchor="bottomright",
                )
            else:
                icon = pygame.Rect(
                    card.x + m.gap, card.y + m.gap, card.height - 2 * m.gap, card.height - 2 * m.gap
                )
                draw_icon(surface, game, icon, self.app.now)
                text_x = icon.right + m.pad
                name_size = m.font_size(22)
                drawing.draw_text(
                    surface,
                    name,
                    (text_x, card.centery - name_size * 0.2),
                    name_size,
                    theme.TEXT,
                    "bold",
                    anchor="bottomleft",
                )
                lines = drawing.wrap(line, card.right - text_x - m.pad, m.font_size(14))
                for j, text in enumerate(lines[:2]):
                    drawing.draw_text(
                        surface,
                        text,
                        (text_x, card.centery + j * m.font_size(14) * 1.4 + m.px(4)),
                        m.font_size(14),
                        theme.TEXT_DIM,
                    )
        if self.resume is not None:
            self.draw_resume(surface)
        drawing.draw_text(
            surface,
            "F1 or ? shows the keys",
            (m.pad, h - m.pad),
            m.font_size(13),
            theme.TEXT_FAINT,
            anchor="bottomleft",
        )

    def draw_resume(self, surface: pygame.Surface) -> None:
        """The bar offering the last game in progress."""
        m = self.app.metrics
        bar = self.resume_rect()
        drawing.shadow(surface, bar, m.radius, spread=m.px(14), alpha=110)
        drawing.rounded_rect(
            surface,
            bar,
            theme.mix(theme.PANEL, theme.ACCENT, 0.10),
            m.radius,
            1,
            theme.mix(theme.PANEL_BORDER, theme.ACCENT, 0.6),
        )
        left = bar.x + m.px(18)
        right = (self.resume_button.relative_rect.x if self.resume_button else bar.right) - m.gap
        drawing.draw_text(
            surface,
            "Resume last game",
            (left, bar.centery - m.px(2)),
            m.font_size(16),
            theme.TEXT,
            "bold",
            anchor="bottomleft",
        )
        detail = drawing.ellipsize(self.resume_text(), round(right - left), m.font_size(14))
        drawing.draw_text(
            surface,
            detail,
            (left, bar.centery + m.px(2)),
            m.font_size(14),
            theme.TEXT_DIM,
            anchor="topleft",
        )
