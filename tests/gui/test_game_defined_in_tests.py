"""A game that lives only in tests/ (three-heap Nim, tests/nim_game.py,
and its kit, tests/nim_kit.py) gets a menu card and a set-up, is played to the end by clicks
and keys (human vs human, human vs AI Easy), saved and opened again: no file outside tests/
knows it.  The terminal half (match, tournament, analyze) is in
tests/architecture/test_one_place.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import nim_game
import nim_kit
import pygame
import pygame_gui
import pytest
from driving import click, press, pump, start_game, wait_until

from plyground import games
from plyground.gui import kits
from plyground.gui.scenes.menu import game_cards
from plyground.gui.storage import savefile


@pytest.fixture
def nim() -> Iterator[str]:
    """Nim registered the documented way (rules, then kit), and forgotten afterwards."""
    games.register(nim_game.Game)
    kits.register_kit(nim_game.Game.name, nim_kit.NimKit)
    try:
        yield nim_game.Game.name
    finally:
        games.GAMES.pop(nim_game.Game.name, None)
        kits.unregister_kit(nim_game.Game.name)


def click_stone(app: Any, play: Any, heap: int, index: int) -> None:
    """Click stone `index` (from the left) of `heap` on the board."""
    centre = nim_kit.stone_centre(play.board_rect(), heap, index)
    click(app, (round(centre[0]), round(centre[1])))


def pick_path(app: Any, dialog: Any, path: Any) -> None:
    """What pygame_gui's file dialog posts when its OK button is pressed."""
    assert dialog is not None and dialog.alive()
    pygame.event.post(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=dialog, text=str(path))
    )
    pump(app, 2)


def moves_text(play: Any) -> str:
    """The game so far in Nim's notation."""
    return str(play.controller.game.format_moves(play.controller.history.moves))


def test_nim_gets_a_menu_card_and_a_set_up(nim, make_app):
    app = make_app()
    pump(app, 2)
    assert [name for name, _, _ in game_cards()][-1] == nim
    assert len(app.scene.card_rects()) == len(games.GAMES) == 4
    play = start_game(app, nim, ("human", "Easy"))
    assert play.controller.game_name == nim
    assert play.controller.state == nim_game.State()
    assert [side.kind for side in play.controller.sides] == ["human", "ai"]


def test_nim_is_played_to_the_end_by_clicks_and_keys_human_vs_human(nim, make_app):
    app = make_app()
    play = start_game(app, nim, ("human", "human"))
    click_stone(app, play, 2, 3)  # the 4th of 5 stones in heap 3: takes two
    assert moves_text(play) == "3:2"
    for key in "14":  # heap 1, four stones: refused with the kit's words, nothing played
        press(app, ord(key), key)
    assert moves_text(play) == "3:2"
    assert "only 3 stones" in play.controller.current_notice()
    for key in "13":  # heap 1, all three stones
        press(app, ord(key), key)
    assert moves_text(play) == "3:2 1:3"
    click_stone(app, play, 1, 0)  # the first stone of heap 2 takes the whole heap
    assert moves_text(play) == "3:2 1:3 2:4"
    for key in "33":  # heap 3, its last three stones: the second player took the last one
        press(app, ord(key), key)
    state = play.controller.state
    assert state.is_terminal() and state.winner() == 1
    pump(app, 30)
    assert play.controller.score == [0, 1, 0]
    assert moves_text(play) == "3:2 1:3 2:4 3:3"


@pytest.mark.slow
def test_nim_against_the_ai_on_easy_ends_with_a_winner(nim, make_app):
    app = make_app()
    play = start_game(app, nim, ("human", "Easy"))
    controller = play.controller
    while not controller.state.is_terminal():
        state = controller.state
        assert state.to_move == 0
        heap = next(i for i, size in enumerate(state.heaps) if size)
        click_stone(app, play, heap, state.heaps[heap] - 1)  # the last stone: take one
        assert wait_until(
            app,
            lambda: controller.state.is_terminal() or controller.state.to_move == 0,
            seconds=20,
        ), "the AI (in the worker process) never answered"
    assert controller.state.winner() in (0, 1)
    assert controller.game.replay(controller.history.moves) == controller.state


