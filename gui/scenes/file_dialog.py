"""The save/open file dialog shared by the menu and play scenes (pygame_gui's UIFileDialog),
and "Open a game…"'s, which also opens FILE.py:CLASS and MODULE:CLASS typed into its path box.
"""

from __future__ import annotations

import contextlib
import locale
import math
import os
import time
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog

from plyground.ai.evaluation.wording import counted
from plyground.gui import theme
from plyground.gui.kits import game_files
from plyground.gui.play import status_line
from plyground.gui.scenes.base import Scene
from plyground.gui.storage import savefile, settings
from plyground.gui.widgets import drawing, focus

TOOL_TIP_DELAY = 1.0
"""pygame_gui's delay before a widget's tool tip shows (seconds), restored after the dialog."""


def saves_folder(mode: str = "save") -> Path:
    """Where the save and open dialogs start: the documents' Plyground folder (made when
    saving); opening, while it does not exist yet, the older hidden saves folder if that
    does, else the documents folder."""
    folder = settings.saves_dir()
    if mode == "save":
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
        return folder
    if folder.is_dir():
        return folder
    older = settings.older_saves_dir()
    return older if older.is_dir() else folder.parent


def games_folder() -> Path:
    """Where "Open a game…" starts: the folder of the game opened last, else the working
    folder (where a student runs Plyground from their course's folder), else the home."""
    last = settings.last_games_folder()
    if last is not None and last.is_dir():
        return last
    with contextlib.suppress(OSError):
        return Path.cwd()
    return Path.home()


def showable(name: str) -> bool:
    """Whether a file name can be shown and typed back: not a name in another encoding
    (bytes that are not UTF-8 come back from the system as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in name


TOOL_FOLDERS = frozenset(
    {"__pycache__", "build", "dist", "node_modules", "site-packages", "venv", "env"}
)
"""Folders that tools make (besides hidden ones, '.git', '.venv'): listed after a person's."""


def _sort_key(name: str) -> str:
    """The locale's order of names, or plain order where the locale cannot compare one."""
    try:
        return locale.strxfrm(name)
    except (ValueError, OSError):
        return name


def _folder_key(name: str) -> tuple[bool, str]:
    """Folders a person works in first; hidden ones and tools' ('.git', '.venv', 'build',
    '__pycache__') after them, each group in the locale's order."""
    made_by_tools = name.startswith(".") or name in TOOL_FOLDERS or name.endswith(".egg-info")
    return made_by_tools, _sort_key(name)


def folder_listing(folder: str, suffixes: set[str]) -> list[str | tuple[str, str]]:
    """The dialog's list: folders, then files ending in one of `suffixes`, each sorted; a
    name the window cannot show is left out.  OSError if the folder cannot be read."""
    folders: list[str] = []
    files: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not showable(entry.name):
                continue
            try:
                is_file = entry.is_file()
            except OSError:
                continue
            if not is_file:
                folders.append(entry.name)
            elif any(entry.name.endswith(suffix) for suffix in suffixes):
                files.append(entry.name)
    folders.sort(key=_folder_key)
    files.sort(key=_sort_key)
    listing: list[str | tuple[str, str]] = [(name, "#directory_list_item") for name in folders]
    listing += [(name, "#file_list_item") for name in files]
    return listing


