"""The opening as reported: a line that stops at a book position says so, and `analyze
--depth solve` answers openings at once with every move's exact value (connect-four)."""

from __future__ import annotations

import json
import re

import pytest

from plyground import ai, games
from plyground.ai.advice.report import book_end_text, line_text

pytest.importorskip("bitbully_databases")
GAME = games.get_game("connect4")


pytestmark = pytest.mark.usefixtures("real_book")


def solved(moves: str) -> ai.SearchResult:
    return ai.search(
        GAME.replay(GAME.parse_moves(moves)), ai.SearchConfig(ai.DepthLimited("alphabeta", None))
    )


def test_a_line_into_the_book_says_where_it_stops() -> None:
    """8 stones: the line reaches the 12-stone book, which says draw."""
    result = solved("12345671")
    assert result.pv == (5, 3, 3, 2)
    assert line_text(result, GAME) == "6 4 4 3 · then the book: draw"


def test_the_books_value_is_the_root_players_counted_from_the_lines_end() -> None:
    """The empty board: 4 wins in 41 plies; after it the book (the stored openings) says
    the second player loses in 40, i.e. a win in 40 more for the first player."""
    result = solved("")
    assert line_text(result, GAME) == "4 · then the book: win in 40 more"
    odd = solved("4")  # the second player to move: its best line's end is its own view
    text = book_end_text(odd)
    assert text is not None and text.startswith("then the book: loss in ")


def test_a_line_that_reaches_the_end_has_no_book_note() -> None:
    """19 stones, out of the book: the line goes to the end of the game, and a line longer
    than shown is marked as cut ('…'), never as ending in the book."""
    late = ai.search(
        GAME.replay(GAME.parse_moves("4444443333332222226")),
        ai.SearchConfig(ai.DepthLimited(depth=None)),
    )
    assert late.exact and not late.details.pv_ends_in_book and len(late.pv) == 2
    assert "book" not in line_text(late, GAME)
    assert line_text(late, GAME, most=1) == "7 …"


@pytest.mark.parametrize(
    ("moves", "best", "meaning"),
    [
        ("", "4", "win in 41 for Red"),
        ("4", "4", "loss in 40 for Yellow"),
        ("44", "4", "win in 39 for Red"),
        ("4453", None, None),
    ],
)
def test_analyze_solves_openings_at_once(
    moves: str, best: str | None, meaning: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every move exact, found through the book within a few thousand nodes."""
    from main import main

    status = main(["analyze", "--game", "connect4", "--moves", moves, "--depth", "solve", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["exact"] and report["complete"]
    assert report["nodes"] < 50_000
    assert all(
        entry["meaning"].startswith(("win in", "loss in", "draw")) for entry in report["moves"]
    )
    assert len(report["moves"]) == 7
    if best is not None:
        assert report["best_move"] == best and report["meaning"] == meaning
    assert report["pv_end"] is not None and report["pv_end"].startswith("then the book: ")


def test_analyze_text_shows_where_the_line_meets_the_book(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from main import main

    assert main(["analyze", "--game", "connect4", "--moves", "12345671", "--depth", "solve"]) == 0
    out = capsys.readouterr().out
    assert "Principal variation: 6443 · then the book: draw" in out
    assert "exact" in out


def test_a_line_that_stops_short_of_the_end_and_the_book_is_marked_cut() -> None:
    """A depth limit, or a line the search did not keep to the end: '…', never whole."""
    fixed = ai.search(
        GAME.replay(GAME.parse_moves("52753311433677442422121")),
        ai.SearchConfig(ai.DepthLimited("alphabeta", 3)),
    )
    assert fixed.details.pv_stops_early and not fixed.details.pv_ends_in_book
    assert line_text(fixed, GAME).endswith(" …")


def test_analyze_never_shows_an_opening_line_as_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from main import main

    assert main(["analyze", "--game", "connect4", "--moves", "444", "--depth", "solve"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("Principal"))
    # Cut short (…), or ending in the book: "then the book: draw" or "... in 29 more for Yellow".
    assert line.endswith((" …", "draw")) or re.search(r" more for \w+$", line), line