def test_nim_is_saved_and_opened_again(nim, make_app, tmp_path):
    app = make_app()
    play = start_game(app, nim, ("human", "human"))
    for key in "3212":
        press(app, ord(key), key)
    assert moves_text(play) == "3:2 1:2"
    target = tmp_path / "nim.json"
    press(app, pygame.K_s, "\x13", mod=pygame.KMOD_CTRL)
    pick_path(app, play.file_dialog, target)
    data = json.loads(target.read_text())
    assert data["game"] == nim and data["moves"] == "3:2 1:2"
    saved = savefile.load_game(target)
    assert saved.game_name == nim and saved.state.heaps == (1, 4, 3)
    press(app, pygame.K_n, "n")
    press(app, pygame.K_RETURN, "\r", frames=3)  # a game in progress: confirm
    assert play.controller.history.moves == []
    press(app, pygame.K_o, "\x0f", mod=pygame.KMOD_CTRL)
    pick_path(app, play.file_dialog, target)
    opened = app.scene
    assert type(opened).__name__ == "PlayScene" and opened is not play
    assert moves_text(opened) == "3:2 1:2"
    assert [type(s).__name__ for s in app.stack] == ["MenuScene", "SetupScene", "PlayScene"]
    for key in "11":  # and the game goes on from there
        press(app, ord(key), key)
    assert opened.controller.state.heaps == (0, 4, 3)


def test_the_terminal_plays_and_analyses_nim(nim, capsys, tmp_path):
    from plyground import cli

    record = tmp_path / "games.txt"
    players = ["--p1", "expert", "--p2", "random", "--games", "4", "--swap"]
    status = cli.run(["match", "--game", nim, *players, "--record", str(record), "--quiet"])
    assert status == 0
    lines = record.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:  # every recorded game replays to its end in Nim's notation
        game = nim_game.Game()
        assert game.replay(game.parse_moves(line)).is_terminal()
    capsys.readouterr()
    assert cli.run(["tournament", "--game", nim, "--players", "easy,expert", "--games", "2"]) == 0
    table = capsys.readouterr().out
    assert re.search(r"2\. expert\s+2/2\s+-\s+2/2", table), "Bouton's strategy wins every game"
    status = cli.run(["analyze", "--game", nim, "--moves", "3:2", "--depth", "9", "--json"])
    assert status == 0
    found = json.loads(capsys.readouterr().out)
    assert found["best_move"] == "2:4", "heaps 3, 4, 3: only taking heap 2 leaves a nim-sum of 0"
    assert found["meaning"].startswith("win in")


def test_the_worker_says_so_when_it_cannot_build_a_game(nim):
    """A game the worker cannot build (not registered there, no factory sent) is an error
    answer, and the worker stays alive for the next job."""
    import time

    from plyground import ai
    from plyground.gui.worker.ai_worker import AIWorker
    from plyground.gui.worker.requests import JobHeader, MoveRequest

    worker = AIWorker()
    try:
        config = ai.SearchPlayer(ai.DepthLimited("alphabeta", 2, "nimsum"))
        request = MoveRequest(JobHeader(nim, {}, nim_game.State()), config)
        games.GAMES.pop(nim)  # unknown in this process too: no factory travels with the job
        worker.submit(request)
        messages: list[Any] = []
        deadline = time.monotonic() + 20
        while not messages and time.monotonic() < deadline:
            messages = [m for m in worker.poll() if m.kind in ("error", "result")]
            time.sleep(0.01)
        assert [m.kind for m in messages] == ["error"]
        assert "unknown game 'nim'" in messages[0].reason
        games.register(nim_game.Game)  # registered again: the factory travels, a move comes
        worker.submit(request)
        messages = []
        deadline = time.monotonic() + 20
        while not messages and time.monotonic() < deadline:
            messages = [m for m in worker.poll() if m.kind in ("error", "result")]
            time.sleep(0.01)
        assert [m.kind for m in messages] == ["result"] and worker.restarts == 0
        assert messages[0].move in nim_game.State().legal_moves()
    finally:
        worker.close()
