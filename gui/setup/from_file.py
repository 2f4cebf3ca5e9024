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
from dataclasses import replace
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
from plyground.gui import theme
from plyground.gui.setup.file_checks import checked
from plyground.gui.storage.settings import AI, FROM_FILE, SideSetup
from plyground.gui.widgets.drawing import displayable

if TYPE_CHECKING:
    from plyground.gui.setup.scene import SetupScene

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


def build(scene: SetupScene, index: int, inner: pygame.Rect, field: pygame.Rect, y: int) -> None:
    """The file's path, Browse…, and what the file is."""
    m = scene.app.metrics
    side = scene.sides[index]
    browse_w = m.px(96)
    rect = pygame.Rect(field.x, y, field.width - browse_w - m.gap, m.button_h)
    entry = scene.add(pygame_gui.elements.UITextEntryLine(rect, scene.manager))
    entry.set_text(displayable(side.agent))
    entry.set_tooltip("A .py file with choose(state), or kaggle:file.py for a Kaggle agent")
    scene.ids[entry] = ("agent_path", index)
    scene.field_labels.append((index, "File", (inner.x, rect.centery)))
    scene._button(
        pygame.Rect(rect.right + m.gap, y, browse_w, m.button_h), BROWSE, "agent_browse", index
    )
    y += m.button_h + m.gap
    card = scene.card_rects[index]
    lines: list[str] = []

    def read() -> None:  # a large file read in the helper process: the card says so now
        lines[:] = describe(side, scene.game)
        scene.app.request_frame()

    lines[:] = describe(side, scene.game, read)
    scene.descriptions.append((pygame.Rect(inner.x, y, inner.width, card.bottom - y), lines))


def spec_for(path: str, game: Game[Any]) -> str:
    """The spec a picked file plays with: its choose(), else a Kaggle agent where possible."""
    no_names: list[str] = []
    names, problem = checked("functions", path, partial(top_level_functions, Path(path)), no_names)
    if problem:
        return path
    if "choose" not in names and capabilities(game).kaggle_configuration is not None:
        return KAGGLE_PREFIX + path
    return path


def browse(scene: SetupScene, index: int, target: str) -> None:
    """Open a dialog for a .py file for side `index`'s agent or heuristic (`target`)."""
    from plyground.gui.scenes.file_dialog import open_dialog

    title = "Choose your agent's file" if target == "agent" else "Choose your heuristic's file"
    dialog = open_dialog(scene, title, Path.cwd(), {".py"}, existing_only=True)
    vars(scene)["file_target"] = (dialog, index, target)


def handle(scene: SetupScene, event: pygame.event.Event) -> bool:
    """The events of the file fields and the dialog; True when one was used."""
    target = getattr(scene, "file_target", None)
    if target is not None and getattr(event, "ui_element", None) is target[0]:
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            _, index, what = target
            side = scene.sides[index]
            if what == "agent":
                side.agent = spec_for(event.text, scene.game)
            else:
                side.custom = replace(side.custom, heuristic=event.text)
            vars(scene)["file_target"] = None
            scene.rebuild()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            vars(scene)["file_target"] = None
            return True
        return False
    action, index = scene.ids.get(getattr(event, "ui_element", None), ("", -1))
    if action == "agent_path" and event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
        scene.sides[index].agent = event.text.strip()
        return True
    if action == "agent_path" and event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
        scene.sides[index].agent = event.text.strip()
        scene.rebuild()
        return True
    if action == "agent_browse" and event.type == pygame_gui.UI_BUTTON_PRESSED:
        browse(scene, index, "agent")
        return True
    if action == "heuristic" and event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
        side = scene.sides[index]
        if event.text == FROM_FILE:
            browse(scene, index, "heuristic")
            return True
        chosen = side.custom.heuristic
        if is_heuristic_file(chosen) and event.text == Path(str(chosen)).name:
            return True  # the file already chosen
    return False


def heuristic_options(scene: SetupScene, side: SideSetup) -> tuple[list[str], str]:
    """A Custom AI's heuristic choices (the game's, the file in use, From a file…) and the
    one shown."""
    game = scene.game
    options = list(game.heuristics)
    shown = side.custom.heuristic or game.default_heuristic
    if is_heuristic_file(shown):
        shown = Path(shown).name
        options.append(shown)
    return [*options, FROM_FILE], shown


def problems(scene: SetupScene) -> str:
    """Why Start cannot begin: a side from a file that cannot play ("" when all can)."""
    for side in scene.sides:
        if side.kind != AI:
            continue
        if side.preset == FROM_FILE:
            problem = agent_problem(side, scene.game)
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


def refuse_start(scene: SetupScene) -> bool:
    """Say why Start cannot begin, if it cannot (True: refused)."""
    problem = problems(scene)
    if problem:
        scene.app.toast(f"Cannot start: {problem}", theme.DANGER, seconds=6)
    return bool(problem)
