"""Watching AI vs AI must not grow the window's memory.

The drawing caches are bounded by bytes and entries; animated values (glow strength,
fades) change no cache key; a headless series keeps its Python heap (tracemalloc
snapshots taken at the same moment of two later games, in a process of its own), its
caches' bytes and its pygame_gui elements flat after a warm-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from plyground.gui.bench import frame_bench
from plyground.gui.widgets import drawing


@pytest.fixture
def caches():
    """Empty drawing caches for the test, restored afterwards."""
    saved = drawing._TEXT_CACHE, drawing._SHAPE_CACHE
    drawing._TEXT_CACHE = drawing.SurfaceCache(drawing.TEXT_CACHE_BYTES)
    drawing._SHAPE_CACHE = drawing.SurfaceCache(drawing.SHAPE_CACHE_BYTES)
    pygame.init()
    yield drawing._TEXT_CACHE, drawing._SHAPE_CACHE
    drawing._TEXT_CACHE, drawing._SHAPE_CACHE = saved


def test_a_cache_drops_the_least_recently_used_over_its_bytes():
    cache = drawing.SurfaceCache(max_bytes=3 * 40 * 10 * 4, max_entries=100)
    for i in range(5):
        cache.put(i, pygame.Surface((40, 10), pygame.SRCALPHA))
    assert len(cache) == 3
    assert cache.keys() == [2, 3, 4]
    assert cache.bytes == 3 * 40 * 10 * 4
    assert cache.get(2) is not None  # now the most recent: 3 goes next
    cache.put(5, pygame.Surface((40, 10), pygame.SRCALPHA))
    assert cache.keys() == [4, 2, 5]
    assert cache.get(3) is None


def test_a_cache_drops_over_its_entry_count_and_counts_a_replaced_key_once():
    cache = drawing.SurfaceCache(max_bytes=10**9, max_entries=4)
    for i in range(6):
        cache.put(i, pygame.Surface((2, 2)))
    assert cache.keys() == [2, 3, 4, 5]
    before = cache.bytes
    cache.put(5, pygame.Surface((2, 2)))
    assert cache.bytes == before
    assert len(cache) == 4
    cache.clear()
    assert (len(cache), cache.bytes) == (0, 0)


def test_a_pulsing_glow_or_fade_adds_one_image(caches):
    _, shapes = caches
    target = pygame.Surface((200, 200), pygame.SRCALPHA)
    for strength in range(0, 256, 3):
        drawing.glow(target, (255, 255, 255), (100, 100), 60, strength)
        drawing.shadow(target, pygame.Rect(20, 20, 80, 40), 8, spread=10, alpha=strength)
        drawing.rounded_rect(target, pygame.Rect(30, 30, 60, 30), (20, 30, 40), 6, alpha=strength)
    assert [key[0] for key in shapes] == ["glow", "shadow", "rr"]


def test_glow_strength_still_shows(caches):
    faint = pygame.Surface((100, 100), pygame.SRCALPHA)
    strong = pygame.Surface((100, 100), pygame.SRCALPHA)
    drawing.glow(faint, (255, 255, 255), (50, 50), 40, 40)
    drawing.glow(strong, (255, 255, 255), (50, 50), 40, 200)
    assert 0 < faint.get_at((50, 50)).a < strong.get_at((50, 50)).a
    # the cached image is left at full strength for the next blit
    image = drawing._SHAPE_CACHE.values()[0]
    assert image.get_alpha() == 255


def test_faded_text_leaves_the_cached_text_opaque(caches):
    texts, _ = caches
    target = pygame.Surface((200, 50), pygame.SRCALPHA)
    for alpha in (255, 128, 10):
        drawing.draw_text(target, "fade", (0, 0), 20, alpha=alpha)
    assert len(texts) == 1
    assert texts.values()[0].get_alpha() == 255


def test_the_caches_stay_under_their_bytes_with_ever_new_text(caches):
    texts, _ = caches
    target = pygame.Surface((10, 10))
    for i in range(700):
        drawing.draw_text(target, f"thinking… depth 9 · {i * 1234} nodes " * 3, (0, 0), 40)
    assert texts.bytes <= drawing.TEXT_CACHE_BYTES
    assert len(texts) <= 600
    assert drawing.cache_bytes()["text"] == texts.bytes


@pytest.mark.slow
def test_a_series_keeps_memory_flat_after_a_warm_up(tmp_path):
    """Measured in a process of its own (tests/gui/memory_probe.py): there tracemalloc
    starts once and is never stopped, which can crash Python 3.11 under threads."""
    probe = Path(__file__).with_name("memory_probe.py")
    env = {**os.environ, "PLYGROUND_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run(
        [sys.executable, str(probe)], capture_output=True, text=True, env=env, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["finished"], "the series did not play its games in time"
    grown = report["grown"]
    assert grown < 256 * 1024, f"the Python heap grew by {grown} bytes over 4 games"
    assert report["elements_now"] == report["elements"]
    assert report["shapes_now"] <= report["shapes"] + 4  # pulses and fades add no images
    assert report["bounded"]["text"] <= drawing.TEXT_CACHE_BYTES
    assert report["bounded"]["shapes"] <= drawing.SHAPE_CACHE_BYTES


@pytest.mark.slow
def test_memory_run_reports_resident_memory_and_games():
    # 8 s: a tic-tac-toe game between two Easy sides with its animations takes about 2 s, and
    # none finished in 4 s on two cores under a load of 15 (the count, not the time, is tested)
    report = frame_bench.memory_run(
        "tictactoe", seconds=8, warm_up=1, every=1, presets=("Easy", "Easy")
    )
    assert report["games"] >= 1
    assert report["rss_start_mb"] is None or report["rss_start_mb"] > 0
    assert report["warm_up_seconds"] >= 1
    assert len(report["samples"]) >= 4
    assert report["cache_bytes"]["shapes"] <= report["cache_limits"]["shapes"]
    lines = frame_bench.format_memory(report)
    assert len(lines) == 3
    assert "tictactoe (Easy vs Easy" in lines[0]
    assert "games" in lines[1]
    assert "of 16 MB" in lines[2]
