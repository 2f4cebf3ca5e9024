"""Games from files: the three styles read by name, the protocol they get, and every failure
of a game's own code as one line naming the file, the method and the position.

The example files live in tests/game_files (written without importing aima-python or easyAI:
the styles are duck-typed); tests/test_frameworks.py runs the frameworks' own games.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from plyground import ai, games
from plyground.games import from_file
from plyground.games.from_file import GameCodeError, GameFileError, check, guard
from plyground.games.from_file.guard import GameFileWarning

FILES = Path(__file__).resolve().parent / "game_files"
TAKE_AWAY = str(FILES / "take_away.py")
AIMA_NIM = str(FILES / "aima_nim.py")
BONES = str(FILES / "easy_bones.py")
CONNECT3 = str(FILES / "grid_connect3.py")
BONES_TEXT = (FILES / "easy_bones.py").read_text(encoding="utf-8")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ the three styles


@pytest.mark.parametrize(
    ("spec", "style", "sides", "heuristic"),
    [
        (TAKE_AWAY, "Plyground's game protocol", ("Left", "Right"), "evaluate"),
        (AIMA_NIM, "aima-python's Game", ("MAX", "MIN"), "utility"),
        (BONES, "easyAI's TwoPlayerGame", ("Player 1", "Player 2"), "scoring"),
        (CONNECT3, "Plyground's game protocol", ("Red", "Yellow"), "evaluate"),
    ],
)
def test_each_style_is_read_by_what_its_class_defines(
    spec: str, style: str, sides: tuple[str, str], heuristic: str
) -> None:
    game = games.get_game(spec)
    assert game.style_class.title == style
    assert game.side_names == sides
    assert game.default_heuristic == heuristic
    assert set(game.heuristics) == {heuristic, "none"}
    assert games.is_from_file(game.name) and game.name.endswith(f":{type(game.obj).__name__}")
    assert not games.missing_members(type(game))
    assert [preset.name for preset in game.presets] == ["Easy", "Medium", "Hard", "Expert"]
    # a ladder: each deeper, or (a game with no evaluation: MCTS) each on more iterations
    budgets = [getattr(p.search, "depth", None) or getattr(p.search, "iterations", None)
               for p in game.presets[:3]]  # fmt: skip
    assert all(budgets) and budgets == sorted(budgets) and len(set(budgets)) == 3


def test_a_spec_names_the_same_game_with_or_without_its_class() -> None:
    assert games.resolve(TAKE_AWAY) == games.resolve(f"{TAKE_AWAY}:TakeAway")
    assert games.resolve(TAKE_AWAY) == f"{Path(TAKE_AWAY).resolve()}:TakeAway"


def test_take_away_is_solved_as_the_rule_of_four_says() -> None:
    """Take 1-3 stones, the last stone wins: a multiple of four loses for the side to move."""
    for stones in range(1, 13):
        game = games.get_game(TAKE_AWAY, stones=stones)
        result = ai.search(
            game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", None))
        )
        assert (result.value > 0) == (stones % 4 != 0), stones
        if stones % 4:
            assert result.move == stones % 4


def test_options_are_the_class_keywords_as_literals() -> None:
    game = games.get_game(AIMA_NIM, piles=(1, 2))
    assert game.option_values() == {"piles": (1, 2)}
    assert game.render(game.initial_state()) == "1 2"
    same = games.get_game(AIMA_NIM, piles=[1, 2])  # from JSON: lists become tuples
    assert same.option_values() == {"piles": (1, 2)}
    with pytest.raises(ValueError, match=r"takes no option heaps \(its options: piles\)"):
        games.get_game(AIMA_NIM, heaps=3)


def test_moves_read_and_written_as_words() -> None:
    game = games.get_game(AIMA_NIM)
    moves = game.parse_moves("(2,3) (1,1)")
    assert moves == [(2, 3), (1, 1)]
    assert game.format_moves(moves) == "(2,3) (1,1)"
    with pytest.raises(games.IllegalMoveError, match="move 2"):
        game.parse_moves("(2,3) (7,7)")


def test_states_are_values_equal_by_position_and_never_changed() -> None:
    game = games.get_game(BONES)
    start = game.initial_state()
    one = start.play("1").play("2")
    other = start.play("2").play("1")
    assert one == other and hash(one) == hash(other)
    assert start.inner.pile == 20  # easyAI's game object was copied, never changed
    assert one.ply == 2 and one.to_move == 0


def test_the_grid_game_gives_cells_and_moves_for_clicks() -> None:
    game = games.get_game(CONNECT3)
    state = game.replay(game.parse_moves("2 2 1"))
    grid = state.grid()
    assert grid[-1][:3] == ["", "R", "R"] and grid[-2][2] == "Y"
    assert game.grid_move(state, 0, 4) == 4


def test_a_state_travels_to_another_process_as_its_moves() -> None:
    import pickle

    game = games.get_game(AIMA_NIM, piles=(2, 2))
    state = game.replay(game.parse_moves("(0,1)"))
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.history() == [(0, 1)]


def test_a_students_agent_plays_a_file_game_in_its_sandbox(tmp_path: Path) -> None:
    from plyground.ai.players.match import MatchSetup, play_match

    agent = write(tmp_path, "first.py", "def choose(state):\n    return state.legal_moves()[0]\n")
    name = games.resolve(BONES)
    records = list(play_match(MatchSetup(name, (), (agent, "random"), seed=1), 2))
    assert len(records) == 2
    assert not any(record.forfeit or record.void for record in records)


# ------------------------------------------------------------------ bad files


def test_a_file_that_does_not_load_is_one_line(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.py", "class Game:\n    def actions(self\n")
    with pytest.raises(GameFileError, match=r"broken\.py: line 2"):
        games.resolve(broken)
    raising = write(tmp_path, "raising.py", "raise RuntimeError('no board here')\n")
    with pytest.raises(GameFileError, match=r"raising\.py: importing it failed: RuntimeError"):
        games.resolve(raising)
    exits = write(tmp_path, "exits.py", "import sys\nsys.exit(3)\n")
    with pytest.raises(GameFileError, match="SystemExit"):
        games.resolve(exits)
    nothing = write(tmp_path, "nothing.py", "X = 1\n")
    with pytest.raises(GameFileError, match="defines no game class"):
        games.resolve(nothing)
    with pytest.raises(GameFileError, match="no such game file"):
        games.resolve(str(tmp_path / "absent.py"))
    two = write(
        tmp_path,
        "two.py",
        (FILES / "aima_nim.py").read_text()
        + "\nclass Other(Nim):\n    pass\n\nclass Third(Nim):\n    pass\n",
    )
    with pytest.raises(GameFileError, match=r"defines 2 games \(Other, Third\): name one"):
        games.resolve(two)


EASY = """
class Sticks:
    def __init__(self, players=None):
        self.players = players
        self.pile = 6
        self.current_player = 1

    def possible_moves(self):
        {moves}

    def make_move(self, move):
        {make}

    def is_over(self):
        return self.pile <= 0