def open_dialog(
    scene: Scene,
    title: str,
    initial: Path,
    suffixes: set[str] | None,
    existing_only: bool,
    games: bool = False,
) -> ScaledFileDialog:
    """The window's file dialog for `scene` (one of its widgets): centred, sized for the
    window, its delete button hidden (opening or saving never deletes), the path box given
    the keyboard, listing the files ending in `suffixes` (None: every file); with `games`,
    "Open a game…"'s (`GameFileDialog`)."""
    w, h = scene.app.size
    m = scene.app.metrics
    rect = pygame.Rect(0, 0, min(w - 2 * m.pad, m.px(620)), min(h - 2 * m.pad, m.px(520)))
    rect.center = (w // 2, h // 2)
    kind = GameFileDialog if games else ScaledFileDialog
    dialog: ScaledFileDialog = scene.add(
        kind(
            rect,
            scene.manager,
            m.scale,
            window_title=title,
            initial_file_path=str(initial),
            allow_existing_files_only=existing_only,
            allowed_suffixes=suffixes,
            always_on_top=True,
        )
    )
    delete = getattr(dialog, "delete_button", None)
    if delete is not None:
        delete.hide()
    dialog.focus_path()
    return dialog


class ScaledFileDialog(UIFileDialog):
    """pygame_gui's file dialog laid out for the window's font: its buttons, icons, path box
    and list grow with the text (pygame_gui places them at fixed 20-30 pixel sizes).  Its
    list leaves out names in another encoding (`showable`): they could not be drawn."""

    def __init__(self, rect: pygame.Rect, manager: Any, unit: float, **options: Any) -> None:
        """`unit`: how much bigger than pygame_gui's own layout (1 at a 14-15 px font)."""
        self.unit = max(1.0, unit)
        super().__init__(rect, manager, **options)

    def _create_list_of_directories_and_files_on_current_path(self) -> None:
        try:
            listing = folder_listing(str(self.current_directory_path), self.allowed_suffixes)
        except OSError as error:  # the dialog goes back to the last folder it could read
            raise PermissionError(str(error)) from error
        self.current_file_list = listing

    def focus_path(self) -> None:
        """Give the path box the keyboard, its cursor at the end: typing a name works at once."""
        line = self.file_path_text_line
        self.ui_manager.set_focus_set(line)
        line.edit_position = len(line.get_text())

    line_room = 0
    """Pixels kept free under the path box for a line the scene draws there."""

    def _setup_ui_elements(self) -> None:
        super()._setup_ui_elements()  # type: ignore[no-untyped-call]
        u = self.unit
        pad, icon, button_h = round(10 * u), round(22 * u), round(32 * u)
        icons = (self.home_button, self.parent_directory_button, self.refresh_button)
        for k, button in enumerate((*icons, self.delete_button)):  # delete is hidden
            button.set_dimensions((icon, icon))
            button.set_relative_position((pad + k * (icon + round(4 * u)), pad))
            button.rebuild()  # type: ignore[no-untyped-call]
        width, height = self.get_container().get_size()
        line = self.file_path_text_line
        line.set_relative_position((pad, 2 * pad + icon))
        line.set_dimensions((width - 2 * pad, line.rect.height))
        top = 3 * pad + icon + line.rect.height + self.line_room
        self.file_selection_list.set_relative_position((pad, top))
        listing = self.file_selection_list
        listing.set_dimensions((width - 2 * pad, height - top - button_h - 2 * pad))
        button_w = round(90 * u)
        for button in (self.cancel_button, self.ok_button):  # anchored to the right edge
            button.set_dimensions((button_w, button_h))
            button.set_relative_position((-(pad + button_w), -(button_h + pad)))
            button.rebuild()  # type: ignore[no-untyped-call]  # the label centred again


class GameFileDialog(ScaledFileDialog):
    """ "Open a game…": a game file picked in the list, or typed into the path box as
    FILE.py, FILE.py:CLASS or MODULE:CLASS (`game_files.typed_game`).  The line under the
    path box (drawn by the scene: `line_rect`, `line`) says what it takes, or why Enter
    cannot open what is typed."""

    def __init__(self, rect: pygame.Rect, manager: Any, unit: float, **options: Any) -> None:
        self.line_room = round(22 * max(1.0, unit))
        self.typed: str | None = None
        """The game typed into the path box, as the spec OK opens; None: pygame_gui's own."""
        self.line = game_files.TYPING_HELP
        self.problem = False
        """Whether `line` says why what is typed cannot be opened."""
        super().__init__(rect, manager, unit, **options)

    def folder(self) -> Path:
        """The folder the list shows (a relative name typed is in it)."""
        return Path(self.last_valid_directory_path)

    def line_rect(self) -> pygame.Rect:
        """Where the line under the path box goes, on the window."""
        box = self.file_path_text_line.rect
        return pygame.Rect(box.x, box.bottom, box.width, self.line_room)

    def say(self, line: str, problem: bool = False) -> None:
        self.line, self.problem = line, problem

    def _process_file_path_entry_events(self, event: pygame.event.Event) -> None:
        if (
            event.type not in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED)
            or event.ui_element is not self.file_path_text_line
        ):
            return
        text = self.file_path_text_line.get_text()
        self.typed = game_files.typed_game(text, self.folder())
        if self.typed is not None:  # a game: OK (or Enter) opens it, the text stays
            self.say(game_files.TYPING_HELP)
            self.ok_button.enable()  # type: ignore[no-untyped-call]
            return
        typed = Path(text.strip()).expanduser()
        is_folder = (typed if typed.is_absolute() else self.folder() / typed).is_dir()
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and text.strip() and not is_folder:
            self.say(game_files.typing_problem(text, self.folder()), problem=True)
            self._set_no_file_selected_state()  # type: ignore[no-untyped-call]
            return  # the text stays, to be mended
        self.say(game_files.TYPING_HELP)
        super()._process_file_path_entry_events(event)

    def _process_file_list_events(self, event: pygame.event.Event) -> None:
        if getattr(event, "ui_element", None) is self.file_selection_list:
            self.typed = None  # a name picked in the list replaces what was typed
            self.say(game_files.TYPING_HELP)
        super()._process_file_list_events(event)

    def _process_ok_cancel_events(self, event: pygame.event.Event) -> None:
        if (
            self.typed is not None
            and event.type == pygame_gui.UI_BUTTON_PRESSED
            and event.ui_element is self.ok_button
        ):
            data = {
                "text": self.typed,
                "ui_element": self,
                "ui_object_id": self.most_specific_combined_id,
            }
            pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, data))
            self.kill()  # type: ignore[no-untyped-call]
            return
        super()._process_ok_cancel_events(event)


