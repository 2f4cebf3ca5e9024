"""Games from files: the three styles read by name, the protocol they get, and every failure
of a game's own code as one line naming the file, the method and the position.

The example files live in tests/game_files (written without importing aima-python or easyAI:
the styles are duck-typed); tests/test_frameworks.py runs the frameworks' own games.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from plyground import ai, games
from plyground.games import from_file
from plyground.games.from_file import GameCodeError, GameFileError, guard

FILES = Path(__file__).resolve().parent / "game_files"
TAKE_AWAY = str(FILES / "take_away.py")
AIMA_NIM = str(FILES / "aima_nim.py")
BONES = str(FILES / "easy_bones.py")
CONNECT3 = str(FILES / "grid_connect3.py")


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
    depths = [preset.depth for preset in game.presets[:3]]
    assert depths == sorted(depths) and len(set(depths)) == 3  # a ladder: each deeper


def test_a_spec_names_the_same_game_with_or_without_its_class() -> None:
    assert games.resolve(TAKE_AWAY) == games.resolve(f"{TAKE_AWAY}:TakeAway")
    assert games.resolve(TAKE_AWAY) == f"{Path(TAKE_AWAY).resolve()}:TakeAway"


def test_take_away_is_solved_as_the_rule_of_four_says() -> None:
    """Take 1-3 stones, the last stone wins: a multiple of four loses for the side to move."""
    for stones in range(1, 13):
        game = games.get_game(TAKE_AWAY, stones=stones)
        result = ai.search(game.initial_state(), ai.SearchConfig("alphabeta", None))
        assert (result.value > 0) == (stones % 4 != 0), stones
        if stones % 4:
            assert result.move == stones % 4


def test_options_are_the_class_keywords_as_literals() -> None:
    game = games.get_game(AIMA_NIM, piles=(1, 2))
    assert game.option_values() == {"piles": (1, 2)}
    assert game.render(game.initial_state()) == "1 2"
    same = games.get_game(AIMA_NIM, piles=[1, 2])  # from JSON: lists become tuples
    assert same.option_values() == {"piles": (1, 2)}
    with pytest.raises(ValueError, match="does not take"):
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
        ("return ['1', '1']", "self.pile -= int(move)", "possible_moves()", "the same move twice"),
        ("return list(range(1_000_000))", "self.pile = 0", "possible_moves()", "1,000,000 moves"),
        ("return 7", "self.pile -= 1", "possible_moves()", "returned int, not a list"),
        (
            "return self.possible_moves()",
            "self.pile -= 1",
            "possible_moves()",
            "recursed too deeply",
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
    result = ai.search(game.initial_state(), ai.SearchConfig("alphabeta", None))
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
    for game in (ours, aima):  # depth levels by expectiminimax
        assert {p.algorithm for p in game.presets[:-1]} == {"expectiminimax"}
    assert ours.presets[-1].algorithm == "expectiminimax"  # it has an evaluate
    assert aima.presets[-1].algorithm == "mcts"  # aima's utility is blind at a cut-off
    first = ai.search(ours.initial_state(), ai.SearchConfig("expectiminimax", 4, heuristic="none"))
    second = ai.search(aima.initial_state(), ai.SearchConfig("expectiminimax", 4, heuristic="none"))
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
    assert f"Wrote {path.name}" in run.stdout and "plyground match --game my_game.py" in run.stdout
    game = games.get_game(str(path))
    assert game.title == "My Game"
    result = ai.search(game.initial_state(), ai.SearchConfig("alphabeta", None))
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
