"""Finding a game in a file or a module: `load(spec)` -> a registry factory (`FileGame`).

A spec is ``PATH.py``, ``PATH.py:NAME`` or ``MODULE:NAME`` (``easyAI.games:Nim``); NAME may be
left out where the file defines one game.  The class is read by the names it defines
(`styles.style_of`); a short probe from the start (random play, a bounded number of
positions) learns the second side's name, whether it has chance, how wide and long it is and
how long the file's code takes a node of a search, from which the difficulty ladder is
derived.  The file's code runs with the user's rights, like a script they run.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.games.base import GameOption, Preset
from plyground.games.from_file.adapter import FileGame, FileState, given_options
from plyground.games.from_file.guard import GameCodeError, GameFileError, describe_error
from plyground.games.from_file.styles import CHANCE, AimaStyle, EasyAIStyle, move_text, style_of
from plyground.games.search_settings import DepthLimited, MonteCarlo

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
    """aima: how `to_move` names the second player."""
    scores: bool = False
    """A finished game scored other than +1, -1 or 0 was seen."""
    finished: int = 0
    """Games played to their end (0: none ended within the probe's budget)."""
    node_seconds: float = 0.0
    """The file's own time a node of a search, measured (`file_node_seconds`)."""


SAMPLED = 24
"""Positions of the probe's random games kept to time a search's nodes on."""
TIMED_NODES = 400
"""The most nodes `file_node_seconds` visits (and at most `TIMED_SECONDS`)."""
TIMED_SECONDS = 0.25
FINE_PROCESS_CLOCK = time.get_clock_info("process_time").resolution <= 1e-6
"""The process's CPU clock counts microseconds here (Linux, macOS; Windows' counts 16 ms)."""


def probe(
    game: FileGame,
    games_to_play: int = 12,
    positions: int = 3_000,
    seconds: float = 1.5,
    heuristic: str = "none",
) -> Probe:
    """Random play from the start, timed; GameCodeError where the file's code fails on the way (its
    message says the moves were the probe's own, and the options it was made with)."""
    try:
        return _probe(game, games_to_play, positions, seconds, heuristic)
    except GameCodeError as error:
        given = ", ".join(f"{key}={value!r}" for key, value in game.option_values().items())
        with_options = f", options {given}" if given else ""
        chosen = "moves chosen at random by " if error.moves or error.playing else "in "
        raise error.during(f"{chosen}Plyground's load-time check{with_options}") from None


def _probe(
    game: FileGame, games_to_play: int, positions: int, seconds: float, heuristic: str
) -> Probe:
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
    decisions: list[FileState] = []
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
            child = state.play(rng.choice(moves))
            branching.append(len(moves))
            if len(decisions) < SAMPLED and rng.random() < 0.25:
                decisions.append(state)
            if second is None and isinstance(style, AimaStyle) and state.to_move == 1:
                second = str(style.obj.to_move(state.inner))
            state = child
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
        finished=finished,
        node_seconds=file_node_seconds(game, heuristic, decisions),
    )


def file_node_seconds(game: FileGame, heuristic: str, states: list[FileState]) -> float:
    """The file's own time a node of a search: a full-width search two plies deep from each
    of `states` in turn (the end test and the key at every node, the moves and a play for
    each child at the first, the evaluation `heuristic` at the leaves), as the engine asks
    them, over at most TIMED_NODES nodes or TIMED_SECONDS.  The median of the positions'
    times a node, on the process's own clock where it is fine (what the code costs, whatever
    else the machine runs: the same ladder on a busy machine as on a quiet one); 0 where no
    position was kept."""
    evaluation = game.heuristics.get(heuristic)
    evaluate = None if evaluation is None or heuristic == "none" else evaluation.evaluate
    clock = time.process_time if FINE_PROCESS_CLOCK else time.perf_counter
    nodes = 0
    rates: list[float] = []
    deadline = time.perf_counter() + TIMED_SECONDS
    for state in states:
        began, counted = clock(), nodes
        for move in state.legal_moves():
            child = state.play(move)
            nodes += 1
            if child.is_terminal():
                continue
            child.key()
            for reply in child.legal_moves():
                leaf = child.play(reply)
                nodes += 1
                if not leaf.is_terminal() and evaluate is not None:
                    leaf.key()
                    evaluate(leaf)
        rates.append((clock() - began) / max(1, nodes - counted))
        if nodes >= TIMED_NODES or time.perf_counter() > deadline:
            break
    return statistics.median(rates) if rates else 0.0


