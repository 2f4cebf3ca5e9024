"""`bench`: search speed and AI game timings, the connect-four solver, the Pig policy, and
the window's frame times (`--gui`, headless: gui.frame_bench)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from cli.args import (
    UsageError,
    add_command,
    game_names,
    open_output,
    positive_int,
    seconds_arg,
    write_json,
)
from cli.console import StepLog, console_for, print_table, say, table


def command_bench(args: argparse.Namespace) -> int:
    """`bench`: search speed and AI game timings; or the solver / Pig policy benchmarks alone."""
    from ai import bench

    json_file = open_output(args.json, "--json") if args.json else None
    solver_options = {
        "--solver-file": args.solver_file,
        "--sets": args.sets,
        "--limit": args.solver_limit,
        "--time-limit": args.time_limit,
        "--solver-time": args.solver_time,
        "--score-only": args.score_only or None,
    }
    for option, value in solver_options.items():
        if value is not None and not args.solver:
            raise UsageError(f"{option} needs --solver")
    pig_options = {"--presets": args.presets, "--sample": args.sample, "--jobs": args.jobs}
    for option, value in pig_options.items():
        if value is not None and not args.pig_policy:
            raise UsageError(f"{option} needs --pig-policy")
    plan = solver_plan(args) if args.solver else ()
    pig_presets = None
    if args.pig_policy:
        from ai import policy_agreement

        try:
            pig_presets = policy_agreement.choose_presets(args.presets)
        except ValueError as error:
            raise UsageError(f"--presets: {error}") from None
    out = sys.stdout
    report: dict[str, Any] = {"machine": bench.machine_description(), "quick": args.quick}
    out.write(bench.format_machine(report["machine"]) + "\n\n")
    steps = StepLog(enabled=not args.quiet)
    try:
        run_benchmarks(args, report, plan, pig_presets, steps)
    finally:
        steps.close()
    if json_file is not None:
        write_json(json_file, report)
        out.write(f"\nResults written to {args.json}\n")
    return 0


def run_benchmarks(
    args: argparse.Namespace,
    report: dict[str, Any],
    plan: tuple[tuple[str, int | None], ...],
    pig_presets: Any,
    log: Callable[[str], None],
) -> None:
    """Run the chosen benchmarks into `report`, printing each one's tables as it finishes."""
    from ai import bench

    out = sys.stdout
    if not args.solver and not args.pig_policy:
        report["searches"] = bench.search_bench(quick=args.quick, log=log)
        out.write("\n".join(bench.format_search_bench(report["searches"])) + "\n\n")
        report["games"] = bench.game_bench(quick=args.quick, log=log)
        out.write("\n".join(bench.format_game_bench(report["games"])) + "\n")
    if args.gui:
        report["gui"] = gui_bench(quick=args.quick, log=log)
        out.write("\n")
        print_gui_bench(report["gui"], out)
        report["explorer"] = explorer_bench(quick=args.quick, log=log)
        print_explorer_bench(report["explorer"], out)
    if args.solver:
        modes = ("score",) if args.score_only else bench.SOLVER_MODES
        if args.solver_file is not None:
            report["solver"] = [
                bench.solver_bench(
                    Path(args.solver_file),
                    limit=args.solver_limit,
                    time_limit=args.solver_time,
                    position_time=args.time_limit,
                    modes=modes,
                    log=log,
                )
            ]
        else:
            report["solver"] = bench.solver_suite(
                plan,
                position_time=args.time_limit,
                time_limit=args.solver_time,
                modes=modes,
                log=log,
            )
        out.write("\n".join(bench.format_solver_bench(report["solver"])) + "\n")
    if pig_presets is not None:
        from ai import policy_agreement

        report["pig_policy"] = policy_agreement.agreement_report(
            pig_presets, sample=args.sample, jobs=args.jobs or 1, log=log
        )
        if args.solver:
            out.write("\n")
        out.write("\n".join(policy_agreement.format_report(report["pig_policy"])) + "\n")


