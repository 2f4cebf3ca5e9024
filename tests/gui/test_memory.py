"""Watching AI vs AI must not grow the window's memory (issue 16).

The drawing caches are bounded by bytes and entries; animated values (glow strength,
fades) change no cache key; a headless series keeps its Python heap (tracemalloc
snapshots taken at the same moment of two later games), its caches' bytes and its
pygame_gui elements flat after a warm-up."""

from __future__ import annotations

import gc
import time
import tracemalloc

import pygame
import pytest

from gui import drawing, frame_bench


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


def _play_until(app, controller, games: int, seconds: float) -> bool:
    """Run frames (1/60 s each, real time for the worker) until `games` games are counted."""
    deadline = time.perf_counter() + seconds
    while len(controller.series) < games and time.perf_counter() < deadline:
        app.step(1 / 60)
        time.sleep(0.001)
    return len(controller.series) >= games


def _heap() -> int:
    """Bytes the Python heap holds outside the bounded drawing caches (emptied first; their
    bounds are checked apart), less the random states kept per move of the game shown
    (about 20 KB each: they follow the current game's length, not the series').  Garbage
    waiting for the cycle collector is collected first: it is not held."""
    drawing.clear_caches()
    gc.collect()  # garbage in cycles (pygame_gui's text layouts) is not kept: not a leak
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__.replace("tracemalloc", "random"))]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


@pytest.mark.slow
def test_a_series_keeps_memory_flat_after_a_warm_up():
    app, play = frame_bench.open_series("connect4", ("Easy", "Medium"), seed=3)
    controller = play.controller
    try:
        # Warm-up: the bounded caches (text sizes, ellipsized panel rows) fill during the
        # first games; after that the heap must stay flat.
        assert _play_until(app, controller, 5, 180), "the warm-up games did not finish"
        tracemalloc.start()
        try:
            assert _play_until(app, controller, 7, 120)
            shapes, elements = len(drawing._SHAPE_CACHE), frame_bench.ui_elements(app)
            base = _heap()
            assert _play_until(app, controller, 11, 240)
            bounded, shapes_now = drawing.cache_bytes(), len(drawing._SHAPE_CACHE)
            elements_now = frame_bench.ui_elements(app)
            grown = _heap() - base
        finally:
            tracemalloc.stop()
        assert grown < 256 * 1024, f"the Python heap grew by {grown} bytes over 4 games"
        assert elements_now == elements
        assert shapes_now <= shapes + 4  # pulses and fades add no images
        assert bounded["text"] <= drawing.TEXT_CACHE_BYTES
        assert bounded["shapes"] <= drawing.SHAPE_CACHE_BYTES
    finally:
        app.quit(save=False)


@pytest.mark.slow
def test_memory_run_reports_resident_memory_and_games():
    report = frame_bench.memory_run(
        "tictactoe", seconds=4, warm_up=1, every=1, presets=("Easy", "Easy")
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
