"""The explorer through its model (no window, no pixels).

What is narrated is drawn, single click opens and closes, double click re-roots, nodes are
named by their path, pruned subtrees show greyed with their values, trees typed into the
editor search as the lessons do, practice takes branches and nodes alike, bounds are
written as bounds.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from plyground import games
from plyground.ai.textbook.trace import trace
from plyground.ai.textbook.trace_text import bound_text, explain, node_name, so_far_text
from plyground.cli import run
from plyground.games.trees import examples as tree_examples
from plyground.games.trees import text as tree_text
from plyground.gui.explorer.layout import CUT, MORE, PRUNED, Layout, Placed
from plyground.gui.explorer.model import DOUBLE_CLICK, ExplorerModel
from plyground.gui.explorer.practice import EDITOR, PRACTICE, PROMPT
from plyground.gui.explorer.pruned import NEVER_LOOKED

GUI = Path(__file__).resolve().parents[2] / "gui"
AREA = (820.0, 560.0)
"""The tree's area in a 1280x800 window (the canvas less its margin)."""
SPACING = (30.0, 160.0, 110.0)


def model_for(state: Any, **kwargs: Any) -> ExplorerModel:
    model = ExplorerModel(state, **kwargs)
    model.area, model.spacing = AREA, SPACING
    model.adopt(model.record())
    return model


def lesson(index: int, variant: bool = False) -> ExplorerModel:
    first = tree_examples.LESSONS[0]
    model = ExplorerModel(tree_examples.TreeGame(first.tree).initial_state(), lesson=index, seed=3)
    model.variant = variant
    model.load_lesson(index)
    model.area, model.spacing = AREA, SPACING
    model.adopt(model.record())
    return model


def item_of(model: ExplorerModel, label: str, stub: str = "") -> Placed:
    found = model.current_layout()
    assert found is not None
    return next(i for i in found.items if model.node(i.node).label == label and i.stub == stub)


def placed_inside(found: Layout, node: int) -> bool:
    index = found.index_of(node)
    if index is None:
        return False
    item = found.items[index]
    return 0 <= item.x <= AREA[0] and 0 <= item.y <= AREA[1]


# ---------------------------------------------------------------- structure
def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_views_read_the_model_and_the_model_needs_no_pygame() -> None:
    views = [GUI / "explorer" / f"{name}.py" for name in ("tree_view", "panel", "controls")]
    views.append(GUI / "compare" / "table.py")
    for path in views:
        assert not any("scenes" in name for name in _imports(path)), path
    for name in ("model", "layout", "pruned", "practice"):
        imported = _imports(GUI / "explorer" / f"{name}.py")
        assert not any(n.split(".")[0] in ("pygame", "pygame_gui") for n in imported), name
    assert "plyground.gui.explorer.model" in _imports(GUI / "explorer" / "tree_view.py")


# ---------------------------------------------------------------- 1. narrated node in view
def _walk(model: ExplorerModel, every: int = 1) -> int:
    """Step through the whole trace; at each step the narrated node and its path are placed
    inside the area.  Returns the steps checked."""
    assert model.trace is not None
    checked = 0
    for step in range(0, model.last_step + 1, every):
        model.go_to(step)
        found = model.current_layout()
        assert found is not None
        named = model.narrated if model.narrated_child is None else model.narrated_child
        above_root = {n.id for n in model.trace.path(model.root_id)[:-1]}
        for node in model.trace.path(named):
            if node.id not in above_root:
                assert placed_inside(found, node.id), (step, explain(model.trace, step))
        checked += 1
    return checked


@pytest.mark.usefixtures("no_book")
def test_connect_four_narrates_nothing_off_screen() -> None:
    game = games.get_game("connect4")
    model = model_for(game.replay(game.parse_moves("44433355")), algorithm="alphabeta", depth=4)
    assert model.trace is not None and len(model.trace.nodes) > 200
    assert _walk(model, every=3) > 100
    # The step: the sentence names nodes by their path, and they are drawn.
    model.go_to(12)
    sentence = explain(model.trace, 12)
    assert "·" in sentence
    assert placed_inside(model.current_layout(), model.narrated)  # type: ignore[arg-type]


def test_pig_tictactoe_and_every_lesson_narrate_nothing_off_screen() -> None:
    pig = games.get_game("pig", goal=20)
    assert _walk(model_for(pig.replay(pig.parse_moves("r4r5")), depth=2), every=2) > 50
    ttt = games.get_game("tictactoe")
    assert _walk(model_for(ttt.replay(ttt.parse_moves("15")), depth=3), every=2) > 50
    for index in range(len(tree_examples.LESSONS)):
        for variant in (False, True):
            assert _walk(lesson(index, variant)) > 20
    assert _walk(lesson(PRACTICE)) > 20


