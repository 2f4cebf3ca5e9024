"""The game protocol every game implements and every search depends on.

A game is a `Game` object (rules, notation, heuristics) plus an immutable, hashable
`State`.  `State.play` returns a new state; nothing ever mutates a state, so undo is a
list of states and a state can be a dictionary key or be sent to another process.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import (
    Any,
    Protocol,
    TypeAlias,
    TypeVar,
    get_type_hints,
    runtime_checkable,
)

Side: TypeAlias = int
"""0 or 1 for the two players, or `CHANCE` at a chance node."""

Move: TypeAlias = Any
"""A game's move when the game is not known: an int (cell or column), a string (Pig's
"roll"/"hold", die faces), a tuple (a game from a file's)."""

M = TypeVar("M")
"""The move type of one game (`State[int]` for tic-tac-toe's cells)."""

CHANCE: Side = -1
"""`State.to_move` at a chance node (Pig's die roll)."""

HEURISTIC_LIMIT = 0.9
"""Every heuristic value lies in [-HEURISTIC_LIMIT, HEURISTIC_LIMIT]: strictly weaker than
a proven result, which is worth more than 0.9 (see `ai.evaluation.values`)."""


class IllegalMoveError(ValueError):
    """A move that is not legal in a state, or move text that does not parse."""


def illegal(move: object, legal: Sequence[str], why: str = "") -> IllegalMoveError:
    """Build the error for `move`, naming the legal moves so the message helps."""
    allowed = ", ".join(legal) if legal else "none (the game is over)"
    reason = f" ({why})" if why else ""
    return IllegalMoveError(f"illegal move {move!r}{reason}; legal moves: {allowed}")


@dataclass(frozen=True, slots=True)
class Heuristic:
    """A named evaluation function, from the point of view of the player to move.

    `evaluate(state)` returns a value in [-HEURISTIC_LIMIT, HEURISTIC_LIMIT] for a
    non-terminal state whose `to_move` is 0 or 1; for a chance state it is called with
    the state and evaluates it for the player whose turn it is (`state.player`).
    """

    name: str
    description: str
    evaluate: Callable[[Any], float]
    exact: bool = False
    """The evaluation is the position's true value (a game's exact table), not an estimate:
    values resting on it are exact, from the table (ai.evaluation.provenance)."""
    blind: bool = False
    """The evaluation cannot judge an unfinished position (always 0, or a utility that answers
    only for finished games): Monte Carlo playouts do not stop for it, and a game from a file
    whose evaluation is blind gets Monte Carlo tree search as its strongest level."""


@dataclass(frozen=True, slots=True)
class GameOption:
    """One whole-number option a game takes, as a keyword of its factory (Pig's goal).

    The set-up screen, settings, saves and the terminal's ``--option name=value`` read this;
    none of them knows which game has which option.
    """

    name: str
    title: str
    default: int
    minimum: int
    maximum: int
    help: str

    def check(self, value: object) -> int:
        """`value` if it is a whole number in range, else ValueError naming the range."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{self.name} must be a whole number, not {value!r}")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"{self.name} must be {self.minimum} to {self.maximum}, not {value}")
        return value


@dataclass(frozen=True, slots=True)
class Preset:
    """A named difficulty level as plain data: the settings of a computer player.

    `depth` None means no limit (solve, within `time_limit` if set).  `description` is one
    or two sentences true of this game only, shown in the set-up screen.
    """

    name: str
    algorithm: str
    depth: int | None
    heuristic: str | None = None
    time_limit: float | None = None
    randomness: float = 0.0
    description: str = ""
    node_limit: int | None = None
    """The most positions a move may search: deepening keeps the deepest depth finished
    within them (a budget no machine's speed changes)."""
    exploration: float | None = None
    """With algorithm "mcts": UCB1's exploration constant (None: the engine's default)."""
    iterations: int | None = None
    """With algorithm "mcts": its iterations a move, within `time_limit` (None: as many as
    the time limit allows)."""


@dataclass(frozen=True, slots=True)
class BenchPosition:
    """A fixed position a game offers the search benchmark: the moves that lead there."""

    label: str
    moves: str
    options: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class SolverSet:
    """One file of solved positions, a 'moves score' line each (see `SolverBenchmark`)."""

    name: str
    """Short name ("L3_R1"); the file is `SolverBenchmark.file_name(name)`."""
    stage: str
    """What kind of positions, for the report ("end game, easy")."""
    reference: tuple[float, float] | None = None
    """Mean nodes and seconds per position of the reference solver, if published."""
    hard: bool = False
    """Minutes or more a position: run only on request, with a per-position time limit."""


@dataclass(frozen=True, slots=True)
class SolverBenchmark:
    """Test sets of exactly solved positions a game offers the solver benchmark.

    `score(outcome, plies_to_end, moves_played)` turns a proven result (outcome +1, 0 or -1
    for the side to move; the game ends `plies_to_end` plies from now, None for a draw)
    into the score the files give.
    """

    title: str
    directory: Path
    sets: tuple[SolverSet, ...]
    default_plan: tuple[tuple[str, int | None], ...]
    """(set, positions or None for all) run when no set is named."""
    score: Callable[[int, int | None, int], int]
    reference_name: str = "reference"
    reference_note: str = ""
    file_prefix: str = "Test_"
    file_suffix: str = ".txt"

    def file_name(self, name: str) -> str:
        """The file of a set, by short name."""
        return f"{self.file_prefix}{name}{self.file_suffix}"

    def short_name(self, text: str) -> str:
        """A set's short name from its short name or file name, any case; ValueError if none."""
        short = text.strip()
        if short.lower().startswith(self.file_prefix.lower()):
            short = short[len(self.file_prefix) :]
        if short.lower().endswith(self.file_suffix.lower()):
            short = short[: len(short) - len(self.file_suffix)]
        for solver_set in self.sets:
            if solver_set.name.lower() == short.lower():
                return solver_set.name
        names = ", ".join(solver_set.name for solver_set in self.sets)
        raise ValueError(f"unknown set {text!r}; choose from {names}")

    def find(self, name: str) -> SolverSet | None:
        """A set by exact short name."""
        return next((s for s in self.sets if s.name == name), None)


@dataclass(frozen=True, slots=True)
class OptionCost:
    """What a game's options make it build before it can play well (optional hook
    ``Game.option_cost(options) -> OptionCost | None``, a static method readable on the
    factory): Pig's optimal-play table grows with the cube of the goal.

    `ai.engine.cost.option_refusal` compares `memory` with the machine's memory, so an option
    value whose table cannot be built here is refused with the reason before anything
    starts; `heuristics` are the heuristics that read the table (its policy picture, its
    reference policy and the window's exact odds read it too).
    """

    what: str
    """What is built, for messages ("the optimal-play table for goal 1000")."""
    states: int
    memory: int
    """Bytes it takes while it is built (an estimate)."""
    seconds: float
    """Time to build it on a typical machine (an estimate; 0 when it is stored)."""
    heuristics: tuple[str, ...] = ()


class ReferencePolicy(Protocol):
    """Known-best decisions a game offers (optional hook `Game.reference_policy()`).

    The policy study in `ai.compare.policy_agreement` compares any preset's choices with these.
    Decision states are small picklable keys; `state(key)` builds the position.  Optional:
    `key_of(state) -> key | None`, the key of any position with a player to move (then
    `move_values` are exact win chances the game review reads: `ai.advice.review_evaluator`).
    """

    title: str
    """What the reference is, for the report ("the optimal policy")."""
    subsets: tuple[tuple[str, str], ...]
    """(name, title) of the groups of states the report shows; the first is every state."""

    def decision_keys(self) -> list[Any]:
        """Every decision state's key, in a fixed order."""
        ...

    def state(self, key: Any) -> Any:
        """The position of a key, with a player to move."""
        ...

    def in_subset(self, key: Any, subset: str) -> bool:
        """Whether a state belongs to one of `subsets`."""
        ...

    def best_move(self, key: Any) -> Move:
        """The reference's move in a state."""
        ...

    def move_values(self, key: Any) -> dict[Move, float]:
        """Each legal move's value (the win probability of the move then best play)."""
        ...


@runtime_checkable
class ValuedReferencePolicy(ReferencePolicy, Protocol):
    """A reference policy that also keys any position with a player to move, so the game
    review reads its exact win chances (`ai.advice.review_evaluator`)."""

    def key_of(self, state: Any) -> Any:
        """The key of a position with a player to move, or None where it has none."""
        ...


PURE_PYTHON_VARIABLE = "PLYGROUND_PURE_PYTHON"
"""Set (to anything) in the environment, no game offers its exact engine: every solve runs
on the pure-Python alpha-beta, the reference."""
DISTANCE_WIN = 1000
"""An exact engine's value of a win `d` plies away is ``DISTANCE_WIN - d`` (a loss: its
negation, a draw: 0); the search's value scale is this times a whole number of units."""


class ExactEngine(Protocol):
    """A game's own exact solver (optional hook `State.exact_engine()`: connect-four's compiled
    one).  `ai` solves on it wherever it would solve with its own alpha-beta, so it must
    give the same values; the pure-Python alpha-beta stays the reference."""

    name: str
    """A short name for reports ("compiled")."""
    move_nodes: int
    """The nodes a player's move on a time budget may spend on the engine (its solve, or its
    proof of a known value and the root search after it; under 2 s on an idle 2-core machine):
    bounded by nodes, the move is the same on every machine."""

    def probe(self, state: Any, low: int, high: int, node_limit: int) -> tuple[int, int, bool]:
        """(value, nodes, finished): the value of `state` for its player to move, in distance
        values, fail-hard within (low, high); `finished` False once `node_limit` nodes are
        spent (the value then means nothing)."""
        ...

    best_move: Any
    """After `solve`: a move that keeps the solved value, or None where it knows none."""

    def solve(self, state: Any, node_limit: int) -> tuple[int, int, bool]:
        """(value, nodes, finished): the exact value of `state`, as `probe` gives it."""
        ...

    def clear(self) -> None:
        """Forget every stored result, at once (the table is kept between searches; a count
        that must not depend on what ran before starts with this)."""
        ...

    def ready(self) -> float:
        """Load what the engine's first solve would load (compiled code, books), once per
        process; the seconds it took (0 when it was ready).  A search calls it before its
        clock counts, so the engine's start-up is never taken for its speed."""
        ...


class KnownValue(Protocol):
    """A value a game knows without searching: an opening book's or a stored solution's."""

    def bounds(self, win: int, step: int, plies_left: int) -> tuple[int, int]:
        """(lowest, highest) on a scale where a win `d` plies away is ``win - d * step``."""
        ...


# ---------------------------------------------------------------- optional state hooks
# Methods a State class may define; `Capabilities` records which ones it does.


@runtime_checkable
class WinningMove(Protocol):
    """A move that wins at once, or None (answers the search without searching)."""

    def winning_move(self) -> Move | None: ...


@runtime_checkable
class SearchMoves(Protocol):
    """The moves worth searching, best first; () when every move loses at once."""

    def search_moves(self) -> tuple[Move, ...]: ...


@runtime_checkable
class PlyHorizon(Protocol):
    """At most how many plies the game can still last."""

    def max_plies_left(self) -> int: ...


@runtime_checkable
class OpeningBook(Protocol):
    """An opening book's value of this position, or None where it is silent."""

    def book_value(self) -> KnownValue | None: ...


@runtime_checkable
class SolvedValue(Protocol):
    """A stored exact value of this position (used only when solving), or None."""

    def solved_value(self) -> KnownValue | None: ...


@runtime_checkable
class RepetitionValue(Protocol):
    """What a position is worth when it repeats one earlier in the line a search follows, for
    the player to move there: 1 a win, 0 a draw, -1 a loss (without the hook: a draw).  Only
    a search to the end of the game asks it (a fixed-depth search stops anyway)."""

    def repetition_value(self) -> float: ...


@runtime_checkable
class CheapSolve(Protocol):
    """Whether solving this position is quick whatever the size of its tree."""

    def solve_is_cheap(self) -> bool: ...


@runtime_checkable
class SolveSpeed(Protocol):
    """Nodes a second of a solve from here on the game's own engine, or None."""

    def solve_speed(self) -> float | None: ...


@runtime_checkable
class HasExactEngine(Protocol):
    """The game's own exact solver (None where it does not run) and which one runs."""

    def exact_engine(self) -> ExactEngine | None: ...
    def exact_engine_status(self) -> str: ...


@runtime_checkable
class Scored(Protocol):
    """A finished position's own number for `player` where it is a score, not only a result
    (a textbook tree from a file: the game says so with `utility_is_value`)."""

    def score(self, player: Side) -> float: ...


@runtime_checkable
class History(Protocol):
    """The moves and chance outcomes that led to the position from the start (a state that
    is not a dataclass travels to another process as these, `ai.student_code.messages`)."""

    def history(self) -> list[Move]: ...


class Position(Protocol):
    """What alpha-beta asks of every node it searches: a `State` answers it, and so does a
    game's walk in place (`InPlacePosition`), so the engine's loop reads either alike."""

    @property
    def player(self) -> Side:
        """The player whose turn it is."""
        ...

    def is_terminal(self) -> bool: ...
    def legal_moves(self) -> tuple[Any, ...]: ...
    def key(self) -> Hashable: ...
    def winner(self) -> Side | None: ...
    def utility(self, player: Side) -> float: ...
    def play(self, move: Any) -> Position: ...


@runtime_checkable
class RandomPlayout(Protocol):
    """A game that plays a random game to its end itself, faster than position by position:
    at each ply the move ``legal_moves()[int(rng.random() * len(legal_moves()))]`` (so the
    same generator gives the same game as playing it move by move); returns the winner (0, 1)
    or None for a draw.  Monte Carlo tree search's random playouts use it where offered."""

    def random_playout(self, rng: random.Random) -> Side | None: ...


@runtime_checkable
class InPlacePosition(Position, Protocol):
    """One position the engine walks in place: `play(move)` moves it on and returns itself,
    `undo()` takes the last move back.  While it walks, it answers every question of a
    `Position` for the position it stands on (and `to_move`, and `score` where the game has
    scores), and the game's own heuristics read it as they read a state.  `release()` ends the
    walk.  A game offers one (``in_place()`` on its states) where making and unmaking a move
    costs less than a new position; the engine's alpha-beta then searches the same nodes and
    gives the same values, faster."""

    @property
    def to_move(self) -> Side: ...

    def play(self, move: Any) -> InPlacePosition: ...
    def undo(self) -> None: ...
    def release(self) -> None: ...


@runtime_checkable
class InPlace(Protocol):
    """A state that can start an in-place walk of its subtree (`InPlacePosition`)."""

    def in_place(self) -> InPlacePosition: ...


@runtime_checkable
class KaggleObservation(Protocol):
    """The position as a Kaggle environment's observation for an agent."""

    def kaggle_observation(self) -> dict[str, Any]: ...


@runtime_checkable
class State(Protocol[M]):
    """What the search and the front end may ask of a position, generic over the move type
    (``State[int]``; ``State[Any]`` where the game is not known, as in `ai`).  Nothing else:
    a member only some games have is an optional hook, read through `state_capabilities`."""

    @property
    def STOCHASTIC(self) -> bool:
        """True for games with chance nodes: values are win probabilities, no distance bonus."""
        ...

    @property
    def game(self) -> Game[M]:
        """The game the position belongs to (its heuristics, notation and options)."""
        ...

    @property
    def to_move(self) -> Side: ...

    @property
    def player(self) -> Side:
        """The player whose turn it is, also at a chance node (the one who rolled)."""
        ...

    @property
    def ply(self) -> int:
        """Number of player decisions made since the initial state."""
        ...

    def legal_moves(self) -> tuple[M, ...]: ...
    def play(self, move: M) -> State[M]: ...
    def is_terminal(self) -> bool: ...
    def winner(self) -> Side | None: ...
    def utility(self, player: Side) -> float: ...
    def chance_outcomes(self) -> tuple[tuple[M, float], ...]: ...
    def key(self) -> Hashable: ...
    def winning_line(self) -> tuple[Any, ...] | None:
        """The cells that won the game, in the game's own coordinates, or None."""
        ...


@runtime_checkable
class Game(Protocol[M]):
    """A game's rules, notation and heuristics, and its description as class attributes.

    Optional members (`BenchPositions`, `SolverBenchmarked`, `HasReferencePolicy`, ... below,
    and the State hooks above) are read once per class into its `Capabilities`.
    """

    name: str
    title: str
    stochastic: bool
    heuristics: dict[str, Heuristic]
    default_heuristic: str
    side_names: tuple[str, str]
    """The two sides as a player sees them ("X", "O"; "Red", "Yellow")."""
    options: tuple[GameOption, ...]
    """The keyword options of the game's factory (empty for most games)."""
    notation_help: str
    """One line on how moves are written, for help texts and error messages."""
    presets: tuple[Preset, ...]
    """Difficulty levels, easiest first."""

    def option_values(self) -> dict[str, int]:
        """This game's options as given to its factory (``{"goal": 50}`` for Pig)."""
        ...

    def initial_state(self) -> State[M]: ...
    def parse_move(self, text: str, state: Any) -> M: ...
    def format_move(self, move: M) -> str: ...
    def parse_moves(self, text: str) -> list[M]: ...
    def format_moves(self, moves: Sequence[M]) -> str: ...
    def replay(self, moves: Sequence[M]) -> State[M]: ...
    def render(self, state: Any) -> str:
        """The position as plain text for the terminal (a small board drawing)."""
        ...


# ----------------------------------------------------------------- optional game hooks
# Members a Game class may define, readable on the class (the factory) without an instance.


@runtime_checkable
class WarmUp(Protocol):
    """Load what the game's first solve needs (a compiled engine, a book) now; seconds taken."""

    @staticmethod
    def warm_up() -> float: ...


@runtime_checkable
class BenchPositions(Protocol):
    """Fixed positions the search benchmark times."""

    bench_positions: tuple[BenchPosition, ...]


@runtime_checkable
class SolverBenchmarked(Protocol):
    """Test sets of exactly solved positions for the solver benchmark."""

    solver_benchmark: SolverBenchmark | None


@runtime_checkable
class HasReferencePolicy(Protocol):
    """Known-best decisions to measure presets and review games by."""

    def reference_policy(self) -> ReferencePolicy: ...


@runtime_checkable
class OptionCosting(Protocol):
    """What the given options make the game build before it plays well, or None."""

    @staticmethod
    def option_cost(options: dict[str, int]) -> OptionCost | None: ...


@runtime_checkable
class KaggleConfiguration(Protocol):
    """The game as a Kaggle environment's configuration, for Kaggle agents."""

    def kaggle_configuration(self) -> dict[str, Any]: ...


@runtime_checkable
class MoveTimeLimit(Protocol):
    """Seconds a student's agent may take for one move in this game."""

    move_time_limit: float


@runtime_checkable
class SidesAlternate(Protocol):
    """Every move passes the turn to the other side (no extra turns): the engine then backs
    each value up by negating it without asking the child whose move it is."""

    sides_alternate: bool


class MoveLimit(Protocol):
    """The most player moves one game may take in a match or a tournament before it is stopped
    and scored a draw (`DEFAULT_MOVE_LIMIT` where a game names none): a game whose lines may
    go on forever (a token walking a ring, positions that repeat) ends."""

    move_limit: int


DEFAULT_MOVE_LIMIT = 2_000
"""The move limit of a game that names none (`MoveLimit`): a hundred times a long game of the
built-in ones, and a game that cannot end is over in seconds at the presets' speed."""


def moves_allowed(game: object) -> int:
    """A game's move limit (`MoveLimit`): its own where it names a whole number of 1 or more,
    else `DEFAULT_MOVE_LIMIT`."""
    own = getattr(game, "move_limit", None)
    if isinstance(own, int) and not isinstance(own, bool) and own >= 1:
        return own
    return DEFAULT_MOVE_LIMIT


def move_limit_reached(game: object, decisions: int) -> bool:
    """Whether a game whose players made `decisions` moves (chance outcomes not counted) has
    reached its move limit (`moves_allowed`): it stops there, scored a draw."""
    return decisions >= moves_allowed(game)


@runtime_checkable
class OpenSpielTwin(Protocol):
    """The same game in OpenSpiel (``pyspiel.load_game(openspiel_name)``), whose actions are
    this game's moves: the benchmarks time OpenSpiel's searches on it beside ours."""

    openspiel_name: str


@runtime_checkable
class PolicyPicture(Protocol):
    """A picture of the game's policy around a position, as plain data."""

    def policy_picture(self, state: Any, chosen: Move | None = None) -> dict[str, Any]: ...


@runtime_checkable
class ExercisePositions(Protocol):
    """(moves, depth, options) positions the exercise grader checks students' searches on."""

    exercise_positions: tuple[tuple[str, int, dict[str, int]], ...]


@runtime_checkable
class TextbookTree(Protocol):
    """How the trace names and values an explicit tree's nodes (the textbook's lesson trees)."""

    utility_is_value: bool
    """Leaves carry the values to show: a search reports them unscaled."""
    root_label: str
    """The root's name (the book calls it A)."""
    labels_name_nodes: bool
    """Move labels already name each node uniquely: no need to write out its path."""


REQUIRED_GAME_MEMBERS = (
    "name",
    "title",
    "stochastic",
    "default_heuristic",
    "side_names",
    "options",
    "notation_help",
    "presets",
    "option_values",
    "initial_state",
    "parse_move",
    "format_move",
    "parse_moves",
    "format_moves",
    "replay",
    "render",
)
"""What a game class must define (`Game`); `heuristics` may be set per instance, so the class
is not asked for it."""
REQUIRED_STATE_MEMBERS = (
    "STOCHASTIC",
    "game",
    "to_move",
    "player",
    "ply",
    "legal_moves",
    "play",
    "is_terminal",
    "winner",
    "utility",
    "chance_outcomes",
    "key",
    "winning_line",
)
"""What a game's State class must define (`State`), as attributes or dataclass fields."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """The optional hooks one game class offers, read once from the class and its State class.

    A state hook is the State class's function (call it with the state: ``hook(state)``), a game
    method is the Game class's function (call it with the game), a static hook is called
    with its arguments alone; each is None where the game does not offer it.
    """

    state_class: type | None
    """The game's State class (None where the game does not say)."""
    winning_move: Callable[[Any], Move | None] | None = None
    search_moves: Callable[[Any], tuple[Move, ...]] | None = None
    max_plies_left: Callable[[Any], int] | None = None
    book_value: Callable[[Any], KnownValue | None] | None = None
    solved_value: Callable[[Any], KnownValue | None] | None = None
    solve_is_cheap: Callable[[Any], bool] | None = None
    solve_speed: Callable[[Any], float | None] | None = None
    exact_engine: Callable[[Any], ExactEngine | None] | None = None
    exact_engine_status: Callable[[Any], str] | None = None
    kaggle_observation: Callable[[Any], dict[str, Any]] | None = None
    score: Callable[[Any, int], float] | None = None
    repetition_value: Callable[[Any], float] | None = None
    in_place: Callable[[Any], InPlacePosition] | None = None
    random_playout: Callable[[Any, random.Random], Side | None] | None = None
    warm_up: Callable[[], float] | None = None
    option_cost: Callable[[dict[str, int]], OptionCost | None] | None = None
    reference_policy: Callable[[Any], ReferencePolicy] | None = None
    kaggle_configuration: Callable[[Any], dict[str, Any]] | None = None
    policy_picture: Callable[..., dict[str, Any]] | None = None
    bench_positions: tuple[BenchPosition, ...] = ()
    solver_benchmark: SolverBenchmark | None = None
    exercise_positions: tuple[tuple[str, int, dict[str, int]], ...] = ()
    move_time_limit: float | None = None
    sides_alternate: bool = False
    move_limit: int | None = None
    openspiel_name: str | None = None
    utility_is_value: bool = False
    root_label: str = "root"
    labels_name_nodes: bool = False

    def offered(self) -> frozenset[str]:
        """The names of the hooks this game offers (those that differ from their default)."""
        return frozenset(
            item.name
            for item in fields(self)
            if item.name != "state_class" and getattr(self, item.name) != item.default
        )


_STATE_HOOKS = (
    "winning_move",
    "search_moves",
    "max_plies_left",
    "book_value",
    "solved_value",
    "solve_is_cheap",
    "solve_speed",
    "exact_engine",
    "exact_engine_status",
    "kaggle_observation",
    "score",
    "repetition_value",
    "in_place",
    "random_playout",
)
_GAME_HOOKS = (
    "warm_up",
    "option_cost",
    "reference_policy",
    "kaggle_configuration",
    "policy_picture",
    "bench_positions",
    "solver_benchmark",
    "exercise_positions",
    "move_time_limit",
    "sides_alternate",
    "move_limit",
    "openspiel_name",
    "utility_is_value",
    "root_label",
    "labels_name_nodes",
)
_BY_GAME_CLASS: dict[type, Capabilities] = {}
_BY_STATE_CLASS: dict[type, Capabilities] = {}


def _class_of(game_or_factory: object) -> type:
    return game_or_factory if isinstance(game_or_factory, type) else type(game_or_factory)


def state_class_of(factory: type) -> type | None:
    """A game class's State class: its declared ``State`` attribute, else the return type of
    its ``initial_state``, else the type of the initial state of a game made with no options."""
    declared = getattr(factory, "State", None)
    if isinstance(declared, type):
        return declared
    if not hasattr(factory, "initial_state"):
        return None
    try:
        hinted = get_type_hints(factory.initial_state).get("return")
    except Exception:  # an annotation that does not resolve at run time
        hinted = None
    if isinstance(hinted, type) and hinted is not object:
        return hinted
    try:
        return type(factory().initial_state())
    except Exception:  # a factory that needs options, or no initial_state at all
        return None


def _has_member(cls: type, name: str) -> bool:
    """Whether `cls` defines `name`, as an attribute or as a dataclass field without default."""
    return hasattr(cls, name) or any(
        name in vars(k).get("__annotations__", {}) for k in cls.__mro__
    )


def missing_members(factory: object) -> list[str]:
    """The members of `Game` and of its `State` a game class lacks (empty: a complete game)."""
    cls = _class_of(factory)
    missing = [name for name in REQUIRED_GAME_MEMBERS if not _has_member(cls, name)]
    state = state_class_of(cls)
    if state is None:
        missing.append("State (declare it, or annotate initial_state's return type)")
    else:
        missing += [
            f"{state.__name__}.{name}"
            for name in REQUIRED_STATE_MEMBERS
            if not _has_member(state, name)
        ]
    return missing


def _read_capabilities(cls: type, state: type | None) -> Capabilities:
    found: dict[str, Any] = {}
    if state is not None:
        found.update((name, getattr(state, name, None)) for name in _STATE_HOOKS)
    found.update(
        (name, getattr(cls, name)) for name in _GAME_HOOKS if getattr(cls, name, None) is not None
    )
    return Capabilities(state, **found)


def capabilities(game_or_factory: object) -> Capabilities:
    """The optional hooks of a game (or its class, the registry's factory), read once per class."""
    cls = _class_of(game_or_factory)
    found = _BY_GAME_CLASS.get(cls)
    if found is None:
        state = state_class_of(cls)
        found = _BY_GAME_CLASS[cls] = _read_capabilities(cls, state)
        if state is not None:
            _BY_STATE_CLASS.setdefault(state, found)
    return found


def state_capabilities(state: object) -> Capabilities:
    """The optional hooks of a state's game, read once per State class: its game's record (the
    game from the state's ``game``, where it has one), else the State class's own hooks."""
    cls = type(state)
    found = _BY_STATE_CLASS.get(cls)
    if found is None:
        game = getattr(state, "game", None)
        if game is not None and capabilities(game).state_class is cls:
            found = capabilities(game)
        else:
            found = _read_capabilities(object, cls)
        _BY_STATE_CLASS[cls] = found
    return found


def moves_again(state: Any, move: Move) -> bool:
    """Whether the side to move at `state` is to move again after `move` (an extra turn, as
    in Kalah or dots and boxes); never in a game whose sides alternate (`SidesAlternate`)."""
    if state_capabilities(state).sides_alternate:
        return False
    return bool(state.play(move).player == state.player)


def replay(initial: Any, moves: Sequence[Move]) -> Any:
    """Play `moves` from `initial`; an illegal one raises IllegalMoveError with its number."""
    state = initial
    for number, move in enumerate(moves, start=1):
        try:
            state = state.play(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {number}: {error}") from None
    return state


def sample_outcome(state: Any, rng: random.Random) -> Move:
    """Draw a chance outcome of `state` with the caller's seeded generator."""
    outcomes = state.chance_outcomes()
    roll = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if roll < total:
            return outcome
    return outcomes[-1][0]


def evaluate_none(state: Any) -> float:
    """Always 0: the search sees only the results of games it can finish."""
    return 0.0


NO_HEURISTIC = Heuristic(
    "none",
    "Always 0: the AI only sees wins, losses and draws it can reach within its depth.",
    evaluate_none,
    blind=True,
)
"""The heuristic every game offers for teaching: pure look-ahead, no judgement."""


def parse_each(
    parse_move: Callable[[str, Any], Any], initial: Any, parts: Iterable[str]
) -> list[Any]:
    """Moves from their texts in order, each read in the position the ones before reach from
    `initial`; an illegal or unreadable one raises IllegalMoveError naming its number."""
    moves: list[Any] = []
    state = initial
    for number, part in enumerate(parts, start=1):
        try:
            move = parse_move(part, state)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {number}: {error}") from None
        moves.append(move)
        state = state.play(move)
    return moves


def parse_one_character_moves(
    parse_move: Callable[[str, Any], Any], initial: Any, text: str
) -> list[Any]:
    """Moves written one character each (spaces ignored), checked by replaying from `initial`."""
    return parse_each(parse_move, initial, (c for c in text if not c.isspace()))


class DigitNotation:
    """Text notation for games whose every move is one digit: move m is written m + 1.

    Tic-tac-toe cells 0-8 are "1"-"9", connect-four columns 0-6 are "1"-"7"; a whole game
    is the digits in order ("4453"), spaces ignored.  The game supplies `initial_state()`
    and `parse_move(text, state)`.
    """

    def initial_state(self) -> Any:
        """The start position (supplied by the game)."""
        raise NotImplementedError

    def parse_move(self, text: str, state: Any) -> int:
        """One move's text in `state` (supplied by the game)."""
        raise NotImplementedError

    def format_move(self, move: int) -> str:
        """A move as its 1-based digit."""
        return str(move + 1)

    def format_moves(self, moves: Sequence[int]) -> str:
        """A whole game as a digit string, e.g. '4453'."""
        return "".join(self.format_move(m) for m in moves)

    def parse_moves(self, text: str) -> list[int]:
        """A digit string (spaces ignored), checked by replaying it from the start."""
        return parse_one_character_moves(self.parse_move, self.initial_state(), text)

    def replay(self, moves: Sequence[int]) -> Any:
        """The state after `moves` from the start."""
        return replay(self.initial_state(), moves)
