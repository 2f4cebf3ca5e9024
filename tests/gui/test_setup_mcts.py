"""The set-up's Custom AI with Monte Carlo tree search: a budget (iterations or seconds a
move) and the exploration constant instead of a depth, reaching the player and remembered."""

from __future__ import annotations

from typing import Any

import pygame
from driving import choose_option, press, pump

from plyground.ai.players.players import SearchPlayer
from plyground.games.search_settings import EXPLORATION, DepthLimited, MonteCarlo
from plyground.gui.describe import describe_side
from plyground.gui.setup import custom_ai
from plyground.gui.storage import settings

MCTS_TITLE = "Monte Carlo tree search"


def _menu(setup: Any, wanted: str, side: int = 1) -> Any:
    return next(w for w, (action, i) in setup.form.ids.items() if (action, i) == (wanted, side))


def _actions(setup: Any, side: int = 1) -> set[str]:
    return {action for action, i in setup.form.ids.values() if i == side}


def _custom_mcts(make_app: Any) -> tuple[Any, Any]:
    app = make_app()
    pump(app)
    press(app, pygame.K_2, "2")  # connect-four's set-up
    setup = app.scene
    choose_option(app, _menu(setup, "preset"), "Custom")
    choose_option(app, _menu(setup, "algorithm"), MCTS_TITLE)
    return app, setup


def test_mcts_shows_a_budget_and_exploration_instead_of_a_depth(make_app: Any) -> None:
    app, setup = _custom_mcts(make_app)
    side = setup.sides[1]
    assert side.custom == SearchPlayer(MonteCarlo(custom_ai.MCTS_ITERATIONS))
    fields = _actions(setup)
    assert {"budget", "exploration", "heuristic", "randomness"} <= fields
    assert not {"depth", "time"} & fields, "no depth and no time limit beside a budget"
    assert describe_side(side, setup.game)[0] == f"{MCTS_TITLE}, 4,000 iterations, c 1.4"

    choose_option(app, _menu(setup, "budget"), "2 s a move")
    assert side.custom == SearchPlayer(MonteCarlo(None), time_limit=2.0), "seconds, not both"
    config = side.player_config("connect4", seed=3)
    assert config == SearchPlayer(MonteCarlo(None), time_limit=2.0, seed=3)
    assert config.describe() == "MCTS, c 1.4, 2 s"
    assert describe_side(side, setup.game)[0] == f"{MCTS_TITLE}, 2 s a move, c 1.4"
    choose_option(app, _menu(setup, "budget"), "10,000 iterations")
    assert side.custom == SearchPlayer(MonteCarlo(10_000))


def test_mcts_in_the_setup_is_remembered_like_the_other_settings(make_app: Any) -> None:
    _, setup = _custom_mcts(make_app)
    custom_ai.change_side(setup.sides[1], "exploration", 0.83)
    assert setup.sides[1].custom.search == MonteCarlo(custom_ai.MCTS_ITERATIONS, 0.8)
    chosen = setup.sides[1].custom
    setup.back()  # remembered on leaving, as every set-up choice is
    stored, warning = settings.load()
    assert warning is None
    assert stored.sides["connect4"][1].custom == chosen
    assert stored.sides["connect4"][1].preset == "Custom"


def test_switching_family_keeps_what_each_had() -> None:
    side = settings.SideSetup(kind="ai", preset="Custom")
    custom_ai.change_side(side, "depth", 6)
    custom_ai.change_side(side, "algorithm", MCTS_TITLE)
    custom_ai.change_side(side, "budget", "40,000 iterations")
    assert side.custom.search == MonteCarlo(40_000, EXPLORATION)
    custom_ai.change_side(side, "algorithm", "Minimax")
    assert side.custom.search == DepthLimited("minimax", 6), "the depth it had before"
    custom_ai.change_side(side, "algorithm", MCTS_TITLE)
    assert side.custom.search == MonteCarlo(40_000), "the budget it had before"


def test_a_settings_file_of_the_flat_form_reads_into_the_new_shape(config_dir: Any) -> None:
    """Sides as the previous version wrote them (flat player fields, MCTS's own beside)."""
    import json

    flat = {"time_limit": None, "randomness": 0.0, "seed": 0, "agent": "", "heuristic": None}
    old = {
        "version": 2,
        "sides": {
            "connect4": [
                {
                    "kind": "ai",
                    "preset": None,
                    "config": {
                        **flat,
                        "algorithm": "mcts",
                        "depth": None,
                        "mcts": {"iterations": 500, "exploration": 1.0, "playout": "random"},
                    },
                },
                {
                    "kind": "ai",
                    "preset": None,
                    "config": {**flat, "algorithm": "agent", "depth": None, "agent": "a.py"},
                },
            ],
            "tictactoe": [
                {
                    "kind": "ai",
                    "preset": "Hard",
                    "config": {**flat, "algorithm": "minimax", "depth": 5, "time_limit": 2},
                },
                {"kind": "human", "preset": "Medium", "config": {"algorithm": "random"}},
            ],
        },
    }
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(json.dumps(old))
    loaded, warning = settings.load()
    assert warning is None
    mcts, agent = loaded.sides["connect4"]
    assert (mcts.preset, mcts.custom) == ("Custom", SearchPlayer(MonteCarlo(500, 1.0, "random")))
    assert (agent.preset, agent.agent) == (settings.FROM_FILE, "a.py")
    hard, human = loaded.sides["tictactoe"]
    assert hard.custom == SearchPlayer(DepthLimited("minimax", 5), time_limit=2.0)
    assert human.custom == SearchPlayer(DepthLimited("alphabeta", 4)), "random is no Custom AI"
    assert settings.save(loaded)
    again, _ = settings.load()
    assert again.to_json() == loaded.to_json()


def test_every_mcts_level_of_a_game_with_no_evaluation_describes_itself_truly() -> None:
    """A game with no evaluation plays MCTS at every level: each says its iterations or
    seconds, that its playouts are random and its values estimates, never a depth (the blind
    heuristic's "within its depth" is a depth-limited search's), in the set-up and in match."""
    from pathlib import Path

    from plyground import games
    from plyground.ai.players.match import check_player_spec

    name = games.resolve(str(Path(__file__).parents[1] / "game_files" / "kalah_no_eval.py"))
    game = games.get_game(name)
    for preset in games.GAMES[name].presets:  # type: ignore[attr-defined]
        lines = describe_side(settings.SideSetup(kind="ai", preset=preset.name), game)
        text = " ".join(lines)
        assert "depth" not in text and "“none”" not in text, lines
        assert "random playouts" in lines[1] and ", none" not in lines[1], lines
        assert "estimate from those playouts" in lines[2], lines
        if preset.search.iterations is None:
            assert f"{preset.time_limit:g} s a move" in lines[1]
        else:
            assert f"{preset.search.iterations:,} iterations, at most" in lines[1]
        spec = check_player_spec(game, preset.name.lower())
        assert "random playouts" in spec and "none" not in spec, spec
        if preset.search.iterations is not None:  # the clock only caps the iterations
            assert f"at most {preset.time_limit:g} s" in spec, spec
