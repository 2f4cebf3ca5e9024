"""The explorer with Monte Carlo tree search: the tree of each step is the recorder's, each
phase is named at its steps, stepping on and back shows the same picture, large trees fold,
and the MCTS lesson opens on its last iteration and steps through the four phases."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pygame
import pytest
from driving import choose_option, press, pump, wait_until

from plyground import games
from plyground.ai.textbook.mcts_trace import record_mcts
from plyground.games.trees import examples as tree_examples
from plyground.gui.explorer.mcts_steps import (
    DEEPER,
    FOLD,
    PHASE_TITLES,
    MctsSteps,
)
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.explorer.scene import ExplorerScene
from plyground.gui.widgets import text_audit

PHASE_OF_KIND = {
    "iteration": "selection",
    "select": "selection",
    "expand": "expansion",
    "playout": "simulation",
    "backup": "backpropagation",
}
OPENING = {
    "iteration": "Iteration ",
    "select": "Selection:",
    "expand": "Expansion:",
    "playout": "Simulation:",
    "backup": "Back-up:",
    "decide": "The search ends",
}
MCTS_LESSON = tree_examples.TRACE_LESSONS.index(tree_examples.MCTS_LESSONS[0])


def tictactoe() -> Any:
    game = games.get_game("tictactoe")
    return game.replay(game.parse_moves("5193"))


def recorded(iterations: int = 40, state: Any = None) -> ExplorerModel:
    model = ExplorerModel(state or tictactoe(), algorithm="mcts", iterations=iterations)
    model.adopt_mcts(model.record_mcts())
    return model


def test_mcts_is_offered_with_iterations_in_place_of_depth() -> None:
    model = ExplorerModel(tictactoe())
    assert "mcts" in model.algorithms()
    assert model.algorithm == "alphabeta"  # the default stays the depth-limited search
    model = ExplorerModel(tictactoe(), algorithm="mcts", iterations=30)
    assert model.is_mcts and model.iterations == 30


def test_the_tree_at_every_step_has_the_recorders_counts() -> None:
    model = recorded(30)
    assert model.mcts is not None and model.ready
    trace = model.mcts.trace
    assert model.step == model.last_step == len(trace.events) - 1  # a position opens at its end
    for step in range(model.last_step + 1):
        model.go_to(step)
        shown = {n.id: (n.parent, n.N, n.U) for n in model.mcts.tree(model.step).values()}
        expected = {n.id: (n.parent, n.N, n.U) for n in trace.tree_at(step + 1)}
        assert shown == expected, step
    root = model.mcts.tree(model.last_step)[0]
    assert root.N == 30  # every iteration went through the root


def test_each_phase_is_named_at_its_steps() -> None:
    model = recorded(30)
    steps = model.mcts
    assert steps is not None
    seen = []
    for step in range(steps.last_step + 1):
        event = steps.event(step)
        if event.kind in PHASE_OF_KIND:
            assert steps.phase(step) == PHASE_OF_KIND[event.kind], step
            seen.append(steps.phase(step))
        assert steps.sentence(step).startswith(OPENING[event.kind]), (step, event.kind)
        light = steps.highlight(step)
        if event.kind == "select":
            assert light.ucb == dict(event.ucb) and light.chosen == event.child
            assert "UCB1" in steps.sentence(step)
        if event.kind == "expand" and event.child != event.node:
            assert light.chosen == event.child
        if event.kind == "playout":
            assert light.playout_from == event.node
        if event.kind == "backup":
            assert light.backed[-1] == event.node
    assert {"selection", "expansion", "simulation", "backpropagation"} <= set(seen)


def test_jumps_go_to_iteration_starts() -> None:
    model = recorded(10)
    steps = model.mcts
    assert steps is not None
    starts = steps.trace.iteration_starts()
    model.go_to(0)
    for start in starts[1:]:
        model.jump_iteration(1)
        assert model.step == start
    model.go_to(starts[3] + 2)  # inside iteration 4: back goes to its own start first
    model.jump_iteration(-1)
    assert model.step == starts[3]
    model.jump_iteration(-1)
    assert model.step == starts[2]


def test_a_large_tree_folds_its_least_visited_children() -> None:
    game = games.get_game("connect4")
    model = recorded(300, game.initial_state())
    model.area = (460.0, 380.0)  # an 800x600 window's canvas
    model.spacing = (19.0, 100.0, 70.0)
    steps = model.mcts
    assert steps is not None
    for step in (model.last_step, model.last_step // 2, steps.trace.iteration_starts()[200] + 2):
        model.go_to(step)
        found = model.mcts_layout()
        assert found is not None
        tree = steps.tree(step)
        nodes = [s for s in found.spots if s.node >= 0]
        assert len(nodes) < len(tree)  # not everything drawn
        assert steps.focus(step) <= {s.node for s in nodes}  # the step's nodes always are
        for spot in nodes:  # each node's children: drawn, or counted in its fold
            kids = steps.children(tree, spot.node)
            drawn = [s for s in found.spots if s.parent == spot.node and s.node >= 0]
            folded = sum(
                s.hidden for s in found.spots if s.parent == spot.node and s.node in (FOLD, DEEPER)
            )
            assert len(drawn) + folded == len(kids), (step, spot.node)
            chosen = [tree[s.node].N for s in drawn if s.node not in steps.focus(step)]
            if chosen and len(drawn) < len(kids):  # the most visited are the ones drawn
                shown = {s.node for s in drawn}
                assert all(min(chosen) >= k.N for k in kids if k.id not in shown)
        by_depth: dict[int, list[float]] = {}
        for spot in found.spots:
            by_depth.setdefault(spot.depth, []).append(spot.x)
        for xs in by_depth.values():  # no two items of a level closer than a slot
            xs.sort()
            assert all(b - a >= found.slot - 1e-6 for a, b in itertools.pairwise(xs))
        assert all(0 <= s.x <= model.area[0] and 0 <= s.y <= model.area[1] for s in found.spots)


def test_labels_say_the_values_are_estimates() -> None:
    from plyground.gui.explorer.mcts_steps import estimate_text

    model = recorded(20)
    assert model.mcts is not None
    tree = model.mcts.tree(model.last_step)
    child = model.mcts.children(tree, 0)[0]
    assert estimate_text(child) == f"○ {child.U / child.N:.2f} · {child.N}"
    assert "estimate" in model.mcts.sentence(model.last_step)


# ---------------------------------------------------------------------- in the window
def open_mcts(app: Any, state: Any, iterations: int) -> ExplorerScene:
    scene = ExplorerScene(app, state, algorithm="mcts", iterations=iterations)
    app.push(scene)
    assert wait_until(app, lambda: scene.ready or bool(scene.model.error), 30)
    pump(app, 2)
    return scene


def picture(app: Any) -> tuple[bytes, set[str]]:
    """The frame drawn and its texts."""
    app.request_frame()
    with text_audit.TextRecorder() as recorder:
        app.draw()
    return pygame.image.tobytes(app.screen, "RGB"), {t.text for t in recorder.texts}


def test_stepping_on_and_back_shows_the_same_picture(make_app: Callable[..., Any]) -> None:
    app = make_app((1366, 768))
    scene = open_mcts(app, tictactoe(), 40)
    assert scene.model.mcts is not None and not scene.model.error
    steps = scene.model.mcts
    for step in (0, 5, steps.trace.iteration_starts()[20] + 1, steps.last_step - 3):
        scene.go_to(step)
        pump(app, 1)
        before, texts = picture(app)
        phase = steps.phase(step)
        assert any(PHASE_TITLES[phase] in t for t in texts if t.startswith("Iteration")), step
        press(app, pygame.K_RIGHT)
        assert scene.step == step + 1
        after, _ = picture(app)
        assert after != before  # the step shows something new
        press(app, pygame.K_LEFT)
        assert scene.step == step
        again, again_texts = picture(app)
        assert again == before and again_texts == texts, step
    press(app, pygame.K_END)
    _, texts = picture(app)
    assert any(t.startswith("Done: 40 iterations") for t in texts)
    press(app, pygame.K_PAGEUP)  # the last iteration's start
    assert scene.step == steps.trace.iteration_starts()[-1]


def test_the_counts_n_as_iterations_beside_the_playouts_counted(
    make_app: Callable[..., Any],
) -> None:
    """After 41 iterations on tic-tac-toe 5193 the root read "40 playouts" (now N = 40), a key
    "the share of its 40 playouts" beside "29 playouts" under Counts so far: N counts
    iterations (one reaching a finished game in the tree has no playout)."""
    app = make_app((1366, 768))
    state = games.get_game("tictactoe").replay(games.get_game("tictactoe").parse_moves("5193"))
    scene = open_mcts(app, state, 100)
    steps = scene.model.mcts
    assert steps is not None
    step = steps.trace.iteration_starts()[41] - 1  # iteration 41's back-up at the root
    scene.go_to(step)
    pump(app, 1)
    _, texts = picture(app)
    counts = steps.trace.counts_at(step + 1)
    assert counts.playouts < counts.iterations  # the case where the two words parted
    root = steps.tree(step)[0]
    assert f"N = {root.N}" in texts and f"{root.N} playouts" not in texts
    assert steps.sentence(step) == (
        f"Back-up: the root now counts {root.N} iterations. The iteration is over."
    )
    assert not any("playouts won" in text or "one more playout" in text for text in texts)
    assert f"of {steps.iterations} iterations)" in steps.sentence(steps.last_step)


def test_choosing_mcts_and_its_iterations_in_the_window(make_app: Callable[..., Any]) -> None:
    app = make_app()
    scene = ExplorerScene(app, tictactoe())
    app.push(scene)
    assert wait_until(app, lambda: scene.ready, 30)
    menu = next(w for w, name in scene.ids.items() if name == "algorithm")
    choose_option(app, menu, "MCTS")
    assert wait_until(app, lambda: scene.model.mcts is not None, 30)
    assert "depth" not in scene.ids.values() and "iterations" in scene.ids.values()
    menu = next(w for w, name in scene.ids.items() if name == "iterations")
    choose_option(app, menu, "20 iterations")
    assert wait_until(app, lambda: scene.model.mcts is not None, 30)
    assert scene.model.mcts.tree(scene.model.last_step)[0].N == 20
    expected = record_mcts(tictactoe(), 20, 0)
    assert len(scene.model.mcts.trace.events) == len(expected.events)  # one seed, one tree


def test_the_mcts_lesson_opens_and_steps_through_one_iteration(
    make_app: Callable[..., Any],
) -> None:
    app = make_app((800, 600))
    scene = ExplorerScene.lessons(app, MCTS_LESSON)
    app.push(scene)
    assert wait_until(app, lambda: scene.ready, 30)
    pump(app, 2)
    steps = scene.model.mcts
    assert steps is not None
    lesson = tree_examples.TRACE_LESSONS[MCTS_LESSON]
    assert steps.iterations == lesson.iterations
    start = steps.trace.iteration_starts()[-1]
    assert scene.step == start  # the last iteration, from its start
    _, texts = picture(app)
    assert any(t.startswith("Iteration") for t in texts)
    phases = []
    ucb_drawn = False
    while not scene.model.at_end:
        phases.append(steps.phase(scene.step))
        _, texts = picture(app)
        if steps.event(scene.step).kind == "select" and steps.event(scene.step).ucb:
            ucb_drawn = ucb_drawn or any(t.startswith("UCB1 ") for t in texts)
        press(app, pygame.K_RIGHT)
    order = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert order == ["selection", "expansion", "simulation", "backpropagation"]
    assert ucb_drawn
    _, texts = picture(app)
    assert any(t.startswith("Done:") for t in texts)


@pytest.mark.parametrize("size", [(800, 600), (1366, 768)], ids=["800x600", "1366x768"])
def test_the_mcts_views_fit(size: tuple[int, int]) -> None:
    """Every text of the explorer's MCTS and its lesson fits, at every kind of step."""
    from plyground.gui import screenshot

    for scene_name, options in (
        ("explorer", {"algorithm": "mcts", "iterations": 100}),
        ("lesson", {"lesson": MCTS_LESSON + 1}),
    ):
        app = screenshot.open_scene(scene_name, "tictactoe", "5193", size, options)
        try:
            model = app.scene.model
            steps = model.mcts
            assert isinstance(steps, MctsSteps)
            kinds: dict[str, int] = {}
            for index in range(steps.last_step, -1, -1):
                kinds.setdefault(steps.event(index).kind, index)
            for step in sorted(kinds.values()):
                app.scene.go_to(step)
                pump(app, 1)
                problems = _audit(app)
                assert problems == [], (scene_name, step, problems)
        finally:
            app.quit(save=False)


