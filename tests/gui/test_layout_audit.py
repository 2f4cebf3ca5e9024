"""Every text fits at every window size: each scene drawn headless with every text recorded
(gui.widgets.text_audit), no text outside its area or the window, none on top of another, none
cut short where pointing or a key does not show the rest, no two column titles on a row
closer than `text_audit.HEADER_GAP`, no pygame_gui button's or drop-down's caption wider than
the inside of its widget. The quick
subset runs at 1280x658 and 800x600; the other sizes are marked slow."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest
from driving import pump

from plyground.gui import screenshot
from plyground.gui.widgets import text_audit
from tests.exercise_solutions import NO_PRUNING

QUICK_SIZES = [(1280, 658), (800, 600)]
SLOW_SIZES = [(1024, 640), (1366, 768), (1920, 1080)]
EVERY_SIZE = [pytest.param(size, id=f"{size[0]}x{size[1]}") for size in QUICK_SIZES] + [
    pytest.param(size, id=f"{size[0]}x{size[1]}", marks=pytest.mark.slow) for size in SLOW_SIZES
]

GAME_FILES = Path(__file__).resolve().parent.parent / "game_files"
"""Games written outside Plyground (tests/game_files): drawn as a grid or as their text."""

Case = tuple[str, str, str, dict[str, Any]]
"""A screenshot scene, its game, the moves played, the screenshot options."""

CASES: dict[str, Case] = {
    "menu": ("menu", "tictactoe", "", {}),
    "setup-tictactoe": ("setup", "tictactoe", "", {}),
    "setup-connect4": ("setup", "connect4", "", {}),
    "setup-pig": ("setup", "pig", "", {}),
    "play-tictactoe": ("play", "tictactoe", "5193", {}),
    "play-connect4": ("play", "connect4", "4453443", {}),
    "play-pig": ("play", "pig", "r4r6hr3r1r5r2h", {}),
    "analysis-tictactoe": ("analysis", "tictactoe", "5193", {"players": ["human", "Hard"]}),
    "analysis-connect4": ("analysis", "connect4", "4453443", {"players": ["Hard", "Medium"]}),
    "analysis-pig": ("analysis", "pig", "r4r6hr3r1r5r2h", {"players": ["Hard", "Medium"]}),
    "hint-connect4": ("play", "connect4", "4453", {"hint": True}),
    "gameover-tictactoe": ("gameover", "tictactoe", "", {}),
    "gameover-connect4": ("gameover", "connect4", "", {}),
    "review-tictactoe-1": ("review", "tictactoe", "5134", {"at": 1}),
    "review-tictactoe-3": ("review", "tictactoe", "5134", {"at": 3}),
    "review-connect4-2": ("review", "connect4", "44455", {"at": 2}),
    "review-connect4-5": ("review", "connect4", "44455", {"at": 5}),
    "review-tictactoe-values": (
        "review",
        "tictactoe",
        "51346",
        {"at": 2, "show_analysis": True},
    ),
    "review-connect4-values": (
        "review",
        "connect4",
        "445544336",
        {"at": 6, "show_analysis": True},
    ),
    "play-own-agent": (
        "play",
        "connect4",
        "4453",
        {"players": ["human", "/home/student/alphabeta_with_move_ordering.py"]},
    ),
    "explorer": ("explorer", "tictactoe", "5193", {}),
    "lesson-1-first": ("lesson", "tictactoe", "", {"lesson": 1, "step": 1}),
    "lesson-1-middle": ("lesson", "tictactoe", "", {"lesson": 1, "step": 8}),
    "lesson-1-last": ("lesson", "tictactoe", "", {"lesson": 1}),
    "lesson-2-middle": ("lesson", "tictactoe", "", {"lesson": 2, "step": 8}),
    "lesson-3-last": ("lesson", "tictactoe", "", {"lesson": 3}),
    "lesson-4-mcts": ("lesson", "tictactoe", "", {"lesson": 4}),
    "lesson-4-mcts-select": ("lesson", "tictactoe", "", {"lesson": 4, "step": 154}),
    "lesson-5": ("lesson", "tictactoe", "", {"lesson": 5}),
    "lesson-6": ("lesson", "tictactoe", "", {"lesson": 6}),
    "explorer-mcts": ("explorer", "tictactoe", "5193", {"algorithm": "mcts"}),
    "explorer-mcts-playout": (
        "explorer",
        "connect4",
        "4453",
        {"algorithm": "mcts", "iterations": 200, "step": 1000},
    ),
    "compare": ("compare", "tictactoe", "5193", {"depth": 2}),
    "policy": ("policy", "pig", "r4r6", {}),
    "setup-text-file": ("setup", str(GAME_FILES / "easy_bones.py"), "", {}),
    "play-text-file": ("play", str(GAME_FILES / "aima_nim.py"), "(2,1)", {}),
    "analysis-text-file": (
        "analysis",
        str(GAME_FILES / "aima_nim.py"),
        "(2,1)",
        {"players": ["human", "Hard"]},
    ),
    "play-grid-file": ("play", str(GAME_FILES / "grid_connect3.py"), "2 2 1", {}),
    "analysis-grid-file": (
        "analysis",
        str(GAME_FILES / "grid_connect3.py"),
        "2 2 1 3",
        {"players": ["Hard", "Medium"]},
    ),
}
QUICK_CASES = ["menu", "setup-connect4", "play-connect4", "analysis-connect4", "hint-connect4"]
QUICK_CASES += ["review-tictactoe-values", "review-connect4-values"]
QUICK_CASES += ["lesson-1-middle", "lesson-3-last", "lesson-5", "lesson-6", "explorer"]
QUICK_CASES += ["lesson-4-mcts-select", "explorer-mcts"]
QUICK_CASES += ["play-pig", "gameover-connect4", "policy", "compare", "play-own-agent"]
QUICK_CASES += ["analysis-text-file", "analysis-grid-file"]


def readable_areas(app: Any) -> list[pygame.Rect]:
    """Where a shortened text can be read whole: the play panel (pointing at a row shows it
    over the buttons; V shows all of the analysis)."""
    scene = app.scene
    panel = getattr(scene, "panel_rect", None)
    if callable(panel) and hasattr(scene, "controller"):
        return [panel()]
    return []


def panels(app: Any) -> list[pygame.Rect]:
    """The scene's panels and cards: a text whose middle is in one stays whole inside it."""
    scene = app.scene
    found: list[pygame.Rect] = []
    for name in ("panel_rect", "header_rect"):
        rect = getattr(scene, name, None)
        if callable(rect):
            found.append(rect())
    for name in ("panel", "canvas"):
        rect = getattr(scene, name, None)
        if isinstance(rect, pygame.Rect):
            found.append(rect)
    if hasattr(scene, "model") and hasattr(scene, "screen") and hasattr(scene, "controller"):
        from plyground.gui.play import review_card

        if review_card.shown(scene.model):
            found.append(review_card.card_rect(scene.screen()))
    return found


