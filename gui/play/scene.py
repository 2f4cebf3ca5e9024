"""Play: the board, the status line, the side panel and the game-over card.

The match itself (history, sides, AI jobs, autosave, series) is a `PlayController` with no
pygame; this scene turns events into its calls, animates what it reports, and draws through
the panels in `gui.play`.  Other scenes are reached through the app by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import pygame
import pygame_gui

from plyground.games.base import CHANCE, State
from plyground.gui import theme
from plyground.gui.kits import ViewContext, kit_for
from plyground.gui.kits.base import BoardNote, ChanceMotion, MoveMotion, PlayEffect
from plyground.gui.play import (
    browse_view,
    controls,
    events,
    game_over_card,
    motion,
    new_game_dialog,
    review_card,
    screen,
    side_panel,
    status_line,
    values_caption,
)
from plyground.gui.play.activity import MESSAGE_TIME
from plyground.gui.play.controller import ROLL_TIME, SPEED_MAX, PlayController
from plyground.gui.play.events import Event
from plyground.gui.play.keyboard import Action, KeyPress, Situation, help_lines, key_press
from plyground.gui.play.model import BoardMessage, PlayModel
from plyground.gui.play.screen import PlayScreen
from plyground.gui.play.search_jobs import Purpose
from plyground.gui.scenes.file_dialog import FileDialogScene
from plyground.gui.sound import sounds
from plyground.gui.storage import savefile, settings
from plyground.gui.storage.settings import CUSTOM
from plyground.gui.widgets import drawing, focus

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App

TONES = {"success": theme.SUCCESS, "danger": theme.DANGER, "warning": theme.WARNING}


class DrawnAreas(NamedTuple):
    """What the views returned when the scene last drew them."""

    status: pygame.Rect
    """The status line's pill, or the browsing banner in its place."""
    panel: side_panel.PanelAreas
    review: review_card.CardAreas | None
    """The game review's card and graph (None while no card is shown)."""


