"""The window: main loop, scene stack (push/pop/replace), resizing, help and toasts.

Tests drive it without a clock: `App(headless=True)`, post real pygame events, call
`step(dt)` (which reads the event queue, updates and draws one frame) or `handle(event)`.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from plyground import games
from plyground.games.from_file import guard
from plyground.gui import kits, theme, window_frame
from plyground.gui.describe import game_title
from plyground.gui.play import keyboard
from plyground.gui.scenes.base import Scene
from plyground.gui.sound import COMMON_SOUNDS, sounds
from plyground.gui.storage import settings
from plyground.gui.storage.write_problems import WRITES
from plyground.gui.widgets import drawing, focus, help_card
from plyground.gui.worker.ai_worker import AIWorker

SCENES = {
    "menu": "plyground.gui.scenes.menu:MenuScene",
    "setup": "plyground.gui.setup.scene:SetupScene",
    "play": "plyground.gui.play.scene:PlayScene",
    "series": "plyground.gui.scenes.series_results:SeriesScene",
    "explorer": "plyground.gui.explorer.scene:ExplorerScene",
    "lessons": "plyground.gui.explorer.scene:lessons_scene",
    "compare": "plyground.gui.compare.scene:CompareScene",
    "policy": "plyground.gui.compare.policy_scene:PolicyScene",
}
"""Every scene by name: scenes reach each other through `App.switch(name, **params)`, never by
importing each other."""
FPS = 60
IDLE_WAIT = 0.1
"""Seconds the loop waits for an event when nothing moves (the scene still updates then)."""
SETTLE = 1.5
"""Seconds of frames after an event: widgets' hover states and tool tips (1 s) show up."""
TOAST_FADE = 0.4
WINDOW_TITLE = "Plyground"
COUNTS_HELP = (
    "nodes, leaves, cut-offs, table hits: each means one thing everywhere; in the explorer, "
    "point at a count for its definition"
)
"""Where the counters' definitions (`ai.textbook.counts`) are shown."""
HELP_KEYS = (
    *keyboard.help_lines(),
    ("← → ↑ ↓  /  Enter", "menu and set-up: move the focus; use it"),
    ("L", "lessons (in the menu)"),
    ("F2", "colours: red / yellow or blue / orange, marked (colour-blind safe)"),
    ("F11", "full screen on / off"),
    ("Counts", COUNTS_HELP),
    ("F1  or  ?", "show / hide these keys"),
)
"""The keys every game shares, the play scene's straight from its key table
(`gui.play.keyboard.PLAY_KEYS`); each game's own keys come from its kit (`help_keys`)."""


WINDOW_KEYS = (
    ("F2", "colours: red / yellow or blue / orange, marked (colour-blind safe)"),
    ("F11", "full screen on / off"),
    ("F1  or  ?", "show / hide these keys"),
)
"""The keys every screen has, under the screen's own on the F1 card."""


def engine_games() -> tuple[str, ...]:
    """The registered games that bring an exact engine to load or compile (`warm_up`)."""
    return tuple(
        name for name, factory in games.GAMES.items() if games.capabilities(factory).warm_up
    )


def help_keys(scene: Scene | None = None) -> list[tuple[str, str]]:
    """The F1 card's lines: the keys of `scene` (the screen you are in) and the window's;
    without a scene, or for one that lists none, every screen's keys and each game's."""
    own = scene.keys_help() if scene is not None else []
    if own:
        return [*own, *WINDOW_KEYS]
    lines = list(HELP_KEYS[:-1])
    for name in games.GAMES:
        if name in kits.KITS:
            lines.append((game_title(name), kits.kit_for(name).keys_help))
    lines.append(HELP_KEYS[-1])
    return lines


