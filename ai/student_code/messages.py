"""The plain-data messages between the app and a worker: JSON lines, never pickle.

A state travels as its game's name and options and the fields its class is made from
(integers, strings and tuples of them: every game's state is a frozen dataclass of such
fields); a move as the game's notation; a value as a JSON number.  Nothing a worker sends
is trusted: the parent parses it, checks it and refuses anything else.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from plyground.file_reader import nesting
from plyground.games.base import Game, History, State
from plyground.untrusted import printable as printable  # the one, for the worker's callers

MAX_LINE = 1 << 20
"""The longest message line (bytes) the parent reads from a worker; a longer one is refused."""

Plain = None | bool | int | float | str | list["Plain"] | dict[str, "Plain"]
"""What a JSON message holds."""


class MessageError(ValueError):
    """A message that is not the protocol (not JSON, not the expected shape)."""


def last_line(text: str, limit: int = 200) -> str:
    """The last line of `text` with something on it, cut to `limit` characters ('' for
    none): what a program said last before it failed."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:limit] if lines else ""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a JSON line (NaN and infinities allowed: the parent refuses them)."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


MAX_NESTING = 32
"""The deepest a message may nest lists and objects: far beyond any game's move (a tuple of
tuples at most) and the protocol's own, and far below where Python's recursion (`==`,
`hash`, `repr` of the value in the app) would fail."""


def decode(line: bytes) -> dict[str, Any]:
    """One JSON line as a dict, or MessageError (also for one nested deeper than
    MAX_NESTING, checked before it is decoded)."""
    try:
        text = line.decode("utf-8")
        if nesting(text) > MAX_NESTING:
            raise MessageError(f"sent a message nested more than {MAX_NESTING} deep")
        message = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        why = str(error) if isinstance(error, MessageError) else "sent a line that is not a message"
        raise MessageError(why) from None
    if not isinstance(message, dict):
        raise MessageError("sent a line that is not a message")
    return message


WORKER_MESSAGES = {
    "started": {"started", "guarded"},
    "ready": {"ready"},
    "ok": {"ok", "n"},
    "error": {"error", "details", "n"},
    "ask": {"ask", "n"},
}
"""The lines a worker may send, by kind: the keys each may hold.  `started` comes once, first,
before any of the student's code runs; nothing else a worker sends is the protocol."""


def worker_message(line: bytes) -> dict[str, Any]:
    """A worker's line as a message of one of the `WORKER_MESSAGES` kinds, or MessageError."""
    message = decode(line)
    kinds = [kind for kind in WORKER_MESSAGES if kind in message]
    if len(kinds) != 1 or not set(message) <= WORKER_MESSAGES[kinds[0]]:
        raise MessageError("sent a message that is not the protocol")
    return message


def _plain(value: Any) -> Plain:
    """A state field as JSON (tuples become lists); ValueError for anything else."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    raise ValueError(f"a state field of type {type(value).__name__} cannot be sent")


def _tuples(value: Any) -> Any:
    """JSON lists back to tuples (states are hashable)."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def encode_state(state: State[Any]) -> dict[str, Any]:
    """A state as plain data: its game, the game's options and the state's own fields."""
    game = state.game
    options = {key: _plain(value) for key, value in game.option_values().items()}
    if isinstance(state, History):  # a game from a file: its moves, replayed there
        moves = [str(game.format_move(move)) for move in state.history()]
        return {"game": game.name, "options": options, "moves": moves}
    if not dataclasses.is_dataclass(state) or isinstance(state, type):
        raise MessageError(f"{game.name}'s states are neither dataclasses nor say their moves")
    fields = {
        field.name: _plain(getattr(state, field.name))
        for field in dataclasses.fields(state)
        if field.init
    }
    return {"game": game.name, "options": options, "fields": fields}


_GAMES: dict[str, Any] = {}


def game_of(name: str, options: dict[str, Any]) -> Any:
    """The registered game `name` with `options`, made once per process."""
    from plyground import games

    key = json.dumps([name, options], sort_keys=True)
    if key not in _GAMES:
        _GAMES[key] = games.get_game(name, **options)
    return _GAMES[key]


def decode_state(data: Any) -> Any:
    """The state `encode_state` described (MessageError when the data is not one)."""
    try:
        game = game_of(str(data["game"]), dict(data["options"]))
        if "moves" in data:
            state = game.initial_state()
            for text in list(data["moves"]):
                state = state.play(game.parse_move(str(text), state))
            return state
        kind = type(game.initial_state())
        fields = {str(name): _tuples(value) for name, value in dict(data["fields"]).items()}
        return kind(**fields)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MessageError(f"not a state ({error})") from None


def shape(value: Any, limit: int) -> tuple[int, int]:
    """(nesting, size) of a move: how deep it nests lists or tuples, and how many numbers,
    characters and containers it holds; counted without recursion, and only until either
    passes `limit`."""
    deepest = size = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and deepest <= limit and size <= limit:
        item, depth = stack.pop()
        size += len(item) if isinstance(item, str) else 1
        if isinstance(item, (list, tuple)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in item)
    return deepest, size


def bounded_move(data: Any, moves: list[Any]) -> Any:
    """A move sent by a worker as plain data: the game's own move among `moves` (the
    position's own) that it names, else the data (lists back to tuples) for the game to
    refuse.  MessageError when it nests deeper or is larger than every one of `moves` (it
    cannot be one of them, and it is never compared, hashed or shown whole), or names one
    only by taking true or false for a number."""
    shapes = [shape(move, MAX_NESTING) for move in moves] or [(0, 1)]
    deepest = max(depth for depth, _ in shapes)
    largest = max(size for _, size in shapes)
    depth, size = shape(data, max(deepest, largest))
    if depth > deepest:
        raise MessageError("a move nested deeper than any of this game's moves")
    if size > largest:
        raise MessageError("a move larger than any of this game's moves")
    decoded = _tuples(data)
    for move in moves:
        if _same_move(decoded, move):
            return move
    if any(decoded == move for move in moves):
        raise MessageError(f"{str(decoded)[:40]}, a truth value where the game's moves have none")
    return decoded


def _same_move(data: Any, move: Any) -> bool:
    """Whether decoded plain data names `move`: equal, never a bool for a number."""
    if isinstance(data, bool) or isinstance(move, bool):
        return type(data) is type(move) and data == move
    if isinstance(data, tuple) and isinstance(move, tuple):
        return len(data) == len(move) and all(map(_same_move, data, move))
    return bool(data == move)


def move_text(game: Game[Any], move: Any) -> str:
    """A move in the game's notation."""
    return str(game.format_move(move))


def parse_move(game: Game[Any], state: State[Any], text: object) -> Any:
    """The legal move `text` names in `state`, or MessageError."""
    if not isinstance(text, str) or len(text) > 40:
        raise MessageError("not a move")
    try:
        move = game.parse_move(text, state)
    except ValueError as error:
        raise MessageError(str(error)) from None
    if move not in state.legal_moves():
        raise MessageError(f"{text} is not a legal move here")
    return move
