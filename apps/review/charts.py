"""Charts for the supervisors' dashboard, rendered on the server as inline SVG.

No chart library and no CDN: customers run closed networks, the charts are few and simple, and
SVG drawn here prints, scales, works without JavaScript and is styled by the page's CSS (series
colours are classes, ``.series-*`` in review.css). Every mark carries a ``<title>`` so hovering
shows its exact number, and every chart an ``aria-label`` saying what it shows. Text is escaped
here: labels may come from tenants (queue names).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

Formatter = Callable[[float], str]


def count_text(value: float) -> str:
    return f"{value:,.0f}"


def percent_text(value: float) -> str:
    return f"{value * 100:.0f}%"


def seconds_text(value: float) -> str:
    """A latency as a person reads it: "850 ms", "12 s", "4.5 min", "3.2 h", "2.1 d"."""
    if value < 1:
        return f"{value * 1000:.0f} ms"
    if value < 60:
        return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"
    if value < 3600:
        return f"{value / 60:.1f} min"
    if value < 86400:
        return f"{value / 3600:.1f} h"
    return f"{value / 86400:.1f} d"


def nice_axis(value: float, *, intervals: int = 4, whole: bool = True) -> float:
    """The top of a value axis with ``intervals`` equal, round steps (1, 2, 3, 4, 5, 6, 8 x 10^n)
    that reaches ``value``; whole steps for counts, so no tick reads "1.25 documents"."""
    raw = max(value, 0.0) / intervals
    if raw <= 0:
        return float(intervals) if whole else 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 3, 4, 5, 6, 8, 10) if raw <= m * magnitude + 1e-9)
    if whole:
        step = max(step, 1.0)
    return step * intervals


@dataclass(frozen=True)
class Series:
    name: str
    css: str  # the class that colours it: series-<css>
    values: Sequence[float | None]


@dataclass(frozen=True)
class Segment:
    value: float
    css: str
    title: str


@dataclass(frozen=True)
class BarRow:
    label: str
    segments: Sequence[Segment]
    text: str  # shown at the end of the bar
    note: str = ""  # shown under the label, muted
    href: str = ""


@dataclass(frozen=True)
class LegendItem:
    name: str
    css: str
    line: bool = False


@dataclass
class _Svg:
    width: int
    height: int
    label: str
    parts: list[str] = field(default_factory=list)

    def add(self, markup: str) -> None:
        self.parts.append(markup)

    def render(self) -> str:
        return (
            f'<svg class="chart-svg" viewBox="0 0 {self.width} {self.height}" role="img" '
            f'aria-label="{escape(self.label)}" preserveAspectRatio="xMidYMid meet">'
            + "".join(self.parts)
            + "</svg>"
        )


def _legend(items: Sequence[LegendItem]) -> str:
    if not items:
        return ""
    entries = "".join(
        f'<li><span class="key {"key-line" if i.line else "key-box"} series-{escape(i.css)}"></span>'
        f"{escape(i.name)}</li>"
        for i in items
    )
    return f'<ul class="chart-legend">{entries}</ul>'


def column_chart(
    *,
    label: str,
    categories: Sequence[str],
    series: Sequence[Series],
    value_text: Formatter = count_text,
    line: Series | None = None,
    line_text: Formatter = percent_text,
    width: int = 640,
    height: int = 220,
) -> SafeString:
    """Stacked columns, one per category, with an optional line on a 0-100 % right-hand axis.

    ``line`` values are fractions (None leaves a gap: a day with nothing decided has no rate).
    """
    left, right, top, bottom = 44, 44 if line else 12, 14, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(categories), 1)
    totals = [sum(s.values[i] or 0 for s in series) for i in range(len(categories))]
    y_max = nice_axis(max(totals, default=0))
    svg = _Svg(width, height, label)

    def y(value: float, scale: float = y_max) -> float:
        return top + plot_h - (value / scale) * plot_h

    for tick in range(5):
        value = y_max * tick / 4
        svg.add(
            f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
        )
        svg.add(
            f'<text class="tick" x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
            f"{escape(value_text(value))}</text>"
        )
        if line:
            svg.add(
                f'<text class="tick" x="{left + plot_w + 6}" y="{y(value) + 4:.1f}">'
                f"{escape(line_text(tick / 4))}</text>"
            )
    band = plot_w / n
    bar = max(min(band * 0.68, 46), 2)
    label_every = max(1, math.ceil(n * 46 / plot_w))
    for i, category in enumerate(categories):
        x = left + band * i + (band - bar) / 2
        base = 0.0
        for s in series:
            value = s.values[i] or 0
            if value > 0:
                y0, y1 = y(base + value), y(base)
                svg.add(
                    f'<rect class="series-{escape(s.css)}" x="{x:.1f}" y="{y0:.1f}" width="{bar:.1f}" '
                    f'height="{max(y1 - y0, 0.5):.1f}" rx="1.5"><title>{escape(category)} · '
                    f"{escape(s.name)}: {escape(value_text(value))}</title></rect>"
                )
            base += value
        if i % label_every == 0:
            svg.add(
                f'<text class="tick" x="{left + band * i + band / 2:.1f}" y="{height - 10}" '
                f'text-anchor="middle">{escape(category)}</text>'
            )
    svg.add(f'<line class="axis" x1="{left}" x2="{left + plot_w}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>')
    if line:
        points: list[list[str]] = [[]]
        for i, rate in enumerate(line.values):
            if rate is None:
                points.append([])
                continue
            cx, cy = left + band * i + band / 2, y(rate, 1.0)
            points[-1].append(f"{cx:.1f},{cy:.1f}")
            svg.add(
                f'<circle class="dot series-{escape(line.css)}" cx="{cx:.1f}" cy="{cy:.1f}" r="3">'
                f"<title>{escape(categories[i])} · {escape(line.name)}: {escape(line_text(rate))}</title></circle>"
            )
        for run in points:
            if len(run) > 1:
                svg.add(f'<polyline class="line series-{escape(line.css)}" points="{" ".join(run)}"/>')
    legend = [LegendItem(s.name, s.css) for s in series]
    if line:
        legend.append(LegendItem(line.name, line.css, line=True))
    return mark_safe(f'<figure class="chart">{svg.render()}{_legend(legend)}</figure>')


def bar_list(
    *, label: str, rows: Sequence[BarRow], scale: float | None = None, legend: Sequence[LegendItem] = ()
) -> SafeString:
    """Horizontal bars with their labels beside them, one row per item, segments stacked.

    HTML for the rows (labels wrap and stay selectable) and one small SVG per bar, all on a shared
    ``scale`` (default: the largest row), so bars compare across rows.
    """
    if not rows:
        return mark_safe('<p class="chart-empty">Nothing to show for this period yet.</p>')
    top = scale or max((sum(s.value for s in r.segments) for r in rows), default=0) or 1.0
    items = []
    for row in rows:
        x = 0.0
        rects = []
        for segment in row.segments:
            w = 100 * segment.value / top
            if w > 0:
                rects.append(
                    f'<rect class="series-{escape(segment.css)}" x="{x:.2f}" y="0" width="{max(w, 0.6):.2f}" '
                    f'height="10" rx="1.5"><title>{escape(segment.title)}</title></rect>'
                )
            x += w
        name = str(escape(row.label))
        if row.href:
            name = f'<a href="{escape(row.href)}">{name}</a>'
        note = f'<span class="bar-note">{escape(row.note)}</span>' if row.note else ""
        items.append(
            f'<li><span class="bar-label">{name}{note}</span>'
            f'<svg class="bar-svg" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">'
            f'<rect class="track" x="0" y="0" width="100" height="10" rx="1.5"/>{"".join(rects)}</svg>'
            f'<span class="bar-text">{escape(row.text)}</span></li>'
        )
    return mark_safe(
        f'<figure class="chart"><ul class="bar-list" role="list" aria-label="{escape(label)}">'
        f"{''.join(items)}</ul>{_legend(legend)}</figure>"
    )
