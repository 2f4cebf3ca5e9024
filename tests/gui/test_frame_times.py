"""The drawing loop keeps its frame rate while the AI thinks (gui.bench.frame_bench)."""

from __future__ import annotations

import multiprocessing

import pytest

from plyground.gui.bench import frame_bench


@pytest.mark.slow
def test_frame_bench_reports_its_figures():
    """The bench runs and reports; how smooth the frames are is a benchmark's figure
    (`python main.py bench --gui`), never a timed test on a shared machine."""
    stats = frame_bench.run("tictactoe", seed=1, max_seconds=8)
    for key in ("frames", "median_ms", "p95_ms", "worst_ms", "thinking_frames"):
        assert key in stats
    assert stats["frames"] > 30
    assert 0 < stats["median_ms"] <= stats["p95_ms"] <= stats["worst_ms"], stats
    assert multiprocessing.active_children() == []
