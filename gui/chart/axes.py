"""A chart's axes: data ranges, round ticks, the grid and the axis labels."""

from __future__ import annotations

import math
from typing import Any

import pygame

from plyground.ai.evaluation.numbers import compact
from plyground.gui import theme
from plyground.gui.chart.model import Chart, Plot
from plyground.gui.widgets import drawing


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


def data_ranges(chart: Chart) -> tuple[tuple[float, float], tuple[float, float]]:
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


def axis_ticks(
    chart: Chart, x_range: tuple[float, float], y_range: tuple[float, float]
) -> tuple[list[float], list[str], list[float], list[str]]:
    """The y ticks and their labels, then the x ticks and theirs."""
    if chart.log_y:
        y_ticks = [t for t in log_ticks(*y_range) if y_range[0] <= t <= y_range[1]]
        y_labels = [compact(t) for t in y_ticks]
    else:
        y_ticks = [t for t in nice_ticks(*y_range) if y_range[0] <= t <= y_range[1]]
        y_labels = [chart.y_format.format(t) for t in y_ticks]
    if chart.x_ticks is not None:
        x_ticks = [t for t, _ in chart.x_ticks]
        x_labels = [label for _, label in chart.x_ticks]
    else:
        x_ticks = [t for t in nice_ticks(*x_range, count=8) if x_range[0] <= t <= x_range[1]]
        x_labels = [f"{t:g}" for t in x_ticks]
    return y_ticks, y_labels, x_ticks, x_labels


def plot_area(
    rect: pygame.Rect,
    top: int,
    chart: Chart,
    y_labels: list[str],
    legend_h: int,
    small: int,
    px: Any,
) -> pygame.Rect:
    """The plot's rectangle inside `rect`, below `top`, leaving room for labels and legend."""
    label_w = max((drawing.text_size(label, small)[0] for label in y_labels), default=0)
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
    return area


def draw_axes(
    surface: pygame.Surface,
    rect: pygame.Rect,
    plot: Plot,
    chart: Chart,
    ticks: tuple[list[float], list[str], list[float], list[str]],
    small: int,
    px: Any,
) -> None:
    """The grid, the ticks with their labels, the frame and the axis titles."""
    area, (x_range, y_range) = plot.area, (plot.x_range, plot.y_range)
    y_ticks, y_labels, x_ticks, x_labels = ticks
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
