"""The games played in one window session, as the same cross table `main.py tournament` prints.

Each finished game is kept as (first player's label, second player's label, the first
player's score).  Players are told apart by label ("AI · Hard", "Human", "AI · Custom
(alpha-beta, depth 6, windows)"), not by seat, so swapping sides keeps each player's
record.  `result()` rebuilds an `ai.players.tournament.TournamentResult` with `add_score()`, and
the scores' 95% intervals are Wilson intervals (`ai.players.match.wilson_interval`), as in `match`.
No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.evaluation.wording import move_limit_draws


def relabel(old: list[str], current: list[str]) -> list[str]:
    """Each side's series label: `old` kept while its player (`current`) is unchanged, and
    twins told apart as '#1' and '#2' (so two Hard AIs keep their own numbers)."""
    labels = list(old)
    for i in (0, 1):
        if labels[i].split(" #", 1)[0] != current[i]:
            labels[i] = current[i]
    base = [label.split(" #", 1)[0] for label in labels]
    if base[0] != base[1]:
        return base
    if labels[0] == labels[1]:
        return [f"{base[0]} #1", f"{base[1]} #2"]
    return labels


@dataclass(frozen=True)
class PlayerLine:
    """One player's total: points, games, share and its 95% interval."""

    label: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float


@dataclass
class GameSeries:
    """Finished games between labelled players, in the order they were played."""

    games: list[tuple[str, str, float]] = field(default_factory=list)
    stopped: list[bool] = field(default_factory=list)
    """Per game: whether it was stopped at the move limit (and scored a draw)."""

    def add(self, first: str, second: str, winner: int | None, at_limit: bool = False) -> None:
        """Count a game: `first` moved first; winner 0 (first), 1 (second) or None (draw);
        `at_limit`: the game was stopped at its move limit, a draw."""
        score = 0.5 if winner is None or at_limit else (1.0 if winner == 0 else 0.0)
        self.games.append((first, second, score))
        self.stopped.append(at_limit)

    def pop(self) -> None:
        """Take back the last game (undo of a finished game)."""
        if self.games:
            self.games.pop()
            self.stopped.pop()

    def limit_draws(self, limit: int) -> str | None:
        """'2 games reached the move limit of 500 moves and were scored as draws' (`match`'s
        words), or None when no game was stopped."""
        count = sum(self.stopped)
        return move_limit_draws(count, limit) if count else None

    def __len__(self) -> int:
        return len(self.games)

    def score(self, pair: list[str]) -> list[int]:
        """[wins of pair[0], wins of pair[1], draws] over their games with each other, on
        whichever side each of them played."""
        score = [0, 0, 0]
        for first, second, points in self.games:
            if {first, second} == set(pair) and first != second:
                if points == 0.5:
                    score[2] += 1
                else:
                    score[pair.index(first if points == 1.0 else second)] += 1
        return score

    def labels(self) -> list[str]:
        """Every player, in the order they first appeared."""
        seen: list[str] = []
        for first, second, _ in self.games:
            for label in (first, second):
                if label not in seen:
                    seen.append(label)
        return seen

    def ranked(self) -> list[str]:
        """Every player, best score (points per game) first; ties in the order they came."""
        points: dict[str, list[float]] = {label: [0.0, 0.0] for label in self.labels()}
        for first, second, score in self.games:
            if first != second:
                for label, got in ((first, score), (second, 1.0 - score)):
                    points[label][0] += got
                    points[label][1] += 1
        return sorted(points, key=lambda label: -points[label][0] / max(1.0, points[label][1]))

    def result(self) -> Any:
        """The games as an `ai.players.tournament.TournamentResult` (the tournament's cross table),
        its rows ranked by score."""
        from plyground.ai.players.tournament import TournamentResult

        labels = self.ranked()
        if len(labels) < 2:
            labels = labels + ["(nobody)"] * (2 - len(labels))
        result = TournamentResult(specs=tuple(labels))
        index = {label: i for i, label in enumerate(labels)}
        for first, second, score in self.games:
            if first != second:
                result.add_score(index[first], index[second], score, i_moved_first=True)
        return result

    def lines(self) -> list[PlayerLine]:
        """Each player's points and score with its 95% Wilson interval, best score first."""
        from plyground.ai.players.match import wilson_interval

        result = self.result()
        lines = []
        for i, label in enumerate(result.specs):
            games = result.games(i)
            if not games:
                continue
            pairs = [pair for (me, _), pair in result.pairs.items() if me == i]
            points = result.points(i)
            low, high = wilson_interval(points, games)
            lines.append(
                PlayerLine(
                    label=label,
                    points=points,
                    games=games,
                    wins=sum(p.wins for p in pairs),
                    draws=sum(p.draws for p in pairs),
                    losses=sum(p.losses for p in pairs),
                    score=points / games,
                    low=low,
                    high=high,
                )
            )
        return sorted(lines, key=lambda line: -line.score)

    def head_to_head(self) -> str | None:
        """With exactly two players: 'AI · Hard scores 62.5% (95% CI 45.1–77.3%), Elo
        difference +89 (95% CI −34 to +213)', from the score and its Wilson interval."""
        lines = self.lines()
        if len(lines) != 2:
            return None
        top = lines[0]
        return (
            f"{top.label} scores {100 * top.score:.1f}% "
            f"(95% CI {100 * top.low:.1f}–{100 * top.high:.1f}%), {elo_text(top)}"
        )


def _elo(score: float) -> str:
    from plyground.ai.players.match import elo_difference

    return f"{round(elo_difference(score)) or 0:+d}".replace("-", "−")


def elo_text(line: PlayerLine) -> str:
    """The Elo difference the score implies, with the interval its Wilson interval implies;
    a player who won every game has no estimate yet, only a lower bound."""
    if line.score >= 1.0:
        return f"no Elo estimate while one player wins every game (95%: above {_elo(line.low)})"
    low = _elo(line.low) if line.low > 0 else "−∞"
    high = _elo(line.high) if line.high < 1 else "+∞"
    return f"Elo difference {_elo(line.score)} (95% CI {low} to {high})"
