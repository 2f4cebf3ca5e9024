"""One small chart module: axes, ticks, log scale, legend, theme colours (issue 11).

A `Chart` is plain data (series of points, markers, an optional heat map); `draw` paints it
into a rectangle of any surface, so the window and the PNG files of the terminal commands
share the same code (`render` / `save` draw onto a fresh surface).  Line, point and bar
series can carry error bars (the tournament's ratings with their intervals).  `draw`
returns a `Plot` that maps data to pixels and back and lists where every point landed, so
tests can check that the chart shows the table's numbers.  `from_dict` reads the plain
dict form a game uses to describe a picture (games/ may not import pygame or gui/).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from gui import drawing, theme
from gui.theme import Colour

PALETTE: tuple[Colour, ...] = (
    theme.TEXT_DIM,
    theme.PLAYER_COLOURS[0],
    theme.PLAYER_COLOURS[1],
    theme.ACCENT,
    theme.SUCCESS,
    (190, 120, 255),
    (90, 210, 230),
)
"""Series colours in order (the first series, often the reference, is the quiet one)."""


@dataclass
class Series:
    """Points joined by a line, or drawn as points or bars, optionally with error bars."""

    label: str
    points: list[tuple[float, float]]
    kind: str = "line"
    """'line', 'points', 'bars' or 'step' (a staircase through the points)."""
    colour: Colour | None = None
    faint: bool = False
    """A reference drawn thin and translucent (theory curves)."""
    dashed: bool = False
    errors: list[tuple[float, float]] | None = None
    """(low, high) per point: drawn as a whisker from low to high."""
    fill: Colour | None = None
    """Shade the region between the line and the bottom of the plot in this colour."""


@dataclass
class Marker:
    """A labelled point of interest ('you are here')."""

    x: float
    y: float
    label: str = ""
    colour: Colour = theme.TEXT
    shape: str = "circle"
    """'circle', 'diamond' or 'ring'."""


@dataclass
class Heat:
    """A grid of values coloured from `low` (cool) to `high` (warm); rows go up in y."""

    values: list[list[float]]
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    low: float = 0.0
    high: float = 1.0
    label: str = ""


@dataclass
class Chart:
    """Everything one chart shows."""

    title: str = ""
    x_label: str = ""
    y_label: str = ""
    series: list[Series] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    heat: Heat | None = None
    log_y: bool = False
    x_range: tuple[float, float] | None = None
    y_range: tuple[float, float] | None = None
    x_ticks: list[tuple[float, str]] | None = None
    """Fixed tick positions and labels (bar charts' categories), else chosen automatically."""
    y_format: str = "{:g}"
    note: str = ""
    """A line under the title."""
    legend: bool = True


@dataclass
class Plot:
    """Where a chart was drawn: the plot area and the data-to-pixel mapping."""

    area: pygame.Rect
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    log_y: bool
    points: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    """Per series label, the pixel position of each point."""

    def _ty(self, y: float) -> float:
        return math.log10(max(y, 1e-300)) if self.log_y else y

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of a data point."""
        (x0, x1), (y0, y1) = self.x_range, self.y_range
        ty0, ty1 = self._ty(y0), self._ty(y1)
        px = self.area.left + (x - x0) / ((x1 - x0) or 1.0) * self.area.width
        py = self.area.bottom - (self._ty(y) - ty0) / ((ty1 - ty0) or 1.0) * self.area.height
        return px, py

    def to_data(self, px: float, py: float) -> tuple[float, float]:
        """The data point at a pixel (the inverse of `to_pixel`)."""
        (x0, x1), (y0, y1) = self.x_range, self.y_range
        ty0, ty1 = self._ty(y0), self._ty(y1)
        x = x0 + (px - self.area.left) / self.area.width * (x1 - x0)
        ty = ty0 + (self.area.bottom - py) / self.area.height * (ty1 - ty0)
        return x, (10.0**ty if self.log_y else ty)


# ------------------------------------------------------------------ ticks and ranges
def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values (1, 2, 5 x 10^n steps) covering [low, high]."""
    if high <= low:
        return [low]
    raw = (high - low) / max(1, count)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def log_ticks(low: float, high: float) -> list[float]:
    """Powers of ten from below `low` to above `high`."""
    first = math.floor(math.log10(max(low, 1e-300)))
    last = math.ceil(math.log10(max(high, 1e-300)))
    return [10.0**power for power in range(first, max(last, first + 1) + 1)]


def short_number(value: float) -> str:
    """1, 10, 1k, 10k, 1M, 1G: compact labels for log axes."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:g}"


def _ranges(chart: Chart) -> tuple[tuple[float, float], tuple[float, float]]:
    """The data ranges: given, else the points' extent with a margin (log: whole decades)."""
    xs: list[float] = []
    ys: list[float] = []
    for series in chart.series:
        for index, (x, y) in enumerate(series.points):
            xs.append(x)
            ys.append(y)
            if series.errors:
                ys.extend(series.errors[index])
    xs += [marker.x for marker in chart.markers]
    ys += [marker.y for marker in chart.markers]
    if chart.heat is not None:
        xs += list(chart.heat.x_range)
        ys += list(chart.heat.y_range)
    if chart.x_range is not None:
        x_range = chart.x_range
    elif xs:
        low, high = min(xs), max(xs)
        pad = 0.5 if any(s.kind == "bars" for s in chart.series) else 0.0
        x_range = (low - pad, high + pad) if high > low else (low - 1, high + 1)
    else:
        x_range = (0.0, 1.0)
    if chart.y_range is not None:
        y_range = chart.y_range
    elif chart.log_y:
        positive = [y for y in ys if y > 0] or [1.0]
        ticks = log_ticks(min(positive), max(positive))
        y_range = (ticks[0], ticks[-1])
    elif ys:
        low, high = min(ys), max(ys)
        if any(s.kind == "bars" for s in chart.series):
            low = min(low, 0.0)
        margin = (high - low) * 0.06 or 1.0
        ticks = nice_ticks(low - margin, high + margin)
        y_range = (min(ticks[0], low), max(ticks[-1], high))
    else:
        y_range = (0.0, 1.0)
    return x_range, y_range


# ------------------------------------------------------------------ drawing
def _colour(chart: Chart, index: int, series: Series) -> Colour:
    if series.colour is not None:
        return series.colour
    solid = [s for s in chart.series if s.colour is None]
    return PALETTE[solid.index(series) % len(PALETTE)] if series in solid else PALETTE[index]


def _dashed(
    surface: pygame.Surface,
    colour: Colour,
    points: Sequence[tuple[float, float]],
    width: float,
    dash: float,
) -> None:
    """A polyline drawn in dashes of `dash` pixels."""
    on = True
    left = dash
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        length = math.hypot(x2 - x1, y2 - y1)
        travelled = 0.0
        while travelled < length:
            step = min(left, length - travelled)
            t0, t1 = travelled / length, (travelled + step) / length
            if on:
                start = (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0)
                end = (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1)
                drawing.thick_line(surface, colour, start, end, width)
            travelled += step
            left -= step
            if left <= 0:
                on, left = not on, dash


def _heat_colour(t: float) -> Colour:
    """Cool slate blue to accent to warm yellow."""
    t = max(0.0, min(1.0, t))
    if t < 0.5:
        return theme.mix((28, 40, 92), theme.ACCENT, t * 2)
    return theme.mix(theme.ACCENT, theme.PLAYER_COLOURS[1], (t - 0.5) * 2)


def draw(surface: pygame.Surface, rect: pygame.Rect, chart: Chart, scale: float = 1.0) -> Plot:
    """Draw `chart` inside `rect` of `surface`; returns where things landed."""

    def px(value: float) -> int:
        return max(1, round(value * scale))

    small, big = px(12), px(17)
    top = rect.top
    if chart.title:
        drawing.draw_text(surface, chart.title, (rect.left, top), big, theme.TEXT, "semibold")
        top += round(big * 1.45)
    if chart.note:
        for line in drawing.wrap(chart.note, rect.width, small):
            drawing.draw_text(surface, line, (rect.left, top), small, theme.TEXT_DIM)
            top += round(small * 1.35)
        top += px(4)
    x_range, y_range = _ranges(chart)
    if chart.log_y:
        y_ticks = [t for t in log_ticks(*y_range) if y_range[0] <= t <= y_range[1]]
        y_labels = [short_number(t) for t in y_ticks]
    else:
        y_ticks = [t for t in nice_ticks(*y_range) if y_range[0] <= t <= y_range[1]]
        y_labels = [chart.y_format.format(t) for t in y_ticks]
    if chart.x_ticks is not None:
        x_ticks = [t for t, _ in chart.x_ticks]
        x_labels = [label for _, label in chart.x_ticks]
    else:
        x_ticks = [t for t in nice_ticks(*x_range, count=8) if x_range[0] <= t <= x_range[1]]
        x_labels = [f"{t:g}" for t in x_ticks]
    label_w = max((drawing.text_size(label, small)[0] for label in y_labels), default=0)
    legend_items = [s for s in chart.series if chart.legend and s.label]
    legend_h = round(small * 1.8) if legend_items else 0
    y_title_w = round(small * 1.6) if chart.y_label else 0
    area = pygame.Rect(
        rect.left + y_title_w + label_w + px(10),
        top + px(6),
        0,
        0,
    )
    area.width = max(10, rect.right - area.left - px(8))
    area.height = max(
        10,
        rect.bottom
        - area.top
        - round(small * 1.4)
        - px(8)
        - legend_h
        - (round(small * 1.5) if chart.x_label else 0),
    )
    plot = Plot(area, x_range, y_range, chart.log_y)

    pygame.draw.rect(surface, theme.mix(theme.PANEL, theme.BG_BOTTOM, 0.45), area)
    if chart.heat is not None:
        _draw_heat(surface, plot, chart.heat)
    grid = theme.mix(theme.PANEL, theme.PANEL_BORDER, 0.55)
    for tick, label in zip(y_ticks, y_labels, strict=True):
        _, y = plot.to_pixel(x_range[0], tick)
        if chart.heat is None:
            pygame.draw.line(surface, grid, (area.left, round(y)), (area.right - 1, round(y)))
        drawing.draw_text(
            surface, label, (area.left - px(6), y), small, theme.TEXT_DIM, anchor="midright"
        )
    for tick, label in zip(x_ticks, x_labels, strict=True):
        x, _ = plot.to_pixel(tick, y_range[0])
        if chart.heat is None and chart.x_ticks is None:
            pygame.draw.line(surface, grid, (round(x), area.top), (round(x), area.bottom - 1))
        pygame.draw.line(
            surface, theme.PANEL_BORDER, (round(x), area.bottom), (round(x), area.bottom + px(4))
        )
        drawing.draw_text(
            surface, label, (x, area.bottom + px(5)), small, theme.TEXT_DIM, anchor="midtop"
        )
    pygame.draw.rect(surface, theme.PANEL_BORDER, area, 1)
    if chart.x_label:
        drawing.draw_text(
            surface,
            chart.x_label,
            (area.centerx, area.bottom + px(5) + round(small * 1.35)),
            small,
            theme.TEXT_DIM,
            anchor="midtop",
        )
    if chart.y_label:
        image = drawing.text_surface(chart.y_label, small, theme.TEXT_DIM)
        image = pygame.transform.rotate(image, 90)
        surface.blit(image, image.get_rect(midleft=(rect.left, area.centery)))

    clip = surface.get_clip()
    surface.set_clip(area.inflate(px(12), px(12)).clip(clip) if clip else area.inflate(12, 12))
    for index, series in enumerate(chart.series):
        _draw_series(surface, plot, series, _colour(chart, index, series), px)
    used: list[pygame.Rect] = []
    for marker in chart.markers:
        _draw_marker(surface, plot, marker, px, small, used)
    surface.set_clip(clip)
    if legend_items:
        _draw_legend(surface, chart, legend_items, (area.left, rect.bottom - legend_h), px, small)
    return plot


def _draw_heat(surface: pygame.Surface, plot: Plot, heat: Heat) -> None:
    """The grid as a smooth image stretched over its data range."""
    rows = len(heat.values)
    cols = max((len(row) for row in heat.values), default=0)
    if not rows or not cols:
        return
    image = pygame.Surface((cols, rows))
    span = (heat.high - heat.low) or 1.0
    for r, row in enumerate(heat.values):
        for c, value in enumerate(row):
            image.set_at((c, rows - 1 - r), _heat_colour((value - heat.low) / span))
    left, top = plot.to_pixel(heat.x_range[0], heat.y_range[1])
    right, bottom = plot.to_pixel(heat.x_range[1], heat.y_range[0])
    target = pygame.Rect(
        round(left), round(top), max(1, round(right - left)), max(1, round(bottom - top))
    )
    surface.blit(pygame.transform.smoothscale(image, target.size), target)


def _draw_series(
    surface: pygame.Surface, plot: Plot, series: Series, colour: Colour, px: Any
) -> None:
    pixels = [plot.to_pixel(x, y) for x, y in series.points]
    plot.points[series.label] = pixels
    if not pixels:
        return
    if series.faint:
        colour = theme.mix(theme.PANEL, colour, 0.45)
    width = px(1.5) if series.faint else px(2.5)
    if series.kind == "step":
        stepped = [pixels[0]]
        for (_, y0), (x1, y1) in itertools.pairwise(pixels):
            stepped += [(x1, y0), (x1, y1)]
        pixels_line = stepped
    else:
        pixels_line = pixels
    if series.fill is not None and len(pixels_line) > 1:
        bottom = plot.area.bottom
        shape = [(pixels_line[0][0], bottom), *pixels_line, (pixels_line[-1][0], bottom)]
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*series.fill, 70), shape)
        surface.blit(layer, (0, 0))
    if series.errors:
        for (x, _), (low, high) in zip(pixels, series.errors, strict=False):
            _, y_low = plot.to_pixel(0, low)
            _, y_high = plot.to_pixel(0, high)
            drawing.thick_line(
                surface, theme.mix(theme.PANEL, colour, 0.8), (x, y_low), (x, y_high), px(2)
            )
            for y in (y_low, y_high):
                drawing.thick_line(surface, colour, (x - px(5), y), (x + px(5), y), px(2))
    if series.kind == "bars":
        half = max(2.0, plot.area.width / max(8, 3 * len(pixels)))
        _, zero = plot.to_pixel(0, max(plot.y_range[0], 0.0))
        for x, y in pixels:
            bar = pygame.Rect(
                round(x - half), round(min(y, zero)), round(2 * half), max(1, round(abs(zero - y)))
            )
            pygame.draw.rect(surface, colour, bar, border_radius=px(3))
        return
    if series.kind in ("line", "step") and len(pixels_line) > 1:
        if series.dashed:
            _dashed(surface, colour, pixels_line, width, px(7))
        else:
            for start, end in itertools.pairwise(pixels_line):
                drawing.thick_line(surface, colour, start, end, width)
    if series.kind in ("line", "points") and not series.faint:
        for point in pixels:
            drawing.circle(surface, theme.BG_BOTTOM, point, px(5.5))
            drawing.circle(surface, colour, point, px(4))


