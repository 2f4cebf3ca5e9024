"""Games between two players, seeded and reproducible, optionally over several processes.

Everything that decides a game comes from one number: game `i` of a match with seed `s`
draws its dice and its players' tie-breaks from seeds derived from `(s, i)`, and its players
are built afresh for that game.  So a game does not depend on the games before it, the
same command replays the same games, and `jobs=N` gives exactly what `jobs=1` gives.
(A player with a time budget is the exception: how deep it gets depends on the clock.)

Results are kept by player ("A" = the first spec, "B" = the second), not by seat: with
`swap`, B moves first in the odd-numbered games.  Building fresh players per game also
keeps memory flat over thousands of games: each game's transposition tables die with it.
"""

from __future__ import annotations

import gc
import hashlib
import math
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plyground import games
from plyground.ai.players.game_pool import pool_results
from plyground.ai.players.players import (
    Player,
    PlayerConfig,
    SearchPlayer,
    make_player,
    with_seed,
)
from plyground.ai.players.presets import parse_player_spec
from plyground.ai.student_code.worker import CheckFailed, UserCodeError
from plyground.games.base import (
    CHANCE,
    Game,
    Move,
    State,
    move_limit_reached,
    moves_allowed,
    sample_outcome,
)
from plyground.games.spawned import register_games as register_games  # still here too
from plyground.games.spawned import registered_games as registered_games

SIDES = ("A", "B")
"""Labels of the two players of a match, in the order of their specs."""

COLLECT_EVERY = 8
"""Run the cyclic garbage collector after this many games (see `_collect_now_and_then`)."""

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for one game or one role in it, the same in every process and every order."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


_PARSED_SPECS: dict[tuple[object, ...], PlayerConfig] = {}


def _named_files(spec: str) -> tuple[tuple[str, int, int], ...]:
    """(name, modification time in ns, size) of every .py file `spec` may name."""
    parts = {spec.strip(), spec.strip().removeprefix("kaggle:"), *re.split(r"[:=]", spec)}
    found = []
    for part in sorted(parts):
        name = part.strip()
        if not name.lower().endswith(".py"):
            continue
        try:
            status = Path(name).expanduser().stat()
        except (OSError, ValueError):
            found.append((name, -1, -1))
        else:
            found.append((name, status.st_mtime_ns, status.st_size))
    return tuple(found)


def parsed_spec(game: Game[Any], spec: str) -> PlayerConfig:
    """`parse_player_spec(game.name, spec, game)`, once per process for a spec and the versions
    of the files it names: checking a player's file parses it, seconds for a large one, and
    a match builds its players afresh for every game."""
    values = game.option_values()
    key = (game.name, tuple(sorted(values.items())), spec, _named_files(spec))
    config = _PARSED_SPECS.get(key)
    if config is None:
        config = _PARSED_SPECS[key] = parse_player_spec(game.name, spec, game)
    return config


def build_player(game: Game[Any], spec: str, seed: int) -> Player:
    """A fresh player for `spec` (preset, `algorithm:key=value...` or `random`) seeded with `seed`.

    A seed written in the spec is mixed in rather than ignored, so `seed=N` still changes
    the games while every game of the match keeps its own generator.
    """
    config = parsed_spec(game, spec)
    player: Player = make_player(with_seed(config, derive_seed(seed, config.seed)), game)
    return player


