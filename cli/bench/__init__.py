"""`bench`: search speed and AI game timings, a game's solver test sets (`--solver`), the
strongest preset at play (`--expert`), a game's reference-policy study (`--policy`), and the
window's frame times (`--gui`, headless).  One module per benchmark beside this one; which
game offers which comes from the games' descriptions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from plyground.ai.textbook.counts import definitions_text
from plyground.cli.args import (
    UsageError,
    add_command,
    add_option_argument,
    game_from_args,
    json_text,
    positive_int,
    worker_count,
)
from plyground.cli.bench.expert import EXPERT_GAMES, expert_benchmark
from plyground.cli.bench.policy import add_policy_arguments, policy_texts
from plyground.cli.bench.solver import (
    add_solver_arguments,
    reference_command,
    solver_benchmarks,
    solver_plan,
    solver_texts,
)
from plyground.cli.bench.window import (
    explorer_bench,
    gui_bench,
    longest_game,
    print_explorer_bench,
    print_gui_bench,
)
from plyground.cli.console import StepLog
from plyground.cli.output import output_file


def command_bench(args: argparse.Namespace) -> int:
    """`bench`: search speed and AI game timings; or the solver / policy benchmarks alone."""
    from plyground.ai.bench import searches as bench

    json_file = output_file(args.json, "--json")
    solver_options = {
        "--solver-file": args.solver_file,
        "--sets": args.sets,
        "--limit": args.solver_limit,
        "--time-limit": args.time_limit,
        "--solver-time": args.solver_time,
        "--score-only": args.score_only or None,
        "--reference": args.reference,
    }
    for option, value in solver_options.items():
        if value is not None and not args.solver:
            raise UsageError(f"{option} needs --solver")
    if args.solver and args.policy is not None:
        raise UsageError("--solver and --policy are two benchmarks: run one at a time")
    policy_options = {"--presets": args.presets, "--sample": args.sample, "--jobs": args.jobs}
    for option, value in policy_options.items():
        if value is not None and args.policy is None:
            raise UsageError(f"{option} needs --policy")
    plan = solver_plan(args) if args.solver else ()
    reference = reference_command(args.reference) if args.reference is not None else None
    policy_presets = None
    if args.policy is not None:
        from plyground.ai.compare import policy_agreement

        try:
            policy_presets = policy_agreement.choose_presets(args.presets, args.policy)
        except ValueError as error:
            raise UsageError(f"--presets: {error}") from None
    out = sys.stdout
    report: dict[str, Any] = {"machine": bench.machine_description(), "quick": args.quick}
    out.write(bench.format_machine(report["machine"]) + "\n\n")
    steps = StepLog(enabled=not args.quiet)
    try:
        if args.expert:
            expert_benchmark(report, args.games or EXPERT_GAMES, True, steps)
        elif args.levels:
            from plyground.ai.bench import levels

            specs = [args.game] if args.game is not None else None
            report["levels"] = levels.levels_bench(quick=args.quick, log=steps, specs=specs)
            out.write("\n".join(levels.format_levels_bench(report["levels"])) + "\n")
        elif args.mcts:
            from plyground.ai.bench import monte_carlo

            report["mcts"] = monte_carlo.mcts_bench(quick=args.quick, log=steps)
            out.write("\n".join(monte_carlo.format_mcts_bench(report["mcts"])) + "\n")
        elif args.frameworks:
            from plyground.ai.bench import frameworks

            report["frameworks"] = frameworks.frameworks_bench(quick=args.quick, log=steps)
            out.write("\n".join(frameworks.format_frameworks_bench(report["frameworks"])) + "\n")
        else:
            run_benchmarks(args, report, plan, policy_presets, steps, reference)
    finally:
        steps.close()
    if json_file is not None:
        if not json_file.write_text_or_show(json_text(report), "the results as JSON"):
            return 2
        out.write(f"\nResults written to {args.json}\n")
    return 0


def run_benchmarks(
    args: argparse.Namespace,
    report: dict[str, Any],
    plan: tuple[tuple[str, int | None], ...],
    policy_presets: Any,
    log: Callable[[str], None],
    reference: list[str] | None = None,
) -> None:
    """Run the chosen benchmarks into `report`, printing each one's tables as it finishes
    (`reference`: an external solver's command, timed on the solver sets' positions)."""
    from plyground.ai.bench import searches as bench

    out = sys.stdout
    if args.game is not None:  # one game (a game from a file too): its searches and games
        game, options = game_from_args(args)
        positions = bench.positions_of(game.name, options)
        report["searches"] = bench.search_bench(quick=args.quick, log=log, positions=positions)
        out.write("\n".join(bench.format_search_bench(report["searches"])) + "\n\n")
        report["games"] = bench.game_bench(
            quick=args.quick, log=log, names=[game.name], options_of={game.name: options}
        )
        out.write("\n".join(bench.format_game_bench(report["games"])) + "\n")
        return
    if not args.solver and args.policy is None:
        report["searches"] = bench.search_bench(quick=args.quick, log=log)
        out.write("\n".join(bench.format_search_bench(report["searches"])) + "\n\n")
        report["games"] = bench.game_bench(quick=args.quick, log=log)
        out.write("\n".join(bench.format_game_bench(report["games"])) + "\n")
        if bench.solver_games():  # the strongest preset's move times, a few games unchecked
            out.write("\n")
            expert_benchmark(report, args.games or (1 if args.quick else 4), False, log)
    if args.gui:
        report["gui"] = gui_bench(quick=args.quick, log=log)
        out.write("\n")
        print_gui_bench(report["gui"], out)
        report["explorer"] = explorer_bench(quick=args.quick, log=log)
        print_explorer_bench(report["explorer"], out)
        from plyground.gui.bench import frame_bench

        log("the window at rest: menu and still board")
        report["gui_idle"] = frame_bench.idle_run(seconds=3 if args.quick else 10)
        out.write("\n" + "\n".join(frame_bench.format_idle(report["gui_idle"])) + "\n")
        long_game = longest_game()
        seconds = 120 if args.quick else 600
        with frame_bench.ending_on_signals():  # SIGTERM and Ctrl+C end it (SDL's display up)
            report["gui_memory"] = frame_bench.memory_run(long_game, seconds=seconds, log=log)
        out.write("\n" + "\n".join(frame_bench.format_memory(report["gui_memory"])) + "\n")
    if args.solver:
        solver_benchmarks(args, report, plan, log, reference)
    if policy_presets is not None:
        from plyground.ai.compare import policy_agreement

        report["policy"] = policy_agreement.agreement_report(
            policy_presets,
            sample=args.sample,
            jobs=worker_count(args.jobs or 1, args.sample or 10**6),
            game_name=args.policy,
            log=log,
        )
        if args.solver:
            out.write("\n")
        out.write("\n".join(policy_agreement.format_report(report["policy"])) + "\n")


def add_parser(commands: Any) -> None:
    """The `bench` subcommand's arguments."""
    solver, policy = solver_texts(), policy_texts()
    bench = add_command(
        commands,
        "bench",
        "measure the search engine",
        "Time every algorithm at each depth on fixed positions of every game "
        "(nodes, time, nodes/s, alpha-beta's nodes as a share of minimax's, effective "
        "branching factor, time to reach each depth), and a complete AI-vs-AI game per "
        f"difficulty.  {solver['what']}  {policy['what']}",
        f"""examples:
  plyground bench --quick
  plyground bench --json bench.json
  plyground bench --quick --gui                     # also the window's frame times (headless)
  plyground bench --frameworks                      # aima-python's and easyAI's games, side by side
  plyground bench --levels                          # each preset's move time on those games
  plyground bench --mcts                            # MCTS, beside OpenSpiel's where installed
  plyground bench --quick --game my_game.py         # a game of your own
{solver["ex"]}
{policy["ex"]}

{definitions_text()}""",
    )
    bench.add_argument(
        "--quick", action="store_true", help="smaller depths and fewer games (about a minute)"
    )
    bench.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    bench.add_argument(
        "--gui",
        action="store_true",
        help="also measure the window's frame times (gui.bench.frame_bench)",
    )
    bench.add_argument("--quiet", action="store_true", help="no progress on stderr")
    bench.add_argument(
        "--expert",
        action="store_true",
        help="only the strongest preset against itself in seeded games of the game with a "
        "solver: move time by stones, and every move checked with the solver",
    )
    bench.add_argument(
        "--game",
        metavar="GAME",
        help="only this game's searches and AI games (a built-in one, or FILE.py[:CLASS] / "
        "MODULE:CLASS for a game of your own)",
    )
    add_option_argument(bench)
    bench.add_argument(
        "--frameworks",
        action="store_true",
        help="only games of aima-python and easyAI (where installed), each searched by the "
        "framework's own search and by Plyground's, side by side at the same depth",
    )
    bench.add_argument(
        "--levels",
        action="store_true",
        help="only the derived presets of aima-python's and easyAI's games (where installed; "
        "--game: one game): each preset's move time, median and longest, and its depth",
    )
    bench.add_argument(
        "--mcts",
        action="store_true",
        help="only Monte Carlo tree search's iterations a second on each game, beside "
        "OpenSpiel's MCTSBot (random rollouts) where OpenSpiel is installed",
    )
    bench.add_argument(
        "--games",
        type=positive_int,
        metavar="N",
        help=f"games for --expert (default {EXPERT_GAMES}; plain bench: 4 unchecked)",
    )
    add_solver_arguments(bench, solver)
    add_policy_arguments(bench, policy)
    bench.set_defaults(handler=command_bench)
