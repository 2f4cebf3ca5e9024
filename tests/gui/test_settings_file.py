"""The settings file: defaults, round trip, broken files set aside, atomic writes."""

from __future__ import annotations

import json

from driving import pump

from gui import settings


def test_missing_file_gives_defaults_silently(config_dir):
    loaded, warning = settings.load()
    assert warning is None and loaded.last_game == "connect4"


def test_round_trip(config_dir):
    stored = settings.Settings(last_game="pig", speed=1.2, show_analysis=True, seed=5, pig_goal=50)
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
    assert loaded.last_game == "connect4" and loaded.seed == 3
    assert loaded.sides["connect4"][0].kind == "ai" and loaded.sides["connect4"][0].depth == 4
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
    from pathlib import Path

    (config_dir / "settings.json").mkdir(parents=True)  # a folder where the file should be
    app = make_app()
    pump(app)
    assert sum("defaults" in toast.text for toast in app.toasts) == 1
    assert (config_dir / "settings.json.bad").is_dir()
    app.quit()
    assert settings.load()[1] is None, "the next save wrote a good file in its place"

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")  # what chmod 000 does to a non-root user

    monkeypatch.setattr(Path, "read_text", refuse)
    loaded, warning = settings.load()
    assert warning and "could not be read" in warning
    assert loaded.to_json() == settings.Settings().to_json()
