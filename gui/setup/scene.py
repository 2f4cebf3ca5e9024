"""Set-up: each side Human or AI; an AI side takes a difficulty preset or custom settings.

Everything comes from the game's description (`games.GAMES[name]`): side names, options
(one slider per `games.GameOption`), presets with their descriptions, and the algorithms
that can search it.  Also used during a game ("editing"): the play scene pushes it and
picks up the changed sides from the next move on.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.engine.search import playing_algorithms
from plyground.ai.student_code.heuristics import is_heuristic_file as file_in
from plyground.gui import kits, theme
from plyground.gui.describe import (
    describe_side,
    game_title,
    option_step,
    snap_option,
)
from plyground.gui.scenes.base import Scene
from plyground.gui.setup import custom_ai, description_text, from_file, volume
from plyground.gui.setup.custom_ai import cost_warning as cost_warning
from plyground.gui.setup.form import SetupForm
from plyground.gui.storage import settings
from plyground.gui.storage.settings import AI, CUSTOM, FROM_FILE, HUMAN, SideSetup
from plyground.gui.widgets import drawing, focus

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App

MATCHUPS = (
    ("Human vs AI", (HUMAN, AI)),
    ("AI vs Human", (AI, HUMAN)),
    ("Human vs Human", (HUMAN, HUMAN)),
    ("AI vs AI", (AI, AI)),
)
_ICON_CACHE: dict[tuple[str, tuple[int, int]], pygame.Surface] = {}


SEED_TIPS = {
    True: "The seed of the dice and the AIs' random choices: the same seed rolls the same dice",
    False: "The seed of the AIs' random choices: the same seed replays the same series",
}


class SetupScene(Scene):
    """Choose who plays each side, then Start (or Apply when editing a running game)."""

    title = "setup"

    def __init__(self, app: App, game_name: str, editing: bool = False) -> None:
        super().__init__(app)
        self.game_name = game_name
        self.editing = editing
        self.factory: Any = settings.game_class(game_name)
        self.game = app.settings.make_game(game_name)
        self.sides = [dataclasses.replace(s) for s in app.settings.sides[game_name]]
        self.options = dict(app.settings.options_for(game_name))
        """The game's option values being chosen (stored on Start or Back)."""
        self.seed_text = str(app.settings.seed)
        self.form = self._new_form()
        """This layout's widgets, what each means and the texts beside them (the helpers
        build into it: `gui.setup.form`)."""
        self.cost_warnings: dict[tuple[Any, ...], str] = {}
        self.file_dialog: tuple[Any, int, str] | None = None
        """The open file dialog, the side it is for and what it picks ("agent", "heuristic")."""
        self.focus = focus.Focus()
        self.bottom_labels: list[tuple[str, tuple[int, int]]] = []
        self.option_values: list[tuple[str, pygame.Rect]] = []
        self.presets = settings.preset_names(game_name)
        self.algorithms = list(playing_algorithms(self.factory))
        for side in self.sides:
            side.custom = side.custom_config(game_name)  # a depth-limited one fitted to the game
            search = side.custom.search
            if search.heuristic not in (None, *self.game.heuristics) and not file_in(
                search.heuristic
            ):
                search = dataclasses.replace(search, heuristic=None)
                side.custom = dataclasses.replace(side.custom, search=search)
            if side.preset not in (CUSTOM, FROM_FILE, *self.presets):
                side.preset = self.presets[min(1, len(self.presets) - 1)]

    # -- layout ---------------------------------------------------------------------

    def _new_form(self) -> SetupForm:
        return SetupForm(self.manager, self.app.metrics, self.add)

    def build(self) -> None:
        """Matchup buttons, one card per side, game options and Start/Back."""
        m = self.app.metrics
        w, h = self.app.size
        form = self.form = self._new_form()
        top = m.pad + m.font_size(34) + m.px(34)
        row_h = m.button_h
        # One-click matchups.
        labels = [label for label, _ in MATCHUPS]
        font = theme.font(m.widget_font, "semibold")
        widths = [font.size(label)[0] + m.px(30) for label in labels]
        total = sum(widths) + m.gap * 3
        x = (w - total) // 2
        kinds = (self.sides[0].kind, self.sides[1].kind)
        for (label, pair), bw in zip(MATCHUPS, widths, strict=False):
            form.button(
                pygame.Rect(x, top, bw, row_h),
                label,
                "matchup",
                MATCHUPS.index((label, pair)),
                selected=pair == kinds,
            )
            x += bw + m.gap
        # Side cards.
        bottom_bar = h - m.pad - m.button_h
        room_top = top + row_h + m.pad
        room = bottom_bar - m.pad - room_top
        custom = any(s.is_ai and s.preset == CUSTOM for s in self.sides)
        # Custom: seven rows of fields and a note; a preset: the menu and up to five lines.
        wanted = m.px(58) + m.button_h * (7 if custom else 3) + m.gap * (10 if custom else 4)
        wanted += round(m.font_size(15) * 1.45 * (4 if custom else 6))
        card_w = min(m.px(440), (w - 2 * m.pad - m.pad) // 2)
        text_w = card_w - 2 * m.gap - m.px(8)
        for side in self.sides:  # room for the whole description in its largest size
            lines = describe_side(side, self.game)
            if side.is_ai and side.preset != CUSTOM:
                text_h = description_text.height(lines, text_w, description_text.SIZES[0], m)
                wanted = max(wanted, m.px(76) + m.button_h * 2 + m.gap * 3 + text_h)
        card_h = min(room, max(wanted, m.px(300)))
        cards_top = room_top + (room - card_h) // 4
        left = (w - (2 * card_w + m.pad)) // 2
        form.card_rects = [
            pygame.Rect(left + i * (card_w + m.pad), cards_top, card_w, card_h) for i in range(2)
        ]
        for index, (card, side) in enumerate(zip(form.card_rects, self.sides, strict=False)):
            self._build_side(index, card, side)
        # Bottom bar.
        back = pygame.Rect(m.pad, bottom_bar, m.px(130), m.button_h)
        form.button(back, "Cancel" if self.editing else "Back", "back")
        start = pygame.Rect(0, bottom_bar, m.px(180), m.button_h)
        start.right = w - m.pad
        form.button(start, "Apply" if self.editing else "Start game", "start", primary=True)
        self.bottom_labels = []
        self.option_values = []
        if not self.editing:
            self._build_options(back.right + m.pad, start.x - m.pad, bottom_bar)
        volume.build(form, back, start, self.editing, self.app.settings.sound_volume, w)

    def _build_options(self, left: int, right: int, y: int) -> None:
        """One slider per game option, and the seed where dice roll or two AIs play a series,
        between Back and Start."""
        m = self.app.metrics
        x = left
        for option in self.factory.options:
            label_w = theme.font(m.font_size(14)).size(option.title)[0] + m.px(10)
            slider_w, value_w = m.px(150), m.px(44)
            rect = pygame.Rect(x + label_w, y, slider_w, m.button_h)
            if rect.right + value_w > right:
                break
            value = self.options.get(option.name, option.default)
            slider = self.add(
                pygame_gui.elements.UIHorizontalSlider(
                    rect,
                    value,
                    (option.minimum, option.maximum),
                    self.manager,
                    click_increment=option_step(option),
                )
            )
            slider.set_tooltip(f"{option.title}: {option.help} ({option.minimum}-{option.maximum})")
            self.form.ids[slider] = ("option", self.factory.options.index(option))
            self.bottom_labels.append((option.title, (x, rect.centery)))
            value_rect = pygame.Rect(rect.right, y, value_w, m.button_h)
            self.option_values.append((option.name, value_rect))
            x = value_rect.right + m.pad
        if self.factory.stochastic or all(side.is_ai for side in self.sides):
            label_w = m.px(48)
            rect = pygame.Rect(x + label_w, y, m.px(100), m.button_h)
            if rect.right > right:
                return
            entry = self.add(pygame_gui.elements.UITextEntryLine(rect, self.manager))
            entry.set_text(self.seed_text)
            entry.set_allowed_characters("numbers")
            entry.set_text_length_limit(9)
            entry.set_tooltip(SEED_TIPS[bool(self.factory.stochastic)])
            self.form.ids[entry] = ("seed", -1)
            self.bottom_labels.append(("Seed", (x, rect.centery)))

    def _build_side(self, index: int, card: pygame.Rect, side: SideSetup) -> None:
        m = self.app.metrics
        form = self.form
        inner = card.inflate(-2 * m.gap - m.px(8), 0)
        y = card.y + m.px(58)
        half = (inner.width - m.gap) // 2
        form.button(
            pygame.Rect(inner.x, y, half, m.button_h),
            "Human",
            "kind_human",
            index,
            selected=not side.is_ai,
        )
        form.button(
            pygame.Rect(inner.x + half + m.gap, y, half, m.button_h),
            "AI",
            "kind_ai",
            index,
            selected=side.is_ai,
        )
        y += m.button_h + m.gap * 2
        if not side.is_ai:
            form.descriptions.append(
                (
                    pygame.Rect(inner.x, y, inner.width, card.bottom - y),
                    ["Plays with the mouse or the keyboard.", self._keys_text()],
                )
            )
            return
        label_w = m.px(102)
        field = pygame.Rect(inner.x + label_w, y, inner.width - label_w, m.button_h)
        form.dropdown([*self.presets, CUSTOM, FROM_FILE], side.preset, field, "preset", index)
        form.field_labels.append((index, "Difficulty", (inner.x, field.centery)))
        y += m.button_h + m.gap
        rects = (card, inner, field)
        if side.preset == FROM_FILE:  # the player's own file: gui/setup/from_file.py
            redraw = self.app.request_frame
            return from_file.build(form, side, index, self.game, rects, y, redraw)
        if side.preset != CUSTOM:
            form.descriptions.append(
                (
                    pygame.Rect(inner.x, y + m.px(4), inner.width, card.bottom - y - m.px(14)),
                    describe_side(side, self.game),
                )
            )
            return
        custom_ai.build(form, side, index, self.game, self.algorithms, rects, y)

    def browse_file(self, index: int, target: str) -> None:
        """Open the file dialog for side `index`'s agent or heuristic (`target`)."""
        self.file_dialog = (from_file.browse(self, target), index, target)

    def side_warning(self, index: int) -> str:
        """The cost warning for side `index` when it is a Custom AI ("" otherwise)."""
        return custom_ai.side_warning(self.sides[index], self.game, self.cost_warnings)

    def _warnings(self) -> list[str]:
        return [self.side_warning(index) for index in range(len(self.sides))]

    def clear(self) -> None:
        """Drop the widgets and the form that placed them."""
        super().clear()
        self.form = self._new_form()

    def _draw_faded_icon(self, surface: pygame.Surface, card: pygame.Rect) -> None:
        """The game's picture, faded, filling a human side's card."""
        m = self.app.metrics
        top = card.y + m.px(58) + m.button_h + m.px(90)
        area = pygame.Rect(card.x + m.pad, top, card.width - 2 * m.pad, card.bottom - m.pad - top)
        if area.height < m.px(90):
            return
        key = (self.game_name, area.size)
        image = _ICON_CACHE.get(key)
        if image is None:
            image = pygame.Surface(area.size, pygame.SRCALPHA)
            kits.kit_for(self.game_name).draw_icon(image, image.get_rect(), 0.0)
            image.set_alpha(85)
            _ICON_CACHE.clear()
            _ICON_CACHE[key] = image
        surface.blit(image, area)

    def _keys_text(self) -> str:
        return kits.kit_for(self.game_name).keys_help

    def rebuild(self) -> None:
        """Rebuild the widgets after a choice changed which fields exist."""
        self.clear()
        self.build()

    # -- events ---------------------------------------------------------------------

    def focus_items(self) -> list[focus.Item]:
        """The fields the arrows move between, in build order."""
        return [(key, element.rect, element) for element, key in self.form.ids.items()]

    def keys_help(self) -> list[tuple[str, str]]:
        """The set-up's keys, then the game's own in play."""
        from plyground.gui.describe import game_title

        return [
            ("← → ↑ ↓", "move the focus (a focused slider: ← → change it)"),
            ("Enter  Space", "use the focused button; open the focused list (↑ ↓ Enter pick)"),
            ("Enter", "start the game"),
            ("Esc", "back to the menu (an open list or a text box lets go first)"),
            (f"{game_title(self.game_name)} in play", self._keys_text()),
        ]

    def on_focus_key(self, key: int) -> bool:
        """Arrows move the focus (Left/Right move a focused slider); Enter or Space presses
        the focused button or opens the focused drop-down (then Up/Down and Enter pick)."""
        items = self.focus_items()
        if key not in focus.ARROWS and (key not in focus.USE_KEYS or not self.focus.current(items)):
            return False
        item = self.focus.on_key(key, items)
        if item is not None and isinstance(item[2], pygame_gui.elements.UIButton):
            focus.press(item[2])
        elif item is not None and isinstance(item[2], pygame_gui.elements.UITextEntryLine):
            focus.type_into(self.manager, item[2])  # keys are text now; Esc gives them back
        return True

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The keyboard focus ring."""
        for rect in self.focus.ring_rects(self.focus_items()):
            focus.draw_ring(surface, rect, self.app.metrics)

    def handle(self, event: pygame.event.Event) -> bool:
        """Widget events, Enter to start and Esc to go back."""
        answer = from_file.handle(event, self.form.ids, self.sides, self.game, self.file_dialog)
        if answer.dialog_done:
            self.file_dialog = None
        if answer.browse is not None:
            self.browse_file(*answer.browse)
        if answer.rebuild:
            self.rebuild()
        if answer.used:  # the file fields and their dialog
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                # An open list, then a text box with the keyboard, let go first.
                if not focus.close_dropdowns(self.widgets) and not focus.stop_typing(self.manager):
                    self.back()
                return True
            if self.on_focus_key(event.key):
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()
                return True
            return False
        element = getattr(event, "ui_element", None)
        if element not in self.form.ids:
            return False
        action, index = self.form.ids[element]
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if action == "matchup":
                for side, kind in zip(self.sides, MATCHUPS[index][1], strict=False):
                    side.kind = kind
                self.rebuild()
            elif action in ("kind_human", "kind_ai"):
                self.sides[index].kind = HUMAN if action == "kind_human" else AI
                self.rebuild()
            elif action == "back":
                self.back()
            elif action == "start":
                self.start()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            text = event.text
            if action == "preset":
                self.sides[index].preset = text
            elif action in ("algorithm", "heuristic", "time", "budget"):
                custom_ai.change_side(self.sides[index], action, text)
            self.rebuild()
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action in (
            "depth",
            "exploration",
            "randomness",
        ):
            custom_ai.change_side(self.sides[index], action, event.value)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "volume":
            volume.set_volume(self.app, float(event.value) / 100)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "option":
            option = self.factory.options[index]
            self.options[option.name] = snap_option(option, event.value)
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and action == "seed":
            self.seed_text = event.text
            return True
        return False

    def commit(self) -> None:
        """Store the choices in the settings and save them."""
        stored = self.app.settings
        stored.sides[self.game_name] = [dataclasses.replace(s) for s in self.sides]
        stored.last_game = self.game_name
        if not self.editing:
            for name, value in self.options.items():
                stored.set_option(self.game_name, name, value)
            try:
                stored.seed = int(self.seed_text or 0)
            except ValueError:
                stored.seed = 0
        settings.save(stored)

    def start(self) -> None:
        """Start the match (or apply the changes to the running one); a side's file that
        cannot play, or options whose table cannot be built on this machine (`ai.engine.cost`), are
        refused with the reason."""
        from plyground.ai.engine.cost import option_refusal

        problem = from_file.problems(self.sides, self.game)
        if problem:  # a side's file cannot play: say why, stay
            self.app.toast(f"Cannot start: {problem}", theme.DANGER, seconds=6)
            return
        refusal = None if self.editing else option_refusal(self.factory, self.options)
        if refusal is not None:
            self.app.toast(f"Cannot start: {refusal}.", theme.WARNING, seconds=9)
            return
        self.commit()
        if self.editing:
            self.app.pop()
            return
        self.app.switch("play", game_name=self.game_name)

    def back(self) -> None:
        """Leave without starting (choices made so far are remembered, except when editing)."""
        if not self.editing:
            self.commit()
        self.app.pop()

    # -- drawing --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """Title, the side cards' frames and texts (widgets are drawn on top by the app)."""
        m = self.app.metrics
        w, _ = self.app.size
        title = (
            f"Change players — {game_title(self.game_name)}"
            if self.editing
            else game_title(self.game_name)
        )
        drawing.draw_text(
            surface, title, (w / 2, m.pad), m.font_size(34), theme.TEXT, "bold", anchor="midtop"
        )
        origin = getattr(self.factory, "origin", None)
        if callable(origin):  # a game from a file: where it comes from, and whose rights it has
            room = w - 2 * m.pad
            text = f"{origin()} · its code runs with your rights, like a script you run"
            size = drawing.fit_size(text, room, m.font_size(14), "regular", 11)
            cards = self.form.card_rects
            top = min(card.y for card in cards) if cards else m.px(150)
            drawing.draw_text(
                surface,
                drawing.ellipsize(text, room, size),
                (w / 2, top - m.gap * 0.6 - size / 2),
                size,
                theme.TEXT_DIM,
                anchor="center",
            )
        names = tuple(self.factory.side_names)
        for index, card in enumerate(self.form.card_rects):
            drawing.shadow(surface, card, m.radius, spread=m.px(14))
            drawing.rounded_rect(surface, card, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
            colour = theme.PLAYER_COLOURS[index]
            drawing.circle(surface, colour, (card.x + m.gap + m.px(14), card.y + m.px(30)), m.px(9))
            who = f"{names[index]}" + (" · moves first" if index == 0 else "")
            drawing.draw_text(
                surface,
                who,
                (card.x + m.gap + m.px(32), card.y + m.px(30)),
                m.font_size(18),
                theme.TEXT,
                "semibold",
                anchor="midleft",
            )
        self._draw_values(surface)

    def _draw_values(self, surface: pygame.Surface) -> None:
        """The fields' labels and numbers, the volume, the descriptions and warnings."""
        m = self.app.metrics
        form = self.form
        warnings = self._warnings()
        custom_ai.draw_values(surface, form, self.sides)
        volume.draw(surface, form)
        for index, card in enumerate(form.card_rects):
            if not self.sides[index].is_ai:
                self._draw_faded_icon(surface, card)
        for rect, lines in form.descriptions:
            bottom = custom_ai.text_bottom(form, rect, warnings)
            description_text.draw(surface, rect, lines, bottom, m)
        custom_ai.draw_warnings(surface, form, warnings)
        for text, pos in self.bottom_labels:
            drawing.draw_text(surface, text, pos, m.font_size(14), theme.TEXT_DIM, anchor="midleft")
        for name, rect in self.option_values:
            drawing.draw_text(
                surface,
                str(self.options.get(name, "")),
                rect.center,
                m.font_size(16),
                theme.TEXT,
                "semibold",
                anchor="center",
            )
