"""The menu: every registered game as a card with its kit's icon and one line, and Quit.

The cards stand in a row of tall cards while they fit, else in a grid of flat ones, and on
pages (PgUp, PgDn, ‹ Previous, Next ›) where even the grid cannot hold every game
(`arrange`)."""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground import games
from plyground.ai.evaluation.wording import counted
from plyground.games.from_file.loading import file_label
from plyground.gui import kits, theme
from plyground.gui.kits import game_files
from plyground.gui.kits.file_game import FileGameView
from plyground.gui.play import status_line
from plyground.gui.scenes.file_dialog import FileDialogScene
from plyground.gui.storage import savefile, settings
from plyground.gui.storage.safe_files import keep_aside
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing, focus

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App

Card = tuple[str, str, str]
"""(game name, title, one line) for a menu card."""
SETTLED = 0.002
"""A card's lift this close to its target has arrived (and the menu rests)."""


TALL_SMALLEST = (210, 270)
"""A tall card's least width and height (design pixels): its icon, title, three lines of
its blurb, 'Play' and its key."""
TALL_LARGEST = (330, 400)
FLAT_SMALLEST = (330, 84)
"""A flat card's least width and height: an icon on the left, the title and two lines."""
FLAT_LARGEST = (620, 130)
SMALLEST_TEXT = 12
"""The smallest text size a card's blurb is drawn in."""
TALL_WIDTH = 980
"""Tall cards only in a window at least this wide (a narrower one reads better in rows)."""


@dataclass(frozen=True)
class CardLayout:
    """The cards of one page and where they go, and the pager's place when there are pages."""

    tall: bool
    """Tall cards (icon on top) or flat ones (icon on the left)."""
    first: int
    """The index of the page's first card."""
    rects: tuple[pygame.Rect, ...]
    """The page's cards, in order from `first`."""
    page: int
    pages: int
    pager: pygame.Rect | None
    """The row under the cards for the page buttons (None on a single page)."""

    def shown(self) -> range:
        """The indices of the cards on this page."""
        return range(self.first, self.first + len(self.rects))


def flat_text_height(m: Metrics) -> int:
    """The height a flat card's text needs at the least: its title and two lines of its
    blurb in the smallest text (text shrinks less than the cards do)."""
    return 2 * m.px(6) + round(m.font_size(22) * 1.35) + 2 * round(SMALLEST_TEXT * 1.4)


