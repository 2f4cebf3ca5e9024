"""Difficulty presets: named, visible player configs for each game, easiest first.

Each preset is plain data (see `PlayerConfig`), shown in the set-up screen and editable
there.  The ladder is a promise, checked by tests/test_ladder.py and reported by the
tournament command: every preset beats the one below it.
"""

from __future__ import annotations

from typing import Any

from ai.players import RANDOM, PlayerConfig
from ai.search import ALGORITHMS, MAX_DEPTH

DIFFICULTIES: dict[str, dict[str, PlayerConfig]] = {
    # Tic-tac-toe.  Easy looks one move ahead with so much noise (randomness 1 against
    # values below 1) that it misses wins and blocks; Medium looks two moves ahead, so it
    # takes wins and blocks threats (proven values outweigh its noise) but falls for forks;
    # Hard looks four moves ahead, enough to see every fork: it never loses (checked for
    # every line of play in tests/test_ladder.py); Expert solves the game.  Hard and Expert
    # draw each other, so at the top the promise is "never loses".
    "tictactoe": {
        "Easy": PlayerConfig("alphabeta", depth=1, heuristic="lines", randomness=1.0),
        "Medium": PlayerConfig("alphabeta", depth=2, heuristic="lines", randomness=0.5),
        "Hard": PlayerConfig("alphabeta", depth=4, heuristic="lines"),
        "Expert": PlayerConfig("alphabeta", depth=None, heuristic="lines"),
    },
    # Connect-four.  Depth is the main step: 2 and 4 with the quick "windows" count (and
    # a little noise), 6 with "threats" (which squares would complete four, and whose row
    # parity they favour).  Expert deepens iteratively within 1.5 s, so it solves exactly
    # from the late middle game on; before that it plays the deepest finished iteration
    # (9-10 plies from the opening on this 2-core machine).  Hard stops at depth 6,
    # well short of that: at depth 8 Hard scored as much as Expert over 40 games on a busy
    # machine, where the budget buys Expert little more than 8 plies.  1.5 s leaves room
    # for the overshoot of the last iteration under a 2 s worst move (1.6 s at worst,
    # over its 120 games of the ladder in docs/RESULTS.md).
    "connect4": {
        "Easy": PlayerConfig("alphabeta", depth=2, heuristic="windows", randomness=0.3),
        "Medium": PlayerConfig("alphabeta", depth=4, heuristic="windows", randomness=0.05),
        "Hard": PlayerConfig("alphabeta", depth=6, heuristic="threats"),
        "Expert": PlayerConfig("alphabeta", depth=None, heuristic="threats", time_limit=1.5),
    },
    # Pig.  With the "score" heuristic one roll ahead the search holds once the turn total
    # passes 20 (rolling gains (20 - t) / 6 / goal in expectation): hold at 20, the classic
    # rule of thumb (at exactly 20 the two tie and the seeded tie-break decides).
    # Roll-or-hold values differ by a few hundredths here, so randomness 0.2 makes Easy
    # roll or hold almost at random and 0.02 makes Medium misjudge close calls.  Hard
    # looks two decisions ahead; Expert reads the exact optimal policy.  Measured over
    # 1000 games, Expert wins about 56% against Hard; deeper searches gain little (depth
    # 3 wins 45-47% against Expert), so Hard stays at depth 2, where the gap to Expert
    # shows within a thousand games and every move is instant.
    "pig": {
        "Easy": PlayerConfig("expectiminimax", depth=1, heuristic="score", randomness=0.2),
        "Medium": PlayerConfig("expectiminimax", depth=1, heuristic="score", randomness=0.02),
        "Hard": PlayerConfig("expectiminimax", depth=2, heuristic="score"),
        "Expert": PlayerConfig("expectiminimax", depth=1, heuristic="optimal"),
    },
}
"""{game name: {preset name: config}}, easiest first.  Measured ladders: docs/RESULTS.md."""

PRESET_BLURBS = {
    "Easy": "Looks a move or two ahead and often plays a loose move.",
    "Medium": "Looks a little further ahead; sometimes misjudges or falls for a trap.",
    "Hard": "Searches deeper and never picks a move at random; in tic-tac-toe it never loses.",
    "Expert": "The strongest play we compute: perfect in tic-tac-toe and Pig; in "
    "connect-four it plays exactly once it can solve the position within 1.5 s.",
}
"""One line per preset for the set-up screen, true of every game."""


def get_preset(game_name: str, name: str) -> PlayerConfig:
    """A game's preset by name, case-insensitive; ValueError names the presets."""
    presets = DIFFICULTIES.get(game_name)
    if presets is None:
        raise ValueError(f"no presets for game {game_name!r}; games: {', '.join(DIFFICULTIES)}")
    for preset, config in presets.items():
        if preset.lower() == name.strip().lower():
            return config
    raise ValueError(
        f"unknown preset {name!r} for {game_name}; choose one of: {', '.join(presets)}"
    )


def _number(key: str, text: str, kind: type) -> Any:
    """Parse one numeric field of a player spec, with a message naming the field."""
    try:
        return kind(text)
    except ValueError:
        raise ValueError(
            f"{key} must be a {'whole ' if kind is int else ''}number, not {text!r}"
        ) from None


def parse_player_spec(game_name: str, text: str, game: Any = None) -> PlayerConfig:
    """A preset name, `random`, or `algorithm:key=value:...` parsed into a config.

    Keys: depth, heuristic, time, randomness, seed.

    Examples: `hard`, `alphabeta:depth=4:heuristic=windows`, `expectiminimax:depth=2`,
    `alphabeta:depth=none:time=2`.
    """
    spec = text.strip()
    if not spec:
        raise ValueError("empty player; give a preset name or algorithm:key=value:...")
    head, *pairs = spec.split(":")
    head = head.strip().lower()
    if head == RANDOM and not pairs:
        return PlayerConfig(RANDOM, depth=None)
    if head not in (*ALGORITHMS, RANDOM):
        if pairs:
            raise ValueError(
                f"unknown algorithm {head!r}; choose one of: {', '.join((*ALGORITHMS, RANDOM))}"
            )
        try:
            return get_preset(game_name, head)
        except ValueError:
            presets = ", ".join(name.lower() for name in DIFFICULTIES.get(game_name, {}))
            raise ValueError(
                f"unknown player {text!r}; use a preset ({presets}), random, or "
                f"algorithm:key=value:... with algorithm one of {', '.join(ALGORITHMS)}"
            ) from None
    fields: dict[str, Any] = {"algorithm": head}
    if head == "expectiminimax":
        fields["depth"] = 2
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not value:
            raise ValueError(f"expected key=value in player spec, not {pair!r}")
        if key == "depth":
            fields["depth"] = (
                None if value.lower() in ("none", "max", "unlimited") else _number(key, value, int)
            )
            if fields["depth"] is not None and not 1 <= fields["depth"] <= MAX_DEPTH:
                raise ValueError(f"depth must be 1 to {MAX_DEPTH} or none, not {value}")
        elif key == "heuristic":
            fields["heuristic"] = value
        elif key in ("time", "time_limit"):
            fields["time_limit"] = _number(key, value, float)
        elif key == "randomness":
            fields["randomness"] = _number(key, value, float)
        elif key == "seed":
            fields["seed"] = _number(key, value, int)
        else:
            raise ValueError(
                f"unknown player setting {key!r}; use depth, heuristic, time, randomness, seed"
            )
    config = PlayerConfig(**fields)
    config.validate(game)
    return config
