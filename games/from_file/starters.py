"""Starter game files, one per style: small, runnable, commented where a student edits them.

`starter(style, class_name, file_name)` is the text `plyground new-game NAME` writes; each is
also checked by the tests (it loads, plays and is searched).  Each plays Nim as it is: a
starter named for another game says plainly, in its title and its docstring, that it is a
Nim to turn into that game (`is_nim`).
"""

from __future__ import annotations

PROTOCOL = '''"""{title}: a game of your own, written to Plyground's game protocol.

Edit the rules below, then:
    plyground match --game {file} --p1 hard --p2 random
    plyground trace --game {file} --depth 3
    python main.py   (then "Open a game..." on the menu)

{rules}

See docs/YOUR-GAME.md for every hook Plyground reads.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Position:
    """A position never changes: play() returns a new one (so undo and search are simple)."""

    heaps: tuple = (3, 4, 5)
    to_move: int = 0  # 0 moves first, then 1

    def legal_moves(self):
        """Every move here, best first if you can guess (alpha-beta prunes more)."""
        return [(h, n) for h, size in enumerate(self.heaps) for n in range(size, 0, -1)]

    def play(self, move):
        heap, taken = move
        heaps = list(self.heaps)
        heaps[heap] -= taken
        return Position(tuple(heaps), 1 - self.to_move)

    def is_terminal(self):
        return sum(self.heaps) == 0

    def utility(self, player):
        """At the end: +1 if `player` won, -1 if they lost, 0 for a draw."""
        return 1 if player != self.to_move else -1  # the last to take won


class {name}:
    title = "{shown_title}"
    side_names = ("First", "Second")

    def __init__(self, heaps=(3, 4, 5)):
        self.heaps = tuple(heaps)

    def initial_state(self):
        return Position(self.heaps)

    def evaluate(self, state):
        """A guess at an unfinished position, for the player to move (any scale)."""
        nim_sum = 0
        for size in state.heaps:
            nim_sum ^= size
        return 1 if nim_sum else -1

    def render(self, state):
        return "\\n".join(f"heap {{i + 1}}: " + "o " * size for i, size in enumerate(state.heaps))
'''

AIMA = '''"""{title}: a game written for aima-python's Game (it runs without aima-python too).

Edit it, then:  plyground match --game {file} --p1 hard --p2 random

{rules}

With aima-python installed you may subclass aima3.games.Game (or aima-python's games.Game):
Plyground reads the same methods.
"""


class {name}:
    title = "{shown_title}"

    def __init__(self, heaps=(3, 4, 5)):
        self.initial = (tuple(heaps), "MAX")  # a state: the heaps and whose turn it is

    def actions(self, state):
        heaps, _ = state
        return [(h, n) for h, size in enumerate(heaps) for n in range(1, size + 1)]

    def result(self, state, move):
        heaps, player = state
        h, n = move
        heaps = heaps[:h] + (heaps[h] - n,) + heaps[h + 1:]
        return heaps, ("MIN" if player == "MAX" else "MAX")

    def terminal_test(self, state):
        return sum(state[0]) == 0

    def utility(self, state, player):
        if not self.terminal_test(state):
            return 0  # unknown: aima's cut-off search values a position by its utility
        winner = "MIN" if state[1] == "MAX" else "MAX"  # the last to take won
        return 1 if player == winner else -1

    def to_move(self, state):
        return state[1]

    def display(self, state):
        print(" ".join(str(size) for size in state[0]))
'''

EASYAI = '''"""{title}: a game written for easyAI's TwoPlayerGame (it runs without easyAI too).

Edit it, then:  plyground match --game {file} --p1 hard --p2 random

{rules}

With easyAI installed you may subclass easyAI.TwoPlayerGame: Plyground reads the same
methods, and copies the game per position.
"""


class {name}:
    title = "{shown_title}"

    def __init__(self, players=None, heaps=(3, 4, 5)):
        self.players = players
        self.heaps = list(heaps)
        self.current_player = 1  # player 1 starts

    def possible_moves(self):
        return [f"{{h + 1}},{{n}}" for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def make_move(self, move):
        heap, taken = map(int, move.split(","))
        self.heaps[heap - 1] -= taken

    def unmake_move(self, move):
        heap, taken = map(int, move.split(","))
        self.heaps[heap - 1] += taken

    def is_over(self):
        return sum(self.heaps) == 0

    def scoring(self):
        """From the player to move: at the end they lost (the other took the last stone)."""
        return -100 if self.is_over() else 0

    def show(self):
        print(" ".join(str(size) for size in self.heaps))

    def ttentry(self):
        return tuple(self.heaps)
'''

STARTERS = {"protocol": PROTOCOL, "aima": AIMA, "easyai": EASYAI}
"""Each style's starter (`plyground new-game --style`)."""


NIM_RULES = (
    "heaps of stones; a move takes one or more stones from one heap; whoever takes the last "
    "stone wins"
)
"""What every starter plays as it is written."""


def is_nim(title: str) -> bool:
    """Whether a starter's name says Nim (then it is what its name says)."""
    return "nim" in (word.lower() for word in title.split())


def name_title(class_name: str) -> str:
    """The game a starter's class name names, in words ("MyKalah" -> "My Kalah")."""
    return " ".join(_words(class_name))


def starter_title(class_name: str) -> str:
    """The title a starter gives its game: its name, or, for a name that is not a Nim, its
    name and that it is a Nim for now ("Kalah (a Nim for now)")."""
    title = name_title(class_name)
    return title if is_nim(title) else f"{title} (a Nim for now)"


def starter(style: str, class_name: str, file_name: str) -> str:
    """The starter file of `style` with its class named `class_name`."""
    import textwrap

    title = name_title(class_name)
    if is_nim(title):
        rules = f"The game is Nim: {NIM_RULES}."
    else:
        rules = (
            f"For now this is Nim, not {title}: {NIM_RULES}. Turn it into {title}: change the "
            f"position, its moves, what a move does and when the game ends, and the title "
            f'("{title} (a Nim for now)").'
        )
    rules = textwrap.fill(rules, 88)
    return STARTERS[style].format(
        name=class_name,
        title=title,
        shown_title=starter_title(class_name),
        file=file_name,
        rules=rules,
    )


def _words(name: str) -> list[str]:
    import re

    return re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name) or [name]


def class_name_for(name: str) -> str:
    """A class name from what the user typed ("my nim", "my_nim.py" -> "MyNim")."""
    import re

    stem = re.sub(r"\.py$", "", name.strip())
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", stem) if p]
    joined = "".join(p[:1].upper() + p[1:] for p in parts) or "MyGame"
    return joined if joined[0].isalpha() else f"Game{joined}"
