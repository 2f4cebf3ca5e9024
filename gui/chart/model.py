"""The data of a chart: series, markers, heat map, and where a chart was drawn."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from plyground.gui import theme
from plyground.gui.theme import Colour

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