def audit(app: Any) -> list[str]:
    """What does not fit in the app's next frame (toasts aside: a passing note on its own
    opaque card, over the scene on purpose)."""
    app.toasts.clear()
    app.request_frame()
    with text_audit.TextRecorder() as recorder:
        app.draw()
    window = pygame.Rect((0, 0), app.screen.get_size())
    buttons = text_audit.button_texts(app.manager)
    texts = recorder.on_window()
    return text_audit.problems(texts, window, readable_areas(app), buttons, panels(app))


def audited(name: str, size: tuple[int, int]) -> list[str]:
    """The audit of the screenshot case `name` at `size`."""
    scene, game, moves, options = CASES[name]
    app = screenshot.open_scene(scene, game, moves, size, options)
    try:
        pump(app, 2)
        return audit(app)
    finally:
        app.quit(save=False)


def label(size: tuple[int, int]) -> str:
    """1280x658."""
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", QUICK_SIZES, ids=label)
@pytest.mark.parametrize("name", QUICK_CASES)
def test_every_text_fits(name: str, size: tuple[int, int]) -> None:
    assert audited(name, size) == []


@pytest.mark.slow
@pytest.mark.parametrize("size", QUICK_SIZES + SLOW_SIZES, ids=label)
@pytest.mark.parametrize("name", sorted(set(CASES) - set(QUICK_CASES)))
def test_every_text_fits_everywhere(name: str, size: tuple[int, int]) -> None:
    assert audited(name, size) == []


