"""Frame times while two AIs play: proof that searching never stalls the drawing loop.

`run()` opens the app headless (SDL dummy driver), starts an AI-vs-AI match and paces
frames at 60 fps with a real clock, timing each frame's work (events, update, draw,
flip).  The first few frames (fonts, cached board art, worker start-up) are reported
separately as warm-up and left out of the statistics.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

WARM_UP_FRAMES = 5


def bench_presets(game: str) -> tuple[str, str]:
    """The two presets that play each other: the kit's choice, else the second and the last."""
    from gui import kits, settings

    chosen = kits.kit_for(game).bench_presets
    if chosen is not None:
        return chosen
    names = settings.preset_names(game) or [settings.CUSTOM]
    return names[min(1, len(names) - 1)], names[-1]


def default_game() -> str:
    """The first registered game that has a kit."""
    import games
    from gui import kits

    return next(name for name in games.GAMES if name in kits.KITS)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def run(game: str | None = None, seed: int = 0, max_seconds: float = 60) -> dict[str, Any]:
    """Play one AI-vs-AI match headless and return frame-time statistics in milliseconds.

    `game`: a registered game's name (None: the first one)."""
    game = game or default_game()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from gui import settings as settings_module
    from gui.app import App
    from gui.scenes.menu import MenuScene
    from gui.scenes.play import PlayScene

    app = App((1280, 800), headless=True, use_saved_settings=False)
    try:
        app.settings = settings_module.Settings()
        app.settings.seed = seed
        app.settings.speed = 0.25
        app.settings.show_analysis = True
        sides = app.settings.sides[game]
        for side, preset in zip(sides, bench_presets(game), strict=False):
            side.kind = settings_module.AI
            side.preset = preset
        app.push(MenuScene(app))
        play = PlayScene(app, game)
        app.push(play)
        frame_budget = 1 / 60
        times: list[float] = []
        thinking: list[float] = []
        warm_up: list[float] = []
        started = time.perf_counter()
        last = started
        while app.running and time.perf_counter() - started < max_seconds:
            now = time.perf_counter()
            dt = now - last
            last = now
            app.step(min(dt, 0.1) if times or warm_up else frame_budget)
            spent = time.perf_counter() - now
            if len(warm_up) < WARM_UP_FRAMES:
                warm_up.append(spent)
            else:
                times.append(spent)
                if play.controller.job is not None:
                    thinking.append(spent)
            if play.controller.recorded:
                break
            rest = frame_budget - (time.perf_counter() - now)
            if rest > 0:
                time.sleep(rest)
        elapsed = time.perf_counter() - started
        state = play.controller.match.state
        ms = [t * 1000 for t in times] or [0.0]
        think_ms = [t * 1000 for t in thinking] or [0.0]
        return {
            "game": game,
            "seed": seed,
            "frames": len(times),
            "median_ms": round(statistics.median(ms), 2),
            "p95_ms": round(_percentile(ms, 0.95), 2),
            "worst_ms": round(max(ms), 2),
            "mean_ms": round(statistics.fmean(ms), 2),
            "thinking_frames": len(thinking),
            "thinking_p95_ms": round(_percentile(think_ms, 0.95), 2),
            "warm_up_ms": [round(t * 1000, 1) for t in warm_up],
            "seconds": round(elapsed, 2),
            "fps": round(len(times) / elapsed, 1) if elapsed else 0.0,
            "moves": play.controller.game.format_moves(play.controller.match.moves),
            "finished": state.is_terminal(),
            "winner": state.winner() if state.is_terminal() else None,
        }
    finally:
        app.quit(save=False)
