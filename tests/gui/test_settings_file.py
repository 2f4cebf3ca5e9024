"""The settings file: defaults, round trip, broken files set aside, atomic writes."""

from __future__ import annotations

import json
import pathlib

import pytest
from driving import pump

from plyground.gui.storage import settings


def test_missing_file_gives_defaults_silently(config_dir):
    loaded, warning = settings.load()
    assert warning is None and loaded.last_game == ""


def test_round_trip(config_dir):
    stored = settings.Settings(last_game="pig", speed=1.2, show_analysis=True, seed=5)
    stored.set_option("pig", "goal", 50)
    stored.sides["pig"][1].preset = "Hard"
    assert settings.save(stored)
    assert settings.settings_path() == config_dir / "settings.json"
    loaded, warning = settings.load()
    assert warning is None
    assert loaded.to_json() == stored.to_json()
    assert not [p for p in config_dir.iterdir() if p.name.endswith(".tmp")]


def test_bad_files_are_set_aside(config_dir):
    for content in (b"", b"{not json", b"[1, 2]", b"\xff\xfe\x00garbage"):
        config_dir.mkdir(exist_ok=True)
        (config_dir / "settings.json").write_bytes(content)
        loaded, warning = settings.load()
        assert warning and "defaults" in warning
        assert (config_dir / "settings.json.bad").read_bytes() == content
        assert not (config_dir / "settings.json").exists()
        assert loaded.to_json() == settings.Settings().to_json()


def test_odd_values_fall_back_per_field(config_dir):
    config_dir.mkdir()
    data = {
        "last_game": "chess",
        "speed": "fast",
        "seed": 3,
        "sides": {"connect4": [{"kind": "ai", "depth": -4, "preset": "Hard"}, "nonsense"]},
    }
    (config_dir / "settings.json").write_text(json.dumps(data))
    loaded, warning = settings.load()
    assert warning is None
    assert loaded.last_game == "" and loaded.seed == 3
    assert (
        loaded.sides["connect4"][0].kind == "ai"
        and loaded.sides["connect4"][0].custom.search.depth == 4
    )
    assert loaded.sides["connect4"][1].kind == "ai"


def test_window_says_so_once(config_dir, make_app):
    config_dir.mkdir()
    (config_dir / "settings.json").write_text("{oops")
    app = make_app()
    pump(app)
    assert any("defaults" in toast.text for toast in app.toasts)
    assert (config_dir / "settings.json.bad").exists()


def test_choices_are_remembered_between_runs(config_dir, make_app):
    from driving import start_game

    app = make_app()
    start_game(app, "tictactoe", ("Hard", "human"))
    app.quit()
    loaded, _ = settings.load()
    assert loaded.last_game == "tictactoe"
    assert [s.kind for s in loaded.sides["tictactoe"]] == ["ai", "human"]
    assert loaded.sides["tictactoe"][0].preset == "Hard"


def test_unreadable_or_misplaced_settings_never_stop_the_window(config_dir, make_app, monkeypatch):

    (config_dir / "settings.json").mkdir(parents=True)  # a folder where the file should be
    app = make_app()
    pump(app)
    assert sum("defaults" in toast.text for toast in app.toasts) == 1
    assert (config_dir / "settings.json.bad").is_dir()
    app.quit()
    assert settings.load()[1] is None, "the next save wrote a good file in its place"

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")  # what chmod 000 does to a non-root user

    monkeypatch.setattr("os.open", refuse)  # plyground.file_reader opens with os.open
    loaded, warning = settings.load()
    assert warning and "could not be read" in warning
    assert loaded.to_json() == settings.Settings().to_json()


# --------------------------------------------------------------- options and one side shape


