"""The set-up screen's "From a file…": an AI side played by the player's own Python file,
and a Custom AI's heuristic from a file.

A side's file is typed (``my_agent.py``, ``my_agent.py:name``, ``kaggle:c.py``) or picked
with Browse… (a file defining ``choose(state)`` plays with it; otherwise, where the game
has a Kaggle format, the file is taken as a Kaggle agent).  The card says what the file is
or, in one line, why it cannot play; Start refuses a side whose file cannot.  Nothing of the
file runs in the window: it plays in a worker process (`ai.student_code.agents`).

Checking a file (parsing it for its functions) goes through `gui.setup.file_checks`: once
per file version, a large file in a helper process while the window keeps drawing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground import games
from plyground.ai.student_code.agents import KAGGLE_PREFIX, agent_spec, move_seconds
from plyground.ai.student_code.heuristics import check_heuristic_file, is_heuristic_file
from plyground.ai.student_code.worker import top_level_functions
from plyground.games import capabilities
from plyground.games.base import Game
from plyground.gui.setup.file_checks import checked
from plyground.gui.storage.settings import AI, FROM_FILE, SideSetup
from plyground.gui.widgets.drawing import displayable
from plyground.untrusted import printable

if TYPE_CHECKING:
    from plyground.gui.scenes.base import Scene
    from plyground.gui.setup.form import SetupForm

BROWSE = "Browse…"


def agent_problem(
    side: SideSetup, game: Game[Any], when_read: Callable[[], None] | None = None
) -> str:
    """Why the side's file cannot play ("" when it can; `when_read`: see `checked`)."""
    try:
        spec = agent_spec(side.agent) if side.agent.strip() else None
    except ValueError as error:
        return str(error)
    if spec is None:
        return "Type the path of a .py file, or Browse…"
    _, problem = checked(f"agent {spec.text}", spec.path, spec.check, None, when_read)
    if problem:
        return problem
    if spec.kaggle and capabilities(game).kaggle_configuration is None:
        return f"{game.title} has no Kaggle format: give a file with choose(state)"
    return ""


def describe(
    side: SideSetup, game: Game[Any], when_read: Callable[[], None] | None = None
) -> list[str]:
    """The card's lines under the file: what it is and how it plays, or what is wrong."""
    problem = agent_problem(side, game, when_read)
    if problem:
        return [problem]
    spec = agent_spec(side.agent)
    assert spec is not None
    limit = move_seconds(game)
    if spec.kaggle:
        configuration = games.capabilities(game).kaggle_configuration
        if configuration is not None:
            limit = float(configuration(game).get("actTimeout", limit))
    return [
        f"Plays {spec.describe()}.",
        f"It runs in a worker process with {limit:g} s a move; if its code fails it "
        "loses the game by forfeit (isolation, not a security sandbox).",
    ]


def build(
    form: SetupForm,
    side: SideSetup,
    index: int,
    game: Game[Any],
    rects: tuple[pygame.Rect, pygame.Rect, pygame.Rect],
    y: int,
    redraw: Callable[[], None],
) -> None:
    """The file's path, Browse…, and what the file is (`rects`: the card, its inner area and
    the fields' column; `redraw` asks for a frame once a large file has been read)."""
    card, inner, field = rects
    m = form.metrics
    browse_w = m.px(96)
    rect = pygame.Rect(field.x, y, field.width - browse_w - m.gap, m.button_h)
    entry = form.add(pygame_gui.elements.UITextEntryLine(rect, form.manager))
    entry.set_text(displayable(side.agent))
    entry.set_tooltip("A .py file with choose(state), or kaggle:file.py for a Kaggle agent")
    form.ids[entry] = ("agent_path", index)
    form.field_labels.append((index, "File", (inner.x, rect.centery)))
    form.button(
        pygame.Rect(rect.right + m.gap, y, browse_w, m.button_h), BROWSE, "agent_browse", index
    )
    y += m.button_h + m.gap
    lines: list[str] = []

    def read() -> None:  # a large file read in the helper process: the card says so now
        lines[:] = describe(side, game)
        redraw()

    lines[:] = describe(side, game, read)
    form.descriptions.append((pygame.Rect(inner.x, y, inner.width, card.bottom - y), lines))


