"""Frame times while two AIs play: proof that searching never stalls the drawing loop.

`run()` opens the app headless (SDL dummy driver), starts an AI-vs-AI match and paces
frames at 60 fps with a real clock, timing each frame's work (events, update, draw,
flip).  The first few frames (fonts, cached board art, worker start-up) are reported
separately as warm-up and left out of the statistics.

`idle_run()` measures the window at rest: the process's CPU time over wall time
with the real loop (`App.wait` + `App.step`) at the menu and on a still board, against the
old way of drawing every frame at 60 fps.

`memory_run()` watches a long AI-vs-AI series the same way and reports the
process's resident memory after a warm-up and at the end, with the games played, the
drawing caches' bytes and the number of pygame_gui elements.
"""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from plyground.ai.evaluation.wording import counted

if TYPE_CHECKING:  # for annotations
    from plyground.gui.app import App

WARM_UP_FRAMES = 5


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """SIGTERM and Ctrl+C end a benchmark (as KeyboardInterrupt) even with SDL's display up.

    SDL turns SIGTERM into a QUIT event when no handler is set; a benchmark's loop does not
    wait for events, so the signal would be lost.  With Python's handler installed the
    signal interrupts at once; the caller's `finally` closes the app and its worker.
    """

    def interrupt(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous: dict[int, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(ValueError, OSError):  # only in the main thread
            previous[signum] = signal.signal(signum, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)


def step(app: App, dt: float) -> None:
    """One frame of a benchmark; a window closed under it (a QUIT event) ends the run."""
    app.step(dt)
    if not app.running:
        raise KeyboardInterrupt("the window was closed")


def bench_presets(game: str) -> tuple[str, str]:
    """The two presets that play each other: the kit's choice, else the second and the last."""
    from plyground.gui import kits
    from plyground.gui.storage import settings

    chosen = kits.kit_for(game).bench_presets
    if chosen is not None:
        return chosen
    names = settings.preset_names(game) or [settings.CUSTOM]
    return names[min(1, len(names) - 1)], names[-1]


def default_game() -> str:
    """The first registered game that has a kit."""
    from plyground import games
    from plyground.gui import kits

    return next(name for name in games.GAMES if name in kits.KITS)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def run(game: str | None = None, seed: int = 0, max_seconds: float = 60) -> dict[str, Any]:
    """Play one AI-vs-AI match headless and return frame-time statistics in milliseconds.

    `game`: a registered game's name (None: the first one)."""
    game = game or default_game()
    app, play = open_series(game, bench_presets(game), seed=seed, speed=0.25)
    try:
        with ending_on_signals():
            return _frames(app, play, game, seed, max_seconds)
    finally:
        app.quit(save=False)


def _frames(app: App, play: Any, game: str, seed: int, max_seconds: float) -> dict[str, Any]:
    """`run`'s loop and figures."""
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
        step(app, min(dt, 0.1) if times or warm_up else frame_budget)
        spent = time.perf_counter() - now
        if len(warm_up) < WARM_UP_FRAMES:
            warm_up.append(spent)
        else:
            times.append(spent)
            if play.controller.jobs.job is not None:
                thinking.append(spent)
        if play.controller.recorded:
            break
        rest = frame_budget - (time.perf_counter() - now)
        if rest > 0:
            time.sleep(rest)
    elapsed = time.perf_counter() - started
    state = play.controller.history.state
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
        "moves": play.controller.game.format_moves(play.controller.history.moves),
        "finished": state.is_terminal(),
        "winner": state.winner() if state.is_terminal() else None,
    }


def _idle_share(app: App, seconds: float, rest: bool) -> tuple[float, int]:
    """(CPU seconds / wall seconds, frames drawn) over `seconds` of the loop; `rest=False`
    draws every frame at 60 fps, as the window did before it learned to rest."""
    import pygame

    clock = pygame.time.Clock()
    frames = app.frames
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < seconds:
        if rest:
            step(app, app.wait(clock))
        else:
            app.request_frame()
            step(app, min(clock.tick(60) / 1000.0, 0.1))
    return (time.process_time() - cpu) / (time.perf_counter() - wall), app.frames - frames


QUIET_LIMIT = 10.0
"""How long `idle_run` waits, after `settle`, for the window to stop drawing before it
measures the rest (only a heavily loaded machine needs any of it)."""


def idle_run(seconds: float = 5.0, settle: float = 2.5) -> dict[str, Any]:
    """CPU share of the window at rest at the menu and on a still board (a human's turn,
    analysis hidden), after `settle` seconds; resting loop and drawing every frame."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from plyground.gui.app import App
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.scenes.menu import MenuScene
    from plyground.gui.storage import settings as settings_module

    game = default_game()
    app = App((1280, 800), headless=True, use_saved_settings=False)
    results: dict[str, Any] = {"game": game, "seconds": seconds}
    try:
        app.settings = settings_module.Settings()
        app.settings.show_analysis = False
        app.settings.sides[game][1].kind = settings_module.AI
        app.push(MenuScene(app))
        with ending_on_signals():
            for where in ("menu", "board"):
                if where == "board":
                    app.push(PlayScene(app, game))
                _idle_share(app, settle, rest=True)
                quiet_by = time.monotonic() + QUIET_LIMIT
                while _idle_share(app, 0.2, rest=True)[1] and time.monotonic() < quiet_by:
                    pass  # a loaded machine: a last pulse or toast is still settling
                for rest in (True, False):
                    share, frames = _idle_share(app, seconds, rest)
                    key = f"{where}_{'rest' if rest else 'always'}"
                    results[key] = {"cpu_percent": round(100 * share, 1), "frames": frames}
    finally:
        app.quit(save=False)
    return results


def format_idle(result: dict[str, Any]) -> list[str]:
    """`idle_run()`'s figures as a few lines of text."""
    lines = [f"Window at rest (headless, {result['seconds']:.0f} s each, process CPU / wall):"]
    for where, label in (("menu", "menu"), ("board", f"still {result['game']} board")):
        rest, always = result[f"{where}_rest"], result[f"{where}_always"]
        lines.append(
            f"  {label}: {rest['cpu_percent']:.1f}% CPU, {rest['frames']} frames resting; "
            f"{always['cpu_percent']:.1f}% CPU, {always['frames']} frames drawing every frame"
        )
    return lines


def resident_mb() -> float | None:
    """This process's resident memory in MB (Linux /proc), None where unknown."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 1e6, 1)


def open_series(game: str, presets: tuple[str, str], seed: int = 0, speed: float = 0.0) -> Any:
    """A headless app playing `presets[0]` vs `presets[1]` at `speed`: (app, play scene)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from plyground.gui.app import App
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.scenes.menu import MenuScene
    from plyground.gui.storage import settings as settings_module

    app = App((1280, 800), headless=True, use_saved_settings=False)
    try:
        app.settings = settings_module.Settings()
        app.settings.seed = seed
        app.settings.speed = speed
        app.settings.show_analysis = True
        for side, preset in zip(app.settings.sides[game], presets, strict=False):
            side.kind = settings_module.AI
            side.preset = preset
        app.push(MenuScene(app))
        play = PlayScene(app, game)
        app.push(play)
    except BaseException:
        app.quit(save=False)
        raise
    return app, play


def ui_elements(app: App) -> int:
    """How many pygame_gui elements the app's UI manager holds."""
    return len(app.manager.get_sprite_group().sprites())


def memory_run(
    game: str | None = None,
    presets: tuple[str, str] | None = None,
    seconds: float = 600.0,
    warm_up: float = 60.0,
    every: float = 30.0,
    seed: int = 0,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Watch an AI-vs-AI series at the fastest speed, frames paced at 60 fps like a window.

    Resident memory is sampled every `every` seconds; 'start' is the sample taken after
    `warm_up` seconds (fonts, board art, the worker's first searches), 'end' the last one.
    `game`: a registered game's name (None: the first one).  `log` receives a line per
    sample."""
    from plyground.gui.widgets import drawing

    game = game or default_game()
    presets = presets or bench_presets(game)
    app, play = open_series(game, presets, seed=seed, speed=0.0)
    controller = play.controller
    samples: list[dict[str, Any]] = []
    try:
        frame_budget = 1 / 60
        started = time.perf_counter()
        last = started
        next_sample = started
        while app.running:
            now = time.perf_counter()
            step(app, min(now - last, 0.1))
            last = now
            elapsed = now - started
            if now >= next_sample or elapsed >= seconds:
                sample = {
                    "seconds": round(elapsed, 1),
                    "games": len(controller.series),
                    "rss_mb": resident_mb(),
                    "cache_bytes": sum(drawing.cache_bytes().values()),
                    "ui_elements": ui_elements(app),
                }
                samples.append(sample)
                if log is not None:
                    log(
                        f"memory: {sample['seconds']:.0f} s, "
                        f"{counted(len(controller.series), 'game')}, {sample['rss_mb']} MB resident"
                    )
                next_sample = now + every
                if elapsed >= seconds:
                    break
            rest = frame_budget - (time.perf_counter() - now)
            if rest > 0:
                time.sleep(rest)
    finally:
        app.quit(save=False)
    after = [s for s in samples if s["seconds"] >= warm_up] or samples[-1:]
    first, final = after[0], samples[-1]
    start_mb, end_mb = first["rss_mb"], final["rss_mb"]
    minutes = (final["seconds"] - first["seconds"]) / 60
    growth = None
    if start_mb is not None and end_mb is not None and minutes > 0:
        growth = round((end_mb - start_mb) / minutes, 2)
    return {
        "game": game,
        "presets": list(presets),
        "seconds": final["seconds"],
        "warm_up_seconds": first["seconds"],
        "games": final["games"],
        "games_after_warm_up": final["games"] - first["games"],
        "rss_start_mb": start_mb,
        "rss_end_mb": end_mb,
        "rss_peak_mb": max((s["rss_mb"] for s in after if s["rss_mb"] is not None), default=None),
        "mb_per_minute": growth,
        "cache_bytes": drawing.cache_bytes(),
        "cache_limits": {"text": drawing.TEXT_CACHE_BYTES, "shapes": drawing.SHAPE_CACHE_BYTES},
        "ui_elements": [first["ui_elements"], final["ui_elements"]],
        "samples": samples,
    }


def format_memory(result: dict[str, Any]) -> list[str]:
    """`memory_run()`'s figures as a few lines of text."""
    mb = 1024 * 1024
    caches, limits = result["cache_bytes"], result["cache_limits"]
    rate = result["mb_per_minute"]
    return [
        f"Window memory while two AIs play {result['game']} "
        f"({' vs '.join(result['presets'])}, fastest speed, headless, "
        f"{result['seconds']:.0f} s):",
        f"  resident {result['rss_start_mb']} MB after a {result['warm_up_seconds']:.0f} s "
        f"warm-up, {result['rss_end_mb']} MB at the end (peak {result['rss_peak_mb']} MB, "
        f"{'?' if rate is None else f'{rate:+.2f}'} MB/min); {counted(result['games'], 'game')}, "
        f"{result['games_after_warm_up']} after the warm-up",
        f"  drawing caches: text {caches['text'] / mb:.1f} of {limits['text'] / mb:.0f} MB, "
        f"shapes {caches['shapes'] / mb:.1f} of {limits['shapes'] / mb:.0f} MB; "
        f"pygame_gui elements {result['ui_elements'][0]} -> {result['ui_elements'][1]}",
    ]