"""


@pytest.mark.parametrize(
    ("moves", "make", "method", "problem"),
    [
        ("return ['1', '2']", "raise ValueError('no')", "make_move()", "ValueError: no"),
        ("return []", "self.pile -= int(move)", "possible_moves()", "returned no moves"),
        ("return list(range(1_000_000))", "self.pile = 0", "possible_moves()", "1,000,000 moves"),
        ("return 7", "self.pile -= 1", "possible_moves()", "returned int, not a list"),
        (
            "return self.possible_moves()",
            "self.pile -= 1",
            "possible_moves()",
            "recursed too deeply",
        ),
        (  # a seat that is neither of easyAI's: no turn can pass from it
            "return ['1', '2']",
            "self.pile -= int(move); self.current_player = 3",
            "make_move()",
            "current_player is 3, not 1 or 2",
        ),
    ],
)
def test_a_method_that_fails_names_the_file_method_and_position(
    tmp_path: Path, moves: str, make: str, method: str, problem: str
) -> None:
    path = write(tmp_path, "sticks.py", EASY.format(moves=moves, make=make))
    with pytest.raises(GameCodeError) as caught:
        games.resolve(path)
    message = str(caught.value)
    assert message.startswith("sticks.py:Sticks: ") and "\n" not in message
    assert method in message and problem in message


def test_the_position_is_named_by_its_moves(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "late.py",
        EASY.format(
            moves="return ['1', '2'] if self.pile > 3 else 0", make="self.pile -= int(move)"
        ),
    )
    with pytest.raises(GameCodeError, match=r"possible_moves\(\) failed after moves (1|2) "):
        games.resolve(path)


def test_a_result_that_changes_its_argument_is_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "mutating.py",
        """
