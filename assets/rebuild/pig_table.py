"""Rebuild the optimal Pig table: python assets/rebuild/pig_table.py [--goal 100] [--out PATH]."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# Run as a script from anywhere: make the project root importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from plyground.games.pig import optimal as pig_optimal


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        description="Solve Pig by value iteration and store the optimal table "
        "(win probabilities and roll/hold decisions) in the format games/pig/optimal.py loads.",
    )
    parser.add_argument("--goal", type=int, default=100, help="points needed to win (default 100)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output file (default assets/pig_optimal_<goal>.bin, which optimal_table() loads)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=1e-9,
        help="Bellman residual at which value iteration stops (default 1e-9)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write: exit 1 unless the existing file loads and matches a fresh solve",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Solve, then write (or with --check, compare against) the stored table."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.goal <= 1000:
        parser.error(f"--goal must be from 1 to 1000 (time grows as goal**3), got {args.goal}")
    if not args.tolerance > 0:
        parser.error(f"--tolerance must be > 0, got {args.tolerance}")
    out: Path = args.out if args.out is not None else pig_optimal.asset_path(args.goal)

    started = time.perf_counter()
    table = pig_optimal.solve(args.goal, args.tolerance)
    solved = time.perf_counter() - started
    start = table.win_probability(0, 0, 0)
    print(
        f"solved goal {args.goal} in {solved:.2f} s: P(0,0,0) = {start:.6f}, "
        f"hold at 0-0 from turn total {table.hold_threshold(0, 0)}"
    )

    if args.check:
        try:
            stored = pig_optimal.load(out, args.goal)
        except pig_optimal.PigTableError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        largest, decisions = stored.difference(table)
        if largest > 1e-9 or decisions:
            print(
                f"error: {out} differs from a fresh solve (probabilities by up to {largest:.2e}, "
                f"{decisions} decisions); rebuild it",
                file=sys.stderr,
            )
            return 1
        print(f"{out} matches a fresh solve (probabilities within {largest:.1e}, same decisions)")
        return 0

    data = table.to_bytes()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as error:
        print(f"error: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
