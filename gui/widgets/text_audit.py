"""The layout audit's recorder: every text a frame draws, where it lands, and what it cuts.

`with TextRecorder() as recorder: app.draw()` collects a `DrawnText` for each text drawn
through `drawing.draw_text` (its rect on the window, the area it was drawn into, and whether
`ellipsize` shortened it), and `button_texts(manager)` the pygame_gui buttons' and
drop-downs' captions with the room they have inside. `problems()` names what does not fit: a
text outside its area or the window, two texts on top of each other, two column titles that
nearly touch, a shortened text with no way to read the rest, a caption wider than its widget.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from types import TracebackType

import pygame

from plyground.gui.widgets import drawing
from plyground.gui.widgets.drop_down import caption_room, shown_option

ELLIPSIS = "…"
OVERLAP_PIXELS = 1
"""Two texts overlap when their letters' rects share more than this many pixels each way."""
HEADER_GAP = 12
"""The least room between two neighbouring titles on one row (column headers), in pixels."""


@dataclass(frozen=True)
class DrawnText:
    """One text a frame drew: the string, its rect and its area on the window."""

    text: str
    rect: pygame.Rect
    """Where its letters are (their ink, not the line's spacing above and below)."""
    area: pygame.Rect
    """Where it was drawn into: the clip of the surface (a subsurface: its place)."""
    on_window: bool
    """Drawn on the window (or a part of it), not on a picture blitted later."""
    whole: str | None = None
    """The text before `ellipsize` shortened it, when it did."""

    @property
    def shortened(self) -> bool:
        """Whether the text was cut with an ellipsis."""
        return self.whole is not None


@dataclass(frozen=True)
class ButtonText:
    """A pygame_gui button's or drop-down's caption and the room the widget gives it."""

    text: str
    width: int
    """The caption's width in the widget's font."""
    rect: pygame.Rect
    room: int = -1
    """The widget's inner width: less its shadow, border, rounded corners and the text's
    padding, as pygame_gui lays a caption out (-1: the whole rect less 4 pixels)."""
    kind: str = "button"

    @property
    def fits(self) -> bool:
        """Whether the caption fits inside the widget."""
        room = self.room if self.room >= 0 else self.rect.width - 4
        return self.width <= room


@dataclass
class TextRecorder:
    """Records the texts drawn while it is active (a context manager)."""

    texts: list[DrawnText] = field(default_factory=list)
    _shortened: dict[str, str] = field(default_factory=dict)

    def __enter__(self) -> TextRecorder:
        drawing.TEXT_WATCHERS.append(self._drawn)
        drawing.SHORTEN_WATCHERS.append(self._shorten)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        drawing.TEXT_WATCHERS.remove(self._drawn)
        drawing.SHORTEN_WATCHERS.remove(self._shorten)

    def _shorten(self, whole: str, shortened: str) -> None:
        self._shortened[shortened] = whole

    def _drawn(
        self, surface: pygame.Surface, text: str, rect: pygame.Rect, image: pygame.Surface
    ) -> None:
        window = pygame.display.get_surface()
        offset = surface.get_abs_offset()
        ink = image.get_bounding_rect()
        corner = (rect.x + offset[0], rect.y + offset[1])
        placed = ink.move(corner) if ink.width else rect.move(offset)
        area = surface.get_clip().move(offset)
        on_window = window is not None and surface.get_abs_parent() is window
        self.texts.append(DrawnText(text, placed, area, on_window))

    def on_window(self) -> list[DrawnText]:
        """The texts drawn on the window, each once (a text drawn twice in place counts once)."""
        seen: set[tuple[str, tuple[int, int, int, int]]] = set()
        kept: list[DrawnText] = []
        for drawn in self.texts:
            rect = drawn.rect
            key = (drawn.text, (rect.x, rect.y, rect.width, rect.height))
            if drawn.on_window and key not in seen and drawn.text.strip():
                seen.add(key)
                kept.append(replace(drawn, whole=self._shortened.get(drawn.text)))
        return kept


