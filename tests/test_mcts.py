"""The engine's Monte Carlo tree search: seeded, legal, right where it can be checked (forced
wins and blocks, proofs against exact solves), backed up by whose move it is, and its counts
invariant.  Budgets are iterations, never time: the same run on every machine."""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from plyground import games
from plyground.ai.engine.mcts.playouts import Playouts
from plyground.ai.engine.mcts.runner import KeptTree
from plyground.ai.engine.mcts.tree import Node
from plyground.ai.engine.search import (
    DepthLimited,
    MonteCarlo,
    SearchConfig,
    SearchError,
    heuristic_for,
    search,
)
from plyground.ai.evaluation.provenance import Kind, Source, from_playouts
from plyground.ai.evaluation.values import PROVEN
from plyground.ai.evaluation.wording import board_text, compact_text, legend, value_text
from plyground.ai.players.players import AIPlayer, SearchPlayer, player_from_dict
from plyground.ai.players.presets import parse_player_spec
from plyground.cli import run as run_app
from plyground.games.base import CHANCE, State, sample_outcome
from plyground.games.from_file import GameCodeError

FILES = Path(__file__).resolve().parent / "game_files"
KALAH = str(FILES / "kalah_no_eval.py")


def mcts(
    state: State[Any],
    iterations: int,
    seed: int = 0,
    playout: str = "auto",
    tree: KeptTree | None = None,
    exploration: float | None = None,
) -> Any:
    settings = MonteCarlo(iterations, playout=playout)  # type: ignore[arg-type]
    if exploration is not None:
        settings = MonteCarlo(iterations, exploration, playout)  # type: ignore[arg-type]
    return search(state, SearchConfig(settings, seed=seed), tree=tree)


def kalah(seeds: int = 4) -> Any:
    return games.get_game(games.resolve(KALAH), seeds=seeds)


def walk_tree(root: Node) -> list[Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


def assert_counts(root: Node) -> None:
    """A node's visits are its children's plus the iterations that ended at it."""
    for node in walk_tree(root):
        assert node.visits == node.ended + sum(child.visits for child in node.children)
        if node.chance:
            assert set(node.by_outcome) <= {outcome for outcome, _ in node.outcomes}


def test_one_seed_one_tree() -> None:
    state = games.get_game("connect4").replay([3, 3, 2])
    first, again = mcts(state, 1500, seed=7), mcts(state, 1500, seed=7)
    assert first.move == again.move
    assert first.details.playouts == again.details.playouts
    assert first.move_values == again.move_values
    other = mcts(state, 1500, seed=8)
    assert other.details.playouts.moves != first.details.playouts.moves


def test_the_counts_hold_and_the_root_counts_its_iterations() -> None:
    for state, iterations in (
        (games.get_game("tictactoe").initial_state(), 3000),
        (games.get_game("connect4").initial_state(), 800),
        (games.get_game("pig", goal=20).initial_state(), 1500),
        (kalah(3).initial_state(), 800),
    ):
        kept = KeptTree()
        result = mcts(state, iterations, tree=kept)
        assert kept.root is not None
        assert kept.root.visits == iterations == result.details.playouts.iterations
        assert sum(s.visits for s in result.details.playouts.moves.values()) == iterations
        nodes = walk_tree(kept.root)
        assert result.details.playouts.tree_nodes == len(nodes) == result.nodes
        # every node added below the root had a playout, unless the game was over there
        # (a look-ahead's winning move, which proves its parent, is such a position)
        finished = sum(node.state.is_terminal() for node in nodes)
        playouts = result.details.playouts.playouts
        assert playouts == len(nodes) - 1 - finished  # counts.PLAYOUT
        assert result.leaves == iterations
        assert_counts(kept.root)


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "pig", "kalah", "take_away"])
def test_never_an_illegal_move(name: str) -> None:
    game = {
        "kalah": lambda: kalah(3),
        "take_away": lambda: games.get_game(games.resolve(str(FILES / "take_away.py"))),
        "pig": lambda: games.get_game("pig", goal=15),
    }.get(name, lambda: games.get_game(name))()
    rng = random.Random(1)
    for game_number in range(3):
        state = game.initial_state()
        player = AIPlayer(SearchPlayer(MonteCarlo(60), seed=game_number), game)
        while not state.is_terminal():
            if state.to_move == CHANCE:
                state = state.play(sample_outcome(state, rng))
                continue
            if state.to_move == 0:
                move = player.choose(state)
                assert move in state.legal_moves()
            else:
                move = rng.choice(state.legal_moves())
            state = state.play(move)


