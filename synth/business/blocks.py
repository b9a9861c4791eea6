"""Building blocks shared by letter-sized documents: organisations, letterheads, address windows,
caption/value blocks in several arrangements, paginated tables, page numbers and footers.

Invoices, bills and statements differ mostly in which blocks they use and where; keeping the
blocks here lets each type module read as a list of layout decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from synth.business.common import (
    Account,
    Address,
    Locale,
    chance,
    phone_number,
    pick,
    sample_account,
    sample_address,
    vat_id,
    web_domain,
)
from synth.business.labels import Labeler
from synth.business.layout import PT_TO_MM, Page, Pen, Style, logo
from synth.patterns import Color

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)


def paper_size(locale: Locale) -> tuple[float, float]:
    """US Letter in North America, A4 elsewhere."""
    return LETTER if locale.country.code in ("US", "CA") else A4


@dataclass(frozen=True)
class Organisation:
    """A company, utility, council or bank with the details its letterhead prints."""

    name: str
    address: Address
    phone: str
    email: str
    web: str
    vat_id: str
    account: Account
    registration: str


def sample_organisation(rng: np.random.Generator, locale: Locale, name: str) -> Organisation:
    code = locale.country.code
    domain = web_domain(name, code)
    registration = {
        "DE": f"Amtsgericht {pick(rng, ('Berlin', 'München', 'Hamburg', 'Köln'))} HRB {int(rng.integers(10000, 250000))}",
        "GB": f"Registered in England and Wales No. {int(rng.integers(1000000, 15000000)):08d}",
        "FR": f"RCS {pick(rng, ('Paris', 'Lyon', 'Nantes'))} {int(rng.integers(100, 999))} {int(rng.integers(100, 999))} {int(rng.integers(100, 999))}",
        "ES": f"Inscrita en el Registro Mercantil de {pick(rng, ('Madrid', 'Barcelona', 'Valencia'))}, Tomo {int(rng.integers(1000, 40000))}",
        "IT": f"Cap. Soc. € {int(rng.integers(10, 500)) * 1000:,}".replace(",", ".")
        + " i.v. - REA "
        + f"MI-{int(rng.integers(100000, 2000000))}",
        "NL": f"KvK {int(rng.integers(10000000, 99999999))}",
        "CH": f"Handelsregister CHE-{int(rng.integers(100, 999))}.{int(rng.integers(100, 999))}.{int(rng.integers(100, 999))}",
    }.get(code, "")
    return Organisation(
        name=name,
        address=sample_address(rng, locale, upper=False),
        phone=phone_number(rng, code),
        email=f"{pick(rng, ('info', 'billing', 'accounts', 'service', 'contact', 'kundenservice' if locale.language == 'de' else 'hello'))}@{domain}",
        web=f"www.{domain}",
        vat_id=vat_id(rng, code),
        account=sample_account(rng, code),
        registration=registration,
    )


# --------------------------------------------------------------------------------------------
# A multi-page document being written


class Writer:
    """Pages of one document in one style; starts continuation pages with a small header."""

    def __init__(
        self,
        style: Style,
        size: tuple[float, float],
        lab: Labeler,
        continuation: Callable[[Writer], float] | None = None,
        bottom_margin: float = 25.0,
    ) -> None:
        self.style = style
        self.size = size
        self.lab = lab
        self.pages: list[Page] = []
        self.continuation = continuation
        self.bottom = size[1] - bottom_margin
        self.pen = self.add_page()

    def add_page(self) -> Pen:
        page = Page(*self.size)
        self.pages.append(page)
        self.pen = Pen(page, self.style)
        return self.pen

    def next_page(self) -> float:
        """A new page; returns the y where content continues."""
        self.add_page()
        return self.continuation(self) if self.continuation else self.style.margin + 10

    def number_pages(self, rng: np.random.Generator, top: bool | None = None) -> None:
        """ "Page n of m" on every page (when there are several, or by chance on a single one)."""
        if len(self.pages) == 1 and not chance(rng, 0.3):
            return
        top = chance(rng, 0.3) if top is None else top
        align = pick(rng, ("r", "c"))
        total = len(self.pages)
        for n, page in enumerate(self.pages, start=1):
            pen = Pen(page, self.style)
            x = page.width - self.style.margin if align == "r" else page.width / 2
            y = 10.0 if top else page.height - 8.0
            pen.text(
                x,
                y,
                self.lab.text("page", n=str(n), m=str(total)),
                self.style.size * 0.85,
                color=self.style.muted,
                align=align,
            )


# --------------------------------------------------------------------------------------------
# Blocks


def letterhead(
    pen: Pen,
    rng: np.random.Generator,
    org: Organisation,
    x: float,
    y: float,
    align: str = "l",
    detail: bool = True,
    max_width: float = 100.0,
) -> tuple[float, str]:
    """Logo and name (and perhaps address and contacts) at ``x``; returns (bottom y, printed name).

    The name is shrunk to fit ``max_width`` millimetres (logo included), leaving room for a title.
    """
    style = pen.style
    size = style.size * float(rng.uniform(1.5, 2.3))
    upper = chance(rng, 0.3)
    name = org.name.upper() if upper else org.name
    if chance(rng, 0.65):
        mark = float(rng.uniform(10, 16))
        if align == "l":
            width = logo(pen, rng, x, y, mark, org.name, style.accent)
            pen.text(
                x + width + 3.5,
                y + mark * 0.68,
                name,
                size,
                bold=True,
                color=style.accent,
                face=style.heading,
                max_width=max_width - width - 3.5,
            )
        else:
            logo(pen, rng, x - mark, y, mark, org.name, style.accent)
            pen.text(
                x - mark - 3.5,
                y + mark * 0.68,
                name,
                size,
                bold=True,
                color=style.accent,
                face=style.heading,
                align="r",
                max_width=max_width - mark - 3.5,
            )
        y += mark + 3
    else:
        y += size * PT_TO_MM
        pen.text(
            x,
            y,
            name,
            size,
            bold=True,
            color=style.accent,
            face=style.heading,
            align=align,
            max_width=max_width,
        )
        y += 4
    if detail:
        lines = [*org.address.lines]
        if chance(rng, 0.8):
            lines.append(f"{phone_caption(rng)} {org.phone}")
        if chance(rng, 0.6):
            lines.append(org.email)
        if chance(rng, 0.4):
            lines.append(org.web)
        y = pen.lines(x, y + 2, lines, style.size * 0.9, color=style.muted, align=align) - 2
    return y, name


def phone_caption(rng: np.random.Generator) -> str:
    """The short caption before a letterhead's phone number (the same in most languages)."""
    return pick(rng, ("Tel.", "Tel", "T", "Tel:", "T:", "Phone"))


