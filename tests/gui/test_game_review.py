"""The game review in the window: the controller sends the positions to the worker and reads
them back one by one (no pygame), the move list's marks, the card's graph clicks, the best
move drawn by every kit, and "Copy position" (button and Ctrl+C) headless."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from plyground import games
from plyground.ai.advice.game_review import Judgement
from plyground.gui.kits import kit_for
from plyground.gui.play import review_card, side_panel
from plyground.gui.storage.settings import HUMAN
from plyground.gui.worker.messages import PositionEvaluated, Result
from plyground.gui.worker.process import review_positions
from plyground.gui.worker.requests import JobHeader, ReviewRequest
from tests.gui.driving import click, click_button, press, start_game
from tests.gui.test_play_controller import make, run


class Answers:
    """A results queue for the worker's own review code."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def put(self, item: Any) -> None:
        self.items.append(item)


def answer_review(worker: Any, stop_after: int | None = None) -> None:
    """Run the newest game_review job with the worker's code (solving: no clock) and hand its
    answers to the fake worker, all of them or the first `stop_after` positions."""
    job = worker.jobs[-1]
    request = job.request
    assert request.kind == "game_review"
    game = games.get_game(request.header.game_name, **request.header.game_options)
    answers = Answers()
    review_positions(job.job_id, request, game, answers, lambda: False)
    positions = [a for a in answers.items if isinstance(a, PositionEvaluated)]
    if stop_after is not None:
        positions = positions[:stop_after]
    worker.answers.extend(positions)
    if stop_after is None:
        worker.answers.append(Result(job.job_id, None, None))
    worker.live = None


def finished_tictactoe() -> tuple[Any, Any, Any]:
    """Human vs human: 1 5 2 6 (O gives the draw away), 3 wins for X."""
    controller, worker, clock = make("tictactoe", (HUMAN, HUMAN), moves=[0, 4, 1, 5, 2])
    run(controller, clock, 1.5)  # the game-over card comes up
    return controller, worker, clock


def test_after_the_game_the_worker_reviews_it_position_by_position():
    controller, worker, clock = finished_tictactoe()
    assert controller.review.review_card_shown()
    job = controller.jobs.job
    assert job is not None and job.kind == "game_review"
    sent = worker.jobs[-1].request
    assert [index for index, _ in sent.positions] == [0, 1, 2, 3, 4]  # the end needs no search
    answer_review(worker, stop_after=2)
    controller.update()
    partial = controller.review.game_review()
    assert len(partial.positions) == 2 and not partial.complete  # the graph fills in
    answer_review(worker)
    run(controller, clock, 0.2)
    review = controller.review.game_review()
    assert review.complete and controller.jobs.job is None
    marks = controller.review.row_marks()
    assert list(marks) == [3] and marks[3].judgement is Judgement.DRAW_GIVEN_AWAY
    assert marks[3].mark == "✗" and marks[3].best_move == 2


def test_a_review_cut_short_goes_on_from_where_it_stopped():
    controller, worker, clock = finished_tictactoe()
    answer_review(worker, stop_after=3)
    controller.update()
    controller.jobs.cancel_search()  # e.g. the AI moved meanwhile
    run(controller, clock, 0.2)
    again = worker.jobs[-1].request
    assert again.kind == "game_review" and [i for i, _ in again.positions] == [3, 4]


def test_copy_text_is_the_moves_up_to_the_position_shown():
    controller, _, _ = finished_tictactoe()
    assert controller.review.copy_text() == "15263"
    controller.browse.browse_to(3)
    assert controller.review.copy_text() == "152"


def test_pig_marks_fall_on_the_turn_rows():
    from plyground.gui.play.controller import PlayController
    from plyground.gui.storage.settings import Settings
    from tests.gui.test_play_controller import Clock, FakeWorker

    stored = Settings()
    stored.set_option("pig", "goal", 30)
    for side in stored.sides["pig"]:
        side.kind = HUMAN
    worker, clock = FakeWorker(), Clock()
    moves = ["roll", 4, "roll", 6, "roll", 5, "hold", "roll", 3, "hold"]
    controller = PlayController("pig", stored, worker, clock, moves=moves)
    controller.browse.browse_to(7)  # browsing starts the review in a game in progress
    run(controller, clock, 0.2)
    assert controller.jobs.job is not None and controller.jobs.job.kind == "game_review"
    answer_review(worker)
    run(controller, clock, 0.2)
    marks = controller.review.row_marks()
    assert set(marks) == {0, 1}  # each turn's worst decision: both holds came too early
    assert {m.mark for m in marks.values()} <= {"?!", "?", "??"}


