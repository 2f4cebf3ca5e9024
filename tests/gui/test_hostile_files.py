"""Damaged saves, autosaves and settings: the terminal and the window's start-up.

A hypothesis fuzz test mutates real files (huge integers, deep nesting, wrong types, huge
strings, truncation, binary, a byte-order mark, flipped bytes) and checks the terminal
(`analyze --load`: exit 0, or one line and exit 2) and the window's start-up (the app is
made, reads its settings and autosave, draws its menu): no crash, no hang, every refused
file kept aside as `.bad` with its bytes.  PLYGROUND_FUZZ_EXAMPLES sets how many examples
each runs (25 by default: the daily run stays quick; CI may ask for thousands).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from driving import pump
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from plyground.gui.storage import savefile
from plyground.gui.storage.settings import Settings

EXAMPLES = int(os.environ.get("PLYGROUND_FUZZ_EXAMPLES", "25"))
HOLE = "\x00HOLE\x00"

HOSTILE_VALUES = [
    "9" * 5000,  # past Python's 4,300-digit limit: ValueError while decoding
    "-" + "7" * 5000,
    "[" * 1000 + "]" * 1000,  # RecursionError while decoding
    '{"a": ' * 1000 + "1" + "}" * 1000,
    '"' + "g" * 3_000_000 + '"',  # a 3 MB string (the window once hung drawing it)
    "1e999",
    "-1.5e308",
    "NaN",
    "Infinity",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "2.5",
    '""',
    '"connect4"',
    '"pig"',
    "[]",
    "{}",
    '{"nested": {"object": [1, 2, 3]}}',
    '["human", "ai"]',
    str(2**63),
]
"""Raw JSON put in place of one value of a real file."""


def real_files() -> dict[str, str]:
    """A real save, a real Pig autosave and a real settings file, as the window writes them."""
    hard = {"kind": "ai", "preset": "Hard", "config": {"algorithm": "alphabeta", "depth": 6}}
    save = savefile.to_json("connect4", {}, [{"kind": "human"}, hard], 7, "4453")
    autosave = savefile.to_json("pig", {"goal": 30}, [{"kind": "human"}, hard], 3, "r4r6hr1")
    autosave["players"][1] = {"kind": "ai", "preset": "Expert"}
    stored = Settings()
    stored.palette = "colour-blind"
    stored.last_game = "pig"
    return {
        "save": json.dumps(save, indent=2),
        "autosave": json.dumps(autosave, indent=2),
        "settings": json.dumps(stored.to_json(), indent=2),
    }


FILES = real_files()


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document that holds a value."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def damaged(draw: Any, text: str) -> bytes:
    """`text` damaged one way."""
    how = draw(st.sampled_from(["value", "value", "value", "truncate", "binary", "bom", "flip"]))
    raw = text.encode()
    if how == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    if how == "binary":
        return draw(st.binary(max_size=300))
    if how == "bom":
        return b"\xef\xbb\xbf" + raw  # Windows Notepad's UTF-8: must be read as it is
    if how == "flip":
        at = draw(st.integers(0, len(raw) - 1))
        return raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at + 1 :]
    data = json.loads(text)
    path = draw(st.sampled_from(_paths(data)))
    holder = data
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = HOLE
    value = draw(
        st.sampled_from(HOSTILE_VALUES) | st.integers().map(str) | st.text().map(json.dumps)
    )
    return json.dumps(data).replace(json.dumps(HOLE), value).encode()


def one_line_or_success(status: int, out: str, err: str) -> None:
    """`analyze --load`'s answer to any file: a report, or one line naming the file."""
    assert "Traceback" not in err and "internal error" not in err, err[:300]
    if status == 0:
        assert out
        return
    assert status == 2 and out == "", (status, err[:300])
    assert len(err.strip().splitlines()) == 1 and len(err) < 600, err[:300]


def kept_aside(folder: Path, name: str, content: bytes) -> bool:
    """Whether the file was set aside whole (True) or is still in place unchanged (False)."""
    bad = folder / f"{name}.bad"
    if bad.exists():
        assert bad.read_bytes() == content and not (folder / name).exists()
        return True
    assert (folder / name).read_bytes() == content
    return False


