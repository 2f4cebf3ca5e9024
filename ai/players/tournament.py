"""Round-robin tournaments: a cross table and Elo ratings with 95% confidence intervals.

Every pair of players meets `games_per_pair` times, each moving first in half of them.
Ratings are the maximum-likelihood Bradley-Terry fit of all results (a draw counts half a
win to each side), on the Elo scale (400 * log10 of strength) and anchored so that the
mean rating of the field is 1500.  To keep a player who lost (or won) every game at a
finite rating, each pair that met is given PRIOR_DRAWS virtual drawn games.  The 95%
intervals come from a seeded bootstrap: each pair's results are resampled from its own
win/draw/loss counts and the whole field refitted.

Nothing here draws: the GUI and `main.py tournament` both read `TournamentResult`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from plyground.ai.players.match import GameRecord, MatchSetup, Score, derive_seed, play_tasks
from plyground.untrusted import printable

ANCHOR = 1500.0
"""The mean rating of the field."""

PRIOR_DRAWS = 1.0
"""Virtual drawn games added to every pair that met, so that no rating is infinite."""

BOOTSTRAP_SAMPLES = 400
"""Refits behind each confidence interval."""


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    """The players, the schedule and the seed of a round robin (picklable)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    specs: tuple[str, ...]
    games_per_pair: int
    seed: int

    def pairs(self) -> list[tuple[int, int]]:
        """Every pair of players (i < j), in a fixed order."""
        count = len(self.specs)
        return [(i, j) for i in range(count) for j in range(i + 1, count)]

    def match_setup(self, i: int, j: int) -> MatchSetup:
        """The match between players i (side A) and j (side B), alternating who moves first."""
        return MatchSetup(
            game=self.game,
            options=self.options,
            specs=(self.specs[i], self.specs[j]),
            seed=derive_seed(self.seed, "pair", i, j),
            swap=True,
        )

    def tasks(self) -> Iterator[tuple[tuple[int, int], MatchSetup, int]]:
        """Every game of the tournament: ((i, j), match setup, game index), in a fixed order."""
        for i, j in self.pairs():
            setup = self.match_setup(i, j)
            for index in range(self.games_per_pair):
                yield (i, j), setup, index

    @property
    def total_games(self) -> int:
        """Games in the whole tournament."""
        return len(self.pairs()) * self.games_per_pair


@dataclass(slots=True)
class PairResult(Score):
    """Results of player i against player j, from i's side (games between the two, i's
    points)."""

    score_moving_first: float = 0.0
    games_moving_first: int = 0


@dataclass(frozen=True, slots=True)
class Rating:
    """One line of the ranking."""

    player: int
    spec: str
    elo: float
    low: float
    high: float
    points: float
    games: int
    label: str = ""
    """The spec, numbered "#1", "#2" when the same spec plays more than once."""

    @property
    def rated(self) -> bool:
        """Whether any game counted for the player: one with none (every game void) is
        listed unrated, after the ranked players, never given a rating or a rank."""
        return self.games > 0


