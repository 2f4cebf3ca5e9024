"""The one reader of every file (plyground.file_reader): a hostile file costs one clear line.

FIFOs and devices refused before they are opened, size and nesting
capped, integers and strings bounded, UTF-8 with or without a byte-order mark, a declared
field refusing the wrong type or range, and the same bounds on saves, settings and solver
files through the terminal (`analyze --load`, `bench --solver-file`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import main
from plyground.file_reader import (
    Field,
    FileProblem,
    keep_aside,
    nesting,
    parse_json,
    read_json,
    read_lines,
    read_text,
)
from plyground.gui.storage import savefile, settings

DEVICE = Path("/dev/zero")
needs_dev_zero = pytest.mark.skipif(not DEVICE.exists(), reason="no /dev/zero here")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")

SAVE = {
    "format": "plyground-save",
    "version": 1,
    "game": "connect4",
    "options": {},
    "players": [{"kind": "human"}, {"kind": "ai", "preset": "Hard"}],
    "seed": 7,
    "moves": "4453",
}


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(folder))
    return folder


def one_line(error: BaseException, path: object) -> str:
    text = str(error)
    assert "\n" not in text and str(path) in text and len(text) < 400, text
    return text


@needs_fifo
def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes
    with pytest.raises(FileProblem, match="pipe") as caught:
        read_text(fifo, 1000, "save")
    one_line(caught.value, fifo)
    with pytest.raises(FileProblem, match="pipe"):
        list(read_lines(fifo, 1000))


@needs_dev_zero
def test_a_device_or_a_link_to_one_is_refused(tmp_path):
    link = tmp_path / "settings.json"
    link.symlink_to(DEVICE)
    with pytest.raises(FileProblem, match="device"):
        read_json(link, 1000, "settings file")
    assert keep_aside(link) == "; it was kept as settings.json.bad"
    assert (tmp_path / "settings.json.bad").is_symlink() and DEVICE.exists()


def test_size_cap_and_lines_read_only_as_asked(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("4453 1\n" * 1000)
    with pytest.raises(FileProblem, match="too large"):
        read_text(big, 100)
    lines = read_lines(big, 100)
    assert [next(lines) for _ in range(3)] == ["4453 1"] * 3  # three asked, three read
    with pytest.raises(FileProblem, match="too large"):
        list(read_lines(big, 100))
    (tmp_path / "long.txt").write_text("4" * 20_000)
    with pytest.raises(FileProblem, match="longer than"):
        list(read_lines(tmp_path / "long.txt", 10**6))


def test_nesting_is_counted_without_decoding():
    assert nesting('{"a": [1, {"b": "[[[[ {{"}]}') == 3
    assert nesting('"\\"[[[' * 1000) == 0  # an unclosed string: linear, no backtracking
    with pytest.raises(FileProblem, match="nested more than 32"):
        parse_json("[" * 100_000 + "]" * 100_000, "f")
    assert parse_json("[" * 32 + "]" * 32, "f") is not None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seed": ' + "9" * 5000 + "}", "5000 digits"),
        ('{"seed": -' + "9" * 5000 + "}", "digits"),
        ('{"speed": 1' + "0" * 400 + ".5}", "characters"),
        ('{"speed": NaN}', "NaN"),
        ('{"speed": -Infinity}', "Infinity"),
        ('{"game": "' + "x" * 3_000_000 + '"}', "too long"),
        ('{"' + "k" * 3_000_000 + '": 1}', "too long"),
        ("", "empty"),
        ("{oops", "not JSON"),
    ],
)
def test_numbers_and_strings_are_bounded(text, words):
    with pytest.raises(FileProblem, match=words) as caught:
        parse_json(text, "the file")
    one_line(caught.value, "the file")


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SAVE).encode())
    assert read_json(path, 10_000) == SAVE
    assert savefile.load_game(path).moves_text == "4453"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(FileProblem, match="not UTF-8"):
        read_text(path, 100)


def test_a_declared_field_checks_type_and_range():
    speed = Field("speed", float, 0, 5)
    assert speed.read({"speed": 2}, 0.6) == 2.0 and isinstance(speed.read({"speed": 2}, 0.6), float)
    for bad in (True, "2", None, [], {}, -1, 6, float("nan")):
        assert speed.read({"speed": bad}, 0.6) == 0.6, bad
    palette = Field("palette", str, choices=("a", "b"))
    assert palette.read({"palette": "b"}, "a") == "b" and palette.read({"palette": "c"}, "a") == "a"
    with pytest.raises(FileProblem, match='"seed" must be a whole number, not an object'):
        Field("seed", int, 0).take({"seed": {"x": 1}}, "f")
    assert Field("seed", int, 0).take({}, "f", default=3) == 3


@pytest.mark.parametrize(
    "change",
    [
        {"game": {"nested": "object"}},  # unhashable where a name belongs
        {"game": ["connect4"]},
        {"version": 10**4000},
        {"players": [{"kind": {"a": 1}}, {"kind": "human"}]},
        {"players": [{"kind": "ai", "preset": ["Hard"]}, {"kind": "human"}]},
        {"players": [{"kind": "ai", "config": {"depth": {"d": 1}}}, {"kind": "human"}]},
        {"options": {"goal": {"x": 1}}},
        {"options": ["goal"]},
        {"seed": 2**80},
        {"moves": 10**80},
        {"saved_at": {"when": 1}},
    ],
)
def test_odd_values_in_a_save_are_one_line(tmp_path, change):
    path = tmp_path / "odd.json"
    data = dict(SAVE, **change)
    text = (
        json.dumps(data)
        if "version" not in change
        else json.dumps(SAVE).replace('"version": 1', '"version": ' + "9" * 5000)
    )
    path.write_text(text)
    if change == {"saved_at": {"when": 1}}:
        assert savefile.load_game(path).saved_at is None
        return
    with pytest.raises(savefile.SaveError) as caught:
        savefile.load_game(path)
    one_line(caught.value, path)


def test_deep_or_huge_settings_are_set_aside(config_dir):
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / "settings.json"
    for content in (
        '{"sides": ' + "[" * 1000 + "]" * 1000 + "}",
        '{"seed": ' + "7" * 5000 + "}",
        '{"palette": "' + "p" * 100_000 + '"}',
    ):
        path.write_text(content)
        loaded, warning = settings.load()
        assert warning is not None and "defaults" in warning and "settings.json.bad" in warning
        assert loaded.to_json() == settings.Settings().to_json()
        assert (config_dir / "settings.json.bad").read_text() == content
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"palette": "colour-blind"}).encode())
    assert settings.load()[0].palette == "colour-blind"  # Notepad's BOM is fine


@needs_dev_zero
def test_settings_linked_to_dev_zero_is_set_aside(config_dir):
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "settings.json").symlink_to(DEVICE)
    _, warning = settings.load()
    assert warning is not None and "is a device" in warning
    assert (config_dir / "settings.json.bad").is_symlink()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        json.dumps(SAVE).replace('"seed": 7', '"seed": ' + "7" * 5000),
        json.dumps(dict(SAVE, game={"a": 1})),
        json.dumps(dict(SAVE, game="x" * 3_000_000)),
        '{"format": "plyground-save", "version": 1, "game": ' + "[" * 1000 + "]" * 1000 + "}",
        "\ufeff" + json.dumps(dict(SAVE, moves="44534")),
    ],
)
def test_analyze_load_is_one_line_and_exit_2(tmp_path, capsys, text):
    path = tmp_path / "save.json"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "analyze", "--load", str(path), "--depth", "1")
    if text.startswith("\ufeff"):
        assert status == 0 and out, err
        return
    assert status == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err
    assert len(err) < 400


@needs_fifo
def test_a_fifo_as_load_is_refused(tmp_path, capsys):
    fifo = tmp_path / "save.json"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "analyze", "--load", str(fifo))
    assert status == 2 and "pipe" in err and len(err.strip().splitlines()) == 1


@needs_dev_zero
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_solver_file_is_refused(capsys, device):
    status, out, err = run(capsys, "bench", "--solver", "--solver-file", device)
    assert (status, out) == (2, "") and "is a device" in err and "internal error" not in err


def test_a_solver_file_is_read_only_up_to_the_limit(tmp_path, capsys):
    from plyground.ai.bench.solver import read_solver_file

    path = tmp_path / "positions.txt"
    path.write_bytes(b"4453 0\n" * 3 + b"\xff" * 3_000_000)  # then no line end for 3 MB
    assert read_solver_file(path, limit=3) == [("4453", 0)] * 3
    with pytest.raises(ValueError):
        read_solver_file(path)
    status, _, err = run(capsys, "bench", "--solver", "--solver-file", str(path))
    assert status == 2 and "line 4: longer than" in err  # without --limit the junk is reached
    from plyground.cli.bench.solver import check_solver_file

    assert check_solver_file(str(path), 3) == 3
