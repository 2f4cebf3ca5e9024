"""How often a preset's decisions match a game's reference policy (`Game.reference_policy()`).

A game may offer a reference policy (`games.base.ReferencePolicy`): its decision states
and the best move and each move's value (win probability, then best play) in each.  For
each state the preset searches exactly as it does in a game (one `AIPlayer` per worker
process, so its transposition table persists from state to state, which makes the deeper
presets several times faster) and we compare its best-valued move with the reference's.

Figures, per preset:

* agreement: the share of states where the preset's best move is the reference's; a
  state where k moves tie for best counts 1/k (the seeded tie-break picks any);
* with its noise: a preset with randomness r adds independent uniform noise in [-r, r]
  to every root value, so it plays the reference move with some probability (for two
  moves, P(U_other - U_best < gap), the triangular distribution's CDF at the value gap);
  the mean of that over the states is the share of decisions it actually gets right;
* win chance given up: the mean, over the states, of the reference's value minus the
  value of the move the preset plays (0 when it agrees).

Subsets are the policy's own (`subsets`).  With `sample` the states are a uniform random
sample (seed 0) and each share comes with a 95% Wilson interval.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from plyground import games
from plyground.ai.evaluation.wording import counted
from plyground.ai.players.match import wilson_interval
from plyground.ai.players.players import AIPlayer, SearchPlayer
from plyground.ai.players.text_table import format_seconds, format_table
from plyground.games.base import HasReferencePolicy, Move, ReferencePolicy, capabilities
from plyground.games.spawned import register_games, registered_games

Log = Callable[[str], None]
Key = Any
MoveValues = dict[Move, float]

CHUNK = 2_000
"""States per task sent to a worker (consecutive states often share subtrees)."""
NOISE_STEPS = 400
"""Midpoints of the numerical integral of a choice among three or more noisy moves."""


def policy_games() -> list[str]:
    """The registered games that offer a reference policy, in registry order."""
    return [
        name
        for name, factory in games.GAMES.items()
        if capabilities(factory).reference_policy is not None
    ]


def default_game() -> str:
    """The first registered game with a reference policy."""
    offered = policy_games()
    if not offered:
        raise ValueError("no registered game offers a reference policy")
    return offered[0]


def reference_for(game_name: str | None = None, **options: Any) -> ReferencePolicy:
    """A game's reference policy (None: the first game that has one), with its options."""
    name = default_game() if game_name is None else game_name
    game = games.get_game(name, **options)
    if not isinstance(game, HasReferencePolicy):
        raise ValueError(f"{name} offers no reference policy; games that do: {policy_games()}")
    return game.reference_policy()


def decision_states(policy: ReferencePolicy) -> list[Key]:
    """Every decision state of the policy, in its order."""
    return policy.decision_keys()


def sample_states(count: int, policy: ReferencePolicy, seed: int = 0) -> list[Key]:
    """A uniform random sample of `count` decision states (all of them if fewer), in order."""
    states = decision_states(policy)
    if count >= len(states):
        return states
    chosen = set(random.Random(seed).sample(range(len(states)), count))
    return [state for index, state in enumerate(states) if index in chosen]


def choose_presets(text: str | None, game_name: str | None = None) -> dict[str, SearchPlayer]:
    """A game's presets by comma-separated names (None: all), read from ai.DIFFICULTIES now."""
    from plyground.ai.players.presets import DIFFICULTIES

    name = default_game() if game_name is None else game_name
    presets = DIFFICULTIES[name]
    if text is None:
        return dict(presets)
    title = games.GAMES[name].title  # type: ignore[attr-defined]
    chosen: dict[str, SearchPlayer] = {}
    for wanted in (part.strip() for part in text.split(",")):
        match = [preset for preset in presets if preset.lower() == wanted.lower()]
        if not match:
            raise ValueError(f"unknown {title} preset {wanted!r}; choose from {', '.join(presets)}")
        chosen[match[0]] = presets[match[0]]
    return chosen


# --------------------------------------------------------------------------- workers

_WORKER: dict[str, Any] = {}


def _start_worker(
    config: SearchPlayer,
    game_name: str,
    options: dict[str, Any],
    factories: tuple[tuple[str, str], ...] = (),
) -> None:
    """Build this process's player once: its table then serves every chunk it is given."""
    register_games(factories)
    game = games.get_game(game_name, **options)
    _WORKER["player"] = AIPlayer(config, game)
    _WORKER["policy"] = game.reference_policy()  # type: ignore[attr-defined]


def _root_values(states: Sequence[Key]) -> list[MoveValues]:
    """The preset's root value of every move, for each state."""
    player: AIPlayer = _WORKER["player"]
    policy: ReferencePolicy = _WORKER["policy"]
    values: list[MoveValues] = []
    for key in states:
        player.choose(policy.state(key), all_values=True)
        result = player.last_result
        assert result is not None
        values.append(result.values)
    return values


def _chunks(states: Sequence[Key], size: int) -> Iterator[Sequence[Key]]:
    for start in range(0, len(states), size):
        yield states[start : start + size]


def root_values(
    config: SearchPlayer,
    states: Sequence[Key],
    game_name: str | None = None,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    log: Log = lambda text: None,
) -> list[MoveValues]:
    """The preset's root values of every move in every state, in order."""
    name = default_game() if game_name is None else game_name
    options = dict(options or {})
    chunks = list(_chunks(states, CHUNK))
    results: list[MoveValues] = []
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 25 == 0 or done == len(chunks):
            log(f"  {done}/{len(chunks)} chunks, {format_seconds(time.perf_counter() - started)}")

    if jobs <= 1:
        _start_worker(config, name, options)
        for done, chunk in enumerate(chunks, start=1):
            results.extend(_root_values(chunk))
            progress(done)
        _WORKER.clear()
        return results
    context = multiprocessing.get_context("spawn")
    initargs = (config, name, options, registered_games())
    with context.Pool(jobs, initializer=_start_worker, initargs=initargs) as pool:
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


