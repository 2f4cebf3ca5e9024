"""Inputs that once stopped the window start and end cleanly, the second time too: a file
name in another encoding, a tree nested too deep, lone surrogates in saved texts, a student
file Python cannot parse, temporary files a killed write left, an enormous argument."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from driving import pump

import main
from plyground import games
from plyground.games.trees import examples as tree_examples
from plyground.games.trees import text as tree_text
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.setup import from_file
from plyground.gui.storage import safe_files, savefile, settings
from plyground.gui.widgets import drawing

SURROGATE_PATH = "/tmp/caf\udce9\ud800.py"
"""An agent path as a name in another encoding reaches Python: with lone surrogates."""


def start_window(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The window on `folder`'s settings and saves, at its menu."""
    from plyground.gui import app as app_module

    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(folder))
    app = app_module.create((1280, 800), headless=True)
    pump(app, 2)
    assert app.running and type(app.scene).__name__ == "MenuScene"
    return app


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="names must be bytes, not UTF-8")
def test_the_open_dialog_lists_a_folder_holding_a_name_in_another_encoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "good.json").write_text("{}", encoding="utf-8")
    with open(os.fsencode(saves) + b"/caf\xe9.json", "wb") as handle:
        handle.write(b"{}")
    os.mkdir(os.fsencode(saves) + b"/dossier-\xe9t\xe9")
    for _ in range(2):
        app = start_window(tmp_path, monkeypatch)
        app.scene.open_file_dialog("open")
        pump(app, 3)
        listing = app.scene.file_dialog.current_file_list
        assert ("good.json", "#file_list_item") in listing
        assert all(drawing.displayable(item[0]) == item[0] for item in listing)
        app.scene.close_file_dialog()
        pump(app, 2)
        assert app.running


def test_a_tree_nested_too_deep_is_one_line_in_the_editor_and_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deep = "(" * 400 + "1" + ")" * 400
    with pytest.raises(tree_text.TreeTextError, match=r"^[^\n]*at most 40 levels deep"):
        tree_text.parse_tree(deep)
    deepest = "(" * tree_text.MAX_DEPTH + "1,2" + ")" * tree_text.MAX_DEPTH
    assert tree_examples.height(tree_text.parse_tree(deepest)) >= tree_text.MAX_DEPTH
    model = ExplorerModel(tree_examples.TreeGame(tree_examples.LESSONS[0].tree).initial_state())
    for _ in range(2):
        assert not model.load_editor_text(deep)
        assert "levels deep" in model.editor_error and "\n" not in model.editor_error
    assert main.main(["trace", "--tree", deep]) == 2
    err = capsys.readouterr().err.strip()
    assert "at most 40 levels deep" in err and len(err.splitlines()) == 1


def test_a_remembered_agent_path_with_lone_surrogates_opens_the_set_up_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(tmp_path))
    data = settings.Settings().to_json()
    side = data["sides"]["connect4"][1]
    side["preset"] = None
    side["config"].update(algorithm="agent", agent=SURROGATE_PATH)
    settings.settings_path().write_text(json.dumps(data), encoding="utf-8")
    for _ in range(2):
        app = start_window(tmp_path, monkeypatch)
        app.switch("setup", game_name="connect4")
        pump(app, 3)
        assert app.running and type(app.scene).__name__ == "SetupScene"
        assert app.scene.sides[1].agent == SURROGATE_PATH  # kept as it is, drawn safely
        assert settings.save(app.settings)
    assert not list(tmp_path.glob("*.bad"))


def test_text_with_lone_surrogates_is_drawn_and_saved() -> None:
    import pygame

    surface = pygame.Surface((400, 40))
    for text in ("caf\udce9", "\ud800", "a\x00b", "plain ?"):
        rect = drawing.draw_text(surface, text, (0, 0), 14)
        assert rect.width > 0 and drawing.text_size(text, 14)[0] > 0
        assert drawing.wrap(text, 200, 14) and drawing.ellipsize(text * 40, 100, 14)
    assert drawing.displayable("plain ?") == "plain ?"
    text = savefile.json_text({"note": "caf\udce9 é"})
    assert json.loads(text) == {"note": "caf\udce9 é"} and "é" in text
    text.encode("utf-8")


