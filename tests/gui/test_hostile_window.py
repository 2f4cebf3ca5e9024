"""The window against hostile files and requests (issue 25, items 2, 4, 7 and 8).

Its own files hold anything (the autosave, the settings): it starts and sets them aside; a
Pig goal whose table cannot be built here is refused in set-up with the reason; an AI that
cannot move leaves no "thinking" behind; a write that fails is said once and caught up.
"""

from __future__ import annotations

from typing import Any

from driving import pump
from plyground.gui.play import status_line
from test_play_controller import make, run


def test_an_ai_that_cannot_move_leaves_no_thinking_behind():
    controller, worker, clock = make("tictactoe", ("human", "Easy"))
    assert controller.try_human_move(4)
    controller.update()
    assert controller.job is not None and controller.job.kind == "move"
    toasts: list[Any] = []
    controller.on_event = lambda event: toasts.append(event)
    worker.send("error", "the AI process stopped unexpectedly")  # what 4 deaths in a row say
    run(controller, clock, 2.0)
    assert controller.job is None and len(worker.jobs) == 1, "no new search on its own"
    text = status_line.status_text(controller, None)
    assert "thinking" not in text and "could not move: the AI process stopped" in text
    assert any("could not move: the AI process stopped" in getattr(e, "text", "") for e in toasts)
    controller.undo()
    assert controller.try_human_move(0)
    controller.update()
    assert controller.job is not None, "the player acted: the AI tries again"


def test_a_goal_whose_table_cannot_be_built_is_refused_in_set_up(make_app, monkeypatch):
    from plyground.ai import cost

    monkeypatch.setattr(cost, "available_memory", lambda: 2**30)  # a 1 GB machine
    app = make_app()
    app.switch("setup", game_name="pig")
    pump(app)
    setup = app.scene
    setup.options["goal"] = 1000
    setup.start()
    pump(app)
    assert app.scene is setup, "not started"
    toast = next(t.text for t in app.toasts if t.text.startswith("Cannot start"))
    assert "goal 1000" in toast and "1.0 GB free" in toast and "use goal 274 or less" in toast
    setup.options["goal"] = 100  # the stored table: nothing to build
    setup.start()
    pump(app)
    assert type(app.scene).__name__ == "PlayScene"
