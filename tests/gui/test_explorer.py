"""The search-tree explorer, driven headless: open, expand, re-root, step, scrub, lessons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pytest
from driving import choose_option, click, press, pump, wait_until

from plyground import games
from plyground.games.trees import examples as tree_examples
from plyground.gui.explorer import practice as explorer_practice
from plyground.gui.explorer.layout import CUT, MORE, layout
from plyground.gui.explorer.panel import chance_to_explain
from plyground.gui.explorer.practice import PRACTICE
from plyground.gui.explorer.scene import ExplorerScene


def open_explorer(app: Any, state: Any, **kwargs: Any) -> ExplorerScene:
    scene = ExplorerScene(app, state, **kwargs)
    app.push(scene)
    assert wait_until(app, lambda: scene.ready or bool(scene.model.error), 30)
    pump(app, 2)
    return scene


def open_lesson(app: Any, index: int) -> ExplorerScene:
    scene = ExplorerScene.lessons(app, index)
    app.push(scene)
    assert wait_until(app, lambda: scene.ready, 10)
    pump(app, 2)
    return scene


def item_for(scene: ExplorerScene, label: str, stub: str = "") -> Any:
    found = scene.current_layout()
    assert found is not None and scene.model.trace is not None
    matches = [
        item
        for item in found.items
        if scene.model.trace.nodes[item.node].label == label and item.stub == stub
    ]
    return min(matches, key=lambda item: item.level)  # the shallowest of that name


def button(scene: ExplorerScene, action: str) -> Any:
    return next(widget for widget, name in scene.ids.items() if name == action)


@pytest.mark.usefixtures("no_book")  # the value at depth 4 without the opening book
def test_connect_four_alphabeta_opens_with_root_moves_and_cuts(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    game = games.get_game("connect4")
    scene = open_explorer(
        app, game.replay(game.parse_moves("4453")), algorithm="alphabeta", depth=4
    )
    assert scene.model.trace is not None
    assert scene.model.trace.value == pytest.approx(-0.07, abs=0.01)
    assert len(scene.model.trace.root.children) == 7
    found = scene.current_layout()
    assert found is not None
    shown = {
        scene.model.trace.nodes[i.node].label for i in found.items if i.level == 1 and not i.stub
    }
    assert shown == {"1", "2", "3", "4", "5", "6", "7"}
    assert any(item.stub == CUT for item in found.items)
    assert found.folded  # depth 4 does not fit: "…" stubs stand for the deeper levels
    assert any(item.stub == MORE for item in found.items)
    assert scene.step == len(scene.model.trace.events) - 1


@pytest.mark.slow
def test_click_expands_and_collapses_double_click_reroots(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game = games.get_game("connect4")
    scene = open_explorer(app, game.initial_state(), algorithm="alphabeta", depth=3)
    assert scene.model.trace is not None
    target = item_for(scene, "1")
    node = target.node
    opened = node in scene.model.expanded
    click(app, scene.node_pos(target))
    assert (node in scene.model.expanded) != opened
    pump(app, 30)  # long enough that the next click is not a double-click
    click(app, scene.node_pos(item_for(scene, "1")))
    assert (node in scene.model.expanded) == opened
    pump(app, 30)
    pos = scene.node_pos(item_for(scene, "1"))
    click(app, pos, frames=1)
    click(app, pos)
    assert scene.model.root_id == node
    assert scene.current_layout().items[0].node == node  # type: ignore[union-attr]
    up = button(scene, "unroot")
    click(app, up.rect.center)
    assert scene.model.root_id == 0
    scene.reroot(node)
    press(app, pygame.K_BACKSPACE)
    assert scene.model.root_id == 0


@pytest.mark.slow
def test_stepping_scrubbing_and_playing(make_app: Callable[..., Any]) -> None:
    app = make_app()
    scene = open_lesson(app, 0)
    assert scene.model.trace is not None
    last = len(scene.model.trace.events) - 1
    press(app, pygame.K_HOME)
    assert scene.step == 0 and scene.model.trace.totals(scene.step) == (1, 0, 0, 0)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert scene.step == 2
    press(app, pygame.K_LEFT)
    assert scene.step == 1
    click(app, button(scene, "end").rect.center)
    assert scene.step == last
    click(app, button(scene, "start").rect.center)
    click(app, button(scene, "forward").rect.center)
    assert scene.step == 1
    # Scrub to the cut-off: the counters and the sentence follow the step.
    cut_step = next(i for i, e in enumerate(scene.model.trace.events) if e.kind == "cutoff")
    slider = scene.scrubber
    pygame.event.post(
        pygame.event.Event(
            pygame_gui_event("UI_HORIZONTAL_SLIDER_MOVED"), ui_element=slider, value=cut_step
        )
    )
    pump(app, 2)
    assert scene.step == cut_step
    assert scene.model.trace.totals(scene.step)[2] == 1
    from plyground.ai.textbook.trace_text import explain

    assert explain(scene.model.trace, scene.step).startswith("MIN at C already has 1 ≤ α = 3")
    # Play: the stepper moves by itself, then stops at the end.
    press(app, pygame.K_HOME)
    choose_option(app, button(scene, "speed"), "100 steps/s")
    press(app, pygame.K_SPACE)
    assert scene.playing
    pump(app, 12)
    assert 10 <= scene.step < last
    pump(app, 60)
    assert scene.step == last and not scene.playing


def pygame_gui_event(name: str) -> int:
    import pygame_gui

    return int(getattr(pygame_gui, name))


@pytest.mark.slow
def test_changing_settings_records_again(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game = games.get_game("tictactoe")
    scene = open_explorer(app, game.initial_state(), algorithm="alphabeta", depth=2)
    assert scene.model.trace is not None and scene.model.trace.totals()[2] > 0
    choose_option(app, button(scene, "algorithm"), "minimax")
    assert wait_until(app, lambda: scene.ready, 20)
    assert scene.model.trace.algorithm == "minimax" and scene.model.trace.totals()[2] == 0
    choose_option(app, button(scene, "depth"), "Depth 4")
    assert wait_until(app, lambda: scene.ready, 20)
    assert scene.model.trace.depth == 4 and scene.model.trace.totals()[0] == 1 + 9 + 72 + 504 + 3024
    click(app, button(scene, "table").rect.center)
    assert wait_until(app, lambda: scene.ready, 20)
    assert scene.model.trace.table and scene.model.trace.totals()[3] > 0
    click(app, button(scene, "table").rect.center)
    assert wait_until(app, lambda: scene.ready, 20)
    choose_option(app, button(scene, "depth"), "Depth 8")
    assert wait_until(app, lambda: bool(scene.model.error), 60)
    assert "try depth" in scene.model.error
    pump(app, 2)  # the message is drawn, nothing raises


def test_pig_chance_nodes_show_probabilities_and_sums(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game = games.get_game("pig")
    scene = open_explorer(app, game.replay(game.parse_moves("r4r5")), depth=2)
    assert scene.model.trace is not None and scene.model.trace.algorithm == "expectiminimax"
    chance = next(n for n in scene.model.trace.nodes if n.kind == "chance")
    assert [scene.model.trace.nodes[c].probability for c in chance.children] == [
        pytest.approx(1 / 6)
    ] * 6
    assert scene.model.trace.totals()[2] == 0
    assert chance_to_explain(scene.model, scene.model.trace.root) is not None
    from plyground.ai.textbook.trace_text import sum_text

    assert sum_text(scene.model.trace, chance).startswith("1/6·")
    # Hovering the chance node shows its card (drawn without error).
    item = next(i for i in scene.current_layout().items if i.node == chance.id and not i.stub)  # type: ignore[union-attr]
    pos = scene.node_pos(item)
    app.mouse_override = pos
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pump(app, 2)
    assert scene.model.hover is not None and scene.model.hover.node == chance.id


def test_each_lesson_opens_with_its_values(make_app: Callable[..., Any]) -> None:
    app = make_app()
    scene = open_lesson(app, 0)
    assert scene.model.trace is not None and scene.model.trace.value == 3
    assert [n.label for n in scene.model.trace.nodes if n.cut] == ["C"]
    choose_option(app, button(scene, "lesson"), "2. Move ordering")
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.totals()[1] == 9  # the worst order: every leaf
    click(app, button(scene, "variant").rect.center)
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.totals()[1] == 5  # the best order
    choose_option(app, button(scene, "lesson"), "3. Chance and the scale of values")
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.value == pytest.approx(2.1)
    assert scene.model.trace.best_child.label == "a1"  # type: ignore[union-attr]
    click(app, button(scene, "variant").rect.center)
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.value == pytest.approx(40.9)
    assert scene.model.trace.best_child.label == "a2"  # type: ignore[union-attr]


def test_practice_checks_the_learners_prediction(make_app: Callable[..., Any]) -> None:
    app = make_app()
    scene = open_lesson(app, PRACTICE)
    assert scene.model.trace is not None and scene.model.trace.algorithm == "minimax"
    skipped, value = explorer_practice.answer(scene.model.state, scene.model.depth)
    assert value == tree_examples.value_of(scene.model.state.game.tree)
    for char in f"{value:g}":
        press(app, ord(char), char)
    assert scene.model.practice.guess == f"{value:g}"
    marked = sorted(skipped)[:1]
    for label in marked:
        click(app, scene.node_pos(item_for(scene, label)))
    assert {scene.model.trace.nodes[n].label for n in scene.model.practice.marks} == set(marked)
    click(app, button(scene, "check").rect.center)
    assert (
        "right" in scene.model.practice.verdict and "not right" not in scene.model.practice.verdict
    )
    assert f"You marked {len(marked)} of them." in scene.model.practice.verdict
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.algorithm == "alphabeta"


def test_the_explorer_fits_small_and_large_windows(make_app: Callable[..., Any]) -> None:
    for size in ((800, 600), (1920, 1080)):
        app = make_app(size)
        game = games.get_game("connect4")
        scene = open_explorer(app, game.initial_state(), algorithm="alphabeta", depth=4)
        found = scene.current_layout()
        assert found is not None
        for item in found.items:
            x, y = scene.node_pos(item)
            assert scene.canvas.collidepoint(x, y), (size, item)
        press(app, pygame.K_ESCAPE)
        assert type(app.scene).__name__ == "MenuScene"


def test_layout_places_every_root_move_and_one_stub_per_cut() -> None:
    from plyground.ai.textbook.trace import trace

    state = tree_examples.TreeGame(tree_examples.LESSON_TREE).initial_state()
    found = trace(state, "alphabeta", 2)
    everything = {n.id for n in found.nodes if n.children}
    placed = layout(found.nodes, 0, everything, (600, 400))
    assert [found.nodes[i.node].label for i in placed.items if i.level == 1 and not i.stub] == [
        "B",
        "C",
        "D",
    ]
    assert [i.node for i in placed.items if i.stub == CUT] == [5]
    assert not placed.folded
    narrow = layout(found.nodes, 0, everything, (100, 400), min_slot=30)
    assert narrow.folded and narrow.levels == 1
    assert sum(1 for i in narrow.items if i.stub == MORE) == 3


def test_the_frame_bench_reports_frame_times() -> None:
    from plyground.gui.explorer.bench import run

    figures = run(frames=20, game="connect4", algorithm="alphabeta", depth=4)
    assert figures["nodes"] == 200 and figures["frames"] == 20
    assert figures["p95_ms"] >= figures["median_ms"] > 0


def test_hover_shows_the_position_as_a_small_board(make_app: Callable[..., Any]) -> None:
    from plyground.gui.explorer import board as explorer_board

    app = make_app()
    game = games.get_game("connect4")
    scene = open_explorer(app, game.replay(game.parse_moves("44")), algorithm="alphabeta", depth=2)
    assert scene.model.trace is not None
    surface = pygame.Surface((200, 160))
    assert explorer_board.draw_position(surface, surface.get_rect(), scene.model.trace.state_of(1))
    tree = tree_examples.TreeGame(tree_examples.LESSON_TREE).initial_state()
    assert not explorer_board.has_view(tree)
    item = item_for(scene, scene.model.trace.nodes[1].label)
    pos = scene.node_pos(item)
    app.mouse_override = pos
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pump(app, 2)
    assert scene.model.hover is not None and scene.model.hover.level == 1


def test_a_finished_game_is_explained_not_raised(make_app: Callable[..., Any]) -> None:
    app = make_app()
    game = games.get_game("tictactoe")
    scene = open_explorer(app, game.replay(game.parse_moves("14253")))
    assert scene.model.trace is None and "the game is over" in scene.model.error


def test_lesson_panels_compare_both_versions() -> None:
    from plyground.gui.explorer.panel import lesson_comparison

    assert lesson_comparison(0) == ()
    assert lesson_comparison(1) == (
        "Worst order: 9 leaves evaluated",
        "Best order: 5 leaves evaluated",
    )
    assert lesson_comparison(2) == (
        "Leaves 2, 2, 3, 3, 1, 1, 4, 4: a1 = 2.1, a2 = 1.3 → a1",
        "Stretched leaves: a1 = 21, a2 = 40.9 → a2",
    )


def test_practice_tells_searched_marks_from_marks_inside_a_cut(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    scene = open_lesson(app, PRACTICE)
    assert scene.model.trace is not None
    skipped, _ = explorer_practice.answer(scene.model.state, scene.model.depth)
    nodes = scene.model.trace.nodes
    cut_root = next(n for n in nodes if n.label in skipped)
    searched = next(n for n in nodes if n.parent == 0)  # the first root move is always searched
    scene.model.practice.marks = {searched.id} | (
        {cut_root.children[0]} if cut_root.children else set()
    )
    verdict = scene.check_practice()
    assert "You marked 0 of them" in verdict
    assert "1 that is searched." in verdict
    if cut_root.children:
        assert "1 inside a cut branch" in verdict


def test_the_editor_searches_the_typed_tree_and_refuses_bad_text(
    make_app: Callable[..., Any],
) -> None:
    import pygame_gui

    from plyground.gui.explorer.practice import EDITOR

    app = make_app()
    scene = open_lesson(app, EDITOR)
    assert scene.model.trace is not None and scene.model.trace.value == 3
    box = scene.editor_box
    assert box is not None and box.get_text() == "(3,5,9)(1,7,14)(8,11,2)"
    box.set_text("(3,12,8)(2,4,6)(14,5,2)")
    pygame.event.post(
        pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, ui_element=box, text=box.get_text())
    )
    pump(app, 2)
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.trace.value == 3 and scene.model.trace.totals()[1] == 7
    assert not scene.run_tree_text("(3,12,8)(2,4")
    assert "expected ')'" in scene.model.editor_error
    assert scene.model.editor_text == "(3,12,8)(2,4,6)(14,5,2)"  # nothing lost
    pump(app, 2)  # the error line is drawn
    click(app, button(scene, "random_tree").rect.center)
    assert wait_until(app, lambda: scene.ready, 10)
    assert scene.model.editor_error == ""
    assert scene.editor_box.get_text() == scene.model.editor_text


def test_pruned_subtrees_toggle_in_the_explorer(make_app: Callable[..., Any]) -> None:
    from plyground.gui.explorer.layout import PRUNED

    app = make_app()
    game = games.get_game("tictactoe")
    scene = open_explorer(
        app, game.replay(game.parse_moves("5193")), algorithm="alphabeta", depth=2
    )
    assert not scene.model.show_pruned
    assert not any(i.stub == PRUNED for i in scene.current_layout().items)  # type: ignore[union-attr]
    click(app, button(scene, "pruned").rect.center)
    assert scene.model.show_pruned
    assert any(i.stub == PRUNED for i in scene.current_layout().items)  # type: ignore[union-attr]
    pump(app, 2)


def _narrated_on_screen(scene: ExplorerScene) -> bool:
    model = scene.model
    found = scene.current_layout()
    assert found is not None
    for node in (model.narrated, model.narrated_child):
        if node is None:
            continue
        index = found.index_of(node)
        if index is None or not scene.canvas.collidepoint(scene.node_pos(found.items[index])):
            return False
    return True


@pytest.mark.slow
def test_a_student_steps_through_every_lesson_and_sees_each_narrated_node(
    make_app: Callable[..., Any],
) -> None:
    app = make_app()
    scene = open_lesson(app, 0)
    practice = f"{PRACTICE + 1}. Practice"  # after every lesson (MCTS's: test_explorer_mcts)
    for name in [lesson.title for lesson in tree_examples.LESSONS] + [practice]:
        if name != "1. Minimax and alpha-beta":
            choose_option(app, button(scene, "lesson"), name)
            assert wait_until(app, lambda: scene.ready, 10)
        for variant in (False, True):
            if variant:
                if "variant" not in scene.ids.values():
                    continue
                click(app, button(scene, "variant").rect.center)
                assert wait_until(app, lambda: scene.ready, 10)
            press(app, pygame.K_HOME)
            while True:
                assert _narrated_on_screen(scene), (name, scene.step)
                if scene.model.at_end:
                    break
                press(app, pygame.K_RIGHT)


@pytest.mark.slow
@pytest.mark.usefixtures("no_book")
def test_a_student_steps_a_connect_four_and_a_pig_position(make_app: Callable[..., Any]) -> None:
    app = make_app()
    connect4 = games.get_game("connect4")
    pig = games.get_game("pig", goal=20)
    for state, depth in (
        (connect4.replay(connect4.parse_moves("44433355")), 4),
        (pig.replay(pig.parse_moves("r4r5")), 2),
    ):
        scene = open_explorer(app, state, depth=depth)
        press(app, pygame.K_HOME)
        for _ in range(60):
            press(app, pygame.K_RIGHT)
            assert _narrated_on_screen(scene), scene.step
        scene.go_to(scene.model.last_step // 2)
        pump(app, 1)
        assert _narrated_on_screen(scene)
        press(app, pygame.K_ESCAPE)


def test_a_chance_node_keeps_its_name_in_the_panel_title() -> None:
    """The panel's titles are capitals, but a node is named as the tree names it."""
    from plyground.gui.explorer.panel import section_title

    assert section_title("Chance node", "a1") == "CHANCE NODE a1"
    assert section_title("Now") == "NOW"


