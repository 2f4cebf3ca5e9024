"""A game from a file as a Plyground game: the protocol of `games.base`, every call guarded.

`game_class(...)` makes, per loaded class, a `FileGame` subclass (a registry factory: its class
attributes describe the game) and a `FileState` subclass.  A `FileState` holds the file's own
state (`inner`, never changed: a mutable easyAI game is copied per position), the move that
led to it and its parent, so every message names the position by its moves.  What a state
answers is asked once and kept: the file's code runs once per position and question.
"""

from __future__ import annotations

import ast
import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from plyground.games.base import (
    HEURISTIC_LIMIT,
    NO_HEURISTIC,
    GameOption,
    Heuristic,
    Preset,
    illegal,
    parse_each,
    replay,
    sample_outcome,
)
from plyground.games.from_file.guard import (
    GameCodeError,
    Guard,
    describe_error,
    searchable_moves,
    warn_once,
)
from plyground.games.from_file.in_place import PLAYOUT_LIMIT, Finished, Walk, walk
from plyground.games.from_file.in_place import WALKS as _WALKS
from plyground.games.from_file.styles import CHANCE, Style, freeze, move_text

_UNSET: Any = object()


def squash(value: float, scale: float) -> float:
    """A file's evaluation (any units, from the side to move) on the search's heuristic scale:
    ``0.9 * x / (|x| + scale)``, strictly inside ±0.9 and in the same order as `value`."""
    if math.isnan(value):
        return 0.0
    if math.isinf(value):
        return math.copysign(HEURISTIC_LIMIT * 0.999, value)
    return HEURISTIC_LIMIT * value / (abs(value) + scale)


MUTATION_CHECKS = 1_000
"""The first plays of each game object whose result() is checked to leave its argument alone
(aima's states may be shared): the probe's random games run them all, later plays are free."""


