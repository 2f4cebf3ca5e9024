"""The play controller without a display: a fake worker that runs the real searches on
request, and a clock moved by hand."""

from __future__ import annotations

from typing import Any

import pytest

from plyground.gui.play.controller import HUMAN_AI_DELAY, PlayController
from plyground.gui.storage import savefile
from plyground.gui.storage.settings import AI, HUMAN, Settings
from plyground.gui.worker.messages import Failed, Progress, Result, WorkerMessage
from plyground.gui.worker.process import analyse, choose
from plyground.gui.worker.requests import AnalysisRequest, Job, MoveRequest, Request


class FakeWorker:
    """Takes jobs like `AIWorker`; `finish()` answers the newest one with a real search."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        self.cancelled = 0
        self.started = 0
        self.games_ended = 0
        self.answers: list[WorkerMessage] = []
        self.live: int | None = None

    def start(self) -> None:
        self.started += 1

    def end_game(self) -> None:
        self.games_ended += 1

    def cancel(self) -> None:
        if self.live is not None:
            self.cancelled += 1
        self.live = None

    def poll(self) -> list[WorkerMessage]:
        answers, self.answers = self.answers, []
        return answers

    preparing_engine = False

    def preparing(self, game_name: str) -> bool:
        return self.preparing_engine

    def submit(self, request: Request) -> int:
        self.cancel()
        job = Job(len(self.jobs) + 1, request)
        self.jobs.append(job)
        self.live = job.job_id
        return job.job_id

    def send(self, kind: str, *payload: Any) -> None:
        """Answer the running job: "progress" (a snapshot) or "error" (a reason)."""
        assert self.live is not None
        typed = {"progress": Progress, "error": Failed}[kind]
        self.answers.append(typed(self.live, *payload))

    def finish(self) -> None:
        """Answer the running job with the worker's own search code."""
        from plyground import games

        job = self.jobs[-1]
        assert self.live == job.job_id
        request = job.request
        header = request.header
        game = games.get_game(header.game_name, **header.game_options)
        never = lambda: False  # noqa: E731
        if isinstance(request, AnalysisRequest):
            move, result = analyse(request, None, never)
        else:
            assert isinstance(request, MoveRequest)
            move, result = choose(request, game, None, never)
        self.answers.append(Result(job.job_id, move, result))
        self.live = None


class Clock:
    """Time moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(
    game: str = "tictactoe", sides: tuple[str, str] = (HUMAN, "Easy"), **options: Any
) -> tuple[PlayController, FakeWorker, Clock]:
    """A controller on fresh settings with the given sides (human or a preset name)."""
    stored = Settings()
    for side, role in zip(stored.sides[game], sides, strict=True):
        side.kind = HUMAN if role == HUMAN else AI
        if role != HUMAN:
            side.preset = role
    worker, clock = FakeWorker(), Clock()
    return PlayController(game, stored, worker, clock, **options), worker, clock


def run(controller: PlayController, clock: Clock, seconds: float = 1.0) -> None:
    """Frames for `seconds` of hand-moved time."""
    for _ in range(round(seconds * 20)):
        clock.now += 0.05
        controller.update()


def ai_replies(controller: PlayController, worker: FakeWorker, clock: Clock) -> Any:
    """Let the AI's search run and its move land; returns the move."""
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "move"
    worker.finish()
    run(controller, clock, HUMAN_AI_DELAY + 0.2)
    return controller.history.moves[-1]


def test_undo_takes_back_the_ai_reply_and_the_human_move_and_redo_replays_them():
    controller, worker, clock = make()
    assert controller.try_human_move(4)
    ai_replies(controller, worker, clock)
    assert len(controller.history.entries) == 2 and controller.human_turn()
    controller.undo()
    assert controller.history.entries == [] and controller.human_turn()
    controller.redo()
    assert controller.history.moves[0] == 4 and len(controller.history.entries) == 2
    controller.redo()
    assert controller.current_notice() == "Nothing to redo"


