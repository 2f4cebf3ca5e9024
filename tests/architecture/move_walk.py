"""The walk of one move through the code: a human's click on the board to the AI's reply on
screen, as the window runs it (headless), counted function by function.

`python tests/architecture/move_walk.py [--functions]` prints the walk;
`test_package_order.test_one_move_walks_without_a_circle` holds its shape.  What is counted:
every call from one of Plyground's functions into another (a hop), on the window's thread,
from the click's frame until the frame that draws the AI's reply; drawing (what
`PlayScene.draw` calls: the views, the kit's pixels) and the widget library are left out, as
is the waiting for the worker in between.  A call back into the scene while the controller
handles the click is a circle (`scene_returns`).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = "plyground"
DRAW = "gui.play.scene:PlayScene.draw"
"""The frame's drawing: what it calls is left out of the walk (pixels, not logic)."""


@dataclass
class Walk:
    """The calls of one move's walk."""

    hops: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(caller, callee) of each distinct call, with how often it ran."""
    scene_returns: list[str] = field(default_factory=list)
    """Scene functions called while the controller handled the click (should be none)."""

    @property
    def functions(self) -> set[str]:
        return {name for pair in self.hops for name in pair}

    @property
    def modules(self) -> set[str]:
        return {name.rsplit(".", 1)[0].rsplit(":", 1)[0] for name in self.functions}


def _name(code: Any) -> str | None:
    """'gui.play.scene:PlayScene.handle' for a Plyground function, else None."""
    path = Path(code.co_filename)
    parts = path.parts
    if PACKAGE not in parts:
        return None
    module = ".".join(parts[parts.index(PACKAGE) + 1 :]).removesuffix(".py")
    return f"{module}:{code.co_qualname}"


def measure(game: str = "connect4", move: Any = 3) -> Walk:
    """Play one human move by a click and return the walk up to the AI's reply drawn."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from plyground.gui.app import App
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.scenes.menu import MenuScene
    from plyground.gui.storage import settings

    app = App((1280, 800), headless=True, use_saved_settings=False)
    walk = Walk()
    try:
        app.settings = settings.Settings()
        app.settings.sides[game][0].kind = settings.HUMAN
        app.settings.sides[game][1].kind = settings.AI
        app.settings.sides[game][1].preset = "Easy"
        app.settings.show_analysis = False
        app.push(MenuScene(app))
        play = PlayScene(app, game, animate=False)
        app.push(play)
        for _ in range(5):
            app.step(1 / 60)
        controller = play.controller
        rect = play.board_rect()
        points = [(rect.x + rect.width * (2 * i + 1) // 14, rect.centery) for i in range(7)]
        pos = next(p for p in points if play.view.move_at(rect, controller.state, p) == move)
        app.mouse_override = pos
        stack: list[str | None] = []
        handling, drawing = [0], [0]
        main = threading.get_ident()

        def profile(frame: Any, event: str, arg: Any) -> None:
            if threading.get_ident() != main:
                return
            if event == "call":
                callee = _name(frame.f_code)
                caller = next((name for name in reversed(stack) if name is not None), None)
                stack.append(callee)
                if callee is None or drawing[0]:
                    return
                if callee == DRAW:
                    drawing[0] += 1
                    return
                if callee.endswith("PlayController.try_human_move"):
                    handling[0] += 1
                if handling[0] and callee.startswith("gui.play.scene:"):
                    walk.scene_returns.append(callee)
                if caller is not None:
                    walk.hops[(caller, callee)] += 1
            elif event == "return" and stack:
                name = stack.pop()
                if name == DRAW:
                    drawing[0] -= 1
                if name is not None and name.endswith("PlayController.try_human_move"):
                    handling[0] -= 1

        before = len(controller.history.entries)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        sys.setprofile(profile)
        try:
            app.step(1 / 60)
        finally:
            sys.setprofile(None)
        assert len(controller.history.entries) == before + 1, "the click played the move"
        from plyground.gui.worker.messages import Result

        worker = app.worker
        answers: list[Any] = []
        deadline = time.monotonic() + 60
        while not any(isinstance(answer, Result) for answer in answers):
            if time.monotonic() > deadline:
                raise TimeoutError("the AI never answered")
            answers += worker.poll()  # waiting for the worker: not part of the walk
            time.sleep(0.005)

        def poll() -> list[Any]:
            del worker.poll  # once: then the worker's own again
            return answers

        worker.poll = poll
        sys.setprofile(profile)
        try:
            app.step(1 / 60)  # the reply is played
            app.step(1 / 60)  # and drawn
        finally:
            sys.setprofile(None)
        assert len(controller.history.entries) == before + 2, "the AI replied"
    finally:
        app.quit(save=False)
    return walk


def report(walk: Walk) -> str:
    """The walk, in a few lines."""
    lines = [
        f"{sum(walk.hops.values())} calls, {len(walk.hops)} distinct hops, "
        f"{len(walk.functions)} functions in {len(walk.modules)} modules; "
        f"{len(walk.scene_returns)} calls back into the scene inside the click",
    ]
    by_module = Counter(name.rsplit(":", 1)[0] for name in walk.functions)
    lines += [f"  {count:3d}  {module}" for module, count in by_module.most_common()]
    return "\n".join(lines)


if __name__ == "__main__":
    measured = measure()
    print(report(measured))
    if "--functions" in sys.argv:
        print("\n".join(sorted(measured.functions)))
