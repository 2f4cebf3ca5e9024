"""The one family of search settings (`games.search_settings`) and the three kinds of player
config: each checks and describes itself, the terminal's player specs build them whole, and
the flat form every version has written (settings and save files) reads into them."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from plyground import games
from plyground.ai.engine.search import SearchConfig, search
from plyground.ai.players.players import (
    AgentPlayer,
    PlayerConfig,
    RandomMoves,
    SearchPlayer,
    player_from_dict,
)
from plyground.ai.players.presets import get_preset, parse_player_spec
from plyground.games.search_settings import EXPLORATION, DepthLimited, MonteCarlo

SPECS: dict[str, PlayerConfig] = {
    "alphabeta:depth=4": SearchPlayer(DepthLimited("alphabeta", 4)),
    "alphabeta:depth=none:time=2:nodes=5000:heuristic=centre": SearchPlayer(
        DepthLimited("alphabeta", None, "centre", node_limit=5000), time_limit=2.0
    ),
    "minimax:depth=3:randomness=0.5:seed=9": SearchPlayer(
        DepthLimited("minimax", 3), randomness=0.5, seed=9
    ),
    "mcts": SearchPlayer(MonteCarlo()),
    "mcts:iterations=500:c=1.4": SearchPlayer(MonteCarlo(500, 1.4)),
    "mcts:time=0.5": SearchPlayer(MonteCarlo(), time_limit=0.5),
    "mcts:c=1:playouts=heuristic:heuristic=windows": SearchPlayer(
        MonteCarlo(None, 1.0, "heuristic", "windows")
    ),
    "mcts:c=1:playouts=random": SearchPlayer(MonteCarlo(None, 1.0, "random")),
    "random": RandomMoves(),
    "my_agent.py": AgentPlayer("my_agent.py"),
    "kaggle:agent.py": AgentPlayer("kaggle:agent.py"),
}


@pytest.mark.parametrize("spec", SPECS)
def test_a_player_spec_builds_its_config_whole_and_it_round_trips(spec: str) -> None:
    config = parse_player_spec("connect4", spec)
    assert config == SPECS[spec]
    assert player_from_dict(config.to_dict()) == config, "a settings or save file"
    assert pickle.loads(pickle.dumps(config)) == config, "a worker started by spawn"


def test_files_written_before_the_settings_had_a_family_read_as_before() -> None:
    """The flat records the previous version wrote, field for field."""
    written: list[tuple[dict[str, Any], PlayerConfig]] = [
        (
            {
                "algorithm": "alphabeta",
                "depth": 6,
                "heuristic": "windows",
                "time_limit": 2.0,
                "randomness": 0.1,
                "seed": 3,
                "agent": "",
                "node_limit": 40_000,
            },
            SearchPlayer(DepthLimited("alphabeta", 6, "windows", 40_000), 2.0, 0.1, 3),
        ),
        (
            {
                "algorithm": "mcts",
                "depth": None,
                "heuristic": None,
                "time_limit": None,
                "randomness": 0.0,
                "seed": 0,
                "agent": "",
                "mcts": {"iterations": 500, "exploration": 1.0, "playout": "random"},
            },
            SearchPlayer(MonteCarlo(500, 1.0, "random")),
        ),
        (
            {"algorithm": "mcts", "depth": None, "time_limit": 1.5, "seed": 0, "agent": ""},
            SearchPlayer(MonteCarlo(), time_limit=1.5),
        ),
        ({"algorithm": "random", "depth": None, "seed": 4, "agent": ""}, RandomMoves(4)),
        (
            {"algorithm": "agent", "depth": None, "seed": 0, "agent": "kaggle:c.py"},
            AgentPlayer("kaggle:c.py"),
        ),
        ({"depth": 3}, SearchPlayer(DepthLimited("alphabeta", 3))),
    ]
    for data, config in written:
        assert player_from_dict(data) == config, data


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"algorithm": "alphabeta", "depth": 0}, "depth must be 1 to 64"),
        ({"algorithm": "alphabeta", "mcts": {"iterations": 5}}, "takes no MCTS settings"),
        ({"algorithm": "mcts", "mcts": {"iterations": 0}}, "iterations must be"),
        ({"algorithm": "mcts", "mcts": {"speed": 3}}, "unknown MCTS setting"),
        ({"algorithm": "mcts", "mcts": 3}, "must be an object"),
        ({"algorithm": "minimax", "depth": None}, "needs a depth or a time limit"),
        ({"algorithm": "agent", "agent": "notes.txt"}, "needs a Python file"),
        ({"algorithm": "alphabeta", "colour": "red"}, "unknown player setting"),
        ({"algorithm": "chess"}, "unknown algorithm 'chess'"),
        ([], "must be an object"),
    ],
)
def test_a_bad_record_is_refused_in_one_line(data: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        player_from_dict(data)


def test_each_family_describes_itself() -> None:
    assert DepthLimited("alphabeta", 6, "windows").describe() == "alpha-beta, depth 6, windows"
    assert DepthLimited(depth=None, heuristic="/x/eval.py").describe() == (
        "alpha-beta, depth unlimited, eval.py"
    )
    assert MonteCarlo(4_000, EXPLORATION).describe(long=True) == (
        "Monte Carlo tree search, 4,000 iterations, c 1.4"
    )
    assert MonteCarlo().describe(2.0, long=True) == "Monte Carlo tree search, 2 s a move, c 1.4"
    assert SearchPlayer(MonteCarlo(), time_limit=2.0).describe() == "MCTS, c 1.4, 2 s"
    assert RandomMoves().describe() == "random moves"


def test_a_preset_is_its_settings_with_a_clock_and_noise() -> None:
    preset = games.GAMES["connect4"].presets[1]  # type: ignore[attr-defined]
    player = get_preset("connect4", preset.name)
    assert player == SearchPlayer(preset.search, preset.time_limit, preset.randomness)


def test_search_dispatches_on_the_settings_type() -> None:
    state = games.get_game("tictactoe").initial_state()
    assert search(state, SearchConfig(DepthLimited("minimax", 2))).algorithm == "minimax"
    played = search(state, SearchConfig(MonteCarlo(50), seed=1))
    assert played.algorithm == "mcts" and played.details.playouts is not None
    assert played.details.playouts.iterations == 50
