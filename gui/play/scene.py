"""Play: the board, the status line, the side panel and the game-over card.

The match itself (history, sides, AI jobs, autosave, series) is a `PlayController` with no
pygame; this scene turns events into its calls, animates what it reports, and draws through
the panels in `gui.play`.  Other scenes are reached through the app by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame
import pygame_gui

from plyground.games.base import CHANCE
from plyground.gui import theme
from plyground.gui.kits import ViewContext, kit_for
from plyground.gui.kits.base import PlayEffect
from plyground.gui.play import (
    controls,
    game_over_card,
    keyboard,
    motion,
    review_card,
    review_view,
    side_panel,
    status_line,
    values_caption,
)
from plyground.gui.play.activity import MESSAGE_TIME, Activity
from plyground.gui.play.controller import ROLL_TIME, SPEED_MAX, Event, PlayController
from plyground.gui.scenes.file_dialog import FileDialogScene
from plyground.gui.sound import sounds
from plyground.gui.storage import savefile
from plyground.gui.storage.settings import CUSTOM
from plyground.gui.widgets import drawing

BOARD_STEPS = 6
"""The board shrinks for the game-over card in this many sizes (each is drawn once)."""
TONES = {"success": theme.SUCCESS, "danger": theme.DANGER, "warning": theme.WARNING}


class PlayScene(FileDialogScene):
    """A match in progress: events in, pictures out; the match is `self.controller`."""

    title = "play"

    def __init__(
        self,
        app: Any,
        game_name: str,
        moves: list[Any] | None = None,
        animate: bool = True,
        saved: Any = None,
    ) -> None:
        """`saved`: a checked `gui.storage.savefile.SavedGame` to go on with (its seed and
        moves)."""
        super().__init__(app)
        self.game_name = game_name
        self.controller = PlayController(
            game_name,
            app.settings,
            app.worker,
            lambda: float(app.now),
            moves=moves,
            saved=saved,
            autosave=bool(getattr(app, "autosave_enabled", False)),
            animate=animate,
        )
        self.controller.on_event = self.on_event
        self.view = kit_for(game_name)
        self.file_dialog: Any = None
        self.file_mode = ""
        self.confirm: Any = None
        """The new-game confirmation while it is up."""
        self.cursor = keyboard.Cursor()
        self.kit_rows = side_panel.KitRows()
        self.move_rows = side_panel.MoveRows()
        self.analysis_hidden = 0
        """How many analysis rows the panel had no room for (then pointing shows them)."""
        self.analysis_pinned = False
        """All of the analysis shown by key (V) until the next key, click or pointer move."""
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.anim_move: Any = None
        self.last_move: Any = None
        self.die_face: int | None = None
        self.message: tuple[str, theme.Colour, float] | None = None
        self.cue: tuple[Any, float] | None = None
        self.buttons: dict[str, Any] = {}
        self.role_menus: list[Any] = []
        self.speed_slider: Any = None
        self.button_flags: dict[str, bool] = {}
        self.controls_bottom = 0
        self.shown_numbers: tuple[float, ...] = ()
        """The numbers the board eases (a race's scores), as shown this frame."""
        self.landing: tuple[float, Any] | None = None
        """When the running move animation ends (its "landed" sound), and whose move it is."""
        self.activity = Activity()
        self.copied: str | None = None
        """The text "Copy position" put on the clipboard last."""
        self.reset_effects()

    # -- what the controller reports ----------------------------------------------

    def on_event(self, event: Event) -> None:
        """Animate a move, show a message, rebuild the widgets..."""
        now = self.app.now
        self.app.request_frame()
        names = self.controller.colour_names()
        if event.kind == "played":
            self.start_animation(event.move, event.before)
            effect = self.view.move_effect(event.before, event.move, names)
            self.show_effect(effect, event.before.to_move)
        elif event.kind == "rolling":
            player = getattr(event.before, "player", None)
            self.show_effect(self.view.chance_effect(event.before), player)
        elif event.kind == "rolled":
            self.die_face = event.move
            effect = self.view.outcome_effect(event.before, event.move, names)
            if effect.stops_motion:
                self.anim_start, self.anim_length = now, 0.0
            self.show_effect(effect, getattr(event.before, "player", None))
        elif event.kind == "message":
            tone = TONES.get(event.tone, theme.TEXT)
            self.message = (event.text, tone, now) if event.text else None
        elif event.kind == "toast":
            self.app.toast(event.text, TONES.get(event.tone, theme.ACCENT), seconds=6)
        elif event.kind == "reset":
            self.reset_effects()
        elif event.kind == "over":
            controls.build_overlay_buttons(self, self.overlay_rect(final=True))
            self.refresh_buttons(force=True)
        elif event.kind in ("rebuild", "swapped") and self.app.scene is self:
            controls.apply_change(self, event.kind)
        elif event.kind == "sound":
            sounds().event(self.view.sounds, event.text, event.move)

    def show_effect(self, effect: PlayEffect, player: int | None) -> None:
        """Play a kit's effect of a move or a chance outcome: its sound, message and pause."""
        if effect.sound is not None:
            sounds().event(self.view.sounds, effect.sound, player)
        if effect.message is not None:
            text, tone = effect.message
            self.message = (text, TONES.get(tone, theme.TEXT), self.app.now) if text else None
        if effect.pause:
            self.controller.hold(effect.pause * self.controller.anim_scale())

    def start_animation(self, move: Any, before: Any) -> None:
        """A placed mark or a falling disc; the controller waits for it."""
        self.last_move = self.anim_move = move
        self.anim_start = self.app.now
        seconds = motion.move_seconds(self.view, before, move)
        self.anim_length = seconds * self.controller.anim_scale()
        self.controller.hold(self.anim_length)
        mover = getattr(before, "to_move", None)
        self.landing = (self.anim_start + self.anim_length, mover) if self.anim_length else None

    def reset_effects(self) -> None:
        """Drop animations and per-position marks (after undo, new game...)."""
        self.anim_start = -10.0
        self.anim_length = 0.0
        self.message = None
        self.cue = None
        self.landing = None
        entries = self.controller.match.entries
        decisions = [e.move for e in entries if not e.chance]
        self.last_move = decisions[-1] if decisions else None
        faces = [e.move for e in entries if e.chance]
        self.die_face = faces[-1] if faces else None
        self.shown_numbers = self.view.shown_numbers(self.controller.state)
        if self.controller.over_since is None:
            controls.remove_overlay_buttons(self)

    # -- layout -------------------------------------------------------------------

    def panel_rect(self) -> pygame.Rect:
        """The side panel on the right."""
        m = self.app.metrics
        w, h = self.app.size
        return pygame.Rect(w - m.side_panel_w - m.pad, m.pad, m.side_panel_w, h - 2 * m.pad)

    def header_rect(self) -> pygame.Rect:
        """The strip above the board with whose turn it is."""
        m = self.app.metrics
        panel = self.panel_rect()
        return pygame.Rect(m.pad, m.pad, panel.x - 2 * m.pad, m.px(52))

    def overlay_height(self) -> int:
        """Height of the game-over card."""
        m = self.app.metrics
        return int(m.px(96) + m.button_h // 2)

    def board_rect(self) -> pygame.Rect:
        """Where the board view draws; it shrinks while the game-over card is shown."""
        m = self.app.metrics
        header = self.header_rect()
        h = self.app.size[1]
        top = values_caption.board_top(self)  # under the status line and the values' caption
        rect = pygame.Rect(header.x, top, header.width, h - top - m.pad)
        shown = self.overlay_shown()
        if shown > 0:
            # In a few steps: each board size is drawn and cached anew.
            eased = math.ceil(drawing.ease_out_cubic(shown) * BOARD_STEPS) / BOARD_STEPS
            rect.height -= round((self.overlay_height() + m.gap) * eased)
        rect.height -= review_card.reserved(self)  # the game review's card under the board
        return rect

    def overlay_shown(self) -> float:
        """How far the game-over card has slid in (0..1)."""
        over_since = self.controller.over_since
        if over_since is None:
            return 0.0
        if not self.controller.animate:
            return 1.0
        return float(min(1.0, (self.app.now - over_since) / 0.3))

    def overlay_rect(self, final: bool = False) -> pygame.Rect:
        """The game-over card, under the (shrunk) board."""
        m = self.app.metrics
        header = self.header_rect()
        h = self.app.size[1]
        shown = 1.0 if final else drawing.ease_out_cubic(self.overlay_shown())
        card = pygame.Rect(header.x, 0, header.width, self.overlay_height())
        card.bottom = round(h - m.pad + (1 - shown) * (card.height + m.pad))
        return card

    def build(self) -> None:
        """The side panel's widgets (and the game-over buttons when the game is over)."""
        m = self.app.metrics
        panel = self.panel_rect()
        inner = panel.inflate(-2 * m.gap, 0)
        self.buttons = {}
        self.role_menus = []
        self.speed_slider = None
        self.button_flags = {}
        y = controls.build_roles(self, inner, panel.y + m.px(40)) + m.px(
            16 if m.height >= 700 else 10
        )
        y = controls.build_buttons(self, inner, y)
        y = controls.build_tools(self, inner, y)
        controls.build_move_now(self)
        review_view.build_button(self)
        review_card.build_button(self)
        if self.controller.ai_vs_ai():
            y = controls.build_ai_vs_ai(self, inner, y)
        self.controls_bottom = y
        if self.controller.over_since is not None:
            controls.build_overlay_buttons(self, self.overlay_rect(final=True))
        controls.build_mute_button(self)
        self.refresh_buttons(force=True)

    def refresh_buttons(self, force: bool = False) -> None:
        """Enable or disable buttons to match what is possible now."""
        for key, enabled in controls.button_flags(self.controller).items():
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

    # -- actions that need the window -----------------------------------------------

    def set_notice(self, text: str, seconds: float = 1.6) -> None:
        """A gentle message in the status line."""
        self.controller.set_notice(text, seconds)

    def try_human_move(self, move: Any) -> None:
        """A click or key: the controller plays it, or the board shows why not."""
        controller = self.controller
        state = controller.state
        if controller.try_human_move(move) or controller.reviewing or state.is_terminal():
            return
        if state.to_move == CHANCE:
            return
        if not controller.is_human(state.to_move):
            return
        self.cue = (move, self.app.now)
        why = motion.refusal(self.view, state, move)
        if why:
            self.set_notice(why)

    def change_role(self, index: int, text: str) -> None:
        """A side's role menu changed: Human, a preset or Custom (opens the settings)."""
        role = controls.role_of(text)
        self.controller.set_role(index, role)
        if role == CUSTOM:
            self.app.switch("setup", game_name=self.game_name, editing=True)
        if self.app.scene is self:
            self.rebuild()

    def show_series(self) -> None:
        """The series' cross table and scores (after at least one finished game)."""
        if not len(self.controller.series):
            self.set_notice("The series table fills in as games finish")
            return
        self.app.switch("series", play=self.controller)

    def save_to(self, path: Any) -> bool:
        """Save the game to `path` (atomically); a toast says where, or why not."""
        try:
            written = self.controller.save_to(path)
        except savefile.SaveError as error:
            self.app.toast(f"Not saved: {error}", theme.DANGER, seconds=6)
            return False
        self.app.toast(f"Saved to {written}", theme.SUCCESS, seconds=4)
        return True

    def before_opening(self) -> None:
        """A loaded game replaces this one: stop its search first."""
        self.controller.cancel_search()

    # -- events -------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """Widgets, board clicks, move keys and shortcuts."""
        side_panel.unpin_analysis(self, event)
        if self.handle_file_dialog(event):  # the dialog is modal: no moves behind it
            return True
        if keyboard.on_confirm_event(self, event) or review_view.on_mouse(self, event):
            return True
        if review_card.on_mouse(self, event):  # a click on the review's graph
            return True
        if self.confirm is not None and event.type == pygame.MOUSEBUTTONDOWN:
            return True  # the confirmation is modal too
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
            self.controller.set_speed(SPEED_MAX - float(event.value))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            move = self.view.move_at(self.board_rect(), self.controller.state, event.pos)
            if move is not None:
                self.try_human_move(move)
            return True
        if event.type == pygame.KEYDOWN:
            return keyboard.on_key(self, event)
        return False

    def do(self, action: str) -> None:
        """One named action of a button or a key."""
        controller = self.controller
        simple: dict[str, Callable[[], object]] = {
            "new": partial(keyboard.ask_new_game, self),
            "live": controller.review_leave,
            "again": controller.new_game,
            "undo": controller.undo,
            "redo": controller.redo,
            "hint": controller.request_hint,
            "swap": controller.swap_sides,
            "analysis": controller.toggle_analysis,
            "pause": controller.toggle_pause,
            "step": controller.step,
            "series": self.show_series,
            "mute": partial(controls.toggle_mute, self),
            "whole_analysis": partial(side_panel.pin_analysis, self),
            "copy": partial(review_card.copy_position, self),
        }
        if action in simple:
            simple[action]()
        elif action in ("players", "menu", "overlay_menu", "back"):
            controller.cancel_search()  # leaving the board: the AI stops at once
            if action == "players":
                self.app.switch("setup", game_name=self.game_name, editing=True)
            else:
                self.app.pop() if action == "back" else self.app.pop_to_root()
        elif action in ("save", "open"):
            self.open_file_dialog(action)
        elif action == "move_now":
            controller.move_now()
        elif action in ("explore", "compare", "policy"):
            controls.open_view(self, action)

    def on_button(self, element: Any) -> bool:
        """A side-panel button."""
        key = next((k for k, b in self.buttons.items() if b is element), None)
        if key is None:
            return False
        self.do(key)
        return True

    def scroll_moves(self, direction: int, page: bool = False) -> None:
        """Scroll the move list (-1: towards the first moves)."""
        review_view.scroll(self, direction, page)

    # -- per frame ----------------------------------------------------------------

    def enter(self) -> None:
        """Back on top (maybe after the players were edited): cancel stale searches."""
        controller = self.controller
        if controller.job is not None and controller.job.kind == "move":
            controller.cancel_search()
        if controller.any_ai() and controller.ai_enabled:
            self.app.worker.start()  # warm up now, so the first AI move is not late
        super().enter()

    def close(self) -> None:
        """Leaving for good (also on quit): stop the search, keep the game in autosave.json."""
        self.controller.close()

    def clear(self) -> None:
        """Remove the widgets (a resize closes the file dialog too)."""
        self.file_dialog = None
        self.confirm = None
        super().clear()

    def update(self, dt: float) -> None:
        """Poll the AI, advance the match, ease the displayed numbers."""
        if self.landing is not None and self.app.now >= self.landing[0]:
            sounds().event(self.view.sounds, "landed", self.landing[1])
            self.landing = None
        self.controller.update()
        self.activity.update(self.controller, self.app.now)
        if self.shown_numbers:
            ease = 1 - math.exp(-dt * 9) if self.controller.anim_scale() > 0 else 1.0
            state = self.controller.state
            self.shown_numbers = self.view.ease_numbers(self.shown_numbers, state, ease)
        self.refresh_buttons()
        controls.refresh_tools(self)
        review_view.refresh(self)
        review_card.refresh(self)

    toast_area = controls.toast_area

    def animating(self) -> bool:
        """Whether the picture changes without an event (see `gui.play.activity`)."""
        return self.activity.animating(self, self.app.now)

    def context(self) -> ViewContext:
        """What the board view needs this frame."""
        controller = self.controller
        state = controller.shown_state()
        now = self.app.now
        reviewing = controller.reviewing
        interactive = controller.human_turn() and controller.roll is None and not reviewing
        ctx = ViewContext(
            now=self.activity.pulse_now(now),
            scale=self.app.metrics.scale,
            mouse=self.app.mouse(),
            interactive=interactive,
            stochastic=controller.game.stochastic,
            last_move=controller.shown_last_move() if reviewing else self.last_move,
            names=controller.player_names(),
            cursor=keyboard.cursor_shown(self) if interactive else None,
        )
        if state.is_terminal():
            ctx.winning_line = state.winning_line()
        board = controller.shown_values()
        if board is not None:
            ctx.values = dict(board.values)
            ctx.chosen = board.chosen
        if reviewing:  # a still picture of the reviewed position
            ctx.anim["die"] = (controller.shown_last_chance(), False, 1.0)
            return ctx
        ctx.hint = controller.hint
        if self.cue is not None:
            ctx.cue = (self.cue[0], now - self.cue[1])
        self.add_animation(ctx, state, now)
        return ctx

    def add_animation(self, ctx: ViewContext, state: Any, now: float) -> None:
        """The running animations, as the view's `anim` entries."""
        controller = self.controller
        progress = 1.0 if self.anim_length <= 0 else (now - self.anim_start) / self.anim_length
        if progress < 1:
            moving = motion.move_animation(self.view, state, self.anim_move, progress)
            ctx.anim.update(moving)
        if ctx.winning_line and controller.over_since is not None and controller.animate:
            ctx.anim["strike"] = drawing.ease_out_cubic((now - controller.over_since) / 0.35)
        if not self.controller.game.stochastic:
            return
        ctx.anim.update(self.view.numbers_animation(self.shown_numbers))
        if controller.roll is not None:
            scale = max(0.01, controller.anim_scale())
            p = (now - controller.roll[1]) / (ROLL_TIME * scale)
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

    def draw(self, surface: pygame.Surface) -> None:
        """Status line, board, side panel and the game-over card."""
        m = self.app.metrics
        controller = self.controller
        header = self.header_rect()
        header.width = controls.mute_rect(self).x - m.gap - header.x  # the mute button's room
        move_now = self.buttons.get(controls.MOVE_NOW[0])
        if move_now is not None and move_now.visible:
            header.width = move_now.relative_rect.x - m.gap - header.x  # room for "Move now"
        live = self.buttons.get(review_view.LIVE[0])
        if controller.reviewing and live is not None:
            header.width = live.relative_rect.x - m.gap - header.x
            review_view.draw_banner(surface, header, m, controller)
        else:
            status_line.draw(surface, header, m, controller, self.view, self.app.now)
        self.view.draw(surface, self.board_rect(), controller.shown_state(), self.context())
        values_caption.draw(surface, self)
        side_panel.draw(surface, self.panel_rect(), m, self)
        review_card.draw(surface, self)
        if controller.over_since is not None:
            card = self.overlay_rect()
            again = self.buttons.get("overlay_menu")
            right = again.relative_rect.x if again is not None else card.right
            game_over_card.draw(surface, card, m, controller, right)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The whole analysis over the buttons while the pointer is over a short one."""
        if self.file_dialog is None and self.confirm is None:
            side_panel.draw_expanded(surface, self)
