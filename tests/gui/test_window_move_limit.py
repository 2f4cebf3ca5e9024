"""The window stops a game at the game's move limit as `match` does: a token walking a ring
(no position is ever over) played AI against AI ends, scored a draw, said in one line."""

from __future__ import annotations

from pathlib import Path

from test_play_controller import FakeWorker, make, run

from plyground import games
from plyground.games.base import moves_allowed
from plyground.gui.play import game_over_card, status_line
from plyground.gui.play.controller import PlayController

RING = Path(__file__).resolve().parent.parent / "game_files" / "ring.py"


def ring_with_limit(folder: Path, limit: int) -> str:
    """The ring game, naming its own move limit; its game name."""
    source = RING.read_text(encoding="utf-8").replace(
        'title = "Ring"', f'title = "Ring"\n    move_limit = {limit}'
    )
    path = folder / "short_ring.py"
    path.write_text(source, encoding="utf-8")
    return games.resolve(str(path))


def play_ai_moves(controller: PlayController, worker: FakeWorker, clock: object, moves: int):
    """Let the AIs play up to `moves` moves (fewer if the game stops)."""
    for _ in range(moves):
        controller.update()
        if controller.jobs.job is None:
            return
        worker.finish()
        run(controller, clock, 0.3)  # type: ignore[arg-type]


def test_ai_against_ai_on_a_game_that_never_ends_stops_at_its_move_limit(tmp_path: Path):
    controller, worker, clock = make(game=ring_with_limit(tmp_path, 6), sides=("Easy", "Easy"))
    controller.settings.speed = 0.0
    play_ai_moves(controller, worker, clock, 20)
    assert controller.history.decisions() == 6
    assert controller.at_move_limit() and controller.game_ended()
    assert controller.recorded and controller.last_winner is None
    assert controller.score == [0, 0, 1]
    assert controller.series.limit_draws(controller.move_limit()) == (
        "1 game reached the move limit of 6 moves and was scored as a draw"
    )
    assert game_over_card.headline(controller) == ("Stopped at the move limit", None)
    assert game_over_card.detail(controller).startswith("6 moves (its limit), a draw · ")
    assert status_line.whose_turn(controller) == "game over · a draw at the move limit"
    assert status_line.status_text(controller, None) == "Game over · a draw at the move limit"
    assert controller.jobs.job is None and not controller.human_turn()


def test_a_person_cannot_play_on_past_the_move_limit(tmp_path: Path):
    controller, _, _ = make(game=ring_with_limit(tmp_path, 4), sides=("human", "human"))
    for _ in range(4):
        assert controller.try_human_move(1)
    assert controller.at_move_limit() and not controller.human_turn()
    assert not controller.try_human_move(1)
    controller.update()
    assert controller.recorded and controller.score == [0, 0, 1]
    controller.undo()  # back under the limit, the game goes on
    assert not controller.at_move_limit() and controller.try_human_move(2)


def test_a_game_without_a_limit_of_its_own_stops_at_the_loaders_limit_for_unending_games():
    controller, _, _ = make(game=games.resolve(str(RING)), sides=("human", "human"))
    assert controller.move_limit() == moves_allowed(controller.game) < 2_000


def test_a_game_stopped_at_its_move_limit_is_not_offered_to_go_on(
    tmp_path: Path, config_dir: Path
) -> None:
    from plyground.gui.storage import savefile

    controller, _, clock = make(
        game=ring_with_limit(tmp_path, 4), sides=("human", "human"), autosave=True
    )
    for _ in range(3):
        controller.try_human_move(1)
    run(controller, clock, 1.0)
    assert savefile.autosave_path().exists()  # a game in progress
    controller.try_human_move(1)
    run(controller, clock, 1.0)
    assert controller.at_move_limit() and not savefile.autosave_path().exists()
