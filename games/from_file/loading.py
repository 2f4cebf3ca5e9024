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
from plyground.games.from_file.adapter import FileGame, FileState, given_options
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
        """The file's or module's name for messages (`file_label`)."""
        return file_label(self.path) if self.path is not None else str(self.module)


def file_label(path: Path) -> str:
    """A game file's name as the window and the messages show it: ``nim.py``, or with its
    package folder for a file inside a package (``aima3/games.py``)."""
    if (path.parent / "__init__.py").is_file():
        return f"{path.parent.name}/{path.name}"
    return path.name


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
    in_package = package_module(spec.path)
    if in_package is not None:
        return _import_from_package(spec.path, *in_package)
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


def package_module(path: Path) -> tuple[Path, str] | None:
    """Where a file inside a package is imported from, and its module's dotted name
    (``.../site-packages/aima3/games.py``: site-packages and ``aima3.games``): the folders
    above it that hold an ``__init__.py``; None for a file outside a package."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    if len(parts) == 1 or not all(part.isidentifier() for part in parts):
        return None
    return folder, ".".join(parts)


def _import_from_package(path: Path, root: Path, dotted: str) -> Any:
    """A file inside a package imported as part of it (its relative imports work), `root`
    importable while it loads, and its own folder after everything else (a file beside it
    may still be imported by its name); GameFileError where that name is another module."""
    top = dotted.partition(".")[0]
    taken = sys.modules.get(top)
    if taken is not None and _folder_of(taken) != root / top:
        raise GameFileError(
            f"{path.name} is {dotted} in its package, but the name {top} is taken by "
            f"{_folder_of(taken) or 'a built-in module'}: rename its folder {top}"
        )
    first, last = str(root), str(path.parent)
    sys.path.insert(0, first)
    sys.path.append(last)  # last: a file beside it never hides an installed module
    try:
        module = importlib.import_module(dotted)
    except SyntaxError as error:
        raise GameFileError(f"{path.name}: line {error.lineno}: {error.msg}") from None
    except BaseException as error:  # its own code: any failure, even SystemExit
        if isinstance(error, KeyboardInterrupt):
            raise
        raise GameFileError(
            f"{path.name}: importing it as {dotted} failed: {describe_error(error)}"
        ) from None
    finally:
        if first in sys.path:
            sys.path.remove(first)  # the first such entry: the one put first
        if last in sys.path:
            del sys.path[len(sys.path) - 1 - sys.path[::-1].index(last)]  # the one put last
    found = getattr(module, "__file__", None)
    if found is None or Path(found).resolve() != path:
        raise GameFileError(
            f"{path.name} is {dotted} in its package, but {dotted} is {found or 'built in'}"
        )
    return module


def _folder_of(package: Any) -> Path | None:
    """The folder a package was imported from (None for a built-in or namespace one)."""
    found = getattr(package, "__file__", None)
    return Path(found).resolve().parent if found else None


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
    finished: int = 0
    """Games played to their end (0: none ended within the probe's budget)."""


def probe(
    game: FileGame, games_to_play: int = 12, positions: int = 3_000, seconds: float = 1.5
) -> Probe:
    """Random play from the start; GameCodeError where the file's code fails on the way (its
    message says the moves were the probe's own, and the options it was made with)."""
    try:
        return _probe(game, games_to_play, positions, seconds)
    except GameCodeError as error:
        given = ", ".join(f"{key}={value!r}" for key, value in game.option_values().items())
        with_options = f", options {given}" if given else ""
        chosen = "moves chosen at random by " if error.moves or error.playing else "in "
        raise error.during(f"{chosen}Plyground's load-time check{with_options}") from None


def _probe(game: FileGame, games_to_play: int, positions: int, seconds: float) -> Probe:
    rng = random.Random(0)
    branching: list[int] = []
    outcomes: list[int] = []
    lengths: list[int] = []
    stochastic = False
    scores = False
    finished = 0
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
        finished += state.is_terminal()
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
        finished,
    )


LADDER = (("Easy", 300, 0.25), ("Medium", 20_000, 0.5), ("Hard", 400_000, 1.0))
"""Each derived level: its budget (the leaves a full-width search of its depth may reach) and
the most of the longest game seen it looks ahead (so a short game still has three levels)."""


