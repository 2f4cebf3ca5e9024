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
    from plyground.ai.bench.expert import (
        expert_bench,
        format_expert_bench,
        format_hidden_positions,
        hidden_positions,
    )

    if check:  # bench --expert: first the hidden positions, in a process of their own
        log("the strongest preset at random 12-16-stone positions, in a fresh process")
        report["hidden_positions"] = hidden_positions()
        sys.stdout.write("\n".join(format_hidden_positions(report["hidden_positions"])) + "\n\n")
    report["expert"] = expert_bench(count, check=check, log=log)
    sys.stdout.write("\n".join(format_expert_bench(report["expert"])) + "\n")
