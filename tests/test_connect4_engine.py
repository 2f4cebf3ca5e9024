"""Connect-four's compiled solver (games/connect4/compiled_solver.py) against the pure-Python one.

Both must give the scores of Pascal Pons' sets and the same values on random positions;
the compiled one must count Pons' nodes where its table makes no difference, and Expert
on it must keep the exact result of the positions that the Python Expert gave away.
The JIT compiles once per process (and once per machine with the disk cache).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import games
from plyground.ai.bench import searches as bench
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.exact_solving import EngineSearch, make_alphabeta, python_only
from plyground.ai.engine.search import DepthLimited, heuristic_for
from plyground.ai.evaluation.values import INF_UNITS
from plyground.ai.players.players import AIPlayer
from plyground.ai.players.presets import DIFFICULTIES
from plyground.games.base import DISTANCE_WIN, PURE_PYTHON_VARIABLE
from plyground.games.connect4 import solver as connect4_solver
from plyground.games.connect4.rules import EMPTY, GAME, State, pons_score

DATA = Path(games.__file__).resolve().parent / "connect4" / "data"


def compiled_or_skip() -> None:
    if connect4_solver.compiled() is None:
        pytest.skip(f"no compiled solver: {connect4_solver.status()}")


def position(moves: str) -> State:
    state: State = GAME.replay(GAME.parse_moves(moves))
    return state


def sample(name: str, count: int, seed: int = 0) -> list[tuple[str, int]]:
    lines = bench.read_solver_file(DATA / f"Test_{name}.txt")
    return random.Random(seed).sample(lines, count)


def solved_units(state: State) -> int:
    """The exact value in units, on whichever solver the environment gives."""
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    searcher = make_alphabeta(state, ctx)
    return searcher.solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), [("L3_R1", 12), ("L2_R1", 8), ("L2_R2", 2)])
def test_both_solvers_give_pons_scores(name: str, count: int, solver: str) -> None:
    for moves, score in sample(name, count):
        found, _, _ = bench.solve_position(position(moves), "score", engine=solver)
        assert found == score, moves


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), [("L2_R2", 25), ("L1_R1", 25), ("L2_R1", 100)])
def test_both_solvers_give_pons_scores_on_more_of_each_set(
    name: str, count: int, solver: str
) -> None:
    for moves, score in sample(name, count, seed=1):
        for mode in bench.SOLVER_MODES:
            found, _, _ = bench.solve_position(position(moves), mode, engine=solver)
            assert found == score, (moves, mode)


@pytest.mark.slow
def test_the_compiled_solver_gives_every_score_of_the_quick_sets() -> None:
    compiled_or_skip()
    for name in ("L3_R1", "L2_R1", "L2_R2", "L1_R1"):
        for moves, score in bench.read_solver_file(DATA / f"Test_{name}.txt"):
            solver = connect4_solver.exact_engine()
            assert solver is not None
            assert solver.solve_score(position(moves))[0] == score, (name, moves)


@st.composite
def late_positions(draw: st.DrawFn) -> State:
    """An unfinished position with 22 to 36 stones, from random legal moves."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    stones = draw(st.integers(22, 36))
    while True:
        state = EMPTY
        while state.ply < stones and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(late_positions())
def test_compiled_and_python_values_agree_on_random_positions(state: State) -> None:
    compiled_or_skip()
    compiled = solved_units(state)
    with python_only():
        assert solved_units(state) == compiled


PONS_NODES = {  # Pons' C++ solver (g++ -O3) on the first lines of Test_L2_R1, no book
    "5554224333234511764415115": 168,
    "52753311433677442422121": 44,
    "271713432331713132": 8,
    "6672375354252731116762237724": 337,
}


@pytest.mark.parametrize(("moves", "nodes"), PONS_NODES.items())
def test_the_compiled_solver_counts_pons_nodes(moves: str, nodes: int) -> None:
    compiled_or_skip()
    solver = connect4_solver.exact_engine()
    assert solver is not None
    assert solver.solve_score(position(moves))[1] == nodes


def test_scores_and_distance_values_are_one_scale() -> None:
    """The engine's scores become the search's values as the game's own pons_score reads
    them: a result `plies` plies away after `moves` stones."""
    for moves in range(0, 42):
        for plies in range(1, 43 - moves):
            for outcome in (1, -1):
                if (plies % 2 == 1) != (outcome > 0):
                    continue  # the mover wins on its own moves, loses on the opponent's
                score = pons_score(outcome, plies, moves)
                value = connect4_solver.distance_value(score, moves)
                assert value == outcome * (DISTANCE_WIN - plies), (moves, plies, outcome)
    assert connect4_solver.score_window(12, -1, 1) == (-1, 1)


