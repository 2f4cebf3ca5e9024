"""The three ways a game file may be written, each read by the names its class defines.

* **Plyground's protocol** (`games.base`): ``initial_state()`` and states with ``to_move``,
  ``legal_moves()``, ``play(move)``, ``is_terminal()``, ``utility(player)``; optional
  ``chance_outcomes()`` (at a state whose ``to_move`` is ``CHANCE``), ``key()``,
  ``evaluate(state)`` on the game.
* **aima-python's ``Game``**: ``initial``, ``actions``, ``result``, ``utility``,
  ``terminal_test``, ``to_move`` (and ``display``); a ``StochasticGame``'s ``chances``,
  ``outcome`` and ``probability`` put a chance node after every move, as aima's
  ``expect_minimax`` does.
* **easyAI's ``TwoPlayerGame``**: ``possible_moves``, ``make_move``, ``is_over``; optional
  ``scoring`` (from the side to move), ``lose``/``win``, ``ttentry``, ``show``.  Its game object
  is mutable: each position here is its own copy.

Neither framework is imported: a style reads methods by name.  A style works on the file's
*inner* states (whatever the file uses) and never on Plyground's: `adapter.FileState` wraps
them, guards every call and gives them the protocol.
"""

from __future__ import annotations

import contextlib
import copy
import io
import marshal
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

CHANCE = -1
"""`to_move` at a chance node (as `games.base.CHANCE`)."""

_NO_LABEL: Any = object()


class SideError(ValueError):
    """A side to move that is neither player: the message says what was given and what is
    allowed, in the style's own terms ("current_player is 3, not 1 or 2")."""


_ATOMS = frozenset({str, int, float, bool, bytes, type(None)})