class PlayScene(FileDialogScene):
    """A match in progress: events in, pictures out; the match is `self.controller`."""

    title = "play"

    def __init__(
        self,
        app: App,
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
        self.view = kit_for(game_name)
        self.model = PlayModel(self.controller, self.view)
        self.drawn: DrawnAreas | None = None
        """Where the last frame drew the views: the mouse hits what is on screen."""
        self.file_dialog: Any = None
        self.file_mode = ""
        self.confirm: controls.Widget | None = None
        """The new-game confirmation while it is up."""
        self.buttons: controls.Buttons = {}
        self.role_menus: list[controls.Widget] = []
        self.speed_slider: controls.Widget | None = None
        self.button_flags: dict[str, bool] = {}
        self.controls_bottom = 0

    # -- what the controller reports ----------------------------------------------

    def take_events(self) -> None:
        """Act on what the controller reports, oldest first (once or twice a frame: the
        controller never calls into the scene)."""
        for event in self.controller.take_events():
            self.on_event(event)

    def on_event(self, event: Event) -> None:
        """Animate a move, show a message, rebuild the widgets..."""
        now = self.app.now
        self.app.request_frame()
        names = self.controller.colour_names()
        model = self.model
        match event:
            case events.Played(move, before):
                self.start_animation(move, before)
                self.show_effect(self.view.move_effect(before, move, names), before.to_move)
            case events.ChanceDrawn(before):
                player = getattr(before, "player", None)
                self.show_effect(self.view.chance_effect(before), player)
            case events.ChanceSettled(outcome, before):
                model.last_outcome = outcome
                effect = self.view.outcome_effect(before, outcome, names)
                if effect.stops_motion:
                    model.anim_start, model.anim_length = now, 0.0
                self.show_effect(effect, getattr(before, "player", None))
            case events.Message(text, tone):
                model.message = BoardMessage(text, tone, now) if text else None
            case events.Toast(text, tone):
                self.app.toast(text, TONES.get(tone, theme.ACCENT), seconds=6)
            case events.Reset():
                self.reset_effects()
            case events.GameOver():
                self.add_overlay_buttons()
                self.refresh_buttons(force=True)
            case events.Rebuild() | events.Swapped() if self.app.scene is self:
                self.apply_change(event.kind)
            case events.Sound(name, player):
                sounds().event(self.view.sounds, name, player)

    def show_effect(self, effect: PlayEffect, player: int | None) -> None:
        """Play a kit's effect of a move or a chance outcome: its sound, message and pause."""
        if effect.sound is not None:
            sounds().event(self.view.sounds, effect.sound, player)
        if effect.message is not None:
            text, tone = effect.message
            self.model.message = BoardMessage(text, tone, self.app.now) if text else None
        if effect.pause:
            self.controller.hold(effect.pause * self.controller.anim_scale())

    def start_animation(self, move: Any, before: State[Any]) -> None:
        """A placed mark or a falling disc; the controller waits for it."""
        model = self.model
        model.last_move = model.anim_move = move
        model.anim_start = self.app.now
        seconds = motion.move_seconds(self.view, before, move)
        model.anim_length = seconds * self.controller.anim_scale()
        self.controller.hold(model.anim_length)
        mover = getattr(before, "to_move", None)
        end = model.anim_start + model.anim_length
        model.landing = (end, mover) if model.anim_length else None

    def reset_effects(self) -> None:
        """Drop animations and per-position marks (after undo, new game...)."""
        self.model.reset_effects()
        if self.controller.over_since is None:
            self.remove_overlay_buttons()

    # -- layout -------------------------------------------------------------------

    def screen(self) -> PlayScreen:
        """Where everything is this frame (what the views read besides the model)."""
        places = {key: pygame.Rect(button.relative_rect) for key, button in self.buttons.items()}
        slider = self.speed_slider
        return screen.measure(
            self.model,
            self.app.metrics,
            self.app.size,
            self.app.now,
            self.app.mouse(),
            controls_bottom=self.controls_bottom,
            buttons=places,
            role_menus=tuple(pygame.Rect(menu.relative_rect) for menu in self.role_menus),
            speed_slider=pygame.Rect(slider.relative_rect) if slider is not None else None,
        )

    def panel_rect(self) -> pygame.Rect:
        """The side panel on the right."""
        return screen.panel_rect(self.app.metrics, self.app.size)

    def header_rect(self) -> pygame.Rect:
        """The strip above the board with whose turn it is."""
        return screen.header_rect(self.app.metrics, self.app.size)

    def board_rect(self) -> pygame.Rect:
        """Where the board view draws; it shrinks while the game-over card is shown."""
        return screen.board_rect(self.model, self.app.metrics, self.app.size, self.app.now)

    def overlay_shown(self) -> float:
        """How far the game-over card has slid in (0..1)."""
        return self.model.overlay_shown(self.app.now)

    def overlay_rect(self, final: bool = False) -> pygame.Rect:
        """The game-over card, under the (shrunk) board."""
        m, size = self.app.metrics, self.app.size
        return screen.overlay_rect(self.model, m, size, self.app.now, final)

    def mute_rect(self) -> pygame.Rect:
        """The mute button, at the right end of the header strip."""
        return screen.mute_rect(self.app.metrics, self.app.size)

    def build(self) -> None:
        """The side panel's widgets (and the game-over buttons when the game is over)."""
        m = self.app.metrics
        panel = self.panel_rect()
        inner = panel.inflate(-2 * m.gap, 0)
        self.buttons = {}
        self.role_menus = []
        self.speed_slider = None
        self.button_flags = {}
        controller, manager = self.controller, self.manager
        menus, y = controls.build_roles(controller, m, manager, inner, panel.y + m.px(40))
        self.role_menus = [self.add(menu) for menu in menus]
        y += m.px(16 if m.height >= 700 else 10)
        buttons, y = controls.build_buttons(controller, m, manager, inner, y)
        self.add_buttons(buttons)
        if controls.TOOLS[0][0] not in self.buttons:  # else the grid holds the views' row
            buttons, y = controls.build_tools(controller, m, manager, inner, y)
            self.add_buttons(buttons)
        mute = self.mute_rect()
        self.add_buttons({controls.MOVE_NOW[0]: controls.build_move_now(m, manager, mute)})
        self.add_buttons({browse_view.LIVE[0]: browse_view.build_button(m, manager, mute)})
        copy = review_card.build_button(m, manager)
        self.add_buttons({review_card.COPY[0]: copy})
        review_card.refresh(copy, self.model, self.screen)
        if controller.ai_vs_ai():
            buttons, self.speed_slider, y = controls.build_ai_vs_ai(
                controller, m, manager, inner, y
            )
            self.add_buttons(buttons)
            self.add(self.speed_slider)
        self.controls_bottom = y
        if controller.over_since is not None:
            self.add_overlay_buttons()
        self.add_buttons({"mute": controls.build_mute_button(m, manager, mute)})
        self.refresh_buttons(force=True)

    def add_buttons(self, buttons: controls.Buttons) -> None:
        """Keep new buttons by their action's name (the scene removes them with the rest)."""
        for key, button in buttons.items():
            self.buttons[key] = self.add(button)

    def add_overlay_buttons(self) -> None:
        """Play again / Menu on the game-over card (once)."""
        if controls.OVERLAY_BUTTONS[0] in self.buttons:
            return
        card = self.overlay_rect(final=True)
        self.add_buttons(controls.build_overlay_buttons(self.app.metrics, self.manager, card))

    def remove_overlay_buttons(self) -> None:
        """The card's buttons go when the game is no longer over."""
        for key in controls.OVERLAY_BUTTONS:
            button = self.buttons.pop(key, None)
            if button is not None:
                button.kill()
                if button in self.widgets:
                    self.widgets.remove(button)

    def apply_change(self, kind: str) -> None:
        """The widgets after a change: swapped players only exchange the two role menus'
        places (no new widgets every game of a series); anything else rebuilds them."""
        menus = self.role_menus
        if kind != "swapped" or len(menus) != 2:
            self.rebuild()
            return
        first, second = menus[0].relative_rect.topleft, menus[1].relative_rect.topleft
        menus[0].set_relative_position(second)
        menus[1].set_relative_position(first)
        menus.reverse()

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
        if controller.try_human_move(move) or controller.browse.browsing or state.is_terminal():
            return
        if state.to_move == CHANCE:
            return
        if not controller.is_human(state.to_move):
            return
        self.model.cue = (move, self.app.now)
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
        self.controller.jobs.cancel_search()

    # -- events -------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """Widgets, board clicks, move keys and shortcuts."""
        if side_panel.unpin_analysis(self.model, event):
            self.app.request_frame()
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                return True  # Esc closes the whole analysis and does nothing more
        if self.handle_file_dialog(event):  # the dialog is modal: no moves behind it
            return True
        if self.on_dialog_event(event):
            return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            shown = self.screen()
            drawn = self.drawn
            history = drawn.panel.history if drawn is not None else None
            if browse_view.on_mouse(self.model, shown, event, history):
                return True
            review = drawn.review if drawn is not None else None
            if review_card.on_mouse(self.model, shown, event, review):  # a click on the graph
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
            return self.on_key(event)
        return False

    def keys_help(self) -> list[tuple[str, str]]:
        """The play keys (`gui.play.keyboard`), then this game's own from its kit."""
        return [*help_lines(), (self.controller.game.title, self.view.keys_help)]

    def on_key(self, event: pygame.event.Event) -> bool:
        """A key: the confirmation, Esc's order, the key table, then the kit's keys."""
        if self.confirm is not None:
            if new_game_dialog.on_key(self.confirm, event.key) is new_game_dialog.Answer.CLOSED:
                self.close_confirm()
            return True
        if event.key == pygame.K_ESCAPE and self.escape():
            return True
        controller = self.controller
        situation = Situation(
            ai_vs_ai=controller.ai_vs_ai(),
            paused=controller.paused,
            human_turn=controller.human_turn(),
            browsing=controller.browse.browsing,
            ai_failed=controller.jobs.ai_failed_here() is not None,
        )
        pressed = key_press(event.key, event.mod, situation)
        if pressed is not None:
            self.on_key_press(pressed)
            return True
        move = self.view.move_for_key(controller.state, event.key, event.unicode)
        if move is None:
            return False
        self.try_human_move(move)
        return True

    def escape(self) -> bool:
        """Esc closes an open drop-down first, then ends a review (True when it did either)."""
        if focus.close_dropdowns(self.widgets):
            return True
        if self.controller.browse.browsing:
            self.controller.browse.browse_leave()
            return True
        return False

    def on_key_press(self, pressed: KeyPress) -> None:
        """One action of the key table: the ones that read the key here, the rest by `do`."""
        controller, key = self.controller, pressed.key
        if pressed.action is Action.CURSOR:
            self.move_cursor(key)
        elif pressed.action is Action.PLAY_CURSOR:
            self.play_cursor()
        elif pressed.action is Action.BROWSE_STEP:
            controller.browse.browse_step(-1 if key == pygame.K_LEFT else 1)
        elif pressed.action is Action.BROWSE_ENDS:
            if key == pygame.K_HOME:
                controller.browse.browse_home()
            else:
                controller.browse.browse_leave()
        elif pressed.action is Action.SCROLL:
            self.scroll_moves(-1 if key == pygame.K_PAGEUP else 1, page=True)
        else:
            self.do(pressed.action)

    # -- the board cursor -----------------------------------------------------------

    def move_cursor(self, key: int) -> None:
        """An arrow: the kit moves the cursor (its first press shows it); ↓ with nowhere to
        go plays (a board whose cursor only moves sideways)."""
        cursor = self.model.cursor
        dx, dy = focus.ARROWS[key]
        was_shown = self.model.cursor_shown(self.app.mouse()) is not None
        moved = self.view.cursor_move(
            self.controller.state, cursor.move if was_shown else None, dx, dy
        )
        if moved is None:
            if key == pygame.K_DOWN and was_shown:
                self.play_cursor()
            return
        self.show_cursor(moved)

    def show_cursor(self, move: Any) -> None:
        """Put the cursor on `move` and show it; a kit that does not draw it gets it named."""
        cursor = self.model.cursor
        cursor.move, cursor.shown, cursor.mouse_at = move, True, self.app.mouse()
        if not self.view.draws_cursor:
            text = self.controller.game.format_move(move)
            self.set_notice(f"Selected {text} · Enter plays it", 3.0)

    def play_cursor(self) -> None:
        """Enter, Space or ↓: play the move under the cursor (the first press shows it)."""
        move = self.model.cursor_shown(self.app.mouse())
        if move is None:
            start = self.view.cursor_move(self.controller.state, None, 0, 0)
            if start is not None:
                self.show_cursor(start)
            return
        self.try_human_move(move)

    # -- the new-game confirmation -------------------------------------------------

    def ask_new_game(self) -> None:
        """New game: at once, or after a confirmation when a game is in progress."""
        controller = self.controller
        if not new_game_dialog.in_progress(controller):
            controller.new_game()
            return
        if self.confirm is not None:
            return
        centre = self.board_rect().center
        moves = controller.history.decisions()
        dialog = new_game_dialog.open_dialog(self.app.metrics, self.manager, centre, moves)
        self.confirm = self.add(dialog)

    def close_confirm(self) -> None:
        """Close the confirmation if it is up."""
        dialog, self.confirm = self.confirm, None
        if dialog is not None:
            dialog.kill()
            if dialog in self.widgets:
                self.widgets.remove(dialog)

    def on_dialog_event(self, event: pygame.event.Event) -> bool:
        """The confirmation's answer: a new game, or nothing (closed)."""
        if self.confirm is None:
            return False
        answer = new_game_dialog.on_event(self.confirm, event)
        if answer is None:
            return False
        self.confirm = None
        if answer is new_game_dialog.Answer.NEW_GAME:
            self.controller.new_game()
        return True

    # -- actions --------------------------------------------------------------------

    def do(self, action: str) -> None:
        """One named action of a button or a key (see `keyboard.Action`)."""
        controller = self.controller
        simple: dict[str, Callable[[], object]] = {
            Action.NEW: self.ask_new_game,
            Action.LIVE: controller.browse.browse_leave,
            Action.AGAIN: controller.new_game,
            Action.UNDO: controller.undo,
            Action.REDO: controller.redo,
            Action.HINT: controller.request_hint,
            Action.SWAP: controller.swap_sides,
            Action.ANALYSIS: controller.toggle_analysis,
            Action.PAUSE: controller.toggle_pause,
            Action.STEP: controller.step,
            Action.SERIES: self.show_series,
            Action.MUTE: self.toggle_mute,
            Action.WHOLE_ANALYSIS: self.pin_analysis,
            Action.COPY: self.copy_position,
            Action.RETRY: controller.retry,
        }
        if action in simple:
            simple[action]()
        elif action in (Action.PLAYERS, Action.MENU, Action.OVERLAY_MENU, Action.BACK):
            controller.jobs.cancel_search()  # leaving the board: the AI stops at once
            if action == Action.PLAYERS:
                self.app.switch("setup", game_name=self.game_name, editing=True)
            elif action == Action.BACK:
                self.app.pop()
            else:
                self.app.pop_to_root()
        elif action in (Action.SAVE, Action.OPEN):
            self.open_file_dialog(action)
        elif action == Action.MOVE_NOW:
            controller.jobs.move_now()
        elif action in (Action.EXPLORE, Action.COMPARE, Action.POLICY):
            self.open_view(action)

    def on_button(self, element: Any) -> bool:
        """A side-panel button."""
        key = next((k for k, b in self.buttons.items() if b is element), None)
        if key is None:
            return False
        self.do(key)
        return True

    def open_view(self, action: str) -> None:
        """The explorer, the compare view or the policy picture, on the position shown."""
        why = controls.tool_refusal(self.controller, action)
        if why:
            self.set_notice(why, 2.5)
            return
        name, params = controls.view_to_open(self.controller, action)
        self.controller.jobs.cancel_search()  # the view searches; the AI starts again on return
        self.app.switch(name, **params)

    def toggle_mute(self) -> None:
        """Mute or unmute the effects; the settings remember it."""
        muted = sounds().toggle_mute()
        self.app.settings.sound_muted = muted
        settings.save(self.app.settings)
        button = self.buttons.get("mute")
        if button is not None:
            button.set_text("Unmute" if muted else "Mute")
        self.set_notice("Sound off" if muted else "Sound on")

    def pin_analysis(self) -> None:
        """V: all of the analysis over the buttons, where the panel is short."""
        notice = side_panel.pin_analysis(self.model)
        if notice is not None:
            self.set_notice(notice)
            return
        self.app.request_frame()

    def copy_position(self) -> str:
        """Copy the moves up to the position shown; a toast says what."""
        return review_card.copy_position(self.model, self.toast)

    def toast(self, text: str, colour: theme.Colour, seconds: float) -> None:
        """A line over the board for `seconds`."""
        self.app.toast(text, colour, seconds=seconds)

    def scroll_moves(self, direction: int, page: bool = False) -> None:
        """Scroll the move list (-1: towards the first moves)."""
        drawn = self.drawn.panel.history if self.drawn is not None else None
        browse_view.scroll(self.model, self.screen(), direction, page, drawn)

    def toast_area(self) -> pygame.Rect:
        """The play scene's toasts go over the board, under the status line (never over it)."""
        header = self.header_rect()
        top = header.bottom + self.app.metrics.gap
        return pygame.Rect(header.x, top, header.width, self.app.size[1] - top)

    # -- per frame ----------------------------------------------------------------

    def enter(self) -> None:
        """Back on top (maybe after the players were edited): cancel stale searches."""
        controller = self.controller
        if controller.jobs.job is not None and controller.jobs.job.kind == Purpose.MOVE:
            controller.jobs.cancel_search()
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
        model = self.model
        if model.landing is not None and self.app.now >= model.landing[0]:
            sounds().event(self.view.sounds, "landed", model.landing[1])
            model.landing = None
        self.take_events()  # what the player's input did
        self.controller.update()
        self.take_events()  # what the AI and the clock did
        model.activity.update(self.controller, self.app.now)
        if model.shown_numbers:
            ease = 1 - math.exp(-dt * 9) if self.controller.anim_scale() > 0 else 1.0
            state = self.controller.state
            model.shown_numbers = self.view.ease_numbers(model.shown_numbers, state, ease)
        self.refresh_buttons()
        controls.refresh_tools(self.buttons, self.controller)
        live = self.buttons.get(browse_view.LIVE[0])
        if live is not None:
            browse_view.refresh(live, self.controller)
        copy = self.buttons.get(review_card.COPY[0])
        if copy is not None:
            review_card.refresh(copy, model, self.screen)

    def animating(self) -> bool:
        """Whether the picture changes without an event (see `gui.play.activity`)."""
        return self.model.animating(self.app.now)

    def context(self) -> ViewContext:
        """What the board view needs this frame."""
        controller, model = self.controller, self.model
        state = controller.browse.shown_state()
        now = self.app.now
        browsing = controller.browse.browsing
        interactive = controller.human_turn() and controller.roll is None and not browsing
        mouse = self.app.mouse()
        ctx = ViewContext(
            now=model.activity.pulse_now(now),
            scale=self.app.metrics.scale,
            mouse=mouse,
            interactive=interactive,
            stochastic=controller.game.stochastic,
            last_move=controller.browse.shown_last_move() if browsing else model.last_move,
            names=controller.player_names(),
            cursor=model.cursor_shown(mouse) if interactive else None,
        )
        if state.is_terminal():
            ctx.winning_line = state.winning_line()
        board = controller.browse.shown_values()
        if board is not None:
            ctx.values = dict(board.values)
            ctx.chosen = board.chosen
        if browsing:  # a still picture of the reviewed position
            if controller.game.stochastic:
                ctx.chance = ChanceMotion(controller.browse.shown_last_chance())
            return ctx
        ctx.hint = controller.hint
        if model.cue is not None:
            ctx.cue = (model.cue[0], now - model.cue[1])
        self.add_animation(ctx, state, now)
        return ctx

    def add_animation(self, ctx: ViewContext, state: State[Any], now: float) -> None:
        """What is in motion this frame, as the context's typed entries the kit draws."""
        controller, model = self.controller, self.model
        length = model.anim_length
        progress = 1.0 if length <= 0 else (now - model.anim_start) / length
        if progress < 1 and model.anim_move is not None:
            ctx.moving = MoveMotion(model.anim_move, max(0.0, progress))
        if ctx.winning_line and controller.over_since is not None and controller.animate:
            ctx.strike = drawing.ease_out_cubic((now - controller.over_since) / 0.35)
        if not self.controller.game.stochastic:
            return
        ctx.numbers = tuple(model.shown_numbers)
        if controller.roll is not None:  # a chance event being drawn: the kit shows it
            scale = max(0.01, controller.anim_scale())
            p = (now - controller.roll[1]) / (ROLL_TIME * scale)
            ctx.chance = ChanceMotion(model.last_outcome, True, min(1.0, p), now)
        else:
            ctx.chance = ChanceMotion(model.last_outcome)
        if model.message is not None:
            message = model.message
            age = now - message.since
            strength = min(1.0, age / 0.15) * min(1.0, max(0.0, (MESSAGE_TIME - age) / 0.4))
            if state.to_move != CHANCE or age < MESSAGE_TIME:
                colour = TONES.get(message.tone, theme.TEXT)
                ctx.note = BoardNote(message.text, colour, strength)

    def draw(self, surface: pygame.Surface) -> None:
        """Status line, board, side panel and the game-over card."""
        m = self.app.metrics
        controller, model = self.controller, self.model
        shown = self.screen()
        header = shown.header.copy()
        header.width = self.mute_rect().x - m.gap - header.x  # the mute button's room
        move_now = self.buttons.get(controls.MOVE_NOW[0])
        if move_now is not None and move_now.visible:
            header.width = move_now.relative_rect.x - m.gap - header.x  # room for "Move now"
        live = self.buttons.get(browse_view.LIVE[0])
        if controller.browse.browsing and live is not None:
            header.width = live.relative_rect.x - m.gap - header.x
            status = browse_view.draw_banner(surface, header, m, controller)
        else:
            status = status_line.draw(surface, header, m, controller, self.view, self.app.now)
        self.view.draw(surface, shown.board, controller.browse.shown_state(), self.context())
        values_caption.draw(surface, model, shown)
        panel = side_panel.draw(surface, model, shown)
        model.analysis_hidden = panel.analysis_hidden
        self.drawn = DrawnAreas(status, panel, review_card.draw(surface, model, shown))
        if controller.over_since is not None:
            card = self.overlay_rect()
            again = self.buttons.get("overlay_menu")
            right = int(again.relative_rect.x) if again is not None else card.right
            game_over_card.draw(surface, card, m, controller, right)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The whole analysis over the buttons while the pointer is over a short one."""
        if self.file_dialog is None and self.confirm is None:
            side_panel.draw_expanded(surface, self.model, self.screen())
