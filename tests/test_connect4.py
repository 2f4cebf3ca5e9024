"""Connect-four rules: perft counts, wins in every direction, the search hooks, notation."""

from __future__ import annotations

import functools
import math
import pickle
import random

import pytest

from plyground import games
from plyground.games.connect4 import bitboard as connect4_bitboard
from plyground.games.connect4 import heuristics as connect4_heuristics
from plyground.games.connect4 import rules as connect4
from plyground.games.connect4.bitboard import HEIGHT, WIDTH
from plyground.games.connect4.rules import EMPTY, State

DATA = connect4.SOLVER_BENCHMARK.directory
GAME = connect4.Game()

# --- references that use (col, row) geometry only, never the bit layout ------------------

LINES: list[tuple[tuple[int, int], ...]] = [
    tuple((col + i * dc, row + i * dr) for i in range(4))
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    for col in range(WIDTH)
    for row in range(HEIGHT)
    if 0 <= col + 3 * dc < WIDTH and 0 <= row + 3 * dr < HEIGHT
]


def grid(state: State) -> tuple[tuple[int | None, ...], ...]:
    """The board as [col][row] owners."""
    return tuple(tuple(state.cell(col, row) for row in range(HEIGHT)) for col in range(WIDTH))


def reference_has_four(state: State, player: int) -> bool:
    cells = grid(state)
    return any(all(cells[c][r] == player for c, r in line) for line in LINES)


def reference_winning_squares(state: State, player: int) -> set[tuple[int, int]]:
    """Empty squares where a stone of `player` would complete a line of four."""
    cells = grid(state)
    found = set()
    for line in LINES:
        owners = [cells[c][r] for c, r in line]
        empties = [sq for sq, owner in zip(line, owners, strict=True) if owner is None]
        if len(empties) == 1 and owners.count(player) == 3:
            found.add(empties[0])
    return found


def squares(bitboard: int) -> set[tuple[int, int]]:
    return {
        (col, row)
        for col in range(WIDTH)
        for row in range(HEIGHT)
        if bitboard >> (col * connect4_bitboard.STRIDE + row) & 1
    }


def from_picture(picture: str) -> State:
    """A state from rows of '. X O' drawn top row first (as `render` draws them)."""
    rows = [line.split() for line in picture.strip().splitlines()]
    assert len(rows) == HEIGHT and all(len(row) == WIDTH for row in rows)
    stones = {"X": 0, "O": 0}
    mask = 0
    for top_index, row_cells in enumerate(rows):
        row = HEIGHT - 1 - top_index
        for col, token in enumerate(row_cells):
            if token != ".":
                bit = 1 << (col * connect4_bitboard.STRIDE + row)
                stones[token] |= bit
                mask |= bit
    to_move = "X" if stones["X"].bit_count() == stones["O"].bit_count() else "O"
    return State(current=stones[to_move], mask=mask)


