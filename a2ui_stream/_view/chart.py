"""Charts: the vocabulary's Chart element drawn as inline SVG, with no script.

Owns reading a Chart's ``data`` or ``series`` (points with a number ``value`` and an
optional ``label``), and drawing the four variants: ``bar`` (grouped, or ``stacked``),
``line``, ``area`` and ``sparkline`` (small, no axis), with ``showAxis``,
``showLegend`` and ``color`` taking effect. Points that are not finite numbers are
left out; so are points and series past the caps below, which keep a hostile chart
cheap.

May import: :mod:`a2ui_stream._view.css`. Does no I/O.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._view.css import css_color

if TYPE_CHECKING:
    from collections.abc import Mapping

    from a2ui_stream._view.css import Rules

__all__ = ["chart_html"]

#: Caps: more than a chart can show legibly anyway.
MAX_SERIES: Final = 12
MAX_POINTS: Final = 500
#: Palette classes of the page's stylesheet (``.c0`` ... ``.c5``).
_PALETTE: Final = 6
#: Characters of a category label drawn under the axis.
_LABEL_CHARS: Final = 10

_Series = tuple[str, list[tuple[str, float]]]


def _points(data: Any) -> list[tuple[str, float]]:
    points: list[tuple[str, float]] = []
    for point in data[:MAX_POINTS] if isinstance(data, list) else ():
        if not isinstance(point, dict):
            continue
        value = _finite(point.get("value"))
        if value is not None:
            label = point.get("label")
            points.append((label if type(label) is str else "", value))
    return points


def _finite(value: Any) -> float | None:
    """A point's value as a float; ``None`` when it is not a number or not finite.

    One past a double's range (``1e400``, or an integer of 400 digits) is an infinity,
    which the args print as ``null``: it has no place on an axis, so it is left out.
    """
    if type(value) is not int and type(value) is not float:
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer past a double's range
        return None
    return number if math.isfinite(number) else None


def _series(element: Mapping[str, Any]) -> list[_Series]:
    raw = element.get("series")
    if isinstance(raw, list) and raw:
        found = []
        for index, entry in enumerate(raw[:MAX_SERIES]):
            if isinstance(entry, dict):
                label = entry.get("label")
                name = label if type(label) is str else f"Series {index + 1}"
                found.append((name, _points(entry.get("data"))))
        return found
    return [("", _points(element.get("data")))]


def _n(value: float) -> str:
    return f"{value:.1f}"


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"


class _Frame:
    """The drawing area and the scale from values to y coordinates."""

    def __init__(self, *, small: bool, axis: bool, low: float, high: float) -> None:
        self.width, self.height = (120.0, 32.0) if small else (360.0, 180.0)
        self.left = 40.0 if axis else 4.0
        self.bottom = self.height - (22.0 if axis else 4.0)
        self.top = 6.0
        self.right = self.width - 6.0
        if high <= low:
            high = low + 1.0
        self.low, self.high = low, high

    def y(self, value: float) -> float:
        span = self.bottom - self.top
        return self.top + (self.high - value) / (self.high - self.low) * span

    def x(self, index: int, count: int) -> float:
        if count <= 1:
            return (self.left + self.right) / 2
        return self.left + index * (self.right - self.left) / (count - 1)


def _stacked(series: list[_Series]) -> list[_Series]:
    """Each series' values added to those of the series before it (line and area)."""
    totals: list[float] = []
    out = []
    for name, points in series:
        summed = []
        for index, (label, value) in enumerate(points):
            if index == len(totals):
                totals.append(0.0)
            totals[index] += value
            summed.append((label, totals[index]))
        out.append((name, summed))
    return out


def _bars(frame: _Frame, series: list[_Series], count: int, *, stacked: bool) -> list[str]:
    shapes = []
    group = (frame.right - frame.left) / count
    zero = frame.y(0.0)
    if stacked:
        width = group * 0.7
        for index in range(count):
            up = down = 0.0
            for colour, (_, points) in enumerate(series):
                if index >= len(points):
                    continue
                value = points[index][1]
                start = up if value >= 0 else down
                end = start + value
                if value >= 0:
                    up = end
                else:
                    down = end
                top, base = sorted((frame.y(end), frame.y(start)))
                x = frame.left + index * group + group * 0.15
                shapes.append(_rect(x, top, width, base - top, colour))
        return shapes
    width = group * 0.8 / len(series)
    for colour, (_, points) in enumerate(series):
        for index, (_, value) in enumerate(points):
            top, base = sorted((frame.y(value), zero))
            x = frame.left + index * group + group * 0.1 + colour * width
            shapes.append(_rect(x, top, width, base - top, colour))
    return shapes


def _rect(x: float, y: float, width: float, height: float, colour: int) -> str:
    return (
        f'<rect class="c{colour % _PALETTE}" x="{_n(x)}" y="{_n(y)}"'
        f' width="{_n(width)}" height="{_n(max(height, 0.5))}"/>'
    )