def sender_line(pen: Pen, org: Organisation, x: float, y: float, width: float) -> None:
    """The one-line return address printed above a window envelope's address (DIN 5008)."""
    text = " · ".join([org.name, org.address.lines[0], org.address.lines[-1]])
    pen.text(x, y, text, pen.style.size * 0.65, color=pen.style.muted, max_width=width)
    pen.rule(x, x + min(width, pen.measure(text, pen.style.size * 0.65)), y + 0.8, pen.style.muted, 0.15)


def address_block(
    pen: Pen,
    x: float,
    y: float,
    lines: Sequence[str],
    size: float | None = None,
    caption: str = "",
    bold_name: bool = False,
) -> float:
    """An addressee block (caption optional); returns the baseline after it."""
    size = size or pen.style.size
    if caption:
        pen.text(x, y, caption, size * 0.85, bold=True, color=pen.style.accent)
        y += pen.step(size, 1.5)
    return pen.lines(x, y, lines, size, leading=1.3, bold_first=bold_name)


def kv_rows(
    pen: Pen,
    x: float,
    y: float,
    rows: Sequence[tuple[str, str]],
    label_width: float,
    value_align: str = "l",
    right: float | None = None,
    size: float | None = None,
    bold_values: bool = False,
) -> float:
    """Caption at ``x`` and value beside it (left-aligned after ``label_width`` or right-aligned
    at ``right``), one pair a line; returns the baseline after the last."""
    size = size or pen.style.size
    widest = max((pen.measure(label, size, pen.style.bold_labels) for label, _ in rows), default=0.0)
    label_width = max(label_width, widest + 3)
    for label, value in rows:
        pen.text(x, y, label, size, bold=pen.style.bold_labels, color=pen.style.muted)
        if value_align == "r" and right is not None:
            pen.text(right, y, value, size, bold=bold_values, align="r", max_width=right - x - label_width)
        else:
            pen.text(x + label_width, y, value, size, bold=bold_values)
        y += pen.step(size, 1.45)
    return y