def window_icon() -> pygame.Surface:
    """A small disc-on-board picture for the title bar and task switcher."""
    icon = pygame.Surface((64, 64), pygame.SRCALPHA)
    drawing.rounded_rect(icon, pygame.Rect(2, 2, 60, 60), theme.BOARD_BLUE, 14)
    for i, (x, y) in enumerate(((21, 21), (43, 21), (21, 43), (43, 43))):
        colour = theme.PLAYER_COLOURS[i % 2] if i != 1 else theme.HOLE
        drawing.circle(icon, colour, (x, y), 9)
    return icon


@dataclass
class Toast:
    """A short message shown at the top of the window."""

    text: str
    colour: theme.Colour
    until: float


class App:
    """Owns the window, the pygame_gui manager, the settings and the AI worker."""

    def __init__(
        self,
        size: tuple[int, int] | None = (1280, 800),
        fullscreen: bool = False,
        headless: bool = False,
        use_saved_settings: bool = True,
    ) -> None:
        """`size` None: the size the settings remember, else one that fits the screen (and
        the remembered place and full screen).  `use_saved_settings=False` (screenshots,
        benchmarks) neither reads nor repairs the player's settings file and starts from the
        defaults."""
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(0)
        self.headless = headless
        if use_saved_settings:
            self.settings, warning = settings.load()
        else:
            self.settings, warning = settings.Settings(), None
        desktop = window_frame.desktop_size()
        remembered = size is None
        small_screen = False
        if size is None:
            size = window_frame.first_size(self.settings.window_size, desktop)
            fullscreen = fullscreen or self.settings.fullscreen
            small_screen = not fullscreen and window_frame.no_window_fits(desktop)
            fullscreen = fullscreen or small_screen
        size = (max(theme.MIN_WINDOW[0], size[0]), max(theme.MIN_WINDOW[1], size[1]))
        self.fullscreen = fullscreen
        self.windowed_size = size
        """The window's size out of full screen (what F11 returns to and the settings keep)."""
        self.windowed_place: tuple[int, int] | None = None
        """Where the window was before full screen (F11 puts it back there)."""
        self.flags = pygame.RESIZABLE | (pygame.FULLSCREEN if fullscreen else 0)
        pygame.display.set_caption(WINDOW_TITLE)
        pygame.display.set_icon(window_icon())
        self.screen = window_frame.open_display(size, fullscreen)
        if remembered and not fullscreen:
            window_frame.place(self.settings.window_position, size, desktop)
        self.size = self.screen.get_size()
        self.metrics = theme.Metrics(self.size)
        self.manager = pygame_gui.UIManager(self.size, theme.ui_theme(self.metrics.widget_font))
        self.autosave_enabled = use_saved_settings
        self.saves_settings = True
        """Whether closing writes the settings (a second window, such as the exercise
        explorer, leaves the main window's to it)."""
        theme.set_palette(self.settings.palette)
        sounds().muted = bool(self.settings.sound_muted)
        sounds().volume = self.settings.sound_volume
        """Whether the game in progress is kept in autosave.json (not for screenshots)."""
        self.worker = AIWorker()
        if not headless:  # while the menu is open, so no first move waits for a compiler
            self.worker.warm_up_engines(engine_games())
        self.stack: list[Scene] = []
        self.stopped_by: int | None = None
        """The signal (SIGINT, SIGTERM) that ended the loop, if one did."""
        self.running = True
        self.closed = False
        self.now = 0.0
        self.show_help = False
        self.toasts: list[Toast] = []
        self.quirks_shown = len(guard.SAID)
        """The game files' warnings (`guard.SAID`) already shown as toasts."""
        self.mouse_override: tuple[int, int] | None = None
        """Tests and screenshots place the pointer here instead of asking the window."""
        self.frames = 0
        """Frames drawn so far (a window at rest draws none)."""
        self.frame_due = True
        self.settle_until = 0.0
        self.was_animating = True
        if warning:
            self.toast(warning, theme.WARNING, seconds=9)
        if small_screen:
            self.toast(window_frame.SMALL_SCREEN_NOTE, seconds=9)

    def mouse(self) -> tuple[int, int] | None:
        """Where the pointer is, or None when it is outside the window."""
        if self.mouse_override is not None:
            return self.mouse_override
        if self.headless or pygame.mouse.get_focused():
            return pygame.mouse.get_pos()
        return None

    # -- the scene stack --------------------------------------------------------------

    @property
    def scene(self) -> Scene | None:
        """The scene on top."""
        return self.stack[-1] if self.stack else None

    def push(self, scene: Scene) -> None:
        """Show `scene` on top of the current one."""
        self.frame_due = True
        if self.stack:
            self.stack[-1].leave()
        self.stack.append(scene)
        scene.enter()

    def make_scene(self, name: str, **params: Any) -> Scene:
        """A new scene registered under `name` in SCENES, built with `params`."""
        module_name, class_name = SCENES[name].split(":")
        scene_class = getattr(importlib.import_module(module_name), class_name)
        scene: Scene = scene_class(self, **params)
        return scene

    def switch(self, name: str, **params: Any) -> Scene:
        """Show the scene `name` (built with `params`) on top; returns it."""
        scene = self.make_scene(name, **params)
        self.push(scene)
        return scene

    def open_saved(self, saved: Any) -> Scene:
        """A loaded save: its players and options become the settings, then its set-up and
        play scenes go over the menu; returns the play scene."""
        from plyground.gui.play.sides import apply_saved_players

        apply_saved_players(self.settings, saved)
        self.pop_to_root()
        self.switch("setup", game_name=saved.game_name)
        return self.switch("play", game_name=saved.game_name, saved=saved)

    def pop(self) -> None:
        """Remove the top scene and show the one below (the last one cannot be popped)."""
        if len(self.stack) <= 1:
            return
        self.frame_due = True
        top = self.stack.pop()
        top.leave()
        top.close()
        self.stack[-1].enter()

    def replace(self, scene: Scene) -> None:
        """Swap the top scene for `scene`."""
        self.frame_due = True
        if self.stack:
            top = self.stack.pop()
            top.leave()
            top.close()
        self.stack.append(scene)
        scene.enter()

    def pop_to_root(self) -> None:
        """Back to the first scene (the menu)."""
        self.frame_due = True
        while len(self.stack) > 1:
            top = self.stack.pop()
            top.leave()
            top.close()
        if self.stack:
            self.stack[-1].enter()

    # -- events, update, draw -------------------------------------------------------

    def toast(self, text: str, colour: theme.Colour = theme.ACCENT, seconds: float = 3.0) -> None:
        """Show a short message at the top of the window."""
        self.toasts = [t for t in self.toasts if t.text != text]
        self.toasts.append(Toast(text, colour, self.now + seconds))
        self.frame_due = True

    def set_palette(self, name: str) -> None:
        """Draw with the palette `name` (`theme.PALETTES`) and remember it in the settings."""
        self.settings.palette = theme.set_palette(name).name
        self.frame_due = True

    def next_palette(self) -> None:
        """F2: the next palette (standard <-> colour-blind safe), saved, with a toast."""
        names = list(theme.PALETTES)
        self.set_palette(names[(names.index(theme.PALETTE.name) + 1) % len(names)])
        if self.autosave_enabled:
            settings.save(self.settings)
        self.toast(f"Colours: {theme.PALETTE.title} (F2 changes)", theme.ACCENT)

    def toggle_fullscreen(self) -> None:
        """F11: full screen at the desktop's size, or back to the window as it was (where it
        was, kept whole on the screen)."""
        if not self.fullscreen:
            self.windowed_place = window_frame.position()
        self.fullscreen = not self.fullscreen
        self.flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.fullscreen else 0)
        desktop = window_frame.desktop_size()
        self.screen = window_frame.open_display(self.windowed_size, self.fullscreen)
        if not self.fullscreen:
            window_frame.keep_on_screen(self.windowed_place, self.windowed_size, desktop)
        self.resize(self.screen.get_size())

    def remember_window(self) -> None:
        """Keep the window's size, place and full screen in the settings (saved on quit)."""
        self.settings.window_size = list(self.windowed_size)
        self.settings.fullscreen = self.fullscreen
        where = None if self.fullscreen else window_frame.position()
        if where is not None:
            self.settings.window_position = list(where)

    def request_frame(self) -> None:
        """Something changed: draw the next frame (see `animating` for the rest)."""
        self.frame_due = True

    def animating(self) -> bool:
        """Whether the picture changes without an event now: the widgets settling after
        input, a toast fading, a text cursor blinking, or the scene's own `animating`."""
        if self.now < self.settle_until or self._typing():
            return True
        if any(t.until - self.now < TOAST_FADE + 0.05 for t in self.toasts):
            return True
        return self.scene is not None and self.scene.animating()

    def resize(self, size: tuple[int, int]) -> None:
        """Re-lay out everything for a new window size."""
        self.frame_due = True
        size = (max(theme.MIN_WINDOW[0], size[0]), max(theme.MIN_WINDOW[1], size[1]))
        if self.screen.get_size() != size and not self.fullscreen:
            self.screen = pygame.display.set_mode(size, self.flags)
        if not self.fullscreen:  # the window manager may have resized the window itself
            self.windowed_size = self.screen.get_size()
        self.size = self.screen.get_size()
        old_font = self.metrics.widget_font
        self.metrics = theme.Metrics(self.size)
        if self.scene is not None:
            self.scene.clear()
        if self.metrics.widget_font != old_font:
            # A new font tier: a fresh manager with the theme at the new size.
            self.manager = pygame_gui.UIManager(self.size, theme.ui_theme(self.metrics.widget_font))
        else:
            self.manager.set_window_resolution(self.size)
        if self.scene is not None:
            self.scene.build()

    def handle(self, event: pygame.event.Event) -> None:
        """Route one event: window events, help, the widgets, then the top scene."""
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            size = (event.w, event.h) if event.type == pygame.VIDEORESIZE else (event.x, event.y)
            if size != self.size:
                self.resize(size)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F2:
            self.next_palette()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.KEYDOWN and (event.key == pygame.K_F1 or event.unicode == "?"):
            self.show_help = not self.show_help
            return
        if self.show_help:
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                self.show_help = False
            return
        escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        if escape and focus.close_open_lists(self.manager):  # an open list closes first
            return
        consumed = self.manager.process_events(event)
        if consumed and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return
        if event.type == pygame.KEYDOWN and self._typing() and event.key != pygame.K_ESCAPE:
            return  # Esc still closes the dialog around the text box
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            sounds().event(COMMON_SOUNDS, "button")
        if self.scene is not None:
            self.scene.handle(event)

    def _typing(self) -> bool:
        """Whether a text box has the keyboard (then keys are text, not shortcuts)."""
        return focus.typing(self.manager)

    def take(self, event: pygame.event.Event) -> None:
        """Handle an event from the queue; the picture may change, so draw for a while."""
        self.frame_due = True
        self.settle_until = self.now + SETTLE
        self.handle(event)

    def step(self, dt: float = 1 / FPS) -> bool:
        """One frame: read waiting events, update by `dt` seconds, and draw if anything
        changed or moves (one more frame after an animation ends); returns whether it drew.

        A game from a file whose own code fails (`GameCodeError`) closes that game: the
        window goes back to the menu and says the error's one line."""
        from plyground.games.from_file import GameCodeError

        try:
            return self._step(dt)
        except GameCodeError as error:
            self.game_failed(error)
            return True

    def game_failed(self, error: Exception) -> None:
        """A game file's code failed: close the game (what was played is kept in the
        autosave where it can be), back to the menu, and say why in one line."""
        from plyground.games.from_file import GameCodeError

        self.frame_due = True
        while len(self.stack) > 1:
            top = self.stack.pop()
            with contextlib.suppress(GameCodeError):
                top.leave()
            with contextlib.suppress(GameCodeError):
                top.close()
        if self.stack:
            self.stack[-1].enter()
        self.toast(f"The game was closed: {error}", theme.DANGER, seconds=12)

    def _step(self, dt: float) -> bool:
        for event in pygame.event.get():
            self.take(event)
            if not self.running:
                return False
        self.update(dt)
        animating = self.animating()
        drawn = self.frame_due or animating or self.was_animating
        if drawn:
            self.draw()
        self.was_animating = animating
        return drawn

    def update(self, dt: float) -> None:
        """Advance time, the top scene and the widgets."""
        self.now += dt
        if self.scene is not None:
            self.scene.update(dt)
        self.manager.update(dt)
        self.toasts = [t for t in self.toasts if t.until > self.now]
        for text, tone in WRITES.take():  # a write that failed, or works again: said once
            self.toast(text, theme.DANGER if tone == "danger" else theme.SUCCESS, seconds=9)
        self.show_quirks()

    def show_quirks(self) -> None:
        """A game file's quirk that Plyground works around (`guard.warn_once`: once a game),
        said as the terminal's `plyground: warning:` line says it."""
        for text in guard.SAID[self.quirks_shown :]:
            self.toast(f"Warning: {text}", theme.WARNING, seconds=12)
        self.quirks_shown = len(guard.SAID)

    def draw(self) -> None:
        """Draw the top scene, the widgets, toasts and help, then show the frame."""
        surface = self.screen
        surface.blit(drawing.vertical_gradient(self.size, theme.BG_TOP, theme.BG_BOTTOM), (0, 0))
        if self.scene is not None:
            self.scene.draw(surface)
        self.manager.draw_ui(surface)
        if self.scene is not None and hasattr(self.scene, "draw_over_widgets"):
            self.scene.draw_over_widgets(surface)
        self._draw_toasts(surface)
        if self.show_help:
            self._draw_help(surface)
        pygame.display.flip()
        self.frames += 1
        self.frame_due = False

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        m = self.metrics
        area = self.scene.toast_area() if self.scene is not None else self.screen.get_rect()
        y = area.y + m.px(14)
        size = m.font_size(15)
        for toast in self.toasts:
            fade = max(0.0, min(1.0, (toast.until - self.now) / TOAST_FADE))
            lines = drawing.wrap(
                toast.text, min(area.width - 2 * m.pad, m.px(760)), size, "semibold"
            )
            line_h = round(size * 1.4)
            width = max(drawing.text_size(line, size, "semibold")[0] for line in lines) + 2 * m.pad
            rect = pygame.Rect(0, y, width, line_h * len(lines) + m.px(16))
            rect.centerx = area.centerx
            alpha = round(255 * fade)
            drawing.rounded_rect(
                surface,
                rect,
                theme.mix(theme.PANEL, toast.colour, 0.18),
                m.px(10),
                1,
                toast.colour,
                alpha=alpha,
            )
            for i, line in enumerate(lines):
                drawing.draw_text(
                    surface,
                    line,
                    (rect.centerx, rect.y + m.px(8) + i * line_h),
                    size,
                    theme.TEXT,
                    "semibold",
                    anchor="midtop",
                    alpha=alpha,
                )
            y = rect.bottom + m.px(8)

    def _draw_help(self, surface: pygame.Surface) -> None:
        help_card.draw(surface, self.size, self.metrics, help_keys(self.scene))

    # -- lifetime -------------------------------------------------------------------

    def quit(self, save: bool = True) -> None:
        """Stop the loop and the AI worker, and save the settings."""
        self.running = False
        if self.closed:
            return
        self.closed = True
        for scene in reversed(self.stack):
            scene.close()
        self.worker.close()
        if save and self.saves_settings:
            self.remember_window()
            if not settings.save(self.settings):
                for text in WRITES.failing.values():  # the window is closing: say it here
                    with contextlib.suppress(OSError, ValueError, UnicodeError):
                        print(f"plyground: {text}", file=sys.stderr)

    def stop(self, signum: int, _frame: object = None) -> None:
        """A signal handler: end the loop after this frame (the game is saved on the way out)."""
        self.stopped_by = signum
        self.running = False

    def wait(self, clock: pygame.time.Clock) -> float:
        """Until the next frame: 1/60 s while anything moves; otherwise until an event comes
        (handled here) or `IDLE_WAIT` passes, so a window at rest uses next to no CPU.
        Returns the seconds since the last frame (capped, for a suspended window)."""
        if self.frame_due or self.was_animating or self.animating():
            return min(clock.tick(FPS) / 1000.0, 0.1)
        event = pygame.event.wait(round(IDLE_WAIT * 1000))
        if event.type != pygame.NOEVENT:
            self.take(event)
        return min(clock.tick() / 1000.0, IDLE_WAIT + 0.1)

    def run(self) -> int:
        """The main loop until the window closes: 60 frames a second while anything moves,
        resting on the event queue while nothing does.

        Returns 0, or 128 + the signal's number when Ctrl+C (SIGINT) or SIGTERM ended it;
        either way the scenes close (the game in progress goes to autosave.json), the AI
        worker stops and the settings are saved: no traceback, no process left.
        """
        clock = pygame.time.Clock()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(ValueError, OSError):  # only possible in the main thread
                signal.signal(signum, self.stop)
        watch_game_files()  # a game file's method that loops fails after a while
        from plyground.games.from_file import GameCodeError

        try:
            while self.running:
                try:
                    dt = self.wait(clock)
                except GameCodeError as error:  # an event into a failing game file
                    self.game_failed(error)
                    continue
                if self.running:
                    self.step(dt)
        except KeyboardInterrupt:
            self.stopped_by = signal.SIGINT
        finally:
            self.quit()
            pygame.quit()
        return 0 if self.stopped_by is None else 128 + int(self.stopped_by)


