"""Monte Carlo tree search's speed: iterations a second on every game's opening position, and,
side by side in the same run, OpenSpiel's ``MCTSBot`` with random rollouts on each game that
names its OpenSpiel twin (`games.base.OpenSpielTwin`), choosing moves whose exact values are
compared.  OpenSpiel is imported here only and is no dependency: without it those rows are
skipped (`openspiel_available`).  aima-python's ``mcts.py`` (the ``aima3`` package) is
AlphaZero's PUCT, which asks a policy-value function for every new leaf: given uniform priors
and one random rollout as the value (`_aima`) it runs, and is timed on one of its own games
(`AIMA_GAME`) beside Plyground's search of the same game from the file (`aima_row`).
"""

from __future__ import annotations

import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from plyground import games
from plyground.ai.engine.search import DepthLimited, MonteCarlo, SearchConfig, search
from plyground.ai.evaluation.wording import value_text
from plyground.games.base import Game, State, capabilities

ITERATIONS = 4_000
QUICK_ITERATIONS = 1_000
SOLVE_SECONDS = 10.0
RUNS = 3
"""Runs per search; the median time is reported (each run its own seed)."""
EXPLORATION = 1.0
"""Our UCB1 constant here, on results scored 0 to 1; OpenSpiel scores -1 to 1, so its
``uct_c`` is twice this (2, its default): the same exploration, the same algorithm."""


def openspiel_available() -> bool:
    """Whether OpenSpiel (``pyspiel``) is installed here."""
    return importlib.util.find_spec("pyspiel") is not None


def _ours(state: State[Any], iterations: int, seed: int) -> tuple[float, Any]:
    """Seconds and move of one Monte Carlo tree search with random playouts."""
    config = SearchConfig(MonteCarlo(iterations, EXPLORATION, "random"), seed=seed)
    start = time.perf_counter()
    result = search(state, config)
    return time.perf_counter() - start, result.move


def _openspiel(name: str, iterations: int, seed: int) -> tuple[float, Any]:
    """Seconds and action of OpenSpiel's MCTSBot (one random rollout per simulation) from the
    initial state of its game `name`."""
    np: Any = importlib.import_module("numpy")  # OpenSpiel's own dependency
    pyspiel: Any = importlib.import_module("pyspiel")
    mcts: Any = importlib.import_module("open_spiel.python.algorithms.mcts")

    game = pyspiel.load_game(name)
    rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(
        game, 2 * EXPLORATION, iterations, rollouts, random_state=np.random.RandomState(seed)
    )
    start = time.perf_counter()
    action = bot.step(game.new_initial_state())
    return time.perf_counter() - start, action


AIMA_GAME = "aima3.games:ConnectFour"
"""The aima-python game both MCTS run on, named as a game from a module (docs/YOUR-GAME.md)."""
AIMA_C_PUCT = 5.0
"""aima-python's own default ``c_puct`` (its PUCT bonus is c P sqrt(N) / (1 + n))."""


def aima_available() -> bool:
    """Whether aima-python (the ``aima3`` package) is installed here."""
    return importlib.util.find_spec("aima3") is not None


def _aima(iterations: int, seed: int) -> tuple[float, Any]:
    """Seconds and move of aima-python's ``MCTS`` from `AIMA_GAME`'s opening, `iterations`
    playouts, each new leaf valued by one random rollout under uniform priors (the policy-value
    function its PUCT asks for, without a network: the closest it comes to plain UCT)."""
    module, _, name = AIMA_GAME.partition(":")
    aima_mcts: Any = importlib.import_module("aima3.mcts")
    game = getattr(importlib.import_module(module), name)()
    rng = random.Random(seed)

    def uniform_and_rollout(aima: Any, position: Any) -> tuple[list[tuple[Any, float]], float]:
        moves = aima.actions(position)
        mover = aima.to_move(position)
        end = position
        while not aima.terminal_test(end):
            end = aima.result(end, rng.choice(aima.actions(end)))
        return [(move, 1 / len(moves)) for move in moves], aima.utility(end, mover)

    searcher = aima_mcts.MCTS(game, uniform_and_rollout, c_puct=AIMA_C_PUCT, n_playout=iterations)
    start = time.perf_counter()
    moves, shares = searcher.get_move_probs(game.initial)
    seconds = time.perf_counter() - start
    return seconds, max(zip(shares, moves, strict=True))[1]


def aima_row(iterations: int, log: Callable[[str], None]) -> dict[str, Any]:
    """aima-python's MCTS (`_aima`) and Plyground's on the same game, `AIMA_GAME` loaded as a
    game from a file, from its opening, with the same number of playouts."""
    game = games.get_game(AIMA_GAME)
    log(f"MCTS: {AIMA_GAME}, {iterations:,} iterations x {RUNS}")
    seconds, moves = _median(partial(_ours, game.initial_state(), iterations))
    log(f"aima-python MCTS: {AIMA_GAME}, {iterations:,} playouts x {RUNS}")
    theirs, columns = _median(partial(_aima, iterations))
    return {
        "game": AIMA_GAME,
        "title": AIMA_GAME,
        "iterations": iterations,
        "seconds": seconds,
        "per_second": iterations / seconds,
        "moves": [game.format_move(move) for move in moves],
        "aima": {
            "seconds": theirs,
            "per_second": iterations / theirs,
            "moves": [f"({x},{y})" for x, y in columns],
            "speed_ratio": theirs / seconds,
        },
    }