@pytest.mark.parametrize("size", [(800, 600), (1366, 768)], ids=["800x600", "1366x768"])
def test_mcts_on_a_lesson_tree_of_scores_says_how_it_reads_them(size: tuple[int, int]) -> None:
    """Lesson 1 with MCTS drew every move 1.00 and every leaf 0.00 under the minimax lesson's
    text, with no word that MCTS reads a leaf of 3 as a win for MAX; lesson 4 needs none."""
    from plyground.gui import screenshot

    for lesson, noted in ((1, True), (MCTS_LESSON + 1, False)):
        app = screenshot.open_scene(
            "lesson", "tictactoe", "", size, {"lesson": lesson, "algorithm": "mcts"}
        )
        try:
            steps = app.scene.model.mcts
            assert isinstance(steps, MctsSteps)
            for step in (0, steps.last_step):
                app.scene.go_to(step)
                pump(app, 1)
                _, texts = picture(app)
                said = any("leaves are scores" in text for text in texts)
                assert said == noted, (lesson, step)
                assert _audit(app) == [], (lesson, step)
        finally:
            app.quit(save=False)


def _audit(app: Any) -> list[str]:
    from tests.gui.test_layout_audit import audit

    return audit(app)


def test_the_lessons_menu_goes_to_mcts_and_back(make_app: Callable[..., Any]) -> None:
    app = make_app()
    scene = ExplorerScene.lessons(app, 0)
    app.push(scene)
    assert wait_until(app, lambda: scene.ready, 30)
    lesson_menu = next(w for w, name in scene.ids.items() if name == "lesson")
    choose_option(app, lesson_menu, tree_examples.MCTS_LESSONS[0].title)
    assert wait_until(app, lambda: scene.model.mcts is not None, 30)
    assert scene.model.lesson == MCTS_LESSON and scene.model.trace is None
    lesson_menu = next(w for w, name in scene.ids.items() if name == "lesson")
    choose_option(app, lesson_menu, tree_examples.LESSONS[0].title)
    assert wait_until(app, lambda: scene.model.trace is not None, 30)
    assert scene.model.mcts is None and scene.model.algorithm == "alphabeta"
    algorithm_menu = next(w for w, name in scene.ids.items() if name == "algorithm")
    choose_option(app, algorithm_menu, "MCTS")  # MCTS on the minimax lesson's tree too
    assert wait_until(app, lambda: scene.model.mcts is not None, 30)
    assert "iterations" in scene.ids.values()