def solver_plan(args: argparse.Namespace) -> tuple[tuple[str, int | None], ...]:
    """The (set, positions) list of `bench --solver`, checked: hard sets need --time-limit."""
    from ai import bench

    if args.solver_file is not None:
        if args.sets is not None:
            raise UsageError("--solver-file and --sets: give one or the other")
        if not Path(args.solver_file).is_file():
            raise UsageError(f"--solver-file {args.solver_file}: no such file")
        return ()
    if args.sets is None:
        if args.solver_limit is None:
            return bench.DEFAULT_SOLVER_PLAN
        return tuple((name, args.solver_limit) for name, _ in bench.DEFAULT_SOLVER_PLAN)
    names = [name.strip() for name in args.sets.split(",") if name.strip()]
    if [name.lower() for name in names] == ["all"]:
        names = list(bench.SOLVER_SETS)
    if not names:
        raise UsageError("--sets: give set names such as L3_R1,L2_R1")
    plan = []
    for name in names:
        try:
            short = bench.solver_set_path(name).stem.removeprefix("Test_")
        except ValueError as error:
            raise UsageError(f"--sets: {error}") from None
        if short in bench.HARD_SOLVER_SETS and args.time_limit is None:
            raise UsageError(
                f"--sets {short}: this set takes minutes per position in Python; "
                "give --time-limit SECONDS (per position)"
            )
        plan.append((short, args.solver_limit))
    return tuple(plan)


