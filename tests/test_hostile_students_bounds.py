"""Hostile students' files against the bounds: time per move, text, nesting, one case.

Part of the adversarial suite (`tests/test_hostile_students.py` holds its fixtures): each
hostile file runs with bubblewrap (skipped, saying so, where it is missing) and with
``--sandbox off``.  A heuristic slow at every leaf loses on time, in a match, an analysis
and an exercise; a file named with an escape sequence and a right-to-left override shows
as escapes in every table and line; a move nested deeper than the game's own is refused
before it reaches the game; whatever the grader cannot do with one case's answer fails
that case alone.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from plyground.ai.engine.bookkeeping import SearchError
from plyground.ai.engine.search import DepthLimited, SearchConfig, search
from plyground.ai.student_code import exercise_game, grader, isolated_runs, sandbox
from plyground.ai.student_code.grader import cases, grade
from plyground.games import tictactoe
from tests.test_hostile_students import (
    HEADER,
    ROLES,
    check_records,
    needs_bubblewrap,
    play,
    run_command,
    run_mark,
)

assert run_mark  # the fixture: a marker for leftover processes, short time limits

MODES = ["bubblewrap", "off"]
"""Each test runs inside bubblewrap and with --sandbox off."""

ESCAPES = "\x1b[31m\u202e"
"""What a hostile file name holds: a colour escape and a right-to-left override."""


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The sandbox mode of the run (bubblewrap required, or off), in the environment."""
    if request.param == "bubblewrap":
        needs_bubblewrap()
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "required" if request.param != "off" else "off")
    return str(request.param)


def student_file(folder: Path, body: str, role: str, name: str = "hostile.py") -> Path:
    """A student's file whose `hostile()` (called as `role` calls it) runs `body`."""
    code = textwrap.indent(textwrap.dedent(body).strip(), "    ")
    path = folder / name
    path.write_text(f"{HEADER}\ndef hostile():\n{code}\n{ROLES[role]}", encoding="utf-8")
    return path


SLOW_LEAF = "time.sleep(0.4)"
"""Under the per-answer limit (1.5 s here), but 9 leaves of a move take 3.6 s."""


# --------------------------------------------------------------------------- time


@pytest.mark.slow
def test_a_heuristic_slow_at_every_leaf_loses_on_time_in_a_match(
    mode: str, run_mark: str, tmp_path: Path
) -> None:
    path = student_file(tmp_path, SLOW_LEAF, "heuristic")
    records = play(path, "heuristic")  # alpha-beta depth 1 on tic-tac-toe: 9 leaves a move
    check_records(records, "slow_leaf", 2)
    for record in records:
        assert record.forfeiter == 0 and not record.void
        assert record.forfeit == (
            "hostile.py: lost on time: its evaluate() calls took more than 1.5 s in all "
            "for one move"
        )


@pytest.mark.slow
def test_an_analysis_with_a_heuristic_slow_at_every_leaf_stops_on_time(
    mode: str, run_mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isolated_runs, "TRACE_SECONDS", 1.5)
    path = student_file(tmp_path, SLOW_LEAF, "heuristic")
    state = tictactoe.Game().initial_state()
    with pytest.raises(SearchError) as raised:
        isolated_runs.run_search(state, SearchConfig(DepthLimited("alphabeta", 1, str(path))))
    assert str(raised.value) == (
        "hostile.py: lost on time: its evaluate() calls took more than 1.5 s in all for one "
        "analysis"
    )
    with pytest.raises(SearchError) as raised:
        isolated_runs.isolated_trace(state, "minimax", 1, str(path), seconds=1.5)
    assert str(raised.value).endswith("took more than 1.5 s in all for one trace")


@pytest.mark.slow
def test_an_exercise_slow_on_every_case_fails_the_cases_its_time_leaves(
    mode: str, run_mark: str, tmp_path: Path
) -> None:
    path = student_file(tmp_path, "time.sleep(1.0)", "exercise")
    outcomes = grade("minimax", str(path), seconds=1.5, budget=2.5)
    assert len(outcomes) == len(list(cases("minimax")))
    lines = [outcome.line for outcome in outcomes]
    assert not any(outcome.passed for outcome in outcomes[2:]), lines
    assert lines[-1] == "not run: the exercise's 2.5 s are spent"
    assert all("\n" not in line for line in lines)


