"""How often a Pig preset's roll/hold decision matches the optimal one (Neller & Presser).

A decision state at goal G is (own score i, opponent's score j, turn total k) with
i, j < G and i + k < G, the player to move about to roll or hold: G * G * (G + 1) / 2
states, 505,000 at goal 100.  For each state the preset searches exactly as it does in a
game (one `AIPlayer` per worker process, so its transposition table persists from state
to state, which makes the deeper presets several times faster) and we compare the
better-valued move with `games.pig_optimal.optimal_table(G).should_roll`.

Figures, per preset:

* agreement: the share of states where the preset's best move is the optimal one; a
  state where roll and hold tie counts 1/2 (the seeded tie-break picks either);
* with its noise: a preset with randomness r adds independent uniform noise in [-r, r]
  to both root values, so it plays the optimal move with probability
  P(U_other - U_best < gap), the triangular distribution's CDF at the value gap; the
  mean of that over the states is the share of decisions it actually gets right;
* win chance given up: the mean, over the states, of the optimal win probability minus
  the win probability of the preset's move followed by optimal play (0 when it agrees).

Subsets: every state; the states with a choice (k > 0: at k = 0 the only move is roll);
and the states a game can reach (no score and no turn total of exactly 1, since every
face that counts adds at least 2).  With `sample` the states are a uniform random sample
(seed 0) and each share comes with a 95% Wilson interval.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ai.match import wilson_interval
from ai.players import AIPlayer, PlayerConfig
from ai.text_table import format_seconds, format_table

Log = Callable[[str], None]
Triple = tuple[int, int, int]

GOAL = 100
CHUNK = 2_000
"""States per task sent to a worker (consecutive turn totals share subtrees)."""
SUBSETS = ("all", "choice", "reachable")
SUBSET_TITLES = {
    "all": "all states",
    "choice": "with a choice (k > 0)",
    "reachable": "reachable (no 1s)",
}


def decision_states(goal: int = GOAL) -> list[Triple]:
    """Every decision state (i, j, k), i and j < goal, i + k < goal, in table order."""
    return [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]


def sample_states(count: int, goal: int = GOAL, seed: int = 0) -> list[Triple]:
    """A uniform random sample of `count` decision states (all of them if fewer), sorted."""
    states = decision_states(goal)
    if count >= len(states):
        return states
    return sorted(random.Random(seed).sample(states, count))


def in_subset(state: Triple, subset: str) -> bool:
    """Whether a state (i, j, k) belongs to a subset of SUBSETS."""
    i, j, k = state
    if subset == "all":
        return True
    if subset == "choice":
        return k > 0
    return 1 not in (i, j, k)


def choose_presets(text: str | None) -> dict[str, PlayerConfig]:
    """Pig presets by comma-separated names (None: all), read from ai.DIFFICULTIES now."""
    from ai.difficulty import DIFFICULTIES

    presets = DIFFICULTIES["pig"]
    if text is None:
        return dict(presets)
    chosen: dict[str, PlayerConfig] = {}
    for name in (part.strip() for part in text.split(",")):
        match = [preset for preset in presets if preset.lower() == name.lower()]
        if not match:
            raise ValueError(f"unknown Pig preset {name!r}; choose from {', '.join(presets)}")
        chosen[match[0]] = presets[match[0]]
    return chosen


# --------------------------------------------------------------------------- workers

_WORKER: dict[str, Any] = {}


def _start_worker(config: PlayerConfig, goal: int) -> None:
    """Build this process's player once: its table then serves every chunk it is given."""
    import games

    game = games.get_game("pig", goal=goal)
    _WORKER["player"] = AIPlayer(config, game)
    _WORKER["goal"] = goal


def _root_values(states: Sequence[Triple]) -> list[tuple[float, float | None]]:
    """(value of rolling, value of holding or None at k = 0) for each state, by the preset."""
    from games.pig import State

    player: AIPlayer = _WORKER["player"]
    goal: int = _WORKER["goal"]
    values: list[tuple[float, float | None]] = []
    for i, j, k in states:
        player.choose(State(goal=goal, scores=(i, j), turn_total=k), all_values=True)
        result = player.last_result
        assert result is not None
        move_values = result.move_values
        values.append((move_values["roll"], move_values.get("hold")))
    return values


def _chunks(states: Sequence[Triple], size: int) -> Iterator[Sequence[Triple]]:
    for start in range(0, len(states), size):
        yield states[start : start + size]


def root_values(
    config: PlayerConfig,
    states: Sequence[Triple],
    goal: int = GOAL,
    jobs: int = 1,
    log: Log = lambda text: None,
) -> list[tuple[float, float | None]]:
    """The preset's root values of roll and hold in every state, in order."""
    chunks = list(_chunks(states, CHUNK))
    results: list[tuple[float, float | None]] = []
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 25 == 0 or done == len(chunks):
            log(f"  {done}/{len(chunks)} chunks, {format_seconds(time.perf_counter() - started)}")

    if jobs <= 1:
        _start_worker(config, goal)
        for done, chunk in enumerate(chunks, start=1):
            results.extend(_root_values(chunk))
            progress(done)
        _WORKER.clear()
        return results
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_start_worker, initargs=(config, goal)) as pool:
        for done, part in enumerate(pool.imap(_root_values, chunks), start=1):
            results.extend(part)
            progress(done)
    return results


# --------------------------------------------------------------------------- scoring