@pytest.mark.parametrize(
    ("moves", "best", "why"),
    [
        ("1 4 2 5", "3", "X completes the top row"),
        ("1 5 2", "3", "O blocks the top row"),
        ("1 5 9 3", "7", "X blocks O's diagonal"),
        ("5 1 9 3", "2", "X blocks O's top row (and O's fork is answered)"),
    ],
)
def test_tictactoe_forced_wins_and_blocks(moves: str, best: str, why: str) -> None:
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves(moves))
    exact = search(state, SearchConfig(DepthLimited("alphabeta", None)))
    optimal = {m for m, ev in exact.move_values.items() if ev.value == exact.value}
    assert optimal == set(game.parse_moves(best)), why
    result = mcts(state, 4000, playout="random")
    assert result.move in optimal, why


def test_a_proof_is_only_reported_where_the_exact_solve_agrees() -> None:
    game = games.get_game("tictactoe")
    rng = random.Random(3)
    proofs = 0
    for _ in range(12):
        state = game.initial_state()
        for _ in range(rng.randrange(2, 6)):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        exact = search(state, SearchConfig(DepthLimited("alphabeta", None)))
        result = mcts(state, 3000, seed=rng.randrange(100), playout="random")
        for move, evaluation in result.move_values.items():
            truth = exact.move_values[move].value
            if evaluation.kind is Kind.EXACT:
                proofs += 1
                assert evaluation.source is Source.SEARCH
                assert evaluation.admits(truth), (game.format_moves([move]), evaluation, truth)
            else:
                assert evaluation.kind is Kind.ESTIMATE
                assert evaluation.source is Source.PLAYOUTS
                assert evaluation.playouts == result.details.playouts.moves[move].visits
        if result.details.playouts.proven:
            assert result.evaluation.admits(exact.value)
            assert result.move_values[result.move].admits(exact.value)
    assert proofs > 0


def test_a_solved_root_stops_early_and_plays_a_win() -> None:
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves("1 4 2 5"))
    result = mcts(state, 100_000)
    assert result.details.playouts.proven
    assert result.details.playouts.iterations < 100_000
    assert result.evaluation.kind is Kind.EXACT and result.value > PROVEN
    assert value_text(result.move_values[2], False) == "win in 1"


@cache
def kalah_outcome(cells: tuple[int, ...], to_move: int) -> int:
    """Kalah's outcome for side 0 under perfect play, solved by whose move it is (the file's
    own rules: a side that ends in its store moves again)."""
    module = _kalah_module()
    board = module.Board(cells, to_move)
    if board.is_terminal():
        return int(board.utility(0))
    results = [kalah_outcome(c.cells, c.to_move) for c in map(board.play, board.legal_moves())]
    return max(results) if to_move == 0 else min(results)