@pytest.mark.slow
@pytest.mark.parametrize("size", SLOW_SIZES, ids=label)
@pytest.mark.parametrize("name", QUICK_CASES)
def test_the_quick_cases_fit_at_the_other_sizes(name: str, size: tuple[int, int]) -> None:
    assert audited(name, size) == []


MENU_SIZES = [(800, 600), (1024, 640), (1280, 720), (1366, 768), (1920, 1080)]
"""The window sizes the menu is audited at with many games."""
OWN_GAMES = [
    ("/home/student/course/kalah.py:Kalah", "Kalah"),
    ("easyAI.games:Nim", "Nim"),
    ("/home/student/course/dots_and_boxes_on_a_larger_board.py:DotsAndBoxes", "Dots And Boxes"),
    ("aima3.games:TicTacToe", "Tic Tac Toe"),
    ("/home/student/course/oware.py:OwareAbapa", "Oware Abapa, the West African sowing game"),
]
"""Five games of one's own: with the three built-in ones, eight cards."""


def menu_with_own_games(make_app: Callable[..., Any], size: tuple[int, int], resume: bool) -> Any:
    """The menu at `size` with the built-in games and `OWN_GAMES` (not loaded: a card needs
    only the name and title), and the resume bar if `resume`."""
    app = make_app(size)
    pump(app, 2)
    app.settings.recent_games = [{"name": name, "title": title} for name, title in OWN_GAMES]
    menu = app.scene
    menu.set_cards()
    if resume:
        screenshot._offer_resume(app, menu, "connect4", "4453", [])
    menu.clear()
    menu.build()
    pump(app, 2)
    return app


def covered_by_widgets(app: Any) -> list[str]:
    """Texts the scene draws under a pygame_gui button (the widgets are drawn over them)."""
    app.request_frame()
    with text_audit.TextRecorder() as recorder:
        app.draw()
    buttons = [w for w in app.scene.widgets if hasattr(w, "text") and w.visible]
    return [
        f"{drawn.text!r} under the button {button.text!r}"
        for drawn in recorder.on_window()
        for button in buttons
        if drawn.rect.colliderect(button.rect)
    ]


@pytest.mark.parametrize("resume", [False, True], ids=["menu", "with-resume"])
@pytest.mark.parametrize("size", MENU_SIZES, ids=label)
def test_the_menu_lays_out_eight_games(
    make_app: Callable[..., Any], size: tuple[int, int], resume: bool
) -> None:
    """Eight games on the menu at every size: every text fits, no card over another, over a
    button or the resume bar, or off the window; where they do not fit on one page, the
    pages show each game once."""
    app = menu_with_own_games(make_app, size, resume)
    menu = app.scene
    assert len(menu.cards) == 8
    window = pygame.Rect((0, 0), size)
    seen: list[int] = []
    for _ in range(menu.card_layout().pages):
        assert audit(app) == []
        assert covered_by_widgets(app) == []
        layout = menu.card_layout()
        taken = [w.rect for w in menu.widgets if hasattr(w, "text") and w.visible]
        if resume:
            taken.append(menu.resume_rect())
        for k, rect in enumerate(layout.rects):
            assert window.contains(rect) and rect.height >= 60
            assert not any(rect.colliderect(other) for other in layout.rects[k + 1 :])
            assert not any(rect.colliderect(other) for other in taken)
        seen += list(layout.shown())
        menu.turn_page(1)
        pump(app, 2)
    assert seen == list(range(8))


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_the_file_dialog_fits(make_app: Callable[..., Any], size: tuple[int, int]) -> None:
    from driving import start_game

    app = make_app(size)
    play = start_game(app, "tictactoe", ("human", "human"))
    play.open_file_dialog("save")
    pump(app, 3)
    assert audit(app) == []


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_the_game_dialog_and_its_line_fit(
    make_app: Callable[..., Any], size: tuple[int, int]
) -> None:
    """ "Open a game…" with the line under its path box: what it takes, then the longest
    thing it says about a text it cannot open."""
    from driving import type_in_game_dialog

    app = make_app(size)
    dialog = type_in_game_dialog(app, "")
    assert audit(app) == []
    dialog = type_in_game_dialog(app, "a_long_name_for_a_game_file_of_mine.py:Game")
    assert dialog.problem
    assert audit(app) == []


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_the_exercise_comparison_fits(
    make_app: Callable[..., Any], tmp_path: Path, size: tuple[int, int]
) -> None:
    from plyground.ai.student_code.grader import grade
    from plyground.gui.explorer.exercise_scene import open_student_tree

    path = tmp_path / "my_search.py"
    path.write_text(NO_PRUNING, encoding="utf-8")
    failed = next(o for o in grade("alphabeta", str(path)) if not o.passed)
    app = make_app(size)
    open_student_tree(app, failed)
    pump(app, 3)
    assert audit(app) == []