class FileDialogScene(Scene):
    """A scene that opens save files: the modal dialog and loading what it picks.

    Subclasses set `file_dialog` to None again whenever their widgets are rebuilt.
    """

    game_name: str = ""
    file_dialog: Any = None
    file_mode: str = ""

    def open_file_dialog(self, mode: str = "open") -> None:
        """The save ("save") or open ("open") dialog; saving and opening never delete."""
        if self.file_dialog is not None:
            return
        folder = saves_folder(mode)
        if mode == "save":
            initial = folder / f"{self.game_name}-{time.strftime('%Y-%m-%d-%H%M')}.json"
            title = "Save game"
        elif mode == "game":
            initial, title = games_folder(), "Open a game (a Python file of yours)"
        else:
            initial, title = folder, "Open a saved game"
        self.file_mode = mode
        suffixes = {".json"} if mode == "open" else ({".py"} if mode == "game" else None)
        self.file_dialog = open_dialog(
            self, title, initial, suffixes, mode != "save", games=mode == "game"
        )
        self.mute_tool_tips(True)

    def draw_file_dialog_line(self, surface: pygame.Surface) -> None:
        """The line under "Open a game…"'s path box: what it takes, or why Enter cannot."""
        dialog = self.file_dialog
        if not isinstance(dialog, GameFileDialog) or not dialog.alive():  # type: ignore[no-untyped-call]
            return
        m = self.app.metrics
        rect = dialog.line_rect()
        size = m.font_size(13)
        while size > 9 and drawing.text_size(dialog.line, size)[0] > rect.width:
            size -= 1
        colour = theme.WARNING if dialog.problem else theme.TEXT_DIM
        text = drawing.ellipsize(dialog.line, rect.width, size)
        drawing.draw_text(surface, text, rect.midleft, size, colour, anchor="midleft")

    def mute_tool_tips(self, muted: bool) -> None:
        """No tool tips of the scene's widgets over the modal dialog (one shown goes)."""
        for widget in self.widgets:
            if widget is self.file_dialog:
                continue
            tip = getattr(widget, "tool_tip", None)
            if muted and tip is not None:
                tip.kill()
                widget.tool_tip = None
            if hasattr(widget, "tool_tip_delay"):
                widget.tool_tip_delay = math.inf if muted else TOOL_TIP_DELAY

    def close_file_dialog(self) -> None:
        """Close the dialog if it is up."""
        if self.file_dialog is not None:
            dialog, self.file_dialog = self.file_dialog, None
            dialog.kill()
            if dialog in self.widgets:
                self.widgets.remove(dialog)
            self.mute_tool_tips(False)

    def handle_file_dialog(self, event: pygame.event.Event) -> bool:
        """The dialog's events; while it is up it is modal (no clicks or keys behind it)."""
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and (
            event.ui_element is self.file_dialog
        ):
            mode, picked, self.file_dialog = self.file_mode, self.file_dialog, None
            if picked is not None and picked.alive():
                picked.kill()  # pygame_gui's OK does so; a path picked otherwise too
            focus.stop_typing(self.manager)  # the keys are the scene's again
            self.mute_tool_tips(False)
            if mode == "save":
                self.save_to(event.text)
            elif mode == "game":
                self.open_game_file(event.text)
            else:
                self.load_from(event.text)
            return True
        dialog = self.file_dialog
        if (
            event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED
            and dialog is not None
            and event.ui_element is getattr(dialog, "file_path_text_line", None)
        ):
            if dialog.ok_button.is_enabled:  # Enter in the file name box: as OK
                focus.press(dialog.ok_button)
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.file_dialog:
            self.file_dialog = None
            self.mute_tool_tips(False)
            return True
        if self.file_dialog is not None and event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.KEYDOWN,
        ):
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.close_file_dialog()
            return True
        return False

    def save_to(self, path: Any) -> bool:
        """Save the game to `path` (only scenes with a game in progress can)."""
        return False

    def open_game_file(self, path: Any) -> None:
        """Open a game from a Python file (only the menu does)."""

    def before_opening(self) -> None:
        """Stop anything the scene runs before a loaded game replaces it."""

    def load_from(self, path: Any) -> bool:
        """Open a save file in a new play scene, or say why it cannot be opened."""
        try:
            saved = savefile.load_game(path)
        except savefile.SaveError as error:
            self.app.toast(f"Cannot open it: {error}", theme.DANGER, seconds=8)
            return False
        self.before_opening()
        play: Any = self.app.open_saved(saved)
        moves = saved.decisions
        turn = status_line.whose_turn(play.controller)
        opened = f"Opened {Path(path).name} · {counted(moves, 'move')} · {turn}"
        play.set_notice(opened, 4.0)
        return True