def check_player_spec(game: Game[Any], spec: str) -> str:
    """Validate `spec` for `game` (ValueError names what is allowed); return its description.

    A player whose heuristic reads something the game's options make too large to build on
    this machine (`ai.engine.cost.heuristic_refusal`) is refused here, before any game starts.
    """
    from plyground.ai.engine.cost import heuristic_refusal

    config = parsed_spec(game, spec)
    if isinstance(config, SearchPlayer):
        refusal = heuristic_refusal(game, config.heuristic)
        if refusal is not None:
            raise ValueError(f"cannot play here: {refusal}")
        return config.describe(game)
    return config.describe()


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """What a worker process needs to play any game of a match: all of it picklable."""

    game: str
    options: tuple[tuple[str, Any], ...]
    specs: tuple[str, str]
    seed: int
    swap: bool = False

    def first_mover(self, index: int) -> int:
        """Which player (0 = A, 1 = B) moves first in game `index`."""
        return index % 2 if self.swap else 0


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, small enough to keep thousands of: everything by player, not seat."""

    index: int
    first: int
    """The player (0 = A, 1 = B) who moved first."""
    moves: str
    """The whole game in the game's own notation (chance outcomes included)."""
    winner: int | None
    """The player (0 = A, 1 = B) who won, or None for a draw."""
    decisions: tuple[int, int]
    think_time: tuple[float, float]
    worst_time: tuple[float, float]
    nodes: tuple[int, int]
    aborted: bool = False
    """True when the game reached its move limit (`games.base.moves_allowed`) and was
    scored a draw."""
    forfeit: str = ""
    """Why the loser forfeited ("my_agent.py: raised ValueError: ..."), or "" if nobody did."""
    forfeit_details: tuple[str, ...] = ()
    """The forfeiting code's own traceback lines."""
    void: str = ""
    """Why the game has no result, or "" for a game played out: its worker process died, or a
    player's worker was ended by a cause its code cannot produce (`UserCodeError.void`, the
    rule in `ai.student_code.endings`; `forfeit` then says what happened).  A void game is
    counted by nobody."""

    @property
    def forfeiter(self) -> int | None:
        """The player (0 = A, 1 = B) who lost by forfeit, or None."""
        if not self.forfeit or self.winner is None:
            return None
        return self.winner ^ 1

    def score(self, player: int) -> float:
        """1, 0.5 or 0: what `player` (0 = A, 1 = B) scored (a void game is in no tally)."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0


_GAME_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Game[Any]] = {}


def _game_for(setup: MatchSetup) -> Game[Any]:
    """The game object for a setup, made once per process (game objects need not pickle)."""
    key = (setup.game, setup.options)
    if key not in _GAME_CACHE:
        _GAME_CACHE[key] = games.get_game(setup.game, **dict(setup.options))
    return _GAME_CACHE[key]


_games_since_collect = 0


def _collect_now_and_then() -> None:
    """Free the last few games' search tables: a flat memory profile over thousands of games.

    The searches' recursive inner functions (`node_value`) form reference cycles that hold
    their transposition table's slot list, so a finished game's tables (up to 2**20 slots
    each) wait for the cyclic collector, whose oldest generation runs too rarely: measured
    here, RSS grew by about 1.5 MiB a game (dice game, hard vs expert: 23 to 560 MiB over 2000
    games).  A full collection every COLLECT_EVERY games keeps it flat for a few percent of
    the run time (every game would cost about 20%).
    """
    global _games_since_collect
    _games_since_collect += 1
    if _games_since_collect >= COLLECT_EVERY:
        _games_since_collect = 0
        gc.collect()


def play_game(setup: MatchSetup, index: int, max_decisions: int | None = None) -> GameRecord:
    """Play game number `index` of the match described by `setup`.

    A game still running after `max_decisions` player decisions (the game's move limit,
    `games.base.moves_allowed`, if None) is stopped and marked aborted; it counts as a draw.
    A player from a user's file whose code fails (`UserCodeError`) loses the game by forfeit,
    and the record says why.
    """
    game = _game_for(setup)
    first = setup.first_mover(index)
    game_seed = derive_seed(setup.seed, index)
    players: list[Player] = []
    for side, spec in zip(SIDES, setup.specs, strict=True):
        try:
            players.append(build_player(game, spec, derive_seed(game_seed, side)))
        except ValueError as error:
            if not _named_files(spec):  # the app checked it: a fault of ours, not a player's
                raise
            for player in players:
                getattr(player, "close", lambda: None)()
            return _unplayed(setup, index, len(players), error)
    try:
        played = _GamePlay(game, players, first, random.Random(derive_seed(game_seed, "chance")))
        played.run(max_decisions)
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    _collect_now_and_then()
    return played.record(index)


def _unplayed(setup: MatchSetup, index: int, side: int, error: ValueError) -> GameRecord:
    """The record of a game whose player `side` could not be built from its file here (the
    app checked it before the match): void when a cause outside the file ended the check
    (`CheckFailed`, the rule in `ai.student_code.endings`), else that player's forfeit (its
    file changed since)."""
    failure = error.error if isinstance(error, CheckFailed) else None
    void = failure is not None and failure.void
    line = failure.line if failure is not None else str(error).replace("\n", " ")
    return GameRecord(
        index=index,
        first=setup.first_mover(index),
        moves="",
        winner=None if void else side ^ 1,
        decisions=(0, 0),
        think_time=(0.0, 0.0),
        worst_time=(0.0, 0.0),
        nodes=(0, 0),
        forfeit=line,
        forfeit_details=failure.details if failure is not None else (),
        void=f"void: {line}" if void else "",
    )


@dataclass
class _GamePlay:
    """One game being played: the moves, each player's counters, how it ended."""

    game: Game[Any]
    players: list[Player]
    first: int
    dice: random.Random
    state: State[Any] = field(init=False)
    moves: list[Move] = field(default_factory=list)
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    think: list[float] = field(default_factory=lambda: [0.0, 0.0])
    worst: list[float] = field(default_factory=lambda: [0.0, 0.0])
    nodes: list[int] = field(default_factory=lambda: [0, 0])
    aborted: bool = False
    forfeit: tuple[int, UserCodeError] | None = None

    def __post_init__(self) -> None:
        self.state = self.game.initial_state()

    def run(self, cap: int | None = None) -> None:
        """Play to the end, the move cap (the game's move limit, `games.base.move_limit_reached`,
        if None), or a forfeit."""
        state = self.state = self.game.initial_state()
        for seat in (self.first, self.first ^ 1):  # players from files load first, untimed
            start = getattr(self.players[seat], "start", None)
            try:
                if start is not None:
                    start()
            except UserCodeError as error:
                self.forfeit = (seat, error)
                return
        while not state.is_terminal():
            if state.to_move == CHANCE:
                move = sample_outcome(state, self.dice)
            else:
                made = sum(self.decisions)
                if move_limit_reached(self.game, made) if cap is None else made >= cap:
                    self.aborted = True
                    return
                who = state.to_move ^ self.first
                started = time.perf_counter()
                try:
                    move = self.players[who].choose(state)
                except UserCodeError as error:
                    self.forfeit = (who, error)
                    return
                spent = time.perf_counter() - started
                self.decisions[who] += 1
                self.think[who] += spent
                self.worst[who] = max(self.worst[who], spent)
                result = getattr(self.players[who], "last_result", None)
                self.nodes[who] += int(getattr(result, "nodes", 0) or 0)
            state = self.state = state.play(move)
            self.moves.append(move)

    def record(self, index: int) -> GameRecord:
        """The finished game, by player."""
        if self.forfeit is not None:
            loser, error = self.forfeit
            winner: int | None = None if error.void else loser ^ 1
            forfeit, details = error.line, error.details
        else:
            seat_winner = None if self.aborted else self.state.winner()
            winner = None if seat_winner is None else seat_winner ^ self.first
            forfeit, details = "", ()
        return GameRecord(
            index=index,
            first=self.first,
            moves=self.game.format_moves(self.moves),
            winner=winner,
            decisions=(self.decisions[0], self.decisions[1]),
            think_time=(self.think[0], self.think[1]),
            worst_time=(self.worst[0], self.worst[1]),
            nodes=(self.nodes[0], self.nodes[1]),
            aborted=self.aborted,
            forfeit=forfeit,
            forfeit_details=details,
            void=f"void: {forfeit}" if self.forfeit is not None and self.forfeit[1].void else "",
        )