def test_the_audit_finds_what_does_not_fit() -> None:
    from plyground.gui.widgets import drawing

    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode((400, 300))
    panel = window.subsurface(pygame.Rect(100, 50, 120, 100))
    with text_audit.TextRecorder() as recorder:
        drawing.draw_text(window, "alone", (10, 10), 14)
        drawing.draw_text(window, "one", (10, 200), 14)
        drawing.draw_text(window, "two", (14, 202), 14)  # on top of "one"
        drawing.draw_text(panel, "too wide for the panel", (40, 10), 14)  # out of its area
        drawing.draw_text(window, "off", (390, 290), 14)  # out of the window
        drawing.draw_text(window, drawing.ellipsize("a long sentence cut", 60, 14), (10, 100), 14)
        drawing.note_cut("first line\nsecond line", "first line")
        drawing.draw_text(window, "first line", (10, 150), 14)
        drawing.draw_text(pygame.Surface((50, 50)), "elsewhere", (0, 0), 14)
    texts = recorder.on_window()
    assert [t.text for t in texts if t.text == "too wide for the panel"]
    placed = next(t for t in texts if t.text == "too wide for the panel")
    assert placed.area == pygame.Rect(100, 50, 120, 100) and placed.rect.x >= 140
    assert "elsewhere" not in [t.text for t in texts]
    found = text_audit.problems(texts, window.get_rect())
    assert len(found) == 5, found
    assert any(f.startswith("overlap: 'one'") for f in found)
    assert any(f.startswith("outside its area") and "too wide" in f for f in found)
    assert any(f.startswith("outside the window") and "'off'" in f for f in found)
    assert any(f.startswith("cut short") and "a long sentence cut" in f for f in found)
    assert any(f.startswith("cut short: 'first line'") for f in found)
    readable = [pygame.Rect(0, 90, 400, 80)]  # where pointing shows the whole texts
    assert len(text_audit.problems(texts, window.get_rect(), readable)) == 3


def test_the_audit_finds_column_titles_that_nearly_touch() -> None:
    """Two titles in capitals on one row need `HEADER_GAP` between them; other texts, titles
    on other rows and titles far enough apart are fine."""
    from plyground.gui.widgets import drawing

    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode((400, 300))
    gap = text_audit.HEADER_GAP
    with text_audit.TextRecorder() as recorder:
        right = drawing.draw_text(window, "CUT-OFFS", (10, 10), 13).right
        drawing.draw_text(window, "TABLE HITS", (right + gap - 4, 10), 13)  # too close
        right = drawing.draw_text(window, "NODES", (10, 60), 13).right
        drawing.draw_text(window, "LEAVES", (right + gap + 2, 60), 13)  # room enough
        right = drawing.draw_text(window, "TIME", (10, 110), 13).right
        drawing.draw_text(window, "of minimax", (right + 2, 110), 13)  # not a title
        drawing.draw_text(window, "MOVE", (10, 160), 13)
        drawing.draw_text(window, "VALUE", (10, 175), 13)  # the next row
    found = text_audit.problems(recorder.on_window(), window.get_rect())
    assert len(found) == 1, found
    assert found[0].startswith("titles") and "'CUT-OFFS'" in found[0] and "'TABLE HITS'" in found[0]


