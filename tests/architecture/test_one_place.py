"""One game, one place: `ai/` names no game, and a game defined only in tests/ works everywhere.

The extra game is three-heap Nim (tests/nim_game.py), added with `games.register` and
removed afterwards; nothing outside tests/ knows it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import nim_game
import pytest

from plyground import ai, games
from plyground.ai.compare import policy_agreement
from plyground.ai.players.match import MatchSetup, play_game, play_match, run_match
from plyground.ai.players.tournament import TournamentSetup, run_tournament

ROOT = Path(__file__).resolve().parents[2]

NOT_YET_CLEAN: set[str] = set()
"""ai/ modules allowed to name a game for now (none)."""

BUILT_IN = ("tictactoe", "connect4", "pig")


def _pattern(text: str) -> str:
    """A regex for a name or title, any separators between its words, not inside a word."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return r"(?<![a-z0-9])" + r"[\W_]*".join(map(re.escape, words)) + r"(?![a-z0-9])"


def _game_words() -> list[str]:
    """Every registered game's name and title (connect4 and Connect Four, ...)."""
    words = {games.GAMES[name].name for name in games.GAMES}  # type: ignore[attr-defined]
    words |= {games.GAMES[name].title for name in games.GAMES}  # type: ignore[attr-defined]
    words.add("tic tac toe")
    words.add("connect four")
    return sorted(words)


FRAMEWORK_CLASS = re.compile(r"\b[A-Za-z_][\w.]*:[A-Z]\w*")
"""A framework's own class by its import path ("easyAI.games:TicTacToe", the frameworks'
benchmark's cases): the framework's game, not a Plyground game's knowledge."""


def _mentions(path: Path) -> list[str]:
    """Lines of a source file that name a registered game (a framework's own class named by
    its import path aside)."""
    patterns = [re.compile(_pattern(word), re.IGNORECASE) for word in _game_words()]
    found = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = FRAMEWORK_CLASS.sub("", line)
        if any(pattern.search(line) for pattern in patterns):
            found.append(f"{path.name}:{number}: {line.strip()}")
    return found


def test_the_pattern_finds_names_in_any_spelling() -> None:
    pattern = re.compile(_pattern("Connect Four"), re.IGNORECASE)
    assert pattern.search("the connect-four solver") and pattern.search("CONNECT_FOUR")
    assert not re.search(_pattern("pig"), "a pigment, epigraph")
    assert re.search(_pattern("pig"), "(pig's goal)")


def test_a_frameworks_class_by_its_import_path_is_not_a_game_named() -> None:
    case = '("aima", "aima3.games:ConnectFour", "", 4)'
    assert "Connect" not in FRAMEWORK_CLASS.sub("", case)
    assert FRAMEWORK_CLASS.search("the connect four solver") is None


def test_ai_names_no_game() -> None:
    offenders = []
    for path in sorted((ROOT / "ai").rglob("*.py")):
        if path.name not in NOT_YET_CLEAN:
            offenders += _mentions(path)
    assert offenders == [], "\n".join(offenders)


def test_ai_keeps_no_game_specific_module() -> None:
    names = {path.stem for path in (ROOT / "ai").rglob("*.py")}
    assert not {word for word in names for game in BUILT_IN if game in word}


GAME_WORDS = re.compile(r"turn_total|[\"']hold[\"']|[\"']roll[\"']")
"""A game's own words in code: Pig's turn total and its moves as strings."""
OWN_KITS = {"gui/kits/pig"}
"""Where those words belong (besides games/, which holds the rules)."""


def test_the_pattern_finds_a_games_words() -> None:
    assert GAME_WORDS.search('if move == "hold":') and GAME_WORDS.search("state.turn_total")
    assert GAME_WORDS.search("text='roll'") and not GAME_WORDS.search("a rolling die, holds")