def spec_for(path: str, game: Game[Any]) -> str:
    """The spec a picked file plays with: its choose(), else a Kaggle agent where possible."""
    no_names: list[str] = []
    names, problem = checked("functions", path, partial(top_level_functions, Path(path)), no_names)
    if problem:
        return path
    if "choose" not in names and capabilities(game).kaggle_configuration is not None:
        return KAGGLE_PREFIX + path
    return path


def browse(scene: Scene, target: str) -> Any:
    """A dialog (on `scene`) for a .py file: the agent's or the heuristic's (`target`)."""
    from plyground.gui.scenes.file_dialog import open_dialog

    title = "Choose your agent's file" if target == "agent" else "Choose your heuristic's file"
    return open_dialog(scene, title, Path.cwd(), {".py"}, existing_only=True)


@dataclass
class FileAnswer:
    """What the file fields made of an event: whether they used it, and what the screen does
    next (lay out again, open the dialog for side `browse[0]`'s `browse[1]`, or close it)."""

    used: bool = False
    rebuild: bool = False
    browse: tuple[int, str] | None = None
    dialog_done: bool = False


def handle(
    event: pygame.event.Event,
    ids: dict[Any, tuple[str, int]],
    sides: list[SideSetup],
    game: Game[Any],
    dialog: tuple[Any, int, str] | None,
) -> FileAnswer:
    """The events of the file fields and of the open `dialog` (its widget, side, target);
    the sides change here, the screen acts on the answer."""
    if dialog is not None and getattr(event, "ui_element", None) is dialog[0]:
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            _, index, what = dialog
            side = sides[index]
            if what == "agent":
                side.agent = spec_for(event.text, game)
            else:
                search = replace(side.custom.search, heuristic=event.text)
                side.custom = replace(side.custom, search=search)
            return FileAnswer(used=True, rebuild=True, dialog_done=True)
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            return FileAnswer(used=True, dialog_done=True)
        return FileAnswer()
    action, index = ids.get(getattr(event, "ui_element", None), ("", -1))
    if action == "agent_path" and event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
        sides[index].agent = event.text.strip()
        return FileAnswer(used=True)
    if action == "agent_path" and event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
        sides[index].agent = event.text.strip()
        return FileAnswer(used=True, rebuild=True)
    if action == "agent_browse" and event.type == pygame_gui.UI_BUTTON_PRESSED:
        return FileAnswer(used=True, browse=(index, "agent"))
    if action == "heuristic" and event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
        side = sides[index]
        if event.text == FROM_FILE:
            return FileAnswer(used=True, browse=(index, "heuristic"))
        chosen = side.custom.heuristic
        if is_heuristic_file(chosen) and event.text == printable(Path(str(chosen)).name):
            return FileAnswer(used=True)  # the file already chosen
    return FileAnswer()


def heuristic_options(side: SideSetup, game: Game[Any]) -> tuple[list[str], str]:
    """A Custom AI's heuristic choices (the game's, the file in use, From a file…) and the
    one shown."""
    options = list(game.heuristics)
    shown = side.custom.heuristic or game.default_heuristic
    if is_heuristic_file(shown):
        shown = printable(Path(shown).name)
        options.append(shown)
    return [*options, FROM_FILE], shown


def problems(sides: list[SideSetup], game: Game[Any]) -> str:
    """Why Start cannot begin: a side from a file that cannot play ("" when all can)."""
    for side in sides:
        if side.kind != AI:
            continue
        if side.preset == FROM_FILE:
            problem = agent_problem(side, game)
            if problem:
                return problem
        elif is_heuristic_file(side.custom.heuristic):
            heuristic = str(side.custom.heuristic)
            _, problem = checked(
                "heuristic", heuristic, partial(check_heuristic_file, heuristic), ""
            )
            if problem:
                return problem
    return ""