class Mutating:
    initial = [0]
    def actions(self, state): return [1, 2]
    def result(self, state, move):
        state.append(move)
        return list(state)
    def terminal_test(self, state): return len(state) > 3
    def utility(self, state, player): return 1
    def to_move(self, state): return "A" if len(state) % 2 else "B"
""",
    )
    with pytest.raises(GameCodeError, match="changed the position it was given"):
        games.resolve(path)


def test_an_unhashable_state_is_searched_by_a_frozen_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "dicts.py",
        """
class Dicts:
    initial = {"left": 6, "to_move": "A"}
    def actions(self, state): return [n for n in (1, 2) if n <= state["left"]]
    def result(self, state, move):
        return {"left": state["left"] - move, "to_move": "B" if state["to_move"] == "A" else "A"}
    def terminal_test(self, state): return state["left"] == 0
    def utility(self, state, player):
        if state["left"]: return 0
        return -1 if state["to_move"] == player else 1
    def to_move(self, state): return state["to_move"]
""",
    )
    game = games.get_game(path)
    result = ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert result.value < 0  # six left, take 1 or 2: a multiple of three loses for the mover


def test_a_method_that_loops_fails_after_the_watch_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "CALL_SECONDS", 0.5)
    guard.watch()
    path = write(tmp_path, "loops.py", EASY.format(moves="while True: pass", make="pass"))
    with pytest.raises(GameCodeError, match=r"took longer than 0\.5 s"):
        games.resolve(path)


def test_the_terminal_says_one_line_for_a_failing_game(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "late.py",
        EASY.format(
            moves="return ['1', '2'] if self.pile > 3 else 0", make="self.pile -= int(move)"
        ),
    )
    run = subprocess.run(
        [sys.executable, "-m", "plyground", "analyze", "--game", path],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "late.py:Sticks: possible_moves()" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_check_reports_a_game_or_its_error() -> None:
    from plyground.games.from_file.check import check

    assert check(AIMA_NIM)["title"] == "Nim"
    assert "no such game file" in check("/no/such/game.py")["error"]


def test_is_spec_tells_files_and_modules_from_built_in_names() -> None:
    assert from_file.is_spec("nim.py") and from_file.is_spec("easyAI.games:Nim")
    assert not from_file.is_spec("connect4")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        games.resolve("chess")


# ------------------------------------------------------------------ chance, starters


def test_a_chance_game_in_two_styles_has_the_same_values() -> None:
    """The dice race written to Plyground's protocol and in aima's StochasticGame style."""
    ours = games.get_game(str(FILES / "dice_race.py"))
    aima = games.get_game(str(FILES / "aima_dice_race.py"))
    assert ours.stochastic and aima.stochastic
    # ours has an evaluate: expectiminimax at every level; aima's utility is blind at a
    # cut-off: Monte Carlo tree search at every level
    assert {p.search.algorithm for p in ours.presets} == {"expectiminimax"}
    assert {p.search.algorithm for p in aima.presets} == {"mcts"}
    first = ai.search(
        ours.initial_state(), ai.SearchConfig(ai.DepthLimited("expectiminimax", 4, "none"))
    )
    second = ai.search(
        aima.initial_state(), ai.SearchConfig(ai.DepthLimited("expectiminimax", 4, "none"))
    )
    assert {m: float(v) for m, v in first.move_values.items()} == pytest.approx(
        {m: float(v) for m, v in second.move_values.items()}
    )
    rolling = ours.initial_state().play(2)
    assert rolling.to_move == games.CHANCE
    assert sum(p for _, p in rolling.chance_outcomes()) == pytest.approx(1)
    assert dict(rolling.chance_outcomes())[0] == pytest.approx(5 / 9)  # a 1 among two dice


@pytest.mark.parametrize("style", ["protocol", "aima", "easyai"])
def test_new_game_writes_a_starter_that_plays(tmp_path: Path, style: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "plyground", "new-game", "my game", "--style", style],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    path = tmp_path / "my_game.py"
    assert f"Wrote {path.name}: a Nim to turn into My Game (a class MyGame" in run.stdout
    assert "It plays Nim as it is (heaps of stones;" in run.stdout
    assert "plyground match --game my_game.py" in run.stdout
    game = games.get_game(str(path))
    assert game.title == "My Game (a Nim for now)"
    assert "For now this is Nim, not My Game: heaps of stones" in path.read_text(encoding="utf-8")
    result = ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert result.value > 0.9  # heaps 3, 4, 5: the first player wins (nim-sum 2)
    again = subprocess.run(
        [sys.executable, "-m", "plyground", "new-game", "my_game"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert again.returncode == 2 and "exists already" in again.stderr


def test_bench_measures_a_game_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.cli import run

    assert run(["bench", "--quick", "--quiet", "--game", AIMA_NIM, "--option", "piles=(1,2)"]) == 0
    out = capsys.readouterr().out
    assert "aima_nim.py:Nim: the start" in out
    assert out.count("aima_nim.py:Nim  ") == 4  # a game per derived level


# ------------------------------------------------------------------ quirks, exits, options


def test_a_move_listed_twice_is_searched_once_and_said_once(tmp_path: Path) -> None:
    path = write(
        tmp_path, "twice.py", EASY.format(moves="return ['1', '2', '1']", make="self.pile -= 1")
    )
    with pytest.warns(
        GameFileWarning,
        match=r"twice\.py:Sticks: possible_moves\(\) returned the same move twice \(first at "
        r"the start\); each move is searched once",
    ):
        game = games.get_game(path)
    state = game.initial_state()
    assert state.legal_moves() == ("1", "2")
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 2)))
    assert set(result.move_values) == {"1", "2"} and result.nodes == 7


def test_a_failing_display_is_drawn_plainly_with_its_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "blind.py",
        BONES_TEXT.replace(
            "    def show(self):\n", "    def show(self):\n        raise KeyError('no picture')\n"
        ),
    )
    game = games.get_game(path)
    text = game.render(game.initial_state().play("2"))
    assert text.splitlines() == [
        "pile = 18",
        "current_player = 2",
        "(show() failed: KeyError: 'no picture'; drawn plainly instead)",
    ]
    assert check.check(path)["title"] == "Game Of Bones"


@pytest.mark.parametrize("exits", ["sys.exit()", "exit(3)", "raise SystemExit"])
def test_sys_exit_in_a_games_method_is_its_failure(tmp_path: Path, exits: str) -> None:
    path = write(
        tmp_path,
        "quits.py",
        "import sys\n" + EASY.format(moves="return ['1', '2']", make=f"{exits}"),
    )
    with pytest.raises(GameCodeError) as caught:
        games.resolve(path)
    assert re.fullmatch(
        r"quits\.py:Sticks: make_move\(\) failed at the start, making move [12] \(moves chosen "
        r"at random by Plyground's load-time check\): it asked Python to exit \(sys\.exit\(\) "
        r"or exit\(\): SystemExit( 3)?\)",
        str(caught.value),
    ), str(caught.value)


def test_sys_exit_later_in_a_command_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from plyground.cli import run

    path = write(
        tmp_path,
        "late_exit.py",
        """
