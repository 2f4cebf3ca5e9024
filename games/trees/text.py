"""Game trees typed as text, the way a textbook writes them: `(3,5,9)(1,7,14)(8,11,2)`.

The text lists the root's children.  A number is a leaf (its value for MAX), `( ... )` a
decision node, `[p:child q:child ...]` a chance node whose outcomes have probabilities p, q
(decimals or fractions like 1/6, summing to 1).  Items are separated by commas or spaces.
Decision nodes alternate: the root is MAX, a decision node below it MIN, and so on; a chance
node does not take a turn (MAX, chance, MIN as in the textbook's backgammon figure).  A text
that is a single `( ... )` or `[ ... ]` is the root itself.  Nodes are named as the book
names them: the root A, its children B, C, D..., below them B1, B2, ... then B11, ...

`parse_tree(text)` gives the nested tuples of `games.trees.examples`; bad text raises
`TreeTextError` with one line naming the character where it went wrong.  `format_tree` is
the inverse; `generate(branching, depth, probabilities, seed)` writes a random tree's text.
"""

from __future__ import annotations

import random
from fractions import Fraction

from plyground.games.trees.examples import Tree

MAX_CHILDREN = 9
"""Children per node (names use one digit per level)."""
MAX_LEAVES = 400
"""Leaves in a typed tree (a tree to read, not to search for speed)."""
MAX_DEPTH = 40
"""Nested brackets in a typed tree: deeper text is refused in one line, not read recursively."""
EXAMPLE = "(3,5,9)(1,7,14)(8,11,2)"
"""The lessons' first tree: A = 3."""
LETTERS = "BCDEFGHIJ"
HELP = (
    "Type the root's children: a number is a leaf (its value for MAX), ( ) a decision "
    "node (MIN under the root, then MAX, ...), [0.9:( ) 0.1:( )] a chance node with its "
    "probabilities. Enter or Run searches it; Random writes a tree of the branching, depth "
    "and chance chosen."
)


class TreeTextError(ValueError):
    """Tree text that cannot be read; the message names the character."""