@pytest.mark.slow
def test_the_commands_say_a_slow_heuristic_lost_on_time(
    mode: str, run_mark: str, tmp_path: Path
) -> None:
    path = student_file(tmp_path, "time.sleep(2.0)", "heuristic")  # tic-tac-toe: 5 s a move
    spec = f"alphabeta:depth=1:heuristic={path}"
    match = run_command(
        ["match", "--game", "tictactoe", "--p1", spec, "--p2", "random", "--games", "2"],
        run_mark,
    )
    assert match.returncode == 0, match.stderr
    lost = "A forfeits: hostile.py: lost on time: its evaluate() calls took more than 5 s"
    assert match.stderr.count(lost) == 2, match.stderr


# --------------------------------------------------------------------------- text


def escaped_name_file(folder: Path, role: str) -> Path:
    """A player's file named with a colour escape and a right-to-left override (it plays,
    evaluates or searches honestly)."""
    folder.mkdir(exist_ok=True)
    return student_file(folder, "return None", role, name=f"red{ESCAPES}yp.py")


def assert_shown_as_data(text: str) -> None:
    """Nothing of the name reaches the terminal raw; its escapes are shown."""
    assert "\x1b" not in text and "\u202e" not in text
    assert "red\\x1b[31m\\u202eyp.py" in text


@pytest.mark.slow
def test_a_file_named_with_escapes_shows_as_data_in_match_and_tournament(
    mode: str, run_mark: str, tmp_path: Path
) -> None:
    agent = escaped_name_file(tmp_path, "agent")
    heuristic = student_file(tmp_path, "return None", "heuristic", name=f"e{ESCAPES}v.py")
    match = run_command(
        ["match", "--game", "tictactoe", "--p1", str(agent), "--p2", "random", "--games", "2"],
        run_mark,
    )
    assert match.returncode == 0, match.stderr
    assert_shown_as_data(match.stdout + match.stderr)
    players = f"{agent},random,alphabeta:depth=1:heuristic={heuristic}"
    tournament = run_command(
        ["tournament", "--game", "tictactoe", "--players", players, "--games", "2", "--jobs=2"],
        run_mark,
    )
    assert tournament.returncode == 0, tournament.stderr
    shown = tournament.stdout + tournament.stderr
    assert_shown_as_data(shown)
    assert "e\\x1b[31m\\u202ev.py" in shown


@pytest.mark.slow
def test_a_file_named_with_escapes_shows_as_data_in_exercise_analyze_and_trace(
    mode: str, run_mark: str, tmp_path: Path
) -> None:
    solution = escaped_name_file(tmp_path, "exercise")
    run = run_command(["exercise", "minimax", str(solution), "--seed", "3"], run_mark)
    assert run.returncode == 0, run.stderr
    assert_shown_as_data(run.stdout + run.stderr)
    heuristic = escaped_name_file(tmp_path / "heuristic", "heuristic")
    for command in ("analyze", "trace"):
        run = run_command(
            [command, "--game", "tictactoe", "--depth", "1", "--heuristic", str(heuristic)],
            run_mark,
        )
        assert run.returncode == 0, run.stderr
        assert_shown_as_data(run.stdout + run.stderr)


def test_report_tables_take_their_cells_as_text_not_markup() -> None:
    import io

    from plyground.cli.console import console_for, print_table, table

    out = io.StringIO()
    print_table(console_for(out), table(["player"], [["[bold]x[/bold].py"], ["a[/].py"]]))
    assert out.getvalue().split() == ["player", "[bold]x[/bold].py", "a[/].py"]


# --------------------------------------------------------------------------- nesting