def test_a_games_moves_and_numbers_live_only_in_its_own_modules() -> None:
    found = []
    for layer in ("gui", "ai", "cli"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if any(relative.startswith(own + "/") for own in OWN_KITS):
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if GAME_WORDS.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


def test_easyais_turn_is_passed_by_its_one_table() -> None:
    """Every move made or taken back on an easyAI game passes its turn by `NEXT_SEAT`, defined
    once in games/from_file/styles.py: no other spelling of the seats' exchange."""
    passes, tables = [], []
    for package in ("ai", "games", "gui", "cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Assign) and any(
                    isinstance(target, ast.Attribute) and target.attr == "current_player"
                    for target in node.targets
                ):
                    value = node.value
                    if not (isinstance(value, ast.Constant) and value.value == 1):  # a start
                        passes.append((relative, ast.unparse(value)))
                if isinstance(node, ast.Assign) and any(
                    isinstance(target, ast.Name) and target.id == "NEXT_SEAT"
                    for target in node.targets
                ):
                    tables.append(relative)
    assert tables == ["games/from_file/styles.py"]
    assert passes and all(value.startswith("NEXT_SEAT[") for _, value in passes), passes


def test_no_module_of_the_installed_package_reads_tests() -> None:
    for package in ("ai", "games"):
        for path in (ROOT / package).rglob("*.py"):
            assert '"tests"' not in path.read_text(), path


def test_each_game_describes_its_own_presets() -> None:
    for name in BUILT_IN:
        factory = games.GAMES[name]
        others = [games.GAMES[other] for other in BUILT_IN if other != name]
        for preset in factory.presets:  # type: ignore[attr-defined]
            text = ai.preset_description(name, preset.name)
            assert text and text == preset.description
            for other in others:
                for word in (other.name, other.title):  # type: ignore[attr-defined]
                    assert not re.search(_pattern(word), text, re.IGNORECASE), (name, text)
    descriptions = [
        preset.description
        for name in BUILT_IN
        for preset in games.GAMES[name].presets  # type: ignore[attr-defined]
    ]
    assert len(set(descriptions)) == len(descriptions)
    assert ai.preset_description("nowhere", "Easy") == ""
    assert ai.preset_description(BUILT_IN[0], "nobody") == ""
    assert not hasattr(ai, "PRESET_BLURBS")


# --------------------------------------------------------------------------- the extra game


@pytest.fixture
def nim() -> Iterator[str]:
    """Nim registered for one test, and removed afterwards."""
    games.register(nim_game.Game)
    try:
        yield nim_game.Game.name
    finally:
        del games.GAMES[nim_game.Game.name]


def test_registering_twice_under_one_name_fails(nim: str) -> None:
    games.register(nim_game.Game)  # the same game again is fine
    with pytest.raises(ValueError, match="already registered"):
        games.register(type("Other", (nim_game.Game,), {}))


def test_the_extra_game_has_its_presets_at_once(nim: str) -> None:
    assert nim in ai.DIFFICULTIES
    assert list(ai.DIFFICULTIES[nim]) == ["Easy", "Medium", "Hard", "Expert"]
    assert ai.DIFFICULTIES[nim]["Hard"] == ai.SearchPlayer(
        ai.DepthLimited("alphabeta", 2, "nimsum")
    )
    assert ai.get_preset(nim, "expert").search.depth is None
    assert ai.preset_description(nim, "Expert") == "Solves the heaps."
    game = games.get_game(nim)
    assert ai.parse_player_spec(nim, "medium", game).heuristic == "parity"
    spec = ai.parse_player_spec(nim, "minimax:depth=3:heuristic=none", game)
    assert spec == ai.SearchPlayer(ai.DepthLimited("minimax", 3, "none"))
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        ai.parse_player_spec(nim, "grandmaster", game)
    with pytest.raises(ValueError, match="nimsum"):
        ai.parse_player_spec(nim, "alphabeta:heuristic=windows", game)


def test_the_extra_game_leaves_no_presets_behind() -> None:
    assert nim_game.Game.name not in games.GAMES
    assert nim_game.Game.name not in ai.DIFFICULTIES
    with pytest.raises(ValueError, match="no presets"):
        ai.get_preset(nim_game.Game.name, "easy")


def test_every_algorithm_that_fits_solves_the_extra_game(nim: str) -> None:
    game = games.get_game(nim)
    state = game.initial_state()
    assert ai.algorithms_for(game) == ("minimax", "alphabeta")  # no chance: no expectiminimax
    # 3 ^ 4 ^ 5 = 2: the first player wins by taking two from the first heap (xor 0 after).
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert solved.exact and solved.value > 0.9
    assert game.format_move(solved.move) == "1:2"
    for algorithm in ("minimax", "alphabeta"):
        result = ai.search(state, ai.SearchConfig(ai.DepthLimited(algorithm, 2, "nimsum")))
        assert game.format_move(result.move) == "1:2", algorithm
    deep = game.replay(game.parse_moves("1:2 3:5 2:4"))  # heaps 1, 0, 0: take the last
    for algorithm in ai.ALGORITHMS:
        result = ai.search(deep, ai.SearchConfig(ai.DepthLimited(algorithm, 3)))
        assert result.move == (0, 1) and result.value > 0.9, algorithm


@pytest.mark.slow
def test_the_extra_game_plays_matches_and_a_tournament(nim: str) -> None:
    setup = MatchSetup(game=nim, options=(), specs=("expert", "easy"), seed=3)
    records = list(play_match(setup, 4))
    assert [record.winner for record in records] == [0, 0, 0, 0]  # Expert moves first: wins
    game = games.get_game(nim)
    for record in records:
        assert game.replay(game.parse_moves(record.moves)).is_terminal()
    one = play_game(MatchSetup(game=nim, options=(), specs=("random", "hard"), seed=1), 0)
    assert one.winner in (0, 1)
    tally = run_match(
        MatchSetup(game=nim, options=(), specs=("expert", "random"), seed=2, swap=True), 6
    )
    assert tally.games == 6
    result = run_tournament(
        TournamentSetup(
            game=nim, options=(), specs=("easy", "hard", "expert"), games_per_pair=4, seed=0
        )
    )
    assert sum(result.pairs[i, j].games for i, j in ((0, 1), (0, 2), (1, 2))) == 12
    assert result.pairs[0, 2].losses >= 2  # Expert wins at least every game it starts


def test_the_presets_are_read_from_each_game() -> None:
    for name in BUILT_IN:
        presets = games.GAMES[name].presets  # type: ignore[attr-defined]
        configs = ai.DIFFICULTIES[name]
        assert list(configs) == [preset.name for preset in presets]
        for preset in presets:
            config = configs[preset.name]
            assert config.search == preset.search, "the preset's settings, whole"
            assert (config.time_limit, config.randomness) == (preset.time_limit, preset.randomness)
            config.validate(games.get_game(name))
    assert list(ai.DIFFICULTIES) == list(games.GAMES)


@pytest.mark.slow
def test_worker_processes_know_a_game_registered_later(nim: str) -> None:
    setup = MatchSetup(game=nim, options=(), specs=("expert", "random"), seed=4, swap=True)
    alone = [record.moves for record in play_match(setup, 4)]
    assert [record.moves for record in play_match(setup, 4, jobs=2)] == alone


@pytest.mark.slow
def test_the_policy_study_measures_presets_against_the_extra_games_reference(nim: str) -> None:
    assert policy_agreement.policy_games() == ["pig", nim]
    presets = policy_agreement.choose_presets("easy,expert", nim)
    report = policy_agreement.agreement_report(presets, game_name=nim)
    assert report["states"] == report["total_states"] == 4 * 5 * 6 - 1
    assert not report["sample"] and report["reference"] == "Bouton's strategy"
    easy, expert = ({**entry["subsets"]} for entry in report["presets"])
    assert expert["all"]["cost"] == 0  # every move it makes keeps a won game won
    assert expert["won"]["states"] == sum(
        1 for key in nim_game.PerfectPolicy().decision_keys() if nim_game.nim_sum(key)
    )
    assert easy["won"]["cost"] > 0
    text = "\n".join(policy_agreement.format_report(report))
    assert text.startswith("Nim: each preset's decision against Bouton's strategy")
    assert "nim-sum not 0" in text