def random_states(count: int, seed: int) -> list[State]:
    """Every state along random games until `count` non-terminal ones are collected."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = EMPTY
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return found


# --- rules ---------------------------------------------------------------------------------


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(state.play(move), depth - 1) for move in state.legal_moves())


@pytest.mark.parametrize(
    ("depth", "count"), [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649)]
)
def test_perft_from_the_empty_board(depth: int, count: int) -> None:
    assert perft(GAME.initial_state(), depth) == count


def test_initial_state() -> None:
    state = GAME.initial_state()
    assert state.to_move == state.player == 0
    assert state.ply == 0
    assert state.legal_moves() == (3, 2, 4, 1, 5, 0, 6)
    assert not state.is_terminal() and state.winner() is None
    assert state.winning_line() is None
    assert not State.STOCHASTIC and not GAME.stochastic
    assert state.chance_outcomes() == ()


def test_gravity_and_accessors() -> None:
    state = GAME.replay([3, 3, 3, 2])
    assert [state.height(col) for col in range(WIDTH)] == [0, 0, 1, 3, 0, 0, 0]
    assert [state.cell(3, row) for row in range(HEIGHT)] == [0, 1, 0, None, None, None]
    assert state.cell(2, 0) == 1
    assert state.ply == 4 and state.to_move == 0


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        ("1122334", [(0, 0), (1, 0), (2, 0), (3, 0)]),  # horizontal
        ("4455667", [(3, 0), (4, 0), (5, 0), (6, 0)]),  # horizontal at the right edge
        ("1212121", [(0, 0), (0, 1), (0, 2), (0, 3)]),  # vertical
        ("7676767", [(6, 0), (6, 1), (6, 2), (6, 3)]),  # vertical at the right edge
        ("12233434544", [(0, 0), (1, 1), (2, 2), (3, 3)]),  # diagonal up-right
        ("76655454344", [(6, 0), (5, 1), (4, 2), (3, 3)]),  # diagonal down-right
    ],
)
def test_wins_in_every_direction(moves: str, line: list[tuple[int, int]]) -> None:
    state = GAME.replay(GAME.parse_moves(moves))
    assert state.is_terminal()
    assert state.winner() == 0
    assert state.winning_line() == tuple(sorted(line))
    assert state.utility(0) == 1.0 and state.utility(1) == -1.0
    assert state.legal_moves() == ()
    with pytest.raises(games.IllegalMoveError, match="game is over"):
        state.play(0)


def test_second_player_wins() -> None:
    state = GAME.replay(GAME.parse_moves("1232521"))
    assert not state.is_terminal()
    state = state.play(1)  # O completes column 2
    assert state.is_terminal() and state.winner() == 1
    assert state.winning_line() == ((1, 0), (1, 1), (1, 2), (1, 3))
    assert state.utility(1) == 1.0 and state.utility(0) == -1.0


# Games found by random play that end on a line along the top or right edge.
EDGE_GAMES = [
    ("67353553353647425764737725464426", 1, [(3, 2), (4, 3), (5, 4), (6, 5)]),
    ("5224116116126225123554443545433", 0, [(0, 5), (1, 4), (2, 3), (3, 2)]),
    ("662437464744131221525125145155333726773766", 1, [(3, 5), (4, 5), (5, 5), (6, 5)]),
    ("26642166325117214426475174461275757", 0, [(6, 2), (6, 3), (6, 4), (6, 5)]),
]


@pytest.mark.parametrize(("moves", "winner", "line"), EDGE_GAMES)
def test_lines_along_the_edges_win(moves: str, winner: int, line: list[tuple[int, int]]) -> None:
    before = GAME.replay(GAME.parse_moves(moves[:-1]))
    assert not before.is_terminal()
    state = GAME.replay(GAME.parse_moves(moves))
    assert state.winner() == winner
    assert state.winning_line() == tuple(sorted(line))
    assert reference_has_four(state, winner)


# Four stones that would be "in a line" if a shift wrapped across a column or through the
# sentinel: none of these may win.  Each picture's last row is the bottom row.
NEAR_MISSES = {
    "vertical through the sentinel": """
        X . . . . . .
        X . . . . . .
        X . . . . . .
        O . . . . . .
        O . . . . . .
        O X . . . . O
    """,
    "horizontal past the right edge": """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . .
        O . O O X X X
    """,
    "up-right diagonal past the top": """
        . . X . . . .
        . X O . . . .
        X O O . . . .
        O X X . . . .
        X O O O . . .
        O X X X O . .
    """,
    "down-right diagonal past the bottom": """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . O
        . . . . . O O
        . . . . X X X
    """,
}


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_no_win_across_edges(name: str) -> None:
    state = from_picture(NEAR_MISSES[name])
    assert not state.is_terminal(), name
    assert state.winner() is None
    assert not reference_has_four(state, 0) and not reference_has_four(state, 1)


@pytest.mark.slow
def test_wins_match_geometry_on_random_games() -> None:
    rng = random.Random(7)
    for _ in range(400):
        state = EMPTY
        while True:
            for player in (0, 1):
                assert reference_has_four(state, player) == (state.winner() == player)
            if state.is_terminal():
                assert state.winner() is not None or state.ply == WIDTH * HEIGHT
                break
            state = state.play(rng.choice(state.legal_moves()))


def test_full_board_draw() -> None:
    moves = GAME.parse_moves("315366176623116216312432757344455754722547")
    before = GAME.replay(moves[:-1])
    assert not before.is_terminal() and before.legal_moves() == (moves[-1],)
    state = before.play(moves[-1])
    assert state.ply == WIDTH * HEIGHT
    assert state.is_terminal() and state.winner() is None and state.legal_moves() == ()
    assert state.utility(0) == state.utility(1) == 0.0
    assert state.winning_line() is None


# --- keys ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_keys_are_unique_per_position() -> None:
    by_key: dict[int, tuple[tuple[int | None, ...], ...]] = {}
    for state in random_states(20000, seed=11):
        board = grid(state)
        assert by_key.setdefault(state.key(), board) == board
    boards = list(by_key.values())
    assert len(set(boards)) == len(boards)


def test_transpositions_share_a_key() -> None:
    a = GAME.replay(GAME.parse_moves("4455"))
    b = GAME.replay(GAME.parse_moves("5544"))
    assert a == b and a.key() == b.key() and hash(a) == hash(b)
    assert GAME.replay(GAME.parse_moves("4545")) != a


# --- search hooks ------------------------------------------------------------------------------


@pytest.mark.slow
def test_winning_squares_match_geometry() -> None:
    for state in random_states(3000, seed=5):
        mine, theirs = state.current, state.current ^ state.mask
        me = state.to_move
        assert squares(connect4_bitboard.winning_squares(mine, state.mask)) == (
            reference_winning_squares(state, me)
        )
        assert squares(connect4_bitboard.winning_squares(theirs, state.mask)) == (
            reference_winning_squares(state, 1 - me)
        )
        both = connect4_bitboard.threats_of_both(mine, theirs, state.mask)
        assert both == (
            connect4_bitboard.winning_squares(mine, state.mask),
            connect4_bitboard.winning_squares(theirs, state.mask),
        )


@pytest.mark.slow
def test_winning_move_and_search_moves_against_brute_force() -> None:
    checked_orders = 0
    for state in random_states(6000, seed=21):
        me = state.to_move
        legal = state.legal_moves()
        wins = {m for m in legal if state.play(m).winner() == me}
        got = state.search_moves()
        if wins:
            assert state.winning_move() in wins
            assert len(got) == 1 and got[0] in wins
            continue
        assert state.winning_move() is None
        safe = [m for m in legal if state.play(m).winning_move() is None]
        assert set(got) == set(safe)  # () when every move lets the opponent win
        assert len(got) == len(set(got))
        if safe and len(got) > 1:
            # Most new threats first; ties in centre-first order.
            scores = [len(reference_winning_squares(state.play(m), me)) for m in got]
            ranks = [
                (-s, connect4_bitboard.CENTRE_ORDER.index(m))
                for s, m in zip(scores, got, strict=True)
            ]
            assert ranks == sorted(ranks)
            checked_orders += 1
    assert checked_orders > 1000


def test_hooks_at_a_terminal_state() -> None:
    state = GAME.replay(GAME.parse_moves("1212121"))
    assert state.winning_move() is None
    assert state.search_moves() == ()


def load_positions(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    return [(text, int(score)) for text, score in (line.split() for line in lines if line)]


@pytest.mark.slow
def test_pons_positions_parse_and_immediate_results() -> None:
    """Pons' scores: 22 - n for a win with the mover's n-th stone."""
    for name in sorted(p.name for p in DATA.glob("Test_*.txt")):
        for text, score in load_positions(name):
            state = GAME.replay(GAME.parse_moves(text))
            assert GAME.format_moves(GAME.parse_moves(text)) == text
            assert not state.is_terminal()
            ply = state.ply
            win_now = (WIDTH * HEIGHT + 1 - ply) // 2
            assert (state.winning_move() is not None) == (score == win_now), text
            if state.winning_move() is None and ply < WIDTH * HEIGHT - 2:
                # Every move hands the opponent a win <=> lost with the opponent's next stone.
                doomed = all(state.play(m).winning_move() is not None for m in state.legal_moves())
                assert doomed == (score == -((WIDTH * HEIGHT - ply) // 2)), text


def pons_score(state: State, use_hooks: bool) -> int:
    """Exact Pons score by plain negamax (only for positions near the end)."""

    @functools.cache
    def negamax(node: State) -> int:
        if node.is_terminal():
            if node.winner() is None:
                return 0
            return -(22 - (node.ply + 1) // 2)  # the previous mover won with this stone
        moves = node.search_moves() if use_hooks else node.legal_moves()
        if not moves:  # search_moves: every move lets the opponent win with its next stone
            return -(22 - (node.ply + 3) // 2)
        return max(-negamax(node.play(m)) for m in moves)

    return negamax(state)


def test_exact_scores_of_late_positions() -> None:
    late = [(t, s) for t, s in load_positions("Test_L3_R1.txt") if len(t) >= 34]
    assert len(late) > 50
    for text, score in late:
        state = GAME.replay(GAME.parse_moves(text))
        assert pons_score(state, use_hooks=False) == score, text
        assert pons_score(state, use_hooks=True) == score, text


# --- heuristics ----------------------------------------------------------------------------------


def reference_windows(state: State) -> float:
    mine, theirs = state.to_move, 1 - state.to_move
    cells = grid(state)
    score = 0
    for line in LINES:
        owners = [cells[c][r] for c, r in line]
        for player, sign in ((mine, 1), (theirs, -1)):
            if owners.count(1 - player) == 0:
                score += sign * {2: 2, 3: 5}.get(owners.count(player), 0)
    return 0.9 * math.tanh(score / connect4_heuristics.WINDOWS_SCALE)


def test_windows_heuristic_matches_the_plain_loop() -> None:
    for state in random_states(3000, seed=8):
        assert connect4_heuristics.evaluate_windows(state) == pytest.approx(
            reference_windows(state)
        )


def test_centre_weights() -> None:
    weights = connect4_heuristics.SQUARE_WEIGHTS
    assert [weights[col][0] for col in range(WIDTH)] == [3, 4, 5, 7, 5, 4, 3]
    assert [weights[col][2] for col in range(WIDTH)] == [5, 8, 11, 13, 11, 8, 5]
    assert sum(map(sum, weights)) == 69 * 4
    state = GAME.replay([3])  # X in the centre: good for X, so bad for O to move
    assert connect4_heuristics.evaluate_centre(state) < 0
    assert GAME.heuristics["centre"].evaluate(GAME.replay([3, 0])) > 0


def test_heuristics_are_bounded_and_described() -> None:
    assert set(GAME.heuristics) == {"windows", "threats", "centre", "none"}
    assert GAME.default_heuristic == "windows"
    states = random_states(3000, seed=9)
    for name, heuristic in GAME.heuristics.items():
        assert heuristic.name == name and heuristic.description.endswith(".")
        values = [heuristic.evaluate(state) for state in states]
        assert all(-0.9 <= v <= 0.9 for v in values), name
        if name != "none":
            assert len(set(values)) > 20, name
        else:
            assert set(values) == {0.0}


def test_threats_prefer_the_side_with_threats() -> None:
    # X (to move) has an open three on row 0 that O cannot both block.
    state = from_picture("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . O O . .
        . . X X X . .
    """)
    assert state.to_move == 1  # O to move, X has two playable threats
    assert connect4_heuristics.evaluate_threats(state) < -0.5


