"""What a search will cost, estimated before it starts: nodes, seconds, and a verdict.

The size of the game tree comes from the game itself, not from a b^d formula: Knuth's
estimator walks random paths from the position and multiplies the number of choices met
along each (games end, boards fill up, chance layers are free of depth), averaged over a
fixed number of paths with a fixed seed.  Each algorithm then visits some share of that
tree, calibrated on this project's games (docs: `estimate_nodes`).  The figures are orders
of magnitude, good for "this will take a while" and "this cannot finish", never timings.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.wording import counted
from plyground.games.base import CHANCE, Game, OptionCost, State, capabilities, state_capabilities
from plyground.games.search_settings import DepthLimited

SAMPLE_PATHS = 200
"""Random paths averaged by the tree-size estimator."""
SAMPLE_SECONDS = 0.5
"""The estimator stops sampling after this much of the process's time (CPU time where its clock
is fine, as on Linux and macOS), once it has FEWEST_PATHS paths: a game whose moves take
milliseconds (easyAI's Reversi: 16 s for 200 paths of 4 moves on a busy machine) gets a
rougher estimate in time; the built-in games take a tenth of it at most (the dice game to
the end, 0.055 s), on a busy machine too."""
FEWEST_PATHS = 16
_SAMPLE_CLOCK = (
    time.process_time
    if time.get_clock_info("process_time").resolution <= 1e-6
    else time.perf_counter
)
MAX_PLIES = 400
"""A path longer than this (a dice game's turns can cycle) counts as an endless tree."""
NODES_PER_SECOND = {"minimax": 400_000, "alphabeta": 150_000, "expectiminimax": 250_000}
"""Typical speeds measured with `bench` on a busy 2-core machine (alpha-beta does more per
node: table, ordering).  A slower machine takes proportionally longer."""
WARN_SECONDS = 10.0
"""Searches estimated to take longer than this get a warning and progress reports."""
BOOK_SOLVE_NODES = 200_000.0
"""The nodes of a solve the game calls cheap (`solve_is_cheap()`): the first position of a
game with an opening book takes about 100,000 (docs/SOLVER.md)."""
REFUSE_SECONDS = 300.0
"""Without a time budget, a search estimated to take longer than this is refused."""


def tree_size(state: State[Any], depth: int | None, paths: int = SAMPLE_PATHS) -> float:
    """Estimated node count of the full tree below `state` to `depth` player decisions (None:
    to the end of the game), root included: what plain minimax would visit (from `paths`
    random paths, fewer where they take longer than SAMPLE_SECONDS)."""
    rng = random.Random(0x5EED)
    total = 0.0
    deadline = _SAMPLE_CLOCK() + SAMPLE_SECONDS
    for done in range(1, paths + 1):
        total += _one_path(state, depth, rng)
        if math.isinf(total):
            return math.inf
        if done >= FEWEST_PATHS and _SAMPLE_CLOCK() > deadline:
            return total / done
    return total / paths


def _one_path(state: State[Any], depth: int | None, rng: random.Random) -> float:
    """Knuth's estimate from one random path: the sum of the products of the branchings."""
    weight = 1.0
    estimate = 1.0
    remaining = depth
    node = state
    for _ in range(MAX_PLIES):
        if node.is_terminal() or remaining == 0:
            return estimate
        if node.to_move == CHANCE:
            outcomes = node.chance_outcomes()
            weight *= len(outcomes)
            node = node.play(rng.choice(outcomes)[0])
        else:
            moves = node.legal_moves()
            weight *= len(moves)
            node = node.play(rng.choice(moves))
            if remaining is not None:
                remaining -= 1
        estimate += weight
    return math.inf


def estimate_nodes(state: State[Any], algorithm: str, depth: int | None) -> float:
    """Roughly how many nodes `ai.search(state, algorithm, depth)` visits (inf: endless).

    minimax visits the whole tree T; expectiminimax too without chance, and about T^0.7
    with it (its table merges repeated positions, more so deeper); alpha-beta about
    2 T^0.6 at a fixed depth (the best case is 2 T^0.5) and 2 T^0.35 when solving (proven
    values end lines early).
    Calibrated on the built-in games: within a factor of about 10.
    """
    tree = tree_size(state, depth)
    if math.isinf(tree):
        return math.inf
    if algorithm == "alphabeta":
        return min(tree, 2.0 * float(tree ** (0.35 if depth is None else 0.6)))
    if algorithm == "expectiminimax" and state.STOCHASTIC:
        return float(tree**0.7)
    return tree


def estimate_seconds(state: State[Any], algorithm: str, depth: int | None) -> float:
    """`estimate_nodes` at the search's speed (`speed`)."""
    return estimate_nodes(state, algorithm, depth) / speed(state, algorithm, depth)


def speed(state: State[Any], algorithm: str, depth: int | None) -> float:
    """Nodes a second of the search: a solve on the game's exact engine at the engine's speed
    (the game's `solve_speed()` hook), else the algorithm's typical speed (NODES_PER_SECOND).
    Only speeds of searching count here, never a one-time start-up."""
    if depth is None and algorithm == "alphabeta":
        hook = state_capabilities(state).solve_speed
        engine_speed = hook(state) if hook is not None else None
        if engine_speed:
            return float(engine_speed)
    return NODES_PER_SECOND.get(algorithm, 200_000)


@dataclass(frozen=True, slots=True)
class CostVerdict:
    """Whether a search should run: "ok", "warn" (long: say so, show progress) or "refuse"."""

    level: str
    nodes: float
    seconds: float
    message: str


def judge(
    state: State[Any], algorithm: str, depth: int | None, time_limit: float | None
) -> CostVerdict:
    """The verdict on a search before it starts, with a one-line message and what to do.

    A time budget makes any search finish (iterative deepening keeps the deepest finished
    iteration), so only searches without one are refused.
    """
    rate = speed(state, algorithm, depth)
    if depth is None and algorithm == "alphabeta" and _cheap_to_solve(state):
        return CostVerdict("ok", BOOK_SOLVE_NODES, BOOK_SOLVE_NODES / rate, "")
    nodes = estimate_nodes(state, algorithm, depth)
    seconds = nodes / rate
    what = "solving this position" if depth is None else f"depth {depth}"
    size = f"about {counted(nodes, 'node', compact(nodes, words=True))}, {format_duration(seconds)}"
    if time_limit is not None or seconds <= WARN_SECONDS:
        return CostVerdict("ok", nodes, seconds, "")
    if seconds > REFUSE_SECONDS:
        deepest = deepest_within(state, algorithm, WARN_SECONDS)
        instead = f" or --depth {deepest}" if deepest else ""
        return CostVerdict(
            "refuse",
            nodes,
            seconds,
            f"{what} would take too long ({size}, estimated); give it a time budget "
            f"such as --time 10{instead}",
        )
    return CostVerdict("warn", nodes, seconds, f"{what} may take a while ({size}, estimated)")


def _cheap_to_solve(state: State[Any]) -> bool:
    """The game's `solve_is_cheap()` hook: an opening book that alpha-beta reaches within a
    few plies makes solving quick where the tree-size estimate says it is endless."""
    hook = state_capabilities(state).solve_is_cheap
    return hook is not None and bool(hook(state))


def deepest_within(
    state: State[Any], algorithm: str, seconds: float, limit: int = 64
) -> int | None:
    """The deepest fixed depth whose search is estimated to finish within `seconds`."""
    best = None
    for depth in range(1, limit + 1):
        if estimate_seconds(state, algorithm, depth) > seconds:
            break
        best = depth
        if tree_size(state, depth) == tree_size(state, depth + 1):
            break  # the whole game fits: deeper is the same search
    return best


def format_duration(seconds: float) -> str:
    """A rough duration: '3 s', '12 minutes', '5 hours', '40 years', 'for ever'."""
    if math.isinf(seconds):
        return "for ever"
    if seconds > 1000 * 31_557_600:
        return "thousands of years or more"
    for size, name in ((31_557_600, "years"), (86_400, "days"), (3_600, "hours"), (60, "minutes")):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {name}"
    return f"{seconds:.0f} s"


# ----------------------------------------------------------------------------- options

MEMORY_SHARE = 0.5
"""A game option may make the game build something (`Game.option_cost`) with at most this
share of the memory available now; more is refused before it starts."""
UNKNOWN_MEMORY = 4 * 2**30
"""What to assume where the system does not say how much memory is free."""


def available_memory() -> int:
    """Bytes of memory available to a new allocation now: psutil's figure on every system
    (Linux MemAvailable, Windows and macOS free plus reclaimable), else `UNKNOWN_MEMORY`."""
    try:
        import psutil
    except ImportError:  # a platform without psutil: assume a small machine
        return UNKNOWN_MEMORY
    try:
        return int(psutil.virtual_memory().available)
    except (OSError, RuntimeError, AttributeError):
        return UNKNOWN_MEMORY


def option_cost(factory: Any, options: dict[str, int]) -> OptionCost | None:
    """The game's `OptionCost` for these options (its optional hook), or None."""
    hook = capabilities(factory).option_cost
    if hook is None:
        return None
    full = {option.name: option.default for option in getattr(factory, "options", ())}
    full.update(options)
    return hook(full)


def option_refusal(factory: Any, options: dict[str, int], memory: int | None = None) -> str | None:
    """Why these options cannot be played on this machine (None when they can): what they
    make the game build needs more than `MEMORY_SHARE` of the memory available, or longer
    than `REFUSE_SECONDS`; with the largest value of each option that fits."""
    cost = option_cost(factory, options)
    memory = available_memory() if memory is None else memory
    budget = MEMORY_SHARE * memory
    if cost is None or _fits(cost, budget):
        return None
    fits = _largest_fitting(factory, options, budget)
    if cost.memory > budget:
        return (
            f"{cost.what} needs about {format_bytes(cost.memory)} of memory "
            f"({compact(cost.states, words=True)} states) and this machine has "
            f"{format_bytes(memory)} free{fits}"
        )
    return (
        f"{cost.what} takes about {format_duration(cost.seconds)} to build "
        f"({compact(cost.states, words=True)} states){fits}"
    )


def _fits(cost: Any, budget: float) -> bool:
    return bool(cost.memory <= budget and cost.seconds <= REFUSE_SECONDS)


def _largest_fitting(factory: Any, options: dict[str, int], budget: float) -> str:
    """'; use goal 430 or less' for the options that make the cost, or ''."""
    words = []
    for option in getattr(factory, "options", ()):
        if option.name not in options:
            continue
        low, high = option.minimum, options[option.name]
        while low < high:  # the cost grows with the option: bisect the largest that fits
            middle = (low + high + 1) // 2
            cost = option_cost(factory, {**options, option.name: middle})
            low, high = (middle, high) if _fits(cost, budget) else (low, middle - 1)
        words.append(f"{option.name} {low}")
    return f"; use {' and '.join(words)} or less" if words else ""


def format_bytes(count: float) -> str:
    """1.5e9 -> '1.4 GB' (binary units, one decimal above a megabyte)."""
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count:.0f} bytes"


def heuristic_refusal(game: Game[Any], heuristic: str | None) -> str | None:
    """Why `heuristic` (None: the game's default) cannot run on this machine with the game's
    options (what it reads is too large to build here), or None."""
    cost = option_cost(type(game), game.option_values())
    name = heuristic or game.default_heuristic
    if cost is None or name not in cost.heuristics:
        return None
    return option_refusal(type(game), game.option_values())


# ----------------------------------------------------------------------------- matches

LONG_REQUEST_SECONDS = 3600.0
"""A match or tournament estimated to take longer than this is refused unless asked for."""
PLAYOUTS = 8
"""Random games played to estimate how many decisions a game has."""


def decisions_per_game(game: Game[Any], playouts: int = PLAYOUTS) -> float:
    """The mean number of player decisions in a random game (seeded: the same every run)."""
    rng = random.Random(0x6A3E)
    total = 0
    for _ in range(playouts):
        state = game.initial_state()
        for _ in range(MAX_PLIES):
            if state.is_terminal():
                break
            if state.to_move == CHANCE:
                state = state.play(rng.choice(state.chance_outcomes())[0])
                continue
            state = state.play(rng.choice(state.legal_moves()))
            total += 1
    return total / playouts


def move_seconds(game: Game[Any], config: object) -> float:
    """Seconds one move of a player config takes, estimated at the start position (a time
    budget caps it; a random player, an agent and MCTS's iterations are not estimated)."""
    search = getattr(config, "search", None)  # a searching player's settings
    if not isinstance(search, DepthLimited) or search.algorithm not in NODES_PER_SECOND:
        return 0.0
    seconds = judge(game.initial_state(), search.algorithm, search.depth, None).seconds
    time_limit = getattr(config, "time_limit", None)
    if time_limit is not None:
        seconds = min(seconds, float(time_limit))
    return seconds


def games_seconds(game: Game[Any], configs: Any, games: int, jobs: int = 1) -> float:
    """Estimated wall time of `games` games, each between two of `configs` (a match: the
    two players; a tournament: every pair alike), on `jobs` worker processes: orders of
    magnitude, like every figure here."""
    configs = list(configs)
    mean = sum(move_seconds(game, c) for c in configs) / max(1, len(configs))
    per_game = decisions_per_game(game) * mean
    return games * max(per_game, 1e-3) / max(1, jobs)