def _play_task(task: tuple[MatchSetup, int]) -> GameRecord:
    """`play_game` on one (setup, index) pair: the unit of work sent to a worker process."""
    return play_game(*task)


def void_record(task: tuple[MatchSetup, int], reason: str) -> GameRecord:
    """The record of a game that has no result (`reason`: why), counted by nobody."""
    setup, index = task
    return GameRecord(
        index=index,
        first=setup.first_mover(index),
        moves="",
        winner=None,
        decisions=(0, 0),
        think_time=(0.0, 0.0),
        worst_time=(0.0, 0.0),
        nodes=(0, 0),
        void=reason,
    )


def play_tasks(
    tasks: Iterable[tuple[MatchSetup, int]],
    jobs: int = 1,
    executor: str = "process",
    address: str | None = None,
) -> Iterator[GameRecord]:
    """Play every (setup, index) task in order, over `jobs` spawned processes when jobs > 1,
    or on a Ray cluster (`executor="ray"`, `address`: see `ai.players.ray_executor`).

    Results come back in task order whatever the number of processes, so the output of a
    run never depends on `jobs` or the executor.  A game whose worker process dies comes
    back void (`GameRecord.void`), never a hang (`ai.players.game_pool`).
    """
    if executor == "ray":
        from plyground.ai.players.ray_executor import ray_tasks

        yield from ray_tasks(tasks, play_game, address, lost=void_record)
        return
    if jobs <= 1:
        for task in tasks:
            yield play_game(*task)
        return
    yield from pool_results(tasks, _play_task, jobs, void_record)


def play_match(setup: MatchSetup, count: int, jobs: int = 1) -> Iterator[GameRecord]:
    """Play games 0..count-1 of a match, in order."""
    return play_tasks(((setup, index) for index in range(count)), jobs)


