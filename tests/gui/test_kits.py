"""One game, one place (GUI half): the kit registry, the generic menu and set-up, and a
fourth game that lives only in this file and still gets a card and a set-up screen."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import choose_option, click, click_button, press, pump

from plyground import games
from plyground.games.base import (
    NO_HEURISTIC,
    DigitNotation,
    GameOption,
    Heuristic,
    IllegalMoveError,
    Preset,
)
from plyground.games.search_settings import DepthLimited
from plyground.gui import kits
from plyground.gui.kits import BoardView, MissingKitError, ViewContext
from plyground.gui.kits.base import ChanceMotion, MoveMotion
from plyground.gui.storage import settings

GUI = Path(__file__).resolve().parents[2] / "gui"

NOT_YET_GENERIC: set[str] = set()


# ----------------------------------------------------------------------------- a 4th game


@dataclass(frozen=True)
class NimState:
    """One heap; take 1-3 stones; whoever takes the last stone wins."""

    stones: int
    to_move: int = 0
    ply: int = 0
    heap: int = 7
    STOCHASTIC = False

    @property
    def player(self) -> int:
        return self.to_move

    @property
    def game(self) -> Any:
        return Nim(self.heap)

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(m for m in (0, 1, 2) if m + 1 <= self.stones)

    def play(self, move: Any) -> NimState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r}; legal: {self.legal_moves()}")
        return NimState(self.stones - move - 1, 1 - self.to_move, self.ply + 1, self.heap)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def winner(self) -> int | None:
        return 1 - self.to_move if self.stones == 0 else None

    def utility(self, player: int) -> float:
        return 1.0 if self.winner() == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Any, float], ...]:
        return ()

    def key(self) -> Any:
        return (self.stones, self.to_move)

    def winning_line(self) -> None:
        return None


class Nim(DigitNotation):
    """The documented way to describe a game: class attributes read without an instance."""

    name = "nim"
    title = "Nim"
    stochastic = False
    default_heuristic = "none"
    side_names = ("Left", "Right")
    options = (GameOption("heap", "Heap", 7, 3, 21, "stones on the heap at the start"),)
    notation_help = "1-3: how many stones to take"
    presets = (
        Preset(
            "Casual",
            DepthLimited("alphabeta", 1),
            randomness=1.0,
            description="Takes stones at random.",
        ),
        Preset(
            "Perfect", DepthLimited("alphabeta", None), description="Leaves a multiple of four."
        ),
    )

    def __init__(self, heap: int = 7) -> None:
        self.heap = self.options[0].check(heap)
        self.heuristics: dict[str, Heuristic] = {"none": NO_HEURISTIC}

    def option_values(self) -> dict[str, int]:
        return {"heap": self.heap}

    def initial_state(self) -> NimState:
        return NimState(self.heap, heap=self.heap)

    def parse_move(self, text: str, state: Any) -> int:
        if text not in "123":
            raise IllegalMoveError(f"{text!r} is not 1-3")
        return int(text) - 1

    def render(self, state: Any) -> str:
        return "o" * state.stones


class NimKit(BoardView):
    """A minimal kit: stones in a row; click the left, middle or right third, or press 1-3."""

    blurb = "Take one to three stones; the last stone wins."
    keys_help = "Press 1-3 to take stones."

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, state: Any, ctx: ViewContext
    ) -> None:
        for i in range(state.stones):
            pygame.draw.circle(surface, (200, 200, 200), (rect.x + 20 + i * 30, rect.centery), 10)

    def move_at(self, rect: pygame.Rect, state: Any, pos: tuple[int, int]) -> Any:
        return min(2, (pos[0] - rect.x) * 3 // max(1, rect.width))

    def move_for_key(self, state: Any, key: int, unicode: str) -> Any:
        return int(unicode) - 1 if unicode in ("1", "2", "3") else None


@pytest.fixture
def nim() -> Iterator[None]:
    """Nim registered the documented way (rules and kit) for one test, then removed."""
    games.register(Nim)
    kits.register_kit("nim", NimKit)
    try:
        yield
    finally:
        games.GAMES.pop("nim", None)
        kits.unregister_kit("nim")


# ----------------------------------------------------------------------------- registry


def test_every_game_has_a_kit_and_a_missing_one_is_named():
    assert set(kits.KITS) == set(games.GAMES)
    for name in games.GAMES:
        kit = kits.kit_for(name)
        assert isinstance(kit, BoardView) and kit.blurb and kit.keys_help
    with pytest.raises(MissingKitError, match=r"no kit for the game 'chess'.*register_kit"):
        kits.kit_for("chess")
    assert not list((GUI / "boards").glob("*.py")), "the gui.boards shim is gone: use gui.kits"


def test_register_and_unregister_a_kit(nim):
    assert isinstance(kits.kit_for("nim"), NimKit)
    kits.unregister_kit("nim")
    with pytest.raises(MissingKitError):
        kits.kit_for("nim")


def test_every_kit_draws_its_icon():
    surface = pygame.Surface((160, 160), pygame.SRCALPHA)
    for name in games.GAMES:
        surface.fill((0, 0, 0, 0))
        kits.kit_for(name).draw_icon(surface, surface.get_rect(), 0.5)
        assert pygame.mask.from_surface(surface).count() > 500, name
    surface.fill((0, 0, 0, 0))
    BoardView().draw_icon(surface, surface.get_rect(), 0.0)  # the default for a new kit
    assert pygame.mask.from_surface(surface).count() > 500


# ----------------------------------------------------------------------------- no names


def _strings(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


@pytest.mark.slow
def test_nothing_in_gui_outside_the_kits_names_a_game():
    words = set()
    for name, factory in games.GAMES.items():
        words.add(name)
        words.add(str(factory.title))  # type: ignore[attr-defined]
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(words)) + r")(?![\w-])",
        re.IGNORECASE,
    )
    offenders = []
    for path in sorted(GUI.rglob("*.py")):
        relative = path.relative_to(GUI.parent).as_posix()
        if relative.startswith("gui/kits/") or relative in NOT_YET_GENERIC:
            continue
        for text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            found = pattern.search(text)
            if found:
                offenders.append(f"{relative}: {found.group(0)!r} in {text[:60]!r}")
    assert offenders == []


# ----------------------------------------------------------------------------- set-up


def _setup(app: Any, key: str) -> Any:
    pump(app, 2)
    press(app, ord(key), key)
    assert type(app.scene).__name__ == "SetupScene"
    return app.scene


def test_option_sliders_come_from_the_game(make_app):
    app = make_app()
    setup = _setup(app, "3")
    sliders = [w for w, (action, _) in setup.form.ids.items() if action == "option"]
    assert len(sliders) == 1
    slider = sliders[0]
    assert slider.value_range == (10, 1000)
    assert slider.get_current_value() == 100
    assert [label for label, _ in setup.bottom_labels] == ["Goal", "Seed"]
    event = pygame.event.Event(
        pygame_gui_event("UI_HORIZONTAL_SLIDER_MOVED"), ui_element=slider, value=243.0
    )
    assert setup.handle(event)
    assert setup.options == {"goal": 240}, "snapped to the slider's step of 10"
    setup.start()
    assert app.settings.options_for("pig") == {"goal": 240}
    assert app.scene.controller.game.option_values() == {"goal": 240}


def test_a_game_without_options_has_no_option_widgets(make_app):
    app = make_app()
    setup = _setup(app, "1")
    assert not [w for w, (action, _) in setup.form.ids.items() if action in ("option", "seed")]
    assert setup.bottom_labels == []


def test_preset_descriptions_come_from_the_game(make_app):
    from plyground.gui.describe import describe_side

    app = make_app()
    setup = _setup(app, "2")
    for preset in games.GAMES["connect4"].presets:
        side = settings.SideSetup(kind="ai", preset=preset.name)
        assert describe_side(side, setup.game)[0] == preset.description


def pygame_gui_event(name: str) -> int:
    import pygame_gui

    return int(getattr(pygame_gui, name))


# ----------------------------------------------------------------------------- a 4th game


def test_a_fourth_game_gets_a_card_and_a_setup(nim, make_app):
    from plyground.gui.describe import SIDE_NAMES, game_title

    app = make_app()
    pump(app, 2)
    menu = app.scene
    assert [name for name, _, _ in menu.cards] == [*list(games.GAMES)]
    assert len(menu.card_rects()) == 4
    assert game_title("nim") == "Nim" and SIDE_NAMES["nim"] == ("Left", "Right")
    click(app, menu.card_rects()[3].center)
    setup = app.scene
    assert type(setup).__name__ == "SetupScene" and setup.game_name == "nim"
    assert setup.presets == ["Casual", "Perfect"]
    assert "alphabeta" in setup.algorithms
    assert setup.options == {"heap": 7}
    assert [label for label, _ in setup.bottom_labels] == ["Heap"]
    ai_vs_ai = next(
        w
        for w, (action, _) in setup.form.ids.items()
        if action == "matchup" and w.text == "AI vs AI"
    )
    click_button(app, ai_vs_ai)
    second = next(w for w, (action, i) in setup.form.ids.items() if action == "preset" and i == 1)
    choose_option(app, second, "Perfect")
    assert setup.sides[1].preset == "Perfect"
    assert setup.sides[1].player_config("nim").search.depth is None
    slider = next(w for w, (action, _) in setup.form.ids.items() if action == "option")
    setup.handle(
        pygame.event.Event(
            pygame_gui_event("UI_HORIZONTAL_SLIDER_MOVED"), ui_element=slider, value=12.4
        )
    )
    setup.commit()
    assert app.settings.options_for("nim") == {"heap": 12}
    assert app.settings.make_game("nim").initial_state().stones == 12
    assert [s.to_dict("nim")["preset"] for s in app.settings.sides["nim"]] == ["Perfect"] * 2
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_4, "4")
    assert app.scene.game_name == "nim", "key 4 picks the fourth card"


@pytest.mark.parametrize("size", [(800, 600), (1280, 800), (1920, 1080)])
def test_cards_never_overlap_and_stay_on_screen(nim, make_app, size):
    for count in (4, 3):
        if count == 3:
            games.GAMES.pop("nim")
        app = make_app(size)
        pump(app, 2)
        rects = app.scene.card_rects()
        assert len(rects) == count
        screen = pygame.Rect(0, 0, *size)
        for i, rect in enumerate(rects):
            assert screen.contains(rect) and rect.height > 60
            assert not any(rect.colliderect(other) for other in rects[i + 1 :])


def test_option_steps_and_the_frame_bench_read_descriptions(nim):
    from plyground.gui.bench import frame_bench
    from plyground.gui.describe import option_step, snap_option

    goal = games.GAMES["pig"].options[0]
    heap = Nim.options[0]
    assert (option_step(goal), option_step(heap)) == (10, 1)
    assert [snap_option(goal, v) for v in (10.0, 14.9, 15.0, 999.0)] == [10, 10, 20, 1000]
    assert snap_option(heap, 20.6) == 21
    for name in games.GAMES:
        presets = [p.name for p in games.GAMES[name].presets]
        assert set(frame_bench.bench_presets(name)) <= set(presets), name
    assert frame_bench.bench_presets("nim") == ("Perfect", "Perfect")
    assert frame_bench.default_game() == next(iter(games.GAMES))


# ----------------------------------------------------------------------------- kit hooks


def test_the_help_card_lists_each_kits_keys_under_its_game_title():
    from plyground.gui.app import HELP_KEYS, help_keys
    from plyground.gui.describe import game_title

    lines = help_keys()
    assert lines[0] == HELP_KEYS[0] and lines[-1] == HELP_KEYS[-1]
    assert len(lines) == len(HELP_KEYS) + len(kits.KITS)
    for name in kits.KITS:
        assert (game_title(name), kits.kit_for(name).keys_help) in lines


def test_a_kit_without_motion_hooks_gets_the_generic_defaults():
    from plyground.gui.play import motion

    class Plain(BoardView):
        pass

    class Game:
        notation_help = "type a number"

    view = Plain()
    assert motion.move_seconds(view, None, 1) == 0.0
    assert motion.refusal(view, None, 1) is None
    assert motion.move_help(view, Game()) == "type a number"
    assert view.analysis_rows(Game(), None, [], ("A", "B")) == []
    view.move_help = "press a key"
    assert motion.move_help(view, Game()) == "press a key"


def _frame(view: Any, state: Any, moving: MoveMotion | None) -> bytes:
    """The kit's board as drawn with `moving` in its context."""
    surface = pygame.Surface((420, 420))
    view.draw(surface, surface.get_rect(), state, ViewContext(moving=moving))
    return pygame.image.tobytes(surface, "RGB")