def test_each_counter_in_the_panel_has_its_one_definition() -> None:
    from plyground.ai.textbook import counts
    from plyground.gui.explorer.panel import counter_help

    assert counter_help(None) == counts.COUNTER_HINT
    assert counter_help("Cut-offs") == f"Cut-offs: {counts.CUTOFF}."
    for label, definition in zip(
        counts.LABELS, (counts.NODE, counts.LEAF, counts.CUTOFF, counts.TABLE_HIT), strict=True
    ):
        assert counter_help(label).endswith(definition + ".")
    assert set(counts.LABEL_DEFINITIONS.values()) <= set(counts.DEFINITIONS.values())


def test_the_key_card_says_where_the_counts_are_defined() -> None:
    from plyground.ai.textbook import counts
    from plyground.gui.app import COUNTS_HELP, help_keys

    assert ("Counts", COUNTS_HELP) in help_keys()
    for name in counts.DEFINITIONS:
        if name != "share":
            assert name in COUNTS_HELP


def test_the_key_names_only_the_bound_signs_the_tree_shows() -> None:
    """The key beside the root value names the bound signs among the values the tree wrote:
    minimax's tree has none; alpha-beta's at 1280x658 writes ≤ and ≥, at 800x600 (no room
    under the deeper nodes) only ≤."""
    from plyground.gui import screenshot
    from plyground.gui.explorer.panel import bound_key
    from plyground.gui.explorer.tree_view import draw_tree
    from plyground.gui.widgets import text_audit

    assert bound_key(["+0.42", "loss in 2"]) == ""
    assert bound_key(["≤ loss in 2", "+0.42"]) == "≤ marks a bound"
    assert bound_key(["≥ 3 so far"]) == "≥ marks a bound"
    assert bound_key(["≤ 1", "≥ 2 so far"]) == "≤ ≥ mark bounds"
    for algorithm, size, key in (
        ("minimax", (1280, 658), ""),
        ("alphabeta", (1280, 658), "≤ ≥ mark bounds"),
        ("alphabeta", (800, 600), "≤ marks a bound"),
    ):
        options = {"algorithm": algorithm}
        app = screenshot.open_scene("explorer", "tictactoe", "5193", size, options)
        try:
            pump(app, 2)
            app.request_frame()
            with text_audit.TextRecorder() as recorder:
                app.draw()
            drawn = [t.text for t in recorder.on_window()]
            search = " ".join(drawn[drawn.index("SEARCH") : drawn.index("MOVES AT THE ROOT")])
            assert "bound" not in search if not key else key in search, search
            scene = app.scene
            written = draw_tree(pygame.Surface(app.size), scene.model, scene.tree_canvas())
            signs = {sign for sign in "≤≥" if any(t.startswith(sign) for t in written)}
            assert signs == {sign for sign in "≤≥" if sign in key}
        finally:
            app.quit(save=False)