@pytest.mark.parametrize("size", [(800, 600), (1024, 640), (1280, 658)], ids=label)
def test_compare_titles_have_room(size: tuple[int, int]) -> None:
    """Compare's column titles keep `HEADER_GAP` apart (a narrow table puts them on two
    lines), and every title is drawn whole."""
    app = screenshot.open_scene("compare", "connect4", "4453", size, {"depth": 2})
    try:
        pump(app, 2)
        app.request_frame()
        with text_audit.TextRecorder() as recorder:
            app.draw()
        texts = recorder.on_window()
        assert text_audit.crowded_headers(texts) == []
        shown = " ".join(t.text for t in texts if text_audit.is_header(t.text))
        for title in ("NODES", "LEAVES", "TABLE", "HITS", "TIME", "MINIMAX"):
            assert title in shown
    finally:
        app.quit(save=False)


def test_the_audit_reads_buttons_and_drop_downs_captions() -> None:
    """A UIButton's or a closed UIDropDownMenu's caption wider than the widget's inside (its
    rect less border, shadow, corners and padding; a drop-down's less its ▼ too) is found."""
    import pygame_gui

    from plyground.gui.widgets.drop_down import caption_room, drop_down, fitted_name, shown_option

    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager(window.get_size())
    long_name = "AI · alphabeta_with_move_ordering.py"
    pygame_gui.elements.UIButton(pygame.Rect(10, 10, 60, 30), "A caption far too long", manager)
    pygame_gui.elements.UIButton(pygame.Rect(10, 50, 200, 30), "Fits", manager)
    menu = drop_down(["Human", long_name], long_name, pygame.Rect(10, 90, 150, 30), manager)
    drop_down(["Human", "AI · Hard"], "Human", pygame.Rect(10, 130, 150, 30), manager)
    captions = text_audit.button_texts(manager)
    assert sorted((c.kind, c.text) for c in captions) == [
        ("button", "A caption far too long"),
        ("button", "Fits"),
        ("drop-down", long_name),
        ("drop-down", "Human"),
    ]  # the drop-downs' own option and ▼ buttons are read as the drop-down
    found = text_audit.problems([], window.get_rect(), buttons=captions)
    assert len(found) == 2, found
    assert any(f.startswith("button caption wider") and "far too long" in f for f in found)
    assert any(f.startswith("drop-down caption wider") and long_name in f for f in found)
    shown = shown_option(menu)
    room = caption_room(shown)
    assert room < 150 - 20 - 2  # less than the box less the ▼ and the border
    fitted = fitted_name(long_name, room, shown.font)
    assert fitted.startswith("AI · alpha") and fitted.endswith("….py")
    assert shown.font.size(fitted)[0] <= room < shown.font.size(long_name)[0]
    assert fitted_name("AI · Hard", room, shown.font) == "AI · Hard"


def test_the_audit_sees_the_trees_own_labels() -> None:
    """The explorer places its labels itself (moves on edges, values under nodes, cut-off
    notes, on plates of their own); they reach the audit like every other text, so two that
    overlap are found."""
    scene, game, moves, options = CASES["lesson-1-last"]
    app = screenshot.open_scene(scene, game, moves, (1280, 658), options)
    try:
        pump(app, 2)
        app.request_frame()
        with text_audit.TextRecorder() as recorder:
            app.draw()
        canvas = app.scene.canvas
        in_tree = {drawn.text for drawn in recorder.on_window() if canvas.contains(drawn.rect)}
        assert {"B", "C", "D", "B1", "C1", "3"} <= in_tree
    finally:
        app.quit(save=False)
