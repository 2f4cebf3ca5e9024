"""Practice in the explorer: the learner predicts alpha-beta's cuts and the root's value on a
random tree, then this module says how the prediction compares with the real search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.ai.textbook.trace import Trace, trace
from plyground.games.base import State
from plyground.games.trees import examples as tree_examples

PRACTICE = len(tree_examples.TRACE_LESSONS)
"""The lesson index of practice mode (after the textbook lessons)."""
EDITOR = PRACTICE + 1
"""The lesson index of the tree editor (after practice)."""
PROMPT = (
    "Predict: type the root's value, then click each branch alpha-beta will skip (its "
    "line, its move label or the node it leads to all mark that one branch), then Show "
    "answer."
)


@dataclass
class Practice:
    """The learner's prediction: marked branches (by the node each leads to), the typed
    root value, and once checked the verdict."""

    marks: set[int] = field(default_factory=set)
    guess: str = ""
    verdict: str = ""
    checked: bool = False


def answer(state: State[Any], depth: int) -> tuple[set[str], float]:
    """The branches alpha-beta cuts (by name) and the root value, from the recorded search."""
    found = trace(state, "alphabeta", depth)
    skipped = {name for node in found.nodes for name in node.skipped}
    return skipped, found.value


def verdict(shown: Trace, marks: set[int], guess: str, skipped: set[str], value: float) -> str:
    """What the learner got right: `marks` are node ids of `shown` (the minimax trace the
    learner marked), `guess` the typed root value, `skipped` and `value` the real answer."""
    nodes = shown.nodes
    inside: set[int] = set()  # every node below a skipped branch (unique names)
    stack = [n.id for n in nodes if n.label in skipped]
    while stack:
        node_id = stack.pop()
        inside.update(nodes[node_id].children)
        stack.extend(nodes[node_id].children)
    marked = {nodes[n].label for n in marks}
    right = marked & skipped
    below = {nodes[n].label for n in marks & inside} - right
    wrong = marked - right - below
    sentences = [
        f"Alpha-beta cuts {counted(len(skipped), 'branch')}"
        f"{': ' + ', '.join(sorted(skipped)) if skipped else ''}."
    ]
    named = ", ".join(sorted(marked)) or "none"
    sentences.append(
        f"Branches you marked: {named} (a branch counts once, whether you clicked its line, "
        "its label or the node it leads to)."
    )
    parts = [f"You marked {len(right)} of them"]
    if below:
        parts.append(f"{len(below)} inside a cut branch")
    if wrong:
        parts.append(f"{len(wrong)} that {'is' if len(wrong) == 1 else 'are'} searched")
    sentences.append(", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] + ".")
    guess = guess.strip()
    if guess:
        try:
            ok = float(guess) == value
        except ValueError:
            ok = False
        sentences.append(
            f"The root is worth {value:g}: your guess {guess} is {'right' if ok else 'not right'}."
        )
    else:
        sentences.append(f"The root is worth {value:g}.")
    return " ".join(sentences)
