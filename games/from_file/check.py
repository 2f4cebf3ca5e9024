"""Load a game from a file in a process of its own and say whether it works, as one JSON line.

``python -m plyground.games.from_file.check SPEC`` prints ``{"name": ..., "title": ...}`` or
``{"error": "<one line>"}``.  The window runs it before it loads a game into its own process,
so a file that loops or crashes while it is imported or probed costs that process only.
"""

from __future__ import annotations

import json
import sys


def check(spec: str) -> dict[str, str]:
    """Load `spec` here (probe included); its name and title, or the error's one line."""
    from plyground import games
    from plyground.games.from_file import GameCodeError
    from plyground.games.from_file.guard import describe_error, watch

    watch()
    try:
        name = games.resolve(spec)
        game = games.get_game(name)
        state = game.initial_state()
        state.legal_moves()
        game.render(state)
    except (GameCodeError, ValueError) as error:
        return {"error": str(error)}
    except Exception as error:
        return {"error": f"{spec}: {describe_error(error)}"}
    return {"name": name, "title": str(game.title)}


def main() -> int:
    """The command: one argument, the spec."""
    if len(sys.argv) != 2:
        print(json.dumps({"error": "usage: check SPEC"}))
        return 2
    print(json.dumps(check(sys.argv[1])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
