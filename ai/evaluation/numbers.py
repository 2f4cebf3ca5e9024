"""The one way a number is written short: counts, rates and axis labels (`compact`)."""

from __future__ import annotations

import math

SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
WORDS = ((1e12, " trillion"), (1e9, " billion"), (1e6, " million"), (1e3, "k"))
SYMBOLS = ((1e9, "G"), (1e6, "M"), (1e3, "k"))


def compact(number: float, words: bool = False) -> str:
    """The one way a count or a rate is written short: 1234 -> '1.23k', 12345 -> '12.3k',
    1234567 -> '1.23M', 7.1e16 -> '7.1×10¹⁶', 5 -> '5', 0.5 -> '0.5'; with `words` (in a
    sentence) 3.2e9 -> '3.2 billion', 12345 -> '12k', inf -> 'endless'."""
    if math.isinf(number):
        return "endless" if words else "∞"
    if words:
        for size, name in WORDS:
            if number >= 1e15:
                return f"{number:.1e}"
            if number >= size:
                scaled = number / size
                return f"{scaled:.0f}{name}" if scaled >= 10 else f"{scaled:.1f}{name}"
        return f"{number:.0f}"
    if number >= 1e12:
        mantissa, exponent = f"{number:.1e}".split("e")
        mantissa = mantissa.removesuffix(".0")
        return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    for size, suffix in SYMBOLS:
        if abs(number) >= size:
            return f"{number / size:.3g}{suffix}"
    if number != int(number):  # three significant digits, as above: 81.9744 -> '82'
        rounded = float(f"{number:.3g}")
        return compact(rounded) if abs(rounded) >= 1e3 else f"{rounded:g}"
    return f"{number:,.0f}"