class FileState(Finished):
    """One position of a game from a file (see the module's docstring).

    What the search asks at every node (whose turn, over, the moves, the key) is kept in a slot
    of its own the first time it is asked; the rest in a small dictionary."""

    STOCHASTIC: ClassVar[bool] = False

    __slots__ = (
        "_cache",
        "_key",
        "_moves",
        "_over",
        "_raw_moves",
        "_to_move",
        "game",
        "inner",
        "last",
        "parent",
        "pending",
        "ply",
    )

    def __init__(
        self,
        game: FileGame,
        inner: Any,
        parent: FileState | None = None,
        last: Any = None,
        pending: bool = False,
    ) -> None:
        self.game = game
        self.inner = inner
        self.parent = parent
        self.last = last
        self.pending = pending
        """A chance event is due before the next move (aima's stochastic games)."""
        after_chance = parent is not None and parent._to_move == CHANCE
        self.ply: int = 0 if parent is None else parent.ply + (0 if after_chance else 1)
        self._to_move: int | None = CHANCE if pending else None
        self._over: bool | None = False if pending else None
        self._moves: tuple[Any, ...] | None = None
        self._key: Any = _UNSET
        self._raw_moves: list[Any] | None = None
        self._cache: dict[str, Any] | None = None

    # ------------------------------------------------------------------ identity
    def history(self) -> list[Any]:
        """Every move and chance outcome from the start to here."""
        moves: list[Any] = []
        node: FileState | None = self
        while node is not None and node.parent is not None:
            moves.append(node.last)
            node = node.parent
        return moves[::-1]

    def moves_text(self) -> str:
        """The moves that led here, for messages ('' at the start)."""
        return " ".join(move_text(move) for move in self.history())

    def _call(self, role: str, function: Callable[..., Any], *args: Any, playing: str = "") -> Any:
        game = self.game
        return game.guard.call(
            game.names.get(role, role), self.moves_text, function, *args, playing=playing
        )

    def asked(self, method: str, function: Callable[[], Any]) -> Any:
        return self.game.guard.call(method, self.moves_text, function)

    def _asked(self, name: str, compute: Callable[[], Any]) -> Any:
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        found = cache.get(name, _UNSET)
        if found is _UNSET:
            found = cache[name] = compute()
        return found

    def key(self) -> Hashable:
        found = self._key
        if found is _UNSET:
            found = self._key = (self._call("key", self.game.style.key, self.inner), self.pending)
        return found  # type: ignore[no-any-return]

    def __hash__(self) -> int:
        return hash(self.key())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FileState) and type(other) is type(self) and other.key() == self.key()
        )

    def __repr__(self) -> str:
        return f"<{self.game.title} after {self.moves_text() or 'no moves'}>"

    # ------------------------------------------------------------------ the protocol
    @property
    def to_move(self) -> int:
        found = self._to_move
        if found is None:
            found = self._to_move = self._side("to_move", self.game.style.side)
        return found

    @property
    def player(self) -> int:
        side = self.to_move
        if side != CHANCE:
            return side
        return self._asked("player", lambda: self._side("to_move", self.game.style.player))  # type: ignore[no-any-return]

    def _side(self, role: str, function: Callable[[Any], int]) -> int:
        side = self._call(role, function, self.inner)
        if side not in (0, 1, CHANCE):
            raise self.bad_side(role, side)
        return int(side)

    def is_terminal(self) -> bool:
        found = self._over
        if found is None:
            found = self._over = bool(self._call("over", self.game.style.over, self.inner))
        return found

    def _legal(self) -> tuple[Any, ...]:
        found = self._moves
        if found is not None:
            return found
        if self.is_terminal():
            found = self._moves = ()
            return found
        game = self.game
        found, self._raw_moves = searchable_moves(
            game.guard,
            game.method("moves"),
            self.moves_text,
            self._call("moves", game.style.moves, self.inner),
        )
        self._moves = found
        return found

    def raw_moves(self) -> dict[Any, Any] | None:
        """The file's own move behind each legal move that had to be made hashable (a list
        as its tuple), where it lists such moves; else None."""
        self.legal_moves()
        if self._raw_moves is None or self._moves is None:
            return None
        return dict(zip(self._moves, self._raw_moves, strict=True))

    def legal_moves(self) -> tuple[Any, ...]:
        if self.pending or self.to_move == CHANCE:
            return ()
        return self._legal()

    def chance_outcomes(self) -> tuple[tuple[Any, float], ...]:
        if self.to_move != CHANCE:
            return ()
        return self._asked("outcomes", self._outcomes)  # type: ignore[no-any-return]

    def _outcomes(self) -> tuple[tuple[Any, float], ...]:
        game = self.game
        method = game.method("outcomes")
        pairs = list(self._call("outcomes", game.style.outcomes, self.inner))
        try:
            outcomes = tuple((freeze(o), float(p)) for o, p in pairs)
        except (TypeError, ValueError):
            raise game.guard.fail(
                method, self.moves_text(), "did not give (outcome, probability) pairs"
            ) from None
        total = sum(p for _, p in outcomes)
        if not outcomes or abs(total - 1) > 1e-6 or any(p < 0 for _, p in outcomes):
            raise game.guard.fail(
                method, self.moves_text(), f"probabilities sum to {total:g}, not 1"
            )
        self._asked("outcome_objects", lambda: [o for o, _ in pairs])
        return outcomes

    def play(self, move: Any) -> FileState:
        game = self.game
        style = game.style
        if self.to_move == CHANCE:
            keys = [o for o, _ in self.chance_outcomes()]
            if move not in keys:
                raise illegal(
                    move, [move_text(o) for o in keys], "not an outcome of this chance event"
                )
            raw = self._asked("outcome_objects", list)[keys.index(move)]
            inner = self._call(
                "outcome", style.play_outcome, self.inner, raw, playing=move_text(move)
            )
            return type(self)(game, inner, self, move)
        moves = self._legal()
        if move not in moves:
            why = "the game is over" if self.is_terminal() else ""
            raise illegal(move, [move_text(m) for m in moves], why)
        original = move if self._raw_moves is None else self._raw_moves[moves.index(move)]
        shown = move_text(move)
        if game.checks_mutation and type(game).mutation_checks > 0:  # a game's first plays
            inner = game.checked_play(self.inner, original, self.moves_text, shown)
        else:
            inner = self._call("play", style.play, self.inner, original, playing=shown)
        pending = game.chance_after and not self._call("over", style.over, inner)
        return type(self)(game, inner, self, move, pending)

    def in_place(self) -> Walk:
        """A walk of this position's subtree in place, the engine's fast path
        (`games.from_file.in_place`)."""
        return walk(self)

    def random_playout(self, rng: random.Random) -> int | None:
        """A random game to its end (`games.base.RandomPlayout`), played on a walk of the
        file's own positions; with chance, position by position (the outcomes drawn by their
        probabilities).  The winner, or None (a draw, or still going after `PLAYOUT_LIMIT`)."""
        if self.STOCHASTIC:
            state: FileState = self
            for _ in range(PLAYOUT_LIMIT):
                if state.is_terminal():
                    return state.winner()
                if state.to_move == CHANCE:
                    state = state.play(sample_outcome(state, rng))
                else:
                    moves = state.legal_moves()
                    state = state.play(moves[int(rng.random() * len(moves))])
            return None
        walked = walk(self)
        try:
            return walked.random_playout(rng)
        finally:
            walked.release()

    def winner(self) -> int | None:
        if not self.is_terminal():
            return None
        return super().winner()

    def number(self) -> float:
        game = self.game
        return self._asked(  # type: ignore[no-any-return]
            "score",
            lambda: game.guard.number(
                game.method("score"),
                self.moves_text,
                self._call("score", game.style.score, self.inner),
            ),
        )

    def winning_line(self) -> None:
        return None

    def text(self) -> str:
        """The position as the file draws it (its display, show or str); where that fails,
        a plain drawing with the error (nothing but the picture needs it)."""
        return str(self._asked("text", self._text))

    def _text(self) -> str:
        game = self.game
        try:
            return str(self._call("text", game.style.text, self.inner))
        except GameCodeError as error:
            drawn = game.style.plain_text(self.inner)
            said = f"{error.method} failed: {error.problem}; drawn plainly instead"
            warn_once(game.where, "display", said)
            return f"{drawn}\n({said})"

    def grid(self) -> Any:
        """The cells of a game that says it is a grid (rows of texts), or None."""
        hook = self.game.grid_hook
        if hook is None:
            return None
        return self._asked("grid", lambda: self._call("grid", hook, self.inner))