import sys

class Stones:
    def __init__(self, players=None):
        self.players = players
        self.pile = 5
        self.current_player = 1

    def possible_moves(self):
        return ["1", "2"]

    def make_move(self, move):
        self.pile -= int(move)

    def is_over(self):
        return self.pile <= 0

    def scoring(self):
        sys.exit(0)
""",
    )
    assert run(["hint", "--game", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert "late_exit.py:Stones: scoring() failed " in captured.err
    assert "it asked Python to exit (sys.exit() or exit(): SystemExit 0)" in captured.err


def test_the_terminal_checks_a_game_file_in_a_process_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.cli import run

    monkeypatch.setattr(check, "CHECK_SECONDS", 3.0)
    hangs = write(tmp_path, "hangs.py", "while True:\n    pass\n")
    dies = write(tmp_path, "dies.py", "import os\nos._exit(3)\n")
    for path, said in (
        (hangs, "took longer than 3 s to load"),
        (dies, "ended Python (exit status 3)"),
    ):
        for command in (["hint"], ["analyze"], ["match", "--p1", "random", "--p2", "random"]):
            assert run([*command, "--game", path]) == 2
            captured = capsys.readouterr()
            assert captured.err.count("\n") == 1 and said in captured.err, captured.err
            assert captured.err.startswith(f"plyground: {Path(path).name}: ")
        assert path not in games.GAMES


OPTIONED = """
class Heaps:
    def __init__(self, players=None, size=None):
        self.players = players
        self.pile = size
        self.current_player = 1

    def possible_moves(self):
        return [str(n) for n in (1, 2) if n <= self.pile]

    def make_move(self, move):
        self.pile -= int(move)

    def is_over(self):
        return self.pile <= 0