def choice_probabilities(values: MoveValues, noise: float) -> MoveValues:
    """The chance the preset plays each move: its values plus uniform noise in [-noise, noise].

    Without noise the best-valued moves share it equally (the tie-break); two moves use
    the triangular CDF (`noisy_agreement`), more moves a numerical integral.
    """
    moves = list(values)
    if noise <= 0 or len(moves) == 1:
        best = max(values.values())
        top = [move for move in moves if values[move] == best]
        return {move: (1 / len(top) if move in top else 0.0) for move in moves}
    if len(moves) == 2:
        first, second = moves
        share = noisy_agreement(values[first] - values[second], noise)
        return {first: share, second: 1.0 - share}
    width = 2 * noise
    chances: MoveValues = {}
    for move in moves:
        total = 0.0
        for step in range(NOISE_STEPS):
            mine = values[move] - noise + width * (step + 0.5) / NOISE_STEPS
            product = 1.0
            for other in moves:
                if other != move:
                    product *= min(1.0, max(0.0, (mine - values[other] + noise) / width))
            total += product
        chances[move] = total / NOISE_STEPS
    return chances


def score_preset(
    states: Sequence[Key],
    values: Sequence[MoveValues],
    randomness: float,
    policy: ReferencePolicy,
) -> dict[str, dict[str, float]]:
    """Agreement figures per subset of the policy, from the preset's root values."""
    names = [name for name, _ in policy.subsets]
    sums = {
        subset: {"states": 0.0, "agree": 0.0, "ties": 0.0, "noisy": 0.0, "cost": 0.0}
        for subset in names
    }
    for key, preset_values in zip(states, values, strict=True):
        best = policy.best_move(key)
        plain = choice_probabilities(preset_values, 0.0)
        noisy_choice = choice_probabilities(preset_values, randomness)
        reference = policy.move_values(key)
        agree = plain.get(best, 0.0)
        noisy = noisy_choice.get(best, 0.0)
        tie = 1.0 if sum(1 for share in plain.values() if share > 0) > 1 else 0.0
        cost = sum(
            chance * (reference[best] - reference[move])
            for move, chance in noisy_choice.items()
            if move != best and chance > 0
        )
        for subset in names:
            if policy.in_subset(key, subset):
                row = sums[subset]
                row["states"] += 1
                row["agree"] += agree
                row["ties"] += tie
                row["noisy"] += noisy
                row["cost"] += cost
    return sums


def agreement_report(
    presets: dict[str, SearchPlayer],
    sample: int | None = None,
    jobs: int = 1,
    game_name: str | None = None,
    options: dict[str, Any] | None = None,
    log: Log = lambda text: None,
) -> dict[str, Any]:
    """Every preset's agreement with the game's reference policy, over all states or a sample.

    `game_name` None: the first game with a reference policy; `options` None: its defaults.
    """
    name = default_game() if game_name is None else game_name
    game = games.get_game(name, **(options or {}))
    options = game.option_values()
    policy = reference_for(name, **options)
    every = decision_states(policy)
    states = every if sample is None else sample_states(sample, policy)
    report: dict[str, Any] = {
        "game": name,
        "title": game.title,
        "options": options,
        "reference": policy.title,
        "subsets": [list(pair) for pair in policy.subsets],
        "states": len(states),
        "total_states": len(every),
        "sample": sample is not None and len(states) < len(every),
        "presets": [],
    }
    for preset, config in presets.items():
        log(f"{game.title} policy: {preset} ({config.describe()}) on {len(states):,} states")
        started = time.perf_counter()
        values = root_values(config, states, name, options, jobs, log)
        elapsed = time.perf_counter() - started
        report["presets"].append(
            {
                "preset": preset,
                "config": config.to_dict(),
                "describe": config.describe(),
                "time": elapsed,
                "jobs": jobs,
                "subsets": score_preset(states, values, config.randomness, policy),
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


def _options_text(options: dict[str, Any]) -> str:
    """' (goal 100)' for a game's options, '' for none."""
    if not options:
        return ""
    return " (" + ", ".join(f"{name} {value}" for name, value in options.items()) + ")"


def format_report(report: dict[str, Any]) -> list[str]:
    """The agreement report as text: one row per preset and subset."""
    sample = report["sample"]
    rows = []
    for entry in report["presets"]:
        for subset, title in report["subsets"]:
            row = entry["subsets"][subset]
            total = row["states"]
            rows.append(
                [
                    entry["preset"],
                    title,
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
        f"{report['title']}{_options_text(report['options'])}: each preset's decision against "
        f"{report['reference']}, over {what} decision states:",
        *format_table(headers, rows, right=(2, 3, 4, 5, 6)),
        "agrees: its best-valued move is the reference's (a tie counts 1/2); with its noise: the "
        "share it plays, given its randomness; win % given up: mean loss of win chance "
        "per decision (percentage points)." + (" Brackets: 95% Wilson interval." if sample else ""),
        "configs: "
        + "; ".join(
            f"{entry['preset']} = {entry['describe']} ({format_seconds(entry['time'])}, "
            f"{counted(entry['jobs'], 'job')})"
            for entry in report["presets"]
        ),
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m plyground.ai.compare.policy_agreement [presets] [sample] [jobs]`: the first game
    with a reference policy (the same as the bench command's policy study)."""
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
    "choice_probabilities",
    "choose_presets",
    "decision_states",
    "format_report",
    "noisy_agreement",
    "policy_games",
    "reference_for",
    "root_values",
    "sample_states",
    "score_preset",
]
