"""The play controller: one match in progress, with no pygame.

It is the `Match` (`match.py`: the game history, who plays each side, the clock, the
worker, the notice, the scene's events) with its parts, `jobs` (`SearchJobs`: the AI's searches
in the worker), `browse` (`Browse`: stepping back through the game) and `review`
(`GameReviewer`: the game review), and the actions that take more than one part: moves,
undo/redo, a new game, hints, the series score, the autosave and pause/step/speed of AI vs
AI.  Each part takes the `Match` and the sibling parts it uses, never the controller; the news
one part has for another comes back here as a `Handoff` event (`hand_off`).  The clock and
the worker are injected, so tests drive it with a fake worker and a hand-moved clock.  The
play scene turns input into calls on the controller and its parts and draws what they say;
what happened (a move to animate, a message) waits for the scene in `take_events()`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from plyground.games.base import CHANCE, State
from plyground.gui.play import events
from plyground.gui.play import sides as side_info
from plyground.gui.play.browse import Browse
from plyground.gui.play.game_review import GameReviewer
from plyground.gui.play.match import Match, SearchWorker
from plyground.gui.play.search_jobs import HUMAN_AI_DELAY as HUMAN_AI_DELAY
from plyground.gui.play.search_jobs import Analysis, BoardValues, Purpose, SearchJobs
from plyground.gui.play.series_record import GameSeries, relabel
from plyground.gui.storage import savefile, settings
from plyground.gui.storage.settings import AI, CUSTOM, HUMAN

SPEED_MAX = 2.0
NEXT_GAME_PAUSE = 2.2
"""Seconds the result stays up before the next AI-vs-AI game starts."""
ROLL_TIME = 0.6
AUTOSAVE_EVERY = 0.5
"""At most this often (seconds) the game in progress is written to autosave.json."""


class PlayController(Match):
    """A match in progress: everything but the pixels (the `Match`, its parts, the actions)."""

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
        game = saved.game if saved is not None else side_info.make_game(game_name, stored)
        self.series_seed = stored.seed if saved is None else saved.seed
        super().__init__(
            game_name, game, stored, worker, clock, seed=self.series_seed, animate=animate
        )
        self.autosave_enabled = autosave
        if saved is not None:
            self.history.load(list(saved.moves))
        for move in moves or ():
            self.history.play(move)
        self.autosaved = len(self.history.entries)
        self.autosave_due = 0.0
        self.series = GameSeries()
        self.series_labels = self.side_labels()
        self.last_winner: int | None = None
        self.step_requested = False
        self.jobs = SearchJobs(self)
        self.browse = Browse(self, self.jobs)
        self.review = GameReviewer(self, self.jobs, self.browse)

    def hand_off(self, event: events.Handoff) -> None:
        """Pass one part's news to the part it concerns."""
        match event:
            case events.ReviewPositionIn(position):
                self.review.on_review_position(position)
            case events.ReviewFailed():
                self.review.failed_at = len(self.history.entries)  # not again for these moves
            case events.BrowsedSearched(job, result):
                self.browse.browsed_result(job, result)
            case events.Forfeit(player):
                if not self.recorded:
                    self.record(player ^ 1)
            case events.AIStuck():
                if self.ai_vs_ai():
                    self.set_paused(True)

    # -- who plays ----------------------------------------------------------------

    def show_search(self, record: Analysis) -> None:
        """Show a search worked out elsewhere (screenshots): the panel and the board values."""
        self.jobs.analysis = record
        self.jobs.analysis_decisions = self.history.decisions()
        if record.all_values:
            result = record.result
            self.jobs.board = BoardValues.of(len(self.history.entries), result, result.move)

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

    def player_roles(self) -> tuple[str, str]:
        """'You', 'AI · Hard' or 'Human' per side."""
        human = "You" if sum(not s.is_ai for s in self.sides) == 1 else "Human"
        roles = [side.label() if side.is_ai else human for side in self.sides]
        return roles[0], roles[1]

    def player_names(self) -> tuple[str, str]:
        """'Red · You', 'Yellow · AI · Hard'...: the side's name and who plays it."""
        colours, roles = self.colour_names(), self.player_roles()
        return f"{colours[0]} · {roles[0]}", f"{colours[1]} · {roles[1]}"

    # -- actions ------------------------------------------------------------------

    def reset_marks(self) -> None:
        """Forget per-position marks (after undo, redo, new game)."""
        self.roll = self.hint = None
        self.hold_until = 0.0
        self.jobs.forfeited = ""
        self.jobs.forfeit_details = ()
        self.browse.browse_leave()
        if self.game_ended():
            self.over_since = self.now - 1.0
        else:
            self.over_since = None
        self.emit(events.Reset())

    def forget_analysis(self) -> None:
        """The panel and the board no longer describe a position that is gone."""
        if (
            self.jobs.analysis is not None
            and self.jobs.analysis_decisions != self.history.decisions()
        ):
            self.jobs.analysis = None
        board = self.jobs.board
        if board is not None and board.entries != len(self.history.entries):
            self.jobs.board = None

    def new_game(self) -> None:
        """Start again with the series' next seed; after a finished AI-vs-AI game the
        players change sides (as `match --swap`), so a series is fair."""
        self.jobs.cancel_search()
        self.worker.end_game()  # no student's worker is kept across games
        if self.recorded and self.ai_vs_ai():
            self.swap_sides(notice="Next game: {0} moves first")
        self.games_started += 1
        self.history.restart(seed=self.series_seed + self.games_started)
        self.recorded = False
        self.jobs.analysis = None
        self.jobs.board = None
        self.step_requested = False
        self.reset_marks()

    def undo(self) -> None:
        """Take back to the last human decision (one move when two AIs play, and pause).

        A finished game that was counted stays in the series score: the result happened,
        and replaying the end would otherwise count it twice or not at all."""
        if not self.history.can_undo():
            self.set_notice("Nothing to undo")
            return
        self.jobs.cancel_search()
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
        self.jobs.cancel_search()
        self.history.redo()
        self.forget_analysis()
        self.reset_marks()

    def request_hint(self) -> None:
        """Analyse the position for the human to move and mark the best move."""
        if not self.human_turn():
            self.set_notice("Hints are for a human's turn")
            return
        job = self.jobs.job
        if job is not None and job.kind == Purpose.POSITION:
            job.kind = Purpose.ANALYSE  # the running search of this position answers the hint
            return
        if job is not None:
            return
        analysis = self.jobs.analysis
        if (
            analysis is not None
            and analysis.source == "hint"
            and analysis.entries == len(self.history.entries)
            and analysis.player == self.state.to_move
        ):
            self.hint = analysis.result.move
            return
        player = self.state.to_move
        self.jobs.submit_advice(Purpose.ANALYSE, player)

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
        self.jobs.cancel_search()
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
        if self.jobs.job is not None and self.jobs.job.player == index:
            self.jobs.cancel_search()
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
        if self.game_ended():
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
        self.jobs.cancel_search()
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

    def apply(self, move: Any) -> None:
        """Play a player's move; the scene animates it (and the kit says how it sounds)."""
        before = self.state
        self.history.play(move)
        self.hint = None
        self.emit(events.Played(move, before))

    def try_human_move(self, move: Any) -> bool:
        """A human's move: play it if legal; otherwise say why (False)."""
        state = self.state
        if self.game_ended() or state.to_move == CHANCE or self.browse.browsing:
            return False  # while browsing, the board takes no moves
        if not self.is_human(state.to_move):
            self.set_notice("Wait for the AI's move")
            return False
        if move not in state.legal_moves():
            return False
        if self.jobs.job is not None:
            self.jobs.cancel_search()
        self.apply(move)
        return True

    def advance(self) -> None:
        """Move the match on: dice, AI moves, the end of a game, the board's values."""
        if self.browse.browsing:
            # The AI waits while a position is reviewed: the browsed position's analysis
            # first, then the game review, which goes on where it stopped.
            self.browse.want_browsed_values()
            self.review.want_game_review()
            return
        state = self.state
        if state.is_terminal():
            self.game_over(state)
            self.review.want_game_review()  # after the game, its review
            return
        if self.at_move_limit():
            self.game_over(state)  # no review: the game has no end to review back from
            return
        if self.jobs.forfeited or (self.now < self.hold_until and self.roll is None):
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
        if self.jobs.job is not None and self.jobs.job.kind != Purpose.MOVE:
            self.jobs.cancel_search()
        if (
            self.jobs.job is None
            and not held
            and self.ai_enabled
            and not self.jobs.ai_failed_here()
        ):
            side = self.sides[player]
            config = side.config_for(self.game_name, seed=self.jobs.player_seed(player))
            self.jobs.submit(Purpose.MOVE, config, player)

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
            self.record(state.winner() if state.is_terminal() else None)
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
        at_limit = self.at_move_limit()
        self.series.add(self.series_labels[0], self.series_labels[1], winner, at_limit=at_limit)
        self.worker.end_game()  # the game is over: its students' workers end
        self.autosave(force=True)

    def update(self) -> None:
        """One frame: answers from the worker, the match, the autosave."""
        self.jobs.poll_worker()
        self.advance()
        self.autosave()
