"""The chart: plain data (`model.py`), axes and ticks (`axes.py`), marks and legend
(`marks.py`) and drawing (`draw.py`); `from plyground.gui import chart` gives the names the
window and the terminal's PNGs use."""

from plyground.gui.chart.draw import (
    PALETTE,
    Chart,
    Heat,
    Marker,
    Plot,
    Series,
    draw,
    from_dict,
    log_ticks,
    nice_ticks,
    render,
    render_panels,
    save,
)

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