def _reviewed_scene(make_app: Any, size: tuple[int, int] = (1280, 800)) -> Any:
    app = make_app(size)
    play = start_game(app, "tictactoe", (HUMAN, HUMAN))
    play.controller.ai_enabled = False  # the review is put in by hand below
    for key in "15263":
        press(app, ord(key), key, frames=4)
    controller = play.controller
    assert controller.state.is_terminal()
    from plyground.ai.advice.game_review import review_game
    from plyground.ai.advice.review_evaluator import default_evaluator

    evaluate = default_evaluator(controller.game, None)

    def keep(state: Any) -> Any:
        controller.review.evaluations[state] = evaluate(state)
        return controller.review.evaluations[state]

    review_game(controller.history.initial, controller.history.moves, keep)
    for _ in range(30):
        app.now += 0.05
        app.step(0.05)
    return app, play


def test_clicking_a_graph_point_shows_that_position(make_app):
    app, play = _reviewed_scene(make_app)
    controller = play.controller
    assert review_card.shown(play.model) and play.buttons["copy"].visible
    graph = review_card.parts(play.screen())[1]
    assert play.board_rect().bottom < review_card.card_rect(play.screen()).y  # nothing overlaps
    points = controller.review.review_points()
    step = (graph.width - 2 * review_card._inset(play.screen())) / (len(points) - 1)
    x = graph.x + review_card._inset(play.screen()) + 2 * step
    click(app, (x, graph.centery), frames=3)
    assert controller.browse.browsing and controller.browse.index == 2
    assert controller.review.shown_position_review() is not None
    assert review_card.verdict_text(play.model, play.screen())[0].startswith(
        "After move 2: for X"
    )  # hovered
    app.mouse_override = (5, 5)  # the mouse leaves the graph: the move that led here
    text, _ = review_card.verdict_text(play.model, play.screen())
    assert text.startswith("1. O 5")  # line 1 of the list; no mark: it was fine
    click(app, (graph.x + review_card._inset(play.screen()) + 4 * step, graph.centery), frames=3)
    assert controller.browse.index == 4
    app.mouse_override = (5, 5)
    text, _ = review_card.verdict_text(play.model, play.screen())
    assert "gave a draw away" in text and "best was 3" in text


def test_copy_position_by_button_and_ctrl_c_headless(make_app):
    app, play = _reviewed_scene(make_app)
    click_button(app, play.buttons["copy"], frames=3)
    assert play.model.copied == "15263"
    assert any("15263" in toast.text for toast in app.toasts)  # a visible confirmation
    play.controller.browse.browse_to(2)
    press(app, pygame.K_c, "c", mod=pygame.KMOD_CTRL, frames=3)
    assert play.model.copied == "15"
    assert app.scene is play  # Ctrl+C copied; plain C (compare) was not opened


def test_every_kit_draws_the_best_move(make_app):
    make_app()  # a display for the fonts
    surface = pygame.Surface((800, 600))
    rect = pygame.Rect(0, 0, 800, 600)
    for name, options, move in (
        ("tictactoe", {}, 4),
        ("connect4", {}, 3),
        ("pig", {"goal": 20}, "roll"),
    ):
        game = games.get_game(name, **options)
        state = game.initial_state()
        surface.fill((0, 0, 0))
        kit_for(name).draw_best_move(surface, rect, state, move)
        assert surface.get_bounding_rect().width > 0, name  # something was drawn


@pytest.mark.slow
def test_the_real_worker_reviews_a_finished_game_in_the_window(make_app):
    from tests.gui.driving import wait_until

    app = make_app()
    play = start_game(app, "tictactoe", (HUMAN, HUMAN))
    for key in "15263":
        press(app, ord(key), key, frames=4)
    controller = play.controller
    assert controller.state.is_terminal()
    assert wait_until(app, lambda: controller.review.game_review().complete, seconds=60)
    marks = controller.review.row_marks()
    assert [m.judgement for m in marks.values()] == [Judgement.DRAW_GIVEN_AWAY]
    assert controller.review.game_review().positions[0].graph.is_exact


def test_the_workers_review_stops_when_cancelled():
    game = games.get_game("tictactoe")
    state = game.initial_state()
    points = ((0, state), (1, state.play(4)), (2, state.play(4).play(0)))
    request = ReviewRequest(JobHeader("tictactoe", {}, state), points)
    answers = Answers()
    calls = []

    def stop_after_one() -> bool:
        calls.append(1)
        return any(item.kind == "position" for item in answers.items)

    review_positions(7, request, game, answers, stop_after_one)
    kinds = [item.kind for item in answers.items]
    assert kinds == ["position", "cancelled"]
    assert answers.items[0].index == 0 and answers.items[0].state == state


def test_the_help_card_with_the_copy_key_fits_small_windows(make_app):
    from plyground.gui.app import help_keys
    from plyground.gui.theme import Metrics
    from plyground.gui.widgets import help_card

    make_app()
    lines = help_keys()
    assert any(keys == "Ctrl+C" for keys, _ in lines)
    for size in ((800, 600), (1280, 800), (1366, 768)):
        m = Metrics(size)
        columns, column_w, text, line_h = help_card.fit(size, m, lines)
        body = help_card._layout(lines, columns, column_w, text, line_h, m)[3]
        assert body + m.px(110) <= size[1] - 2 * m.pad, size