@dataclass(frozen=True)
class Level:
    """A rung of the derived ladder: the seconds its move's node budget stands for at the game's
    measured speed, the most seconds a move may take on a machine slower than that (a cap),
    the most of the longest game seen it looks ahead (so a short game still has distinct
    levels), and the noise on its root values."""

    name: str
    seconds: float
    cap: float
    share: float
    randomness: float = 0.0


LADDER = (
    Level("Easy", 0.05, 0.25, 0.25, 0.6),
    Level("Medium", 0.2, 0.5, 0.5),
    Level("Hard", 0.6, 1.0, 1.0),
)
"""The depth-limited levels, easiest first: each a few times the nodes of the one below."""
EXPERT = Level("Expert", 1.2, 1.5, 1.0)
"""The strongest level: as deep as its budget allows (to the end where it can), within 2
seconds a move."""
DEEPEST = 64
"""Expert's depth: deepening stops at its budget, or where the values are exact
(`ai.engine.search.MAX_DEPTH`)."""
ENGINE_FACTOR = 1.5
ENGINE_SECONDS = 2e-5
"""An engine's node on a game from a file takes at most about ENGINE_FACTOR times the file's
own time a node (`Probe.node_seconds`) and ENGINE_SECONDS more (the walk, the guard, the
table, ordering), in CPU time: on the frameworks' games 0.5-2 times the file's
(docs/BENCHMARKS.md), so the node budget binds before the time cap on an idle machine."""
ROUND = (1, 1.5, 2, 3, 5, 7)
"""A node budget is one of these times a power of ten (at most a third below the exact one)."""
FEWEST_NODES = 20
"""The smallest node budget of a level: a move at depth 1 is owed whatever the budget."""


def node_budget(seconds: float, found: Probe) -> int:
    """The nodes the engine searches in `seconds` at the game's measured speed, rounded down
    to a ROUND number: a busy machine's scatter seldom changes it, so a ladder and a seeded
    match made with it replay alike."""
    exact = seconds / (found.node_seconds * ENGINE_FACTOR + ENGINE_SECONDS)
    power = 10 ** max(0, int(math.log10(max(exact, 1.0))))
    step = max((m * power for m in ROUND if m * power <= exact), default=power)
    return max(FEWEST_NODES, int(step))


def pruned_nodes(width: float, depth: int) -> float:
    """The nodes alpha-beta visits at `depth` in a tree of `width` moves a position, as
    `ai.engine.cost.estimate_nodes` estimates them: 2 T^0.6 of the full tree's T."""
    tree = float(sum(width**level for level in range(depth + 1)))
    return min(tree, 2.0 * float(tree**0.6))


def level_budgets(found: Probe) -> list[tuple[Level, int]]:
    """Each level, easiest first, with its node budget: its seconds at the speed the probe
    measured (`node_budget`), each at least twice the one below.  What a level may spend,
    whichever search spends it."""
    budgets: list[tuple[Level, int]] = []
    nodes = 0
    for level in (*LADDER, EXPERT):
        nodes = max(node_budget(level.seconds, found), 2 * nodes)
        budgets.append((level, nodes))
    return budgets


MCTS_SECONDS = 1.5
"""The strongest level's seconds a move on a game with no evaluation (Monte Carlo tree search):
its worst move measured within 2 s on this 2-core machine under a load of 7 to 14
(docs/RESULTS.md, "A game with no evaluation")."""
MCTS_PROCESSES = 2
"""The processes the strongest level searches on (root parallelization, at most one a core):
on aima's ConnectFour, Expert on two scored 84.4% over three runs of 16 games against the
student's UCT agent (90.6%, 93.8%, 68.8%), where on one it scored 66.7% over 96
(docs/RESULTS.md)."""
MCTS_FEWEST_ITERATIONS = 10
"""The fewest iterations a move of a level of a game with no evaluation."""
MCTS_EXPLORATION = 1.0
"""Its UCB1 constant, below the textbook's sqrt(2): at 800 iterations a move, random playouts,
it scored 75% over 16 games against sqrt(2) on aima's ConnectFour and 50% over 12 on a Kalah
(0.7 scored 50% against it on ConnectFour; docs/RESULTS.md)."""