def _fitting(room: int, smallest: int, gap: int) -> int:
    """How many things at least `smallest` wide fit in `room` with `gap` between them."""
    return max(1, (room + gap) // (smallest + gap))


def arrange(count: int, area: pygame.Rect, m: Metrics, page: int = 0) -> CardLayout:
    """The layout of `count` cards in `area` (under the title, above the buttons) on `page`
    (clamped to the pages there are): one row of tall cards where the window is wide and
    they fit, else a grid of flat cards as big as the room allows, paged where even the
    smallest do not all fit."""
    gap = m.gap
    tall_gap = m.gap * 2
    tall_w, tall_h = (m.px(v) for v in TALL_SMALLEST)
    if (
        m.width >= TALL_WIDTH
        and 0 < count <= _fitting(area.width, tall_w, tall_gap)
        and area.height >= tall_h
    ):
        width = min(m.px(TALL_LARGEST[0]), (area.width - tall_gap * (count - 1)) // count)
        height = min(m.px(TALL_LARGEST[1]), area.height)
        rects = _rows(count, count, width, height, tall_gap, gap, area)
        return CardLayout(True, 0, rects, 0, 1, None)
    flat_w = m.px(FLAT_SMALLEST[0])
    flat_h = max(m.px(FLAT_SMALLEST[1]), flat_text_height(m))
    columns = _fitting(area.width, flat_w, gap)
    rows = _fitting(area.height, flat_h, gap)
    pages = 1
    pager: pygame.Rect | None = None
    if count > columns * rows:  # pages, with the pager's row under the cards
        pager_h = m.button_h + gap
        pager = pygame.Rect(area.x, area.bottom - m.button_h, area.width, m.button_h)
        area = pygame.Rect(area.x, area.y, area.width, area.height - pager_h)
        rows = _fitting(area.height, flat_h, gap)
        pages = math.ceil(count / (columns * rows))
    else:  # as few columns as the rows allow (wide cards read best), as even as can be
        columns = next(c for c in range(1, columns + 1) if math.ceil(count / c) <= rows)
        rows = max(1, math.ceil(count / columns))
        columns = max(1, math.ceil(count / rows))
    page = max(0, min(page, pages - 1))
    per_page = columns * rows
    first = page * per_page
    on_page = max(0, min(per_page, count - first))
    width = min(m.px(FLAT_LARGEST[0]), (area.width - gap * (columns - 1)) // columns)
    height = min(m.px(FLAT_LARGEST[1]), (area.height - gap * (rows - 1)) // rows)
    if pager is None:  # one page: the block in the middle of the room
        spare = area.height - (height * rows + gap * (rows - 1))
        area = area.move(0, spare // 2)
    rects = _rows(on_page, columns, width, height, gap, gap, area)
    return CardLayout(False, first, rects, page, pages, pager)


def _rows(
    count: int, columns: int, width: int, height: int, gap_x: int, gap_y: int, area: pygame.Rect
) -> tuple[pygame.Rect, ...]:
    """`count` cards row by row, `columns` a row, each row centred, from the top of `area`."""
    found = []
    for i in range(count):
        row, column = divmod(i, columns)
        in_row = min(columns, count - row * columns)
        left = area.x + (area.width - (width * in_row + gap_x * (in_row - 1))) // 2
        x, y = left + column * (width + gap_x), area.y + row * (height + gap_y)
        found.append(pygame.Rect(x, y, width, height))
    return tuple(found)


def game_cards(recent: list[dict[str, str]] | None = None) -> list[Card]:
    """A card for every built-in game that has a kit, in registration order, then one for
    each game opened recently from a file (`recent`: the settings' list, newest first)."""
    cards: list[Card] = [
        (name, str(factory.title), kits.KITS[name]().blurb)  # type: ignore[attr-defined]
        for name, factory in games.GAMES.items()
        if name in kits.KITS and not games.is_from_file(name)
    ]
    for entry in recent or []:
        path = game_files.file_of(entry["name"])
        where = file_label(path) if path is not None else entry["name"].partition(":")[0]
        cards.append((entry["name"], entry["title"], f"Your game, from {where}"))
    return cards


def fitting_size(text: str, width: int, size: int, smallest: int = 12) -> int:
    """The largest bold font size up to `size` at which `text` fits in `width`."""
    while size > smallest and theme.font(size, "bold").size(text)[0] > width:
        size -= 1
    return size


class MenuScene(FileDialogScene):
    """Pick a game; the cards react to the mouse, keys 1-9 pick one, Esc quits."""

    title = "menu"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.opener = game_files.GameOpener()
        self.dialog_due = ""
        """A file dialog to open once this frame's events are handled (a key opened it)."""
        self.set_cards()
        self.quit_button: pygame_gui.elements.UIButton | None = None
        self.open_button: pygame_gui.elements.UIButton | None = None
        self.game_button: pygame_gui.elements.UIButton | None = None
        self.resume_button: pygame_gui.elements.UIButton | None = None
        self.discard_button: pygame_gui.elements.UIButton | None = None
        self.lessons_button: pygame_gui.elements.UIButton | None = None
        self.previous_button: pygame_gui.elements.UIButton | None = None
        self.next_button: pygame_gui.elements.UIButton | None = None
        self.page = 0
        """The page of cards shown, where they do not all fit (PgUp, PgDn)."""
        self.file_dialog: Any = None
        self.focus = focus.Focus()
        self.resume: Any = None
        """The game in autosave.json (a checked SavedGame) offered for resuming, or None."""

    def set_cards(self) -> None:
        """The built-in games' cards and the recent games' from files."""
        self.cards = game_cards(self.app.settings.recent_games)
        self.hover_lift = [0.0] * len(self.cards)
        self.icon_time = {name: 0.0 for name, _, _ in self.cards}
        """Each card's icon clock: it runs while the card is hovered, so a menu at rest is still."""
        self.kits = {
            name: kits.kit_for(name) if name in kits.KITS else FileGameView()
            for name, _, _ in self.cards
        }

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
        except Exception as error:  # whatever the file holds, the window starts
            kept = keep_aside(path)
            why = str(error).removeprefix(f"{path}: ")[:120]
            if not isinstance(error, savefile.SaveError):
                why = f"{type(error).__name__}: {why}"
            self.app.toast(
                f"Your last game could not be restored: {why}{kept}.", theme.WARNING, seconds=9
            )
            return None
        if saved.state.is_terminal() or not saved.moves:
            return None
        return saved

    def resume_text(self) -> str:
        """'<title> · Human vs AI · Hard · 12 moves' (options after the title)."""
        saved = self.resume
        if saved is None:
            return ""
        factory = games.GAMES.get(saved.game_name)
        title = str(getattr(factory, "title", saved.game_name))
        for option in getattr(factory, "options", ()):
            value = saved.game.option_values().get(option.name, option.default)
            title += f" · {option.title.lower()} {value}"
        moves = saved.decisions
        return f"{title} · {saved.describe_players()} · {counted(moves, 'move')}"

    def resume_rect(self) -> pygame.Rect:
        """The 'Resume last game' bar above the bottom buttons."""
        m = self.app.metrics
        w, h = self.app.size
        rect = pygame.Rect(0, 0, min(w - 2 * m.pad, m.px(860)), m.button_h + 2 * m.px(12))
        rect.midbottom = (w // 2, h - m.pad - m.button_h - m.gap)
        return rect

    def do_resume(self) -> None:
        """Go on with the autosaved game."""
        saved, self.resume = self.resume, None
        if saved is not None:
            play: Any = self.app.open_saved(saved)  # the play scene
            turn = status_line.whose_turn(play.controller)
            play.set_notice(f"Resumed · {counted(saved.decisions, 'move')} replayed · {turn}", 4.0)

    def discard(self) -> None:
        """Forget the autosaved game."""
        self.resume = None
        with contextlib.suppress(OSError):
            savefile.autosave_path().unlink(missing_ok=True)
        self.clear()
        self.build()

    def card_layout(self) -> CardLayout:
        """Where the cards go (`menu_layout.arrange`): between the title and the buttons (and
        the resume bar), on the page shown."""
        m = self.app.metrics
        w, h = self.app.size
        top = round(h * 0.27)
        bottom_space = m.button_h + m.pad * 2
        if self.resume is not None:
            bottom_space += self.resume_rect().height + m.gap
        area = pygame.Rect(m.pad, top, w - 2 * m.pad, h - top - bottom_space)
        return arrange(len(self.cards), area, m, self.page)

    def card_rects(self) -> list[pygame.Rect]:
        """Where the cards of the page shown go, in order from its first card."""
        return list(self.card_layout().rects)

    def shown_cards(self) -> list[tuple[int, Card, pygame.Rect]]:
        """The cards of the page shown: (index, card, where)."""
        layout = self.card_layout()
        shown = zip(layout.shown(), layout.rects, strict=True)
        return [(i, self.cards[i], rect) for i, rect in shown]

    def wide(self) -> bool:
        """Tall cards side by side (True) or flat cards with the icon on the left."""
        return self.card_layout().tall

    def turn_page(self, step: int) -> bool:
        """Show the next (1) or the previous (-1) page of cards, if there is one."""
        layout = self.card_layout()
        page = max(0, min(layout.pages - 1, layout.page + step))
        if page == layout.page:
            return False
        self.page = page
        self.focus.key = None
        self.clear()
        self.build()
        return True

    def build(self) -> None:
        """Open a saved game, Quit, and the resume bar when there is a game to resume."""
        m = self.app.metrics
        w, h = self.app.size
        self.file_dialog = None
        button_w = m.px(190)
        rect = pygame.Rect(0, 0, button_w, m.button_h)
        rect.bottomright = (w // 2 - m.gap // 2 - button_w - m.gap, h - m.pad)
        self.game_button = self.add(
            pygame_gui.elements.UIButton(
                rect,
                "Open a game…",
                self.manager,
                object_id="#quiet",
                tool_tip_text="A game of yours from a Python file (G)",
            )
        )
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
        self.build_lessons()
        self.build_pager()
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

    def build_pager(self) -> None:
        """'‹ Previous' and 'Next ›' under the cards, where they take more than one page."""
        self.previous_button = self.next_button = None
        layout = self.card_layout()
        if layout.pager is None:
            return
        m = self.app.metrics
        row = layout.pager
        label = self.page_label(layout)
        half = drawing.text_size(label, m.font_size(14))[0] // 2 + m.gap
        width = m.px(130)
        previous = pygame.Rect(0, 0, width, m.button_h)
        previous.midright = (row.centerx - half, row.centery)
        following = pygame.Rect(0, 0, width, m.button_h)
        following.midleft = (row.centerx + half, row.centery)
        self.previous_button = self.add(
            pygame_gui.elements.UIButton(
                previous, "‹ Previous", self.manager, object_id="#quiet", tool_tip_text="PgUp"
            )
        )
        self.next_button = self.add(
            pygame_gui.elements.UIButton(
                following, "Next ›", self.manager, object_id="#quiet", tool_tip_text="PgDn"
            )
        )
        if layout.page == 0:
            self.previous_button.disable()
        if layout.page == layout.pages - 1:
            self.next_button.disable()

    def page_label(self, layout: CardLayout) -> str:
        """'Games 1-6 of 8' between the page buttons ('Game 9 of 9' for one)."""
        shown = layout.shown()
        if len(shown) == 1:
            return f"Game {shown.start + 1} of {len(self.cards)}"
        return f"Games {shown.start + 1}-{shown.stop} of {len(self.cards)}"

    def build_lessons(self) -> None:
        """The "Lessons" button, bottom right: the textbook trees in the explorer."""
        m = self.app.metrics
        w, h = self.app.size
        rect = pygame.Rect(0, 0, m.px(150), m.button_h)
        rect.bottomright = (w - m.pad, h - m.pad)
        self.lessons_button = self.add(
            pygame_gui.elements.UIButton(
                rect,
                "Lessons",
                self.manager,
                object_id="#quiet",
                tool_tip_text="Minimax, alpha-beta and chance nodes on the textbook trees (L)",
            )
        )

    def open_lessons(self) -> None:
        """The textbook lessons in the search-tree explorer."""
        self.app.switch("lessons")

    def open_game(self, game: str) -> None:
        """Go to the set-up of `game` (a recent game from a file is loaded first)."""
        if game not in games.GAMES:
            self.open_game_file(game)
            return
        self.app.settings.last_game = game
        self.app.switch("setup", game_name=game)

    def open_game_file(self, path: Any) -> None:
        """Load a game from a file (checked in a process of its own), then its set-up."""
        if self.opener.busy:
            return
        spec = str(path)
        where = game_files.file_of(spec) or Path(spec)
        if where.suffix == ".py" and not where.is_file():
            game_files.forget(self.app.settings, spec)
            self.set_cards()
            self.clear()
            self.build()
            self.app.toast(
                f"{where.name}: the file is not there any more.", theme.WARNING, seconds=6
            )
            return
        self.app.toast(
            f"Opening {where.name}… (a game file runs with your rights, like a script you run)",
            theme.ACCENT,
            seconds=4,
        )
        self.opener.start(spec)

    def opened(self, outcome: game_files.Opened) -> None:
        """A game file has been checked and loaded (or not: its one line)."""
        if outcome.error:
            self.app.toast(f"Cannot open the game: {outcome.error}", theme.DANGER, seconds=10)
            return
        game_files.remember(self.app.settings, outcome.name, outcome.title)
        where = game_files.file_of(outcome.name)
        if where is not None:
            settings.note_games_folder(where.parent)
        self.set_cards()
        self.open_game(outcome.name)

    def focus_items(self) -> list[focus.Item]:
        """What the arrows move between: the cards, then the buttons on screen."""
        items: list[focus.Item] = [
            (("card", name), rect, None) for _, (name, _, _), rect in self.shown_cards()
        ]
        for name in ("previous", "next", "resume", "discard", "game", "open", "quit", "lessons"):
            button = getattr(self, f"{name}_button")
            if button is not None:
                items.append((("button", name), button.rect, button))
        return items

    def on_focus_key(self, key: int) -> bool:
        """Arrows move the focus; Enter or Space opens the focused card or presses the button."""
        if key not in focus.ARROWS and (key not in focus.USE_KEYS or self.focus.key is None):
            return False
        item = self.focus.on_key(key, self.focus_items())
        if item is not None and item[2] is not None:
            focus.press(item[2])
        elif item is not None:
            self.open_game(item[0][1])
        return True

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The keyboard focus ring, over the buttons (a focused card is lifted as if hovered);
        with a file dialog up, only its line."""
        if self.file_dialog is not None:
            self.draw_file_dialog_line(surface)
            return
        names = [name for name, _, _ in self.cards]
        for rect in self.focus.ring_rects(self.focus_items()):
            kind, name = self.focus.key
            lift = self.hover_lift[names.index(name)] if kind == "card" else 0.0
            focus.draw_ring(
                surface, rect.move(0, -round(lift * self.app.metrics.px(6))), self.app.metrics
            )

    def handle(self, event: pygame.event.Event) -> bool:
        """Card clicks, keys 1-3, arrows and Enter, Resume (R), Open (Ctrl+O), Quit and Esc."""
        if self.handle_file_dialog(event):
            return True
        if event.type == pygame.KEYDOWN and self.on_focus_key(event.key):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.quit_button:
                self.app.quit()
                return True
            if event.ui_element is self.open_button:
                self.open_file_dialog()
                return True
            if event.ui_element is self.game_button:
                self.open_file_dialog("game")
                return True
            if event.ui_element is self.resume_button:
                self.do_resume()
                return True
            if event.ui_element is self.discard_button:
                self.discard()
                return True
            if event.ui_element is self.lessons_button:
                self.open_lessons()
                return True
            if event.ui_element in (self.previous_button, self.next_button):
                self.turn_page(-1 if event.ui_element is self.previous_button else 1)
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for _, (game, _, _), rect in self.shown_cards():
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
            if event.key == pygame.K_l:
                self.open_lessons()
                return True
            if event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                self.turn_page(1 if event.key == pygame.K_PAGEDOWN else -1)
                return True
            if event.key == pygame.K_g:
                # after this frame's events: the key's own text ("g") must not reach the
                # dialog's path box, which takes the keys as soon as it opens
                self.dialog_due = "game"
                return True
            if event.key == pygame.K_r and self.resume is not None:
                self.do_resume()
                return True
            if event.unicode and event.unicode in "123456789"[: len(self.cards)]:
                self.open_game(self.cards[int(event.unicode) - 1][0])
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.cards:
                last = self.app.settings.last_game
                names = [name for name, _, _ in self.cards]
                self.open_game(last if last in names else names[0])
                return True
        return False

    def keys_help(self) -> list[tuple[str, str]]:
        """The menu's keys."""
        count = len(self.cards)
        lines = [
            (f"1-{count}" if count > 1 else "1", "open a game's set-up"),
            ("Enter", "the game you played last"),
            ("← → ↑ ↓", "move the focus; Enter uses it"),
            ("L", "lessons: search trees from the textbook"),
            ("Ctrl+O", "open a saved game"),
            ("G", "open a game of yours from a Python file"),
        ]
        if self.card_layout().pages > 1:
            lines.append(("PgUp PgDn", "the other pages of games"))
        if self.resume is not None:
            lines.append(("R", "resume the last game"))
        return [*lines, ("Esc", "quit")]

    def update(self, dt: float) -> None:
        """Ease the hovered card up; its icon moves while it is hovered; a game file being
        opened is polled."""
        outcome = self.opener.poll()
        if outcome is not None:
            self.opened(outcome)
        if self.dialog_due:
            mode, self.dialog_due = self.dialog_due, ""
            self.open_file_dialog(mode)
        mouse = self.app.mouse()
        shown = {i: rect for i, _, rect in self.shown_cards()}
        for i in range(len(self.cards)):
            rect = shown.get(i)
            focused = rect is not None and self.focus.key == ("card", self.cards[i][0])
            pointed = rect is not None and mouse is not None and rect.collidepoint(mouse)
            target = 1.0 if focused or pointed else 0.0
            lift = self.hover_lift[i] + (target - self.hover_lift[i]) * (1 - math.exp(-dt * 14))
            self.hover_lift[i] = target if abs(target - lift) < SETTLED else lift
            self.icon_time[self.cards[i][0]] += dt * self.hover_lift[i]

    def animating(self) -> bool:
        """A card is lifted (its icon moves) or still easing, or a game file is being opened
        (polled each frame)."""
        return self.opener.busy or any(lift > 0 for lift in self.hover_lift)

    def close(self) -> None:
        """Stop a game file's check still running."""
        self.opener.cancel()
        super().close()

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
        layout = self.card_layout()
        for i, card, rect in self.shown_cards():
            self.draw_card(surface, i, card, rect, layout.tall)
        if layout.pager is not None:
            drawing.draw_text(
                surface,
                self.page_label(layout),
                layout.pager.center,
                m.font_size(14),
                theme.TEXT_DIM,
                anchor="center",
            )
        if self.resume is not None:
            self.draw_resume(surface)
        self.draw_keys_note(surface)

    def draw_keys_note(self, surface: pygame.Surface) -> None:
        """'F1 or ? shows the keys': bottom left, or top left where the buttons take the
        bottom row."""
        m = self.app.metrics
        h = self.app.size[1]
        text, size = "F1 or ? shows the keys", m.font_size(13)
        note = pygame.Rect((0, 0), drawing.text_size(text, size))
        note.bottomleft = (m.pad, h - m.pad)
        buttons = [self.game_button, self.open_button, self.quit_button, self.lessons_button]
        if any(b is not None and b.rect.inflate(m.gap, 0).colliderect(note) for b in buttons):
            note.topleft = (m.pad, m.pad)
        drawing.draw_text(surface, text, note.topleft, size, theme.TEXT_FAINT)

    def draw_card(
        self, surface: pygame.Surface, index: int, card: Card, rect: pygame.Rect, tall: bool
    ) -> None:
        """One game's card, tall or flat, lifted a little while the mouse is over it."""
        m = self.app.metrics
        lift = self.hover_lift[index]
        box = rect.move(0, -round(lift * m.px(6)))
        drawing.shadow(surface, box, m.radius, spread=m.px(18), alpha=round(90 + 60 * lift))
        border = theme.mix(theme.PANEL_BORDER, theme.ACCENT, lift)
        drawing.rounded_rect(
            surface,
            box,
            theme.mix(theme.PANEL, theme.PANEL_RAISED, lift),
            m.radius,
            1 + round(lift),
            border,
        )
        if tall:
            self.draw_tall_card(surface, index, card, box, lift)
        else:
            self.draw_flat_card(surface, card, box)

    def draw_tall_card(
        self, surface: pygame.Surface, index: int, card: Card, box: pygame.Rect, lift: float
    ) -> None:
        """Icon on top, then the title, the line, 'Play' and the key: the text takes the
        room it needs, the icon what is left (at most half the card)."""
        m = self.app.metrics
        game, name, line = card
        room = box.width - 2 * m.pad
        name_size = fitting_size(name, room, m.font_size(24))
        size = m.font_size(15)
        lines = drawing.wrap(line, room, size)
        if len(lines) > 3:  # a long line of a game of one's own: what does not fit, cut
            lines = [*lines[:2], drawing.ellipsize(" ".join(lines[2:]), room, size)]
        bottom = box.bottom - m.px(18)
        text_h = round(m.font_size(24) * 1.5 + len(lines) * size * 1.45)
        text_y = bottom - size - m.gap - text_h
        icon_h = max(m.px(24), min(round(box.height * 0.52), text_y - m.gap - box.y - m.pad))
        icon = pygame.Rect(0, 0, room, icon_h)
        icon.midtop = (box.centerx, box.y + m.pad)
        self.kits[game].draw_icon(surface, icon, self.icon_time[game])
        text_y = icon.bottom + m.gap
        drawing.draw_text(surface, name, (box.x + m.pad, text_y), name_size, theme.TEXT, "bold")
        for j, text in enumerate(lines):
            y = text_y + m.font_size(24) * 1.5 + j * size * 1.45
            drawing.draw_text(surface, text, (box.x + m.pad, y), size, theme.TEXT_DIM)
        cue = theme.mix(theme.TEXT_DIM, theme.ACCENT, lift)
        drawing.draw_text(
            surface, "Play  →", (box.x + m.pad, bottom), size, cue, "semibold", anchor="bottomleft"
        )
        if index < 9:
            drawing.draw_text(
                surface,
                f"key {index + 1}",
                (box.right - m.pad, bottom),
                m.font_size(13),
                theme.TEXT_FAINT,
                anchor="bottomright",
            )

    def draw_flat_card(self, surface: pygame.Surface, card: Card, box: pygame.Rect) -> None:
        """Icon on the left, the title and the line on the right, in the largest text size
        (down to the smallest) at which the line fits whole; shortened only below that."""
        m = self.app.metrics
        game, name, line = card
        side = min(box.height - 2 * m.gap, round(box.width * 0.3))
        icon = pygame.Rect(box.x + m.gap, box.centery - side // 2, side, side)
        self.kits[game].draw_icon(surface, icon, self.icon_time[game])
        text_x = icon.right + m.gap
        room = box.right - text_x - m.gap
        name_size = fitting_size(name, room, m.font_size(22))
        room_h = box.height - 2 * m.px(6) - round(name_size * 1.35)
        size = m.font_size(14)
        lines = drawing.wrap(line, room, size)
        while size > SMALLEST_TEXT and len(lines) * round(size * 1.4) > room_h:
            size -= 1
            lines = drawing.wrap(line, room, size)
        shown = max(1, min(len(lines), room_h // round(size * 1.4)))
        if shown < len(lines):  # even the smallest size does not hold it: the rest cut
            rest = " ".join(lines[shown - 1 :])
            lines = [*lines[: shown - 1], drawing.ellipsize(rest, room, size)]
        top = box.centery - round((name_size * 1.35 + shown * size * 1.4) / 2)
        drawing.draw_text(surface, name, (text_x, top), name_size, theme.TEXT, "bold")
        for j, text in enumerate(lines[:shown]):
            y = top + name_size * 1.35 + j * size * 1.4
            drawing.draw_text(surface, text, (text_x, y), size, theme.TEXT_DIM)

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
