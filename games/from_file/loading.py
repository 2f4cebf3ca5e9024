"""Finding a game in a file or a module: `load(spec)` -> a registry factory (`FileGame`).

A spec is ``PATH.py``, ``PATH.py:NAME`` or ``MODULE:NAME`` (``easyAI.games:Nim``); NAME may be
left out where the file defines one game.  The class is read by the names it defines
(`styles.style_of`); a short probe from the start (random play, a bounded number of
positions) learns the second side's name, whether it has chance, and how wide and long it is,
from which the difficulty ladder is derived.  The file's code runs with the user's rights,
like a script they run.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.games.base import GameOption, Preset
from plyground.games.from_file.adapter import FileGame, FileState
from plyground.games.from_file.guard import GameCodeError, GameFileError, describe_error
from plyground.games.from_file.styles import CHANCE, AimaStyle, EasyAIStyle, move_text, style_of

_FILE_SPEC = re.compile(r"^(?P<path>.+?\.py)(?::(?P<name>[A-Za-z_]\w*))?$")
_MODULE_SPEC = re.compile(r"^(?P<module>[A-Za-z_][\w.]*)(?::(?P<name>[A-Za-z_]\w*))?$")
_SKIPPED_PARAMETERS = frozenset({"self", "players", "notebook", "verbose"})


def is_spec(text: str) -> bool:
    """Whether `text` names a game in a file or a module rather than a built-in game."""
    return bool(_FILE_SPEC.match(text)) or ":" in text or "." in text


@dataclass(frozen=True)
class Spec:
    """A parsed spec: a file (resolved) or a module, and the class name if given."""

    path: Path | None
    module: str | None
    name: str | None

    @property
    def shown(self) -> str:
        """The file's or module's name for messages."""
        return self.path.name if self.path is not None else str(self.module)


def parse_spec(text: str) -> Spec:
    """`text` as a Spec; GameFileError for one that names no file or module."""
    text = text.strip()
    found = _FILE_SPEC.match(text)
    if found:
        path = Path(found["path"]).expanduser()
        if not path.is_file():
            raise GameFileError(f"{found['path']}: no such game file")
        return Spec(path.resolve(), None, found["name"])
    found = _MODULE_SPEC.match(text)
    if found:
        return Spec(None, found["module"], found["name"])
    raise GameFileError(f"{text!r} is not a game: give FILE.py, FILE.py:CLASS or MODULE:CLASS")


def _import(spec: Spec) -> Any:
    """The module of a spec, imported (a file under a name of its own, its folder importable
    while it loads, so it may import files beside it)."""
    if spec.module is not None:
        try:
            return importlib.import_module(spec.module)
        except ImportError as error:
            raise GameFileError(f"{spec.module}: cannot import it ({error})") from None
        except Exception as error:
            raise GameFileError(
                f"{spec.module}: importing it failed: {describe_error(error)}"
            ) from None
    assert spec.path is not None
    digest = hashlib.sha1(str(spec.path).encode()).hexdigest()[:10]
    stem = re.sub(r"\W", "_", spec.path.stem)
    module_name = f"plyground_game_{stem}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    location = importlib.util.spec_from_file_location(module_name, spec.path)
    if location is None or location.loader is None:
        raise GameFileError(f"{spec.path.name}: not a Python file")
    module = importlib.util.module_from_spec(location)
    folder = str(spec.path.parent)
    sys.path.insert(0, folder)
    sys.modules[module_name] = module
    try:
        location.loader.exec_module(module)
    except SyntaxError as error:
        del sys.modules[module_name]
        raise GameFileError(f"{spec.path.name}: line {error.lineno}: {error.msg}") from None
    except BaseException as error:  # its own code: any failure, even SystemExit
        del sys.modules[module_name]
        if isinstance(error, KeyboardInterrupt):
            raise
        raise GameFileError(
            f"{spec.path.name}: importing it failed: {describe_error(error)}"
        ) from None
    finally:
        if folder in sys.path:
            sys.path.remove(folder)
    return module


def _candidates(module: Any) -> list[type]:
    """The game classes a module defines (not those it imports, nor a base of another)."""
    defined = [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and value.__module__ == module.__name__
        and style_of(value) is not None
        and not issubclass(value, (FileGame, FileState))
    ]
    return [cls for cls in defined if not any(o is not cls and issubclass(o, cls) for o in defined)]


def find_class(spec: Spec) -> type:
    """The game class a spec names, or the module's one game."""
    module = _import(spec)
    if spec.name is not None:
        cls = getattr(module, spec.name, None)
        if not inspect.isclass(cls):
            raise GameFileError(f"{spec.shown}: defines no class {spec.name}")
        if style_of(cls) is None:
            raise GameFileError(
                f"{spec.shown}:{spec.name} is not a game: it needs Plyground's initial_state(), "
                "aima-python's actions/result/utility/terminal_test/to_move, or easyAI's "
                "possible_moves/make_move/is_over"
            )
        return cls
    found = _candidates(module)
    if not found:
        raise GameFileError(
            f"{spec.shown}: defines no game class (Plyground's protocol, aima-python's Game or "
            "easyAI's TwoPlayerGame); see docs/YOUR-GAME.md"
        )
    if len(found) > 1:
        names = ", ".join(cls.__name__ for cls in found)
        raise GameFileError(
            f"{spec.shown} defines {len(found)} games ({names}): name one, "
            f"e.g. {spec.shown}:{found[0].__name__}"
        )
    return found[0]


