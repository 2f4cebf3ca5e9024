"""A helper process of root-parallel Monte Carlo tree search (`ai.players.root_parallel`).

Run as ``python -m plyground.ai.players.root_helper`` by the searching process.  It reads
pickled requests on its standard input, ``(job, position, settings, time limit, seed,
owner)``, searches each position by `ai.search` with those Monte Carlo settings (its tree kept
from one request of a player, its owner, to the next, as the player keeps it) and writes
``(job, RootCounts | None)`` on its standard output.  A newer request, or None, or the
input closing, stops the running search; None and the input closing end the process.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from dataclasses import dataclass
from typing import IO, Any

from plyground.ai.engine.bookkeeping import SearchCancelled
from plyground.ai.engine.mcts.runner import KeptTree, RootCounts, root_counts
from plyground.ai.engine.search import SearchConfig, search
from plyground.ai.student_code.messages import decode_state

END_GRACE = 2.0
"""Seconds the helper waits for its search to stop, once told to end, before it exits anyway."""


class Requests:
    """The requests read from the input by a thread of their own, the newest kept."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.newest: tuple[Any, ...] | None = None
        self.ended = False
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                request = pickle.load(self.stream)
            except Exception:  # the input closed (the parent is gone) or was not ours
                request = None
            with self.changed:
                if request is None:
                    self.ended = True
                else:
                    self.newest = request
                self.changed.notify_all()
            if request is None:
                # the search stops at its next look; a game's code that never returns is
                # not waited for: the helper never outlives its parent by long
                ending = threading.Timer(END_GRACE, os._exit, args=(0,))
                ending.daemon = True
                ending.start()
                return

    def next(self) -> tuple[Any, ...] | None:
        """The newest request not yet taken (None: time to end)."""
        with self.changed:
            while self.newest is None and not self.ended:
                self.changed.wait()
            if self.ended:
                return None
            request, self.newest = self.newest, None
            return request

    def superseded(self, job: int) -> bool:
        """Whether the search of `job` should stop: a newer request came, or the end."""
        newest = self.newest
        return self.ended or (newest is not None and newest[0] != job)


@dataclass
class OwnedTree(KeptTree):
    """The tree kept for the player (`owner`) whose searches the helper is helping."""

    owner: int = 0


def answer(request: tuple[Any, ...], requests: Requests, kept: OwnedTree) -> RootCounts | None:
    """One request's search, as root counts (None where it could not be searched)."""
    job, position, settings, time_limit, seed, owner = request
    if owner != kept.owner:  # another player's first request: a tree of its own
        kept.root, kept.owner = None, owner
    try:
        state = decode_state(position)
        result = search(
            state,
            SearchConfig(settings, time_limit=time_limit, seed=seed),
            should_stop=lambda: requests.superseded(job),
            tree=kept,
        )
    except SearchCancelled:
        return None
    except Exception:  # the game's failure costs this helper's share only
        kept.root = None
        return None
    assert kept.root is not None  # the search keeps its root
    return root_counts(kept.root, state, result.leaves, result.nodes)


def main() -> None:
    # The answers get a descriptor of their own; the standard output becomes the standard
    # error (discarded), so a game that prints, even from C, writes nothing into them.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = Requests(sys.stdin.buffer)
    kept = OwnedTree()
    while (request := requests.next()) is not None:
        counts = answer(request, requests, kept)
        try:
            pickle.dump((request[0], counts), out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()
        except OSError:
            return


if __name__ == "__main__":
    main()
