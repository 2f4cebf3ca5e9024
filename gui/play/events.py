"""What the play controller tells the scene, and what its parts tell each other: two small
typed unions of events (no pygame).

Each event is a frozen dataclass; its `kind` names it in a word (for logs and filters).
`Event`s wait for the scene (`Match.take_events`); `Handoff`s go at once from one part of the
controller to another (`Match.hand_off`), never to the scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from plyground.games.base import State

if TYPE_CHECKING:
    from plyground.ai.engine.result import SearchResult
    from plyground.gui.play.search_jobs import SearchJob
    from plyground.gui.worker.messages import PositionEvaluated


@dataclass(frozen=True)
class Played:
    """A player's `move` from `before`: the scene animates it; the kit says how it sounds."""

    move: Any
    before: State[Any]
    kind: ClassVar[str] = "played"


@dataclass(frozen=True)
class ChanceDrawn:
    """A chance outcome is being drawn at `before` (the die is thrown)."""

    before: State[Any]
    kind: ClassVar[str] = "chance_drawn"


@dataclass(frozen=True)
class ChanceSettled:
    """The chance `outcome` at `before` has come to rest and is played."""

    outcome: Any
    before: State[Any]
    kind: ClassVar[str] = "chance_settled"


@dataclass(frozen=True)
class Reset:
    """Undo, redo or a new game: animations and per-position marks go."""

    kind: ClassVar[str] = "reset"


@dataclass(frozen=True)
class Message:
    """A message on the board (`text` "" clears it); tone "success", "danger" or "warning"."""

    text: str
    tone: str
    kind: ClassVar[str] = "message"


@dataclass(frozen=True)
class Toast:
    """A line over the board for a few seconds."""

    text: str
    tone: str
    kind: ClassVar[str] = "toast"


@dataclass(frozen=True)
class GameOver:
    """The game has ended (its card slides in)."""

    kind: ClassVar[str] = "over"


@dataclass(frozen=True)
class Rebuild:
    """The widgets change (pause, the analysis shown or hidden...)."""

    kind: ClassVar[str] = "rebuild"


@dataclass(frozen=True)
class Swapped:
    """The sides' players were exchanged."""

    kind: ClassVar[str] = "swapped"


@dataclass(frozen=True)
class Sound:
    """A play event of the kit's sound map (`gui.sound`), for `player` (None: no one)."""

    name: str
    player: int | None = None
    kind: ClassVar[str] = "sound"


@dataclass(frozen=True)
class Reviewed:
    """One more position of the game review is evaluated."""

    kind: ClassVar[str] = "reviewed"


Event = (
    Played
    | ChanceDrawn
    | ChanceSettled
    | Reset
    | Message
    | Toast
    | GameOver
    | Rebuild
    | Swapped
    | Sound
    | Reviewed
)
"""Everything the controller reports."""


# -- between the controller's parts ---------------------------------------------------


@dataclass(frozen=True)
class ReviewPositionIn:
    """The worker evaluated one position of the game review (for `GameReviewer`)."""

    position: PositionEvaluated
    kind: ClassVar[str] = "review_position"


@dataclass(frozen=True)
class ReviewFailed:
    """The game review's search failed with the game as it stands (for `GameReviewer`)."""

    kind: ClassVar[str] = "review_failed"


@dataclass(frozen=True)
class BrowsedSearched:
    """A browsed position's search answered (for `Browse`)."""

    job: SearchJob
    result: SearchResult
    kind: ClassVar[str] = "browsed"


@dataclass(frozen=True)
class Forfeit:
    """`player`'s file failed: it loses this game (the controller counts it)."""

    player: int
    kind: ClassVar[str] = "forfeit"


@dataclass(frozen=True)
class AIStuck:
    """The AI could not move (two AIs playing pause, so nothing runs on unseen)."""

    kind: ClassVar[str] = "ai_stuck"


Handoff = ReviewPositionIn | ReviewFailed | BrowsedSearched | Forfeit | AIStuck
"""What one part of the controller tells another."""
