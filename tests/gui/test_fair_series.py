"""Fair series: AI-vs-AI games alternate who moves first, counted by player."""

from __future__ import annotations

from test_play_controller import make

from plyground.gui.play.controller import PlayController
from plyground.gui.storage.settings import HUMAN


def _play_games(controller: PlayController, worker: object, clock: object, count: int) -> None:
    """Let two AIs play until `count` games are counted (the next one starts by itself)."""
    for _ in range(5000):
        if len(controller.series) >= count:
            return
        clock.now += 0.05  # type: ignore[attr-defined]
        controller.update()
        if worker.live is not None:  # type: ignore[attr-defined]
            worker.finish()  # type: ignore[attr-defined]
    raise AssertionError("the games did not finish")


def test_ai_vs_ai_games_alternate_the_first_move_and_count_by_player():
    controller, worker, clock = make(sides=("Easy", "Hard"))
    controller.settings.speed = 0.0
    _play_games(controller, worker, clock, 4)
    firsts = [first for first, _, _ in controller.series.games]
    assert firsts == ["AI · Easy", "AI · Hard", "AI · Easy", "AI · Hard"]
    seconds = [second for _, second, _ in controller.series.games]
    assert seconds == ["AI · Hard", "AI · Easy", "AI · Hard", "AI · Easy"]
    assert {line.label: line.games for line in controller.series.lines()} == {
        "AI · Easy": 4,
        "AI · Hard": 4,
    }
    hard = next(line for line in controller.series.lines() if line.label == "AI · Hard")
    assert hard.losses == 0  # perfect play never loses tic-tac-toe, from either side


def test_twin_ais_keep_their_numbers_when_they_change_sides():
    controller, worker, clock = make(sides=("Hard", "Hard"))
    controller.settings.speed = 0.0
    _play_games(controller, worker, clock, 2)
    assert [g[:2] for g in controller.series.games] == [
        ("AI · Hard #1", "AI · Hard #2"),
        ("AI · Hard #2", "AI · Hard #1"),
    ]


def test_a_human_game_keeps_its_sides():
    controller, _, clock = make(sides=(HUMAN, HUMAN))
    for move in (0, 3, 1, 4, 2):
        controller.try_human_move(move)
    for _ in range(20):
        clock.now += 0.05
        controller.update()
    controller.new_game()
    assert [side.is_ai for side in controller.sides] == [False, False]
    assert controller.series_labels == ["Human #1", "Human #2"]


def test_the_score_follows_the_players_when_they_change_sides():
    controller, worker, clock = make(sides=("Easy", "Hard"))
    controller.settings.speed = 0.0
    _play_games(controller, worker, clock, 3)
    labels = controller.current_series_labels()
    lines = {line.label: line for line in controller.series.lines()}
    score = controller.score
    assert score[0] == lines[labels[0]].wins and score[1] == lines[labels[1]].wins
    assert sum(score) == 3


def test_the_game_over_card_names_each_player_with_their_score():
    from plyground.gui.play.game_over_card import detail

    controller, worker, clock = make(sides=("Easy", "Hard"))
    controller.settings.speed = 0.0
    controller.paused = False
    _play_games(controller, worker, clock, 1)
    while not controller.state.is_terminal():
        clock.now += 0.05
        controller.update()
        if worker.live is not None:
            worker.finish()
    text = detail(controller)
    hard = next(line for line in controller.series.lines() if line.label == "AI · Hard")
    assert "AI · Hard" in text and "AI · Easy" in text
    assert f"{hard.wins} AI · Hard" in text or f"AI · Hard {hard.wins}" in text


def test_a_series_in_progress_autosaves_the_sides_of_the_game_being_played(config_dir):
    from plyground.gui.storage import savefile

    controller, worker, clock = make(sides=("Easy", "Hard"), autosave=True)
    controller.settings.speed = 0.0
    _play_games(controller, worker, clock, 1)
    for _ in range(200):  # into the second game, where Hard moves first
        clock.now += 0.05
        controller.update()
        if worker.live is not None:
            worker.finish()
        if controller.games_started == 1 and controller.history.entries:
            break
    controller.close()
    saved = savefile.load_game(savefile.autosave_path())
    assert [player["preset"] for player in saved.players] == ["Hard", "Easy"]
    assert saved.moves == controller.history.moves