# --- notation, errors, rendering ------------------------------------------------------------------


def test_notation_round_trip() -> None:
    moves = GAME.parse_moves("4453")
    assert moves == [3, 3, 4, 2]
    assert GAME.format_moves(moves) == "4453"
    assert GAME.parse_moves(" 4 4 5 3 ") == moves
    assert GAME.parse_move("7", EMPTY) == 6
    assert GAME.format_move(0) == "1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4448", r"move 4: illegal move '8' \(a move is one column number 1-7\); legal moves: "),
        ("0", "move 1: illegal move '0'"),
        ("4a", "move 2: illegal move 'a'"),
        (
            "4444444",
            r"move 7: illegal move '4' \(column 4 is full\); legal moves: 1, 2, 3, 5, 6, 7",
        ),
        ("12121212", r"move 8: illegal move '2' \(the game is over\)"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(games.IllegalMoveError, match=message):
        GAME.parse_moves(text)


@pytest.mark.parametrize("move", [7, -1, 99, "3", None, 2.5, [3]])
def test_illegal_moves_name_the_legal_ones(move: object) -> None:
    with pytest.raises(games.IllegalMoveError, match="legal moves: 0, 1, 2, 3, 4, 5, 6"):
        EMPTY.play(move)  # type: ignore[arg-type]


def test_full_column_is_illegal() -> None:
    state = GAME.replay([3] * 6)
    with pytest.raises(games.IllegalMoveError, match=r"illegal move 3 \(the column is full\)"):
        state.play(3)
    assert 3 not in state.legal_moves()


def test_render() -> None:
    state = GAME.replay(GAME.parse_moves("4453"))
    assert GAME.render(state) == "\n".join(
        [
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . O . . .",
            ". . O X X . .",
            "1 2 3 4 5 6 7",
        ]
    )
    assert from_picture(GAME.render(state).rsplit("\n", 1)[0]) == state


def test_constructor_rejects_impossible_boards() -> None:
    with pytest.raises(ValueError, match="gap"):
        State(current=0, mask=0b10)  # a floating stone
    with pytest.raises(ValueError, match="within"):
        State(current=1, mask=0)
    with pytest.raises(ValueError, match="as many stones"):
        State(current=0b11, mask=0b11)


def test_pickle_and_game_link() -> None:
    state = GAME.replay(GAME.parse_moves("4453"))
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.key() == state.key()
    assert copy.to_move == state.to_move and copy.over == state.over
    assert state.game.name == "connect4"
    assert isinstance(state, games.State) and isinstance(GAME, games.Game)
