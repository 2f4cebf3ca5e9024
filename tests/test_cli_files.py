"""Every output and input file a command is given gets a clear refusal.

One line on stderr naming the file and the reason, exit status 2, nothing half-written;
results computed before a file fails are printed instead of lost.  The tests run as root,
so an unwritable place is a path under a regular file, /proc, or a name too long; a full
disk is /dev/full (skipped where the platform lacks it).  Also: cli/ names no game.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import main
from plyground import games
from plyground.cli import output
from plyground.cli.output import OutputError, OutputFile, reason

ROOT = Path(__file__).resolve().parent.parent
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(
    not FULL.exists() or not stat.S_ISCHR(FULL.stat().st_mode), reason="no /dev/full here"
)
needs_proc = pytest.mark.skipif(not Path("/proc/1").is_dir(), reason="no /proc here")
TOO_LONG = "x" * 300


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """main.main(argv) with its exit status and captured output."""
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(err: str, path: object, words: str) -> None:
    """One stderr line naming the file and the reason, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert f"cannot write {path}" in lines[0] or f"{path}" in lines[0], lines[0]
    assert words in lines[0], lines[0]


@pytest.fixture
def full_png(tmp_path: Path) -> Path:
    """A .png name that leads to /dev/full (as a --plot or --out name must end in .png)."""
    if not FULL.exists():
        pytest.skip("no /dev/full here")
    link = tmp_path / "full.png"
    link.symlink_to(FULL)
    return link