def gui_bench(quick: bool, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Frame times of the window while two AIs play each game (`gui.frame_bench.run`, headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from gui import frame_bench
    except ImportError as error:
        raise UsageError(f"--gui: the GUI frame benchmark is not available ({error})") from None
    results = []
    for name in game_names():
        log(f"frame times: {name}")
        results.append(frame_bench.run(game=name, seed=0, max_seconds=15 if quick else 60))
    return results


def explorer_bench(quick: bool, log: Callable[[str], None]) -> dict[str, Any]:
    """Frame times of the search-tree explorer stepping a ~20,000-node trace (headless)."""
    from gui import explorer_bench as bench_module

    log("frame times: the explorer stepping a big trace")
    return bench_module.run(frames=120 if quick else 300)


def print_explorer_bench(result: dict[str, Any], out: IO[str]) -> None:
    """One line: the explorer's frame times (the issue's bar: p95 under 16 ms)."""
    console = console_for(out)
    if "error" in result:
        say(console, f"Explorer frame times: not measured ({result['error']})")
        return
    say(
        console,
        f"Explorer frame times while stepping a {result['nodes']:,}-node trace: "
        f"median {result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
        f"worst {result['worst_ms']:.1f} ms over {result['frames']} frames",
    )


def print_gui_bench(results: Sequence[dict[str, Any]], out: IO[str]) -> None:
    """Frame-time statistics (milliseconds) as a table."""
    rows = [
        [
            result["game"],
            result["frames"],
            f"{result['median_ms']:.1f}",
            f"{result['p95_ms']:.1f}",
            f"{result['worst_ms']:.1f}",
            f"{result['thinking_p95_ms']:.1f}",
            f"{result['fps']:.0f}",
            "yes" if result["finished"] else "no",
        ]
        for result in results
    ]
    headers = [
        "game",
        "frames",
        "median ms",
        "p95 ms",
        "worst ms",
        "p95 thinking",
        "fps",
        "game over",
    ]
    console = console_for(out)
    say(console, "Window frame times while two AIs play (headless, 60 fps pacing):")
    print_table(console, table(headers, rows, right=(1, 2, 3, 4, 5, 6)))


def add_parser(commands: Any) -> None:
    """The `bench` subcommand's arguments."""
    bench = add_command(
        commands,
        "bench",
        "measure the search engine",
        (
            "Time every algorithm at each depth on fixed positions of every game "
            "(nodes, time, nodes/s, alpha-beta's nodes as a share of minimax's, effective "
            "branching factor, time to reach each depth), and a complete AI-vs-AI game per "
            "difficulty.  With --solver: instead, solve connect-four positions with known "
            "exact scores (Pascal Pons' test sets) beside his published node counts.  With "
            "--pig-policy: instead, how often each Pig preset's roll/hold decision is the "
            "optimal one."
        ),
        """examples:
  plyground bench --quick
  plyground bench --json bench.json
  plyground bench --quick --gui                     # also the window's frame times (headless)
  plyground bench --solver                          # connect-four solver, Pons' sets (minutes)
  plyground bench --solver --sets L3_R1,L2_R1 --limit 200
  plyground bench --solver --sets L1_R2 --limit 20 --time-limit 60
  plyground bench --pig-policy --jobs 2             # Pig presets vs the optimal decisions""",
    )
    bench.add_argument(
        "--quick", action="store_true", help="smaller depths and fewer games (about a minute)"
    )
    bench.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    bench.add_argument(
        "--gui", action="store_true", help="also measure the window's frame times (gui.frame_bench)"
    )
    bench.add_argument("--quiet", action="store_true", help="no progress on stderr")
    _add_solver_arguments(bench)
    _add_policy_arguments(bench)
    bench.set_defaults(handler=command_bench)


def _add_solver_arguments(bench: argparse.ArgumentParser) -> None:
    """`bench --solver` and its options."""
    solver = bench.add_argument_group(
        "connect-four solver (Pascal Pons' test sets, tests/data/connect4)"
    )
    solver.add_argument(
        "--solver",
        action="store_true",
        help="solve positions with known exact scores instead of the search benchmark "
        "(default: all of L3_R1 and L2_R1, the first 100 of L2_R2 and 200 of L1_R1; "
        "a few minutes)",
    )
    solver.add_argument(
        "--sets",
        metavar="NAMES",
        help="comma-separated sets: L3_R1, L2_R1, L2_R2, L1_R1, L1_R2, L1_R3 or 'all' "
        "(L1_R2 and L1_R3 need --time-limit)",
    )
    solver.add_argument(
        "--limit",
        "--solver-limit",
        dest="solver_limit",
        type=positive_int,
        metavar="N",
        help="solve the first N positions of each set (default: all, or the default plan)",
    )
    solver.add_argument(
        "--time-limit",
        type=seconds_arg,
        metavar="SECONDS",
        help="give up on a position after this long and count it unsolved",
    )
    solver.add_argument(
        "--score-only",
        action="store_true",
        help="only the 'score only' row (the root's exact value, as Pons measures), "
        "not also 'score + move' (the search a player runs)",
    )
    solver.add_argument(
        "--solver-file",
        metavar="FILE",
        help="a file of 'moves score' lines instead of --sets",
    )
    solver.add_argument(
        "--solver-time",
        type=seconds_arg,
        metavar="SECONDS",
        help="stop each set (per mode) after this long (default: no limit)",
    )


def _add_policy_arguments(bench: argparse.ArgumentParser) -> None:
    """`bench --pig-policy` and its options."""
    pig = bench.add_argument_group("Pig presets against the optimal policy")
    pig.add_argument(
        "--pig-policy",
        action="store_true",
        help="how often each Pig preset's roll/hold decision matches the optimal one, "
        "over every decision state at goal 100 (505,000)",
    )
    pig.add_argument(
        "--presets",
        metavar="NAMES",
        help="comma-separated Pig presets (default: all of ai.DIFFICULTIES['pig'])",
    )
    pig.add_argument(
        "--sample",
        type=positive_int,
        metavar="N",
        help="a uniform random sample of N states (seed 0) instead of all of them",
    )
    pig.add_argument("--jobs", type=positive_int, metavar="N", help="worker processes (default 1)")