def test_each_kit_animates_and_refuses_its_own_moves():
    connect4, tictactoe, pig = (games.get_game(n) for n in ("connect4", "tictactoe", "pig"))
    c4 = kits.kit_for("connect4")
    start = connect4.initial_state()
    assert c4.move_seconds(start, 3) == pytest.approx(0.28 + 0.045 * 6)
    assert _frame(c4, start.play(3), MoveMotion(3, 0.3)) != _frame(c4, start.play(3), None)
    assert c4.refusal(start, 3) == "Column 4 is full"
    ttt = kits.kit_for("tictactoe")
    assert ttt.move_seconds(tictactoe.initial_state(), 4) == pytest.approx(0.22)
    placed = tictactoe.initial_state().play(4)
    assert _frame(ttt, placed, MoveMotion(4, 0.2)) != _frame(ttt, placed, None)
    assert _frame(ttt, placed, MoveMotion(4, 1.0)) == _frame(ttt, placed, None)
    assert ttt.refusal(tictactoe.initial_state(), 4) == "That square is taken"
    dice = kits.kit_for("pig")
    from plyground.gui.kits.pig import effects

    assert effects.die(ChanceMotion(3)) == (3, False, 1.0)
    face, rolling, _ = effects.die(ChanceMotion(3, rolling=True, progress=0.4, now=2.0))
    assert rolling and face in range(1, 7)
    assert dice.move_seconds(pig.initial_state(), "roll") == 0.0
    assert dice.refusal(pig.initial_state(), "hold") == "Roll at least once before holding"
    assert dice.refusal(pig.initial_state(), "roll") is None
    assert all(kits.kit_for(name).move_help for name in ("connect4", "tictactoe", "pig"))