"""


def test_options_reach_the_load_time_check_and_its_message_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, "heaps.py", OPTIONED)
    with pytest.raises(GameCodeError) as caught:
        games.resolve(path)  # no size by default
    assert str(caught.value) == (
        "heaps.py:Heaps: is_over() failed at the start (in Plyground's load-time check): "
        "TypeError: '<=' not supported between instances of 'NoneType' and "
        "'int'"
    )
    name = games.resolve(path, {"size": 4})
    assert games.GAMES[name].loaded_options == {"size": 4}  # type: ignore[attr-defined]
    assert games.get_game(name, size=4).initial_state().legal_moves() == ("1", "2")
    with pytest.raises(
        GameFileError, match=r"heaps\.py:Heaps: takes no option width \(its options: size\)"
    ):
        games.resolve(path, {"width": 3})


def test_options_reach_a_spawned_worker_and_a_save(tmp_path: Path) -> None:
    from plyground.ai.players.match import MatchSetup, play_match
    from plyground.games.spawned import registered_games

    path = write(tmp_path, "heaps2.py", OPTIONED)
    name = games.resolve(path, {"size": 5})
    assert ("<file>", repr((name, {"size": 5}))) in registered_games()
    setup = MatchSetup(name, (("size", 5),), ("random", "random"), seed=0)
    records = list(play_match(setup, 2, jobs=2))  # each worker loads it again, with size 5
    assert [record.void for record in records] == ["", ""]
    assert all(record.moves for record in records)
    save = tmp_path / "heaps.json"
    save.write_text(
        json.dumps(
            {
                "format": "plyground-save",
                "version": 1,
                "game": name,
                "options": {"size": 5},
                "moves": "2 2",
            }
        ),
        encoding="utf-8",
    )
    run_ = subprocess.run(
        [sys.executable, "-m", "plyground", "analyze", "--load", str(save), "--depth", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run_.returncode == 0, run_.stderr


def test_a_starter_named_nim_is_a_nim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.cli import run

    path = tmp_path / "my_nim.py"
    assert run(["new-game", str(path), "--style", "aima"]) == 0
    assert capsys.readouterr().out.startswith(f"Wrote {path}: My Nim (a class MyNim written for")
    assert games.get_game(str(path)).title == "My Nim"
    assert "The game is Nim: heaps of stones" in path.read_text(encoding="utf-8")


SIDES = """
from dataclasses import dataclass

@dataclass(frozen=True)
class S:
    n: int = 3
    to_move: object = 0

    def legal_moves(self):
        return (1,)

    def play(self, move):
        return S(self.n - 1, {later!r})

    def is_terminal(self):
        return self.n == 0

    def utility(self, player):
        return 1 if player != self.to_move else -1


class Sides:
    def initial_state(self):
        return S()
"""


@pytest.mark.parametrize(
    ("later", "said"),
    [
        (2, "to_move is 2, not 0 or 1"),
        ("X", "to_move is 'X', not 0 or 1"),
        (0.5, "to_move is 0.5, not 0 or 1"),
    ],
)
def test_a_side_that_is_neither_player_is_said_so(tmp_path: Path, later: object, said: str) -> None:
    path = write(tmp_path, "sides.py", SIDES.format(later=later))
    with pytest.raises(
        GameCodeError,
        match=re.escape(
            "sides.py:Sides: to_move failed after moves 1 (moves chosen at random by "
            f"Plyground's load-time check): {said}"
        ),
    ):
        games.resolve(path)


def test_a_third_player_in_aima_style_is_said_so(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "three.py",
        """
class Three:
    initial = (3, "A")
    def actions(self, s): return [1]
    def result(self, s, m): return (s[0] - 1, {"A": "B", "B": "C", "C": "A"}[s[1]])
    def terminal_test(self, s): return s[0] == 0
    def utility(self, s, p): return 1 if p == "A" else -1
    def to_move(self, s): return s[1]