def test_version_1_files_keep_their_options_and_sides(config_dir):
    config_dir.mkdir()
    old = {
        "version": 1,
        "last_game": "pig",
        "pig_goal": 50,
        "sides": {
            "pig": [
                {"kind": "human", "preset": "Medium", "algorithm": "expectiminimax", "depth": 3},
                {
                    "kind": "ai",
                    "preset": "Custom",
                    "algorithm": "expectiminimax",
                    "depth": 5,
                    "heuristic": "race",
                    "time_limit": 2,
                },
            ]
        },
    }
    (config_dir / "settings.json").write_text(json.dumps(old))
    loaded, warning = settings.load()
    assert warning is None
    assert loaded.options_for("pig") == {"goal": 50}
    assert loaded.options_for("pig")["goal"] == 50, "the version 1 key is read"
    custom = loaded.sides["pig"][1]
    assert (custom.kind, custom.preset, custom.custom.search.depth, custom.custom.time_limit) == (
        "ai",
        "Custom",
        5,
        2.0,
    )
    assert settings.save(loaded)
    written = json.loads((config_dir / "settings.json").read_text())
    assert written["version"] == 2 and "pig_goal" not in written
    assert written["options"]["pig"] == {"goal": 50}
    assert written["options"]["tictactoe"] == {}
    again, _ = settings.load()
    assert again.to_json() == loaded.to_json()


def test_option_values_are_checked_by_the_game(config_dir):
    config_dir.mkdir()
    for bad in (5, 5000, "100", True, None):
        data = {"options": {"pig": {"goal": bad}}}
        (config_dir / "settings.json").write_text(json.dumps(data))
        loaded, warning = settings.load()
        assert warning is None and loaded.options_for("pig") == {"goal": 100}, bad
    stored = settings.Settings()
    for bad in (9, 1001, "50", 2.5):
        with pytest.raises(ValueError):
            stored.set_option("pig", "goal", bad)
    with pytest.raises(ValueError, match="no option"):
        stored.set_option("tictactoe", "goal", 50)
    stored.set_option("pig", "goal", 20)
    assert stored.options_for("pig") == {"goal": 20}
    assert stored.make_game("pig").option_values() == {"goal": 20}


def test_one_shape_for_a_side_in_settings_and_saves():
    from plyground.ai.engine.search import MAX_DEPTH, DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.storage import savefile

    hard = settings.SideSetup(kind="ai", preset="Hard")
    config = SearchPlayer(DepthLimited("alphabeta", MAX_DEPTH), time_limit=2.0)
    custom = settings.SideSetup(kind="ai", preset="Custom", custom=config)
    for side in (hard, custom, settings.SideSetup()):
        data = side.to_dict("connect4")
        assert set(data) == {"kind", "preset", "config"}
        back = settings.SideSetup.from_dict(data, settings.SideSetup())
        assert back.to_dict("connect4") == data
    assert custom.to_dict("connect4")["preset"] is None
    assert custom.to_dict("connect4")["config"]["depth"] == MAX_DEPTH
    played = hard.to_dict("connect4", played=True)
    assert played["config"] == settings.preset_named("connect4", "Hard").to_dict()
    players = [played, custom.to_dict("connect4", played=True)]
    saved = savefile.check(savefile.to_json("connect4", {}, players, 0, "44"), "test")
    assert saved.players == players, "a save holds exactly that shape"
    assert settings.Settings() == settings.Settings.from_json(settings.Settings().to_json())
    fallback = settings.SideSetup(custom=SearchPlayer(DepthLimited("alphabeta", 4)))
    for depth in (0, MAX_DEPTH + 1, "7", True):
        data = {"kind": "ai", "preset": None, "config": {"depth": depth}}
        assert settings.SideSetup.from_dict(data, fallback).custom.search.depth == 4, depth


