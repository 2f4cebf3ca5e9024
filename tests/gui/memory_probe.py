"""The heap measurement of `test_memory.py`, run in a process of its own.

Python 3.11's `tracemalloc.stop()` can race with another thread that allocates while
entering or leaving Python (a thread ending, SDL's audio thread): a crash, seen twice in
full test runs.  Here tracing starts once and is never stopped: the figures go to
stdout as JSON and the process leaves with `os._exit`, after closing the app."""

from __future__ import annotations

import gc
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _play_until(app: Any, controller: Any, games: int, seconds: float) -> bool:
    """Run frames (1/60 s each, real time for the worker) until `games` games are counted."""
    deadline = time.perf_counter() + seconds
    while len(controller.series) < games and time.perf_counter() < deadline:
        app.step(1 / 60)
        time.sleep(0.001)
    return len(controller.series) >= games


def heap() -> int:
    """Bytes the Python heap holds outside the bounded drawing caches (emptied first; their
    bounds are checked apart), less the random states kept per move of the game shown
    (about 20 KB each: they follow the current game's length, not the series').  Garbage
    waiting for the cycle collector is collected first: it is not held."""
    from plyground.gui.widgets import drawing

    drawing.clear_caches()
    gc.collect()  # garbage in cycles (pygame_gui's text layouts) is not kept: not a leak
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__.replace("tracemalloc", "random"))]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


def measure() -> dict[str, Any]:
    """Warm up over 5 games, then the heap growth over 4 more (from game 7 to game 11)."""
    from plyground.gui.bench import frame_bench
    from plyground.gui.widgets import drawing

    app, play = frame_bench.open_series("connect4", ("Easy", "Medium"), seed=3)
    controller = play.controller
    report: dict[str, Any] = {"finished": False}
    try:
        if not _play_until(app, controller, 5, 180):
            return report
        tracemalloc.start()
        if not _play_until(app, controller, 7, 120):
            return report
        shapes, elements = len(drawing._SHAPE_CACHE), frame_bench.ui_elements(app)
        base = heap()
        if not _play_until(app, controller, 11, 240):
            return report
        report.update(
            finished=True,
            shapes=shapes,
            elements=elements,
            shapes_now=len(drawing._SHAPE_CACHE),
            elements_now=frame_bench.ui_elements(app),
            bounded=drawing.cache_bytes(),
            grown=heap() - base,
        )
        return report
    finally:
        app.quit(save=False)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    print(json.dumps(measure()), flush=True)
    os._exit(0)  # no interpreter teardown: tracing was never stopped
