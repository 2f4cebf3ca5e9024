"""`review` says what it must build first (estimated time and memory) and how long so far."""

from __future__ import annotations

import threading

import pytest

from plyground.cli import review_command
from plyground.games.base import OptionCost


class SlowTableGame:
    """A game whose options make it build a table estimated at 90 s and 3 GB."""

    @staticmethod
    def option_cost(options: dict[str, int]) -> OptionCost:
        return OptionCost("the test table", 60_000_000, 3 * 2**30, 90.0, ("exact",))

    def option_values(self) -> dict[str, int]:
        return {}


def test_a_long_build_is_announced_with_its_estimates_and_a_heartbeat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(review_command, "HEARTBEAT_SECONDS", 0.01)
    beats = threading.Event()
    real_say = review_command.say

    def say(console: object, text: str = "", **kwargs: object) -> None:
        real_say(console, text, **kwargs)  # type: ignore[arg-type]
        if "so far" in text:
            beats.set()

    monkeypatch.setattr(review_command, "say", say)
    with review_command.announced_build(SlowTableGame()):
        assert beats.wait(30)
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert "building the test table first" in first
    assert "60 million states" in first and "3.0 GB" in first and "about 90 s" in first
    assert "so far (about 90 s in all)" in err


def test_a_quick_or_stored_table_is_not_announced(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground import games

    with review_command.announced_build(games.get_game("pig", goal=20)):
        pass
    with review_command.announced_build(games.get_game("connect4")):
        pass
    assert capsys.readouterr().err == ""
