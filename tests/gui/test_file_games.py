"""Games from files in the window: opened from the menu (checked in a process of their own),
played by clicks on a grid or keys on the text view, remembered on the menu, and closed with
one line when their own code fails, the rest of the window untouched."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import click, press, pump, type_in_game_dialog, wait_until

from plyground import games
from plyground.gui.kits import game_files
from plyground.gui.kits.file_game import FileGameView
from plyground.gui.storage.settings import AI, HUMAN

FILES = Path(__file__).resolve().parent.parent / "game_files"
GRID = FILES / "grid_connect3.py"
TEXT = FILES / "aima_nim.py"


def open_file_game(app: Any, path: Path | str) -> Any:
    """From the menu, open a game file as "Open a game…" does; the set-up scene."""
    pump(app, 2)
    app.scene.open_game_file(str(path))
    assert wait_until(app, lambda: type(app.scene).__name__ == "SetupScene", 60)
    return app.scene


def start(app: Any, sides: tuple[str, str]) -> Any:
    """Set both sides in the set-up and start; the play scene."""
    for side, role in zip(app.scene.sides, sides, strict=True):
        side.kind = HUMAN if role == "human" else AI
        if role != "human":
            side.preset = role
    app.scene.rebuild()
    app.settings.speed = 0.0
    button = next(w for w, (action, _) in app.scene.form.ids.items() if action == "start")
    click(app, button.rect.center)
    assert type(app.scene).__name__ == "PlayScene"
    return app.scene


def test_a_grid_game_opens_from_the_menu_and_is_played_by_clicks(make_app: Any) -> None:
    app = make_app()
    setup = open_file_game(app, GRID)
    assert setup.game_name == games.resolve(str(GRID))
    play = start(app, ("human", "Easy"))
    layout = FileGameView().layout(play.board_rect(), play.controller.state)
    assert layout.grid_rect is not None and (layout.rows, layout.columns) == (4, 5)
    top_of_column_two = (
        round(layout.grid_rect.x + 2.5 * layout.cell),
        round(layout.grid_rect.y + 0.5 * layout.cell),
    )
    click(app, top_of_column_two)
    assert play.controller.history.moves[:1] == [2]
    assert wait_until(app, lambda: len(play.controller.history.moves) == 2, 30)
    assert play.controller.state.grid()[-1][2] == "R"
    app.pop_to_root()
    pump(app, 2)
    names = [name for name, _, _ in app.scene.cards]
    assert names[-1] == games.resolve(str(GRID))  # the menu keeps it next to the built-in games
    assert app.settings.recent_games[0]["title"] == "Connect three"


def test_a_text_game_is_played_by_its_number_keys(make_app: Any) -> None:
    app = make_app()
    open_file_game(app, TEXT)
    play = start(app, ("human", "human"))
    state = play.controller.state
    assert FileGameView().layout(play.board_rect(), state).text_rect is not None
    press(app, ord("3"), "3")  # the third move in the game's order
    assert play.controller.history.moves == [state.legal_moves()[2]]
    press(app, ord("1"), "1")
    assert len(play.controller.history.moves) == 2


def test_a_game_whose_code_fails_is_closed_with_one_line(make_app: Any, tmp_path: Path) -> None:
    failing = tmp_path / "fragile.py"
    failing.write_text(
        (FILES / "easy_bones.py")
        .read_text(encoding="utf-8")
        .replace(
            "    def make_move(self, move):\n",
            "    def make_move(self, move):\n"
            '        if getattr(type(self), "broken", False):\n'
            '            raise KeyError("the pile")\n',
        ),
        encoding="utf-8",
    )
    app = make_app()
    open_file_game(app, failing)
    games.GAMES[games.resolve(str(failing))].source.broken = True  # type: ignore[attr-defined]
    play = start(app, ("human", "human"))
    press(app, ord("1"), "1")
    pump(app, 3)
    assert type(app.scene).__name__ == "MenuScene" and app.running
    said = [toast.text for toast in app.toasts]
    closed = "The game was closed: fragile.py:GameOfBones: make_move() failed at the start, "
    assert any(f"{closed}making move 1: KeyError" in t for t in said), said
    assert play is not app.scene


def test_a_file_that_hangs_or_kills_python_while_it_loads_costs_only_its_check(
    make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_files, "CHECK_SECONDS", 2.0)
    app = make_app()
    hangs = tmp_path / "hangs.py"
    hangs.write_text("while True:\n    pass\n", encoding="utf-8")
    dies = tmp_path / "dies.py"
    dies.write_text("import os\nos._exit(3)\n", encoding="utf-8")
    for path, said in ((hangs, "took longer than 2 s"), (dies, "ended Python (exit status 3)")):
        pump(app, 2)
        started = time.monotonic()
        app.scene.open_game_file(str(path))
        assert wait_until(app, lambda: not app.scene.opener.busy, 30)
        assert time.monotonic() - started < 20
        assert type(app.scene).__name__ == "MenuScene"
        assert any(said in toast.text for toast in app.toasts), [t.text for t in app.toasts]
        assert str(path) not in games.GAMES


def test_a_recent_game_whose_file_is_gone_leaves_the_menu(make_app: Any, tmp_path: Path) -> None:
    copy = tmp_path / "gone.py"
    copy.write_text(TEXT.read_text(encoding="utf-8"), encoding="utf-8")
    app = make_app()
    open_file_game(app, copy)
    app.pop_to_root()
    pump(app, 2)
    name = games.resolve(str(copy))
    assert name in [card[0] for card in app.scene.cards]
    copy.unlink()
    games.GAMES.pop(name)  # as after a restart: known to the menu, not loaded
    index = [card[0] for card in app.scene.cards].index(name)
    click(app, app.scene.card_rects()[index].center)
    assert type(app.scene).__name__ == "MenuScene"
    assert name not in [card[0] for card in app.scene.cards]
    assert any("not there any more" in toast.text for toast in app.toasts)


def test_the_menu_key_g_opens_the_game_dialog(make_app: Any) -> None:
    app = make_app()
    pump(app, 2)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, unicode="g", mod=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="g"))  # as SDL sends it too
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_g, unicode="g", mod=0))
    pump(app, 3)
    dialog = app.scene.file_dialog
    assert dialog is not None and app.scene.file_mode == "game"
    assert ".py" in dialog.allowed_suffixes
    assert not dialog.file_path_text_line.get_text().endswith("g")  # the key's text went nowhere


def test_a_chance_outcome_is_named_with_its_probability() -> None:
    from plyground.gui.kits.file_game import last_text, side_colour

    game = games.get_game(str(FILES / "dice_race.py"))
    rolled = game.initial_state().play(2).play(5)
    assert last_text(rolled, 5) == "Last: 2, then 5 (22% likely)"

    class Entry:
        def __init__(self, move: Any, chance: bool) -> None:
            self.move, self.chance = move, chance

    row = FileGameView().turn_text(game, game.initial_state(), [Entry(2, False), Entry(5, True)])
    assert row == "2 (5)"
    grid = games.get_game(str(GRID))
    assert side_colour(grid.initial_state(), 1) == (255, 215, 0)  # its own "gold"


def test_the_game_dialog_opens_a_file_and_class_typed_into_it(make_app: Any) -> None:
    """FILE.py:CLASS typed into "Open a game…" (relative to the folder it shows) opens."""
    from plyground.gui.storage import settings

    settings.note_games_folder(FILES)  # the dialog starts in tests/game_files
    app = make_app()
    type_in_game_dialog(app, "take_away.py:TakeAway")
    assert wait_until(app, lambda: type(app.scene).__name__ == "SetupScene", 60)
    assert app.scene.game_name == f"{FILES / 'take_away.py'}:TakeAway"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("no_such_game.py:Nim", "no_such_game.py: no such file"),
        ("easyAI.games:", "Write a module and a class as MODULE:CLASS"),
        ("easyAI.games", "Name its class too: easyAI.games:CLASS"),
        ("a game of mine", "Not a game: type FILE.py, FILE.py:CLASS or MODULE:CLASS"),
    ],
)
def test_the_game_dialog_says_in_one_line_what_it_cannot_open(
    make_app: Any, typed: str, said: str
) -> None:
    app = make_app()
    dialog = type_in_game_dialog(app, typed)
    assert app.scene.file_dialog is dialog and dialog.alive()  # still open, to be mended
    assert dialog.file_path_text_line.get_text() == typed  # the text kept
    assert dialog.problem and dialog.line.startswith(said) and "\n" not in dialog.line
    assert not dialog.ok_button.is_enabled
    assert type(app.scene).__name__ == "MenuScene" and not app.scene.opener.busy


def test_a_module_that_does_not_import_is_one_line(make_app: Any) -> None:
    app = make_app()
    type_in_game_dialog(app, "no_such_module_here:Game")
    assert wait_until(app, lambda: not app.scene.opener.busy and bool(app.toasts), 60)
    said = [toast.text for toast in app.toasts if "Cannot open" in toast.text]
    assert said and "no_such_module_here" in said[0] and "\n" not in said[0]


def test_the_menu_pages_many_games_and_opens_one_from_another_page(make_app: Any) -> None:
    """Eleven games at 800x600 take two pages: PgDn and "Next ›" turn them, the arrows move
    among the cards shown, and a card on the second page opens its game."""
    app = make_app((800, 600))
    pump(app, 2)
    fake = [{"name": f"/home/student/game{k}.py:Game", "title": f"Game {k}"} for k in range(5)]
    real = [TEXT, GRID, FILES / "take_away.py"]
    app.settings.recent_games = fake + [
        {"name": f"{path}:{name}", "title": name}
        for path, name in zip(real, ("Nim", "Connect3", "TakeAway"), strict=True)
    ]
    menu = app.scene
    menu.set_cards()
    menu.clear()
    menu.build()
    pump(app, 2)
    layout = menu.card_layout()
    assert (layout.pages, list(layout.shown())) == (2, list(range(8)))
    assert ("PgUp PgDn", "the other pages of games") in menu.keys_help()
    assert not menu.previous_button.is_enabled and menu.next_button.is_enabled
    press(app, pygame.K_PAGEDOWN, frames=2)
    assert list(menu.card_layout().shown()) == [8, 9, 10]
    assert menu.previous_button.is_enabled and not menu.next_button.is_enabled
    click(app, menu.previous_button.rect.center)
    assert menu.card_layout().page == 0
    click(app, menu.next_button.rect.center)
    assert menu.card_layout().page == 1
    press(app, pygame.K_RIGHT)
    assert menu.focus.key == ("card", menu.cards[8][0])  # the focus starts on this page
    click(app, menu.card_rects()[2].center)  # the eleventh card
    assert wait_until(app, lambda: type(app.scene).__name__ == "SetupScene", 60)
    assert app.scene.game_name == f"{FILES / 'take_away.py'}:TakeAway"