""",
    )
    with pytest.raises(
        GameCodeError,
        match=re.escape(
            "to_move() failed after moves 1 1 (moves chosen at random by Plyground's load-time "
            "check): gave 'C', a third player besides 'A' and 'B'"
        ),
    ):
        games.resolve(path)


def test_an_evaluation_that_fails_is_named_as_the_method_it_is(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "judged.py",
        (FILES / "take_away.py")
        .read_text(encoding="utf-8")
        .replace(
            "    def evaluate(self, state):\n",
            "    def evaluate(self, state):\n        raise ValueError('no idea')\n",
        ),
    )
    # the load-time check times the evaluation too, so it meets the failure first
    with pytest.raises(
        GameCodeError,
        match=r"judged\.py:TakeAway: evaluate\(\) failed after moves [\d ]+ \(moves chosen at "
        r"random by Plyground's load-time check\): ValueError: no idea",
    ):
        game = games.get_game(path)
        ai.search(
            game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 2, "evaluate"))
        )


def test_a_save_whose_game_file_hangs_is_checked_apart_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.cli import run

    monkeypatch.setattr(check, "CHECK_SECONDS", 3.0)
    hangs = write(tmp_path, "hangs_later.py", "while True:\n    pass\n")
    save = tmp_path / "saved.json"
    save.write_text(
        json.dumps({"format": "plyground-save", "version": 1, "game": hangs, "moves": ""}),
        encoding="utf-8",
    )
    assert run(["analyze", "--load", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "its game cannot be loaded: hangs_later.py: it took " in err


# ------------------------------------------------------------------ a file inside a package

PACKAGED_RULES = "START = 5\n"
PACKAGED_GAME = '''
from .rules import START
import rules  # a file beside it, imported as a file on its own would import it


class Countdown:
    """Take 1 or 2; who takes the last wins."""

    def initial_state(self):
        return Left(START, 0)


class Left:
    def __init__(self, pile, to_move):
        self.pile, self.to_move = pile, to_move

    def __eq__(self, other):
        return (self.pile, self.to_move) == (other.pile, other.to_move)

    def __hash__(self):
        return hash((self.pile, self.to_move))

    def legal_moves(self):
        return tuple(take for take in (1, 2) if take <= self.pile)

    def play(self, take):
        return Left(self.pile - take, 1 - self.to_move)

    def is_terminal(self):
        return self.pile == 0

    def utility(self, player):
        return 1 if player != self.to_move else -1
'''


def packaged(tmp_path: Path, name: str = "classgames") -> Path:
    """A package of two files, `name`/countdown.py importing `name`/rules.py relatively."""
    folder = tmp_path / "course" / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "rules.py").write_text(PACKAGED_RULES, encoding="utf-8")
    (folder / "countdown.py").write_text(PACKAGED_GAME, encoding="utf-8")
    return folder / "countdown.py"


def test_a_file_inside_a_package_loads_as_part_of_its_package(tmp_path: Path) -> None:
    """Its relative imports work (as the package's own modules import each other), and a
    sandboxed worker is given the whole package to read."""
    from plyground.games.from_file.loading import package_module
    from plyground.games.spawned import game_files

    path = packaged(tmp_path)
    assert package_module(path) == (tmp_path / "course", "classgames.countdown")
    assert package_module(FILES / "take_away.py") is None  # tests/game_files is no package
    game = games.get_game(f"{path}:Countdown")
    assert game.initial_state().inner.pile == 5
    result = ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert result.value > 0  # 5 is no multiple of 3: the first side wins
    assert str(tmp_path / "course" / "classgames") in game_files()


def test_a_package_name_taken_by_another_module_is_one_line(tmp_path: Path) -> None:
    path = packaged(tmp_path, name="json")  # the standard library's json is imported already
    with pytest.raises(GameFileError) as error:
        games.resolve(str(path))
    assert "json.countdown" in str(error.value) and "rename its folder json" in str(error.value)
    assert "\n" not in str(error.value)


def test_the_terminal_opens_a_file_inside_a_package(tmp_path: Path) -> None:
    path = packaged(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "plyground", "hint", "--game", f"{path}:Countdown"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Hint for ")


@pytest.mark.parametrize("name", ["", ".", "/"])
def test_new_game_without_a_file_name_says_so(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from plyground.cli import run

    monkeypatch.chdir(tmp_path)
    assert run(["new-game", name]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "names no file" in said and "internal error" not in said
    assert not list(tmp_path.iterdir())