def watch_game_files() -> None:
    """Interrupt a call into a game file that runs too long (`games.from_file.guard.watch`)."""
    from plyground.games.from_file.guard import watch

    watch()


def create(
    size: tuple[int, int] | None = None, fullscreen: bool = False, headless: bool = False
) -> App:
    """An app showing the menu (`size` None: remembered, or fitted to the screen)."""
    app = App(size, fullscreen=fullscreen, headless=headless)
    app.switch("menu")
    return app


LOST_DISPLAY = (
    "plyground: the display {where} does not answer (its X server or compositor is gone?), "
    "so no window can open; the terminal commands work here: plyground --help"
)
"""Said instead of running an invisible window where SDL fell back to drawing offscreen."""


def display_lost() -> str | None:
    """The one line to say when a display is named but SDL could open none (it falls back to
    its offscreen driver: a window nobody sees), else None.  A driver chosen by the caller
    (SDL_VIDEODRIVER=dummy for tests) is never second-guessed."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    pygame.display.init()
    if pygame.display.get_driver() not in ("offscreen", "dummy"):
        return None
    named = [f"{name}={os.environ.get(name, '')}" for name in ("DISPLAY", "WAYLAND_DISPLAY")]
    where = " and ".join(n for n in named if not n.endswith("=")) or "(none named)"
    return LOST_DISPLAY.format(where=where)


def run(size: tuple[int, int] | None = None, fullscreen: bool = False) -> int:
    """Open the window and play until it is closed; returns the exit status (2, with one
    line, when the display is gone)."""
    lost = display_lost()
    if lost is not None:
        print(lost, file=sys.stderr)
        return 2
    return create(size, fullscreen).run()