DEEP = """
move = 0
for _ in range(985):
    move = [move]
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("game.result(s, move)", "sent a message nested more than 32 deep"),
        ("return move, 0.0", "sent a message nested more than 32 deep"),
    ],
)
def test_a_move_nested_985_deep_fails_its_case_and_the_grader_goes_on(
    where: str, line: str, mode: str, run_mark: str, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.py"
    body = textwrap.indent(textwrap.dedent(DEEP).strip() + "\n" + where, "    ")
    path.write_text(f"def minimax_decision(game, s, depth):\n{body}\n", encoding="utf-8")
    outcomes = grade("minimax", str(path), seconds=1.5)
    assert len(outcomes) == len(list(cases("minimax")))
    assert {outcome.line for outcome in outcomes} == {line}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("game.result(s, move)", "result() was given a move nested deeper"),
        ("return move, 0.0", "minimax_decision() returned a move nested deeper"),
    ],
)
def test_a_move_nested_deeper_than_the_games_is_refused_before_the_game(
    where: str, line: str, mode: str, run_mark: str, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.py"
    body = f"    move = 0\n    for _ in range(20):\n        move = [move]\n    {where}\n"
    path.write_text(f"def minimax_decision(game, s, depth):\n{body}", encoding="utf-8")
    outcomes = grade("minimax", str(path), seconds=1.5)
    for outcome in outcomes:
        assert not outcome.passed
        assert outcome.line.startswith(line), outcome.line
        assert "than any of this game's moves" in outcome.line


# --------------------------------------------------------------------------- one case


@pytest.mark.slow
def test_any_failure_of_the_grader_on_one_answer_fails_that_case_alone(
    mode: str, run_mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.exercise_solutions import MINIMAX

    path = tmp_path / "student.py"
    path.write_text(MINIMAX, encoding="utf-8")
    answer = exercise_game.StudentGame.answer
    compare = grader.compare

    def answer_failing(self: exercise_game.StudentGame, question: list[object]) -> object:
        if "AIMA" not in str(self.root.game.title):
            return answer(self, question)
        raise KeyError(question[0])  # our code failing on one case's question

    def compare_failing(case: grader.Case, *rest: object) -> tuple[bool, str]:
        if case.title == "lesson 1":
            raise IndexError("ours")  # our code failing on one case's answer
        return compare(case, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(exercise_game.StudentGame, "answer", answer_failing)
    monkeypatch.setattr(grader, "compare", compare_failing)
    outcomes = {outcome.case.title: outcome for outcome in grade("minimax", str(path))}
    assert outcomes["lesson 1"].line == "its answer could not be graded (IndexError)"
    assert outcomes["AIMA figure 5.2"].line.endswith("the grader could not answer that (KeyError)")
    others = [o for title, o in outcomes.items() if title not in ("lesson 1", "AIMA figure 5.2")]
    assert others and all(outcome.passed for outcome in others)


@pytest.mark.slow
def test_the_windows_searches_with_a_slow_heuristic_lose_on_time_too(
    mode: str, run_mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer, player_for_window
    from plyground.ai.student_code import heuristics, worker
    from plyground.ai.student_code.worker import UserCodeError

    path = student_file(tmp_path, SLOW_LEAF, "heuristic")
    game = tictactoe.Game()
    state = game.initial_state()
    player = player_for_window(
        SearchPlayer(DepthLimited("alphabeta", 1, str(path))), game
    )  # its AI's move
    try:
        with pytest.raises(UserCodeError) as raised:
            player.choose(state)
    finally:
        player.close()
    assert raised.value.line.endswith("took more than 1.5 s in all for one move")
    # A process marked for files (the window's AI worker's analyses, Compare's worker): each
    # search has its budget.
    monkeypatch.setattr(worker, "_ALLOWED", [True])
    monkeypatch.setattr(heuristics, "SEARCH_SECONDS", 1.5)
    monkeypatch.setattr(heuristics, "_KEPT", {})
    try:
        with pytest.raises(UserCodeError) as raised:
            search(state, SearchConfig(DepthLimited("alphabeta", 1, str(path))))
    finally:
        heuristics._close_workers()
    assert raised.value.line.endswith("took more than 1.5 s in all for one search")


def test_a_value_too_large_for_a_float_is_refused_as_the_students() -> None:
    from plyground.ai.student_code.worker import Refusal, check_number

    with pytest.raises(Refusal, match=r"^evaluate\(\) returned 1000.*, not a finite number$"):
        check_number(10**4000, "evaluate()")  # a forged answer line can carry one