def test_stepping_leaves_a_subtree_that_does_not_hold_the_narrated_node() -> None:
    model = lesson(0)
    c = item_of(model, "C")
    assert model.reroot(c.node) and model.root_id == c.node
    model.go_to(2)  # B is narrated: the tree is drawn from A again
    assert model.root_id == 0


def test_single_click_opens_and_closes_double_click_reroots() -> None:
    ttt = games.get_game("tictactoe")
    model = model_for(ttt.initial_state(), algorithm="alphabeta", depth=3)
    assert model.trace is not None and len(model.trace.nodes) > 80
    model.go_to(model.last_step)
    target = item_of(model, "1")
    opened = target.node in model.expanded
    assert model.click(target, 10.0) == "toggle"
    assert (target.node in model.expanded) != opened
    assert model.click(item_of(model, "1"), 11.0) == "toggle"
    assert (target.node in model.expanded) == opened
    # A "…" stub: one click opens its node, even where the depth limit folds it.
    found = model.current_layout()
    assert found is not None
    stub = next(i for i in found.items if i.stub == MORE)
    assert model.click(stub, 20.0) == "toggle"
    children = model.node(stub.node).children
    assert any(placed_inside(model.current_layout(), c) for c in children)  # type: ignore[arg-type]
    # Two clicks within DOUBLE_CLICK: the node becomes the root.
    item = item_of(model, "1")
    model.click(item, 30.0)
    assert model.click(item_of(model, "1"), 30.0 + DOUBLE_CLICK / 2) == "reroot"
    assert model.root_id == item.node
    assert model.current_layout().items[0].node == item.node  # type: ignore[union-attr]
    assert model.unroot() and model.root_id == 0


def test_nodes_are_named_by_their_path() -> None:
    game = games.get_game("connect4")
    found = trace(game.replay(game.parse_moves("44")), "alphabeta", 3)
    deep = next(n for n in found.nodes if n.ply == 3)
    labels = [n.label for n in found.path(deep.id)[1:]]
    assert node_name(found, deep) == "·".join(labels) and len(labels) == 3
    sentences = [explain(found, i) for i, e in enumerate(found.events) if e.node == deep.id]
    assert all(node_name(found, deep) in s for s in sentences)
    # The textbook trees keep their own names: B1 is already a path.
    book = trace(tree_examples.TreeGame(tree_examples.LESSON_TREE).initial_state(), "alphabeta", 2)
    assert node_name(book, book.nodes[2]) == "B1"


# ---------------------------------------------------------------- 2. pruned subtrees
def test_pruned_leaves_show_greyed_with_their_values_after_the_cut() -> None:
    model = lesson(0)
    assert model.show_pruned and model.trace is not None
    found = model.current_layout()
    assert found is not None
    pruned = {
        model.node(i.node).label: model.node(i.node).value for i in found.items if i.stub == PRUNED
    }
    assert pruned == {"C2": 7, "C3": 14}
    assert not any(i.stub == CUT for i in found.items)
    c2 = model.node(item_of(model, "C2", PRUNED).node)
    cut_step = model.cut_steps[model.pruned.cut_of(c2.id)]
    model.go_to(cut_step - 1)
    assert not model.visible(c2)
    model.go_to(cut_step)
    assert model.visible(c2)
    assert NEVER_LOOKED == "alpha-beta never looked at these"
    model.show_pruned = False
    assert any(i.stub == CUT for i in model.current_layout().items)  # type: ignore[union-attr]


def test_a_game_position_shows_the_skipped_moves_without_values() -> None:
    game = games.get_game("tictactoe")
    model = model_for(game.replay(game.parse_moves("15")), algorithm="alphabeta", depth=2)
    model.show_pruned = True
    assert model.pruned.nodes and not model.pruned.valued
    assert all(g.value is None and not g.children for g in model.pruned.nodes)
    skipped = {name for n in model.trace.nodes for name in n.skipped}  # type: ignore[union-attr]
    assert {g.label for g in model.pruned.nodes} <= skipped


