"""Save files without a window: round trip, every kind of bad file, atomic writes."""

from __future__ import annotations

import json
import os

import pytest

from plyground import ai
from plyground.gui.storage import savefile
from plyground.gui.storage.savefile import SaveError, load_game, save_game

HARD = {"kind": "ai", "preset": "Hard", "config": ai.DIFFICULTIES["connect4"]["Hard"].to_dict()}


def write(path, data) -> None:
    path.write_text(json.dumps(data) if not isinstance(data, (str, bytes)) else data)


def good(**changes):
    data = {
        "format": "plyground-save",
        "version": 1,
        "game": "connect4",
        "options": {},
        "players": [{"kind": "human"}, HARD],
        "seed": 7,
        "moves": "4453",
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("game", "options", "moves"),
    [
        ("tictactoe", {}, "519"),
        ("connect4", {}, "44536"),
        ("pig", {"goal": 30}, "r4r6h r1 r5r2h"),
        ("pig", {}, ""),
    ],
)
def test_round_trip(tmp_path, game, options, moves):
    path = tmp_path / "game.json"
    custom = {
        "kind": "ai",
        "preset": None,
        "config": ai.players.players.SearchPlayer(
            ai.DepthLimited("expectiminimax" if game == "pig" else "alphabeta", 3)
        ).to_dict(),
    }
    save_game(path, game, options, [{"kind": "human"}, custom], 11, moves)
    text = path.read_text()
    data = json.loads(text)
    assert data["format"] == "plyground-save" and data["version"] == 1
    assert data["moves"] == moves and data["seed"] == 11 and data["game"] == game
    assert text.count("\n") > 5, "readable: one field a line"
    loaded = load_game(path)
    assert loaded.game_name == game and loaded.seed == 11 and loaded.options == options
    assert loaded.players[0] == {"kind": "human"} and loaded.players[1] == custom
    assert loaded.game.format_moves(loaded.moves) == loaded.moves_text
    assert loaded.state == loaded.game.replay(loaded.game.parse_moves(moves))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_an_illegal_move_is_named_by_number_and_text(tmp_path):
    path = tmp_path / "edited.json"
    write(path, good(moves="4444444"))
    with pytest.raises(SaveError, match=r"move 7: .*'4'.*full"):
        load_game(path)
    humans = [{"kind": "human"}, {"kind": "human"}]
    write(path, good(game="pig", options={"goal": 20}, players=humans, moves="r4rr"))
    with pytest.raises(SaveError, match=r"move 4: illegal move 'r'"):  # a roll, not a face
        load_game(path)
    write(path, good(game="tictactoe", players=humans, moves="1x"))
    with pytest.raises(SaveError, match="x"):
        load_game(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a Plyground save"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b'{"format": "plyground-save", "version": 2}', "version 2"),
        (json.dumps(good(game="chess")).encode(), "unknown game 'chess'"),
        (json.dumps(good(options={"goal": 50})).encode(), "unknown option"),
        (json.dumps(good(game="pig", options={"goal": 5}, moves="")).encode(), "goal 5"),
        (json.dumps(good(game="pig", options={"goal": 50}, moves="")).encode(), "cannot play Pig"),
        (json.dumps(good(players=[{"kind": "human"}])).encode(), "two players"),
        (json.dumps(good(players=[{"kind": "robot"}, HARD])).encode(), "kind 'robot'"),
        (
            json.dumps(good(players=[{"kind": "ai", "preset": "Godlike"}, HARD])).encode(),
            "unknown preset 'Godlike'",
        ),
        (
            json.dumps(
                good(
                    players=[
                        {"kind": "ai", "config": {"algorithm": "alphabeta", "depth": 99}},
                        HARD,
                    ]
                )
            ).encode(),
            "depth",
        ),
        (
            json.dumps(
                good(players=[{"kind": "ai", "config": {"algorithm": "x", "evil": 1}}, HARD])
            ).encode(),
            "unknown player setting",
        ),
        (json.dumps(good(seed=-1)).encode(), "seed"),
        (json.dumps(good(seed=True)).encode(), "seed"),
        (json.dumps(good(moves=[4, 4])).encode(), "moves"),
        (b"[" * 100_000, "not"),
    ],
)
def test_bad_files_are_refused_with_a_reason(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(SaveError, match=message) as caught:
        load_game(path)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == content, "a file the user chose is never changed"


def test_missing_folder_and_unreadable_files(tmp_path, monkeypatch):
    with pytest.raises(SaveError, match="cannot read: No such file"):
        load_game(tmp_path / "nope.json")
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(SaveError, match="folder"):
        load_game(tmp_path / "folder.json")
    locked = tmp_path / "locked.json"
    write(locked, good())
    real_open = os.open

    def refuse(path, *args, **kwargs):
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("os.open", refuse)  # plyground.file_reader opens with os.open
    with pytest.raises(SaveError, match="cannot read: Permission denied"):
        load_game(locked)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_chmod_000_file_is_refused(tmp_path):
    path = tmp_path / "locked.json"
    write(path, good())
    path.chmod(0)
    try:
        with pytest.raises(SaveError, match="cannot read"):
            load_game(path)
    finally:
        path.chmod(0o644)


def test_a_crash_mid_write_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    save_game(path, "connect4", {}, [{"kind": "human"}, HARD], 1, "44")
    before = path.read_bytes()

    def crash(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SaveError, match="the disk is full; free some space in"):
        save_game(path, "connect4", {}, [{"kind": "human"}, HARD], 1, "4453")
    assert path.read_bytes() == before
    assert load_game(path).moves_text == "44"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file left"

    def killed(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        save_game(path, "connect4", {}, [{"kind": "human"}, HARD], 1, "4453")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_the_window_never_writes_what_it_could_not_read(tmp_path):
    with pytest.raises(SaveError, match="move 2"):
        save_game(tmp_path / "x.json", "tictactoe", {}, [{"kind": "human"}] * 2, 0, "11")
    assert not (tmp_path / "x.json").exists()


def test_nothing_is_executed_from_a_file(tmp_path):
    """The format is plain JSON: a pickle (or anything else) is just refused."""
    import pickle

    path = tmp_path / "evil.json"
    path.write_bytes(pickle.dumps({"format": "plyground-save"}))
    with pytest.raises(SaveError):
        load_game(path)


def test_autosave_lives_in_the_config_dir(config_dir):
    assert savefile.autosave_path() == config_dir / "autosave.json"