def test_a_side_keeps_its_custom_ai_as_one_config():
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer
    from plyground.gui.setup import custom_ai

    custom = SearchPlayer(DepthLimited("minimax", 3, "centre"), time_limit=1.0, randomness=0.1)
    side = settings.SideSetup(kind="ai", preset="Custom", custom=custom)
    data = side.to_dict("connect4")
    assert data == {
        "kind": "ai",
        "preset": None,
        "config": {
            "algorithm": "minimax",
            "depth": 3,
            "heuristic": "centre",
            "time_limit": 1.0,
            "randomness": 0.1,
            "seed": 0,
        },
    }
    assert settings.SideSetup.from_dict(data, settings.SideSetup()).custom == custom
    assert side.custom_config("pig", seed=7) == SearchPlayer(
        DepthLimited("expectiminimax", 3, "centre"), time_limit=1.0, randomness=0.1, seed=7
    ), "the algorithm fitted to the game, the seed the match's"
    with pytest.raises(AttributeError):
        side.depth = 5  # type: ignore[attr-defined]
    changed = custom_ai.changed(custom, "depth", 6.4)
    changed = custom_ai.changed(changed, "randomness", 0.34)
    changed = custom_ai.changed(changed, "algorithm", "Alpha-beta")
    changed = custom_ai.changed(changed, "time", "No limit")
    assert changed == SearchPlayer(DepthLimited("alphabeta", 6, "centre"), randomness=0.35)
    assert custom.search.depth == 3, "a change is a new config"


# --------------------------------------------------------------- where files live


def _platform(monkeypatch, tmp_path):
    """Point platformdirs and the home folder into tmp_path; return (new config, new data)."""
    import platformdirs

    monkeypatch.delenv("PLYGROUND_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(pathlib.Path, "home", classmethod(lambda cls: tmp_path / "home"))
    new_config, new_data = tmp_path / "platform-config", tmp_path / "platform-data"
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda *a, **k: str(new_config))
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(new_data))
    return new_config, new_data


def test_the_override_wins(config_dir):
    from plyground.gui.storage import savefile

    assert settings.settings_path() == config_dir / "settings.json"
    assert savefile.autosave_path() == config_dir / "autosave.json"
    assert settings.saves_dir() == config_dir / "saves"


def test_platform_folders_when_nothing_older_exists(monkeypatch, tmp_path):
    import platformdirs

    from plyground.gui.storage import savefile

    new_config, new_data = _platform(monkeypatch, tmp_path)
    assert settings.settings_path() == new_config / "settings.json"
    assert savefile.autosave_path() == new_data / "autosave.json"
    assert settings.saves_dir() == pathlib.Path(platformdirs.user_documents_dir()) / "Plyground"
    assert settings.older_saves_dir() == new_data / "saves"
    assert settings.save(settings.Settings(seed=9))
    assert settings.load()[0].seed == 9


def test_an_older_config_folder_is_still_found(monkeypatch, tmp_path):
    from plyground.gui.storage import savefile

    new_config, new_data = _platform(monkeypatch, tmp_path)
    legacy = tmp_path / "home" / ".config" / "plyground"
    legacy.mkdir(parents=True)
    (legacy / "settings.json").write_text(json.dumps({"seed": 4}))
    assert settings.settings_path() == legacy / "settings.json"
    assert savefile.autosave_path() == new_data / "autosave.json"  # never beside the settings
    assert settings.load()[0].seed == 4
    new_config.mkdir()
    new_data.mkdir(exist_ok=True)
    assert settings.settings_path() == new_config / "settings.json", "the new one wins"
    assert savefile.autosave_path() == new_data / "autosave.json"


def test_an_older_autosave_beside_the_settings_moves_to_the_data_folder(monkeypatch, tmp_path):
    from plyground.gui.storage import savefile

    _new_config, new_data = _platform(monkeypatch, tmp_path)
    monkeypatch.setattr(settings, "_MOVED", [])
    legacy = tmp_path / "home" / ".config" / "plyground"
    (legacy / "saves").mkdir(parents=True)
    (legacy / "settings.json").write_text(json.dumps({"seed": 4}))
    (legacy / "autosave.json").write_text('{"kept": true}')
    (legacy / "saves" / "mine.json").write_text("{}")
    assert savefile.autosave_path() == new_data / "autosave.json"
    assert json.loads((new_data / "autosave.json").read_text()) == {"kept": True}
    assert (new_data / "saves" / "mine.json").is_file()  # nothing lost
    assert not (legacy / "autosave.json").exists() and (legacy / "settings.json").is_file()
