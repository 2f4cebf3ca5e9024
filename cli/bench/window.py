"""`bench --gui`: the window's frame times while two AIs play, at rest, and over a long
series (headless: gui.bench.frame_bench)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import IO, Any

from plyground.cli.args import (
    UsageError,
    game_names,
)
from plyground.cli.console import console_for, print_table, say, table


def longest_game() -> str:
    """The registered game without chance whose seeded random games last longest (the memory
    run wants many moves a game)."""
    import random

    from plyground import games

    def plies(name: str) -> int:
        rng, state, count = random.Random(0), games.get_game(name).initial_state(), 0
        while not state.is_terminal() and count < 200:
            state = state.play(rng.choice(state.legal_moves()))
            count += 1
        return count

    fixed = [n for n, f in games.GAMES.items() if not getattr(f, "stochastic", False)]
    return max(fixed or list(games.GAMES), key=plies)


def gui_bench(quick: bool, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Frame times of the window while two AIs play each game (`gui.bench.frame_bench.run`,
    headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from plyground.gui.bench import frame_bench
    except ImportError as error:
        raise UsageError(f"--gui: the GUI frame benchmark is not available ({error})") from None
    results = []
    for name in game_names():
        log(f"frame times: {name}")
        results.append(frame_bench.run(game=name, seed=0, max_seconds=15 if quick else 60))
    return results


def explorer_bench(quick: bool, log: Callable[[str], None]) -> dict[str, Any]:
    """Frame times of the search-tree explorer stepping a ~20,000-node trace (headless)."""
    from plyground.gui.explorer import bench as bench_module

    log("frame times: the explorer stepping a big trace")
    return bench_module.run(frames=120 if quick else 300)


def print_explorer_bench(result: dict[str, Any], out: IO[str]) -> None:
    """One line: the explorer's frame times (the issue's bar: p95 under 16 ms)."""
    console = console_for(out)
    if "error" in result:
        say(console, f"Explorer frame times: not measured ({result['error']})")
        return
    say(
        console,
        f"Explorer frame times while stepping a {result['nodes']:,}-node trace: "
        f"median {result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
        f"worst {result['worst_ms']:.1f} ms over {result['frames']} frames",
    )


def print_gui_bench(results: Sequence[dict[str, Any]], out: IO[str]) -> None:
    """Frame-time statistics (milliseconds) as a table."""
    rows = [
        [
            result["game"],
            result["frames"],
            f"{result['median_ms']:.1f}",
            f"{result['p95_ms']:.1f}",
            f"{result['worst_ms']:.1f}",
            f"{result['thinking_p95_ms']:.1f}",
            f"{result['fps']:.0f}",
            "yes" if result["finished"] else "no",
        ]
        for result in results
    ]
    headers = [
        "game",
        "frames",
        "median ms",
        "p95 ms",
        "worst ms",
        "p95 thinking",
        "fps",
        "game over",
    ]
    console = console_for(out)
    say(console, "Window frame times while two AIs play (headless, 60 fps pacing):")
    print_table(console, table(headers, rows, right=(1, 2, 3, 4, 5, 6)))