def test_the_switch_runs_everything_on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    state = position("4453")
    assert state.exact_engine() is None
    assert state.exact_engine_status().startswith("pure Python")
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    assert not isinstance(make_alphabeta(state, ctx), EngineSearch)


def expert_keeps(moves: str) -> tuple[bool, bool]:
    """(whether Expert's move keeps the exact value, whether its result claims exactness)."""
    state = position(moves)
    player = AIPlayer(DIFFICULTIES["connect4"]["Expert"], GAME)
    move = player.choose(state)
    value = solved_units(state)
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    probe = make_alphabeta(state, ctx).child_value(state, move, UNLIMITED_DEPTH, value - 1, value)
    result = player.last_result
    assert result is not None
    return probe >= value, result.exact


@pytest.mark.slow
@pytest.mark.usefixtures("real_book")
def test_expert_finds_the_one_winning_column_of_the_issue() -> None:
    """444446666222: only column 2 wins.  The proof stops at its node limit before it is
    done; the move played is the likeliest not proven worse, and the result says so."""
    compiled_or_skip()
    kept, exact = expert_keeps("444446666222")
    assert kept and not exact


def twelve_to_sixteen(count: int, seed: int) -> list[str]:
    """Positions of 12-16 stones from Pons' sets (L1: 12-14 stones, L2: 15-16)."""
    found = [
        moves
        for name in ("L1_R1", "L1_R2", "L1_R3", "L2_R1", "L2_R2")
        for moves, _ in bench.read_solver_file(DATA / f"Test_{name}.txt")
        if 12 <= len(moves) <= 16
    ]
    return random.Random(seed).sample(found, count)


@pytest.mark.usefixtures("real_book")
@pytest.mark.parametrize("moves", twelve_to_sixteen(2, seed=0))
def test_expert_keeps_the_exact_result(moves: str) -> None:
    compiled_or_skip()
    kept, _ = expert_keeps(moves)
    assert kept, moves


@pytest.mark.slow
@pytest.mark.usefixtures("real_book")
@pytest.mark.parametrize("moves", twelve_to_sixteen(16, seed=1))
def test_expert_keeps_the_exact_result_on_more_positions(moves: str) -> None:
    compiled_or_skip()
    kept, _ = expert_keeps(moves)
    assert kept, moves


def test_a_hurried_expert_on_the_compiled_solver_plays_at_once() -> None:
    """The engine's move budget is nodes: a tiny time budget changes nothing at 13 stones."""
    compiled_or_skip()
    state = position("4444443333332")
    config = dataclasses.replace(DIFFICULTIES["connect4"]["Expert"], time_limit=0.001)
    player = AIPlayer(config, GAME)
    player.choose(state)
    assert player.last_result is not None and player.last_result.exact