# ---------------------------------------------------------------- 3. the tree editor
TEXTBOOK = {
    "(3,12,8)(2,4,6)(14,5,2)": (tree_examples.AIMA_FIG_5_2, "alphabeta", 3, 7),
    "(3,5,9)(1,7,14)(8,11,2)": (tree_examples.LESSON_TREE, "alphabeta", 3, 7),
    tree_text.format_tree(tree_examples.WORST_ORDER_TREE): (
        tree_examples.WORST_ORDER_TREE,
        "alphabeta",
        3,
        9,
    ),
    tree_text.format_tree(tree_examples.BEST_ORDER_TREE): (
        tree_examples.BEST_ORDER_TREE,
        "alphabeta",
        3,
        5,
    ),
    "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]": (
        tree_examples.DICE_SMALL,
        "expectiminimax",
        2.1,
        8,
    ),
    "[0.9:(20,20) 0.1:(30,30)] [0.9:(1,1) 0.1:(400,400)]": (
        tree_examples.DICE_STRETCHED,
        "expectiminimax",
        40.9,
        8,
    ),
}


@pytest.mark.parametrize("text", list(TEXTBOOK))
def test_textbook_trees_typed_into_the_editor(text: str) -> None:
    book, algorithm, value, leaves = TEXTBOOK[text]
    model = lesson(EDITOR)
    assert model.load_editor_text(text)
    assert model.state.game.tree == book or tree_examples.value_of(model.state.game.tree) == value
    assert model.algorithm == algorithm
    model.adopt(model.record())
    assert model.trace is not None
    assert model.trace.value == pytest.approx(value)
    assert model.trace.totals()[1] == leaves
    lesson_trace = trace(tree_examples.TreeGame(book).initial_state(), algorithm, model.depth)
    assert [n.value for n in model.trace.nodes] == [n.value for n in lesson_trace.nodes]
    assert _walk(model) > 10


def test_the_editor_builds_branching_depth_and_chance() -> None:
    model = lesson(EDITOR)
    model.set_generator("branching", "2 moves")
    model.set_generator("levels", "Depth 3")
    model.set_generator("chance", "Chance 0.9 / 0.1")
    assert model.load_editor_text(model.random_editor_text())
    tree = model.state.game.tree
    assert tree[0] == "max" and len(tree[1]) == 2 and tree[1][0][1][0] == "chance"
    assert [p for _, p, _ in tree[1][0][1][1]] == [0.9, 0.1]
    assert model.algorithms() == ("expectiminimax", "mcts") and model.depth == 3
    model.adopt(model.record())
    assert model.trace is not None
    assert model.trace.value == pytest.approx(tree_examples.value_of(tree))
    model.algorithm = "minimax"
    assert model.load_editor_text("(1,2)(3,4)") and model.algorithms() != ("expectiminimax",)
    model.set_generator("branching", "4 moves")
    model.set_generator("levels", "Depth 4")
    model.set_generator("chance", "Chance 1/3 each")
    kept = model.state
    assert not model.load_random_tree() and model.state is kept
    assert model.editor_error.startswith("4 moves, depth 4 and chance make 6,912 leaves")
    model.set_generator("chance", "No chance")
    assert model.load_random_tree() and model.editor_error == ""


def test_bad_tree_text_is_one_line_and_keeps_the_tree() -> None:
    model = lesson(EDITOR)
    before = model.state
    assert not model.load_editor_text("(3,5,9)(1,x)")
    assert model.editor_error == (
        "tree text, character 11: expected a number, '(' or '[', found 'x'"
    )
    assert model.state is before and model.editor_text == tree_text.EXAMPLE
    for bad, words in (
        ("(3,5", "expected ')'"),
        ("[0.5:(1) 0.4:(2)]", "sum to 0.9, not 1"),
        ("(1))", "')' closes nothing"),
        ("", "empty"),
    ):
        with pytest.raises(tree_text.TreeTextError, match=r"^[^\n]*$") as caught:
            tree_text.parse_tree(bad)
        assert words in str(caught.value)