def test_undo_new_game_and_leaving_cancel_the_running_search():
    controller, worker, _ = make()
    controller.try_human_move(4)
    controller.update()
    assert controller.jobs.job is not None
    controller.undo()
    assert controller.jobs.job is None and worker.cancelled == 1
    controller.try_human_move(0)
    controller.update()
    controller.new_game()
    assert (
        controller.jobs.job is None and worker.cancelled == 2 and controller.history.entries == []
    )
    controller.try_human_move(0)
    controller.update()
    controller.close()
    assert controller.jobs.job is None and worker.cancelled == 3


def test_a_stale_answer_is_ignored():
    controller, worker, clock = make()
    controller.try_human_move(4)
    controller.update()
    job = worker.jobs[-1]
    controller.undo()
    worker.answers.append(Result(job.job_id, 0, None))
    run(controller, clock, 1.0)
    assert controller.history.entries == [] and controller.jobs.analysis is None


def test_series_counts_each_finished_game_once_and_undo_keeps_it():
    controller, _, clock = make(sides=(HUMAN, HUMAN))
    for move in (0, 3, 1, 4, 2):  # X wins along the top row
        controller.try_human_move(move)
    run(controller, clock)
    assert controller.recorded and controller.score == [1, 0, 0]
    assert controller.series.games == [("Human #1", "Human #2", 1.0)]
    controller.undo()
    assert controller.score == [1, 0, 0] and len(controller.series) == 1
    controller.redo()
    run(controller, clock)
    assert controller.score == [1, 0, 0] and len(controller.series) == 1
    controller.new_game()
    for move in (3, 0, 4, 1, 8, 2):  # O wins this time
        controller.try_human_move(move)
    run(controller, clock)
    assert controller.score == [1, 1, 0] and len(controller.series) == 2


def test_pause_and_step_in_ai_vs_ai():
    controller, worker, clock = make(sides=("Easy", "Easy"))
    controller.settings.speed = 0.0
    controller.set_paused(True)
    run(controller, clock, 0.5)
    assert worker.jobs == [] and controller.history.entries == []
    controller.step()
    controller.update()
    worker.finish()
    run(controller, clock, 0.5)
    assert len(controller.history.entries) == 1 and not controller.step_requested
    run(controller, clock, 0.5)
    assert len(controller.history.entries) == 1
    controller.undo()
    assert controller.history.entries == [] and controller.paused


def test_autosave_keeps_the_game_in_progress_and_drops_a_finished_one(config_dir):
    controller, _, clock = make(sides=(HUMAN, HUMAN), autosave=True)
    path = savefile.autosave_path()
    run(controller, clock, 1.0)
    assert not path.exists(), "an untouched game is not saved"
    for move in (0, 3, 1):
        controller.try_human_move(move)
    run(controller, clock, 1.0)
    saved = savefile.load_game(path)
    assert saved.moves == [0, 3, 1] and saved.seed == controller.history.seed
    controller.try_human_move(4)
    controller.try_human_move(2)
    run(controller, clock, 1.0)
    assert controller.state.is_terminal() and not path.exists()


def test_solving_says_solving_and_the_depth_reached_not_the_internal_limit():
    from plyground.ai.engine.result import SearchProgress

    controller, worker, _ = make(game="connect4", sides=(HUMAN, "Hard"))
    controller.try_human_move(3)
    controller.update()
    worker.send("progress", SearchProgress(9, 5000, 0.5, 3, 0.1))
    worker.send("progress", SearchProgress(10_000, 12_345, 1.0, 3, 0.1))
    controller.jobs.poll_worker()
    text = controller.jobs.thinking_text()
    assert "10000" not in text and "10,000" not in text
    assert text == "Yellow is thinking… solving · reached depth 9 · 12.3k nodes"


