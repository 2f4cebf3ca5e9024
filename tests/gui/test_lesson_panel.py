"""The lessons' panel: one text size for the whole search, and the counts always there."""

from __future__ import annotations

import pytest

from plyground.gui import screenshot
from plyground.gui.explorer import panel
from plyground.gui.widgets import text_audit

SIZES = [(800, 600), (1024, 640), (1280, 658), (1366, 705), (1920, 1080)]
LESSONS = [
    (lesson, variant, algorithm)
    for lesson in (1, 2, 3, 6)
    for variant in (False, True)
    for algorithm in ("minimax", "alphabeta", "expectiminimax")
]


def _drawn_fit(app: object, step: int) -> tuple[tuple[int, int], set[str]]:
    """The (points, level) the panel is drawn at on `step`, and the texts drawn."""
    model = app.scene.model  # type: ignore[attr-defined]
    model.go_to(step)
    seen: list[tuple[int, int]] = []
    original = panel._write_panel

    def spy(out: panel.PanelWriter, *args: object) -> int:
        if not out.dry:
            seen.append((out.points, out.level))
        return original(out, *args)  # type: ignore[arg-type]

    panel._write_panel = spy  # type: ignore[assignment]
    try:
        with text_audit.TextRecorder() as recorder:
            app.request_frame()  # type: ignore[attr-defined]
            app.draw()  # type: ignore[attr-defined]
    finally:
        panel._write_panel = original  # type: ignore[assignment]
    return seen[-1], {text.text for text in recorder.texts}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_lesson_keeps_one_text_size_and_shows_its_final_counts(size):
    for lesson, variant, algorithm in LESSONS:
        options = {"lesson": lesson, "variant": variant, "algorithm": algorithm}
        app = screenshot.open_scene("lesson", "tictactoe", "", size, options)
        try:
            model = app.scene.model
            if model.algorithm != algorithm:
                continue  # the lesson does not offer it
            last = model.last_step
            fits = set()
            for step in sorted({0, 1, last // 3, last // 2, 2 * last // 3, last - 1, last}):
                fit, texts = _drawn_fit(app, step)
                fits.add(fit)
                counts = [t for t in texts if t.startswith(("Nodes visited", "Nodes "))]
                assert counts, (lesson, variant, algorithm, step, "no counts")
            assert len(fits) == 1, (lesson, variant, algorithm, fits)
        finally:
            app.quit(save=False)