@cache
def _kalah_module() -> Any:
    spec = importlib.util.spec_from_file_location("kalah_for_test", KALAH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "moves",
    [[3, 10, 0, 9, 5, 4], [1, 7, 5, 0, 9, 2], [5, 3, 12, 9, 2, 8], [3, 9, 5, 2, 8, 1]],
)
def test_extra_turns_back_up_by_whose_move(moves: list[int]) -> None:
    """Kalah with one seed a pit, a few moves in, where a move ends in the store (its side
    moves again): MCTS proves the outcome a solve by whose move gives, and each move it
    proves has its own true outcome."""
    state = kalah(1).replay(moves)
    extra = [m for m in state.legal_moves() if state.play(m).to_move == state.to_move]
    assert extra  # the position does have an extra turn
    kept = KeptTree()
    result = mcts(state, 8000, playout="random", tree=kept)
    assert result.details.playouts.proven
    truth = kalah_outcome(state.inner.cells, state.to_move)
    sign = 1 if state.to_move == 0 else -1
    assert (result.value > PROVEN) - (result.value < -PROVEN) == sign * truth
    for move, evaluation in result.move_values.items():
        child = state.play(move)
        if evaluation.kind is Kind.EXACT:
            outcome = sign * kalah_outcome(child.inner.cells, child.to_move)
            assert (evaluation.value > PROVEN) - (evaluation.value < -PROVEN) == outcome
    assert kept.root is not None
    assert_counts(kept.root)


TWICE = """
from dataclasses import dataclass

@dataclass(frozen=True)
class Spot:
    name: str = "start"
    to_move: int = 0

    def legal_moves(self):
        return {"start": ("again", "pass"), "again": ("win", "lose"), "pass": ("x", "y")}.get(
            self.name, ())

    def play(self, move):
        return Spot(move, 0 if move == "again" else 1)

    def is_terminal(self):
        return self.name in ("win", "lose", "x", "y")

    def utility(self, player):
        value = {"win": 1, "lose": -1}.get(self.name, 0)
        return value if player == 0 else -value


class Twice:
    def initial_state(self):
        return Spot()
"""


def test_a_side_moving_twice_keeps_its_sign(tmp_path: Path) -> None:
    """ "again" gives the first side another move, a win: backed up by alternation it would
    read as the second side's choice, a loss.  MCTS plays it and proves it."""
    path = tmp_path / "twice.py"
    path.write_text(TWICE)
    state = games.get_game(games.resolve(str(path))).initial_state()
    kept = KeptTree()
    result = mcts(state, 50, tree=kept)
    assert result.move == "again"
    assert result.details.playouts.proven
    assert value_text(result.move_values["again"], False) == "win in 2"
    assert result.move_values["pass"].value == 0
    assert kept.root is not None
    assert_counts(kept.root)


def test_pig_and_its_chance_nodes() -> None:
    game = games.get_game("pig", goal=20)
    state = game.initial_state()
    result = mcts(state, 2000)
    assert result.move in state.legal_moves()
    assert all(ev.kind is Kind.ESTIMATE for ev in result.move_values.values())
    rolled = state.play("roll")
    assert rolled.to_move == CHANCE
    at_chance = mcts(rolled, 1200)
    assert at_chance.move is None and at_chance.details.chance_root
    assert set(at_chance.move_values) == {o for o, _ in rolled.chance_outcomes()}


def test_the_tree_is_kept_where_the_game_follows_on() -> None:
    game = games.get_game("connect4")
    state = game.initial_state()
    kept = KeptTree()
    first = mcts(state, 2000, tree=kept)
    after = state.play(first.move)
    reply = max(kept.root.children, key=lambda c: c.visits)  # type: ignore[union-attr]
    assert reply.move == first.move
    follow = after.play(max(reply.children, key=lambda c: c.visits).move)
    second = mcts(follow, 500, tree=kept)
    assert second.details.playouts.kept > 0
    assert second.details.playouts.root_visits == second.details.playouts.kept + 500
    assert_counts(kept.root)  # type: ignore[arg-type]
    elsewhere = mcts(game.replay([0, 0, 0]), 300, tree=kept)
    assert elsewhere.details.playouts.kept == 0


