"""Set-up: each side Human or AI; an AI side takes a difficulty preset or custom settings.

Everything comes from the game's description (`games.GAMES[name]`): side names, options
(one slider per `games.GameOption`), presets with their descriptions, and the algorithms
that can search it.  Also used during a game ("editing"): the play scene pushes it and
picks up the changed sides from the next move on.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pygame
import pygame_gui

from ai.search import MAX_DEPTH, algorithms_for
from gui import drawing, kits, settings, theme
from gui.describe import (
    ALGORITHM_NAMES,
    TIME_LIMITS,
    describe_side,
    game_title,
    option_step,
    snap_option,
)
from gui.drop_down import drop_down
from gui.scenes.base import Scene
from gui.settings import AI, CUSTOM, HUMAN, SideSetup
from gui.sound import sounds

MATCHUPS = (
    ("Human vs AI", (HUMAN, AI)),
    ("AI vs Human", (AI, HUMAN)),
    ("Human vs Human", (HUMAN, HUMAN)),
    ("AI vs AI", (AI, AI)),
)
_ICON_CACHE: dict[tuple[str, tuple[int, int]], pygame.Surface] = {}
RANDOMNESS_MAX = 2.0
"""The custom randomness slider's range (`ai.players.PlayerConfig` allows 0-2)."""
RANDOMNESS_STEP = 0.05


def cost_warning(state: Any, algorithm: str, depth: int | None, time_limit: float | None) -> str:
    """A warning for a Custom AI whose search would take too long (`ai.cost.judge`), with a
    time limit to try; "" when it finishes in reasonable time.  It never blocks the start."""
    import ai.cost

    if algorithm not in ai.cost.NODES_PER_SECOND or state.is_terminal():
        return ""
    try:
        verdict = ai.cost.judge(state, algorithm, depth, time_limit)
    except Exception:  # an estimate is advice: without one, say nothing
        return ""
    if verdict.level == "ok":
        return ""
    what = "Solving" if depth is None else f"Depth {depth}"
    size = (
        f"about {ai.cost.format_count(verdict.nodes)} positions, "
        f"{ai.cost.format_duration(verdict.seconds)}, estimated"
    )
    if verdict.level == "refuse":
        return (
            f"{what} cannot finish in reasonable time ({size}). Choose a time limit such as "
            "10 s: the AI then plays its deepest finished search."
        )
    return f"{what} may take a while ({size}). A time limit such as 5 s keeps moves quick."


