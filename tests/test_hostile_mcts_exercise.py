"""The MCTS exercise attacked by a student who reads Plyground's code: whatever the file does
to the tree the grader reads, the moves it names or the worker it runs in, it costs that case
only, and no answer is doctored into a pass (docs/STUDENT-CODE.md, issue 44's rule)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from plyground.ai.student_code import sandbox
from plyground.ai.student_code.exercise_game import Case, function_of
from plyground.ai.student_code.grader import Outcome, cases, grade_one
from plyground.ai.student_code.worker import Limits, StudentWorker
from tests.exercise_solutions import MCTS

RIGHT = MCTS.replace(
    "def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
    "def _right(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
    1,
)
"""The right solution under another name: each attack below wraps or replaces it."""

TEXTBOOK, TICTACTOE = "textbook tree", "Tic-tac-toe 5"
"""The cases the attacks are graded on (a textbook tree's moves are letters)."""


def _case(title: str) -> Case:
    return next(case for case in cases("mcts") if case.title == title)


def _graded(tmp_path: Path, text: str, title: str = TEXTBOOK, seconds: float = 5.0) -> Outcome:
    """One case graded as `grade` grades it, in a fresh worker."""
    path = tmp_path / "my_mcts.py"
    path.write_text(text, encoding="utf-8")
    host = {"kind": "mcts_exercise", "path": str(path), "function": function_of("mcts")}
    worker = StudentWorker(str(path), host, Limits(seconds))
    try:
        return grade_one(worker, _case(title))
    finally:
        worker.close()


def _attack(body: str) -> str:
    return RIGHT + "\n\ndef monte_carlo_tree_search(game, state, iterations, rng, c=1.4):\n" + body


# --------------------------------------------------------------------------- moves and nodes


@pytest.mark.parametrize(
    ("returned", "line"),
    [
        # None named a move the grader then tried to write in the game's notation
        ("None", "monte_carlo_tree_search() chose None, not a legal move at the root"),
        ("True", "it sent True, a truth value where the game's moves have none"),
        ("4", "monte_carlo_tree_search() chose 4, not a legal move at the root"),  # taken
        (
            "10**30",
            "monte_carlo_tree_search() chose 1000000000000000000000000000000, not a "
            "legal move at the root",
        ),
    ],
)
def test_a_chosen_move_that_is_not_legal_at_the_root_is_told_so(
    tmp_path: Path, returned: str, line: str
) -> None:
    """Before, None ended as "its answer could not be graded (TypeError)" and an illegal move
    was judged as a choice with "N 0"; True was read as the move 1."""
    text = _attack(
        f"    move, tree = _right(game, state, iterations, rng, c)\n    return {returned}, tree\n"
    )
    outcome = _graded(tmp_path, text, TICTACTOE)
    assert not outcome.passed and outcome.line == line


def test_a_root_child_whose_move_is_not_legal_is_told_so(tmp_path: Path) -> None:
    text = _attack(
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    tree.children[0].move = None\n"
        "    return move, tree\n"
    )
    outcome = _graded(tmp_path, text, TICTACTOE)
    assert outcome.line == "its root has a child for None, not a legal move there"


DUPLICATE = _attack(
    """    move, tree = _right(game, state, iterations, rng, c)
    for child in tree.children:
        for grandchild in list(child.children):
            if game.is_terminal(grandchild.state):  # N 0 breaks no count at a finished game
                child.children.insert(0, Node(grandchild.state, child, grandchild.move))
                return move, tree
    return move, tree
"""
)


def test_a_tree_holding_one_move_twice_does_not_pass(tmp_path: Path) -> None:
    """A second node for one move, N 0 at a finished game, kept every invariant and hid
    behind the real one: the tree of 14 nodes passed as the reference's 13."""
    outcome = _graded(tmp_path, DUPLICATE)
    assert not outcome.passed
    assert (
        outcome.line
        == "its tree has node B1 twice (EXPAND adds a child for each untried move once)"
    )


# --------------------------------------------------------------------------- the line held

HELD = {
    # the reference, by every route into it: refused, or its files not there to read
    "import": (
        "    m = __import__('plyground.ai.textbook.mcts', fromlist=['x'])\n"
        "    return m.monte_carlo_tree_search(game, state, iterations, rng, c)\n",
        "raised ImportError: plyground.ai.textbook is Plyground's reference search: write your own",
    ),
    "pickle": (
        "    import pickle\n"
        "    m = pickle.loads(b'cplyground.ai.textbook.mcts\\nmonte_carlo_tree_search\\n.')\n"
        "    return m(game, state, iterations, rng, c)\n",
        "raised ImportError: plyground.ai.textbook is Plyground's reference search: write your own",
    ),
    # a node whose N claims to be an int and exits the worker when read
    "lying class": (
        "    class Liar:\n"
        "        __class__ = property(lambda self: int)\n"
        "        def __float__(self):\n"
        "            raise SystemExit(0)\n"
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    tree.children[0].N = Liar()\n"
        "    return move, tree\n",
        "called sys.exit(0)",
    ),
    # N read twice answers twice differently: each field is read once, the grader checks it
    "second read": (
        "    class Two(Node):\n"
        "        def __getattribute__(self, name):\n"
        "            d = object.__getattribute__(self, '__dict__')\n"
        "            if name == 'N':\n"
        "                d['k'] = d.get('k', 0) + 1\n"
        "                return d['N'] + (d['k'] % 2) * 1000\n"
        "            return object.__getattribute__(self, name)\n"
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    tree.__class__ = Two\n"
        "    return move, tree\n",
        "its tree's counts changed while they were read (the root's, after the last "
        "iteration, then in the whole tree): a node's fields are plain values",
    ),
    # a float that equals everything: it crosses as its value
    "float equal to all": (
        "    class F(float):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        __hash__ = float.__hash__\n"
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    for child in tree.children:\n"
        "        child.U = F(0.0)\n"
        "    return move, tree\n",
        "iteration 30: the counts part: B has N 15, U 0; the reference's N 15, U 11",
    ),
    # the watch patched in the worker: it reports what the grader checks, not a pass
    "patched watch": (
        "    import sys\n"
        "    w = sys.modules['plyground.ai.student_code.mcts_watch']\n"
        "    w.root_counts = lambda top: [30.0, [['B', 30.0, 30.0]]]\n"
        "    w.tree_rows = lambda top, limit: [\n"
        "        [-1, None, 30.0, 0.0, False], [0, 'B', 30.0, 30.0, False]\n"
        "    ]\n"
        "    return _right(game, state, iterations, rng, c)\n",
        "the counts break the invariants: after iteration 1 the root has N = 30 (every playout "
        "is counted at the root once: N = 1)",
    ),
    # lines forged on the protocol's own pipe, then an exit
    "forged lines": (
        "    import gc, os\n"
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == '_Channel':\n"
        "            o.send({'ok': {'move': 'B', 'rounds': [], 'tree': []}, 'n': 1})\n"
        "            o.send({'supervisor': {'pid': 0}})\n"
        "    os._exit(0)\n",
        "its tree's counts did not come back as one list an iteration",
    ),
    # a thread answering for the search while it runs: the first line is the answer
    "answers from a thread": (
        "    import gc, threading\n"
        "    channel = [o for o in gc.get_objects() if type(o).__name__ == '_Channel'][0]\n"
        "    def later():\n"
        "        for _ in range(1000):\n"
        "            channel.send({'ok': {'move': 'B'}, 'n': 1})\n"
        "    threading.Thread(target=later, daemon=True).start()\n"
        "    return _right(game, state, iterations, rng, c)\n",
        "monte_carlo_tree_search() did not return (move, root node)",
    ),
    "nan": (
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    tree.children[0].U = float('nan')\n"
        "    return move, tree\n",
        "U returned nan, not a finite number",
    ),
    "deep move": (
        "    move, tree = _right(game, state, iterations, rng, c)\n"
        "    m = []\n"
        "    for _ in range(200_000):\n"
        "        m = [m]\n"
        "    tree.children[0].children[0].move = m\n"
        "    return move, tree\n",
        "recursed too deeply (RecursionError)",
    ),
}


@pytest.mark.parametrize("kind", list(HELD))
def test_an_attack_on_what_the_grader_reads_fails_its_case_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")  # what macOS and Windows get
    body, line = HELD[kind]
    outcome = _graded(tmp_path, _attack(body))
    assert not outcome.passed and outcome.line == line


READS_THE_GRADER = """
import math

def select(game, node, c):
    return node

def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):
    import os
    import plyground

    folder = os.path.join(plyground.__path__[0], "ai", "student_code")
    read = []
    for name in ("mcts_grader.py", "grader.py"):
        for path in (os.path.join(folder, name), os.path.realpath(os.path.join(folder, name))):
            try:
                with open(path, "rb") as file:
                    read.append(len(file.read()))
            except OSError:
                pass
    raise RuntimeError(f"read {read}")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock and bubblewrap")
@pytest.mark.parametrize("mode", ["off", "required"])
def test_the_mcts_graders_file_is_hidden_like_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """mcts_grader.py was refused to imports but there to read, in both modes."""
    from plyground.ai.student_code.confinement import landlock_version

    if mode == "required" and not sandbox.bubblewrap_works():
        pytest.skip("bubblewrap cannot run here")
    if mode == "off" and not landlock_version():
        pytest.skip("this kernel has no Landlock: the reference's files are readable")
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    outcome = _graded(tmp_path, READS_THE_GRADER)
    assert outcome.line == "raised RuntimeError: read []"


def test_every_module_refused_to_imports_is_hidden_on_disk() -> None:
    """One list: what the worker refuses to import is what the sandbox hides."""
    import importlib.util

    from plyground.ai.student_code import child

    hidden = sandbox.reference_paths()
    for name in child.REFERENCE:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin
        source = Path(spec.origin).resolve()  # a link is hidden by what it points to
        assert source in hidden or any(folder in source.parents for folder in hidden), name


def test_true_is_never_taken_for_the_move_1() -> None:
    """A move is the game's own: equal plain data names it (1.0 for 1, a list for a tuple),
    a truth value never does, in result() as in an answer."""
    from plyground.ai.student_code.messages import MessageError, bounded_move

    moves = [0, 1, (2, 1)]
    assert bounded_move(1.0, moves) is moves[1]
    assert bounded_move([2, 1], moves) is moves[2]
    assert bounded_move(7, moves) == 7  # not the game's: the game refuses it
    for data in (True, [2, True]):
        with pytest.raises(MessageError, match="a truth value where the game's moves have none"):
            bounded_move(data, moves)


def test_a_search_that_stops_its_own_group_is_continued_and_graded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGSTOP to its own process group costs nobody a timeout: the supervisor continues
    it, and the search's counts are graded as any other's."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    text = _attack(
        "    import os, signal\n"
        "    os.kill(0, signal.SIGSTOP)\n"
        "    return _right(game, state, iterations, rng, c)\n"
    )
    outcome = _graded(tmp_path, text)
    assert outcome.passed, outcome.line