def test_heuristic_playouts_are_cut_off_and_counted() -> None:
    state = games.get_game("connect4").initial_state()
    guided = mcts(state, 400, playout="heuristic")
    assert guided.details.playouts.playout_policy == "heuristic"
    assert guided.leaf_evaluations > 0
    plain = mcts(state, 400, playout="random")
    assert plain.leaf_evaluations == 0
    blind = heuristic_for(kalah().initial_state(), None)
    assert blind.blind
    assert Playouts(kalah().initial_state(), "auto", blind, random.Random(0)).policy == "random"


def test_a_playout_estimate_says_so() -> None:
    evaluation = from_playouts(0.24, 4000)
    assert value_text(evaluation, False) == "○ 0.62 from 4,000 playouts"
    assert board_text(evaluation, False) == "○ 0.62"
    assert compact_text(evaluation, False) == "○.62"
    assert value_text(from_playouts(0.0, 0), False) == "○ – (not played out)"
    # tic-tac-toe's playouts draw: the key said "(1 win, 0 loss)", leaving a draw's 1/2 unsaid
    assert legend(False, [evaluation])[-1] == (
        "○ 0.62: the mean result of playouts (1 win, 1/2 draw, 0 loss), an estimate"
    )


def test_player_specs() -> None:
    config = parse_player_spec("connect4", "mcts:iterations=500:c=1.0:playouts=random")
    assert config == SearchPlayer(MonteCarlo(500, 1.0, "random"))
    assert config.describe() == "MCTS, 500 iterations, c 1, random playouts"
    timed = parse_player_spec("pig", "mcts:time=0.5")
    assert timed == SearchPlayer(MonteCarlo(), time_limit=0.5)
    assert player_from_dict(config.to_dict()) == config
    for bad, words in (
        ("mcts:depth=3", "MCTS has no depth"),
        ("mcts:iterations=0", "iterations must be"),
        ("mcts:playouts=smart", "playouts must be"),
        ("mcts:speed=3", "unknown MCTS setting"),
    ):
        with pytest.raises(ValueError, match=words):
            parse_player_spec("connect4", bad)
    with pytest.raises(SearchError, match="MCTS has no depth: ask it with MonteCarlo settings"):
        search(games.get_game("connect4").initial_state(), SearchConfig(DepthLimited("mcts", 3)))


