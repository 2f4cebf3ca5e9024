"""The match's state, which the play controller's parts share (no pygame).

`Match` holds what every part reads: the game and its history, who plays each side, the
clock, the worker, the notice, the pause, and the events waiting for the scene.  The parts
(`SearchJobs`, `Browse`, `GameReviewer`) each take the `Match` and the sibling parts they use,
never the controller; they hand each other news as `events.Handoff` events, which the
controller (a `Match` itself) passes on to the part concerned.  The scene reads the events
meant for it with `take_events()` once per frame: no call goes back into the scene while the
controller acts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from plyground.games.base import CHANCE, Game, Move, State, move_limit_reached, moves_allowed
from plyground.gui.play import events
from plyground.gui.play import sides as side_info
from plyground.gui.play.game_history import GameHistory
from plyground.gui.storage import settings
from plyground.gui.worker.messages import WorkerMessage
from plyground.gui.worker.requests import Request


class SearchWorker(Protocol):
    """What the match needs of `gui.worker.ai_worker.AIWorker` (tests pass a fake)."""

    def start(self) -> None: ...
    def cancel(self) -> None: ...
    def end_game(self) -> None: ...
    def poll(self) -> list[WorkerMessage]: ...
    def preparing(self, game_name: str) -> bool: ...
    def submit(self, request: Request) -> int: ...


class Match:
    """One match: the game, its history, its sides and clock, and the scene's events."""

    def __init__(
        self,
        game_name: str,
        game: Game[Any],
        stored: settings.Settings,
        worker: SearchWorker,
        clock: Callable[[], float],
        *,
        seed: int,
        animate: bool = True,
    ) -> None:
        self.game_name = game_name
        self.game = game
        self.settings = stored
        self.worker = worker
        self.clock = clock
        self.animate = animate
        self.history = GameHistory(game, seed=seed)
        self.games_started = 0
        self.recorded = False
        self.over_since: float | None = None
        self.ai_enabled = True
        """Screenshots switch the AI off to show a position as it stands."""
        self.paused = False
        self.hint: Move | None = None
        self.roll: tuple[Move, float] | None = None
        self.hold_until = 0.0
        """The scene's animations hold the next move until then."""
        self.notice: tuple[str, float] | None = None
        self._events: list[events.Event] = []

    # -- what every part reads ------------------------------------------------------

    @property
    def now(self) -> float:
        """The injected clock's time."""
        return self.clock()

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.history.state

    @property
    def sides(self) -> list[settings.SideSetup]:
        """The current side set-ups (shared with the settings, so changes apply at once)."""
        sides: list[settings.SideSetup] = self.settings.sides[self.game_name]
        return sides

    def is_human(self, player: int) -> bool:
        """Whether `player` (0/1) is played by a person."""
        return not self.sides[player].is_ai

    def any_ai(self) -> bool:
        """Whether the computer plays at least one side."""
        return any(side.is_ai for side in self.sides)

    def ai_vs_ai(self) -> bool:
        """Whether the computer plays both sides."""
        return all(side.is_ai for side in self.sides)

    def at_move_limit(self) -> bool:
        """Whether the game, not over, reached its move limit: it stops there, scored a draw,
        as a game of `match` does (`games.base.move_limit_reached`)."""
        return not self.state.is_terminal() and move_limit_reached(
            self.game, self.history.decisions()
        )

    def game_ended(self) -> bool:
        """Whether the game is over: played to its end or stopped at its move limit."""
        return self.state.is_terminal() or self.at_move_limit()

    def move_limit(self) -> int:
        """The most player moves a game may take here (`games.base.moves_allowed`)."""
        return moves_allowed(self.game)

    def human_turn(self) -> bool:
        """Whether a person is to move now."""
        state = self.state
        return not self.game_ended() and state.to_move != CHANCE and self.is_human(state.to_move)

    def busy(self) -> bool:
        """Whether an animation or a rolling die holds the next move."""
        return self.now < self.hold_until or self.roll is not None

    def hold(self, seconds: float) -> None:
        """The scene animates for `seconds`: no next move before then."""
        self.hold_until = max(self.hold_until, self.now + seconds)

    def colour_names(self) -> tuple[str, str]:
        """X/O, Red/Yellow or Player 1/2 (the game's side names)."""
        return side_info.side_names(self.game_name, self.settings.palette)

    def game_options(self) -> dict[str, int]:
        """The game's options, as its factory takes them (e.g. {"goal": 100})."""
        return dict(self.game.option_values())

    # -- notices and events ---------------------------------------------------------

    def set_notice(self, text: str, seconds: float = 1.6) -> None:
        """A gentle message in the status line."""
        self.notice = (text, self.now + seconds)

    def current_notice(self) -> str | None:
        """The notice still showing, if any."""
        if self.notice is not None and self.now < self.notice[1]:
            return self.notice[0]
        return None

    def emit(self, event: events.Event) -> None:
        """Tell the scene (it reads the event on its next `take_events`)."""
        self._events.append(event)

    def hand_off(self, event: events.Handoff) -> None:
        """Tell another part (the controller passes it on; here nobody listens)."""

    def take_events(self) -> list[events.Event]:
        """The events for the scene since it last asked, oldest first."""
        taken, self._events = self._events, []
        return taken
