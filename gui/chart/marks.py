"""What a chart shows inside its axes: the series, the heat map, markers and the legend."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import pygame

from plyground.gui import theme
from plyground.gui.chart.model import PALETTE, Chart, Heat, Marker, Plot, Series
from plyground.gui.theme import Colour
from plyground.gui.widgets import drawing


def series_colour(chart: Chart, index: int, series: Series) -> Colour:
    """The colour of a series: its own, else the next one of the palette."""
    if series.colour is not None:
        return series.colour
    solid = [s for s in chart.series if s.colour is None]
    return PALETTE[solid.index(series) % len(PALETTE)] if series in solid else PALETTE[index]


def dashed(
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


def heat_colour(t: float) -> Colour:
    """Cool slate blue to accent to warm yellow."""
    t = max(0.0, min(1.0, t))
    if t < 0.5:
        return theme.mix((28, 40, 92), theme.ACCENT, t * 2)
    return theme.mix(theme.ACCENT, theme.PLAYER_COLOURS[1], (t - 0.5) * 2)


def draw_heat(surface: pygame.Surface, plot: Plot, heat: Heat) -> None:
    """The grid as a smooth image stretched over its data range."""
    rows = len(heat.values)
    cols = max((len(row) for row in heat.values), default=0)
    if not rows or not cols:
        return
    image = pygame.Surface((cols, rows))
    span = (heat.high - heat.low) or 1.0
    for r, row in enumerate(heat.values):
        for c, value in enumerate(row):
            image.set_at((c, rows - 1 - r), heat_colour((value - heat.low) / span))
    left, top = plot.to_pixel(heat.x_range[0], heat.y_range[1])
    right, bottom = plot.to_pixel(heat.x_range[1], heat.y_range[0])
    target = pygame.Rect(
        round(left), round(top), max(1, round(right - left)), max(1, round(bottom - top))
    )
    surface.blit(pygame.transform.smoothscale(image, target.size), target)


def draw_series(
    surface: pygame.Surface, plot: Plot, series: Series, colour: Colour, px: Any
) -> None:
    """One series (line, step, points or bars, with fill and error bars); notes its pixels."""
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
            dashed(surface, colour, pixels_line, width, px(7))
        else:
            for start, end in itertools.pairwise(pixels_line):
                drawing.thick_line(surface, colour, start, end, width)
    if series.kind in ("line", "points") and not series.faint:
        for point in pixels:
            drawing.circle(surface, theme.BG_BOTTOM, point, px(5.5))
            drawing.circle(surface, colour, point, px(4))


def draw_marker(
    surface: pygame.Surface,
    plot: Plot,
    marker: Marker,
    px: Any,
    size: int,
    used: list[pygame.Rect],
) -> None:
    """One marker with its label, kept clear of the labels in `used`."""
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


def draw_legend(
    surface: pygame.Surface,
    chart: Chart,
    items: list[Series],
    origin: tuple[int, int],
    px: Any,
    size: int,
) -> None:
    """The legend: one sample and label per series, in a row from `origin`."""
    x, y = origin
    y += round(size * 0.9)
    for series in items:
        colour = series_colour(chart, chart.series.index(series), series)
        if series.faint:
            colour = theme.mix(theme.PANEL, colour, 0.6)
        if series.kind == "bars":
            pygame.draw.rect(
                surface, colour, pygame.Rect(x, y - px(5), px(14), px(10)), border_radius=px(2)
            )
        elif series.dashed:
            dashed(surface, colour, [(x, y), (x + px(18), y)], px(2), px(4))
        else:
            drawing.thick_line(surface, colour, (x, y), (x + px(18), y), px(2.5))
        rect = drawing.draw_text(
            surface, series.label, (x + px(24), y), size, theme.TEXT_DIM, anchor="midleft"
        )
        x = rect.right + px(18)
