"""`bench --policy`: the arguments of a game's reference-policy study."""

from __future__ import annotations

import argparse

from plyground.cli.args import (
    positive_int,
)


def policy_texts() -> dict[str, str]:
    """Help texts about the reference-policy study, from the games that offer one."""
    from plyground import games
    from plyground.ai.compare import policy_agreement

    offered = policy_agreement.policy_games()
    if not offered:
        return {"games": "none", "what": "", "ex": ""}
    titles = ", ".join(f"{name} ({getattr(games.GAMES[name], 'title', name)})" for name in offered)
    return {
        "games": titles,
        "what": f"With --policy: instead, how often each preset's decision is the one of the "
        f"game's reference policy (games that offer one: {titles}).",
        "ex": f"  plyground bench --policy {offered[0]} --jobs 2"
        f"{' ' * max(1, 16 - len(offered[0]))}# {offered[0]} presets vs the reference policy",
    }


def add_policy_arguments(bench: argparse.ArgumentParser, texts: dict[str, str]) -> None:
    """`bench --policy` and its options."""
    from plyground.ai.compare import policy_agreement

    offered = policy_agreement.policy_games()
    group = bench.add_argument_group("presets against a game's reference policy")
    group.add_argument(
        "--policy",
        nargs="?",
        const=offered[0] if offered else None,
        choices=offered,
        metavar="GAME",
        help="how often each preset's decision matches the game's reference policy, over "
        f"every decision state (games that offer one: {texts['games']}; default the first)",
    )
    group.add_argument(
        "--presets",
        metavar="NAMES",
        help="comma-separated presets of that game (default: all of them)",
    )
    group.add_argument(
        "--sample",
        type=positive_int,
        metavar="N",
        help="a uniform random sample of N states (seed 0) instead of all of them",
    )
    group.add_argument(
        "--jobs", type=positive_int, metavar="N", help="worker processes (default 1)"
    )