def derived_presets(found: Probe, heuristic: str) -> tuple[Preset, ...]:
    """A depth ladder for a game from a file: each level the deepest search whose full-width
    tree (branching ** depth, times the chance outcomes) fits its budget and its share of the
    longest game seen, each deeper than the one below, and Expert searching until its time
    is up (to the end where it can)."""
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


UNENDING_MOVE_LIMIT = 500
"""The move limit (`games.base.MoveLimit`) of a game that names none and whose load-time probe
saw no game end: it may never end, and its games are draws at this many moves."""


def build(cls: type, spec: Spec, options: dict[str, Any] | None = None) -> type[FileGame]:
    """The registry factory of a game class: a FileGame subclass describing it, from a probe
    of the game made with `options` (its defaults where None).

    :raises GameFileError: an option the class does not take.
    :raises GameCodeError: the file's code failed while the game was made or probed.
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
    limit = getattr(cls, "move_limit", None)
    if limit is not None:
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise GameFileError(
                f"{where}: move_limit is {limit!r}; give a whole number of moves, 1 or more"
            )
        attributes["move_limit"] = limit
    game_class: type[FileGame] = type(f"{cls.__name__}Game", (FileGame,), attributes)
    state_class: type[FileState] = type(
        f"{cls.__name__}State", (FileState,), {"__slots__": (), "__reduce__": _sent}
    )
    game_class.state_class = game_class.State = state_class  # type: ignore[attr-defined]
    game = made(game_class, options or {})
    found = probe(game)
    game_class.loaded_options = game.option_values()
    game_class.probed = {option_key(game.option_values())}
    state_class.STOCHASTIC = found.stochastic
    game_class.stochastic = found.stochastic
    game_class.utility_is_value = found.scores
    if "side_names" not in attributes and style is AimaStyle:
        first = str(game.style.first)  # type: ignore[attr-defined]
        game_class.side_names = (first, found.second_side or f"not {first}")
    real = [name for name in game.heuristics if name != "none"]
    game_class.default_heuristic = real[0] if real else "none"
    game_class.presets = derived_presets(found, game_class.default_heuristic)
    if "move_limit" not in attributes and not found.finished:
        game_class.move_limit = UNENDING_MOVE_LIMIT
    game_class.heuristics = game.heuristics
    return game_class


def _sent(state: FileState) -> tuple[Any, ...]:
    """How a state goes to another process: its game's name, options and moves (replayed)."""
    return (_replayed, (state.game.name, state.game.option_values(), state.history()))


def _replayed(name: str, options: dict[str, Any], moves: list[Any]) -> FileState:
    """A state sent from another process: its game loaded here by its name, then replayed."""
    return load(name, options)(**options).replay(moves)


def option_key(options: dict[str, Any]) -> str:
    """A game's options as one text, the same for the same options in any order."""
    return repr(sorted(options.items()))


def made(factory: type[FileGame], options: dict[str, Any]) -> FileGame:
    """The game `factory` makes with `options`; GameFileError naming an option it does not
    take, and those it does."""
    unknown = sorted(set(options) - set(factory.option_defaults))
    if unknown:
        offered = ", ".join(factory.option_defaults) or "none"
        raise GameFileError(
            f"{factory.where}: takes no option {', '.join(unknown)} (its options: {offered})"
        )
    return factory(**options)


_LOADED: dict[str, type[FileGame]] = {}


def load(text: str, options: dict[str, Any] | None = None) -> type[FileGame]:
    """The game a spec names, as a registry factory (loaded once per spec), its game made with
    `options` checked by a probe once per set of options.

    :raises GameFileError: no such file, module, class or option; an import that fails.
    :raises GameCodeError: the file's code fails when the game is made or probed.
    """
    factory = _LOADED.get(text)
    if factory is None:
        spec = parse_spec(text)
        cls = find_class(spec)
        name = canonical_name(spec, cls)
        if name not in _LOADED:
            _LOADED[name] = build(cls, spec, options)
        factory = _LOADED[text] = _LOADED[name]
    if options and option_key(given_options(options)) not in factory.probed:
        game = made(factory, options)
        probe(game)
        factory.probed.add(option_key(game.option_values()))
    return factory


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
