"""The play controller: one match in progress, with no pygame.

It owns the game history (undo/redo), who plays each side, the AI jobs sent to the
worker and their cancellation, the autosave, the series score, and pause/step/speed of
AI vs AI.  The clock and the worker are injected, so tests drive it with a fake worker
and a hand-moved clock.  The play scene turns events into calls on it and draws what it
says; it tells the scene what happened through `on_event` (a move to animate, a message).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plyground.games.base import CHANCE, State
from plyground.gui.play import events
from plyground.gui.play import sides as side_info
from plyground.gui.play.browse import Browse
from plyground.gui.play.events import Event
from plyground.gui.play.game_history import GameHistory
from plyground.gui.play.game_review import GameReviewer
from plyground.gui.play.search_jobs import HUMAN_AI_DELAY as HUMAN_AI_DELAY
from plyground.gui.play.search_jobs import (
    Analysis,
    BoardValues,
    Pending,
    SearchJob,
    SearchJobs,
    SearchWorker,
)
from plyground.gui.play.series_record import GameSeries, relabel
from plyground.gui.storage import savefile, settings
from plyground.gui.storage.settings import AI, CUSTOM, HUMAN

if TYPE_CHECKING:
    from plyground.ai.advice.game_review import GameReview, MoveReview, PositionReview
    from plyground.ai.players.players import PlayerConfig

SPEED_MAX = 2.0
NEXT_GAME_PAUSE = 2.2
"""Seconds the result stays up before the next AI-vs-AI game starts."""
ROLL_TIME = 0.6
AUTOSAVE_EVERY = 0.5
"""At most this often (seconds) the game in progress is written to autosave.json."""


def _no_event(event: Event) -> None:
    """The default listener."""


class PlayController:
    """A match in progress: everything but the pixels.

    Made of parts: `jobs` (the AI's searches in the worker), `browse` (stepping back through
    the game) and `review` (the game review); the controller's own methods and the
    properties below are what the scene, the views and tests use."""

    def __init__(
        self,
        game_name: str,
        stored: settings.Settings,
        worker: SearchWorker,
        clock: Callable[[], float],
        *,
        moves: list[Any] | None = None,
        saved: Any = None,
        autosave: bool = False,
        animate: bool = True,
    ) -> None:
        """`saved`: a checked `gui.storage.savefile.SavedGame` to go on with (its seed and
        moves)."""
        self.game_name = game_name
        self.settings = stored
        self.worker = worker
        self.clock = clock
        self.animate = animate
        self.autosave_enabled = autosave
        self.on_event: Callable[[Event], None] = _no_event
        self.game = saved.game if saved is not None else side_info.make_game(game_name, stored)
        self.series_seed = stored.seed if saved is None else saved.seed
        self.games_started = 0
        self.history = GameHistory(self.game, seed=self.series_seed)
        if saved is not None:
            self.history.load(list(saved.moves))
        for move in moves or ():
            self.history.play(move)
        self.autosaved = len(self.history.entries)
        self.autosave_due = 0.0
        self.series = GameSeries()
        self.series_labels = self.side_labels()
        self.recorded = False
        self.last_winner: int | None = None
        self.over_since: float | None = None
        self.ai_enabled = True
        """Screenshots switch the AI off to show a position as it stands."""
        self.paused = False
        self.step_requested = False
        self.jobs = SearchJobs(self)
        self.browse = Browse(self)
        self.review = GameReviewer(self)
        self.hint: Any = None
        self.roll: tuple[Any, float] | None = None
        self.hold_until = 0.0
        """The scene's animations hold the next move until then."""
        self.notice: tuple[str, float] | None = None

    # -- the parts, as the scene and the views read them --------------------------------

    @property
    def job(self) -> SearchJob | None:
        """The search running in the worker for this game, if any."""
        return self.jobs.job

    @job.setter
    def job(self, job: SearchJob | None) -> None:
        self.jobs.job = job

    @property
    def progress(self) -> Any:
        """The running search's last progress report."""
        return self.jobs.progress

    @property
    def pending(self) -> Pending | None:
        """An AI move that has arrived and waits for its moment."""
        return self.jobs.pending

    @property
    def analysis(self) -> Analysis | None:
        """The search the analysis panel explains (of the live game)."""
        return self.jobs.analysis

    @analysis.setter
    def analysis(self, record: Analysis | None) -> None:
        self.jobs.analysis = record

    @property
    def board(self) -> BoardValues | None:
        """The move values last worked out for the live game."""
        return self.jobs.board

    @board.setter
    def board(self, values: BoardValues | None) -> None:
        self.jobs.board = values

    @property
    def forfeited(self) -> str:
        """Why this game was lost by forfeit, or ""."""
        return self.jobs.forfeited

    def cancel_search(self) -> None:
        """Stop any search at once and forget its answers."""
        self.jobs.cancel_search()

    def analysis_config(self, player: int, state: State[Any] | None = None) -> PlayerConfig:
        """The search behind hints and the board's values (see `SearchJobs.analysis_config`)."""
        return self.jobs.analysis_config(player, state)

    def thinking_text(self) -> str:
        """What the status line says while the AI searches."""
        return self.jobs.thinking_text()

    def move_now(self) -> bool:
        """The thinking AI plays the deepest search it has finished."""
        return self.jobs.move_now()

    def game_options(self) -> dict[str, Any]:
        """The game's options, as its factory takes them."""
        return self.jobs.game_options()

    @property
    def browsing(self) -> bool:
        """Whether an earlier position is shown instead of the live game."""
        return self.browse.browsing

    def shown_state(self) -> Any:
        """The position on the board: the browsed one, or the live one."""
        return self.browse.shown_state()

    def browse_to(self, index: int) -> None:
        """Show the position after `index` entries (the newest: the live game)."""
        self.browse.browse_to(index)

    def browse_step(self, delta: int) -> None:
        """One decision back (-1) or forward (+1)."""
        self.browse.browse_step(delta)

    def browse_home(self) -> None:
        """The start of the game."""
        self.browse.browse_home()

    def browse_leave(self) -> None:
        """Back to the live game."""
        self.browse.browse_leave()

    def browse_number(self) -> tuple[int, int]:
        """(decisions up to the shown position, decisions in the game)."""
        return self.browse.browse_number()

    def shown_last_move(self) -> Any:
        """The last decision before the shown position."""
        return self.browse.shown_last_move()

    def shown_last_chance(self) -> Any:
        """The last chance outcome before the shown position."""
        return self.browse.shown_last_chance()

    def shown_analysis(self) -> Analysis | None:
        """The analysis panel's search: of the browsed position, or the live one's."""
        return self.browse.shown_analysis()

    def shown_values(self) -> BoardValues | None:
        """The move values drawn on the board for the shown position."""
        return self.browse.shown_values()

    def review_card_shown(self) -> bool:
        """Whether the game review's card is up."""
        return self.review.review_card_shown()

    def review_points(self) -> list[tuple[int, Any]]:
        """The positions the game review evaluates: (entries played, state)."""
        return self.review.review_points()

    def game_review(self) -> GameReview:
        """The game review as far as it is known."""
        return self.review.game_review()

    def shown_index(self) -> int:
        """Entries up to the position shown."""
        return self.review.shown_index()

    def shown_position_review(self) -> PositionReview | None:
        """The game review of the position shown, once it is evaluated."""
        return self.review.shown_position_review()

    def shown_move_review(self) -> MoveReview | None:
        """The judgement of the last decision before the position shown."""
        return self.review.shown_move_review()

    def row_of(self, index: int) -> int | None:
        """The move list's row holding entry `index`."""
        return self.review.row_of(index)

    def row_marks(self) -> dict[int, MoveReview]:
        """The worst judged decision of each move-list row."""
        return self.review.row_marks()

    def copy_text(self) -> str:
        """The game's notation of the moves up to the position shown."""
        return self.review.copy_text()

    # -- who plays ----------------------------------------------------------------

    @property
    def now(self) -> float:
        """The injected clock's time."""
        return self.clock()

    @property
    def sides(self) -> list[settings.SideSetup]:
        """The current side set-ups (shared with the settings, so changes apply at once)."""
        sides: list[settings.SideSetup] = self.settings.sides[self.game_name]
        return sides

    @property
    def state(self) -> Any:
        """The current position."""
        return self.history.state

    def is_human(self, player: int) -> bool:
        """Whether `player` (0/1) is played by a person."""
        return not self.sides[player].is_ai

    def any_ai(self) -> bool:
        """Whether the computer plays at least one side."""
        return any(side.is_ai for side in self.sides)

    def ai_vs_ai(self) -> bool:
        """Whether the computer plays both sides."""
        return all(side.is_ai for side in self.sides)

    def human_turn(self) -> bool:
        """Whether a person is to move now."""
        state = self.state
        return not state.is_terminal() and state.to_move != CHANCE and self.is_human(state.to_move)

    def show_search(self, record: Analysis) -> None:
        """Show a search worked out elsewhere (screenshots): the panel and the board values."""
        self.analysis = record
        self.jobs.analysis_decisions = self.history.decisions()
        if record.all_values:
            result = record.result
            self.board = BoardValues.of(len(self.history.entries), result, result.move)

    def side_labels(self) -> list[str]:
        """Each side's player for the series table: 'Human', 'AI · Hard', 'AI · Custom (…)'."""
        return [side_info.side_label(side, self.game_name) for side in self.sides]

    def current_series_labels(self) -> list[str]:
        """Each side's series label now ('#1'/'#2' for twins; see `series_record.relabel`)."""
        return relabel(self.series_labels, self.side_labels())

    def refresh_series_labels(self) -> None:
        """Bring the series labels up to date with who plays each side now."""
        self.series_labels = self.current_series_labels()

    @property
    def score(self) -> list[int]:
        """Wins of the players now on sides 1 and 2 and their draws, counted by player."""
        return self.series.score(self.current_series_labels())

    def colour_names(self) -> tuple[str, str]:
        """X/O, Red/Yellow or Player 1/2 (the game's side names)."""
        return side_info.side_names(self.game_name, self.settings.palette)

    def player_roles(self) -> tuple[str, str]:
        """'You', 'AI · Hard' or 'Human' per side."""
        human = "You" if sum(not s.is_ai for s in self.sides) == 1 else "Human"
        roles = [side.label() if side.is_ai else human for side in self.sides]
        return roles[0], roles[1]

    def player_names(self) -> tuple[str, str]:
        """'Red · You', 'Yellow · AI · Hard'...: the side's name and who plays it."""
        colours, roles = self.colour_names(), self.player_roles()
        return f"{colours[0]} · {roles[0]}", f"{colours[1]} · {roles[1]}"

    # -- notices ------------------------------------------------------------------

    def set_notice(self, text: str, seconds: float = 1.6) -> None:
        """A gentle message in the status line."""
        self.notice = (text, self.now + seconds)

    def current_notice(self) -> str | None:
        """The notice still showing, if any."""
        if self.notice is not None and self.now < self.notice[1]:
            return self.notice[0]
        return None

    def emit(self, event: Event) -> None:
        """Tell the scene."""
        self.on_event(event)

    # -- actions ------------------------------------------------------------------

    def reset_marks(self) -> None:
        """Forget per-position marks (after undo, redo, new game)."""
        self.roll = self.hint = None
        self.hold_until = 0.0
        self.jobs.forfeited = ""
        self.jobs.forfeit_details = ()
        self.browse_leave()
        if self.state.is_terminal():
            self.over_since = self.now - 1.0
        else:
            self.over_since = None
        self.emit(events.Reset())

    def forget_analysis(self) -> None:
        """The panel and the board no longer describe a position that is gone."""
        if self.analysis is not None and self.jobs.analysis_decisions != self.history.decisions():
            self.analysis = None
        board = self.board
        if board is not None and board.entries != len(self.history.entries):
            self.board = None

    def new_game(self) -> None:
        """Start again with the series' next seed; after a finished AI-vs-AI game the
        players change sides (as `match --swap`), so a series is fair."""
        self.cancel_search()
        self.worker.end_game()  # no student's worker is kept across games
        if self.recorded and self.ai_vs_ai():
            self.swap_sides(notice="Next game: {0} moves first")
        self.games_started += 1
        self.history.restart(seed=self.series_seed + self.games_started)
        self.recorded = False
        self.analysis = None
        self.board = None
        self.step_requested = False
        self.reset_marks()

    def undo(self) -> None:
        """Take back to the last human decision (one move when two AIs play, and pause).

        A finished game that was counted stays in the series score: the result happened,
        and replaying the end would otherwise count it twice or not at all."""
        if not self.history.can_undo():
            self.set_notice("Nothing to undo")
            return
        self.cancel_search()
        if self.ai_vs_ai() and not self.paused:
            self.set_paused(True)
        self.history.undo(self.is_human)
        self.forget_analysis()
        self.reset_marks()

    def redo(self) -> None:
        """Replay what was undone."""
        if not self.history.can_redo():
            self.set_notice("Nothing to redo")
            return
        self.cancel_search()
        self.history.redo()
        self.forget_analysis()
        self.reset_marks()

    def request_hint(self) -> None:
        """Analyse the position for the human to move and mark the best move."""
        if not self.human_turn():
            self.set_notice("Hints are for a human's turn")
            return
        job = self.job
        if job is not None and job.kind == "position":
            job.kind = "analyse"  # the running search of this position answers the hint
            return
        if job is not None:
            return
        analysis = self.analysis
        if (
            analysis is not None
            and analysis.source == "hint"
            and analysis.entries == len(self.history.entries)
            and analysis.player == self.state.to_move
        ):
            self.hint = analysis.result.move
            return
        player = self.state.to_move
        self.jobs.submit_advice("analyse", player)

    def retry(self) -> None:
        """After "the AI could not move": search again (AI vs AI resumes)."""
        if not self.jobs.retry():
            self.set_notice("Retry is for an AI that could not move")
            return
        if self.ai_vs_ai() and self.paused:
            self.set_paused(False)
        self.set_notice("Trying again")

    def swap_sides(self, notice: str = "Swapped: {0} vs {1}") -> None:
        """Exchange who plays which side; the game goes on from here."""
        self.cancel_search()
        stored = self.settings.sides
        stored[self.game_name] = [stored[self.game_name][1], stored[self.game_name][0]]
        self.series_labels.reverse()
        settings.save(self.settings)
        self.hint = None
        self.emit(events.Swapped())
        names = self.player_names()
        self.set_notice(notice.format(*names))

    def set_paused(self, paused: bool) -> None:
        """Pause or resume AI vs AI."""
        self.paused = paused
        self.step_requested = False
        self.emit(events.Rebuild())

    def toggle_pause(self) -> None:
        """Space: pause or resume (AI vs AI only)."""
        if self.ai_vs_ai():
            self.set_paused(not self.paused)

    def step(self) -> None:
        """One AI move while paused."""
        if self.ai_vs_ai() and self.paused:
            self.step_requested = True

    def set_speed(self, seconds: float) -> None:
        """Seconds each AI-vs-AI move takes at least (0 is instant)."""
        self.settings.speed = round(max(0.0, min(SPEED_MAX, seconds)), 2)

    def toggle_analysis(self) -> None:
        """Show or hide the analysis panel and the values on the board."""
        self.settings.show_analysis = not self.settings.show_analysis
        settings.save(self.settings)
        self.emit(events.Rebuild())

    def set_role(self, index: int, role: str) -> None:
        """A side becomes "human", an AI preset by name, or CUSTOM (the caller opens set-up)."""
        side = self.sides[index]
        if role == HUMAN:
            side.kind = HUMAN
        else:
            side.kind = AI
            side.preset = CUSTOM if role == CUSTOM else role
        settings.save(self.settings)
        if self.job is not None and self.job.player == index:
            self.cancel_search()
        state = self.state
        if not state.is_terminal() and state.to_move == index:
            self.hint = None
        if self.any_ai():
            self.worker.start()
        if not self.ai_vs_ai():
            self.paused = False

    # -- saving -------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """What a save file holds for this game (see gui.storage.savefile)."""
        return {
            "game_name": self.game_name,
            "options": self.game_options(),
            "players": [side_info.side_to_player(side, self.game_name) for side in self.sides],
            "seed": self.history.seed,
            "moves_text": self.game.format_moves(self.history.moves),
        }

    def save_to(self, path: Any) -> str:
        """Save the game to `path` (atomically); returns where. Raises savefile.SaveError."""
        return str(savefile.save_game(path, **self.save_data()))

    def autosave(self, force: bool = False) -> None:
        """Keep the game in progress in autosave.json (a finished game is not offered)."""
        if not self.autosave_enabled:
            return
        count = len(self.history.entries)
        if not force and (count == self.autosaved or self.now < self.autosave_due):
            return
        self.autosave_due = self.now + AUTOSAVE_EVERY
        path = savefile.autosave_path()
        if self.state.is_terminal():
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            self.autosaved = count
            return
        if count == 0:
            return  # an untouched new game does not replace the last one in progress
        if savefile.autosave_to(path, self.save_data()):  # a failure is tried again until it works
            self.autosaved = count

    def close(self) -> None:
        """Leaving for good: stop the search, end the students' workers, keep the game in
        autosave.json."""
        self.cancel_search()
        self.worker.end_game()
        self.autosave(force=True)

    # -- moves --------------------------------------------------------------------

    def anim_scale(self) -> float:
        """Animation speed factor: 0 for instant AI-vs-AI play."""
        if not self.animate:
            return 0.0
        if self.ai_vs_ai():
            return min(1.0, float(self.settings.speed) / 0.5)
        return 1.0

    def busy(self) -> bool:
        """Whether an animation or a rolling die holds the next move."""
        return self.now < self.hold_until or self.roll is not None

    def hold(self, seconds: float) -> None:
        """The scene animates for `seconds`: no next move before then."""
        self.hold_until = max(self.hold_until, self.now + seconds)

    def apply(self, move: Any) -> None:
        """Play a player's move; the scene animates it (and the kit says how it sounds)."""
        before = self.state
        self.history.play(move)
        self.hint = None
        self.emit(events.Played(move, before))

    def try_human_move(self, move: Any) -> bool:
        """A human's move: play it if legal; otherwise say why (False)."""
        state = self.state
        if state.is_terminal() or state.to_move == CHANCE or self.browsing:
            return False  # while browsing, the board takes no moves
        if not self.is_human(state.to_move):
            self.set_notice("Wait for the AI's move")
            return False
        if move not in state.legal_moves():
            return False
        if self.job is not None:
            self.cancel_search()
        self.apply(move)
        return True

    def advance(self) -> None:
        """Move the match on: dice, AI moves, the end of a game, the board's values."""
        if self.browsing:
            self.browse.want_browse_values()  # the AI waits while a position is reviewed
            return
        state = self.state
        if state.is_terminal():
            self.game_over(state)
            self.review.want_game_review()  # after the game, its review
            return
        if self.forfeited or (self.now < self.hold_until and self.roll is None):
            return  # a forfeited game waits for a new game (or an undo)
        if state.to_move == CHANCE:
            self.advance_chance(state)
            return
        player = state.to_move
        if self.is_human(player):
            self.jobs.want_position_values()
            return
        held = self.ai_vs_ai() and self.paused and not self.step_requested
        pending = self.jobs.pending
        if pending is not None and pending.entries == len(self.history.entries):
            if self.now >= pending.ready_at and not held:
                move, self.jobs.pending = pending.move, None
                self.step_requested = False
                self.apply(move)
            return
        if self.job is not None and self.job.kind != "move":
            self.cancel_search()
        if self.job is None and not held and self.ai_enabled and not self.jobs.ai_failed_here():
            side = self.sides[player]
            config = side.config_for(self.game_name, seed=self.jobs.player_seed(player))
            self.jobs.submit("move", config, player)

    def advance_chance(self, state: State[Any]) -> None:
        """Draw a chance outcome with the match's seeded generator, wait, play it."""
        if self.roll is None:
            self.roll = (self.history.sample_chance(), self.now)
            self.emit(events.ChanceDrawn(state))
            return
        outcome, started = self.roll
        if self.now - started < ROLL_TIME * self.anim_scale():
            return
        self.roll = None
        self.history.play(outcome)
        self.emit(events.ChanceSettled(outcome, state))

    def game_over(self, state: State[Any]) -> None:
        """Count the result once, and in AI vs AI start the next game after a pause."""
        if self.busy():
            return
        if self.over_since is None:
            self.over_since = self.now
            self.emit(events.GameOver())
            self.emit(events.Sound(self.result_sound(state.winner())))
        if not self.recorded:
            self.record(state.winner())
        if self.ai_vs_ai() and not self.paused and self.animate:
            wait = NEXT_GAME_PAUSE * max(0.3, min(1.0, self.settings.speed / 0.6))
            if self.now - self.over_since > wait:
                self.new_game()

    def result_sound(self, winner: int | None) -> str:
        """ "win", "loss" or "draw" from the human's side (no single human: any win is "win")."""
        return side_info.result_sound(winner, [p for p in (0, 1) if self.is_human(p)])

    def record(self, winner: int | None) -> None:
        """Count a finished game in the score and the series (once per game)."""
        self.recorded = True
        self.last_winner = winner
        self.refresh_series_labels()
        self.series.add(self.series_labels[0], self.series_labels[1], winner)
        self.worker.end_game()  # the game is over: its students' workers end
        self.autosave(force=True)

    def update(self) -> None:
        """One frame: answers from the worker, the match, the autosave."""
        self.jobs.poll_worker()
        self.advance()
        self.autosave()