def test_a_read_only_install_caches_the_compiled_code_in_the_users_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where the package's folder cannot be written (a system-wide install), numba is told
    to cache under the user's cache folder; a NUMBA_CACHE_DIR already set is left alone."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(connect4_solver.os, "access", lambda path, mode: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    connect4_solver._cache_directory()
    assert connect4_solver.os.environ["NUMBA_CACHE_DIR"].startswith(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/elsewhere")
    connect4_solver._cache_directory()
    assert connect4_solver.os.environ["NUMBA_CACHE_DIR"] == "/elsewhere"


def test_the_compiled_code_is_cached_in_the_users_cache_even_where_the_package_is_writable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Nothing is written into the installed package at run time: a writable site-packages
    (a virtual environment) caches under the user's cache folder too."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(connect4_solver.os, "access", lambda path, mode: True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    connect4_solver._cache_directory()
    cache = Path(connect4_solver.os.environ["NUMBA_CACHE_DIR"])
    assert cache.is_relative_to(tmp_path) and cache.parts[-1] == "numba"


def test_without_numba_the_game_solves_in_python_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A platform where numba cannot be imported: no engine, a status that says why, and the
    search still solves (on the pure-Python alpha-beta)."""
    import sys

    from plyground import ai

    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    monkeypatch.setattr(connect4_solver, "_status", connect4_solver._status)  # restored after
    monkeypatch.setattr(connect4_solver, "_engine", None)
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    state = position("2252576253462244111563365343671351441")
    assert state.exact_engine() is None
    assert connect4_solver.status().startswith("pure Python (numba unavailable: ")
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited(depth=None)))
    assert result.exact and result.details.exact_engine is None


def test_a_late_middle_game_is_cheap_to_solve_on_the_compiled_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From 20 stones on the hint and the analysis solve (every Pons position of L2_R1 and
    L2_R2 with 20 or more stones: 0.42 s at worst with every move's value, docs/SOLVER.md);
    on the Python solver they do not."""
    compiled_or_skip()
    late = position("37313333717124171162542")
    assert late.ply >= 20 and late.solve_is_cheap()
    assert not position("444446666222" + "3").solve_is_cheap()
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert not late.solve_is_cheap()


def test_experts_description_says_which_solver_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The set-up screen's Expert text: perfect play with the compiled solver; without it
    (no numba, or PLYGROUND_PURE_PYTHON) what the pure-Python solver promises instead."""
    from plyground.games.connect4 import rules

    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    pure = rules._expert_description()
    assert pure == rules.EXPERT_PURE_PYTHON and "pure-Python" in pure and "12 stones" in pure
    monkeypatch.delenv(PURE_PYTHON_VARIABLE)
    if connect4_solver.may_compile():
        assert rules._expert_description() == rules.EXPERT_COMPILED
        assert "Plays perfectly" in rules.EXPERT_COMPILED and "numba" in rules.EXPERT_COMPILED


@pytest.mark.slow
def test_the_table_is_kept_between_searches_and_emptied_at_once() -> None:
    """The game's hook hands every search the table the last one left (a second solve of a
    position costs a node); `exact_engine()` empties it by a new generation, so Pons' counts
    come back, also when the generation stamps run out and start again."""
    compiled_or_skip()
    moves, nodes = next(iter(PONS_NODES.items()))
    state = position(moves)
    solver = connect4_solver.exact_engine()
    assert solver is not None
    assert solver.solve_score(state)[1] == nodes
    kept = state.exact_engine()
    assert kept is solver
    assert kept.solve_score(state)[1] < nodes
    engine = connect4_solver.compiled()
    for _ in range(engine.GENERATIONS + 1):
        cleared = connect4_solver.exact_engine()
        assert cleared is not None
        assert cleared.solve_score(state) == (pons_score_of(moves), nodes)


def pons_score_of(moves: str) -> int:
    return dict(bench.read_solver_file(DATA / "Test_L2_R1.txt"))[moves]


def test_only_the_game_in_play_warms_its_engine_in_the_background(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The AI worker warms the engine of the game it just answered for, once, in a thread;
    a game without the hook (tic-tac-toe) loads nothing."""
    from plyground.ai.engine import exact_solving

    monkeypatch.delenv(exact_solving.WARM_UP_SWITCH, raising=False)
    monkeypatch.setattr(exact_solving, "_warming", set())
    assert exact_solving.warm_up_in_background(games.get_game("tictactoe")) is None
    calls: list[str] = []

    class Warmed:
        name = "warmed"

        @staticmethod
        def warm_up() -> float:
            calls.append("warm")
            return 0.0

    thread = exact_solving.warm_up_in_background(Warmed())
    assert thread is not None and thread.daemon
    thread.join(timeout=10)
    assert calls == ["warm"]
    assert exact_solving.warm_up_in_background(Warmed()) is None  # once a process
    monkeypatch.setattr(exact_solving, "_warming", set())
    monkeypatch.setenv(exact_solving.WARM_UP_SWITCH, "1")
    assert exact_solving.warm_up_in_background(Warmed()) is None


class _Clock:
    """A clock that moves only when told (the engine's start-up moves it)."""

    now = 1000.0

    def perf_counter(self) -> float:
        return self.now


def test_the_engines_start_up_is_not_the_searchs_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading the compiled solver (its module, its code, its table's pages) happens before
    the search's clock counts: a solve reports it apart, and its time and speed are its own."""
    compiled_or_skip()
    from plyground.ai.engine import bookkeeping
    from plyground.ai.engine import search as search_module

    clock = _Clock()
    monkeypatch.setattr(bookkeeping, "time", clock)
    monkeypatch.setattr(search_module, "time", clock)

    def slow_ready(self: object) -> float:
        clock.now += 10.0
        return 10.0

    monkeypatch.setattr(connect4_solver.CompiledSolver, "ready", slow_ready)
    result = search_module.search(
        position("4453"), search_module.SearchConfig(DepthLimited("alphabeta", None))
    )
    assert result.details.exact_engine == "compiled"
    assert result.details.engine_start_up == 10.0
    assert result.elapsed == 0.0


def test_the_warm_up_position_is_the_rules_position() -> None:
    """The engine warms up on raw bitboards (the solver does not import the rules); they
    are the rules' position of the same moves."""
    words = connect4_solver._Words(connect4_solver.WARM_UP_MOVES)
    state = position(connect4_solver.WARM_UP_MOVES)
    assert (words.current, words.mask) == (state.current, state.mask)
    assert not state.is_terminal()
