"""One small chart module: axes, ticks, log scale, legend, theme colours.

A `Chart` is plain data (series of points, markers, an optional heat map); `draw` paints it
into a rectangle of any surface, so the window and the PNG files of the terminal commands
share the same code (`render` / `save` draw onto a fresh surface).  Line, point and bar
series can carry error bars (the tournament's ratings with their intervals).  `draw`
returns a `Plot` that maps data to pixels and back and lists where every point landed, so
tests can check that the chart shows the table's numbers.  `from_dict` reads the plain
dict form a game uses to describe a picture (games/ may not import pygame or gui/).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.chart.axes import (
    axis_ticks,
    data_ranges,
    draw_axes,
    log_ticks,
    nice_ticks,
    plot_area,
)
from plyground.gui.chart.marks import (
    draw_heat,
    draw_legend,
    draw_marker,
    draw_series,
    series_colour,
)
from plyground.gui.chart.model import PALETTE, Chart, Heat, Marker, Plot, Series
from plyground.gui.theme import Colour
from plyground.gui.widgets import drawing

__all__ = [
    "PALETTE",
    "Chart",
    "Heat",
    "Marker",
    "Plot",
    "Series",
    "draw",
    "from_dict",
    "log_ticks",
    "nice_ticks",
    "render",
    "render_panels",
    "save",
]


def _header(
    surface: pygame.Surface, rect: pygame.Rect, chart: Chart, small: int, big: int, px: Any
) -> int:
    """The title and the note over the plot; returns the y below them."""
    top = rect.top
    if chart.title:
        drawing.draw_text(surface, chart.title, (rect.left, top), big, theme.TEXT, "semibold")
        top += round(big * 1.45)
    if chart.note:
        for line in drawing.wrap(chart.note, rect.width, small):
            drawing.draw_text(surface, line, (rect.left, top), small, theme.TEXT_DIM)
            top += round(small * 1.35)
        top += px(4)
    return top


def draw(surface: pygame.Surface, rect: pygame.Rect, chart: Chart, scale: float = 1.0) -> Plot:
    """Draw `chart` inside `rect` of `surface`; returns where things landed."""

    def px(value: float) -> int:
        return max(1, round(value * scale))

    small, big = px(12), px(17)
    top = _header(surface, rect, chart, small, big, px)
    x_range, y_range = data_ranges(chart)
    ticks = axis_ticks(chart, x_range, y_range)
    legend_items = [s for s in chart.series if chart.legend and s.label]
    legend_h = round(small * 1.8) if legend_items else 0
    area = plot_area(rect, top, chart, ticks[1], legend_h, small, px)
    plot = Plot(area, x_range, y_range, chart.log_y)

    pygame.draw.rect(surface, theme.mix(theme.PANEL, theme.BG_BOTTOM, 0.45), area)
    if chart.heat is not None:
        draw_heat(surface, plot, chart.heat)
    draw_axes(surface, rect, plot, chart, ticks, small, px)

    clip = surface.get_clip()
    surface.set_clip(area.inflate(px(12), px(12)).clip(clip) if clip else area.inflate(12, 12))
    for index, series in enumerate(chart.series):
        draw_series(surface, plot, series, series_colour(chart, index, series), px)
    used: list[pygame.Rect] = []
    for marker in chart.markers:
        draw_marker(surface, plot, marker, px, small, used)
    surface.set_clip(clip)
    if legend_items:
        draw_legend(surface, chart, legend_items, (area.left, rect.bottom - legend_h), px, small)
    return plot


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
