"""The play controller's AI jobs: what runs in the worker, its answers, and the values they
give the panel and the board (no pygame).  `SearchJobs`, a part of the play controller, reads
the `Match`; what its answers mean to the other parts it hands off as events."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from plyground.ai.engine.result import MoveStatistics, SearchProgress, SearchResult
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.provenance import Evaluation
from plyground.ai.evaluation.wording import counted
from plyground.games.base import Move
from plyground.gui.play import events
from plyground.gui.play.match import Match
from plyground.gui.worker.messages import (
    Cancelled,
    Failed,
    MinimaxNodes,
    PositionEvaluated,
    Progress,
    Restarted,
    Result,
)
from plyground.gui.worker.requests import (
    AnalysisRequest,
    JobHeader,
    MoveRequest,
    PlayerKey,
    Position,
    ReviewRequest,
)

if TYPE_CHECKING:
    from plyground.ai.advice.advisor import Advisor
    from plyground.ai.players.players import PlayerConfig, SearchPlayer

HUMAN_AI_DELAY = 0.35
"""Least time the AI seems to think against a human, so its move can be followed."""
SOLVING_DEPTH = 1000
"""A progress depth at or above this is the search's "no limit": it is solving."""


class Purpose(StrEnum):
    """What a search in the worker is for (the worker's request says how it runs: a move,
    an analysis or a game review)."""

    MOVE = "move"
    """An AI's move."""
    ANALYSE = "analyse"
    """A hint the human asked for."""
    POSITION = "position"
    """The values of the position on the board, run while the analysis is shown."""
    BROWSE = "browse"
    """A browsed position's analysis."""
    GAME_REVIEW = "game_review"
    """The whole game's review (`gui.play.game_review`)."""


@dataclass
class SearchJob:
    """The search running in the worker for this match, and what it is for."""

    job_id: int
    kind: Purpose
    entries: int
    player: int
    started: float
    all_values: bool = True
    """Whether every root move got an exact value (asked for when the analysis is shown)."""
    deepest: int = 0
    """The deepest depth a progress report named below the solving depth."""
    agent: bool = False
    """A student's agent answers it (in its own time: no "move now")."""
    solving: bool = False
    """The search runs to the end (on the game's exact engine, where it has one)."""
    advisor: Advisor | None = None
    """For advice (a hint, the board's values, a browsed position): the evaluator chosen
    for it, which titles its answer."""


@dataclass
class Pending:
    """An AI move that has arrived and waits for its moment (animations, speed)."""

    move: Move
    entries: int
    ready_at: float


@dataclass
class Analysis:
    """One search to explain: what the analysis panel, the board's values and the status line
    read (the one analysis type; `gui.play.analysis_panel` draws it)."""

    result: SearchResult
    source: str
    """"ai" for the AI's own move, "hint" for a search of the human's position, "browse" for
    a browsed position's."""
    player: int
    branching: int
    minimax_nodes: int | None = None
    all_values: bool = True
    played: Move | None = None
    advice: str = ""
    """For a human's advice: the evaluator that answered ('exact table', 'Expert, depth 14,
    1.5 s': ai.advice.advisor.advice_title)."""
    entries: int = -1
    """The match's length when the searched position was on the board."""
    opponent: Analysis | None = None
    """Beside a human's advice: the AI's own last search, shown as its view."""
    job_id: int = -1
    """The worker's job that searched it (late measurements find their record by it)."""
    stale: bool = False
    """The advice is for an earlier position (a fresh one is being worked out)."""
    final: bool = False
    """Stale advice after the game is over: no fresh one is coming."""


@dataclass
class BoardValues:
    """Values of the moves of one position, for the side to move there."""

    entries: int
    values: dict[Move, Evaluation]
    """Each move's `ai.evaluation.provenance.Evaluation`: every label says what kind of value it
    is."""
    chosen: Move

    @classmethod
    def of(cls, entries: int, result: SearchResult, chosen: Move) -> BoardValues:
        """A search's move values, each with its own provenance."""
        return cls(entries, dict(result.move_values), chosen)

    @property
    def exact(self) -> bool:
        """Whether every value is the true one."""
        return all(value.is_exact for value in self.values.values())