def test_trace_tree_in_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["trace", "--tree", "(3,5,9)(1,7,14)(8,11,2)"]) == 0
    out = capsys.readouterr().out
    assert "✂ 2 moves skipped (C2, C3)" in out and "value 3; 11 nodes, 7 leaves" in out
    assert "(terminal)" not in out
    assert run(["trace", "--tree", "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]"]) == 0
    assert "value 2.1" in capsys.readouterr().out
    assert run(["trace", "--tree", "(3,5,9)(1,x)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "character 11" in err


# ---------------------------------------------------------------- 4. practice clicks
def test_practice_takes_branches_and_nodes_alike() -> None:
    model = lesson(PRACTICE)
    assert model.guessing and "its line, its move label or the node" in PROMPT
    found = model.current_layout()
    assert found is not None
    child = next(i for i in found.items if i.level == 2 and not i.stub)
    parent = found.items[child.parent]  # type: ignore[index]
    # A point on the edge, where the move label is drawn: it marks the branch.
    on_edge = (parent.x + (child.x - parent.x) * 0.68, parent.y + (child.y - parent.y) * 0.68)
    assert found.hit(on_edge, 10) is None
    by_edge = found.edge_hit(on_edge, 9)
    assert by_edge is not None and by_edge.node == child.node
    assert model.click(by_edge, 1.0) == "mark"
    assert model.practice.marks == {child.node}
    assert model.click(child, 5.0) == "mark"  # the node itself: the same branch, unmarked
    assert model.practice.marks == set()
    model.click(child, 9.0)
    verdict = model.check_practice()
    label = model.node(child.node).label
    assert f"Branches you marked: {label} (a branch counts once" in verdict


# ---------------------------------------------------------------- 5. bounds as bounds
def test_bounds_are_written_and_explained_as_bounds() -> None:
    model = lesson(0)
    found = model.trace
    assert found is not None
    by_label = {n.label: n for n in found.nodes}
    c, d = by_label["C"], by_label["D"]
    assert bound_text(found, c).startswith("≤ 1: MIN stopped looking once it found 1")
    assert bound_text(found, d).startswith("≤ 2: that is no better for MAX than α = 3")
    assert "Every child of D was searched, so here it is in fact exactly 2" in bound_text(found, d)
    assert bound_text(found, by_label["B"]) == ""
    # A node still being searched shows its best so far as the bound it is.
    b = by_label["B"]
    first_backup = next(
        i for i, e in enumerate(found.events) if e.kind == "backup" and e.node == b.id
    )
    assert so_far_text(found, b, b.value_at(first_backup)) == "≤ 3 so far"  # type: ignore[arg-type]
    assert so_far_text(found, found.root, 3) == "≥ 3 so far"
    sentences = [explain(found, i) for i in range(len(found.events))]
    assert "Leaf B2 is worth 5 for MAX." in sentences
    assert not any("end of the game" in s for s in sentences)
    assert any(s.startswith("D is done, ≤ 2:") for s in sentences)


def test_lesson_headers_name_what_they_show() -> None:
    from plyground.gui.explorer.panel import search_summary

    worst = lesson(1)
    assert worst.trace is not None
    assert search_summary(worst, worst.trace).endswith("worst order")
    assert "worst move first" in tree_examples.LESSONS[1].text_for(False)
    best = lesson(1, variant=True)
    assert best.trace is not None
    assert search_summary(best, best.trace).endswith("best order")
    assert "best move first" in tree_examples.LESSONS[1].text_for(True)
    assert "game order" not in search_summary(lesson(0), lesson(0).trace)  # type: ignore[arg-type]


def test_the_hover_card_names_the_node_and_explains_its_bound() -> None:
    from plyground.gui.explorer.hover_card import _hover_lines

    model = lesson(0)
    d_lines, _ = _hover_lines(model, item_of(model, "D"))
    assert d_lines[0] == "▼ D: MIN" and d_lines[1] == "value ≤ 2"
    assert d_lines[2].startswith("≤ 2: that is no better for MAX than α = 3")
    c2_lines, _ = _hover_lines(model, item_of(model, "C2", PRUNED))
    assert NEVER_LOOKED in c2_lines[0]
    assert c2_lines[1] == (
        "C was already worth ≤ 1, no better for MAX than α = 3: nothing below it could "
        "change MAX's choice."
    )
    assert c2_lines[2] == "Its value, 7, is shown for the picture only."
    model.show_pruned = False
    cut_lines, _ = _hover_lines(model, item_of(model, "C", CUT))
    assert cut_lines == ["Cut: 2 moves skipped (C2, C3): value ≤ 1 already worse than α 3"]
    game = games.get_game("connect4")
    deep = model_for(game.replay(game.parse_moves("44")), algorithm="alphabeta", depth=2)
    found = deep.current_layout()
    assert found is not None
    item = next(i for i in found.items if i.level == 2 and not i.stub)
    lines, _ = _hover_lines(deep, item)
    path = "·".join(n.label for n in deep.trace.path(item.node)[1:])  # type: ignore[union-attr]
    assert lines[0].split(":")[0].endswith(path) and "·" in path


def test_a_double_click_reroots_even_when_the_first_click_moved_the_tree() -> None:
    model = lesson(0)
    c = item_of(model, "B")
    spot = (c.x, c.y)
    assert model.click(c, 1.0, spot) == "toggle" and c.node not in model.expanded
    moved = model.current_layout().index_of(c.node)  # type: ignore[union-attr]
    assert moved is not None and model.current_layout().items[moved].x != spot[0]  # type: ignore[union-attr]
    assert model.click(None, 1.2, spot) == "reroot"
    assert model.root_id == c.node and c.node in model.expanded
    assert model.click(None, 5.0, spot) == ""  # a lone click on nothing does nothing