def test_every_step_of_a_chance_game_fits_at_the_smallest_size() -> None:
    """Pig's long chains: moves on short edges keep clear of the nodes' labels, a long
    playout is written as its ends and its length (nothing cut short)."""
    from plyground.gui import screenshot

    options = {"algorithm": "mcts", "iterations": 60}
    app = screenshot.open_scene("explorer", "pig", "r4r5", (800, 600), options)
    try:
        steps = app.scene.model.mcts
        assert isinstance(steps, MctsSteps)
        for step in range(0, steps.last_step + 1, max(1, steps.last_step // 50)):
            app.scene.go_to(step)
            pump(app, 1)
            assert _audit(app) == [], step
    finally:
        app.quit(save=False)


def test_a_long_playout_is_written_as_its_ends() -> None:
    from plyground.gui.explorer.mcts_view import playout_text

    assert playout_text(["1", "2", "3"]) == "1 2 3"
    moves = [str(i) for i in range(40)]
    assert playout_text(moves) == "0 1 2 3 4 5 … 34 35 36 37 38 39 (40 moves)"


def test_the_exploration_constant_is_chosen_in_the_window(make_app: Callable[..., Any]) -> None:
    """A c menu beside the iterations and the seed, as `trace --c` has: small c spends the
    iterations on the child that has won most, large c spreads them (UCB1's balance)."""
    app = make_app()
    scene = ExplorerScene(app, tictactoe(), "mcts", iterations=100)
    app.push(scene)
    assert wait_until(app, lambda: scene.model.mcts is not None, 30)
    assert scene.model.mcts.c == pytest.approx(2**0.5)  # the textbook's √2 first
    menu = next(w for w, name in scene.ids.items() if name == "exploration")
    assert menu.selected_option[0] == "c 1.41 (√2)"
    shares = {}
    for label, c in (("c 0.5", 0.5), ("c 2", 2.0)):
        menu = next(w for w, name in scene.ids.items() if name == "exploration")
        choose_option(app, menu, label)

        def recorded_with(c: float = c) -> bool:
            return scene.model.mcts is not None and scene.model.mcts.c == c

        assert wait_until(app, recorded_with, 30)
        steps = scene.model.mcts
        assert steps is not None
        expected = record_mcts(tictactoe(), 100, 0, c)
        assert len(steps.trace.events) == len(expected.events)  # one seed, one c, one tree
        tree = steps.tree(steps.last_step)
        shares[c] = max(n.N for n in tree.values() if n.parent == 0)
    assert shares[0.5] > shares[2.0], shares  # exploiting: the favourite takes more


def test_an_mcts_nodes_hover_card_gives_its_counts_and_ucb1() -> None:
    """A node's card: its move path, N, U, U/N as an estimate, and UCB1 at its parent with
    both terms, the same UCB1 the selection step drew under it."""
    model = recorded(40)
    steps = model.mcts
    assert steps is not None
    checked = 0
    for step in range(steps.last_step + 1):
        light = steps.highlight(step)
        if steps.event(step).kind != "select" or not light.ucb:
            continue
        tree = steps.tree(step)
        for child, ucb in light.ucb.items():
            lines = steps.hover_lines(step, child)
            node = tree[child]
            assert lines[0].startswith("Path: ") and lines[0].endswith(str(node.move))
            assert lines[1] == f"N {node.N}: playouts through it"
            if ucb == float("inf"):
                assert lines[-1].startswith("UCB1 at its parent: ∞")
                continue
            assert f"U/N {node.U / node.N:.2f}: an estimate from {node.N} playouts" in lines
            assert lines[-1].startswith("UCB1 at its parent: U/N + c·√(ln ")
            assert f"= {ucb:.2f} (c = 1.41)" in lines[-1], (lines, ucb)
            checked += 1
    assert checked > 20
    assert steps.hover_lines(steps.last_step, 0)[0].startswith("The root")


def test_hovering_an_mcts_node_draws_its_card(make_app: Callable[..., Any]) -> None:
    app = make_app((800, 600))
    scene = open_mcts(app, tictactoe(), 40)
    found = scene.model.mcts_layout()
    assert found is not None
    spot = next(s for s in found.spots if s.node > 0)
    top = scene.canvas.y + app.metrics.px(10)  # where the tree view draws its spots
    pos = (round(scene.canvas.x + spot.x), round(top + spot.y))
    app.mouse_override = pos
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pump(app, 2)
    assert scene.model.mcts_hover == spot.node
    _, texts = picture(app)
    assert any(t.startswith("Path: ") for t in texts)
    assert any(t.startswith("UCB1 at its parent") for t in texts)