def canonical_name(spec: Spec, cls: type) -> str:
    """The registry name of a loaded game: its resolved file (or module) and class."""
    where = str(spec.path) if spec.path is not None else str(spec.module)
    return f"{where}:{cls.__name__}"


def _parameters(cls: type) -> list[inspect.Parameter]:
    """The keywords a game class is made with (none where Python cannot read them)."""
    try:
        return list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        return []


def _option_defaults(parameters: list[inspect.Parameter]) -> dict[str, Any]:
    return {
        p.name: p.default
        for p in parameters
        if p.name not in _SKIPPED_PARAMETERS
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.default is not p.empty
    }


def _whole_options(defaults: dict[str, Any]) -> tuple[GameOption, ...]:
    found = []
    for name, value in defaults.items():
        if isinstance(value, int) and not isinstance(value, bool):
            found.append(
                GameOption(
                    name,
                    name.replace("_", " ").capitalize(),
                    value,
                    min(0, value),
                    max(value * 4, 20),
                    f"the game's {name} (default {value})",
                )
            )
    return tuple(found)


def _title(cls: type) -> str:
    own = getattr(cls, "title", None)
    if isinstance(own, str) and own.strip():
        return own.strip()
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", cls.__name__)


@dataclass(frozen=True)
class Probe:
    """What random play from the start shows of a game."""

    branching: float
    """Mean legal moves of a decision."""
    length: float
    """Mean plies of a game (a game cut at the probe's limit counts its plies so far)."""
    longest: int
    outcomes: float
    """Mean outcomes of a chance event (1 without chance)."""
    stochastic: bool
    second_side: str | None
    scores: bool = False
    """A finished game scored other than +1, -1 or 0 was seen."""
    """aima: how `to_move` names the second player."""


def probe(
    game: FileGame, games_to_play: int = 12, positions: int = 3_000, seconds: float = 1.5
) -> Probe:
    """Random play from the start; GameCodeError where the file's code fails on the way."""
    rng = random.Random(0)
    branching: list[int] = []
    outcomes: list[int] = []
    lengths: list[int] = []
    stochastic = False
    scores = False
    second: str | None = None
    style = game.style
    by_score = isinstance(style, AimaStyle)  # aima's utility may be a score (easyAI's is +-100)
    deadline = time.monotonic() + seconds
    seen = 0
    for _ in range(games_to_play):
        state = game.initial_state()
        while not state.is_terminal() and seen < positions and time.monotonic() < deadline:
            seen += 1
            if state.to_move == CHANCE:
                stochastic = True
                pairs = state.chance_outcomes()
                outcomes.append(len(pairs))
                state = state.play(rng.choice(pairs)[0])
                continue
            moves = state.legal_moves()
            branching.append(len(moves))
            if second is None and isinstance(style, AimaStyle) and state.to_move == 1:
                second = str(style.obj.to_move(state.inner))
            state = state.play(rng.choice(moves))
        if by_score and state.is_terminal() and abs(state.score(0)) not in (0.0, 1.0):
            scores = True
        lengths.append(state.ply)
        if seen >= positions or time.monotonic() >= deadline:
            break
    return Probe(
        sum(branching) / len(branching) if branching else 1.0,
        sum(lengths) / len(lengths) if lengths else 1.0,
        max(lengths, default=1),
        sum(outcomes) / len(outcomes) if outcomes else 1.0,
        stochastic,
        second,
        scores and not stochastic,
    )


LADDER = (("Easy", 300, 0.25), ("Medium", 20_000, 0.5), ("Hard", 400_000, 1.0))
"""Each derived level: its budget (the leaves a full-width search of its depth may reach) and
the most of the longest game seen it looks ahead (so a short game still has three levels)."""


MCTS_SECONDS = 1.3
"""The strongest level's seconds a move on a game with no evaluation (Monte Carlo tree search)."""


