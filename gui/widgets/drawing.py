"""Anti-aliased shapes and cached text: the drawing primitives every view shares."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import lru_cache

import pygame

from plyground.gui import theme
from plyground.gui.theme import Colour


class SurfaceCache:
    """Surfaces kept least-recently-used first, bounded by entries and by bytes of pixels."""

    def __init__(self, max_bytes: int, max_entries: int = 600) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.bytes = 0
        self._items: OrderedDict[Hashable, pygame.Surface] = OrderedDict()

    def get(self, key: Hashable) -> pygame.Surface | None:
        """The surface kept under `key` (now the most recently used), else None."""
        surface = self._items.get(key)
        if surface is not None:
            self._items.move_to_end(key)
        return surface

    def put(self, key: Hashable, surface: pygame.Surface) -> pygame.Surface:
        """Keep `surface` under `key`, dropping the least recently used over the limits."""
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= surface_bytes(old)
        self._items[key] = surface
        self.bytes += surface_bytes(surface)
        while len(self._items) > 1 and (
            len(self._items) > self.max_entries or self.bytes > self.max_bytes
        ):
            _, dropped = self._items.popitem(last=False)
            self.bytes -= surface_bytes(dropped)
        return surface

    def clear(self) -> None:
        """Forget every surface."""
        self._items.clear()
        self.bytes = 0

    def keys(self) -> list[Hashable]:
        """The keys, least recently used first."""
        return list(self._items)

    def values(self) -> list[pygame.Surface]:
        """The surfaces, least recently used first."""
        return list(self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(list(self._items))

    def __contains__(self, key: object) -> bool:
        return key in self._items


def surface_bytes(surface: pygame.Surface) -> int:
    """The bytes a surface's pixels take."""
    return surface.get_pitch() * surface.get_height()


TEXT_CACHE_BYTES = 16 * 1024 * 1024
SHAPE_CACHE_BYTES = 32 * 1024 * 1024
_CACHE_LIMIT = 600
_TEXT_CACHE = SurfaceCache(TEXT_CACHE_BYTES, _CACHE_LIMIT)
_SHAPE_CACHE = SurfaceCache(SHAPE_CACHE_BYTES, _CACHE_LIMIT)
SUPERSAMPLE = 3
GLOW_STEPS = 14


def cache_bytes() -> dict[str, int]:
    """Bytes of pixels each drawing cache holds now ('text', 'shapes')."""
    return {"text": _TEXT_CACHE.bytes, "shapes": _SHAPE_CACHE.bytes}


def cache_entries() -> dict[str, int]:
    """How many surfaces each drawing cache holds now ('text', 'shapes')."""
    return {"text": len(_TEXT_CACHE), "shapes": len(_SHAPE_CACHE)}


def clear_caches() -> None:
    """Forget every cached text, shape and text size (they are drawn again when needed)."""
    _TEXT_CACHE.clear()
    _SHAPE_CACHE.clear()
    text_size.cache_clear()