class SetupScene(Scene):
    """Choose who plays each side, then Start (or Apply when editing a running game)."""

    title = "setup"

    def __init__(self, app: Any, game_name: str, editing: bool = False) -> None:
        super().__init__(app)
        self.game_name = game_name
        self.editing = editing
        self.factory: Any = settings.game_class(game_name)
        self.game = app.settings.make_game(game_name)
        self.sides = [dataclasses.replace(s) for s in app.settings.sides[game_name]]
        self.options = dict(app.settings.options_for(game_name))
        """The game's option values being chosen (stored on Start or Back)."""
        self.seed_text = str(app.settings.seed)
        self.ids: dict[Any, tuple[str, int]] = {}
        self.descriptions: list[tuple[pygame.Rect, list[str]]] = []
        self.card_rects: list[pygame.Rect] = []
        self._cost_warnings: dict[tuple[Any, ...], str] = {}
        self.bottom_labels: list[tuple[str, tuple[int, int]]] = []
        self.option_values: list[tuple[str, pygame.Rect]] = []
        self.volume_label: tuple[int, int] | None = None
        self.volume_value: pygame.Rect | None = None
        self.presets = settings.preset_names(game_name)
        self.algorithms = list(algorithms_for(self.factory))
        for side in self.sides:
            if side.algorithm not in self.algorithms:
                side.algorithm = self.algorithms[0]
            if side.heuristic is not None and side.heuristic not in self.game.heuristics:
                side.heuristic = None
            if side.preset != CUSTOM and side.preset not in self.presets:
                side.preset = self.presets[min(1, len(self.presets) - 1)]

    # -- layout ---------------------------------------------------------------------

    def _button(
        self,
        rect: pygame.Rect,
        text: str,
        action: str,
        index: int = -1,
        selected: bool = False,
        primary: bool = False,
        tip: str | None = None,
    ) -> pygame_gui.elements.UIButton:
        object_id = "#primary" if primary else ("#selected" if selected else None)
        button = self.add(
            pygame_gui.elements.UIButton(
                rect, text, self.manager, object_id=object_id, tool_tip_text=tip
            )
        )
        self.ids[button] = (action, index)
        return button  # type: ignore[no-any-return]

    def _dropdown(
        self,
        options: list[str],
        current: str,
        rect: pygame.Rect,
        action: str,
        index: int = -1,
        up: bool = False,
    ) -> None:
        if current not in options:
            current = options[0]
        menu = self.add(
            drop_down(
                list[str | tuple[str, str]](options),
                current,
                rect,
                self.manager,
                object_id="#dropup" if up else None,
            )
        )
        self.ids[menu] = (action, index)

    def build(self) -> None:
        """Matchup buttons, one card per side, game options and Start/Back."""
        m = self.app.metrics
        w, h = self.app.size
        self.ids.clear()
        self.descriptions = []
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
            self._button(
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
        card_h = min(room, max(wanted, m.px(300)))
        cards_top = room_top + (room - card_h) // 4
        card_w = min(m.px(440), (w - 2 * m.pad - m.pad) // 2)
        left = (w - (2 * card_w + m.pad)) // 2
        self.card_rects = [
            pygame.Rect(left + i * (card_w + m.pad), cards_top, card_w, card_h) for i in range(2)
        ]
        for index, (card, side) in enumerate(zip(self.card_rects, self.sides, strict=False)):
            self._build_side(index, card, side)
        # Bottom bar.
        back = pygame.Rect(m.pad, bottom_bar, m.px(130), m.button_h)
        self._button(back, "Cancel" if self.editing else "Back", "back")
        start = pygame.Rect(0, bottom_bar, m.px(180), m.button_h)
        start.right = w - m.pad
        self._button(start, "Apply" if self.editing else "Start game", "start", primary=True)
        self.bottom_labels = []
        self.option_values = []
        if not self.editing:
            self._build_options(back.right + m.pad, start.x - m.pad, bottom_bar)
        self._build_volume(back, start)

    def _build_volume(self, back: pygame.Rect, start: pygame.Rect) -> None:
        """The effects' volume: top right, or between Cancel and Apply while editing."""
        m = self.app.metrics
        label_w, slider_w, value_w = m.px(62), m.px(130), m.px(52)
        width = label_w + slider_w + value_w
        if self.editing:
            left = (back.right + start.x - width) // 2
            rect = pygame.Rect(left + label_w, back.y, slider_w, m.button_h)
        else:
            rect = pygame.Rect(0, m.pad, slider_w, m.button_h)
            rect.right = self.app.size[0] - m.pad - value_w
        slider = self.add(
            pygame_gui.elements.UIHorizontalSlider(
                rect,
                round(100 * self.app.settings.sound_volume),
                (0, 100),
                self.manager,
                click_increment=10,
            )
        )
        slider.set_tooltip("Volume of the sound effects (M mutes them while playing)")
        self.ids[slider] = ("volume", -1)
        self.volume_label = (rect.x - label_w, rect.centery)
        self.volume_value = pygame.Rect(rect.right, rect.y, value_w, rect.height)

    def _build_options(self, left: int, right: int, y: int) -> None:
        """One slider per game option, and the seed where dice roll, between Back and Start."""
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
            self.ids[slider] = ("option", self.factory.options.index(option))
            self.bottom_labels.append((option.title, (x, rect.centery)))
            value_rect = pygame.Rect(rect.right, y, value_w, m.button_h)
            self.option_values.append((option.name, value_rect))
            x = value_rect.right + m.pad
        if self.factory.stochastic:
            label_w = m.px(48)
            rect = pygame.Rect(x + label_w, y, m.px(100), m.button_h)
            if rect.right > right:
                return
            entry = self.add(pygame_gui.elements.UITextEntryLine(rect, self.manager))
            entry.set_text(self.seed_text)
            entry.set_allowed_characters("numbers")
            entry.set_text_length_limit(9)
            entry.set_tooltip("The seed of the dice: the same seed rolls the same dice")
            self.ids[entry] = ("seed", -1)
            self.bottom_labels.append(("Seed", (x, rect.centery)))

    def _build_side(self, index: int, card: pygame.Rect, side: SideSetup) -> None:
        m = self.app.metrics
        inner = card.inflate(-2 * m.gap - m.px(8), 0)
        y = card.y + m.px(58)
        half = (inner.width - m.gap) // 2
        self._button(
            pygame.Rect(inner.x, y, half, m.button_h),
            "Human",
            "kind_human",
            index,
            selected=not side.is_ai,
        )
        self._button(
            pygame.Rect(inner.x + half + m.gap, y, half, m.button_h),
            "AI",
            "kind_ai",
            index,
            selected=side.is_ai,
        )
        y += m.button_h + m.gap * 2
        if not side.is_ai:
            self.descriptions.append(
                (
                    pygame.Rect(inner.x, y, inner.width, card.bottom - y),
                    ["Plays with the mouse or the keyboard.", self._keys_text()],
                )
            )
            return
        label_w = m.px(102)
        field = pygame.Rect(inner.x + label_w, y, inner.width - label_w, m.button_h)
        self._dropdown([*self.presets, CUSTOM], side.preset, field, "preset", index)
        self.field_labels.append((index, "Difficulty", (inner.x, field.centery)))
        y += m.button_h + m.gap
        if side.preset != CUSTOM:
            self.descriptions.append(
                (
                    pygame.Rect(inner.x, y + m.px(4), inner.width, card.bottom - y),
                    describe_side(side, self.game),
                )
            )
            return
        self._build_custom(index, card, inner, field, y)

    def _build_custom(
        self, index: int, card: pygame.Rect, inner: pygame.Rect, field: pygame.Rect, y: int
    ) -> None:
        """Algorithm, depth, heuristic and time limit for a Custom AI side, and a note."""
        m = self.app.metrics
        side = self.sides[index]
        rows: list[tuple[str, Any]] = []
        rows.append(
            (
                "Algorithm",
                lambda r: self._dropdown(
                    [ALGORITHM_NAMES[a] for a in self.algorithms],
                    ALGORITHM_NAMES[side.algorithm],
                    r,
                    "algorithm",
                    index,
                ),
            )
        )
        rows.append(("Depth", lambda r: self._depth_slider(r, side, index)))
        heuristics = list(self.game.heuristics)
        rows.append(
            (
                "Heuristic",
                lambda r: self._dropdown(
                    heuristics, side.heuristic or self.game.default_heuristic, r, "heuristic", index
                ),
            )
        )
        limit_text = next((t for t, v in TIME_LIMITS if v == side.time_limit), TIME_LIMITS[0][0])
        rows.append(
            (
                "Time limit",
                lambda r: self._dropdown([t for t, _ in TIME_LIMITS], limit_text, r, "time", index),
            )
        )
        rows.append(("Randomness", lambda r: self._randomness_slider(r, side, index)))
        # Build bottom-up so each drop-down's list is drawn above the fields below it.
        placed = []
        for label, _ in rows:
            placed.append((label, pygame.Rect(field.x, y, field.width, m.button_h)))
            y += m.button_h + m.gap
        for (label, rect), (_, make) in reversed(list(zip(placed, rows, strict=False))):
            make(rect)
            self.field_labels.append((index, label, (inner.x, rect.centery)))
        heuristic = self.game.heuristics.get(side.heuristic or self.game.default_heuristic)
        note = heuristic.description if heuristic is not None else ""
        self.descriptions.append(
            (
                pygame.Rect(inner.x, y, inner.width, card.bottom - y),
                [
                    note,
                    "Depth counts player decisions; dice rolls do not use it up."
                    if self.game.stochastic
                    else "",
                ],
            )
        )

    def side_warning(self, index: int) -> str:
        """The cost warning for side `index` when it is a Custom AI ("" otherwise)."""
        side = self.sides[index]
        if not side.is_ai or side.preset != CUSTOM:
            return ""
        key = (side.algorithm, side.depth, side.time_limit)
        if key not in self._cost_warnings:
            state = self.game.initial_state()
            self._cost_warnings[key] = cost_warning(state, *key)
        return self._cost_warnings[key]

    def _warning_box(self, index: int) -> tuple[pygame.Rect, list[str]] | None:
        """Where side `index`'s cost warning goes (the bottom of its card), and its lines."""
        text = self.side_warning(index)
        if not text or index >= len(self.card_rects):
            return None
        m = self.app.metrics
        card = self.card_rects[index]
        size = m.font_size(14)
        width = card.width - 2 * m.gap - m.px(24)
        lines = drawing.wrap(text, width, size)
        box = pygame.Rect(0, 0, width + m.px(16), round(size * 1.4) * len(lines) + m.px(12))
        box.midbottom = (card.centerx, card.bottom - m.px(10))
        return box, lines

    def _text_bottom(self, rect: pygame.Rect) -> int:
        """How far a card's description may go: above the card's cost warning, if any."""
        for index, card in enumerate(self.card_rects):
            placed = self._warning_box(index) if card.contains(rect) else None
            if placed is not None:
                return min(rect.bottom, placed[0].y - self.app.metrics.px(4))
        return int(rect.bottom)

    def _draw_cost_warnings(self, surface: pygame.Surface) -> None:
        """Each Custom AI card's cost warning, in a box at the bottom of the card."""
        m = self.app.metrics
        size = m.font_size(14)
        line_h = round(size * 1.4)
        for index in range(len(self.card_rects)):
            placed = self._warning_box(index)
            if placed is None:
                continue
            box, lines = placed
            drawing.rounded_rect(
                surface,
                box,
                theme.mix(theme.PANEL, theme.WARNING, 0.12),
                m.px(8),
                1,
                theme.mix(theme.PANEL_BORDER, theme.WARNING, 0.6),
            )
            for i, line in enumerate(lines):
                pos = (box.x + m.px(8), box.y + m.px(6) + i * line_h)
                drawing.draw_text(surface, line, pos, size, theme.WARNING)

    def _depth_slider(self, rect: pygame.Rect, side: SideSetup, index: int) -> None:
        value_w = self.app.metrics.px(34)
        limit = MAX_DEPTH
        slider = self.add(
            pygame_gui.elements.UIHorizontalSlider(
                pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
                min(side.depth, limit),
                (1, limit),
                self.manager,
                click_increment=1,
            )
        )
        self.ids[slider] = ("depth", index)
        self.depth_values.append(
            (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
        )

    def _randomness_slider(self, rect: pygame.Rect, side: SideSetup, index: int) -> None:
        value_w = self.app.metrics.px(40)
        slider = self.add(
            pygame_gui.elements.UIHorizontalSlider(
                pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
                min(side.randomness, RANDOMNESS_MAX),
                (0.0, RANDOMNESS_MAX),
                self.manager,
                click_increment=RANDOMNESS_STEP,
            )
        )
        slider.set_tooltip("Each move's value is jittered by up to this much (0: always the best)")
        self.ids[slider] = ("randomness", index)
        self.randomness_values.append(
            (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
        )

    def enter(self) -> None:
        """Fresh label lists, then the widgets."""
        self.field_labels: list[tuple[int, str, tuple[int, int]]] = []
        self.depth_values: list[tuple[int, pygame.Rect]] = []
        self.randomness_values: list[tuple[int, pygame.Rect]] = []
        super().enter()

    def clear(self) -> None:
        """Drop the widgets and the label positions that went with them."""
        super().clear()
        self.field_labels = []
        self.depth_values = []
        self.randomness_values = []
        self.volume_label = None
        self.volume_value = None

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

    def handle(self, event: pygame.event.Event) -> bool:
        """Widget events, Enter to start and Esc to go back."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()
                return True
            return False
        element = getattr(event, "ui_element", None)
        if element not in self.ids:
            return False
        action, index = self.ids[element]
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
            elif action == "algorithm":
                self.sides[index].algorithm = next(
                    a for a, n in ALGORITHM_NAMES.items() if n == text
                )
            elif action == "heuristic":
                self.sides[index].heuristic = text
            elif action == "time":
                self.sides[index].time_limit = dict(TIME_LIMITS)[text]
            self.rebuild()
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "depth":
            self.sides[index].depth = round(event.value)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "randomness":
            steps = round(float(event.value) / RANDOMNESS_STEP)
            self.sides[index].randomness = round(steps * RANDOMNESS_STEP, 2)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "volume":
            self.set_volume(float(event.value) / 100)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "option":
            option = self.factory.options[index]
            self.options[option.name] = snap_option(option, event.value)
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and action == "seed":
            self.seed_text = event.text
            return True
        return False

    def set_volume(self, volume: float) -> None:
        """The effects' volume (0-1), at once and remembered."""
        sounds().volume = volume
        self.app.settings.sound_volume = sounds().volume
        settings.save(self.app.settings)

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
        """Start the match (or apply the changes to the running one)."""
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
        names = tuple(self.factory.side_names)
        for index, card in enumerate(self.card_rects):
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
        """The numbers beside the sliders (randomness, volume) and the fields' labels."""
        m = self.app.metrics
        for index, rect in self.randomness_values:
            drawing.draw_text(
                surface,
                f"{self.sides[index].randomness:g}",
                rect.center,
                m.font_size(16),
                theme.TEXT,
                "semibold",
                anchor="center",
            )
        if self.volume_label is not None and self.volume_value is not None:
            size = m.font_size(14)
            drawing.draw_text(
                surface, "Volume", self.volume_label, size, theme.TEXT_DIM, anchor="midleft"
            )
            volume = "muted" if sounds().muted else f"{round(100 * sounds().volume)}%"
            drawing.draw_text(
                surface, volume, self.volume_value.center, size, theme.TEXT, anchor="center"
            )
        for _, label, pos in self.field_labels:
            drawing.draw_text(
                surface, label, pos, m.font_size(14), theme.TEXT_DIM, anchor="midleft"
            )
        for index, rect in self.depth_values:
            drawing.draw_text(
                surface,
                str(self.sides[index].depth),
                rect.center,
                m.font_size(16),
                theme.TEXT,
                "semibold",
                anchor="center",
            )
        for index, card in enumerate(self.card_rects):
            if not self.sides[index].is_ai:
                self._draw_faded_icon(surface, card)
        for rect, lines in self.descriptions:
            y = rect.y
            bottom = self._text_bottom(rect)
            for i, line in enumerate(text for text in lines if text):
                size = m.font_size(15 if i == 0 else 14)
                colour = theme.TEXT if i <= 1 else theme.TEXT_DIM
                for wrapped in drawing.wrap(
                    line, rect.width, size, "semibold" if i == 0 else "regular"
                ):
                    if y + size * 1.4 > bottom:
                        break
                    drawing.draw_text(
                        surface,
                        wrapped,
                        (rect.x, y),
                        size,
                        colour,
                        "semibold" if i == 0 else "regular",
                    )
                    y += round(size * 1.45)
                y += m.px(6)
        self._draw_cost_warnings(surface)
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
