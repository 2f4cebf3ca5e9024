"""The drawing loop keeps its frame rate while the AI thinks (gui.frame_bench)."""

from __future__ import annotations

import multiprocessing

import pytest
from plyground.gui import frame_bench


@pytest.mark.slow
def test_frame_bench_reports_smooth_frames():
    stats = frame_bench.run("tictactoe", seed=1, max_seconds=8)
    for key in ("frames", "median_ms", "p95_ms", "worst_ms", "thinking_frames"):
        assert key in stats
    assert stats["frames"] > 30
    assert stats["p95_ms"] < 33, stats
    assert multiprocessing.active_children() == []