def player_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Names that tell players apart: a spec listed twice becomes "hard #1" and "hard #2";
    a file's name is shown as data (`printable`: an escape sequence or a right-to-left
    override in it is written as its escape)."""
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec] = counts.get(spec, 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        if counts[spec] == 1:
            labels.append(printable(spec))
            continue
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(f"{printable(spec)} #{seen[spec]}")
    return tuple(labels)


@dataclass(slots=True)
class TournamentResult:
    """The cross table of a tournament, filled one game at a time."""

    specs: tuple[str, ...]
    pairs: dict[tuple[int, int], PairResult] = field(default_factory=dict)
    think_time: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    worst_time: list[float] = field(default_factory=list)
    """Each player's longest single move, seconds."""
    void: int = 0
    """Games without a result (their worker process died): in nobody's score."""
    aborted: int = 0
    """Games stopped at the game's move limit (`games.base.moves_allowed`), scored as draws."""

    def __post_init__(self) -> None:
        """Start every pair at zero, both ways."""
        count = len(self.specs)
        for i in range(count):
            for j in range(count):
                if i != j:
                    self.pairs.setdefault((i, j), PairResult())
        self.think_time = [0.0] * count
        self.decisions = [0] * count
        self.worst_time = [0.0] * count

    def add(self, i: int, j: int, record: GameRecord) -> None:
        """Count one game between i (side A of the record) and j (side B); a void one as void."""
        if record.void:
            self.void += 1
            return
        self.aborted += record.aborted
        self.add_score(i, j, record.score(0), i_moved_first=record.first == 0)
        for me, side in ((i, 0), (j, 1)):
            self.think_time[me] += record.think_time[side]
            self.decisions[me] += record.decisions[side]
            self.worst_time[me] = max(self.worst_time[me], record.worst_time[side])

    def add_score(self, i: int, j: int, score: float, i_moved_first: bool) -> None:
        """Count one game in which i scored `score` (1, 0.5 or 0) against j (also for the GUI)."""
        for me, other, mine, first in (
            (i, j, score, i_moved_first),
            (j, i, 1.0 - score, not i_moved_first),
        ):
            pair = self.pairs[(me, other)]
            if mine == 1.0:
                pair.wins += 1
            elif mine == 0.5:
                pair.draws += 1
            else:
                pair.losses += 1
            if first:
                pair.games_moving_first += 1
                pair.score_moving_first += mine

    def points(self, player: int) -> float:
        """All of `player`'s points."""
        return sum(result.points for (me, _), result in self.pairs.items() if me == player)

    def games(self, player: int) -> int:
        """All of `player`'s games."""
        return sum(result.games for (me, _), result in self.pairs.items() if me == player)

    def counts(self) -> dict[tuple[int, int], tuple[int, int, int]]:
        """(wins, draws, losses) of i against j for every pair i < j."""
        return {
            (i, j): (result.wins, result.draws, result.losses)
            for (i, j), result in self.pairs.items()
            if i < j
        }

    def ranking(self, seed: int = 0, samples: int = BOOTSTRAP_SAMPLES) -> list[Rating]:
        """Players best first, with Elo ratings and bootstrap 95% intervals."""
        counts = self.counts()
        elo = fit_elo(len(self.specs), counts)
        intervals = bootstrap_intervals(len(self.specs), counts, seed=seed, samples=samples)
        ratings = [
            Rating(
                player=p,
                spec=self.specs[p],
                label=player_labels(self.specs)[p],
                elo=elo[p],
                low=intervals[p][0],
                high=intervals[p][1],
                points=self.points(p),
                games=self.games(p),
            )
            for p in range(len(self.specs))
        ]
        return sorted(ratings, key=lambda rating: (not rating.rated, -rating.elo, rating.player))

    def to_dict(self, ranking: Sequence[Rating]) -> dict[str, Any]:
        """The cross table and the ranking as plain data for JSON."""
        return {
            "players": list(self.specs),
            "labels": list(player_labels(self.specs)),
            "elo_anchor": f"mean rating = {ANCHOR:g}",
            "cross_table": [
                {
                    "player": player_labels(self.specs)[i],
                    "opponent": player_labels(self.specs)[j],
                    "wins": result.wins,
                    "draws": result.draws,
                    "losses": result.losses,
                    "score": result.points / result.games if result.games else None,
                    "games_moving_first": result.games_moving_first,
                    "score_moving_first": result.score_moving_first,
                }
                for (i, j), result in sorted(self.pairs.items())
            ],
            "ranking": [
                {
                    "rank": rank if rating.rated else None,
                    "player": rating.label,
                    "elo": rating.elo if rating.rated else None,
                    "elo_ci95": [rating.low, rating.high] if rating.rated else None,
                    "points": rating.points,
                    "games": rating.games,
                    "time_per_move": self.think_time[rating.player]
                    / max(1, self.decisions[rating.player]),
                    "worst_time_per_move": self.worst_time[rating.player],
                }
                for rank, rating in enumerate(ranking, start=1)
            ],
            "void": self.void,
            "aborted": self.aborted,
        }


def run_tournament(
    setup: TournamentSetup,
    jobs: int = 1,
    on_game: Callable[[GameRecord, TournamentResult], None] | None = None,
    executor: str = "process",
    address: str | None = None,
) -> TournamentResult:
    """Play every game of the round robin (in a fixed order whatever `jobs` or the executor:
    local processes, or a Ray cluster at `address`) and tabulate it."""
    result = TournamentResult(setup.specs)
    tasks = list(setup.tasks())
    games_ = ((match, index) for _, match, index in tasks)
    records = play_tasks(games_, jobs, executor, address)
    for ((i, j), _, _), record in zip(tasks, records, strict=True):
        result.add(i, j, record)
        if on_game is not None:
            on_game(record, result)
    return result