def test_a_file_python_cannot_parse_is_one_line_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "minus.py"
    agent.write_text("x = " + "-" * 100_000 + "1\n", encoding="utf-8")
    side = settings.SideSetup(kind=settings.AI, preset=settings.FROM_FILE, agent=str(agent))
    game = games.get_game("connect4")
    problem = from_file.agent_problem(side, game)
    assert problem and "\n" not in problem and "minus.py" in problem
    calls: list[object] = []
    monkeypatch.setattr(
        "plyground.ai.student_code.agents.AgentSpec.check",
        lambda spec: calls.append(spec) or Path(spec.path),
    )
    assert from_file.agent_problem(side, game) == problem  # remembered: not parsed again
    assert calls == []
    assert from_file.spec_for(str(agent), game) == str(agent)
    later = time.time() + 5
    os.utime(agent, (later, later))  # a new version of the file is read again
    assert from_file.agent_problem(side, game) == ""
    assert len(calls) == 1


def test_temporary_files_left_by_a_killed_write_go_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(tmp_path))
    stale = tmp_path / ".settings.json-abcd1234.tmp"
    fresh = tmp_path / ".settings.json-wxyz9876.tmp"
    other = tmp_path / "notes.tmp"
    for path in (stale, fresh, other):
        path.write_text("{", encoding="utf-8")
    old = time.time() - 2 * safe_files.STALE_SECONDS
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    settings.load()
    assert not stale.exists()
    assert fresh.exists() and other.exists()  # a write in progress, and not ours


def test_an_enormous_argument_is_not_echoed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    huge = "x" * 100_000
    status = main.main(["match", "--game", "connect4", "--p1", huge, "--p2", "easy"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1
    assert len(err) < 1_600 and re.search(r"…\(100,00\d characters\)…", err)


@pytest.mark.slow
def test_a_large_file_is_read_beside_the_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from driving import wait_until

    from plyground.gui.setup import file_checks

    agent = tmp_path / "large.py"
    body = "".join(f"table_{i} = ({i}, {i + 1})\n" for i in range(20_000))
    agent.write_text("def choose(state):\n    return state.legal_moves()[0]\n" + body)
    assert agent.stat().st_size > file_checks.READ_AT_ONCE_BYTES
    monkeypatch.setenv("PLYGROUND_CONFIG_DIR", str(tmp_path))
    data = settings.Settings().to_json()
    side = data["sides"]["connect4"][1]
    side["preset"] = None
    side["config"].update(algorithm="agent", agent=str(agent))
    settings.settings_path().write_text(json.dumps(data), encoding="utf-8")
    app = start_window(tmp_path, monkeypatch)
    app.switch("setup", game_name="connect4")
    pump(app, 2)

    def card_lines() -> list[str]:
        return [line for _, lines in app.scene.form.descriptions for line in lines]

    assert any(line.startswith("Reading large.py…") for line in card_lines())
    assert wait_until(app, lambda: any("Plays large.py" in line for line in card_lines()), 120)
    game = games.get_game("connect4")
    saved = settings.SideSetup(kind=settings.AI, preset=settings.FROM_FILE, agent=str(agent))
    assert from_file.agent_problem(saved, game) == ""  # remembered now: no second reading


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="names must be bytes, not UTF-8")
def test_a_save_naming_a_file_in_another_encoding_is_written_and_read_back(
    tmp_path: Path,
) -> None:
    agent_bytes = os.fsencode(tmp_path) + b"/caf\xe9.py"
    with open(agent_bytes, "wb") as handle:
        handle.write(b"def choose(state):\n    return state.legal_moves()[0]\n")
    agent = os.fsdecode(agent_bytes)  # a str with a lone surrogate
    config = {"algorithm": "agent", "depth": None, "heuristic": None, "time_limit": None}
    config.update(randomness=0.0, seed=0, agent=agent)
    players = [{"kind": "human"}, {"kind": "ai", "preset": None, "config": config}]
    for _ in range(2):
        path = savefile.save_game(tmp_path / "game.json", "connect4", {}, players, 0, "44")
        path.read_bytes().decode("utf-8")  # the file is UTF-8 (the name escaped)
        assert savefile.load_game(path).players[1]["config"]["agent"] == agent
