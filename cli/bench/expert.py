"""`bench --expert`: the strongest preset against itself, every move's time and nodes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

EXPERT_GAMES = 40
"""Games of `bench --expert`."""


def expert_benchmark(
    report: dict[str, Any], count: int, check: bool, log: Callable[[str], None]
) -> None:
    """The strongest preset against itself (`ai.bench.expert`), printed and kept in `report`."""
    from plyground.ai.bench.expert import expert_bench, format_expert_bench

    report["expert"] = expert_bench(count, check=check, log=log)
    sys.stdout.write("\n".join(format_expert_bench(report["expert"])) + "\n")
