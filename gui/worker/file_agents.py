"""Students' agents in the window: each side's moves asked of its own worker from a thread.

A side whose player is a student's file (`my_agent.py`, `kaggle:my_agent.py`) moves through an
`ai.student_code.agents.FilePlayer`: a `StudentWorker` process of its own, with its time limit
per move and its answers checked here.  `FileAgents` asks it from a background thread of the
window's process, one per side and game (the drawing loop never waits), and answers with the
AI worker's messages (`Result`, or `Failed` as a forfeit naming the file with its traceback
lines).  Every agent's worker ends when its game ends (`end_game`), when its move is cancelled,
and on `close`: no worker is kept across games.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plyground.gui.worker.messages import Failed, Result, WorkerMessage
from plyground.gui.worker.requests import MoveRequest, PlayerKey

if TYPE_CHECKING:
    from plyground.ai.players.players import PlayerConfig
    from plyground.ai.student_code.agents import FilePlayer


@dataclass
class AgentMove:
    """One move asked of an agent: its job and its request."""

    job_id: int
    request: MoveRequest
    abandoned: bool = False


class AgentSide:
    """One side's agent for one game: a thread that owns the agent's worker and asks it each
    move sent to it.  The worker is started from this long-lived thread, never from one per
    move: bubblewrap's `--die-with-parent` ends a sandbox when the thread that started it
    ends."""

    def __init__(self, answers: queue.Queue[WorkerMessage]) -> None:
        self._answers = answers
        self._lock = threading.Lock()
        self._moves: queue.Queue[AgentMove | None] = queue.Queue()
        self.player: FilePlayer | None = None
        self.ended = False
        self._thread = threading.Thread(target=self._serve, daemon=True, name="file-agent")
        self._thread.start()

    def ask(self, move: AgentMove) -> None:
        """Queue a move for the agent."""
        self._moves.put(move)

    def end(self) -> None:
        """End the agent's worker at once; a move waiting on it is dropped; the thread ends."""
        with self._lock:
            self.ended = True
            player = self.player
        self._moves.put(None)
        if player is not None:
            _end(player)

    def _serve(self) -> None:
        """The thread: answer each move until the side ends."""
        while True:
            move = self._moves.get()
            if move is None or self.ended:
                break
            answer = self._answer(move)
            if self.ended or move.abandoned:
                break
            self._answers.put(answer)
            if isinstance(answer, Failed):
                break  # a failed agent's worker is gone: the side forfeits its game
        with self._lock:
            self.ended = True
            player, self.player = self.player, None
        if player is not None:
            _end(player)

    def _answer(self, move: AgentMove) -> WorkerMessage:
        """The agent's move (its worker made on the first), or why it failed."""
        from plyground import games
        from plyground.ai.players.players import make_player
        from plyground.ai.student_code.worker import UserCodeError

        try:
            if self.player is None:
                header = move.request.header
                game = games.get_game(header.game_name, **header.game_options)
                player = make_player(move.request.config, game)
                with self._lock:
                    if self.ended:
                        raise UserCodeError(player.path, "abandoned (the game ended)")
                    self.player = player
            return Result(move.job_id, self.player.choose(move.request.header.state), None)
        except UserCodeError as error:
            return Failed(move.job_id, error.line, True, tuple(error.details))
        except Exception as error:  # report, never die: the window shows the message
            return Failed(move.job_id, f"{error.__class__.__name__}: {error}")


class FileAgents:
    """Moves of students' agents, each side's asked from its own thread; one worker per side
    and game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sides: dict[tuple[PlayerKey, PlayerConfig], AgentSide] = {}
        """Each side's agent by (player key, config): it keeps its worker (and a Kaggle agent
        its overage bank) from move to move within a game."""
        self._moves: dict[int, tuple[AgentMove, AgentSide]] = {}
        self._answers: queue.Queue[WorkerMessage] = queue.Queue()

    def submit(self, job_id: int, request: MoveRequest) -> None:
        """Ask the agent the request's config names for its move (answered through `poll`)."""
        move = AgentMove(job_id, request)
        key = (request.player_key, request.config)
        with self._lock:
            side = self._sides.get(key)
            if side is None or side.ended:
                side = self._sides[key] = AgentSide(self._answers)
            self._moves = {
                number: pair for number, pair in self._moves.items() if not pair[1].ended
            }
            self._moves[job_id] = (move, side)
        side.ask(move)

    def poll(self) -> list[WorkerMessage]:
        """Every answer that has arrived (never blocks)."""
        answers: list[WorkerMessage] = []
        while True:
            try:
                answers.append(self._answers.get_nowait())
            except queue.Empty:
                return answers

    def cancel(self, job_id: int) -> None:
        """Abandon the move `job_id`: its agent's worker ends at once, its answer is dropped
        (the side's next move starts a new worker)."""
        with self._lock:
            pair = self._moves.pop(job_id, None)
            if pair is None:
                return
            move, side = pair
            move.abandoned = True
            self._sides = {key: s for key, s in self._sides.items() if s is not side}
        side.end()

    def end_game(self) -> None:
        """The game ended: every agent's worker ends (a move under way is abandoned)."""
        with self._lock:
            sides = list(self._sides.values())
            self._sides.clear()
            for move, _ in self._moves.values():
                move.abandoned = True
            self._moves.clear()
        for side in sides:
            side.end()

    def close(self) -> None:
        """Leaving for good: as `end_game`."""
        self.end_game()


def _end(player: FilePlayer) -> None:
    """End an agent's worker at once (a move waiting on it fails and is dropped)."""
    with contextlib.suppress(Exception):  # ending must never take the window down
        player.worker.abandon()
