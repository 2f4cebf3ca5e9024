"""The registered games, carried over to a spawned worker process.

A game added with `games.register` after start-up (a plug-in, a test's game) is not in a
fresh "spawn" process's registry: the parent sends `registered_games()` and the worker
calls `register_games` with it.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path
from typing import Any

from plyground import games

__all__ = ["game_files", "module_game_places", "register_games", "registered_games"]


FROM_FILE = "<file>"
"""The module part of a game loaded from a file or module: the worker loads it by its name,
with the options it was loaded with."""


def registered_games() -> tuple[tuple[str, str], ...]:
    """Every registered game's factory as (module, qualified name), to send to a worker; a
    game from a file as (FROM_FILE, its registry name and the options it was loaded with, as
    a Python literal): loaded there as here, its load-time check made with those options."""
    return tuple(
        (FROM_FILE, repr((name, dict(getattr(factory, "loaded_options", {})))))
        if games.is_from_file(name)
        else (factory.__module__, factory.__qualname__)
        for name, factory in games.GAMES.items()
    )


def game_files() -> tuple[str, ...]:
    """The files of the games loaded from files (a sandboxed worker must be able to read
    them): a file's own path, or for a file inside a package its top package's folder."""
    from plyground.games.from_file.loading import package_module

    loaded = [name for name in games.GAMES if games.is_from_file(name)]
    found: list[str] = []
    for name in loaded:
        path = str(getattr(games.GAMES[name], "path", ""))
        if not path:
            continue
        in_package = package_module(Path(path))
        if in_package is not None:
            root, dotted = in_package
            path = str(root / dotted.partition(".")[0])
        found.append(path)
    return tuple(found)


def module_game_places() -> tuple[tuple[str, str], ...]:
    """Where each game loaded from a module by name (``--game mymod:Game``) lies on disk:
    (the folder its top-level module is imported from, that module's file or package
    folder), so a sandboxed worker can see it and import it (nothing else of that folder)."""
    places: list[tuple[str, str]] = []
    for name, factory in games.GAMES.items():
        path: str = getattr(factory, "path", "")
        if not games.is_from_file(name) or path:
            continue  # a built-in game, or a file's (`game_files`)
        module = str(getattr(getattr(factory, "source", None), "__module__", ""))
        top = sys.modules.get(module.split(".")[0])
        found = list(getattr(top, "__path__", None) or [getattr(top, "__file__", None)])
        places += [(str(Path(where).parent), str(where)) for where in found if where]
    return tuple(places)


def register_games(factories: tuple[tuple[str, str], ...]) -> None:
    """In a spawned worker process: register the games its parent had (`registered_games`).

    A game added with `games.register` after start-up (a plug-in, a test's game) is not in
    a fresh process's registry until its module is imported and registered again.
    """
    for module_name, qualified_name in factories:
        if module_name == FROM_FILE:
            name, options = ast.literal_eval(qualified_name)
            games.resolve(name, options)
            continue
        factory: Any = importlib.import_module(module_name)
        for part in qualified_name.split("."):
            factory = getattr(factory, part)
        games.register(factory)