def test_a_review_that_fails_says_so_once_and_is_not_retried_for_the_same_moves():
    controller, worker, clock = finished_tictactoe()
    controller.take_events()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "game_review"
    worker.send("error", "MemoryError: out of memory")
    run(controller, clock, 1.0)
    assert controller.jobs.job is None and len(worker.jobs) == 1
    toasts = [event for event in controller.take_events() if event.kind == "toast"]
    assert [t.text for t in toasts] == [
        "The AI could not review a position: MemoryError: out of memory"
    ]


def test_the_scene_clicks_what_the_views_drew(make_app):
    _, play = _reviewed_scene(make_app)
    screen = play.screen()
    drawn = play.drawn
    assert drawn is not None and drawn.review is not None
    assert drawn.review == (review_card.card_rect(screen), review_card.parts(screen)[1])
    assert drawn.panel.history == side_panel.layout(play.model, screen)[1]
    assert screen.header.contains(drawn.status)
    click_on_graph = pygame.event.Event(
        pygame.MOUSEBUTTONDOWN, pos=drawn.review.graph.center, button=1
    )
    assert not review_card.on_mouse(play.model, screen, click_on_graph, None), "nothing drawn"
    assert review_card.on_mouse(play.model, screen, click_on_graph, drawn.review)


def test_hovering_the_graph_names_the_value_there(make_app):
    app, play = _reviewed_scene(make_app)
    graph = review_card.parts(play.screen())[1]
    app.mouse_override = (graph.x + review_card._inset(play.screen()), graph.centery)
    text, _ = review_card.verdict_text(play.model, play.screen())
    assert text == "The start: for X, draw (exact, solver) · click to see it"


def test_the_graph_marks_each_kind_of_point_and_its_legend_lists_those_shown():
    """A proven bound was drawn as a hollow estimate point: it has its own mark."""
    from plyground.ai.advice.game_review import PositionReview
    from plyground.ai.evaluation.provenance import Evaluation, Kind, Source, estimate, exact

    def point(evaluation):
        return PositionReview(0, 0, evaluation, evaluation)

    lower = Evaluation(0.0, Kind.LOWER, Source.SEARCH)
    upper = Evaluation(0.0, Kind.UPPER, Source.SEARCH)
    shown = [point(exact(0.0, Source.SOLVER)), point(lower), point(estimate(0.2, 4))]
    assert review_card.graph_legend(shown, "Red") == (
        "● exact   ▲ at least   ○ estimate   up: Red ahead"
    )
    assert review_card.graph_legend([point(upper)], "X") == "▼ at most   up: X ahead"
    assert review_card.graph_legend([], "X") == "up: X ahead"
    up = review_card.point_shape(lower, (10.0, 10.0), 3.0)
    down = review_card.point_shape(upper, (10.0, 10.0), 3.0)
    assert len(up) == len(down) == 3
    assert up[0][1] < 10.0 < down[0][1]  # the apex points the way the true value may lie
    assert review_card.point_shape(exact(0.0, Source.SOLVER), (10.0, 10.0), 3.0) == []
    assert review_card.point_shape(estimate(0.2, 4), (10.0, 10.0), 3.0) == []


def test_the_card_and_the_terminal_say_what_the_review_found_in_the_same_words(capsys):
    """Once done, the card's title says what `review`'s last line says: how many moves lost
    value and how."""
    import main
    from plyground.gui import screenshot
    from plyground.gui.widgets import text_audit
    from tests.gui.driving import pump

    main.main(["review", "--game", "connect4", "--moves", "5234545545333645613"])
    last = capsys.readouterr().out.splitlines()[-1]
    found = "2 of 19 moves lost value: 1 gave a win away, 1 gave a draw away"
    assert last == f"{found}. Red won."
    app = screenshot.open_scene("review", "connect4", "5234545545333645613", (1280, 658))
    try:
        pump(app, 2)
        with text_audit.TextRecorder() as recorder:
            app.draw()
        assert found in [drawn.text for drawn in recorder.on_window()]
    finally:
        app.quit(save=False)


@pytest.mark.parametrize(
    ("moves", "marked"),
    [(["again", "finish"], {}), (["end"], {0: Judgement.WIN_GIVEN_AWAY})],
)
def test_the_review_of_a_game_where_a_side_moves_twice(moves: list[str], marked: dict) -> None:
    """The 13-line file: `again` gives its side another move, which wins.  Played out, the
    review marks nothing (it once said `again` gave a draw away); `end` gives the win away."""
    from pathlib import Path

    twice = Path(__file__).resolve().parent.parent / "game_files" / "twice.py"
    controller, worker, clock = make(games.resolve(str(twice)), (HUMAN, HUMAN), moves=moves)
    run(controller, clock, 1.5)
    answer_review(worker)
    run(controller, clock, 0.2)
    review = controller.review.game_review()
    assert review.complete
    assert [p.evaluation.value for p in review.positions[:1]] == [0.998]  # a win in 2
    assert {i: mark.judgement for i, mark in controller.review.row_marks().items()} == marked