def fit_elo(
    players: int,
    counts: dict[tuple[int, int], tuple[int, int, int]],
    prior_draws: float = PRIOR_DRAWS,
) -> list[float]:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale, mean ANCHOR.

    `counts[(i, j)]` holds i's (wins, draws, losses) against j.  Draws count half a win
    to each side and every pair that met gets `prior_draws` virtual draws.  Solved with
    Hunter's minorisation-maximisation iteration, which converges for a connected field.
    """
    games = [[0.0] * players for _ in range(players)]
    points = [0.0] * players
    for (i, j), (wins, draws, losses) in counts.items():
        played = wins + draws + losses
        if played == 0:
            continue
        total = played + prior_draws
        games[i][j] += total
        games[j][i] += total
        points[i] += wins + 0.5 * draws + 0.5 * prior_draws
        points[j] += losses + 0.5 * draws + 0.5 * prior_draws
    strength = [1.0] * players
    for _ in range(10_000):
        updated = []
        for i in range(players):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(players) if games[i][j]
            )
            updated.append(points[i] / denominator if denominator else strength[i])
        mean_log = sum(math.log(s) for s in updated) / players
        updated = [s / math.exp(mean_log) for s in updated]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-10:
            break
    return [ANCHOR + 400.0 * math.log10(s) for s in strength]


def bootstrap_intervals(
    players: int,
    counts: dict[tuple[int, int], tuple[int, int, int]],
    seed: int = 0,
    samples: int = BOOTSTRAP_SAMPLES,
    prior_draws: float = PRIOR_DRAWS,
) -> list[tuple[float, float]]:
    """95% percentile intervals of each rating, resampling each pair's games (seeded)."""
    rng = random.Random(seed)
    fits: list[list[float]] = [[] for _ in range(players)]
    outcomes = (0, 1, 2)
    for _ in range(samples):
        resampled: dict[tuple[int, int], tuple[int, int, int]] = {}
        for pair, (wins, draws, losses) in counts.items():
            played = wins + draws + losses
            tally = [0, 0, 0]
            if played:
                for outcome in rng.choices(outcomes, weights=(wins, draws, losses), k=played):
                    tally[outcome] += 1
            resampled[pair] = (tally[0], tally[1], tally[2])
        for player, elo in enumerate(fit_elo(players, resampled, prior_draws)):
            fits[player].append(elo)
    intervals = []
    for values in fits:
        values.sort()
        intervals.append((_percentile(values, 0.025), _percentile(values, 0.975)))
    return intervals


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The `share` quantile of sorted values, interpolating between neighbours."""
    if not ordered:
        return math.nan
    position = share * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def format_cross_table(result: TournamentResult, labels: Sequence[str] | None = None) -> list[str]:
    """The cross table as aligned text lines: row player's score against each column player.

    Columns are as wide as their widest entry plus two spaces, so entries never run together.
    """
    shown = labels or player_labels(result.specs)
    names = [f"{number}. {name}" for number, name in enumerate(shown, start=1)]
    count = len(names)
    rows: list[list[str]] = []
    for i in range(count):
        cells = []
        for j in range(count):
            if i == j:
                cells.append("-")
                continue
            pair = result.pairs[(i, j)]
            cells.append(f"{_points(pair.points)}/{pair.games}")
        cells.append(f"{_points(result.points(i))}/{result.games(i)}")
        rows.append(cells)
    width = max(7, *(len(name) for name in names))
    cell = max(7, *(len(text) + 2 for cells in rows for text in cells))
    header = (
        " " * width
        + "".join(f"{index + 1:>{cell}}" for index in range(count))
        + f"{'total':>{cell}}"
    )
    lines = [header]
    for name, cells in zip(names, rows, strict=True):
        lines.append(f"{name:<{width}}" + "".join(f"{text:>{cell}}" for text in cells))
    return lines


def _points(points: float) -> str:
    """Points without a needless '.0'."""
    return f"{points:g}"
