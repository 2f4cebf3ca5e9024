"""Long runs stay flat: bounded transposition tables, a bounded cache of AI players in the
worker, and a match of many games whose players are rebuilt per game.  (The soak itself,
`main.py match ... --games 2000 --verbose`, reports resident memory at start and end.)"""

from __future__ import annotations

import pytest

from plyground.ai.engine.table import TranspositionTable
from plyground.ai.players.match import MatchSetup, run_match


def test_transposition_table_never_grows_past_its_slots():
    table = TranspositionTable(bits=8)
    for key in range(100_000):
        table.store(key, key % 7, 0, 0, None)
        if key % 1000 == 0:
            table.new_search()
    assert len(table.slots) == table.capacity < 256
    assert len(table) <= table.capacity


def test_the_workers_player_cache_is_bounded():
    from plyground import games
    from plyground.ai import DIFFICULTIES
    from plyground.gui.worker import process
    from plyground.gui.worker.requests import JobHeader, MoveRequest, PlayerKey

    game = games.get_game("tictactoe")
    config = DIFFICULTIES["tictactoe"]["Easy"]
    process._PLAYERS.clear()
    state = game.initial_state()
    for key in range(40):
        request = MoveRequest(JobHeader("tictactoe", {}, state), config, PlayerKey(0, key, 0))
        process.choose(request, game, lambda _p: None, lambda: False)
        assert len(process._PLAYERS) <= 9
    process._PLAYERS.clear()


@pytest.mark.slow
def test_a_long_match_has_no_errors_and_every_game_replays():
    from plyground import games

    game = games.get_game("pig", goal=20)
    setup = MatchSetup("pig", (("goal", 20),), ("easy", "medium"), seed=3, swap=True)
    records = []
    tally = run_match(setup, 100, on_game=lambda record, _tally: records.append(record))
    assert tally.games == 100 and tally.aborted == 0
    for record in records[::10]:
        assert game.replay(game.parse_moves(record.moves)).is_terminal()