def kv_boxes(
    pen: Pen,
    x: float,
    y: float,
    width: float,
    rows: Sequence[tuple[str, str]],
    boxed: bool,
    fill: Color | None = None,
    size: float | None = None,
) -> float:
    """Captions above values in equal cells across ``width``; returns the y below the cells."""
    size = size or pen.style.size
    cell = width / max(1, len(rows))
    height = pen.step(size, 3.2)
    for i, (label, value) in enumerate(rows):
        cx = x + i * cell
        if boxed or fill:
            pen.rect(
                cx, y, cx + cell, y + height, fill=fill, stroke=pen.style.muted if boxed else None, width=0.2
            )
        pen.text(
            cx + 2, y + pen.step(size, 1.0), label, size * 0.8, color=pen.style.muted, max_width=cell - 4
        )
        pen.text(cx + 2, y + pen.step(size, 2.35), value, size * 1.05, bold=True, max_width=cell - 4)
    return y + height


@dataclass(frozen=True)
class Column:
    title: str
    width: float  # fraction of the table width
    align: str = "l"


def table(
    writer: Writer,
    y: float,
    x0: float,
    x1: float,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    variant: str,
    size: float | None = None,
    reserve: float = 0.0,
    continued: str = "",
) -> float:
    """Rows under a header, across pages when they do not fit (the header is repeated).

    ``variant``: "shaded" (filled header, rule below), "lines" (rules between rows), "grid"
    (every cell boxed), "zebra" (alternate rows tinted) or "plain". ``reserve`` keeps that many
    millimetres free below the last row on the last page (for the totals block). Returns the
    baseline after the last row.
    """
    style = writer.style
    size = size or style.size
    row_h = size * PT_TO_MM * 1.75
    pad = 1.5
    edges = [x0]
    for col in columns:
        edges.append(edges[-1] + col.width * (x1 - x0))

    def cell_x(i: int, align: str) -> float:
        return (
            edges[i + 1] - pad
            if align == "r"
            else (edges[i] + edges[i + 1]) / 2
            if align == "c"
            else edges[i] + pad
        )

    def header(y: float) -> float:
        pen = writer.pen
        top = y - row_h * 0.68
        if variant in ("shaded", "zebra"):
            pen.rect(
                x0,
                top,
                x1,
                top + row_h,
                fill=style.shade if variant == "zebra" or chance_fill else style.accent,
            )
        for i, col in enumerate(columns):
            color = (255, 255, 255) if variant == "shaded" and not chance_fill else style.ink
            pen.text(
                cell_x(i, col.align),
                y,
                col.title,
                size,
                bold=True,
                color=color,
                align=col.align,
                max_width=edges[i + 1] - edges[i] - 2 * pad,
            )
        if variant == "grid":
            for i in range(len(columns)):
                pen.rect(edges[i], top, edges[i + 1], top + row_h, stroke=style.muted, width=0.2)
        pen.rule(x0, x1, top + row_h, style.ink if variant != "grid" else style.muted, 0.3)
        return y + row_h

    chance_fill = (sum(len(c.title) for c in columns) % 2) == 0  # light header fill vs. accent
    y = header(y)
    for index, row in enumerate(rows):
        last = index == len(rows) - 1
        limit = writer.bottom - (reserve if last else 0)
        if y + row_h * 0.4 > limit:
            if continued:
                writer.pen.text(x1, y, continued, size * 0.85, color=style.muted, align="r")
            y = header(writer.next_page())
        pen = writer.pen
        top = y - row_h * 0.68
        if variant == "zebra" and index % 2 == 1:
            pen.rect(x0, top, x1, top + row_h, fill=style.shade)
        for i, (col, value) in enumerate(zip(columns, row, strict=True)):
            pen.text(
                cell_x(i, col.align),
                y,
                value,
                size,
                align=col.align,
                max_width=edges[i + 1] - edges[i] - 2 * pad,
            )
        if variant == "grid":
            for i in range(len(columns)):
                pen.rect(edges[i], top, edges[i + 1], top + row_h, stroke=style.muted, width=0.2)
        elif variant == "lines":
            pen.rule(x0, x1, top + row_h, style.muted, 0.15)
        y += row_h
    if variant in ("shaded", "plain", "zebra"):
        writer.pen.rule(x0, x1, y - row_h * 0.68, style.ink, 0.3)
    return y + 2