class SearchJobs:
    """Sending searches to the worker and reading its answers: the controller's AI jobs."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.job: SearchJob | None = None
        self.progress: SearchProgress | None = None
        """The running search's last `ai.SearchProgress`."""
        self.pending: Pending | None = None
        self.analysis: Analysis | None = None
        self.analysis_decisions = -1
        self.analysis_job = -1
        self.board: BoardValues | None = None
        self.forfeited = ""
        """Why this game was lost by forfeit (a player from a file failed), or "": the AI
        waits."""
        self.forfeit_details: tuple[str, ...] = ()
        """The failed file's own traceback lines (and its last output) behind `forfeited`."""
        self.own_figures: dict[tuple[Position, Move], MoveStatistics] = {}
        """What an AI's own Monte Carlo search gave the move it played, by (position, move):
        the review shows them beside the move."""
        self.ai_failed: tuple[int, str] | None = None
        """(entries, reason) once the AI could not move in this position: no new search
        starts there (the status line says why, as the toast did) until the player acts."""

    def ai_failed_here(self) -> str | None:
        """Why the AI could not move in the position shown, or None."""
        failed = self.ai_failed
        if failed is not None and failed[0] == len(self.match.history.entries):
            return failed[1]
        return None

    def retry(self) -> bool:
        """Retry after the AI could not move here: its search starts again (False when it
        had not failed in the position shown)."""
        if self.ai_failed_here() is None:
            return False
        self.ai_failed = None
        return True

    def cancel_search(self) -> None:
        """Stop any search at once and forget its answers (and an AI's failure to move)."""
        self.ai_failed = None
        if self.job is not None:
            self.match.worker.cancel()
        self.job = None
        self.progress = None
        self.pending = None

    def submit(
        self, kind: Purpose, config: PlayerConfig, player: int, state: Position | None = None
    ) -> None:
        """Send a search for `state` (the current position by default) to the worker.

        A search whose heuristic reads a table this machine cannot build (a saved game whose
        options make it too large) is not sent: the AI could not move, and says why."""
        from plyground.ai.engine.cost import heuristic_refusal
        from plyground.ai.engine.search import DepthLimited
        from plyground.ai.players.players import AgentPlayer, SearchPlayer

        searching = config if isinstance(config, SearchPlayer) else None
        heuristic = searching.heuristic if searching is not None else None
        refusal = heuristic_refusal(self.match.game, heuristic)
        if refusal is not None and searching is not None:
            if kind == Purpose.MOVE:  # said once: no new search starts here (`ai_failed_here`)
                self.ai_failed = (len(self.match.history.entries), refusal)
                self.match.emit(events.Toast(f"The AI could not move: {refusal}", "danger"))
            return
        show = self.match.settings.show_analysis
        header = self.header(state)
        if kind == Purpose.MOVE:
            key = PlayerKey(self.match.history.seed, self.match.games_started, player)
            job_id = self.match.worker.submit(MoveRequest(header, config, key, analysis=show))
        elif searching is not None:
            job_id = self.match.worker.submit(AnalysisRequest(header, searching, analysis=show))
        else:
            raise ValueError(f"an analysis needs a search, not {config.describe()}")
        all_values = kind != Purpose.MOVE or show
        self.job = SearchJob(
            job_id, kind, len(self.match.history.entries), player, self.match.now, all_values
        )
        self.job.agent = isinstance(config, AgentPlayer)
        search = searching.search if searching is not None else None
        self.job.solving = isinstance(search, DepthLimited) and search.depth is None
        self.progress = None

    def header(self, state: Position | None = None) -> JobHeader:
        """A request's header: the match's game at `state` (the current position by default)."""
        position = self.match.state if state is None else state
        return JobHeader(self.match.game_name, self.match.game_options(), position)

    def submit_review(
        self, positions: tuple[tuple[int, Position], ...], seconds: float | None
    ) -> None:
        """Send the game review's unknown `positions` (entries played, state) to the worker,
        each with `seconds` of search (None: the review's default)."""
        job_id = self.match.worker.submit(ReviewRequest(self.header(), positions, seconds))
        entries = len(self.match.history.entries)
        self.job = SearchJob(job_id, Purpose.GAME_REVIEW, entries, 0, self.match.now)
        self.progress = None

    def player_seed(self, player: int) -> int:
        """Each side's AI seed, from the match seed: the same seed replays the same match."""
        return int((self.match.history.seed * 1_000_003 + player * 7919 + 1) % (2**31))

    def analysis_config(self, player: int, state: Position | None = None) -> SearchPlayer:
        """The search behind hints, the board's values and the human's analysis: the game's
        best evaluator at `state` (the position on the board by default: `ai.advice.advisor`),
        never the opponent's difficulty."""
        from plyground.ai.advice.advisor import advisor_for

        return advisor_for(self.match.game, self.match.state if state is None else state).config

    def submit_advice(self, kind: Purpose, player: int, state: Position | None = None) -> None:
        """Search `state` (the position on the board by default) for `player` with the
        game's best evaluator there, chosen once: the job keeps it to title the answer."""
        from plyground.ai.advice.advisor import advisor_for

        state = self.match.state if state is None else state
        advisor = advisor_for(self.match.game, state)
        self.submit(kind, advisor.config, player, state=state)
        if self.job is not None:
            self.job.advisor = advisor

    def advice_record(self, job: SearchJob, result: SearchResult, branching: int) -> Analysis:
        """A human's advice for the panel, titled by its evaluator, beside the AI's view."""
        from plyground.ai.advice.advisor import advice_title

        title = advice_title(job.advisor.evaluator, result) if job.advisor is not None else ""
        shown = self.analysis
        opponent = shown if shown is not None and shown.source == "ai" else None
        if shown is not None and shown.source == "hint":
            opponent = shown.opponent
        return Analysis(
            result,
            "hint",
            job.player,
            branching,
            advice=title,
            entries=job.entries,
            opponent=opponent,
            job_id=job.job_id,
        )

    def thinking_text(self) -> str:
        """'Red is thinking… depth 6 · 12.3k nodes'; a solve says "solving" and the deepest
        depth its progress reports named, never the search's internal no-limit depth."""
        job = self.job
        assert job is not None
        colour = self.match.colour_names()[job.player]
        who = f"{colour} is thinking" if job.kind == Purpose.MOVE else "Looking for a hint"
        if job.kind == Purpose.POSITION:
            who = f"Working out {colour}'s move values"
        if job.solving and self.match.worker.preparing(self.match.game_name):
            return f"{who}… the solver is still being prepared (compiled on the first run only)"
        progress = self.progress
        if progress is None:
            return f"{who}…"
        nodes = counted(progress.nodes, "node", compact(progress.nodes))
        if progress.depth >= SOLVING_DEPTH:
            reached = f" · reached depth {job.deepest}" if job.deepest else ""
            return f"{who}… solving{reached} · {nodes}"
        return f"{who}… depth {progress.depth} · {nodes}"

    def poll_worker(self) -> None:
        """Read the worker's answers (never waits); stale ones were dropped by the worker."""
        for message in self.match.worker.poll():
            if isinstance(message, PositionEvaluated):  # a game review's: good whenever it came
                self.match.hand_off(events.ReviewPositionIn(message))
                continue
            if isinstance(message, MinimaxNodes):
                shown = self.analysis
                for record in (shown, shown.opponent if shown is not None else None):
                    if record is not None and record.job_id == message.job_id:
                        record.minimax_nodes = message.count  # the AI's view's too
                continue
            job = self.job
            if job is None or message.job_id != job.job_id:
                continue
            match message:
                case Restarted():
                    self.progress = None
                    self.match.set_notice(
                        "The AI process stopped; a new one is thinking again", 3.0
                    )
                case Progress(snapshot=snapshot):
                    self.progress = snapshot
                    depth = int(getattr(snapshot, "depth", 0))
                    if depth < SOLVING_DEPTH:
                        job.deepest = max(job.deepest, depth)
                case Result(move=move, result=result):
                    self.on_result(job, move, result)
                case Failed():
                    self.on_failure(job, message)
                case Cancelled():
                    self.job = None
                    self.progress = None

    def on_failure(self, job: SearchJob, failure: Failed) -> None:
        """The job failed: a player from a file forfeits; otherwise a toast says why."""
        self.job = None
        self.progress = None
        if failure.forfeit:
            self.forfeit(job.player, failure.reason, failure.details)
            return
        reason = failure.reason[:200]
        if job.kind == Purpose.MOVE:
            self.ai_failed = (len(self.match.history.entries), reason)
            self.match.notice = None  # "thinking again" is over: the status line says why
        what = "review a position" if job.kind == Purpose.GAME_REVIEW else "move"
        self.match.emit(events.Toast(f"The AI could not {what}: {reason}", "danger"))
        self.match.hand_off(
            events.ReviewFailed() if job.kind == Purpose.GAME_REVIEW else events.AIStuck()
        )

    def on_result(self, job: SearchJob, move: Move, result: SearchResult | None) -> None:
        """A finished search: keep its analysis; an AI move waits for its moment."""
        self.job = None
        self.progress = None
        if job.kind == Purpose.GAME_REVIEW:
            return  # its positions came one by one
        if job.kind == Purpose.BROWSE:
            if result is not None:  # an analysis always answers with its search
                self.match.hand_off(events.BrowsedSearched(job, result))
            return
        if job.entries != len(self.match.history.entries):
            return
        if result is None:  # a player from a file: its move, and no search to show
            self.pending = Pending(move, job.entries, job.started + self.move_delay())
            return
        branching = len(self.match.state.legal_moves())
        playouts = result.details.playouts
        if job.kind == Purpose.MOVE and playouts is not None and move in playouts.moves:
            self.own_figures[(self.match.state, move)] = playouts.moves[move]
        if job.all_values:
            chosen = move if job.kind == Purpose.MOVE else result.move
            self.board = BoardValues.of(job.entries, result, chosen)
        # a human's advice: fresh for this position
        if job.kind in (Purpose.POSITION, Purpose.ANALYSE):
            self.analysis = self.advice_record(job, result, branching)
            self.analysis_job = job.job_id
            self.analysis_decisions = self.match.history.decisions()
            if job.kind == Purpose.ANALYSE:
                self.match.hint = move
            return
        self.analysis = Analysis(
            result, "ai", job.player, branching, entries=job.entries, job_id=job.job_id
        )
        self.analysis.all_values = job.all_values
        self.analysis_job = job.job_id
        self.analysis_decisions = self.match.history.decisions()
        self.analysis.played = move
        self.analysis_decisions += 1
        self.pending = Pending(move, job.entries, job.started + self.move_delay())

    def move_delay(self) -> float:
        """Least seconds between asking for an AI move and playing it (speed, animations)."""
        if not self.match.animate:
            return 0.0
        return float(self.match.settings.speed) if self.match.ai_vs_ai() else HUMAN_AI_DELAY

    def forfeit(self, player: int, reason: str, details: tuple[str, ...] = ()) -> None:
        """A player from a file failed (`reason`: the file and why): it loses this game; the
        series counts it and the save goes on.  The window shows the line; the terminal that
        started it also gets the user's own traceback lines."""
        self.forfeited = f"{self.match.colour_names()[player]} forfeits: {reason}"
        self.forfeit_details = tuple(details)
        print("\n    ".join((self.forfeited, *details)), file=sys.stderr)
        self.match.emit(events.Toast(self.forfeited, "danger"))
        if details:  # the innermost line of the student's own traceback
            self.match.emit(events.Toast(details[-1], "danger"))
        self.match.emit(events.Message(f"{self.forfeited} · N for a new game", "danger"))
        self.match.hand_off(events.Forfeit(player))

    def board_values(self) -> BoardValues | None:
        """The move values to draw on the board: only ever for the position shown now."""
        board = self.board
        if not self.match.settings.show_analysis or board is None:
            return None
        if board.entries != len(self.match.history.entries) or self.match.state.is_terminal():
            return None
        return board

    def want_position_values(self) -> None:
        """With the analysis shown on a human's turn, work out this position's move values."""
        if not (
            self.match.settings.show_analysis and self.match.ai_enabled and self.match.human_turn()
        ):
            return
        if self.job is not None or self.match.busy():
            return
        board = self.board
        if board is not None and board.entries == len(self.match.history.entries):
            return
        player = self.match.state.to_move
        self.submit_advice(Purpose.POSITION, player)

    def move_now(self) -> bool:
        """Move now: the thinking AI stops and plays the deepest search it has finished.

        Returns whether the worker was told (False when no AI move is being searched)."""
        job = self.job
        if job is None or job.kind != Purpose.MOVE or self.match.state.is_terminal():
            self.match.set_notice("Move now is for an AI that is thinking")
            return False
        if job.agent:
            self.match.set_notice("Move now is for our searches: a file's agent takes its time")
            return False
        finish = getattr(self.match.worker, "move_now", None)
        if finish is None or not finish():
            return False
        self.match.set_notice("Moving now · the deepest search finished so far")
        return True