def noisy_agreement(gap: float, noise: float) -> float:
    """P(v_best + U1 > v_other + U2) for U1, U2 uniform in [-noise, noise], gap = v_best - v_other.

    U2 - U1 has the triangular density on [-2 noise, 2 noise]; this is its CDF at `gap`.
    Without noise: 1 above 0, 1/2 at 0 (the tie-break), 0 below.
    """
    if noise <= 0:
        return 1.0 if gap > 0 else (0.5 if gap == 0 else 0.0)
    width = 2 * noise
    if gap <= -width:
        return 0.0
    if gap >= width:
        return 1.0
    if gap <= 0:
        return (gap + width) ** 2 / (2 * width * width)
    return 1.0 - (width - gap) ** 2 / (2 * width * width)


def score_preset(
    states: Sequence[Triple],
    values: Sequence[tuple[float, float | None]],
    randomness: float,
    goal: int = GOAL,
) -> dict[str, dict[str, float]]:
    """Agreement figures per subset from the preset's root values."""
    from games.pig_optimal import optimal_table

    table = optimal_table(goal)
    sums = {
        subset: {"states": 0.0, "agree": 0.0, "ties": 0.0, "noisy": 0.0, "cost": 0.0}
        for subset in SUBSETS
    }
    for state, (roll, hold) in zip(states, values, strict=True):
        i, j, k = state
        optimal_roll = table.should_roll(i, j, k)
        if hold is None:  # k = 0: rolling is the only move
            agree = noisy = 1.0
            tie = 0.0
            cost = 0.0
        else:
            gap = (roll - hold) if optimal_roll else (hold - roll)
            agree = noisy_agreement(gap, 0.0)
            noisy = noisy_agreement(gap, randomness)
            tie = 1.0 if gap == 0 else 0.0
            best = table.win_probability(i, j, k)
            worse = (
                table.hold_win_probability(i, j, k)
                if optimal_roll
                else table.roll_win_probability(i, j, k)
            )
            cost = (1.0 - noisy) * (best - worse)
        for subset in SUBSETS:
            if in_subset(state, subset):
                row = sums[subset]
                row["states"] += 1
                row["agree"] += agree
                row["ties"] += tie
                row["noisy"] += noisy
                row["cost"] += cost
    return sums


def agreement_report(
    presets: dict[str, PlayerConfig],
    sample: int | None = None,
    jobs: int = 1,
    goal: int = GOAL,
    log: Log = lambda text: None,
) -> dict[str, Any]:
    """Every preset's agreement with the optimal decisions, over all states or a sample."""
    states = decision_states(goal) if sample is None else sample_states(sample, goal)
    report: dict[str, Any] = {
        "goal": goal,
        "states": len(states),
        "total_states": goal * goal * (goal + 1) // 2,
        "sample": sample is not None and len(states) < goal * goal * (goal + 1) // 2,
        "presets": [],
    }
    for name, config in presets.items():
        log(f"Pig policy: {name} ({config.describe()}) on {len(states):,} states")
        started = time.perf_counter()
        values = root_values(config, states, goal, jobs, log)
        elapsed = time.perf_counter() - started
        report["presets"].append(
            {
                "preset": name,
                "config": config.to_dict(),
                "describe": config.describe(),
                "time": elapsed,
                "jobs": jobs,
                "subsets": score_preset(states, values, config.randomness, goal),
            }
        )
    return report


def _share(count: float, total: float, sample: bool) -> str:
    """A percentage, with its 95% interval for a sample."""
    if not total:
        return "-"
    text = f"{100 * count / total:.2f}%"
    if sample:
        low, high = wilson_interval(count, int(total))
        text += f" ({100 * low:.1f}-{100 * high:.1f})"
    return text


def format_report(report: dict[str, Any]) -> list[str]:
    """The agreement report as text: one row per preset and subset."""
    sample = report["sample"]
    rows = []
    for entry in report["presets"]:
        for subset in SUBSETS:
            row = entry["subsets"][subset]
            total = row["states"]
            rows.append(
                [
                    entry["preset"],
                    SUBSET_TITLES[subset],
                    f"{int(total):,}",
                    _share(row["agree"], total, sample),
                    f"{int(row['ties']):,}",
                    _share(row["noisy"], total, sample),
                    f"{100 * row['cost'] / total:.3f}" if total else "-",
                ]
            )
    headers = [
        "preset",
        "states",
        "count",
        "agrees",
        "ties",
        "with its noise",
        "win % given up",
    ]
    what = (
        f"a uniform random sample of {report['states']:,} of the {report['total_states']:,}"
        if sample
        else f"all {report['states']:,}"
    )
    lines = [
        f"Pig (goal {report['goal']}): each preset's roll/hold decision against the optimal "
        f"one, over {what} decision states:",
        *format_table(headers, rows, right=(2, 3, 4, 5, 6)),
        "agrees: its best-valued move is optimal (a tie counts 1/2); with its noise: the "
        "share it plays, given its randomness; win % given up: mean loss of win chance "
        "per decision (percentage points)." + (" Brackets: 95% Wilson interval." if sample else ""),
        "configs: "
        + "; ".join(
            f"{entry['preset']} = {entry['describe']} ({format_seconds(entry['time'])}, "
            f"{entry['jobs']} job{'s' if entry['jobs'] != 1 else ''})"
            for entry in report["presets"]
        ),
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m ai.policy_agreement [presets] [sample] [jobs]` (same as bench --pig-policy)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    presets = choose_presets(args[0] if args and args[0] != "all" else None)
    sample = int(args[1]) if len(args) > 1 and args[1] != "all" else None
    jobs = int(args[2]) if len(args) > 2 else 1
    report = agreement_report(
        presets, sample, jobs, log=lambda text: print(text, file=sys.stderr, flush=True)
    )
    print("\n".join(format_report(report)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "agreement_report",
    "choose_presets",
    "decision_states",
    "format_report",
    "noisy_agreement",
    "root_values",
    "sample_states",
    "score_preset",
]