def unwritable(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Paths no one can write, even root: (path, the reason given)."""
    a_file = tmp_path / "file"
    a_file.write_text("a regular file\n")
    folder = tmp_path / "folder.png"
    folder.mkdir()
    return {
        "under a file": (a_file / "x.png", "a part of the path is a file, not a folder"),
        "no folder": (tmp_path / "missing" / "x.png", "the folder does not exist"),
        "too long": (tmp_path / f"{TOO_LONG}.png", "the name is too long"),
        "a folder": (folder, "it is a folder"),
    }


MATCH = ["match", "--game", "tictactoe", "--p1", "easy", "--p2", "random", "--games", "3"]
TOURNAMENT = ["tournament", "--game", "tictactoe", "--players", "easy,random", "--games", "2"]
SOLVER = ["bench", "--solver", "--sets", "L3_R1", "--limit", "1", "--quiet"]


# --------------------------------------------------------------------------- a full disk


@needs_dev_full
def test_match_json_to_a_full_disk_prints_the_results_instead(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, *MATCH, "--quiet", "--json", str(FULL))
    assert status == 2
    refused(err, FULL, "the disk is full")
    assert "follow on standard output" in err
    table, _, rest = out.partition("\n{")
    assert "A scores" in table
    data = json.loads("{" + rest)
    assert data["games"] == 3 and len(data["games_played"]) == 3
    assert stat.S_ISCHR(FULL.stat().st_mode)  # the device is still a device


@needs_dev_full
def test_match_record_to_a_full_disk_prints_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *MATCH, "--quiet", "--record", str(FULL))
    assert status == 2
    refused(err, FULL, "the disk is full")
    moves = [line for line in out.splitlines() if re.fullmatch(r"[1-9]{5,9}", line)]
    assert len(moves) == 3
    assert "written to" not in out


@needs_dev_full
def test_tournament_json_to_a_full_disk(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *TOURNAMENT, "--quiet", "--json", str(FULL))
    assert status == 2
    refused(err, FULL, "the disk is full")
    assert "Ranking" in out
    assert json.loads("{" + out.partition("\n{")[2])["games_per_pair"] == 2


@pytest.mark.slow
@needs_dev_full
def test_bench_solver_json_to_a_full_disk(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *SOLVER, "--json", str(FULL))
    assert status == 2
    refused(err, FULL, "the disk is full")
    data = json.loads("{" + out.partition("\n{")[2])
    assert [report["set"] for report in data["solver"]] == ["L3_R1"]


def test_tournament_plot_to_a_full_disk(capsys: pytest.CaptureFixture[str], full_png: Path) -> None:
    status, out, err = run(capsys, *TOURNAMENT, "--quiet", "--plot", str(full_png))
    assert status == 2
    refused(err, full_png, "the disk is full")
    assert "Ranking" in out and "Chart written" not in out
    assert full_png.is_symlink() and stat.S_ISCHR(full_png.stat().st_mode)


def test_screenshot_to_a_full_disk(capsys: pytest.CaptureFixture[str], full_png: Path) -> None:
    status, out, err = run(
        capsys, "screenshot", "--scene", "menu", "--game", "tictactoe", "--out", str(full_png)
    )
    assert (status, out) == (2, "")
    refused(err, full_png, "the disk is full")
    assert full_png.is_symlink() and stat.S_ISCHR(full_png.stat().st_mode)


@needs_dev_full
def test_a_full_disk_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PLYGROUND_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *MATCH, "--quiet", "--json", str(FULL)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert completed.returncode == 2
    refused(completed.stderr, FULL, "the disk is full")


# --------------------------------------------------------------------------- unwritable paths


@pytest.mark.parametrize("case", ["under a file", "no folder", "too long", "a folder"])
def test_an_unwritable_output_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    path, words = unwritable(tmp_path)[case]
    json_path = path.with_suffix(".json") if case != "a folder" else path
    for argv in (
        [*MATCH, "--json", str(json_path)],
        [*MATCH, "--record", str(json_path)],
        [*TOURNAMENT, "--json", str(json_path)],
        [*TOURNAMENT, "--plot", str(path)],
        [*SOLVER, "--json", str(json_path)],
        ["screenshot", "--scene", "menu", "--game", "tictactoe", "--out", str(path)],
        [
            "compare",
            "--game",
            "tictactoe",
            "--moves",
            "1524",
            "--depth",
            "1",
            "--json",
            str(json_path),
        ],
        ["compare", "--game", "tictactoe", "--moves", "1524", "--depth", "1", "--plot", str(path)],
        ["policy", "--game", "pig", "--plot", str(path)],
    ):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, ""), argv
        refused(err, json_path if "--plot" not in argv and "--out" not in argv else path, words)


@needs_proc
def test_screenshot_into_proc_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "screenshot", "--scene", "menu", "--game", "tictactoe", "--out", "/proc/1/a.png"
    )
    assert (status, out) == (2, "")
    refused(err, "/proc/1/a.png", "--out: cannot write")


def test_a_good_output_is_written_whole_and_nothing_else_is_left(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "match.json"
    target.write_text("old results\n")
    target.chmod(0o640)
    status, _out, err = run(capsys, *MATCH, "--quiet", "--json", str(target))
    assert status == 0, err
    assert json.loads(target.read_text())["games"] == 3
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["match.json"]


# --------------------------------------------------------------------------- cli.output


def test_every_errno_reads_in_plain_words() -> None:
    cases = {
        errno.ENOSPC: "the disk is full",
        errno.EACCES: "permission denied",
        errno.ENOENT: "the folder does not exist",
        errno.ENAMETOOLONG: "the name is too long for this system",
        errno.EISDIR: "it is a folder",
        errno.EROFS: "the file system is read-only",
        errno.ENOTDIR: "a part of the path is a file, not a folder",
    }
    for number, words in cases.items():
        assert reason(OSError(number, os.strerror(number))) == words
    assert reason(OSError(errno.ENOLINK, "Link has been severed")) == "link has been severed"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    target.write_text("the old results\n")

    def half_then_full(path: str) -> None:
        Path(path).write_text("{half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OutputError, match=r"--json: cannot write .*results.json: the disk is full"):
        OutputFile(str(target), "--json").write_with(half_then_full)
    assert target.read_text() == "the old results\n"
    assert [path.name for path in tmp_path.iterdir()] == ["results.json"]


def test_a_read_only_file_system_is_refused_at_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(output.tempfile, "mkstemp", read_only)
    with pytest.raises(OutputError, match="the file system is read-only"):
        OutputFile(str(tmp_path / "x.json"), "--json").check()


def test_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        OutputFile(str(tmp_path / "new.txt"), "--record").write_text("1234\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    assert (tmp_path / "new.txt").read_text() == "1234\n"


def test_a_library_error_while_writing_is_one_line(tmp_path: Path) -> None:
    class DrawError(Exception):
        pass

    def fail(path: str) -> None:
        raise DrawError("Couldn't save the image")

    with pytest.raises(OutputError, match=r"--plot: cannot write .*: couldn't save the image"):
        OutputFile(str(tmp_path / "x.png"), "--plot").write_with(fail, (DrawError,))
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- input files


def solver_file_cases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Bad --solver-file contents: (path, the reason given)."""
    cases: dict[str, tuple[bytes | None, str]] = {
        "garbage": (b"abc\n", "expected 'moves score'"),
        "too many fields": (b"4453 2 7\n", "expected 'moves score'"),
        "not a number": (b"4453 x\n", "'x' is not a whole number"),
        "illegal move": (b"44444444 3\n", "move 7"),
        "not a move": (b"44z53 3\n", "z"),
        "not utf-8": (b"\xff\xfe 3\n", "not a text file"),
        "game over": (b"1212121 0\n", "the game is over after 1212121"),
        "empty": (b"\n\n", "no positions"),
    }
    found = {}
    for name, (content, words) in cases.items():
        path = tmp_path / f"{name.replace(' ', '-')}.txt"
        path.write_bytes(content or b"")
        found[name] = (path, words)
    found["a folder"] = (tmp_path, "is a folder")
    found["missing"] = (tmp_path / "missing.txt", "no such file")
    return found


def test_a_bad_solver_file_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, (path, words) in solver_file_cases(tmp_path).items():
        status, out, err = run(capsys, "bench", "--solver", "--solver-file", str(path))
        assert (status, out) == (2, ""), name
        lines = err.strip().splitlines()
        assert len(lines) == 1, (name, err)
        assert f"--solver-file {path}" in lines[0] and words in lines[0], (name, lines[0])


@pytest.mark.slow
def test_a_good_solver_file_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from plyground.ai.bench import searches as bench

    source = bench.solver_set_path("L3_R1")
    path = tmp_path / "two.txt"
    path.write_text("\n".join(source.read_text().splitlines()[:2]) + "\n")
    status, out, err = run(capsys, "bench", "--solver", "--solver-file", str(path), "--quiet")
    assert status == 0, err
    assert "two" in out and "Traceback" not in err


def test_a_bad_save_file_names_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json at all")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for path in (binary, garbage, tmp_path, tmp_path / "missing.json", a_file / "x.json"):
        status, out, err = run(capsys, "analyze", "--load", str(path))
        assert (status, out) == (2, ""), path
        lines = err.strip().splitlines()
        assert len(lines) == 1 and f"--load {path}" in lines[0], err


# --------------------------------------------------------------------------- tournament size


def test_a_tournament_says_how_many_games_it_plays(capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, *TOURNAMENT)
    assert status == 0
    assert err.splitlines()[0] == "2 players, 2 games per pair: 2 games in all"


@pytest.mark.parametrize(
    ("players", "games_per_pair", "words"),
    [(["random"] * 21, 1, "21 players"), (["random", "easy"], 2001, "2,001 games in all")],
)
def test_an_absurd_tournament_needs_yes(
    capsys: pytest.CaptureFixture[str], players: list[str], games_per_pair: int, words: str
) -> None:
    argv = [
        "tournament",
        "--game",
        "tictactoe",
        "--players",
        ",".join(players),
        "--games",
        str(games_per_pair),
    ]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "--yes" in lines[0]


@pytest.mark.slow
def test_yes_plays_a_large_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    players = ",".join(["random"] * 21)
    status, out, err = run(
        capsys, "tournament", "--game", "tictactoe", "--players", players, "--games", "1", "--yes"
    )
    assert status == 0, err
    assert "21 players, 1 game per pair: 210 games in all" in err
    assert "21. random" in out


# --------------------------------------------------------------------------- cli names no game


def test_bench_help_comes_from_the_game_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.ai.bench import searches as bench
    from plyground.ai.compare import policy_agreement

    status, out, _err = run(capsys, "bench", "--help")
    assert status == 0
    text = " ".join(out.split())
    solver_game, benchmark = bench.solver_benchmark()
    assert f"the {solver_game} game's solver benchmark" in text
    assert " ".join(benchmark.title.split()) in text
    for name in policy_agreement.policy_games():
        assert f"{name} ({games.GAMES[name].title})" in text  # type: ignore[attr-defined]
    assert "--policy [GAME]" in out and "--pig-policy" not in out and "tests/data" not in out


def test_a_stray_file_error_is_one_line_and_any_other_error_internal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from plyground import cli

    monkeypatch.delenv("PLYGROUND_DEBUG", raising=False)

    def command_raising(error: Exception) -> None:
        """Make every command raise `error`."""

        def handler(args: argparse.Namespace) -> int:
            raise error

        class Parser:
            def parse_args(self, argv: list[str]) -> argparse.Namespace:
                return argparse.Namespace(command="match", handler=handler)

        monkeypatch.setattr(cli, "build_parser", Parser)

    command_raising(PermissionError(errno.EACCES, "Permission denied", "/somewhere/x.txt"))
    status, out, err = run(capsys, *MATCH)
    assert (status, out) == (2, "")
    assert err.strip() == "plyground: /somewhere/x.txt: permission denied"
    command_raising(OSError("no file involved"))
    status, out, err = run(capsys, *MATCH)
    assert status == 1 and "internal error" in err
