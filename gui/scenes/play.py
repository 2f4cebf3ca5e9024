"""Play: the board, whose turn, the side panel (players, controls, history, analysis) and
the game-over overlay.  The same code serves human vs AI, AI vs human, human vs human
and AI vs AI; AI moves come from the worker process and never block drawing.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from games.base import CHANCE
from gui import analysis_panel, drawing, savefile, settings, theme
from gui.analysis_panel import Analysis
from gui.boards import ViewContext, view_for
from gui.boards.connect4_view import HEIGHT as C4_HEIGHT
from gui.match import Match
from gui.scenes.file_dialog import FileDialogScene
from gui.scenes.setup import SIDE_NAMES, SetupScene, game_title, make_game
from gui.series import Series
from gui.settings import AI, CUSTOM, HUMAN

HUMAN_AI_DELAY = 0.35
"""Least time the AI seems to think against a human, so its move can be followed."""
SPEED_MAX = 2.0
NEXT_GAME_PAUSE = 2.2
"""Seconds the result stays up before the next AI-vs-AI game starts."""
ROLL_TIME = 0.6
MESSAGE_TIME = 1.8
AUTOSAVE_EVERY = 0.5
"""At most this often (seconds) the game in progress is written to autosave.json."""


def side_to_player(side: settings.SideSetup, game_name: str) -> dict[str, Any]:
    """A side as a save file's player: {"kind": "human"} or an AI with its preset and config."""
    if not side.is_ai:
        return {"kind": "human"}
    config = side.player_config(game_name)
    return {
        "kind": "ai",
        "preset": None if side.preset == CUSTOM else side.preset,
        "config": config.to_dict(),
    }


def player_to_side(player: dict[str, Any], fallback: settings.SideSetup) -> settings.SideSetup:
    """A save file's player as a side of the set-up (a config without a preset is Custom)."""
    import dataclasses

    side = dataclasses.replace(fallback)
    if player.get("kind") != "ai":
        side.kind = HUMAN
        return side
    side.kind = AI
    config = player.get("config") or {}
    if player.get("preset"):
        side.preset = player["preset"]
    else:
        side.preset = CUSTOM
    side.algorithm = config.get("algorithm", side.algorithm)
    side.depth = config.get("depth") or side.depth
    side.heuristic = config.get("heuristic")
    side.time_limit = config.get("time_limit")
    return side


def open_saved(app: Any, saved: Any) -> Any:
    """Show a loaded save: its players and options become the settings, then its play scene."""
    stored = app.settings
    stored.last_game = saved.game_name
    defaults = settings.default_sides(saved.game_name)
    stored.sides[saved.game_name] = [
        player_to_side(player, stored.sides[saved.game_name][i] if i < 2 else defaults[i])
        for i, player in enumerate(saved.players)
    ]
    if saved.game_name == "pig":
        stored.pig_goal = int(getattr(saved.game, "goal", stored.pig_goal))
    settings.save(stored)
    app.pop_to_root()
    app.push(SetupScene(app, saved.game_name))
    play = PlayScene(app, saved.game_name, saved=saved)
    app.push(play)
    return play


@dataclass
class Job:
    """The search running in the worker for this scene."""

    job_id: int
    kind: str
    entries: int
    player: int
    started: float
    all_values: bool = True
    """Whether every root move got an exact value (asked for when the analysis is shown)."""


@dataclass
class Pending:
    """An AI move that has arrived and waits for its moment (animations, speed)."""

    move: Any
    entries: int
    ready_at: float


