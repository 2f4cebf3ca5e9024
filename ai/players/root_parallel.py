"""Root parallelization: Monte Carlo tree search in more than one process at once.

A search whose settings ask for N processes (`MonteCarlo.processes`) runs in its own process
as ever and asks N - 1 helper processes to search the same position on the same budget, each
on a tree of its own with its own seed; when the time is up the root moves' counts are added
up (`ai.engine.mcts.runner.fold`) and the most visited move is played.  Of the three ways
Chaslot, Winands and van den Herik compared in "Parallel Monte-Carlo Tree Search" (2008, on
9x9 Go), it is the simplest, and it scaled the best.

The helpers are plain child processes (`python -m plyground.ai.players.root_helper`), not
`multiprocessing` children, so that a daemonic process (the window's AI worker) may start
them too; they talk by pickled messages on their standard input and output.  Each keeps its
tree between the moves of a game, as the player does.  A helper that fails, dies or answers
late costs only its share of the counts: the search goes on with what arrived.  Its game is
made in the helper from the position's description (`ai.student_code.messages`): a game from
a file is loaded there with the user's rights, as in the window's worker.  A helper ends when
asked, and by itself when its parent's end of the pipe closes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from typing import IO, Any

from plyground.ai.engine.mcts.runner import RootCounts
from plyground.ai.engine.search import MonteCarlo
from plyground.ai.student_code.messages import MessageError, encode_state
from plyground.games.base import State


def usable_processes(asked: int) -> int:
    """The processes a search may use: those asked, at most one a core."""
    return max(1, min(asked, os.cpu_count() or 1))


class Helper:
    """One helper process and the thread that reads its answers."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plyground.ai.players.root_helper"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.answers: queue.Queue[tuple[int, RootCounts | None]] = queue.Queue()
        assert self.process.stdout is not None  # asked for above
        self.reader = threading.Thread(
            target=_read_answers, args=(self.process.stdout, self.answers), daemon=True
        )
        self.reader.start()

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, message: object) -> bool:
        """Send one message; False where the helper is gone."""
        stdin = self.process.stdin
        try:
            assert stdin is not None
            pickle.dump(message, stdin, protocol=pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except (OSError, ValueError, AssertionError, pickle.PicklingError):
            return False
        return True

    def close(self, wait: float) -> None:
        self.send(None)
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(wait)


def _read_answers(stream: IO[bytes], answers: queue.Queue[tuple[int, RootCounts | None]]) -> None:
    """The reader thread: every answer the helper writes, until its output closes."""
    while True:
        try:
            job, counts = pickle.load(stream)
        except Exception:  # closed, or not an answer: the helper is done for
            return
        answers.put((int(job), counts if isinstance(counts, RootCounts) else None))


OWNERS = itertools.count(1)
SPARE: list[Helper] = []
"""Helpers whose player has closed, kept for the next one (a match's next game): a helper
costs its interpreter's start.  They end when this process does (their input closes)."""


class RootParallel:
    """The helper processes of one player (`ai.engine.mcts.runner.Helpers`): started with it
    (a spare one taken where there is one), handed back to the spares by `close()`."""

    def __init__(self, processes: int) -> None:
        self.wanted = usable_processes(processes) - 1
        self.helpers: list[Helper] = []
        self._hire()
        self.owner = next(OWNERS)
        """This player's number: a helper handed on to another player starts a new tree."""
        self.jobs = itertools.count(1)
        self.job = 0
        self.asked: list[Helper] = []
        """The helpers the current job was sent to."""

    def start(
        self, state: State[Any], settings: MonteCarlo, time_limit: float | None, seed: int
    ) -> None:
        self.job = next(self.jobs)
        self.asked = []
        try:
            position = encode_state(state)
        except MessageError:
            return  # a position that cannot travel is searched here alone
        self._hire()
        alone = dataclasses.replace(settings, processes=1)  # a helper has no helpers
        for number, helper in enumerate(self.helpers, 1):
            request = (self.job, position, alone, time_limit, seed + 7919 * number, self.owner)
            if helper.send(request):
                self.asked.append(helper)

    def collect(self, deadline: float) -> list[RootCounts]:
        found: list[RootCounts] = []
        for helper in self.asked:
            while True:
                try:
                    job, counts = helper.answers.get(
                        timeout=max(0.0, deadline - time.perf_counter())
                    )
                except queue.Empty:
                    break
                if job != self.job:
                    continue  # an older job's answer (late, or cancelled): dropped
                if counts is not None:
                    found.append(counts)
                break
        return found

    def _hire(self) -> None:
        """Helpers up to the number wanted: the living ones kept, spares taken, others started
        (now, so that their start overlaps the game's first moments)."""
        self.helpers = [helper for helper in self.helpers if helper.alive()]
        while len(self.helpers) < self.wanted:
            spare = SPARE.pop() if SPARE else None
            if spare is not None and not spare.alive():
                continue
            try:
                self.helpers.append(spare or Helper())
            except OSError:  # no process to be had: fewer helpers
                break

    def close(self) -> None:
        """Hand the helpers back to the spares (a search still running in one stops when the
        next player asks it something, or ends with this process)."""
        helpers, self.helpers, self.asked = self.helpers, [], []
        SPARE.extend(helper for helper in helpers if helper.alive())


def end_spare_helpers(wait: float = 0.5) -> None:
    """End the spare helpers now (within about `wait` seconds each)."""
    helpers = list(SPARE)
    SPARE.clear()
    for helper in helpers:
        helper.close(wait)
