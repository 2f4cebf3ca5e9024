"""`bench`: search speed and AI game timings, a game's solver test sets (`--solver`), a
game's reference-policy study (`--policy`), and the window's frame times (`--gui`,
headless: gui.bench.frame_bench).  Which game offers which comes from the games' descriptions."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from plyground.cli.args import (
    UsageError,
    add_command,
    game_names,
    json_text,
    positive_int,
    seconds_arg,
    worker_count,
)
from plyground.cli.console import StepLog, console_for, print_table, say, table
from plyground.cli.output import output_file


def longest_game() -> str:
    """The registered game without chance whose seeded random games last longest (the memory
    run wants many moves a game)."""
    import random

    from plyground import games

    def plies(name: str) -> int:
        rng, state, count = random.Random(0), games.get_game(name).initial_state(), 0
        while not state.is_terminal() and count < 200:
            state = state.play(rng.choice(state.legal_moves()))
            count += 1
        return count

    fixed = [n for n, f in games.GAMES.items() if not getattr(f, "stochastic", False)]
    return max(fixed or list(games.GAMES), key=plies)


EXPERT_GAMES = 40
"""Games of `bench --expert`."""


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


def solver_benchmarks(
    args: argparse.Namespace,
    report: dict[str, Any],
    plan: tuple[tuple[str, int | None], ...],
    log: Callable[[str], None],
    reference: list[str] | None,
) -> None:
    """`bench --solver`: the solver test sets (and the reference command's run) into
    `report`, printed."""
    from plyground.ai.bench import searches as bench

    out = sys.stdout
    modes = ("score",) if args.score_only else bench.SOLVER_MODES
    engines = bench.SOLVER_ENGINES if args.engine == "both" else (args.engine,)
    if args.solver_file is not None:
        report["solver"] = [
            bench.solver_bench(
                Path(args.solver_file),
                limit=args.solver_limit,
                time_limit=args.solver_time,
                position_time=args.time_limit,
                modes=modes,
                log=log,
                engines=engines,
                reference_command=reference,
            )
        ]
    else:
        report["solver"] = bench.solver_suite(
            plan,
            position_time=args.time_limit,
            time_limit=args.solver_time,
            modes=modes,
            log=log,
            engines=engines,
            reference_command=reference,
        )
    out.write("\n".join(bench.format_solver_bench(report["solver"])) + "\n")
    status = bench.solver_engine_status()
    if status:
        out.write(f"solver: {status}\n")
        report["solver_engine"] = status


def expert_benchmark(
    report: dict[str, Any], count: int, check: bool, log: Callable[[str], None]
) -> None:
    """The strongest preset against itself (`ai.bench.expert`), printed and kept in `report`."""
    from plyground.ai.bench.expert import expert_bench, format_expert_bench

    report["expert"] = expert_bench(count, check=check, log=log)
    sys.stdout.write("\n".join(format_expert_bench(report["expert"])) + "\n")


def reference_command(text: str) -> list[str]:
    """The words of a --reference command, checked: a program that can be found."""
    import shlex
    import shutil

    try:
        words = shlex.split(text, posix=os.name != "nt")
    except ValueError as error:
        raise UsageError(f"--reference: {error}") from None
    if not words:
        raise UsageError("--reference: give a command, such as '/path/to/solver'")
    if shutil.which(words[0]) is None:
        raise UsageError(f"--reference: no program {words[0]!r} found")
    return words


def solver_plan(args: argparse.Namespace) -> tuple[tuple[str, int | None], ...]:
    """The (set, positions) list of `bench --solver`, checked: hard sets need --time-limit."""
    from plyground.ai.bench import searches as bench

    if args.solver_file is not None:
        if args.sets is not None:
            raise UsageError("--solver-file and --sets: give one or the other")
        check_solver_file(args.solver_file, args.solver_limit)
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


def check_solver_file(path: str, limit: int | None = None) -> int:
    """Read a --solver-file through: every line 'moves score', a legal game and a whole number.

    Only the first `limit` positions are read (all without one).  Returns the number of
    positions; anything else is one line naming the file, the line and the reason
    (UsageError).  The file goes through `plyground.file_reader` (a regular file of bounded
    size: /dev/zero or a FIFO is refused before it is read).
    """
    from plyground import games
    from plyground.ai.bench import searches as bench
    from plyground.file_reader import FileProblem, read_lines

    where = f"--solver-file {path}"
    if not Path(path).exists():
        raise UsageError(f"{where}: no such file")
    game_name, _ = bench.solver_benchmark()
    game = games.get_game(game_name)
    count = 0
    try:
        for number, line in enumerate(read_lines(path, bench.MAX_SOLVER_FILE, "file"), 1):
            count += _check_solver_line(game, where, number, line)
            if count == limit:
                break  # the rest of the file is never read
    except FileProblem as error:
        raise UsageError(f"--solver-file {error}") from None
    if count == 0:
        raise UsageError(f"{where}: no positions in it (expected 'moves score' lines)")
    return count


def _check_solver_line(game: Any, where: str, number: int, line: str) -> int:
    """1 for a good 'moves score' line, 0 for a blank one; UsageError naming the line else."""
    fields = line.split()
    if not fields:
        return 0
    shown = line.strip() if len(line.strip()) <= 40 else line.strip()[:37] + "..."
    if len(fields) != 2:
        raise UsageError(f"{where} line {number}: expected 'moves score', got {shown!r}")
    moves, score = fields
    digits = score.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        raise UsageError(f"{where} line {number}: the score {score[:20]!r} is not a whole number")
    try:
        state = game.replay(game.parse_moves(moves))
    except ValueError as error:
        raise UsageError(f"{where} line {number}: {error}") from None
    if state.is_terminal():
        raise UsageError(f"{where} line {number}: the game is over after {moves}: nothing to solve")
    return 1


def gui_bench(quick: bool, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Frame times of the window while two AIs play each game (`gui.bench.frame_bench.run`,
    headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from plyground.gui.bench import frame_bench
    except ImportError as error:
        raise UsageError(f"--gui: the GUI frame benchmark is not available ({error})") from None
    results = []
    for name in game_names():
        log(f"frame times: {name}")
        results.append(frame_bench.run(game=name, seed=0, max_seconds=15 if quick else 60))
    return results


def explorer_bench(quick: bool, log: Callable[[str], None]) -> dict[str, Any]:
    """Frame times of the search-tree explorer stepping a ~20,000-node trace (headless)."""
    from plyground.gui.explorer import bench as bench_module

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


def _solver_texts() -> dict[str, str]:
    """Help texts about the solver benchmark, from the game that offers one (if any)."""
    from plyground.ai.bench import searches as bench

    if not bench.solver_games():
        return {"title": "solver test sets (no registered game offers them)", "what": "", "ex": ""}
    game_name, benchmark = bench.solver_benchmark()
    names = [solver_set.name for solver_set in benchmark.sets]
    easy = [solver_set.name for solver_set in benchmark.sets if not solver_set.hard]
    hard = [solver_set.name for solver_set in benchmark.sets if solver_set.hard]
    plan = ", ".join(
        f"{'all' if count is None else f'the first {count}'} of {name}"
        for name, count in benchmark.default_plan
    )
    examples = [
        f"  plyground bench --solver                          # {game_name}, every default set",
        f"  plyground bench --solver --sets {','.join(easy[:2])} --limit 200",
    ]
    if hard:
        examples.append(f"  plyground bench --solver --sets {hard[0]} --limit 20 --time-limit 60")
    return {
        "title": f"{benchmark.title} (the {game_name} game's solver benchmark)",
        "what": f"With --solver: instead, {benchmark.title}: positions with known exact "
        f"scores, beside the {benchmark.reference_name} figures.",
        "default": f"default: {plan}",
        "sets": ", ".join(names)
        + " or 'all'"
        + (f" ({' and '.join(hard)} need --time-limit)" if hard else ""),
        "ex": "\n".join(examples),
    }


def _policy_texts() -> dict[str, str]:
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


def add_parser(commands: Any) -> None:
    """The `bench` subcommand's arguments."""
    solver, policy = _solver_texts(), _policy_texts()
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
{solver["ex"]}
{policy["ex"]}""",
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
        "--games",
        type=positive_int,
        metavar="N",
        help=f"games for --expert (default {EXPERT_GAMES}; plain bench: 4 unchecked)",
    )
    _add_solver_arguments(bench, solver)
    _add_policy_arguments(bench, policy)
    bench.set_defaults(handler=command_bench)


def _add_solver_arguments(bench: argparse.ArgumentParser, texts: dict[str, str]) -> None:
    """`bench --solver` and its options."""
    solver = bench.add_argument_group(texts["title"])
    solver.add_argument(
        "--solver",
        action="store_true",
        help="solve positions with known exact scores instead of the search benchmark "
        f"({texts.get('default', '')}; a few minutes)",
    )
    solver.add_argument(
        "--sets",
        metavar="NAMES",
        help=f"comma-separated sets: {texts.get('sets', '-')}",
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
        help="only the 'score only' row (the root's exact value, as the reference "
        "solver measures), not also 'score + move' (the search a player runs)",
    )
    solver.add_argument(
        "--engine",
        choices=("compiled", "python", "both"),
        default="both",
        help="which solver: the game's compiled engine, the pure-Python alpha-beta, or both "
        "side by side (default: both)",
    )
    solver.add_argument(
        "--solver-file",
        metavar="FILE",
        help="a file of 'moves score' lines instead of --sets",
    )
    solver.add_argument(
        "--reference",
        metavar="CMD",
        help="also time an external solver on the same positions in the same run: CMD reads "
        "one position (moves) a line on stdin and prints 'moves score' lines; its whole "
        "process is timed, and the ratio of our whole call to its time a position is printed",
    )
    solver.add_argument(
        "--solver-time",
        type=seconds_arg,
        metavar="SECONDS",
        help="stop each set (per mode) after this long (default: no limit)",
    )


def _add_policy_arguments(bench: argparse.ArgumentParser, texts: dict[str, str]) -> None:
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