def start_window(folder: Path, monkeypatch: Any) -> Any:
    """The window's start-up path on `folder`'s files: the app, its settings, its menu."""
    from plyground.gui import app as app_module

    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(folder))
    app = app_module.create((1280, 800), headless=True)
    pump(app, 2)
    assert app.running and type(app.scene).__name__ == "MenuScene"
    return app


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@FUZZ
@given(content=damaged(FILES["save"]) | damaged(FILES["autosave"]))
def test_damaged_saves_through_the_terminal(content: bytes, tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "damaged.json"
    path.write_bytes(content)
    status = main.main(["analyze", "--load", str(path), "--depth", "1"])
    captured = capsys.readouterr()
    one_line_or_success(status, captured.out, captured.err)
    assert path.read_bytes() == content, "a file the user chose is never changed"


@pytest.mark.slow
@FUZZ
@given(content=damaged(FILES["autosave"]))
def test_damaged_autosaves_never_stop_the_window(
    content: bytes, tmp_path: Path, monkeypatch: Any
) -> None:
    folder = tmp_path / "config"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    (folder / "autosave.json").write_bytes(content)
    app = start_window(folder, monkeypatch)
    try:
        if kept_aside(folder, "autosave.json", content):
            assert app.scene.resume is None
            assert any("could not be restored" in toast.text for toast in app.toasts)
            assert all(len(toast.text) < 300 for toast in app.toasts)
    finally:
        app.quit(save=False)


@pytest.mark.slow
@FUZZ
@given(content=damaged(FILES["settings"]))
def test_damaged_settings_never_stop_the_window(
    content: bytes, tmp_path: Path, monkeypatch: Any
) -> None:
    folder = tmp_path / "config"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    (folder / "settings.json").write_bytes(content)
    app = start_window(folder, monkeypatch)
    try:
        if kept_aside(folder, "settings.json", content):
            assert any("defaults are in use" in toast.text for toast in app.toasts)
            assert all(len(toast.text) < 400 for toast in app.toasts)
    finally:
        app.quit(save=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("field", "raw"),
    [
        (field, raw)
        for field in ("format", "version", "game", "players", "seed", "moves", "saved_at")
        for raw in ("9" * 5000, '{"a": 1}', '"' + "x" * 3_000_000 + '"')
    ]
    + [("options", "9" * 5000), ("options", '{"goal": ' + "9" * 5000 + "}")],
)
def test_the_autosaves_seen_in_the_issue_set_aside(tmp_path, monkeypatch, field, raw):
    """Item 1 of the issue: each of these ended the window with a traceback, every start."""
    data = json.loads(FILES["autosave"])
    data[field] = HOLE
    content = json.dumps(data).replace(json.dumps(HOLE), raw).encode()
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "autosave.json").write_bytes(content)
    app = start_window(folder, monkeypatch)
    try:
        if field == "saved_at" and raw.startswith("{"):  # information only: dropped, resumed
            assert app.scene.resume is not None
            return
        assert kept_aside(folder, "autosave.json", content)
        toast = next(t.text for t in app.toasts if "could not be restored" in t.text)
        assert len(toast) < 300
    finally:
        app.quit(save=False)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("name", ["settings.json", "autosave.json"])
def test_a_file_linked_to_dev_zero_never_hangs_the_window(tmp_path, monkeypatch, name):
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / name).symlink_to("/dev/zero")
    app = start_window(folder, monkeypatch)
    try:
        assert (folder / f"{name}.bad").is_symlink() and not (folder / name).exists()
    finally:
        app.quit(save=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["settings.json", "autosave.json"])
def test_a_fifo_in_place_of_a_file_never_blocks_the_window(tmp_path, monkeypatch, name):
    folder = tmp_path / "config"
    folder.mkdir()
    os.mkfifo(folder / name)
    app = start_window(folder, monkeypatch)
    try:
        assert (folder / f"{name}.bad").exists() and not (folder / name).exists()
    finally:
        app.quit(save=False)


def test_notepads_byte_order_mark_is_read(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    folder.mkdir()
    for name in ("settings", "autosave"):
        (folder / f"{name}.json").write_bytes(b"\xef\xbb\xbf" + FILES[name].encode())
    app = start_window(folder, monkeypatch)
    try:
        assert app.settings.palette == "colour-blind" and app.scene.resume is not None
        assert not list(folder.glob("*.bad")) and not app.toasts
    finally:
        app.quit(save=False)


def long_pig_save(moves: int) -> bytes:
    """A valid-looking Pig save of `moves` moves and dice (each turn a roll of 1)."""
    from plyground.gui.storage import savefile

    data = savefile.to_json("pig", {"goal": 100}, [{"kind": "human"}] * 2, 0, "r1")
    data["moves"] = " ".join(["r1"] * (moves // 2))
    return json.dumps(data).encode()


@pytest.mark.slow
def test_a_save_longer_than_any_game_is_refused_in_one_line(
    tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    from plyground.gui.storage.savefile import MAX_SAVED_MOVES

    path = tmp_path / "long.json"
    path.write_bytes(long_pig_save(120_000))
    status = main.main(["analyze", "--load", str(path), "--depth", "1"])
    captured = capsys.readouterr()
    one_line_or_success(status, captured.out, captured.err)
    assert status == 2 and f"at most {MAX_SAVED_MOVES:,}" in captured.err
    folder = tmp_path / "config"
    folder.mkdir()
    content = long_pig_save(120_000)
    (folder / "autosave.json").write_bytes(content)
    app = start_window(folder, monkeypatch)
    try:
        assert kept_aside(folder, "autosave.json", content)
        assert app.scene.resume is None
    finally:
        app.quit(save=False)