def test_a_solve_waiting_for_the_solver_to_compile_says_so():
    controller, worker, _ = make(game="connect4", sides=(HUMAN, "Expert"))
    worker.preparing_engine = True  # the worker is still compiling connect-four's engine
    controller.try_human_move(3)
    controller.update()
    assert "solver is still being prepared" in controller.jobs.thinking_text()
    worker.preparing_engine = False
    assert "solver is still being prepared" not in controller.jobs.thinking_text()


def test_after_undo_the_panel_no_longer_describes_the_undone_ai_move():
    controller, worker, clock = make()
    controller.settings.show_analysis = True
    controller.try_human_move(4)
    ai_replies(controller, worker, clock)
    assert controller.jobs.analysis is not None and controller.jobs.analysis.source == "ai"
    controller.undo()
    assert controller.jobs.analysis is None and controller.jobs.board_values() is None


def test_showing_the_analysis_after_an_ai_move_works_out_the_board_values():
    controller, worker, clock = make()
    controller.try_human_move(4)
    ai_replies(controller, worker, clock)
    assert controller.jobs.board_values() is None
    controller.toggle_analysis()
    controller.update()
    job = controller.jobs.job
    assert job is not None and job.kind == "position" and job.player == controller.state.to_move
    worker.finish()
    controller.update()
    board = controller.jobs.board_values()
    assert board is not None and board.entries == len(controller.history.entries)
    assert set(board.values) == set(controller.state.legal_moves())
    analysis = controller.jobs.analysis  # the human's advice, beside the AI's own view
    assert analysis is not None and analysis.source == "hint"
    assert analysis.opponent is not None and analysis.opponent.source == "ai"


def test_board_values_are_always_for_the_side_to_move_now():
    controller, worker, clock = make(sides=(HUMAN, "Expert"))
    controller.settings.show_analysis = True
    controller.try_human_move(0)
    controller.update()
    worker.finish()
    controller.jobs.poll_worker()
    ai_position = len(controller.history.entries)
    board = controller.jobs.board_values()
    assert board is not None and board.entries == ai_position  # the AI's turn, its values
    run(controller, clock, HUMAN_AI_DELAY + 0.2)
    assert controller.human_turn() and controller.jobs.board_values() is None
    assert controller.jobs.job is not None and controller.jobs.job.kind == "position"
    worker.finish()
    controller.update()
    board = controller.jobs.board_values()
    assert board is not None and set(board.values) == set(controller.state.legal_moves())


def test_a_hint_uses_the_running_position_search():
    controller, worker, _ = make(sides=(HUMAN, HUMAN))
    controller.settings.show_analysis = True
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "position"
    controller.request_hint()
    assert len(worker.jobs) == 1 and controller.jobs.job.kind == "analyse"
    worker.finish()
    controller.update()
    assert controller.hint in controller.state.legal_moves()


def test_hints_only_on_a_humans_turn():
    controller, _, _ = make(sides=("Easy", "Easy"))
    controller.request_hint()
    assert controller.current_notice() == "Hints are for a human's turn"


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "pig"])
def test_side_names_and_options_come_from_the_game_description(game):
    from plyground import games

    controller, _, _ = make(game=game, sides=(HUMAN, HUMAN))
    assert controller.colour_names() == tuple(games.GAMES[game].side_names)
    assert controller.save_data()["options"] == controller.game.option_values()


def test_the_status_line_says_solving_too():
    from plyground.ai.engine.result import SearchProgress
    from plyground.gui.play import status_line

    controller, worker, _ = make(game="connect4", sides=(HUMAN, "Hard"))
    controller.try_human_move(3)
    controller.update()
    assert status_line.status_text(controller, None) == "Yellow is thinking…"
    worker.send("progress", SearchProgress(10_000, 800, 0.1, 3, 0.0))
    controller.jobs.poll_worker()
    assert status_line.status_text(controller, None) == "Yellow is thinking… solving · 800 nodes"