def button_texts(manager: object) -> list[ButtonText]:
    """Every visible pygame_gui button's and closed drop-down's caption, with its width in
    the widget's font and the widget's rect and inner width (a drop-down's caption is its
    selected option, in the room its option button leaves beside the ▼)."""
    from pygame_gui.core.utility import translate
    from pygame_gui.elements import UIButton, UIDropDownMenu

    found: list[ButtonText] = []
    group = manager.get_sprite_group()  # type: ignore[attr-defined]
    for element in group.sprites():
        if not element.visible:
            continue
        if isinstance(element, UIDropDownMenu):
            shown = shown_option(element)
            if shown is None:
                continue  # open: the list shows every option
            option = element.selected_option
            text = translate(option[0] if isinstance(option, tuple) else option)
            if shown.font is not None and text:
                width = shown.font.size(text)[0]
                rect = pygame.Rect(element.rect)
                found.append(ButtonText(text, width, rect, caption_room(shown), "drop-down"))
            continue
        if not isinstance(element, UIButton) or not element.text or element.font is None:
            continue
        if isinstance(element.parent_element, UIDropDownMenu):
            continue  # its caption is the drop-down's, read above
        text = translate(element.text)
        rect = pygame.Rect(element.rect)
        found.append(ButtonText(text, element.font.size(text)[0], rect, caption_room(element)))
    return found


def is_header(text: str) -> bool:
    """Whether a text is a column or section title: written in capitals ('CUT-OFFS')."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and text == text.upper()


def crowded_headers(texts: Iterable[DrawnText], gap: int = HEADER_GAP) -> list[str]:
    """Neighbouring titles on one row closer than `gap` pixels (they read as one title)."""
    headers = sorted((t for t in texts if is_header(t.text)), key=lambda t: t.rect.x)
    found: list[str] = []
    for index, item in enumerate(headers):
        row = [
            other
            for other in headers[index + 1 :]
            if min(item.rect.bottom, other.rect.bottom) - max(item.rect.top, other.rect.top)
            >= min(item.rect.height, other.rect.height) / 2
            and other.rect.x >= item.rect.centerx
        ]
        if not row:
            continue
        neighbour = min(row, key=lambda other: other.rect.x)
        room = neighbour.rect.x - item.rect.right
        if room < gap:
            found.append(
                f"titles {room} px apart (fewer than {gap}): {item.text!r} at "
                f"{tuple(item.rect)} and {neighbour.text!r} at {tuple(neighbour.rect)}"
            )
    return found


def overlapping(first: pygame.Rect, second: pygame.Rect) -> bool:
    """Whether two texts' letters cover each other."""
    common = first.clip(second)
    return common.width > OVERLAP_PIXELS and common.height > OVERLAP_PIXELS


def problems(
    texts: Iterable[DrawnText],
    window: pygame.Rect,
    readable: Iterable[pygame.Rect] = (),
    buttons: Iterable[ButtonText] = (),
    panels: Iterable[pygame.Rect] = (),
) -> list[str]:
    """What does not fit, one line each: outside the window, its area or the panel its middle
    is in, overlapping, cut short outside the `readable` areas (where pointing or a key shows
    the whole text), or a button caption wider than its button or outside the window."""
    found: list[str] = []
    drawn = list(texts)
    open_areas = list(readable)
    boxes = list(panels)
    for item in drawn:
        home = next((box for box in boxes if box.collidepoint(item.rect.center)), None)
        if not window.contains(item.rect):
            found.append(f"outside the window {tuple(window)}: {item.text!r} at {tuple(item.rect)}")
        elif not item.area.contains(item.rect):
            found.append(
                f"outside its area {tuple(item.area)}: {item.text!r} at {tuple(item.rect)}"
            )
        elif home is not None and not home.contains(item.rect):
            found.append(f"outside its panel {tuple(home)}: {item.text!r} at {tuple(item.rect)}")
        if item.shortened and not any(a.collidepoint(item.rect.center) for a in open_areas):
            found.append(f"cut short: {item.text!r} (of {item.whole!r})")
    for index, item in enumerate(drawn):
        for other in drawn[index + 1 :]:
            if overlapping(item.rect, other.rect):
                found.append(
                    f"overlap: {item.text!r} at {tuple(item.rect)} and {other.text!r} at "
                    f"{tuple(other.rect)}"
                )
    found += crowded_headers(drawn)
    for button in buttons:
        if not button.fits:
            found.append(
                f"{button.kind} caption wider than its {button.kind} ({button.width} > "
                f"{button.room} px inside): {button.text!r} at {tuple(button.rect)}"
            )
        if not window.contains(button.rect):
            found.append(
                f"{button.kind} outside the window: {button.text!r} at {tuple(button.rect)}"
            )
    return found