@dataclass(slots=True)
class Score:
    """Wins, draws and losses, and what they make: games played and points."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """1 a win, 0.5 a draw."""
        return self.wins + 0.5 * self.draws


@dataclass(slots=True)
class PlayerTally(Score):
    """Running totals for one player of a match."""

    games_first: int = 0
    score_first: float = 0.0
    games_second: int = 0
    score_second: float = 0.0
    decisions: int = 0
    think_time: float = 0.0
    worst_time: float = 0.0
    nodes: int = 0

    @property
    def time_per_move(self) -> float:
        """Mean thinking time per decision, seconds."""
        return self.think_time / self.decisions if self.decisions else 0.0

    @property
    def nodes_per_move(self) -> float:
        """Mean nodes searched per decision (0 for players that do not search)."""
        return self.nodes / self.decisions if self.decisions else 0.0


@dataclass(slots=True)
class MatchTally:
    """Running totals of a match, updated one game at a time (memory does not grow with games)."""

    players: tuple[PlayerTally, PlayerTally] = field(
        default_factory=lambda: (PlayerTally(), PlayerTally())
    )
    aborted: int = 0
    void: int = 0
    """Games without a result (their worker process died): in no player's count."""

    def add(self, record: GameRecord) -> None:
        """Count one finished game (a void one only as void)."""
        if record.void:
            self.void += 1
            return
        self.aborted += record.aborted
        for side, tally in enumerate(self.players):
            score = record.score(side)
            if score == 1.0:
                tally.wins += 1
            elif score == 0.5:
                tally.draws += 1
            else:
                tally.losses += 1
            if record.first == side:
                tally.games_first += 1
                tally.score_first += score
            else:
                tally.games_second += 1
                tally.score_second += score
            tally.decisions += record.decisions[side]
            tally.think_time += record.think_time[side]
            tally.worst_time = max(tally.worst_time, record.worst_time[side])
            tally.nodes += record.nodes[side]

    @property
    def games(self) -> int:
        """Games counted so far."""
        return self.players[0].games

    def score(self, side: int = 0) -> float:
        """The share of points `side` has taken, 0..1 (0.5 before any game)."""
        games_played = self.games
        return self.players[side].points / games_played if games_played else 0.5

    def score_interval(self, side: int = 0) -> tuple[float, float]:
        """95% Wilson interval of `side`'s score (draws count half; conservative with draws)."""
        return wilson_interval(self.players[side].points, self.games)


def wilson_interval(points: float, games_played: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a share `points / games_played` (0..1)."""
    if games_played == 0:
        return (0.0, 1.0)
    share = points / games_played
    denominator = 1 + z * z / games_played
    centre = (share + z * z / (2 * games_played)) / denominator
    half = (
        z
        * math.sqrt(share * (1 - share) / games_played + z * z / (4 * games_played**2))
        / denominator
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float) -> float:
    """The Elo difference that predicts `score` (0..1); infinite at 0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is 0, not -0


def run_match(
    setup: MatchSetup,
    count: int,
    jobs: int = 1,
    on_game: Callable[[GameRecord, MatchTally], None] | None = None,
) -> MatchTally:
    """Play a whole match, calling `on_game(record, tally)` after each game, in order."""
    tally = MatchTally()
    records = play_match(setup, count, jobs)
    try:
        for record in records:
            tally.add(record)
            if on_game is not None:
                on_game(record, tally)
    finally:
        close = getattr(records, "close", None)
        if close is not None:
            close()  # on Ctrl+C too: the worker pool is stopped, no process left
    return tally


def replay_record(game: Game[Any], line: str) -> Any:
    """The final state of a game written by `--record` (one game's moves on a line)."""
    return game.replay(game.parse_moves(line.strip()))


def summary_dict(
    setup: MatchSetup, tally: MatchTally, descriptions: Sequence[str]
) -> dict[str, Any]:
    """The match's result as plain data for JSON."""
    players = []
    for side, (spec, tally_side) in enumerate(zip(setup.specs, tally.players, strict=True)):
        low, high = tally.score_interval(side)
        players.append(
            {
                "side": SIDES[side],
                "spec": spec,
                "description": descriptions[side],
                "wins": tally_side.wins,
                "draws": tally_side.draws,
                "losses": tally_side.losses,
                "score": tally.score(side),
                "score_ci95": [low, high],
                "games_first": tally_side.games_first,
                "score_first": tally_side.score_first,
                "games_second": tally_side.games_second,
                "score_second": tally_side.score_second,
                "moves": tally_side.decisions,
                "time_per_move": tally_side.time_per_move,
                "worst_time_per_move": tally_side.worst_time,
                "nodes_per_move": tally_side.nodes_per_move,
            }
        )
    return {
        "game": setup.game,
        "options": dict(setup.options),
        "seed": setup.seed,
        "swap": setup.swap,
        "games": tally.games,
        "aborted": tally.aborted,
        "move_limit": moves_allowed(_game_for(setup)),
        "void": tally.void,
        "players": players,
    }


def record_dict(record: GameRecord) -> dict[str, Any]:
    """One game as plain data for JSON."""
    return {
        "index": record.index,
        "first": SIDES[record.first],
        "winner": None if record.winner is None else SIDES[record.winner],
        "moves": record.moves,
        "decisions": list(record.decisions),
        "think_time": list(record.think_time),
        "nodes": list(record.nodes),
        "aborted": record.aborted,
        "forfeit": record.forfeit or None,
        "void": record.void or None,
    }