def _median(run: Callable[[int], tuple[float, Any]]) -> tuple[float, list[Any]]:
    """The median seconds of `RUNS` runs (seeds 0, 1, ...) and every run's move."""
    found = [run(seed) for seed in range(RUNS)]
    return statistics.median(seconds for seconds, _ in found), [move for _, move in found]


def _exact_values(game: Game[Any], state: State[Any]) -> dict[Any, str] | None:
    """Every move's exact value where the engine solves the position within `SOLVE_SECONDS`
    (an opening book, a small game), in words; None where it does not."""
    if game.stochastic:
        return None
    result = search(state, SearchConfig(DepthLimited("alphabeta", None), time_limit=SOLVE_SECONDS))
    if not result.exact:
        return None
    return {move: value_text(ev, False) for move, ev in result.move_values.items()}


def mcts_bench(quick: bool, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """One row per game: our iterations a second from its opening position, and OpenSpiel's
    simulations a second beside them where the game has an OpenSpiel twin and it is here."""
    iterations = QUICK_ITERATIONS if quick else ITERATIONS
    rows = []
    for name in games.builtin_names():
        game = games.get_game(name)
        state = game.initial_state()
        log(f"MCTS: {game.title}, {iterations:,} iterations x {RUNS}")
        seconds, moves = _median(partial(_ours, state, iterations))
        row: dict[str, Any] = {
            "game": name,
            "title": game.title,
            "iterations": iterations,
            "seconds": seconds,
            "per_second": iterations / seconds,
            "moves": [game.format_move(move) for move in moves],
            "openspiel": None,
        }
        twin = capabilities(game).openspiel_name
        if twin is not None and openspiel_available():
            log(f"OpenSpiel MCTSBot: {twin}, {iterations:,} simulations x {RUNS}")
            theirs, actions = _median(partial(_openspiel, twin, iterations))
            exact = _exact_values(game, state)
            row["openspiel"] = {
                "name": twin,
                "seconds": theirs,
                "per_second": iterations / theirs,
                "moves": [game.format_move(action) for action in actions],
                "speed_ratio": theirs / seconds,
            }
            if exact is not None:
                row["exact"] = {game.format_move(m): text for m, text in exact.items()}
        rows.append(row)
    if aima_available():
        rows.append(aima_row(iterations, log))
    return rows


def format_mcts_bench(rows: list[dict[str, Any]]) -> list[str]:
    """The rows as text lines: a table, then each side-by-side row's moves and their values."""
    lines = [
        f"Monte Carlo tree search from each game's opening position: random playouts, "
        f"c {EXPLORATION:g} (OpenSpiel's uct_c {2 * EXPLORATION:g} on its -1..1 results), "
        f"the median of {RUNS} seeded runs"
        + ("" if openspiel_available() else "; OpenSpiel is not installed, its rows skipped")
        + ("" if aima_available() else "; aima-python is not installed, its row skipped"),
        "",
        f"{'game':<16}{'iterations/s':>14}{'OpenSpiel sims/s':>18}{'ratio':>8}",
    ]
    for row in rows:
        if "aima" in row:
            continue
        theirs = row["openspiel"]
        other = "-" if theirs is None else f"{theirs['per_second']:,.0f}"
        ratio = "-" if theirs is None else f"{theirs['speed_ratio']:.1f}x"
        lines.append(f"{row['title']:<16}{row['per_second']:>14,.0f}{other:>18}{ratio:>8}")
    for row in rows:
        if "aima" not in row:
            continue
        theirs = row["aima"]
        lines += [
            "",
            f"aima-python's MCTS (PUCT, c_puct {AIMA_C_PUCT:g}, uniform priors, one random "
            f"rollout a leaf) on {AIMA_GAME}, Plyground's on the same game from the file:",
            f"{'game':<24}{'iterations/s':>14}{'aima playouts/s':>17}{'ratio':>8}",
            f"{row['title']:<24}{row['per_second']:>14,.0f}{theirs['per_second']:>17,.0f}"
            f"{theirs['speed_ratio']:>7.1f}x",
            f"moves chosen: Plyground {', '.join(row['moves'])}; "
            f"aima-python {', '.join(theirs['moves'])}",
        ]
    for row in rows:
        theirs = row.get("openspiel")
        if theirs is None:
            continue
        exact = row.get("exact") or {}
        ours = ", ".join(_said(move, exact) for move in row["moves"])
        other = ", ".join(_said(move, exact) for move in theirs["moves"])
        lines.append(f"{row['title']}: moves chosen: Plyground {ours}; OpenSpiel {other}")
    return lines


def _said(move: str, exact: dict[str, str]) -> str:
    """A move and, where known, its exact value: '4 (win in 41)'."""
    return f"{move} ({exact[move]})" if move in exact else move