def test_a_heuristic_with_random_playouts_is_refused_not_ignored(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`mcts:heuristic=centre:playouts=random` played random playouts and dropped the heuristic
    unsaid (`analyze --heuristic centre --playouts random` too)."""
    with pytest.raises(ValueError, match="random playouts use no heuristic"):
        parse_player_spec("tictactoe", "mcts:heuristic=centre:playouts=random")
    argv = ["analyze", "--game", "tictactoe", "--algorithm", "mcts", "--iterations", "50"]
    assert run_app([*argv, "--heuristic", "centre", "--playouts", "random"]) == 2
    err = capsys.readouterr().err
    assert "random playouts use no heuristic" in err and len(err.strip().splitlines()) == 1
    assert parse_player_spec("tictactoe", "mcts:heuristic=centre:playouts=heuristic")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:iterations=5:iterations=6", "iterations given twice"),
        ("mcts:c=1:exploration=2", "c given twice"),
        ("mcts:time=1:time_limit=2", "time given twice"),
        ("alphabeta:depth=2:depth=3", "depth given twice"),
    ],
)
def test_a_setting_given_twice_is_refused(spec: str, words: str) -> None:
    """A new user's `mcts:iterations=5:iterations=6` played one of the two, unsaid."""
    with pytest.raises(ValueError, match=words):
        parse_player_spec("connect4", spec)


BROKEN = """
from dataclasses import dataclass

CALLS = [0]

@dataclass(frozen=True)
class Count:
    n: int = 0
    to_move: int = 0

    def legal_moves(self):
        return (1, 2)

    def play(self, move):
        CALLS[0] += 1
        if CALLS[0] > 5000:  # long after the game was loaded (its probe plays 3,000 at most)
            raise ZeroDivisionError("seven")
        return Count(self.n + move, 1 - self.to_move)

    def is_terminal(self):
        return self.n >= 20

    def utility(self, player):
        return 0


class Broken:
    def initial_state(self):
        return Count()
"""


def test_a_file_game_failing_in_a_playout_is_one_line(tmp_path: Path) -> None:
    """The playouts on the file's own positions fail as every other call into it does."""
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    state = games.get_game(games.resolve(str(path))).initial_state()
    with pytest.raises(GameCodeError) as failure:
        mcts(state, 2000, playout="random")
    text = str(failure.value)
    assert "play" in text and "ZeroDivisionError: seven" in text and "after moves" in text
    assert "\n" not in text


def test_move_now_and_cancel() -> None:
    """ "Move now" ends the search with the iterations so far (checked every POLL_EVERY);
    a stop request cancels it."""
    from plyground.ai.engine.bookkeeping import SearchCancelled
    from plyground.ai.engine.mcts.runner import POLL_EVERY

    state = games.get_game("connect4").initial_state()
    asked = iter(range(1000))
    config = SearchConfig(MonteCarlo(100_000, playout="random"))
    result = search(state, config, finish_now=lambda: next(asked) >= 2)
    assert not result.complete
    assert result.details.playouts.iterations == 3 * POLL_EVERY
    assert result.move in state.legal_moves()
    with pytest.raises(SearchCancelled):
        search(state, config, should_stop=lambda: True)


COIN = """
from dataclasses import dataclass

@dataclass(frozen=True)
class Toss:
    landed: str = ""
    plies: int = 0

    @property
    def player(self):
        return self.plies % 2

    @property
    def to_move(self):
        return -1 if self.landed == "up" else self.player

    def chance_outcomes(self):
        return (("heads", 0.25), ("tails", 0.75))

    def legal_moves(self):
        return ("toss",) if not self.landed else ("a", "b")

    def play(self, move):
        if self.landed in ("", "up"):
            return Toss("up" if move == "toss" else move, 0)
        return Toss(self.landed, self.plies + 1)

    def is_terminal(self):
        return self.plies >= 24

    def utility(self, player):
        return 1 if player == (0 if self.landed == "heads" else 1) else -1


class Coin:
    def initial_state(self):
        return Toss()
"""


def test_chance_outcomes_are_sampled_by_their_probabilities(tmp_path: Path) -> None:
    """A coin that lands heads a quarter of the time: the tree's iterations through each
    outcome follow its probability (expected 500 of 2,000; this seed gives 509),
    never the UCB1 choice a side's move would get (heads wins for side 0 every time)."""
    path = tmp_path / "coin.py"
    path.write_text(COIN)
    state = games.get_game(games.resolve(str(path))).initial_state().play("toss")
    assert state.to_move == CHANCE
    result = mcts(state, 2000, seed=3)
    moves = result.details.playouts.moves
    assert moves["heads"].visits + moves["tails"].visits == 2000
    assert 440 <= moves["heads"].visits <= 560  # 3 standard deviations (19.4) either side
    assert result.move is None


def test_a_nodes_moves_are_played_at_its_first_expansion() -> None:
    """The look-ahead (a win in one proves a node) plays a node's moves when the node is
    first expanded: a leaf reached once has had none played; a node expanded keeps them,
    unless one of them won at once and proved it."""
    kept = KeptTree()
    mcts(games.get_game("connect4").replay([3, 3, 2, 2]), 600, tree=kept)
    assert kept.root is not None
    nodes = walk_tree(kept.root)
    leaves = [n for n in nodes if n.visits == 1 and not n.children and n.solved is None]
    assert leaves and all(n.prepared is None for n in leaves)
    expanded = [n for n in nodes if n.children and n.solved is None]
    assert expanded and all(n.prepared is not None for n in expanded)
    proven = [n for n in nodes if n.solved is not None and not n.state.is_terminal()]
    assert proven  # a win in one: 3 and 2 make two open threes on the bottom row