def _remember(cache: SurfaceCache, key: Hashable, surface: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_surface() is not None and surface.get_flags() & pygame.SRCALPHA:
        surface = surface.convert_alpha()  # the display's pixel format blits fastest
    return cache.put(key, surface)


def _blit_faded(
    target: pygame.Surface, image: pygame.Surface, pos: tuple[int, int], alpha: int
) -> None:
    """Blit a cached `image` at `alpha` (0-255) without copying it."""
    if alpha >= 255:
        target.blit(image, pos)
        return
    image.set_alpha(max(0, alpha))
    target.blit(image, pos)
    image.set_alpha(255)


TextWatcher = Callable[[pygame.Surface, str, pygame.Rect, pygame.Surface], None]
TEXT_WATCHERS: list[TextWatcher] = []
"""Called with every text `draw_text` draws (the surface drawn on, the text, its rect, its
picture): the layout audit."""
SHORTEN_WATCHERS: list[Callable[[str, str], None]] = []
"""Called with (whole text, the part drawn) whenever `ellipsize` shortens a text or a view
leaves lines out (`note_cut`)."""


REPLACEMENT = "\ufffd"
"""Drawn in place of what no font can draw: a lone surrogate (a name in another encoding)."""


def displayable(text: str) -> str:
    """`text` as the fonts can take it: lone surrogates and NULs become REPLACEMENT.

    A file name in another encoding, or a saved text with a broken escape, reaches the window
    as a str with lone surrogates, which a font cannot encode; it is drawn, never a crash.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join(REPLACEMENT if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text.replace("\x00", REPLACEMENT)


def text_surface(
    text: str, size: int, colour: Colour = theme.TEXT, weight: str = "regular"
) -> pygame.Surface:
    """Render `text` once and reuse it while it stays on screen (rendering is costly)."""
    key = (text, size, weight, colour)
    cached = _TEXT_CACHE.get(key)
    if cached is not None:
        return cached
    surface = theme.font(size, weight).render(displayable(text), True, colour)
    return _remember(_TEXT_CACHE, key, surface)


@lru_cache(maxsize=8192)
def text_size(text: str, size: int, weight: str = "regular") -> tuple[int, int]:
    """The pixel size `text` would take (remembered: layouts ask the same often)."""
    return theme.font(size, weight).size(displayable(text))


def draw_text(
    surface: pygame.Surface,
    text: str,
    pos: tuple[float, float],
    size: int,
    colour: Colour = theme.TEXT,
    weight: str = "regular",
    anchor: str = "topleft",
    alpha: int = 255,
) -> pygame.Rect:
    """Draw `text` with its `anchor` point (a pygame.Rect attribute name) at `pos`."""
    if not text:
        return pygame.Rect(int(pos[0]), int(pos[1]), 0, 0)
    image = text_surface(text, size, colour, weight)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    _blit_faded(surface, image, rect.topleft, alpha)
    for watcher in TEXT_WATCHERS:
        watcher(surface, text, rect, image)
    return rect


def blit_text(surface: pygame.Surface, text: str, image: pygame.Surface, rect: pygame.Rect) -> None:
    """Blit `image`, the rendered `text` (`text_surface`), at `rect`, and tell the layout
    audit as `draw_text` does: for views that place a label themselves (on a plate, say)."""
    surface.blit(image, rect)
    for watcher in TEXT_WATCHERS:
        watcher(surface, text, rect, image)


def ellipsize(text: str, width: int, size: int, weight: str = "regular") -> str:
    """`text`, shortened with an ellipsis so it fits in `width` pixels."""
    if text_size(text, size, weight)[0] <= width:
        return text
    whole = text
    while text and text_size(text + "…", size, weight)[0] > width:
        text = text[:-1]
    shortened = text.rstrip() + "…"
    note_cut(whole, shortened)
    return shortened


def note_cut(whole: str, shown: str) -> None:
    """Tell the layout audit that `shown` is all that is drawn of `whole` (lines that did
    not fit left out, or an ellipsis)."""
    for watcher in SHORTEN_WATCHERS:
        watcher(whole, shown)


def wrap(text: str, width: int, size: int, weight: str = "regular") -> list[str]:
    """Break `text` into lines no wider than `width` pixels (words kept whole where possible)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if text_size(candidate, size, weight)[0] <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return [ellipsize(line, width, size, weight) for line in lines]


def fit_parts(
    parts: Sequence[str], separator: str, width: int, size: int, weight: str = "regular"
) -> str:
    """The most of `parts` (whole, in order) joined by `separator` that fits in `width`
    pixels ("" when not even the first does): less said rather than a word cut."""
    shown = ""
    for part in parts:
        candidate = f"{shown}{separator}{part}" if shown else part
        if text_size(candidate, size, weight)[0] > width:
            break
        shown = candidate
    return shown


def fit_size(text: str, width: int, size: int, weight: str = "regular", smallest: int = 11) -> int:
    """The largest font size up to `size` at which `text` fits in `width` pixels."""
    while size > smallest and text_size(text, size, weight)[0] > width:
        size -= 1
    return size


def _supersampled(key: tuple[object, ...], size: tuple[int, int], paint: object) -> pygame.Surface:
    cached = _SHAPE_CACHE.get(key)
    if cached is not None:
        return cached
    w, h = max(1, size[0]), max(1, size[1])
    big = pygame.Surface((w * SUPERSAMPLE, h * SUPERSAMPLE), pygame.SRCALPHA)
    paint(big, SUPERSAMPLE)  # type: ignore[operator]
    small = pygame.transform.smoothscale(big, (w, h))
    return _remember(_SHAPE_CACHE, key, small)


def rounded_rect(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: Colour,
    radius: int,
    border: int = 0,
    border_colour: Colour | None = None,
    alpha: int = 255,
) -> None:
    """A smooth-cornered filled rectangle, optionally with a border (cached per size)."""
    if rect.width <= 0 or rect.height <= 0:
        return
    radius = max(0, min(radius, rect.width // 2, rect.height // 2))
    # Painted opaque once per shape; `alpha` (fades change it every frame) is applied at blit.
    key = ("rr", rect.size, colour, radius, border, border_colour)

    def paint(big: pygame.Surface, k: int) -> None:
        full = big.get_rect()
        if border and border_colour is not None:
            pygame.draw.rect(big, border_colour, full, border_radius=radius * k)
            inner = full.inflate(-2 * border * k, -2 * border * k)
            pygame.draw.rect(big, colour, inner, border_radius=max(0, (radius - border) * k))
        else:
            pygame.draw.rect(big, colour, full, border_radius=radius * k)

    _blit_faded(surface, _supersampled(key, rect.size, paint), rect.topleft, alpha)


def circle(
    surface: pygame.Surface,
    colour: Colour,
    center: tuple[float, float],
    radius: float,
    width: int = 0,
) -> None:
    """An anti-aliased circle (filled when width is 0)."""
    if radius < 1:
        return
    pygame.draw.aacircle(
        surface, colour, (round(center[0]), round(center[1])), round(radius), width
    )


def thick_line(
    surface: pygame.Surface,
    colour: Colour,
    start: tuple[float, float],
    end: tuple[float, float],
    width: float,
) -> None:
    """An anti-aliased line with round caps, `width` pixels thick."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    half = width / 2
    if length < 0.5:
        circle(surface, colour, start, half)
        return
    nx, ny = -(y2 - y1) / length * half, (x2 - x1) / length * half
    points = [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.aalines(surface, colour, True, points)
    circle(surface, colour, start, half)
    circle(surface, colour, end, half)


def player_mark(
    surface: pygame.Surface,
    player: int,
    centre: tuple[float, float],
    radius: float,
    colour: Colour,
) -> None:
    """Side `player`'s symbol on a piece of `radius` when the palette marks pieces
    (`theme.PALETTE.marked`): an X for the first side, a ring for the second."""
    if not theme.PALETTE.marked or radius < 4:
        return
    width = max(2.0, radius * 0.2)
    cx, cy = centre
    if player == 0:
        r = radius * 0.36
        thick_line(surface, colour, (cx - r, cy - r), (cx + r, cy + r), width)
        thick_line(surface, colour, (cx - r, cy + r), (cx + r, cy - r), width)
    else:
        circle(surface, colour, centre, radius * 0.42 + width / 2, max(2, round(width)))


def glow(
    surface: pygame.Surface,
    colour: Colour,
    center: tuple[float, float],
    radius: int,
    strength: int = 90,
) -> None:
    """A soft radial glow, for highlights and the thinking pulse.

    Cached once per (colour, radius) at full strength; `strength` (0-255, animated by
    pulses) is applied as the surface's alpha when blitting, so pulsing adds no images."""
    radius = max(2, radius)
    key = ("glow", colour, radius)
    cached = _SHAPE_CACHE.get(key)
    if cached is None:
        image = pygame.Surface((radius * 2, radius * 2), pygame.SRCALPHA)
        for i in range(GLOW_STEPS, 0, -1):
            r = radius * i / GLOW_STEPS
            a = round(255 * (1 - i / GLOW_STEPS) ** 1.6)
            pygame.draw.circle(image, (*colour, a), (radius, radius), round(r))
        cached = _remember(_SHAPE_CACHE, key, image)
    pos = (round(center[0] - radius), round(center[1] - radius))
    _blit_faded(surface, cached, pos, max(0, min(255, strength)))


def vertical_gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> pygame.Surface:
    """A background surface fading from `top` to `bottom` (cached per size)."""
    key = ("grad", size, top, bottom)
    cached = _SHAPE_CACHE.get(key)
    if cached is not None:
        return cached
    strip = pygame.Surface((1, 64))
    for y in range(64):
        strip.set_at((0, y), theme.mix(top, bottom, y / 63))
    image = pygame.transform.smoothscale(strip, (max(1, size[0]), max(1, size[1])))
    return _remember(_SHAPE_CACHE, key, image.convert() if pygame.display.get_surface() else image)


def shadow(
    surface: pygame.Surface, rect: pygame.Rect, radius: int, spread: int = 10, alpha: int = 70
) -> None:
    """A soft drop shadow under a rounded rectangle (`alpha`, often animated, at blit)."""
    key = ("shadow", rect.size, radius, spread)
    cached = _SHAPE_CACHE.get(key)
    if cached is None:
        w, h = rect.width + spread * 2, rect.height + spread * 2
        image = pygame.Surface((w, h), pygame.SRCALPHA)
        for i in range(spread, 0, -2):
            a = round(255 * (1 - i / spread) ** 2 / 3)
            pygame.draw.rect(
                image,
                (0, 0, 0, a),
                pygame.Rect(spread - i, spread - i, rect.width + 2 * i, rect.height + 2 * i),
                border_radius=radius + i,
            )
        cached = _remember(_SHAPE_CACHE, key, image)
    pos = (rect.x - spread, rect.y - spread + spread // 3)
    _blit_faded(surface, cached, pos, max(0, min(255, alpha)))


def polygon(surface: pygame.Surface, colour: Colour, points: Sequence[tuple[float, float]]) -> None:
    """A filled polygon with anti-aliased edges."""
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.aalines(surface, colour, True, points)


def ease_out_cubic(t: float) -> float:
    """Fast start, gentle stop."""
    t = max(0.0, min(1.0, t))
    return 1 - (1 - t) ** 3


def ease_out_bounce(t: float) -> float:
    """A falling object settling with small bounces (for connect-four discs)."""
    t = max(0.0, min(1.0, t))
    n, d = 7.5625, 2.75
    if t < 1 / d:
        return n * t * t
    if t < 2 / d:
        t -= 1.5 / d
        return n * t * t + 0.75
    if t < 2.5 / d:
        t -= 2.25 / d
        return n * t * t + 0.9375
    t -= 2.625 / d
    return n * t * t + 0.984375