def derived_presets(found: Probe, heuristic: str, blind: bool = False) -> tuple[Preset, ...]:
    """A depth ladder for a game from a file: each level the deepest search whose full-width
    tree (branching ** depth, times the chance outcomes) fits its budget and its share of the
    longest game seen, each deeper than the one below, and Expert searching until its time
    is up (to the end where it can); on a game with no evaluation (`blind`: its heuristic
    cannot judge an unfinished position), Expert is Monte Carlo tree search, which needs none."""
    algorithm = "expectiminimax" if found.stochastic else "alphabeta"
    width = max(found.branching * (found.outcomes if found.stochastic else 1), 1.01)
    longest = max(1, math.ceil(found.longest))
    presets = []
    depth = 0
    for index, (name, budget, share) in enumerate(LADDER):
        fitting = max(1, int(math.log(budget) / math.log(width)))
        depth = max(min(fitting, max(1, round(longest * share)), 12), depth + 1)
        noise = 0.6 if index == 0 else 0.0
        presets.append(
            Preset(
                name,
                algorithm,
                depth,
                heuristic,
                randomness=noise,
                description=f"Looks {depth} move{'s' if depth > 1 else ''} ahead"
                + (" with some noise." if noise else ".")
                + f" (Derived: about {min(width**depth, 1e12):,.0f} positions at full width.)",
            )
        )
    if blind:  # no evaluation: a cut-off sees nothing, playouts do
        presets.append(
            Preset(
                "Expert",
                "mcts",
                None,
                heuristic,
                time_limit=MCTS_SECONDS,
                description=f"Monte Carlo tree search for {MCTS_SECONDS:g} s a move: it plays "
                "from the rules alone, as the game has no evaluation.",
            )
        )
        return tuple(presets)
    presets.append(
        Preset(
            "Expert",
            algorithm,
            None if not found.stochastic else depth + 1,
            heuristic,
            time_limit=3.0,
            description="Searches as deep as it can in 3 seconds a move (to the end where it can).",
        )
    )
    return tuple(presets)


def build(cls: type, spec: Spec) -> type[FileGame]:
    """The registry factory of a game class: a FileGame subclass describing it.

    :raises GameFileError: the class cannot be made with its default options.
    :raises GameCodeError: the file's code failed while the game was probed.
    """
    style = style_of(cls)
    assert style is not None
    where = f"{spec.shown}:{cls.__name__}"
    parameters = _parameters(cls)
    defaults = _option_defaults(parameters)
    own_sides = getattr(cls, "side_names", None)
    attributes: dict[str, Any] = {
        "source": cls,
        "style_class": style,
        "where": where,
        "path": str(spec.path or ""),
        "name": canonical_name(spec, cls),
        "title": _title(cls),
        "option_defaults": defaults,
        "takes_players": any(p.name == "players" for p in parameters),
        "options": _whole_options(defaults),
        "notation_help": "moves are written as the game lists them, separated by spaces",
        "checks_mutation": style is AimaStyle,
        "score_scale": float(getattr(cls, "score_scale", 1.0) or 1.0),
        "__doc__": inspect.getdoc(cls) or f"{cls.__name__}, a game from {spec.shown}",
    }
    if isinstance(own_sides, (tuple, list)) and len(own_sides) == 2:
        attributes["side_names"] = (str(own_sides[0]), str(own_sides[1]))
    game_class: type[FileGame] = type(f"{cls.__name__}Game", (FileGame,), attributes)
    state_class: type[FileState] = type(
        f"{cls.__name__}State", (FileState,), {"__slots__": (), "__reduce__": _sent}
    )
    game_class.state_class = game_class.State = state_class  # type: ignore[attr-defined]
    game = game_class()
    found = probe(game)
    state_class.STOCHASTIC = found.stochastic
    game_class.stochastic = found.stochastic
    game_class.utility_is_value = found.scores
    if "side_names" not in attributes and style is AimaStyle:
        first = str(game.style.first)  # type: ignore[attr-defined]
        game_class.side_names = (first, found.second_side or f"not {first}")
    real = [name for name in game.heuristics if name != "none"]
    game_class.default_heuristic = real[0] if real else "none"
    blind = game.heuristics[game_class.default_heuristic].blind
    game_class.presets = derived_presets(found, game_class.default_heuristic, blind)
    game_class.heuristics = game.heuristics
    return game_class


def _sent(state: FileState) -> tuple[Any, ...]:
    """How a state goes to another process: its game's name, options and moves (replayed)."""
    return (_replayed, (state.game.name, state.game.option_values(), state.history()))


def _replayed(name: str, options: dict[str, Any], moves: list[Any]) -> FileState:
    """A state sent from another process: its game loaded here by its name, then replayed."""
    return load(name)(**options).replay(moves)


_LOADED: dict[str, type[FileGame]] = {}


def load(text: str) -> type[FileGame]:
    """The game a spec names, as a registry factory (loaded once per spec).

    :raises GameFileError: no such file, module or class; an import that fails.
    :raises GameCodeError: the file's code fails when the game is made or probed.
    """
    if text in _LOADED:
        return _LOADED[text]
    spec = parse_spec(text)
    cls = find_class(spec)
    name = canonical_name(spec, cls)
    if name not in _LOADED:
        _LOADED[name] = build(cls, spec)
    _LOADED[text] = _LOADED[name]
    return _LOADED[name]


__all__ = [
    "EasyAIStyle",
    "GameCodeError",
    "GameFileError",
    "Probe",
    "Spec",
    "build",
    "derived_presets",
    "find_class",
    "is_spec",
    "load",
    "move_text",
    "parse_spec",
    "probe",
]