def freeze(value: Any) -> Hashable:
    """A hashable, equal-for-equal copy of `value`: lists and tuples to tuples, dicts and sets
    to sorted tuples (a dict of plain items to their frozenset), objects to their fields; what
    a table keys a position by (in this process: a frozenset's order is not kept)."""
    kind = type(value)
    if kind in _ATOMS:
        return value  # type: ignore[no-any-return]
    if kind is tuple or kind is list:  # the common cases first: a table asks at every node
        if _all_atoms(value):
            return value if kind is tuple else tuple(value)
        plain = _plain_tuple(value)
        if plain is not None:
            return plain
        return tuple([freeze(item) for item in value])
    if kind is dict:
        keys = value.keys()
        if _all_atoms(value.values()) and (_all_atoms(keys) or _plain_tuple(keys) is not None):
            return ("{}", frozenset(value.items()))  # equal for equal dicts, in any order
        return ("{}", _sorted_pairs((freeze(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, (str, int, float, bool, bytes, type(None))):
        return value
    if isinstance(value, (list, tuple)):  # a named tuple, a list's subclass
        return tuple([freeze(item) for item in value])
    if isinstance(value, dict):
        return ("{}", _sorted_pairs((freeze(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", _sorted_pairs(freeze(item) for item in value))
    if hasattr(value, "shape") and callable(getattr(value, "tolist", None)):  # a NumPy array
        return ("array", freeze(value.tolist()))
    fields = getattr(value, "__dict__", None)
    if fields is not None:
        return (type(value).__name__, freeze(fields))
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value  # type: ignore[no-any-return]


def _all_atoms(items: Any) -> bool:
    """Whether every item is a plain str, number, bytes or None (checked in C: fast)."""
    return _ATOMS.issuperset(map(type, items))


def _plain_tuple(items: Any) -> tuple[Any, ...] | None:
    """`items` as a tuple where it holds only immutable built-in values (tuples of numbers: a
    board's coordinates), else None; checked in C: marshallable (no object of a class of the
    file's, which may change or compare by identity; checked first, so none of its methods
    runs) and then hashable (no list, dict or set inside)."""
    plain = tuple(items)
    try:
        marshal.dumps(plain, 2)
        hash(plain)
    except (TypeError, ValueError):
        return None
    return plain


def _sorted_pairs(items: Any) -> tuple[Any, ...]:
    """Frozen items in one order for equal collections: their own, else by their text."""
    listed = list(items)
    try:
        listed.sort()
    except TypeError:  # items of kinds that do not compare (1 and "a")
        listed.sort(key=repr)
    return tuple(listed)


def move_text(move: Any) -> str:
    """A move as one word: a string as it is, anything else as its repr, no spaces."""
    if isinstance(move, str):
        return "_".join(move.split()) or "''"
    return "".join(repr(move).split())


def _zero_or_one(side: Any, name: str, chance: bool) -> int:
    """A protocol state's side as 0 or 1 (or CHANCE where `chance`), else `SideError`."""
    allowed = (0, 1, CHANCE) if chance else (0, 1)
    try:
        known = side in allowed
    except Exception:  # a value that cannot even be compared
        known = False
    if not known:
        raise SideError(f"{name} is {side!r}, not 0 or 1")
    return int(side)


def _short(value: Any, limit: int = 400) -> str:
    """`value` as text on one line, at most `limit` characters (a numpy array as its list)."""
    listed = getattr(value, "tolist", None)
    text = " ".join(repr(listed() if callable(listed) else value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def printed(function: Callable[[], object]) -> str:
    """What `function()` prints (a framework's `display`/`show`), or what it returns."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        returned = function()
    text = buffer.getvalue()
    if not text.strip() and isinstance(returned, str):
        text = returned
    return text.rstrip("\n")


class Style:
    """How to read one way of writing a game; `obj` is the file's game object."""

    title = ""
    """The style's name in messages ("easyAI's TwoPlayerGame")."""
    evaluation_name = ""
    """The name of the file's own evaluation, where the style has one ("scoring")."""
    methods: ClassVar[dict[str, str]] = {}
    """The file's method behind each role, for messages ("moves": "possible_moves()")."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    @staticmethod
    def seats() -> Any:
        """What the class's ``players`` keyword gets (easyAI's games want two players)."""
        return None

    def initial(self) -> Any:
        raise NotImplementedError

    def side(self, inner: Any) -> int:
        """0 or 1 for the player to move, CHANCE at a chance node."""
        raise NotImplementedError

    def player(self, inner: Any) -> int:
        """The player whose turn it is, also at a chance node."""
        return self.side(inner)

    def moves(self, inner: Any) -> Any:
        raise NotImplementedError

    def play(self, inner: Any, move: Any) -> Any:
        raise NotImplementedError

    def over(self, inner: Any) -> bool:
        raise NotImplementedError

    def score(self, inner: Any) -> float:
        """A finished game's result for the first player: its sign says who won."""
        raise NotImplementedError

    def outcomes(self, inner: Any) -> Any:
        """A chance node's (outcome, probability) pairs."""
        raise NotImplementedError

    def play_outcome(self, inner: Any, outcome: Any) -> Any:
        """The position after a chance event's `outcome` (by default: as a move)."""
        return self.play(inner, outcome)

    def chance_after(self, inner: Any) -> bool:
        """Whether a chance event follows every move (aima's stochastic games)."""
        return False

    def key(self, inner: Any) -> Hashable:
        return freeze(inner)

    def text(self, inner: Any) -> str:
        return str(inner)

    def plain_text(self, inner: Any) -> str:
        """A drawing of a position that needs none of the file's drawing code: its value, or
        (an object's) its attributes one a line; never fails."""
        try:
            fields = getattr(inner, "__dict__", None)
            if isinstance(fields, dict) and fields:
                lines = [
                    f"{name} = {_short(value)}"
                    for name, value in fields.items()
                    if name not in ("players", "nmove") and not name.startswith("_")
                ]
                return "\n".join(lines)
            return _short(inner)
        except Exception:  # a value whose own repr fails
            return f"a {type(inner).__name__}"

    def evaluation(self) -> Callable[[Any], float] | None:
        """The file's own evaluation of an inner state, from the side to move, if any."""
        return None


class ProtocolStyle(Style):
    """A class written to Plyground's protocol (its states do the work)."""

    title = "Plyground's game protocol"
    evaluation_name = "evaluate"
    methods: ClassVar[dict[str, str]] = {
        "initial": "initial_state()",
        "to_move": "to_move",
        "moves": "legal_moves()",
        "play": "play()",
        "over": "is_terminal()",
        "score": "utility()",
        "outcomes": "chance_outcomes()",
        "text": "render()",
        "key": "key()",
    }

    def initial(self) -> Any:
        return self.obj.initial_state()

    def side(self, inner: Any) -> int:
        return _zero_or_one(inner.to_move, "to_move", chance=True)

    def player(self, inner: Any) -> int:
        return _zero_or_one(getattr(inner, "player", inner.to_move), "player", chance=False)

    def moves(self, inner: Any) -> Any:
        return inner.legal_moves()

    def play(self, inner: Any, move: Any) -> Any:
        return inner.play(move)

    def over(self, inner: Any) -> bool:
        return bool(inner.is_terminal())

    def score(self, inner: Any) -> float:
        return float(inner.utility(0))

    def outcomes(self, inner: Any) -> Any:
        return inner.chance_outcomes()

    def key(self, inner: Any) -> Hashable:
        own = getattr(inner, "key", None)
        return freeze(own()) if callable(own) else freeze(inner)

    def text(self, inner: Any) -> str:
        render = getattr(self.obj, "render", None)
        return str(render(inner)) if callable(render) else str(inner)

    def evaluation(self) -> Callable[[Any], float] | None:
        evaluate = getattr(self.obj, "evaluate", None)
        return evaluate if callable(evaluate) else None


class AimaStyle(Style):
    """A class written for aima-python's ``Game`` (``StochasticGame`` where it has chances)."""

    title = "aima-python's Game"
    evaluation_name = "utility"
    methods: ClassVar[dict[str, str]] = {
        "initial": "initial",
        "to_move": "to_move()",
        "moves": "actions()",
        "play": "result()",
        "over": "terminal_test()",
        "score": "utility()",
        "outcomes": "chances()",
        "outcome": "outcome()",
        "text": "display()",
        "key": "its state (as a table key)",
    }

    def __init__(self, obj: Any) -> None:
        super().__init__(obj)
        self.first = obj.to_move(obj.initial)
        """The label of the player who moves first (side 0): 'MAX', 'X', ..."""
        self.second: Any = _NO_LABEL
        """The other label, once seen (a third one is refused: `SideError`)."""
        self.stochastic = all(
            callable(getattr(obj, name, None)) for name in ("chances", "outcome", "probability")
        )

    def initial(self) -> Any:
        return self.obj.initial

    def side(self, inner: Any) -> int:
        label = self.obj.to_move(inner)
        if label == self.first:
            return 0
        if self.second is _NO_LABEL:
            self.second = label
        elif label != self.second:
            raise SideError(
                f"gave {label!r}, a third player besides {self.first!r} and {self.second!r}"
            )
        return 1

    def moves(self, inner: Any) -> Any:
        return self.obj.actions(inner)

    def play(self, inner: Any, move: Any) -> Any:
        return self.obj.result(inner, move)

    def over(self, inner: Any) -> bool:
        return bool(self.obj.terminal_test(inner))

    def score(self, inner: Any) -> float:
        return float(self.obj.utility(inner, self.first))

    def outcomes(self, inner: Any) -> Any:
        chances = list(self.obj.chances(inner))
        return [(chance, float(self.obj.probability(chance))) for chance in chances]

    def play_outcome(self, inner: Any, chance: Any) -> Any:
        return self.obj.outcome(inner, chance)

    def chance_after(self, inner: Any) -> bool:
        return self.stochastic

    def text(self, inner: Any) -> str:
        display = getattr(self.obj, "display", None)
        if callable(display):
            return printed(lambda: display(inner))
        return str(inner)

    def evaluation(self) -> Callable[[Any], float] | None:
        """The utility at the cut-off, from the side to move (aima's
        `alphabeta_cutoff_search` values a cut-off position by its utility)."""

        def utility(inner: Any) -> float:
            try:
                value = float(self.obj.utility(inner, self.first))
            except Exception:
                return 0.0  # unknown: valued 0, as a search without evaluation does
            return value if self.side(inner) == 0 else -value

        return utility


class _Seat:
    """A stand-in for easyAI's player objects: Plyground chooses the moves."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Seat:
        if not self.__dict__:  # nothing kept on it: one seat serves every copy
            return self
        twin = _Seat()
        twin.__dict__ = copy.deepcopy(self.__dict__, memo)
        return twin


def _bare_seats(players: Any) -> bool:
    """Whether `players` are Plyground's stand-ins with nothing kept on them."""
    return isinstance(players, list) and all(
        type(seat) is _Seat and not seat.__dict__ for seat in players
    )


_PLAIN = (str, int, float, bool, tuple, frozenset, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def _copied(value: Any) -> Any:
    """A copy of a game object's attribute to change: lists, dicts and sets copied as deep as
    they hold containers, anything plain shared, other objects deep-copied."""
    kind = type(value)
    if kind in _PLAIN_TYPES or isinstance(value, _PLAIN):
        return value
    if kind is list:
        for item in value:
            if type(item) not in _PLAIN_TYPES:
                return [_copied(item) for item in value]
        return value[:]
    if isinstance(value, list):
        return type(value)(_copied(item) for item in value)
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, set):
        return set(value)
    if hasattr(value, "shape") and callable(getattr(value, "copy", None)):  # a NumPy array
        return value.copy()
    return copy.deepcopy(value)


NEXT_SEAT = (0, 2, 1)
"""easyAI's seat to move after a move made or taken back, indexed by the seat that moved
(``current_player``, 1 or 2, as its ``switch_player`` passes it): the one place Plyground
passes easyAI's turn, read inline as ``inner.current_player = NEXT_SEAT[inner.current_player]``
(a table, not a function: the search's walk reads it at every move).  `EasyAIStyle.play`, which
makes the positions the load-time check plays, checks the seat first: a game whose
``make_move`` leaves another fails there with a line naming it."""


class EasyAIStyle(Style):
    """A class written for easyAI's ``TwoPlayerGame``: a mutable object, copied per position."""

    title = "easyAI's TwoPlayerGame"
    evaluation_name = "scoring"
    methods: ClassVar[dict[str, str]] = {
        "initial": "__init__()",
        "to_move": "current_player",
        "moves": "possible_moves()",
        "play": "make_move()",
        "unmake": "unmake_move()",
        "over": "is_over()",
        "score": "scoring()",
        "text": "show()",
        "key": "ttentry()",
    }

    def __init__(self, obj: Any) -> None:
        super().__init__(obj)
        self.key_names: dict[tuple[str, ...], tuple[str, ...]] = {}
        """Per set of a game object's attributes, the ones a key holds, in one order."""

    @staticmethod
    def seats() -> Any:
        return [_Seat(), _Seat()]

    def initial(self) -> Any:
        obj = self.obj
        if getattr(obj, "players", None) is None:
            obj.players = self.seats()
        if not hasattr(obj, "nmove"):
            obj.nmove = 1
        return obj

    def side(self, inner: Any) -> int:
        player = inner.current_player
        if player == 1 or player == 2:
            return 0 if player == 1 else 1
        raise SideError(f"current_player is {player!r}, not 1 or 2")

    def moves(self, inner: Any) -> Any:
        return inner.possible_moves()

    def copy(self, inner: Any) -> Any:
        """A copy to change (`_copied`: containers copied, other objects deep-copied), its
        players too: a game may keep its state on them (easyAI's Knights keeps each knight's
        square there)."""
        twin = object.__new__(type(inner))
        twin.__dict__ = {name: _copied(value) for name, value in inner.__dict__.items()}
        return twin

    def play(self, inner: Any, move: Any) -> Any:
        twin = self.copy(inner)
        twin.make_move(move)
        seat = twin.current_player
        if seat != 1 and seat != 2:
            self.side(twin)  # a SideError naming the seat make_move left
        twin.current_player = NEXT_SEAT[seat]
        twin.nmove = getattr(twin, "nmove", 1) + 1
        return twin

    def over(self, inner: Any) -> bool:
        return bool(inner.is_over())

    def mover_score(self, inner: Any) -> float:
        """The finished game's result for the side to move: its scoring, else lose()/win()."""
        scoring = getattr(inner, "scoring", None)
        if callable(scoring):
            return float(scoring())
        lose = getattr(inner, "lose", None)
        if callable(lose) and lose():
            return -1.0
        win = getattr(inner, "win", None)
        if callable(win) and win():
            return 1.0
        return 0.0

    def score(self, inner: Any) -> float:
        value = self.mover_score(inner)
        return value if self.side(inner) == 0 else -value

    def key(self, inner: Any) -> Hashable:
        """Its ``ttentry()``, else its attributes but the move count (and Plyground's own
        seats, where nothing is kept on them), with the player to move."""
        entry = getattr(inner, "ttentry", None)
        if callable(entry):
            return (freeze(entry()), inner.current_player)
        fields = inner.__dict__
        names = self.key_names.get(tuple(fields))
        if names is None:  # once per set of attributes: a search asks at every node
            names = self.key_names[tuple(fields)] = tuple(sorted(set(fields) - {"nmove"}))
        values = [
            None if name == "players" and _bare_seats(fields[name]) else freeze(fields[name])
            for name in names
        ]
        return (names, tuple(values), inner.current_player)

    def text(self, inner: Any) -> str:
        show = getattr(inner, "show", None)
        if callable(show):
            return printed(show)
        return str(inner)

    def evaluation(self) -> Callable[[Any], float] | None:
        if not callable(getattr(self.obj, "scoring", None)):
            return None
        return lambda inner: inner.scoring()  # a number, as the adapter checks


def _defines(cls: type, *names: str) -> bool:
    return all(hasattr(cls, name) for name in names)


def style_of(cls: type) -> type[Style] | None:
    """The style a class is written in, found by the names it defines (None: no game)."""
    if _defines(cls, "possible_moves", "make_move", "is_over"):
        return EasyAIStyle
    if _defines(cls, "actions", "result", "utility", "terminal_test", "to_move"):
        return AimaStyle
    if _defines(cls, "initial_state"):
        return ProtocolStyle
    return None


STYLE_NAMES = {
    ProtocolStyle: "protocol",
    AimaStyle: "aima",
    EasyAIStyle: "easyai",
}
"""Each style's short name (`plyground new-game --style`, messages)."""