class _Reader:
    """A recursive-descent reader over the text; nodes come back as (kind, children) with
    children (probability or None, subtree) and are named afterwards."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.leaves = 0
        self.depth = 0

    def fail(self, what: str, show_found: bool = True) -> TreeTextError:
        found = self.text[self.at] if self.at < len(self.text) else "the end"
        shown = found if found == "the end" else f"'{found}'"
        tail = f", found {shown}" if show_found else ""
        return TreeTextError(f"tree text, character {self.at + 1}: {what}{tail}")

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\n,;":
            self.at += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at] if self.at < len(self.text) else ""

    def items(self, close: str, chance: bool) -> list[tuple[float | None, object]]:
        """Items up to `close` ("" for the end of the text)."""
        found: list[tuple[float | None, object]] = []
        while self.peek() != close:
            if self.peek() == "" or self.peek() in ")]":
                if not close:
                    raise self.fail(f"'{self.peek()}' closes nothing", show_found=False)
                raise self.fail(f"expected '{close}'")
            probability = self.probability() if chance else None
            found.append((probability, self.item()))
        if not found:
            raise self.fail("expected at least one child")
        if len(found) > MAX_CHILDREN:
            raise self.fail(f"a node has at most {MAX_CHILDREN} children")
        return found

    def item(self) -> object:
        start = self.peek()
        if start in "([":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail(f"a tree is at most {MAX_DEPTH} levels deep", show_found=False)
            self.at += 1
            close = ")" if start == "(" else "]"
            children = self.items(close, chance=start == "[")
            self.at += 1
            self.depth -= 1
            if start == "[":
                self.check_sum(children)
            return ("chance" if start == "[" else "decision", children)
        return self.number("a number, '(' or '['")

    def number(self, what: str) -> float:
        self.skip()
        begin = self.at
        while self.at < len(self.text) and (self.text[self.at] in "+-.0123456789eE"):
            self.at += 1
        try:
            value = float(self.text[begin : self.at])
        except ValueError:
            self.at = begin
            raise self.fail(f"expected {what}") from None
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise self.fail(f"a tree has at most {MAX_LEAVES} leaves")
        return value

    def probability(self) -> float:
        begin = self.at
        top = self.number("a probability like 0.9 or 1/6 before ':'")
        self.leaves -= 1
        value = top
        if self.text[self.at : self.at + 1] == "/":
            self.at += 1
            below = self.number("the fraction's denominator")
            self.leaves -= 1
            if below == 0:
                self.at = begin
                raise self.fail("a probability's denominator cannot be 0")
            value = top / below
        if self.peek() != ":":
            raise self.fail("expected ':' after a probability")
        self.at += 1
        if not 0 < value <= 1:
            self.at = begin
            raise self.fail(f"a probability is more than 0 and at most 1, not {value:g}")
        return value

    def check_sum(self, children: list[tuple[float | None, object]]) -> None:
        total = sum(p or 0.0 for p, _ in children)
        if abs(total - 1) > 1e-6:
            self.at -= 1
            raise self.fail(
                f"a chance node's probabilities sum to {total:g}, not 1", show_found=False
            )


def parse_tree(text: str) -> Tree:
    """The tree written in `text` (see the module's help).

    :raises TreeTextError: one line naming the character where the text went wrong.
    """
    reader = _Reader(text)
    if not text.strip():
        raise TreeTextError("tree text is empty: type leaf values like " + EXAMPLE)
    found = reader.items("", chance=False)
    single = found[0][1]
    root = single if len(found) == 1 and isinstance(single, tuple) else ("decision", found)
    return _named(root, "A", True, 0)


def _named(raw: object, name: str, is_max: bool, level: int) -> Tree:
    """Turn what the reader found into the nested tuples, naming every child."""
    if not isinstance(raw, tuple):
        return raw
    kind, children = raw
    names = [_child_name(name, index, level) for index in range(len(children))]
    if kind == "chance":
        return (
            "chance",
            tuple(
                (child_name, probability, _named(child, child_name, is_max, level + 1))
                for child_name, (probability, child) in zip(names, children, strict=True)
            ),
        )
    return (
        "max" if is_max else "min",
        tuple(
            (child_name, _named(child, child_name, not is_max, level + 1))
            for child_name, (_, child) in zip(names, children, strict=True)
        ),
    )


def _child_name(parent: str, index: int, level: int) -> str:
    """B, C, D under the root; B1, B2 under B; B11 under B1."""
    return LETTERS[index] if level == 0 else f"{parent}{index + 1}"


def format_tree(tree: Tree, top: bool = True) -> str:
    """The text `parse_tree` reads for `tree` (the root's children, or the root in brackets
    when it is a chance node)."""
    if isinstance(tree, int | float):
        return f"{tree:g}"
    kind, children = tree
    if kind == "chance":
        inner = " ".join(
            f"{_probability_text(p)}:{format_tree(sub, False)}" for _, p, sub in children
        )
        return f"[{inner}]"
    inner = ",".join(format_tree(sub, False) for _, sub in children)
    return "".join(format_tree(sub, False) for _, sub in children) if top else f"({inner})"


def _probability_text(probability: float) -> str:
    fraction = Fraction(probability).limit_denominator(12)
    if abs(float(fraction) - probability) < 1e-9 and fraction.denominator in (3, 6, 7, 9, 11, 12):
        return f"{fraction.numerator}/{fraction.denominator}"
    return f"{probability:g}"


def generate(
    branching: int, depth: int, probabilities: tuple[float, ...] = (), seed: int = 1
) -> str:
    """A random tree's text: `depth` decision levels (the root's included) of `branching`
    moves each, leaves 1-15; with `probabilities`, a chance node after every decision level
    but the last (MAX, chance, MIN, ...)."""
    rng = random.Random(seed)

    def build(level: int) -> Tree:
        if level == depth:
            return rng.randint(1, 15)
        moves = tuple((str(i), build_after(level)) for i in range(branching))
        return ("max" if level % 2 == 0 else "min", moves)

    def build_after(level: int) -> Tree:
        if probabilities and level + 1 < depth:
            return (
                "chance",
                tuple((str(i), p, build(level + 1)) for i, p in enumerate(probabilities)),
            )
        return build(level + 1)

    tree = build(0)
    root_chance = isinstance(tree, tuple) and tree[0] == "chance"
    return format_tree(tree, top=not root_chance)