class PlayScene(FileDialogScene):
    """A match in progress."""

    title = "play"

    def __init__(
        self,
        app: Any,
        game_name: str,
        moves: list[Any] | None = None,
        animate: bool = True,
        saved: Any = None,
    ) -> None:
        """`saved`: a checked `gui.savefile.SavedGame` to go on with (its seed and moves)."""
        super().__init__(app)
        self.game_name = game_name
        self.game = make_game(game_name, app.settings)
        self.view = view_for(game_name)
        self.series_seed = app.settings.seed if saved is None else saved.seed
        self.games_started = 0
        self.match = Match(self.game, seed=self.series_seed)
        self.animate = animate
        if saved is not None:
            self.match.load(list(saved.moves))
        for move in moves or ():
            self.match.play(move)
        self.autosaved = len(self.match.entries)
        self.autosave_due = 0.0
        self.series = Series()
        self.series_labels = self.side_labels()
        self.file_dialog: Any = None
        self.file_mode = ""
        self._pig_cache: tuple[Any, list[tuple[str, str]]] | None = None
        self.score = [0, 0, 0]
        self.ai_enabled = True
        """Screenshots switch the AI off to draw a position as it stands."""
        self.paused = False
        self.step_requested = False
        self.job: Job | None = None
        self.progress: Any = None
        self.pending: Pending | None = None
        self.analysis: Analysis | None = None
        self.analysis_decisions = -1
        self.analysis_job = -1
        self.last_winner: int | None = None
        self.hint: Any = None
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.anim_move: Any = None
        self.roll: tuple[Any, float] | None = None
        self.die_face: int | None = None
        self.message: tuple[str, theme.Colour, float] | None = None
        self.cue: tuple[Any, float] | None = None
        self.notice: tuple[str, float] | None = None
        self.over_since: float | None = None
        self.recorded = False
        state = self.match.state
        self.shown_scores = list(getattr(state, "scores", (0, 0)))
        self.shown_total = float(getattr(state, "turn_total", 0))
        self.buttons: dict[str, Any] = {}
        self.role_menus: list[Any] = []
        self.speed_slider: Any = None
        self.button_flags: dict[str, bool] = {}
        self.last_move: Any = None
        if self.match.entries:
            decisions = [e.move for e in self.match.entries if not e.chance]
            self.last_move = decisions[-1] if decisions else None
            if self.game.stochastic:
                faces = [e.move for e in self.match.entries if e.chance]
                self.die_face = faces[-1] if faces else None

    # -- who plays ----------------------------------------------------------------

    @property
    def sides(self) -> list[settings.SideSetup]:
        """The current side set-ups (shared with the settings, so changes apply at once)."""
        return self.app.settings.sides[self.game_name]

    def is_human(self, player: int) -> bool:
        """Whether `player` (0/1) is played by a person."""
        return not self.sides[player].is_ai

    def any_ai(self) -> bool:
        """Whether the computer plays at least one side."""
        return any(side.is_ai for side in self.sides)

    def ai_vs_ai(self) -> bool:
        """Whether the computer plays both sides."""
        return all(side.is_ai for side in self.sides)

    def side_labels(self) -> list[str]:
        """Each side's player for the series table: 'Human', 'AI · Hard', 'AI · Custom (…)'."""
        labels = []
        for side in self.sides:
            if not side.is_ai:
                labels.append("Human")
            elif side.preset == CUSTOM:
                try:
                    labels.append(f"AI · Custom ({side.player_config(self.game_name).describe()})")
                except Exception:  # an odd custom side: still a player of its own
                    labels.append("AI · Custom")
            else:
                labels.append(f"AI · {side.preset}")
        return labels

    def refresh_series_labels(self) -> None:
        """Keep each side's series label while its player is unchanged; '#1'/'#2' twins."""
        current = self.side_labels()
        for i in (0, 1):
            if self.series_labels[i].split(" #", 1)[0] != current[i]:
                self.series_labels[i] = current[i]
        base = [label.split(" #", 1)[0] for label in self.series_labels]
        if base[0] == base[1]:
            if self.series_labels[0] == self.series_labels[1]:
                self.series_labels = [f"{base[0]} #1", f"{base[1]} #2"]
        else:
            self.series_labels = base

    def colour_names(self) -> tuple[str, str]:
        """X/O, Red/Yellow or Player 1/2."""
        names = SIDE_NAMES.get(self.game_name, ("Player 1", "Player 2"))
        return names[0], names[1]

    def player_names(self) -> tuple[str, str]:
        """'You', 'AI · Hard', 'Human'... per side, with the colour name."""
        colours = self.colour_names()
        humans = [not s.is_ai for s in self.sides]
        names = []
        for i, side in enumerate(self.sides):
            if side.is_ai:
                role = side.label()
            elif humans.count(True) == 1:
                role = "You"
            else:
                role = "Human"
            names.append(f"{colours[i]} · {role}")
        return names[0], names[1]

    # -- layout -------------------------------------------------------------------

    def panel_rect(self) -> pygame.Rect:
        """The side panel on the right."""
        m = self.app.metrics
        w, h = self.app.size
        return pygame.Rect(w - m.panel_w - m.pad, m.pad, m.panel_w, h - 2 * m.pad)

    def header_rect(self) -> pygame.Rect:
        """The strip above the board with whose turn it is."""
        m = self.app.metrics
        panel = self.panel_rect()
        return pygame.Rect(m.pad, m.pad, panel.x - 2 * m.pad, m.px(52))

    def overlay_height(self) -> int:
        """Height of the game-over card."""
        m = self.app.metrics
        return m.px(96) + m.button_h // 2

    def board_rect(self) -> pygame.Rect:
        """Where the board view draws; it shrinks while the game-over card is shown."""
        m = self.app.metrics
        header = self.header_rect()
        h = self.app.size[1]
        rect = pygame.Rect(
            header.x, header.bottom + m.gap, header.width, h - header.bottom - m.gap - m.pad
        )
        shown = self.overlay_shown()
        if shown > 0:
            rect.height -= round((self.overlay_height() + m.gap) * drawing.ease_out_cubic(shown))
        return rect

    def overlay_shown(self) -> float:
        """How far the game-over card has slid in (0..1)."""
        if self.over_since is None:
            return 0.0
        if not self.animate:
            return 1.0
        return min(1.0, (self.app.now - self.over_since) / 0.3)

    def build(self) -> None:
        """The side panel's widgets (and the game-over buttons when the game is over)."""
        m = self.app.metrics
        panel = self.panel_rect()
        inner = panel.inflate(-2 * m.gap, 0)
        self.buttons = {}
        self.role_menus = []
        self.speed_slider = None
        self.button_flags = {}
        y = panel.y + m.px(40)
        import ai

        presets = list(ai.DIFFICULTIES[self.game_name])
        menu_w = round(inner.width * 0.56)
        # Build the lower menu first so the upper one's list opens over it.
        rows = []
        for i in range(2):
            rows.append(
                pygame.Rect(
                    inner.right - menu_w, y + i * (m.button_h + m.px(6)), menu_w, m.button_h
                )
            )
        for i in (1, 0):
            side = self.sides[i]
            options = [HUMAN.capitalize()] + [f"AI · {p}" for p in presets] + ["AI · Custom…"]
            current = (
                options[0]
                if not side.is_ai
                else ("AI · Custom…" if side.preset == CUSTOM else f"AI · {side.preset}")
            )
            if current not in options:
                current = options[0]
            choices: list[str | tuple[str, str]] = list(options)
            menu = pygame_gui.elements.UIDropDownMenu(choices, current, rows[i], self.manager)
            self.add(menu)
            self.role_menus.insert(0, menu)
        y = rows[1].bottom + m.px(16)
        analysis_label = "Hide analysis" if self.app.settings.show_analysis else "Show analysis"
        names = [
            ("new", "New game"),
            ("undo", "Undo"),
            ("redo", "Redo"),
            ("hint", "Hint"),
            ("swap", "Swap sides"),
            ("players", "AI settings…"),
            ("analysis", analysis_label),
            ("menu", "Back to menu"),
            ("save", "Save game…"),
            ("open", "Open game…"),
        ]
        half = (inner.width - m.gap) // 2
        tips = {
            "new": "N",
            "undo": "U or Ctrl+Z",
            "redo": "Ctrl+Y",
            "hint": "Best move for your side",
            "swap": "Exchange the two sides' players",
            "players": "Change each side's AI settings",
            "analysis": "Show or hide move values (A)",
            "menu": "Esc goes back one screen",
            "save": "Save this game to a file (Ctrl+S)",
            "open": "Open a saved game (Ctrl+O)",
        }
        for k, (key, label) in enumerate(names):
            rect = pygame.Rect(
                inner.x + (k % 2) * (half + m.gap),
                y + (k // 2) * (m.button_h + m.px(8)),
                half,
                m.button_h,
            )
            object_id = (
                "#selected" if key == "analysis" and self.app.settings.show_analysis else None
            )
            self.buttons[key] = self.add(
                pygame_gui.elements.UIButton(
                    rect, label, self.manager, object_id=object_id, tool_tip_text=tips.get(key)
                )
            )
        y += math.ceil(len(names) / 2) * (m.button_h + m.px(8)) + m.px(8)
        if self.ai_vs_ai():
            rect = pygame.Rect(inner.x, y + m.px(22), half, m.button_h)
            self.buttons["pause"] = self.add(
                pygame_gui.elements.UIButton(
                    rect,
                    "Resume" if self.paused else "Pause",
                    self.manager,
                    object_id="#primary" if self.paused else None,
                    tool_tip_text="Space",
                )
            )
            rect = pygame.Rect(inner.x + half + m.gap, y + m.px(22), half, m.button_h)
            self.buttons["step"] = self.add(
                pygame_gui.elements.UIButton(
                    rect, "Step", self.manager, tool_tip_text="One move (S)"
                )
            )
            y = rect.bottom + m.px(8)
            label_w = drawing.text_size("Speed", m.font_size(13))[0] + m.px(12)
            value_w = drawing.text_size("instant", m.font_size(13))[0] + m.px(10)
            slider = pygame.Rect(inner.x + label_w, y, inner.width - label_w - value_w, m.px(26))
            self.speed_slider = self.add(
                pygame_gui.elements.UIHorizontalSlider(
                    slider,
                    SPEED_MAX - self.app.settings.speed,
                    (0.0, SPEED_MAX),
                    self.manager,
                    click_increment=0.1,
                )
            )
            y = slider.bottom + m.px(8)
            rect = pygame.Rect(inner.x, y, inner.width, m.button_h)
            self.buttons["series"] = self.add(
                pygame_gui.elements.UIButton(
                    rect,
                    "Series results",
                    self.manager,
                    tool_tip_text="Cross table and scores with 95% intervals (T)",
                )
            )
            y = rect.bottom + m.px(10)
        self.controls_bottom = y
        if self.over_since is not None:
            self.build_overlay_buttons()
        self.refresh_buttons(force=True)

    def build_overlay_buttons(self) -> None:
        """Play again / Menu on the game-over card."""
        if "again" in self.buttons:
            return
        m = self.app.metrics
        card = self.overlay_rect(final=True)
        again = pygame.Rect(0, 0, m.px(150), m.button_h)
        again.midright = (card.right - m.pad, card.centery)
        menu = pygame.Rect(0, 0, m.px(110), m.button_h)
        menu.midright = (again.x - m.gap, card.centery)
        self.buttons["again"] = self.add(
            pygame_gui.elements.UIButton(again, "Play again", self.manager, object_id="#primary")
        )
        self.buttons["overlay_menu"] = self.add(
            pygame_gui.elements.UIButton(menu, "Menu", self.manager)
        )

    def overlay_rect(self, final: bool = False) -> pygame.Rect:
        """The game-over card, under the (shrunk) board."""
        m = self.app.metrics
        header = self.header_rect()
        h = self.app.size[1]
        shown = 1.0 if final else drawing.ease_out_cubic(self.overlay_shown())
        card = pygame.Rect(header.x, 0, header.width, self.overlay_height())
        card.bottom = round(h - m.pad + (1 - shown) * (card.height + m.pad))
        return card

    def refresh_buttons(self, force: bool = False) -> None:
        """Enable or disable buttons to match what is possible now."""
        state = self.match.state
        human_turn = (
            not state.is_terminal() and state.to_move != CHANCE and self.is_human(state.to_move)
        )
        flags = {
            "undo": self.match.can_undo(),
            "redo": self.match.can_redo(),
            "hint": human_turn and self.job is None,
            "step": self.paused and not state.is_terminal(),
            "series": len(self.series) > 0,
        }
        for key, enabled in flags.items():
            button = self.buttons.get(key)
            if button is None or (not force and self.button_flags.get(key) == enabled):
                continue
            self.button_flags[key] = enabled
            if enabled:
                button.enable()
            else:
                button.disable()

    def rebuild(self) -> None:
        """Re-create the widgets (after a change that adds or removes some)."""
        self.clear()
        self.build()

    # -- actions ------------------------------------------------------------------

    def cancel_search(self) -> None:
        """Stop any search at once and forget its answers."""
        if self.job is not None:
            self.app.worker.cancel()
        self.job = None
        self.progress = None
        self.pending = None

    def reset_effects(self) -> None:
        """Drop animations and per-position marks (after undo, new game...)."""
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.roll = None
        self.message = None
        self.hint = None
        self.cue = None
        state = self.match.state
        decisions = [e.move for e in self.match.entries if not e.chance]
        self.last_move = decisions[-1] if decisions else None
        faces = [e.move for e in self.match.entries if e.chance]
        self.die_face = faces[-1] if faces else None
        if state.is_terminal():
            self.over_since = self.app.now - 1.0
        else:
            self.over_since = None
            for key in ("again", "overlay_menu"):
                button = self.buttons.pop(key, None)
                if button is not None:
                    button.kill()
                    self.widgets.remove(button)

    def new_game(self) -> None:
        """Start again (the next seed of the series, so repeated games differ but replay)."""
        self.cancel_search()
        self.games_started += 1
        self.match.restart(seed=self.series_seed + self.games_started)
        self.recorded = False
        self.analysis = None
        self.reset_effects()
        self.shown_scores = [0.0, 0.0]
        self.shown_total = 0.0
        self.step_requested = False

    def undo(self) -> None:
        """Take back to the last human decision (one move when two AIs play, and pause)."""
        if not self.match.can_undo():
            self.set_notice("Nothing to undo")
            return
        self.cancel_search()
        if self.ai_vs_ai() and not self.paused:
            self.set_paused(True)
        self.match.undo(self.is_human)
        self.unrecord()
        self.reset_effects()

    def redo(self) -> None:
        """Replay what was undone."""
        if not self.match.can_redo():
            self.set_notice("Nothing to redo")
            return
        self.cancel_search()
        self.match.redo()
        self.reset_effects()

    def unrecord(self) -> None:
        """Undoing a finished game takes its result off the score."""
        if self.recorded and not self.match.state.is_terminal():
            self.recorded = False
            winner = self.last_winner
            self.score[2 if winner is None else winner] -= 1
            self.series.pop()

    def request_hint(self) -> None:
        """Analyse the position for the human to move and mark the best move."""
        state = self.match.state
        if state.is_terminal() or state.to_move == CHANCE or not self.is_human(state.to_move):
            self.set_notice("Hints are for a human's turn")
            return
        import ai

        other = self.sides[1 - state.to_move]
        if other.is_ai:
            config = other.player_config(self.game_name)
        else:
            presets = list(ai.DIFFICULTIES[self.game_name])
            config = ai.DIFFICULTIES[self.game_name][presets[min(2, len(presets) - 1)]]
        self.submit("analyse", config, state.to_move)

    def swap_sides(self) -> None:
        """Exchange who plays which side; the game goes on from here."""
        self.cancel_search()
        stored = self.app.settings.sides
        stored[self.game_name] = [stored[self.game_name][1], stored[self.game_name][0]]
        self.series_labels.reverse()
        settings.save(self.app.settings)
        self.hint = None
        self.rebuild()
        names = self.player_names()
        self.set_notice(f"Swapped: {names[0]} vs {names[1]}")

    def set_paused(self, paused: bool) -> None:
        """Pause or resume AI vs AI."""
        self.paused = paused
        self.step_requested = False
        self.rebuild()

    def toggle_analysis(self) -> None:
        """Show or hide the analysis panel and the values on the board."""
        self.app.settings.show_analysis = not self.app.settings.show_analysis
        settings.save(self.app.settings)
        self.rebuild()

    def change_role(self, index: int, text: str) -> None:
        """A side's role menu changed: Human, a preset or Custom (opens the settings)."""
        side = self.sides[index]
        if text == HUMAN.capitalize():
            side.kind = HUMAN
        elif text == "AI · Custom…":
            side.kind = AI
            side.preset = CUSTOM
            self.app.push(SetupScene(self.app, self.game_name, editing=True))
        else:
            side.kind = AI
            side.preset = text.split("· ", 1)[1]
        settings.save(self.app.settings)
        state = self.match.state
        if self.job is not None and self.job.player == index:
            self.cancel_search()
        if not state.is_terminal() and state.to_move == index:
            self.hint = None
        if self.any_ai():
            self.app.worker.start()
        if not self.ai_vs_ai():
            self.paused = False
        if self.app.scene is self:
            self.rebuild()

    # -- saving and loading ---------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """What a save file holds for this game (see gui.savefile)."""
        return {
            "game_name": self.game_name,
            "options": {"goal": self.game.goal} if self.game_name == "pig" else {},
            "players": [side_to_player(side, self.game_name) for side in self.sides],
            "seed": self.match.seed,
            "moves_text": self.game.format_moves(self.match.moves),
        }

    def save_to(self, path: Any) -> bool:
        """Save the game to `path` (atomically); a toast says where, or why not."""
        try:
            written = savefile.save_game(path, **self.save_data())
        except savefile.SaveError as error:
            self.app.toast(f"Not saved: {error}", theme.DANGER, seconds=6)
            return False
        self.app.toast(f"Saved to {written}", theme.SUCCESS, seconds=4)
        return True

    def before_opening(self) -> None:
        """A loaded game replaces this one: stop its search first."""
        self.cancel_search()

    def autosave(self, force: bool = False) -> None:
        """Keep the game in progress in autosave.json (a finished game is not offered)."""
        if not getattr(self.app, "autosave_enabled", False):
            return
        count = len(self.match.entries)
        if not force and (count == self.autosaved or self.app.now < self.autosave_due):
            return
        self.autosaved = count
        self.autosave_due = self.app.now + AUTOSAVE_EVERY
        path = savefile.autosave_path()
        if self.match.state.is_terminal():
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            return
        if count == 0:
            return  # an untouched new game does not replace the last one in progress
        with contextlib.suppress(savefile.SaveError, OSError):
            savefile.save_game(path, **self.save_data())

    def show_series(self) -> None:
        """The series' cross table and scores (after at least one finished game)."""
        if not len(self.series):
            self.set_notice("The series table fills in as games finish")
            return
        from gui.scenes.series import SeriesScene

        self.app.push(SeriesScene(self.app, self))

    def set_notice(self, text: str, seconds: float = 1.6) -> None:
        """A gentle message in the header."""
        self.notice = (text, self.app.now + seconds)

    # -- moves --------------------------------------------------------------------

    def busy_animating(self) -> bool:
        """Whether an animation must finish before the next move."""
        return self.app.now < self.anim_start + self.anim_length or self.roll is not None

    def anim_scale(self) -> float:
        """Animation speed factor: 0 for instant AI-vs-AI play."""
        if not self.animate:
            return 0.0
        if self.ai_vs_ai():
            return min(1.0, self.app.settings.speed / 0.5)
        return 1.0

    def apply(self, move: Any) -> None:
        """Play a player's move and start its animation."""
        state = self.match.state
        self.match.play(move)
        self.hint = None
        self.last_move = move
        self.anim_move = move
        self.anim_start = self.app.now
        scale = self.anim_scale()
        if self.game_name == "connect4":
            fall = C4_HEIGHT - state.height(move)
            self.anim_length = (0.28 + 0.045 * fall) * scale
        elif self.game_name == "tictactoe":
            self.anim_length = 0.22 * scale
        else:
            self.anim_length = 0.0
        if move == "roll":
            self.message = None
        elif move == "hold":
            name = self.colour_names()[state.player]
            banked = state.turn_total
            self.message = (f"{name} holds and banks {banked}", theme.SUCCESS, self.app.now)

    def try_human_move(self, move: Any) -> None:
        """A human's click or key: play it if legal, else a gentle cue."""
        state = self.match.state
        if state.is_terminal():
            return
        if state.to_move == CHANCE:  # the die is rolling
            return
        if not self.is_human(state.to_move):
            self.set_notice("Wait for the AI's move")
            return
        if move not in state.legal_moves():
            self.cue = (move, self.app.now)
            if self.game_name == "connect4":
                self.set_notice(f"Column {move + 1} is full")
            elif self.game_name == "tictactoe":
                self.set_notice("That square is taken")
            elif move == "hold":
                self.set_notice("Roll at least once before holding")
            return
        if self.job is not None:
            self.cancel_search()
        self.apply(move)

    def submit(self, kind: str, config: Any, player: int) -> None:
        """Send a search for the current position to the worker."""
        options = {"goal": self.game.goal} if self.game_name == "pig" else {}
        state = self.match.state
        key = (self.match.seed, self.games_started, player, kind)
        job_id = self.app.worker.submit(
            kind,
            self.game_name,
            options,
            state,
            config,
            analysis=self.app.settings.show_analysis,
            player_key=key,
        )
        all_values = kind == "analyse" or self.app.settings.show_analysis
        self.job = Job(job_id, kind, len(self.match.entries), player, self.app.now, all_values)
        self.progress = None

    def player_seed(self, player: int) -> int:
        """Each side's AI seed, from the match seed: the same seed replays the same match."""
        return (self.match.seed * 1_000_003 + player * 7919 + 1) % (2**31)

    def poll_worker(self) -> None:
        """Read the worker's answers (never waits); stale ones were dropped by the worker."""
        for message in self.app.worker.poll():
            if message.kind == "minimax_nodes":
                if self.analysis is not None and self.analysis_job == message.job_id:
                    self.analysis.minimax_nodes = message.payload[0]
                continue
            job = self.job
            if job is None or message.job_id != job.job_id:
                continue
            if message.kind == "restarted":
                self.progress = None
                self.set_notice("The AI process stopped; a new one is thinking again", 3.0)
            elif message.kind == "progress":
                self.progress = message.payload[0]
            elif message.kind == "result":
                self.on_result(job, *message.payload)
            elif message.kind == "error":
                self.job = None
                self.progress = None
                self.app.toast(
                    f"The AI could not move: {message.payload[0]}", theme.DANGER, seconds=6
                )
                if self.ai_vs_ai():
                    self.set_paused(True)
            elif message.kind == "cancelled":
                self.job = None
                self.progress = None

    def on_result(self, job: Job, move: Any, result: Any) -> None:
        """A finished search: keep its analysis; an AI move waits for its moment."""
        self.job = None
        self.progress = None
        if job.entries != len(self.match.entries):
            return
        branching = len(self.match.state.legal_moves())
        source = "hint" if job.kind == "analyse" else "ai"
        self.analysis = Analysis(result, source, job.player, branching)
        self.analysis.all_values = job.all_values
        self.analysis_job = job.job_id
        if job.kind == "analyse":
            self.hint = move
            self.analysis_decisions = self.match.decisions()
            return
        self.analysis.played = move
        self.analysis_decisions = self.match.decisions() + 1
        delay = self.app.settings.speed if self.ai_vs_ai() else HUMAN_AI_DELAY
        if not self.animate:
            delay = 0.0
        self.pending = Pending(move, job.entries, job.started + delay)

    def advance(self) -> None:
        """Move the match on: dice, AI moves, the end of a game."""
        now = self.app.now
        state = self.match.state
        if state.is_terminal():
            self.game_over(state)
            return
        if self.busy_animating() and self.roll is None:
            return
        if state.to_move == CHANCE:
            self.advance_chance(state)
            return
        player = state.to_move
        if self.is_human(player):
            return
        held = self.ai_vs_ai() and self.paused and not self.step_requested
        if self.pending is not None and self.pending.entries == len(self.match.entries):
            if now >= self.pending.ready_at and not held:
                move, self.pending = self.pending.move, None
                self.step_requested = False
                self.apply(move)
            return
        if self.job is None and not held and self.ai_enabled:
            config = self.sides[player].player_config(self.game_name, seed=self.player_seed(player))
            self.submit("move", config, player)

    def advance_chance(self, state: Any) -> None:
        """Roll the die: draw the outcome with the match's seeded generator, animate, play."""
        now = self.app.now
        if self.roll is None:
            outcome = self.match.sample_chance()
            self.roll = (outcome, now)
            return
        outcome, started = self.roll
        if now - started < ROLL_TIME * self.anim_scale():
            return
        self.roll = None
        lost = state.turn_total
        mover = state.player
        self.match.play(outcome)
        self.die_face = outcome
        if outcome == 1:
            name = self.player_names()[mover].split(" · ")[0]
            text = (
                f"Rolled a 1! {name} loses {lost} point{'s' if lost != 1 else ''}"
                if lost
                else f"Rolled a 1! {name}'s turn is over"
            )
            self.message = (text, theme.DANGER, now)
            self.anim_start = now
            self.anim_length = 0.9 * self.anim_scale()

    def game_over(self, state: Any) -> None:
        """Record the result once, show the card, and in AI vs AI start the next game."""
        if self.busy_animating():
            return
        if self.over_since is None:
            self.over_since = self.app.now
            self.build_overlay_buttons()
            self.refresh_buttons(force=True)
        if not self.recorded:
            self.recorded = True
            self.last_winner = state.winner()
            self.score[2 if self.last_winner is None else self.last_winner] += 1
            self.refresh_series_labels()
            self.series.add(self.series_labels[0], self.series_labels[1], self.last_winner)
            self.autosave(force=True)
        if self.ai_vs_ai() and not self.paused and self.animate:
            wait = NEXT_GAME_PAUSE * max(0.3, min(1.0, self.app.settings.speed / 0.6))
            if self.app.now - self.over_since > wait:
                self.new_game()

    # -- events -------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """Widgets, board clicks, move keys and shortcuts."""
        if self.handle_file_dialog(event):  # the dialog is modal: no moves behind it
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self.on_button(event.ui_element)
        if (
            event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED
            and event.ui_element in self.role_menus
        ):
            self.change_role(self.role_menus.index(event.ui_element), event.text)
            return True
        if (
            event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED
            and event.ui_element is self.speed_slider
        ):
            self.app.settings.speed = round(SPEED_MAX - float(event.value), 2)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            move = self.view.move_at(self.board_rect(), self.match.state, event.pos)
            if move is not None:
                self.try_human_move(move)
            return True
        if event.type == pygame.KEYDOWN:
            return self.on_key(event)
        return False

    def on_button(self, element: Any) -> bool:
        """A side-panel button."""
        key = next((k for k, b in self.buttons.items() if b is element), None)
        if key is None:
            return False
        if key in ("new", "again"):
            self.new_game()
        elif key == "undo":
            self.undo()
        elif key == "redo":
            self.redo()
        elif key == "hint":
            self.request_hint()
        elif key == "swap":
            self.swap_sides()
        elif key == "players":
            self.cancel_search()
            self.app.push(SetupScene(self.app, self.game_name, editing=True))
        elif key == "analysis":
            self.toggle_analysis()
        elif key in ("menu", "overlay_menu"):
            self.cancel_search()
            self.app.pop_to_root()
        elif key == "pause":
            self.set_paused(not self.paused)
        elif key == "step":
            self.step_requested = True
        elif key == "save":
            self.open_file_dialog("save")
        elif key == "open":
            self.open_file_dialog("open")
        elif key == "series":
            self.show_series()
        return True

    def on_key(self, event: pygame.event.Event) -> bool:
        """Shortcuts, then the board's move keys."""
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        key = event.key
        if ctrl and key == pygame.K_s:
            self.open_file_dialog("save")
        elif ctrl and key == pygame.K_o:
            self.open_file_dialog("open")
        elif key == pygame.K_t and not ctrl:
            self.show_series()
        elif key == pygame.K_ESCAPE:
            self.cancel_search()
            self.app.pop()
        elif (ctrl and key == pygame.K_z) or (key == pygame.K_u and not ctrl):
            self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif key == pygame.K_n and not ctrl:
            self.new_game()
        elif key == pygame.K_SPACE and self.ai_vs_ai():
            self.set_paused(not self.paused)
        elif key == pygame.K_s and self.ai_vs_ai() and self.paused:
            self.step_requested = True
        elif key == pygame.K_a and not ctrl:
            self.toggle_analysis()
        else:
            move = self.view.move_for_key(self.match.state, key, event.unicode)
            if move is None:
                return False
            self.try_human_move(move)
        return True

    # -- per frame ----------------------------------------------------------------

    def enter(self) -> None:
        """Back on top (maybe after the players were edited): cancel stale searches."""
        if self.job is not None and self.job.kind == "move":
            self.cancel_search()
        if self.any_ai() and self.ai_enabled:
            self.app.worker.start()  # warm up now, so the first AI move is not late
        super().enter()

    def close(self) -> None:
        """Leaving for good (also on quit): stop the search, keep the game in autosave.json."""
        self.cancel_search()
        self.autosave(force=True)

    def clear(self) -> None:
        """Remove the widgets (a resize closes the file dialog too)."""
        self.file_dialog = None
        super().clear()

    def update(self, dt: float) -> None:
        """Poll the AI, advance the match, ease the displayed numbers."""
        self.poll_worker()
        self.advance()
        self.autosave()
        state = self.match.state
        if self.game_name == "pig":
            ease = 1 - math.exp(-dt * 9) if self.anim_scale() > 0 else 1.0
            for i in (0, 1):
                self.shown_scores[i] += (state.scores[i] - self.shown_scores[i]) * ease
            target = state.turn_total
            if target < self.shown_total:
                self.shown_total = float(target)  # a lost or banked total vanishes at once
            self.shown_total += (target - self.shown_total) * ease
        self.refresh_buttons()

    def context(self) -> ViewContext:
        """What the board view needs this frame."""
        state = self.match.state
        now = self.app.now
        human_turn = (
            not state.is_terminal() and state.to_move != CHANCE and self.is_human(state.to_move)
        )
        interactive = human_turn and not (self.game_name == "pig" and self.roll is not None)
        mouse = self.app.mouse()
        ctx = ViewContext(
            now=now,
            scale=self.app.metrics.scale,
            mouse=mouse,
            interactive=interactive,
            stochastic=self.game.stochastic,
            last_move=self.last_move,
            names=self.player_names(),
        )
        if state.is_terminal():
            ctx.winning_line = state.winning_line()
        analysis = self.analysis
        if (
            self.app.settings.show_analysis
            and analysis is not None
            and self.match.decisions() == self.analysis_decisions
            and (not self.game.stochastic or analysis.player == state.player)
            and analysis.all_values
        ):
            ctx.values = dict(analysis.result.move_values)
            ctx.chosen = analysis.played if analysis.played is not None else analysis.result.move
        ctx.hint = self.hint
        if self.cue is not None:
            ctx.cue = (self.cue[0], now - self.cue[1])
        progress = 1.0 if self.anim_length <= 0 else (now - self.anim_start) / self.anim_length
        if progress < 1:
            if self.game_name == "connect4" and isinstance(self.anim_move, int):
                ctx.anim["drop"] = (
                    self.anim_move,
                    state.height(self.anim_move) - 1,
                    max(0.0, progress),
                )
            elif self.game_name == "tictactoe":
                ctx.anim["place"] = (self.anim_move, drawing.ease_out_cubic(max(0.0, progress)))
        if ctx.winning_line and self.over_since is not None and self.animate:
            ctx.anim["strike"] = drawing.ease_out_cubic((now - self.over_since) / 0.35)
        if self.game_name == "pig":
            ctx.anim["scores"] = tuple(self.shown_scores)
            ctx.anim["turn_total"] = self.shown_total
            if self.roll is not None:
                scale = max(0.01, self.anim_scale())
                p = (now - self.roll[1]) / (ROLL_TIME * scale)
                face = 1 + (int(now * 14) * 5 + 3) % 6
                ctx.anim["die"] = (face, True, min(1.0, p))
            else:
                ctx.anim["die"] = (self.die_face, False, 1.0)
            if self.message is not None:
                text, colour, since = self.message
                age = now - since
                strength = min(1.0, age / 0.15) * min(1.0, max(0.0, (MESSAGE_TIME - age) / 0.4))
                if state.to_move != CHANCE or age < MESSAGE_TIME:
                    ctx.anim["message"] = (text, colour, strength)
        return ctx

    # -- drawing ------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """Header, board, side panel and the game-over card."""
        state = self.match.state
        self.draw_header(surface, state)
        self.view.draw(surface, self.board_rect(), state, self.context())
        self.draw_panel(surface)
        if self.over_since is not None:
            self.draw_game_over(surface, state)

    def draw_header(self, surface: pygame.Surface, state: Any) -> None:
        """Game name, whose turn it is or the thinking indicator, and gentle notices."""
        m = self.app.metrics
        rect = self.header_rect()
        title_size = m.font_size(22)
        title = drawing.draw_text(
            surface,
            game_title(self.game_name),
            (rect.x, rect.centery),
            title_size,
            theme.TEXT,
            "bold",
            anchor="midleft",
        )
        x = title.right + m.pad
        size = m.font_size(16)
        names = self.player_names()
        room = rect.right - x
        player = state.player
        if state.is_terminal():
            winner = state.winner()
            player = winner if winner is not None else player
        colour = (
            theme.PLAYER_COLOURS[player]
            if not state.is_terminal() or state.winner() is not None
            else theme.TEXT_DIM
        )
        pill = pygame.Rect(x, rect.centery - m.px(17), room, m.px(34))
        drawing.rounded_rect(
            surface,
            pill,
            theme.PANEL,
            pill.height // 2,
            1,
            theme.mix(theme.PANEL_BORDER, colour, 0.5),
        )
        drawing.circle(surface, colour, (pill.x + m.px(18), pill.centery), m.px(7))
        text_x = pill.x + m.px(34)
        colours = self.colour_names()
        if state.is_terminal():
            winner = state.winner()
            text = "Game over · a draw" if winner is None else f"Game over · {colours[winner]} wins"
        elif self.job is not None:
            text = self.thinking_text()
            self.draw_spinner(surface, (pill.right - m.px(20), pill.centery), m.px(8))
        elif state.to_move == CHANCE:
            text = f"{names[player]} rolls…"
        elif self.is_human(player):
            you = names[player].endswith("You")
            text = (
                f"Your turn · {self.move_help()}"
                if you
                else f"{colours[player]} to move · {self.move_help()}"
            )
        elif self.ai_vs_ai() and self.paused:
            text = f"Paused · {colours[player]} to move · Space resumes, S steps"
        else:
            text = f"{names[player]} to move"
        if self.notice is not None and self.app.now < self.notice[1]:
            text = self.notice[0]
            colour = theme.WARNING
        else:
            colour = theme.TEXT
        width = pill.right - text_x - m.px(40)
        while " · " in text and drawing.text_size(text, size, "semibold")[0] > width:
            text = text.rsplit(" · ", 1)[0]  # drop the least important part first
        drawing.draw_text(
            surface,
            drawing.ellipsize(text, width, size, "semibold"),
            (text_x, pill.centery),
            size,
            colour,
            "semibold",
            anchor="midleft",
        )

    def move_help(self) -> str:
        """How a human moves in this game."""
        return {
            "tictactoe": "click a square or press 1-9",
            "connect4": "click a column or press 1-7",
            "pig": "Roll (R) or Hold (H)",
        }.get(self.game_name, "")

    def thinking_text(self) -> str:
        """'Red (AI · Hard) is thinking… depth 6 · 12.3k nodes'."""
        job = self.job
        assert job is not None
        colour = self.colour_names()[job.player]
        who = "Looking for a hint" if job.kind == "analyse" else f"{colour} is thinking"
        progress = self.progress
        if progress is None:
            return f"{who}…"
        return f"{who}… depth {progress.depth} · {analysis_panel.compact(progress.nodes)} nodes"

    def draw_spinner(self, surface: pygame.Surface, centre: tuple[int, int], radius: int) -> None:
        """Eight dots chasing round: the AI is thinking."""
        now = self.app.now
        for i in range(8):
            angle = i / 8 * math.tau
            fade = (now * 1.4 - i / 8) % 1.0
            colour = theme.mix(theme.ACCENT, theme.PANEL, fade)
            drawing.circle(
                surface,
                colour,
                (centre[0] + math.cos(angle) * radius, centre[1] + math.sin(angle) * radius),
                max(1.5, radius * 0.28),
            )

    def draw_panel(self, surface: pygame.Surface) -> None:
        """Side panel frame, player chips, score, AI-vs-AI labels, analysis and history."""
        m = self.app.metrics
        panel = self.panel_rect()
        drawing.shadow(surface, panel, m.radius, spread=m.px(16))
        drawing.rounded_rect(surface, panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
        inner = panel.inflate(-2 * m.gap, 0)
        small = m.font_size(12)
        drawing.draw_text(
            surface, "PLAYERS", (inner.x, panel.y + m.px(16)), small, theme.TEXT_FAINT, "semibold"
        )
        colours = self.colour_names()
        score = f"SCORE {self.score[0]} – {self.score[1]}"
        if self.score[2]:
            score += f" · {self.score[2]} drawn"
        drawing.draw_text(
            surface,
            drawing.ellipsize(score, round(inner.width * 0.7), small),
            (inner.right, panel.y + m.px(16)),
            small,
            theme.TEXT_DIM,
            anchor="topright",
        )
        state = self.match.state
        for i, menu in enumerate(self.role_menus):
            y = menu.relative_rect.centery
            active = not state.is_terminal() and state.player == i
            colour = theme.PLAYER_COLOURS[i]
            if active:
                drawing.glow(surface, colour, (inner.x + m.px(8), y), m.px(16), 80)
            drawing.circle(surface, colour, (inner.x + m.px(8), y), m.px(7))
            label_w = menu.relative_rect.x - inner.x - m.px(24)
            drawing.draw_text(
                surface,
                drawing.ellipsize(colours[i], label_w, m.font_size(15), "semibold"),
                (inner.x + m.px(22), y),
                m.font_size(15),
                theme.TEXT if active else theme.TEXT_DIM,
                "semibold",
                anchor="midleft",
            )
        y = getattr(self, "controls_bottom", panel.y)
        if self.speed_slider is not None:
            srect = self.speed_slider.relative_rect
            drawing.draw_text(
                surface,
                "AI VS AI",
                (inner.x, self.buttons["pause"].relative_rect.y - m.px(18)),
                small,
                theme.TEXT_FAINT,
                "semibold",
            )
            speed = self.app.settings.speed
            label = "instant" if speed < 0.05 else f"{speed:.1f} s"
            drawing.draw_text(
                surface,
                "Speed",
                (inner.x, srect.centery),
                m.font_size(13),
                theme.TEXT_DIM,
                anchor="midleft",
            )
            drawing.draw_text(
                surface,
                label,
                (inner.right, srect.centery),
                m.font_size(13),
                theme.TEXT,
                anchor="midright",
            )
        bottom = panel.bottom - m.gap
        if self.app.settings.show_analysis:
            extra = self.pig_rows()
            history_min = round(m.font_size(12) * 1.8 + m.font_size(14) * 1.5 * 3) + m.gap
            height = min(analysis_panel.preferred_height(m, len(extra)), bottom - y - history_min)
            height = max(height, min(m.px(120), bottom - y))
            rect = pygame.Rect(inner.x, bottom - height, inner.width, height)
            analysis_panel.draw(
                surface,
                rect,
                self.analysis,
                self.game,
                m,
                self.colour_names(),
                thinking=self.job is not None,
                extra=extra,
            )
            bottom = rect.y - m.gap
        self.draw_history(surface, pygame.Rect(inner.x, y, inner.width, bottom - y))

    def pig_rows(self) -> list[tuple[str, str]]:
        """Pig's optimal-play figures for the panel, worked out once per position."""
        if self.game_name != "pig":
            return []
        names = self.player_names()
        key = (len(self.match.entries), self.match.state, names)
        if self._pig_cache is None or self._pig_cache[0] != key:
            rows = analysis_panel.pig_rows(self.game, self.match.initial, self.match.entries, names)
            self._pig_cache = (key, rows)
        return self._pig_cache[1]

    def draw_history(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The moves in the game's notation; the newest at the bottom."""
        m = self.app.metrics
        if rect.height < m.px(44):
            return
        small = m.font_size(12)
        drawing.draw_text(surface, "MOVES", (rect.x, rect.y), small, theme.TEXT_FAINT, "semibold")
        rows = self.match.history_rows()
        size = m.font_size(14)
        line_h = round(size * 1.5)
        top = rect.y + round(small * 1.8)
        room = max(0, (rect.bottom - top) // line_h)
        if not rows:
            drawing.draw_text(surface, "No moves yet", (rect.x, top), size, theme.TEXT_FAINT)
            return
        col_w = (rect.width - m.px(36)) // 2
        # Visual lines: (move number or None for a wrapped continuation, [(player, text)]).
        lines: list[tuple[int | None, list[tuple[int, str]]]] = []
        if self.game.stochastic:
            width = rect.width - m.px(36) - m.px(14)
            for number, (player, text) in enumerate(rows, start=1):
                for k, part in enumerate(drawing.wrap(text, width, size)):
                    lines.append((number if k == 0 else None, [(player, part)]))
        else:
            for i in range(0, len(rows), 2):
                lines.append((i // 2 + 1, rows[i : i + 2]))
        shown = lines[-room:] if room else []
        for k, (label, pairs) in enumerate(shown):
            y = top + k * line_h
            newest_line = k == len(shown) - 1 or (
                self.game.stochastic
                and shown[-1][0] is None
                and all(n is None for n, _ in shown[k + 1 :])
            )
            if label is not None:
                drawing.draw_text(surface, f"{label}.", (rect.x, y), size, theme.TEXT_FAINT)
            for j, (player, text) in enumerate(pairs):
                x = rect.x + m.px(36) + (0 if self.game.stochastic else j * col_w)
                width = rect.right - x if self.game.stochastic else col_w - m.px(8)
                if label is not None:
                    drawing.circle(
                        surface,
                        theme.PLAYER_COLOURS[player],
                        (x + m.px(4), y + size * 0.62),
                        m.px(3.5),
                    )
                newest = newest_line and j == len(pairs) - 1
                drawing.draw_text(
                    surface,
                    drawing.ellipsize(text, width - m.px(14), size),
                    (x + m.px(14), y),
                    size,
                    theme.TEXT if newest else theme.TEXT_DIM,
                    "semibold" if newest else "regular",
                )

    def draw_game_over(self, surface: pygame.Surface, state: Any) -> None:
        """The result card under the board."""
        m = self.app.metrics
        card = self.overlay_rect()
        winner = state.winner()
        names = self.player_names()
        colours = self.colour_names()
        if winner is None:
            headline, colour = "It's a draw", theme.TEXT
        else:
            who = names[winner].split(" · ")[1]
            if who == "You":
                headline = "You win!"
            elif not self.is_human(winner) and any(n.endswith("You") for n in names):
                headline = f"{colours[winner]} wins — the AI got you"
            else:
                headline = f"{colours[winner]} wins!"
            colour = theme.PLAYER_COLOURS[winner]
        drawing.shadow(surface, card, m.radius, spread=m.px(18), alpha=130)
        drawing.rounded_rect(
            surface,
            card,
            theme.PANEL_RAISED,
            m.radius,
            2,
            theme.mix(theme.PANEL_BORDER, colour, 0.7),
        )
        again = self.buttons.get("overlay_menu")
        text_right = (again.relative_rect.x if again is not None else card.right) - m.pad
        width = text_right - card.x - m.pad
        size = drawing.fit_size(headline, width, m.font_size(28), "bold")
        drawing.draw_text(
            surface,
            headline,
            (card.x + m.pad, card.centery - m.px(4)),
            size,
            colour,
            "bold",
            anchor="bottomleft",
        )
        decisions = self.match.decisions()
        detail = f"{decisions} moves · score {self.score[0]} – {self.score[1]}"
        if self.score[2]:
            detail += f", {self.score[2]} drawn"
        if self.ai_vs_ai() and not self.paused:
            detail += " · next game starts soon"
        for i, line in enumerate(drawing.wrap(detail, width, m.font_size(14))[:2]):
            drawing.draw_text(
                surface,
                line,
                (card.x + m.pad, card.centery + m.px(4) + i * m.font_size(14) * 1.4),
                m.font_size(14),
                theme.TEXT_DIM,
            )