def _draw_marker(
    surface: pygame.Surface,
    plot: Plot,
    marker: Marker,
    px: Any,
    size: int,
    used: list[pygame.Rect],
) -> None:
    x, y = plot.to_pixel(marker.x, marker.y)
    r = px(7)
    if marker.shape == "diamond":
        drawing.polygon(
            surface,
            theme.BG_BOTTOM,
            [(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)],
        )
        drawing.polygon(surface, marker.colour, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
    elif marker.shape == "ring":
        drawing.circle(surface, marker.colour, (x, y), r + px(3), px(3))
    else:
        drawing.circle(surface, theme.BG_BOTTOM, (x, y), r + px(2))
        drawing.circle(surface, marker.colour, (x, y), r)
    if marker.label:
        w, h = drawing.text_size(marker.label, size, "semibold")
        right = x + r + px(6) + w + px(8) <= plot.area.right
        anchor_x = x + r + px(6) if right else x - r - px(6) - w - px(8)
        box = pygame.Rect(round(anchor_x), round(y - h / 2 - px(3)), w + px(8), h + px(6))
        box.clamp_ip(plot.area)
        while box.collidelist(used) != -1:  # labels of markers at one spot stack downwards
            box.y = used[box.collidelist(used)].bottom + px(3)
        if box.bottom > plot.area.bottom:
            box.bottom = min(used[-1].top - px(3), plot.area.bottom) if used else plot.area.bottom
        used.append(box)
        drawing.rounded_rect(surface, box, theme.PANEL_RAISED, px(5))
        drawing.draw_text(
            surface, marker.label, box.center, size, marker.colour, "semibold", anchor="center"
        )


def _draw_legend(
    surface: pygame.Surface,
    chart: Chart,
    items: list[Series],
    origin: tuple[int, int],
    px: Any,
    size: int,
) -> None:
    x, y = origin
    y += round(size * 0.9)
    for series in items:
        colour = _colour(chart, chart.series.index(series), series)
        if series.faint:
            colour = theme.mix(theme.PANEL, colour, 0.6)
        if series.kind == "bars":
            pygame.draw.rect(
                surface, colour, pygame.Rect(x, y - px(5), px(14), px(10)), border_radius=px(2)
            )
        elif series.dashed:
            _dashed(surface, colour, [(x, y), (x + px(18), y)], px(2), px(4))
        else:
            drawing.thick_line(surface, colour, (x, y), (x + px(18), y), px(2.5))
        rect = drawing.draw_text(
            surface, series.label, (x + px(24), y), size, theme.TEXT_DIM, anchor="midleft"
        )
        x = rect.right + px(18)


def _fonts_ready() -> None:
    """Start pygame's fonts for off-screen drawing; forget fonts from an earlier start."""
    if not pygame.font.get_init():
        pygame.font.init()
    # Fonts cached before a pygame.quit() are dead; files are written rarely: start afresh.
    theme.font.cache_clear()


def render(chart: Chart, size: tuple[int, int] = (1200, 720), scale: float = 1.0) -> pygame.Surface:
    """The chart on its own themed card, as a new surface (for PNG files)."""
    _fonts_ready()
    surface = pygame.Surface(size)
    surface.blit(drawing.vertical_gradient(size, theme.BG_TOP, theme.BG_BOTTOM), (0, 0))
    pad = round(28 * scale)
    draw(surface, pygame.Rect(pad, pad, size[0] - 2 * pad, size[1] - 2 * pad), chart, scale)
    return surface


def render_panels(
    charts: Sequence[Chart], size: tuple[int, int] = (1600, 720), scale: float = 1.0
) -> pygame.Surface:
    """Several charts side by side on one surface."""
    _fonts_ready()
    surface = pygame.Surface(size)
    surface.blit(drawing.vertical_gradient(size, theme.BG_TOP, theme.BG_BOTTOM), (0, 0))
    pad = round(28 * scale)
    width = (size[0] - pad * (len(charts) + 1)) // max(1, len(charts))
    for index, chart in enumerate(charts):
        rect = pygame.Rect(pad + index * (width + pad), pad, width, size[1] - 2 * pad)
        draw(surface, rect, chart, scale)
    return surface


def save(surface: pygame.Surface, path: str | Path) -> None:
    """Write a rendered chart as PNG; OSError carries a one-line reason."""
    pygame.image.save(surface, str(path))


# ------------------------------------------------------------------ plain data
def _colour_of(value: Any) -> Colour | None:
    """A colour from plain data: None, an (r, g, b) list, or a theme role name."""
    if value is None:
        return None
    if isinstance(value, str):
        roles: dict[str, Colour] = {
            "accent": theme.ACCENT,
            "dim": theme.TEXT_DIM,
            "faint": theme.TEXT_FAINT,
            "text": theme.TEXT,
            "good": theme.SUCCESS,
            "warning": theme.WARNING,
            "danger": theme.DANGER,
            "side0": theme.PLAYER_COLOURS[0],
            "side1": theme.PLAYER_COLOURS[1],
        }
        return roles.get(value, theme.TEXT)
    r, g, b = value
    return (int(r), int(g), int(b))


def from_dict(data: dict[str, Any]) -> Chart:
    """A chart from the plain dict form (keys as the dataclasses' fields; colours as theme
    role names: accent, dim, faint, text, good, warning, danger, side0, side1)."""
    series = [
        Series(
            label=str(item.get("label", "")),
            points=[(float(x), float(y)) for x, y in item.get("points", [])],
            kind=str(item.get("kind", "line")),
            colour=_colour_of(item.get("colour")),
            faint=bool(item.get("faint", False)),
            dashed=bool(item.get("dashed", False)),
            errors=item.get("errors"),
            fill=_colour_of(item.get("fill")),
        )
        for item in data.get("series", [])
    ]
    markers = [
        Marker(
            float(item["x"]),
            float(item["y"]),
            str(item.get("label", "")),
            _colour_of(item.get("colour", "text")) or theme.TEXT,
            str(item.get("shape", "circle")),
        )
        for item in data.get("markers", [])
    ]
    heat_data = data.get("heat")
    heat = None
    if heat_data is not None:
        heat = Heat(
            [[float(v) for v in row] for row in heat_data["values"]],
            tuple(heat_data["x_range"]),
            tuple(heat_data["y_range"]),
            float(heat_data.get("low", 0.0)),
            float(heat_data.get("high", 1.0)),
            str(heat_data.get("label", "")),
        )
    ranges = {key: tuple(data[key]) if data.get(key) else None for key in ("x_range", "y_range")}
    return Chart(
        title=str(data.get("title", "")),
        x_label=str(data.get("x_label", "")),
        y_label=str(data.get("y_label", "")),
        series=series,
        markers=markers,
        heat=heat,
        log_y=bool(data.get("log_y", False)),
        x_range=ranges["x_range"],
        y_range=ranges["y_range"],
        note=str(data.get("note", "")),
        legend=bool(data.get("legend", True)),
    )
