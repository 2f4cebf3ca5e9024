"""Frame times of the explorer while it steps through a big recorded search (`bench --gui`).

`run()` opens the app headless, records a search of about 20,000 nodes (by default the game
without chance with the most moves at the start: minimax, depth 5; 18,730 nodes on the
project's games, docs/BENCHMARKS.md), opens every node the layout can show, and plays the
stepper at its fastest setting, timing each frame's work (events, update, draw).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

WARM_UP_FRAMES = 5


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def run(
    frames: int = 300,
    size: tuple[int, int] = (1280, 800),
    game: str | None = None,
    algorithm: str = "minimax",
    depth: int = 5,
) -> dict[str, Any]:
    """Step a big trace for `frames` frames; frame-time statistics in milliseconds.

    `game` None: the registered game without chance with the most moves at the start (the
    biggest tree for the depth).
    """
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from plyground import games
    from plyground.gui.app import App
    from plyground.gui.explorer.scene import ExplorerScene
    from plyground.gui.scenes.menu import MenuScene

    app = App(size, headless=True, use_saved_settings=False)
    try:
        app.push(MenuScene(app))
        if game is None:
            game = max(
                (
                    name
                    for name, factory in games.GAMES.items()
                    if not getattr(factory, "stochastic", False)
                ),
                key=lambda name: len(games.get_game(name).initial_state().legal_moves()),
            )
        scene = ExplorerScene(app, games.get_game(game).initial_state(), algorithm, depth)
        app.push(scene)
        started = time.perf_counter()
        while not scene.ready and not scene.model.error:
            app.step(1 / 60)
            time.sleep(0.005)
        record_seconds = time.perf_counter() - started
        if scene.model.trace is None:
            return {"error": scene.model.error}
        scene.model.expanded = {node.id for node in scene.model.trace.nodes if node.children}
        scene.speed = 1000.0
        scene.go_to(0)
        scene.toggle_play()
        times: list[float] = []
        for index in range(frames + WARM_UP_FRAMES):
            begin = time.perf_counter()
            app.step(1 / 60)
            if index >= WARM_UP_FRAMES:
                times.append(time.perf_counter() - begin)
            if not scene.playing:
                scene.go_to(0)
                scene.toggle_play()
        ms = [t * 1000 for t in times]
        found = scene.current_layout()
        return {
            "nodes": scene.model.trace.totals()[0],
            "events": len(scene.model.trace.events),
            "drawn_items": 0 if found is None else len(found.items),
            "record_seconds": round(record_seconds, 2),
            "frames": len(ms),
            "median_ms": round(statistics.median(ms), 2),
            "p95_ms": round(_percentile(ms, 0.95), 2),
            "worst_ms": round(max(ms), 2),
        }
    finally:
        app.quit(save=False)


if __name__ == "__main__":
    print(run())