class Ladder:
    """`FileGame.presets`: read on the class, the ladder derived at load for the options the
    class was loaded with; read on a game made with other options, that game's own ladder,
    derived once per options (`FileGame.derive_presets`: its probe and speed are the
    configured game's)."""

    def __get__(self, game: FileGame | None, owner: type[FileGame]) -> tuple[Preset, ...]:
        if game is None or game.given == owner.loaded_options:
            return owner.default_presets
        if not owner.loaded_options and not game.options_differ():
            return owner.default_presets
        key = repr(sorted(game.given.items()))
        ladder = owner.ladders.get(key)
        if ladder is None:
            ladder = owner.ladders[key] = owner.derive_presets(game)
        return ladder

    def __set__(self, game: FileGame, presets: tuple[Preset, ...]) -> None:
        raise AttributeError("a game from a file derives its presets from its options")


class FileGame:
    """A game from a file (see the module's docstring); subclassed once per loaded class."""

    source: ClassVar[type]
    style_class: ClassVar[type[Style]]
    where: ClassVar[str]
    """The file (or module) and class, for messages ("nim.py:Nim")."""
    path: ClassVar[str]
    """The file a game came from ('' for a module)."""
    name: str
    title: str
    stochastic: bool = False
    side_names: tuple[str, str] = ("Player 1", "Player 2")
    options: tuple[GameOption, ...] = ()
    option_defaults: ClassVar[dict[str, Any]] = {}
    loaded_options: ClassVar[dict[str, Any]] = {}
    """The options of the game the class was probed with when it was loaded (what its derived
    description rests on; a spawned process loads it again with them)."""
    probed: ClassVar[set[str]] = set()
    """Every set of options (`loading.option_key`) a game of this class was probed with."""
    takes_players: ClassVar[bool] = False
    """The class takes a ``players`` keyword (easyAI's games)."""
    """Every keyword the class takes, with its default (whole numbers also in `options`)."""
    notation_help: str = ""
    if TYPE_CHECKING:  # the protocol's attribute, as every reader sees it
        presets: tuple[Preset, ...]
    else:
        presets = Ladder()
    default_presets: ClassVar[tuple[Preset, ...]] = ()
    """The difficulty ladder of the options the class was loaded with (derived at load)."""
    ladders: ClassVar[dict[str, tuple[Preset, ...]]]
    """Ladders of other options, by options (each subclass its own dict, set at load)."""
    derive_presets: ClassVar[Callable[[FileGame], tuple[Preset, ...]]]
    """The ladder of a game as it is made (set at load: `loading.ladder_of`)."""
    default_heuristic: str = "none"
    score_scale: ClassVar[float] = 1.0
    move_limit: ClassVar[int | None] = None
    """The game's own move limit (`games.base.MoveLimit`), where it names one or its
    load-time probe saw no game end (`loading.UNENDING_MOVE_LIMIT`); else the default."""
    utility_is_value: ClassVar[bool] = False
    """A game without chance whose finished positions carry scores other than +-1 and 0 (a
    textbook tree): the textbook's trace shows them as they are, the engine searches for the
    highest score (`ai.engine.bookkeeping.terminal_units`)."""
    mutation_checks: ClassVar[int] = MUTATION_CHECKS
    """Plays left whose result() is checked (`MUTATION_CHECKS`), for all of this class's games."""
    checks_mutation: ClassVar[bool] = False
    """Check that the file's result() leaves its argument alone (aima states may be shared)."""
    state_class: ClassVar[type[FileState]]
    heuristics: dict[str, Heuristic]

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            raise TypeError(f"unexpected option(s) {', '.join(unknown)}")
        self.given = given_options(options)
        self.guard = Guard(self.where)
        source = self.source
        try:
            obj = source(**self._arguments())
        except BaseException as error:  # its own code: any failure, even SystemExit
            if isinstance(error, KeyboardInterrupt):
                raise
            raise GameCodeError(
                self.where, f"{source.__name__}()", "", describe_error(error)
            ) from None
        self.obj = obj
        self.style = self.guard.call(f"{source.__name__}()", str, self.style_class, obj)
        self.names = dict(self.style_class.methods)
        """The file's method behind each role, for messages."""
        self.chance_after = bool(getattr(self.style, "stochastic", False))
        """A chance event follows every move (aima's stochastic games)."""
        self.heuristics = self._heuristics()
        self.grid_hook = _grid_hook(obj)
        self.grid_move_hook = _method(obj, "grid_move")
        self._initial: FileState | None = None

    def _arguments(self) -> dict[str, Any]:
        arguments = dict(self.given)
        if self.takes_players:  # easyAI's: two stand-ins, Plyground plays
            arguments.setdefault("players", self.style_class.seats())
        return arguments

    @classmethod
    def origin(cls) -> str:
        """Where the game comes from, in words: "From nim.py, written for easyAI's
        TwoPlayerGame"."""
        where = cls.where.rpartition(":")[0] or cls.where
        return f"From {where}, written for {cls.style_class.title}"

    @classmethod
    def method(cls, role: str) -> str:
        """The file's method behind a role ("moves" -> "possible_moves()"), for messages."""
        return cls.style_class.methods.get(role, role)

    def _heuristics(self) -> dict[str, Heuristic]:
        found: dict[str, Heuristic] = {}
        own = getattr(self.obj, "heuristics", None)
        if isinstance(own, dict):
            for name, function in own.items():
                if callable(function):
                    found[str(name)] = self._heuristic(
                        str(name), function, f"the file's {name}", f"heuristics[{str(name)!r}]"
                    )
        evaluation = self.style.evaluation()
        if evaluation is not None:
            name = self.style.evaluation_name
            # aima's utility answers only for finished games (its `alphabeta_cutoff_search`'s
            # default): blind at a cut-off
            blind = name == "utility"
            found.setdefault(
                name,
                self._heuristic(name, evaluation, _EVALUATION_TEXT[name], f"{name}()", blind),
            )
        found["none"] = NO_HEURISTIC
        return found

    def _heuristic(
        self,
        name: str,
        function: Callable[[Any], Any],
        description: str,
        method: str,
        blind: bool = False,
    ) -> Heuristic:
        """The file's evaluation `function` as a heuristic named `name` (`method`: how
        messages name it, "evaluate()"; `blind`: it judges only finished positions)."""
        scale = self.score_scale
        guard = self.guard
        chance = self.stochastic or self.chance_after  # else the player is the side to move

        def evaluate(state: FileState | Walk) -> float:
            if type(state) in _WALKS:  # the engine's walk: timed and failing as a whole
                try:
                    value = function(state.inner)
                except BaseException as error:
                    raise state.failed(method, error) from None  # type: ignore[union-attr]
            else:
                value = guard.call(method, state.moves_text, function, state.inner)
            number = guard.number(method, state.moves_text, value)
            if chance and state.player != state.to_move and state.to_move != CHANCE:
                number = -number
            return squash(number, scale)

        return Heuristic(name, description, evaluate, blind=blind)

    def checked_play(
        self, inner: Any, move: Any, moves: Callable[[], str], playing: str = ""
    ) -> Any:
        """The file's play of `move` (`playing`: its text) from `inner`, checked to leave
        `inner` as it was (one of the `MUTATION_CHECKS` first plays of a game whose states
        may be shared)."""
        type(self).mutation_checks -= 1
        style, guard = self.style, self.guard
        before = guard.call(self.method("key"), moves, style.key, inner)
        child = guard.call(self.method("play"), moves, style.play, inner, move, playing=playing)
        if guard.call(self.method("key"), moves, style.key, inner) != before:
            raise guard.fail(
                self.method("play"),
                moves(),
                "changed the position it was given; return a new one, the old left as it was",
            )
        return child

    def option_values(self) -> dict[str, Any]:
        return dict(self.given)

    def options_differ(self) -> bool:
        """Whether this game was made with options other than the class's defaults."""
        return any(
            value != _tuples(self.option_defaults.get(name, _UNSET))
            for name, value in self.given.items()
        )

    def initial_state(self) -> FileState:
        if self._initial is None:
            inner = self.guard.call(self.method("initial"), str, self.style.initial)
            self._initial = self.state_class(self, inner)
        return self._initial

    def format_move(self, move: Any) -> str:
        return move_text(move)

    def parse_move(self, text: str, state: FileState) -> Any:
        wanted = "_".join(text.split())
        choices = state.chance_outcomes() if state.to_move == CHANCE else ()
        moves = [o for o, _ in choices] or list(state.legal_moves())
        for move in moves:
            if move_text(move) == wanted:
                return move
        for move in moves:
            if move_text(move).lower() == wanted.lower():
                return move
        raise illegal(text, [move_text(m) for m in moves], "" if moves else "the game is over")

    def parse_moves(self, text: str) -> list[Any]:
        return parse_each(self.parse_move, self.initial_state(), text.split())

    def format_moves(self, moves: Sequence[Any]) -> str:
        return " ".join(move_text(move) for move in moves)

    def replay(self, moves: Sequence[Any]) -> FileState:
        return replay(self.initial_state(), moves)  # type: ignore[no-any-return]

    def render(self, state: FileState) -> str:
        return state.text()

    def grid_move(self, state: FileState, row: int, column: int) -> Any:
        """The move a click on cell (row, column) means, or None."""
        if self.grid_move_hook is None:
            return None
        move = state._call("grid_move", self.grid_move_hook, state.inner, row, column)
        try:
            hash(move)
        except TypeError:
            move = freeze(move)
        return move


_EVALUATION_TEXT = {
    "evaluate": "The game's own evaluate(state), in its own units.",
    "scoring": "The game's own scoring(), easyAI's evaluation from the side to move.",
    "utility": "The game's utility at the cut-off, as aima's alphabeta_cutoff_search values it "
    "(0, unknown, where the game's utility answers only for finished games).",
}


def given_options(options: dict[str, Any]) -> dict[str, Any]:
    """A game's options as a game keeps them: lists (from JSON) as tuples."""
    return {key: _tuples(value) for key, value in options.items()}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _method(obj: Any, name: str) -> Callable[..., Any] | None:
    found = getattr(obj, name, None)
    return found if callable(found) else None


def _grid_hook(obj: Any) -> Callable[[Any], Any] | None:
    return _method(obj, "grid")


def literal_option(text: str) -> Any:
    """`--option NAME=VALUE`'s value as a Python literal ("(1,2,3)", "5", "'a'"); a bare word
    is a string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