def _lines(frame: _Frame, series: list[_Series], count: int, *, area: bool) -> list[str]:
    shapes = []
    base = frame.y(min(max(0.0, frame.low), frame.high))
    for colour, (_, points) in enumerate(series):
        if not points:
            continue
        coords = [(frame.x(i, count), frame.y(value)) for i, (_, value) in enumerate(points)]
        path = " ".join(f"{_n(x)},{_n(y)}" for x, y in coords)
        css = f"c{colour % _PALETTE}"
        if area:
            outline = f"{_n(coords[0][0])},{_n(base)} {path} {_n(coords[-1][0])},{_n(base)}"
            shapes.append(f'<polygon class="{css} fill" points="{outline}"/>')
        shapes.append(f'<polyline class="{css} line" points="{path}"/>')
    return shapes


def _axis(frame: _Frame, labels: list[str], count: int, *, bars: bool) -> list[str]:
    zero = frame.y(min(max(0.0, frame.low), frame.high))
    left = _n(frame.left)
    lines = f"M{left} {_n(frame.top)}V{_n(frame.bottom)}M{left} {_n(zero)}H{_n(frame.right)}"
    shapes = [
        f'<path class="axis" d="{lines}"/>',
        _tick(frame.left - 4, frame.top + 8, "end", _number(frame.high)),
        _tick(frame.left - 4, frame.bottom, "end", _number(frame.low)),
    ]
    shown = range(count) if count <= 12 else (0, count - 1)
    group = (frame.right - frame.left) / count
    for index in shown:
        if index >= len(labels) or not labels[index]:
            continue
        x = frame.left + (index + 0.5) * group if bars else frame.x(index, count)
        shapes.append(_tick(x, frame.bottom + 14, "middle", labels[index][:_LABEL_CHARS]))
    return shapes


def _tick(x: float, y: float, anchor: str, text: str) -> str:
    return (
        f'<text class="tick" x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}">{escape(text)}</text>'
    )


_VARIANTS: Final = frozenset({"bar", "line", "sparkline", "area"})


def _summary(variant: str, series: list[_Series]) -> str:
    parts = []
    for name, points in series:
        shown = ", ".join(
            f"{label or i + 1} {_number(value)}" for i, (label, value) in enumerate(points[:50])
        )
        parts.append(f"{name}: {shown}" if name else shown)
    return f"{variant} chart: " + "; ".join(parts)


def chart_html(element: Mapping[str, Any], rules: Rules) -> str:
    """Draw a Chart element as a ``<figure>`` holding an SVG and, if asked, a legend.

    Args:
        element: the Chart element (its ``$type`` already checked).
        rules: the page's generated style rules, for a ``color`` prop.

    Returns:
        The HTML of the figure; a short note when the chart has no usable point.
    """
    named = element.get("variant")
    variant = named if isinstance(named, str) and named in _VARIANTS else "bar"
    series = _series(element)
    count = max((len(points) for _, points in series), default=0)
    if count == 0:
        empty = f"<figcaption>{variant} chart: no data</figcaption>"
        return f'<figure class="chart empty">{empty}</figure>'
    stacked = element.get("stacked") is True
    small = variant == "sparkline"
    axis = not small and element.get("showAxis") is not False
    drawn = _stacked(series) if stacked and variant in {"line", "area"} else series
    if stacked and variant == "bar":
        sums = [
            sum(points[i][1] for _, points in series if i < len(points) and points[i][1] > 0)
            for i in range(count)
        ]
        lows = [
            sum(points[i][1] for _, points in series if i < len(points) and points[i][1] < 0)
            for i in range(count)
        ]
        low, high = min(0.0, *lows), max(0.0, *sums)
    else:
        values = [value for _, points in drawn for _, value in points]
        low, high = min(values), max(values)
        if variant in {"bar", "area"}:
            low, high = min(0.0, low), max(0.0, high)
    frame = _Frame(small=small, axis=axis, low=low, high=high)
    if variant == "bar":
        shapes = _bars(frame, drawn, count, stacked=stacked)
    else:
        shapes = _lines(frame, drawn, count, area=variant == "area")
    if axis:
        labels = [label for label, _ in max((p for _, p in series), key=len)]
        shapes.extend(_axis(frame, labels, count, bars=variant == "bar"))
    classes = f"chart {variant}"
    colour = css_color(element.get("color"))
    if colour is not None:
        classes += " " + rules.use(f"--series:{colour}")
    summary = escape(_summary(variant, series))
    out = [
        f'<figure class="{classes}"><svg viewBox="0 0 {_n(frame.width)} {_n(frame.height)}"',
        f' width="{_n(frame.width)}" height="{_n(frame.height)}" role="img"',
        f' aria-label="{summary}"><title>{summary}</title>',
        *shapes,
        "</svg>",
    ]
    legend = element.get("showLegend")
    if legend is True or (legend is not False and len(series) > 1):
        out.append('<figcaption><ul class="legend">')
        for colour_index, (name, _) in enumerate(series):
            out.append(
                f'<li><span class="swatch c{colour_index % _PALETTE}"></span>'
                f"{escape(name or 'values')}</li>"
            )
        out.append("</ul></figcaption>")
    out.append("</figure>")
    return "".join(out)