def totals_block(
    pen: Pen,
    x_label: float,
    x_right: float,
    y: float,
    rows: Sequence[tuple[str, str, bool]],
    variant: str,
    size: float | None = None,
) -> float:
    """Right-hand totals: caption and right-aligned amount per row; the strong row stands out
    (bold, bigger, on a band or between rules). Returns the baseline after the last row."""
    style = pen.style
    size = size or style.size
    for caption, amount, strong in rows:
        s = size * (1.2 if strong else 1.0)
        if strong:
            top = y - pen.step(s, 0.95)
            if variant == "band":
                pen.rect(x_label - 2, top, x_right + 1, top + pen.step(s, 1.45), fill=style.accent)
            elif variant == "rules":
                pen.rule(x_label - 2, x_right, top, style.ink, 0.3)
            elif variant == "box":
                pen.rect(x_label - 2, top, x_right + 1, top + pen.step(s, 1.45), stroke=style.ink, width=0.35)
            color = (255, 255, 255) if variant == "band" else style.ink
            room = x_right - 1 - x_label - pen.measure(amount, s, bold=True) - 3
            pen.text(x_label, y, caption, s, bold=True, color=color, max_width=room)
            pen.text(x_right - 1, y, amount, s, bold=True, color=color, align="r")
            y += pen.step(s, 1.7)
            if variant == "rules":
                pen.rule(x_label - 2, x_right, y - pen.step(s, 1.05), style.ink, 0.3)
                pen.rule(x_label - 2, x_right, y - pen.step(s, 0.95), style.ink, 0.3)
        else:
            room = x_right - 1 - x_label - pen.measure(amount, s) - 3
            pen.text(x_label, y, caption, s, color=style.ink, max_width=room)
            pen.text(x_right - 1, y, amount, s, align="r")
            y += pen.step(s, 1.5)
    return y


def footer_columns(
    pen: Pen, columns: Sequence[Sequence[str]], y: float, x0: float, x1: float, rule: bool = True
) -> None:
    """Small print in columns along the bottom of a page (address, bank, registration)."""
    size = pen.style.size * 0.72
    if rule:
        pen.rule(x0, x1, y - pen.step(size, 1.2), pen.style.muted, 0.2)
    width = (x1 - x0) / max(1, len(columns))
    for i, lines in enumerate(columns):
        yy = y
        for line in lines:
            pen.text(x0 + i * width, yy, line, size, color=pen.style.muted, max_width=width - 3)
            yy += pen.step(size, 1.3)