def _mcts_level(level: Level, nodes: int, found: Probe, heuristic: str) -> Preset:
    """A level of a game with no evaluation: Monte Carlo tree search.  Below Expert, the
    iterations its node budget affords, a playout counted as half the longest game seen (a
    budget no machine's speed changes), within the level's time cap; Expert,
    `MCTS_SECONDS` a move.  Measured: alpha-beta blind at its cut-off plays at random until
    an end is within its depth, so its Easy, Medium and Hard did not differ (docs/RESULTS.md)."""
    if level is EXPERT:
        return Preset(
            level.name,
            MonteCarlo(exploration=MCTS_EXPLORATION, heuristic=heuristic, processes=MCTS_PROCESSES),
            time_limit=MCTS_SECONDS,
            description=f"Monte Carlo tree search for {MCTS_SECONDS:g} s a move on up to "
            f"{MCTS_PROCESSES} cores: it plays from the rules alone, as the game has no "
            "evaluation.",
        )
    playout = max(1, math.ceil(found.longest / 2))
    iterations = max(MCTS_FEWEST_ITERATIONS, nodes // playout)
    noise = " with noise" if level.randomness else ""
    return Preset(
        level.name,
        MonteCarlo(iterations, MCTS_EXPLORATION, heuristic=heuristic),
        time_limit=level.cap,
        randomness=level.randomness,
        description=f"Monte Carlo tree search, {iterations:,} iterations a move{noise} "
        f"(about {level.seconds:g} s here): it plays from the rules alone, as the game has "
        "no evaluation.",
    )


def derived_presets(found: Probe, heuristic: str, blind: bool = False) -> tuple[Preset, ...]:
    """A ladder for a game from a file, on its own speed: depth-limited searches (alpha-beta,
    or expectiminimax with chance), each level within its node budget (`level_budgets`) and
    its time cap; iterative deepening keeps the deepest depth finished within both.  A
    level's depth is the deepest whose pruned tree (`pruned_nodes`) fits its budget, within
    its share of the longest game seen, each deeper than the one below; Expert goes as deep
    as its budget allows.  On a game with no evaluation (`blind`: its heuristic cannot judge
    an unfinished position), every level is Monte Carlo tree search, which needs none
    (`_mcts_level`)."""
    algorithm = "expectiminimax" if found.stochastic else "alphabeta"
    width = max(found.branching * (found.outcomes if found.stochastic else 1), 1.01)
    longest = max(1, math.ceil(found.longest))
    presets = []
    depth = 0
    for level, nodes in level_budgets(found):
        if blind:  # no evaluation: a cut-off sees nothing, playouts do
            presets.append(_mcts_level(level, nodes, found, heuristic))
            continue
        if level is EXPERT:
            depth = DEEPEST
            text = f"As deep as {nodes:,} positions a move allow, to the end where it can"
        else:
            fitting = 1
            while fitting < DEEPEST and pruned_nodes(width, fitting + 1) <= nodes:
                fitting += 1
            depth = max(min(fitting, max(1, round(longest * level.share))), depth + 1)
            text = (
                f"Looks up to {depth} move{'s' if depth > 1 else ''} ahead"
                + (", with noise," if level.randomness else "")
                + f", within {nodes:,} positions a move"
            )
        presets.append(
            Preset(
                level.name,
                DepthLimited(algorithm, depth, heuristic, node_limit=nodes),
                time_limit=level.cap,
                randomness=level.randomness,
                description=f"{text} (about {level.seconds:g} s here).",
            )
        )
    return tuple(presets)


UNENDING_MOVE_LIMIT = 500
"""The move limit (`games.base.MoveLimit`) of a game that names none and whose load-time probe
saw no game end: it may never end, and its games are draws at this many moves."""


def ladder_of(game: FileGame) -> tuple[Preset, ...]:
    """The ladder of a game as it is made (its options): its own probe, timed."""
    heuristic = game.default_heuristic
    found = probe(game, heuristic=heuristic)
    return derived_presets(found, heuristic, game.heuristics[heuristic].blind)


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
    game_class.loaded_options = game.option_values()
    game_class.probed = {option_key(game.option_values())}
    real = [name for name in game.heuristics if name != "none"]
    game_class.default_heuristic = real[0] if real else "none"
    found = probe(game, heuristic=game_class.default_heuristic)
    state_class.STOCHASTIC = found.stochastic
    game_class.stochastic = found.stochastic
    game_class.utility_is_value = found.scores
    if "side_names" not in attributes and style is AimaStyle:
        first = str(game.style.first)  # type: ignore[attr-defined]
        game_class.side_names = (first, found.second_side or f"not {first}")
    blind = game.heuristics[game_class.default_heuristic].blind
    game_class.default_presets = derived_presets(found, game_class.default_heuristic, blind)
    game_class.ladders = {}
    game_class.derive_presets = staticmethod(ladder_of)
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
        found = probe(game, heuristic=factory.default_heuristic)
        key = option_key(game.option_values())
        factory.probed.add(key)
        heuristic = factory.default_heuristic
        factory.ladders[key] = derived_presets(found, heuristic, game.heuristics[heuristic].blind)
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
    "ladder_of",
    "load",
    "move_text",
    "parse_spec",
    "probe",
]
