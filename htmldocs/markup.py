"""Filling the HTML templates: themes as CSS variables, escaping, and small repeated fragments.

Templates (``htmldocs/templates/*.html``) are ``string.Template`` files: ``$name`` placeholders
take HTML fragments built here, every printed value escaped once. A theme (palette, fonts, size)
is a block of CSS custom properties the templates read, so one layout drawn in several themes
still differs in colour, typeface and density, as documents of different issuers do.
"""

from __future__ import annotations

import html
import random
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from htmldocs.data import load

TEMPLATE_DIR = Path(__file__).with_name("templates")


def esc(text: str) -> str:
    """``text`` safe inside HTML (names such as "Power & Light" or "D'Angelo" included)."""
    return html.escape(text, quote=True)


def lines(items: Iterable[str]) -> str:
    """Printed lines joined by line breaks, each escaped."""
    return "<br>".join(esc(item) for item in items if item)


@cache
def _template(name: str) -> string.Template:
    return string.Template((TEMPLATE_DIR / name).read_text(encoding="utf-8"))


def fill(name: str, fragments: dict[str, str]) -> str:
    """Template ``name`` with its placeholders replaced; a placeholder left unfilled is an error."""
    return _template(name).substitute(fragments)


# Logos and barcodes look alike in every template that prints them; their colours follow the theme.
COMPONENT_CSS = (
    ".logo{display:inline-flex;align-items:center;justify-content:center;width:15mm;height:15mm;"
    "background:var(--primary);color:#fff;font:bold 15pt var(--heading),sans-serif;letter-spacing:.5pt}"
    ".logo-circle{border-radius:50%}.logo-round{border-radius:4mm;background:var(--accent);color:var(--ink)}"
    ".logo-bars{background:none;gap:1.2mm;align-items:flex-end}"
    ".logo-bars span{display:block;width:3mm;background:var(--primary)}"
    ".logo-bars span:nth-child(1){height:7mm}.logo-bars span:nth-child(2){height:11mm;background:var(--accent)}"
    ".logo-bars span:nth-child(3){height:15mm}"
    ".barcode{display:flex;height:12mm;align-items:stretch;justify-content:center;margin:3mm 0}"
    ".barcode i{display:block;background:#000}"
    ".hidden{display:none}"
)


@dataclass(frozen=True)
class Theme:
    palette: str
    primary: str
    accent: str
    muted: str
    tint: str
    ink: str
    line: str
    font: str
    heading_font: str
    size: str  # the base font size as the stylesheet writes it: "13px" or "9.5pt"

    def css(self) -> str:
        """The theme as CSS custom properties for ``:root``."""
        return (
            ":root{"
            f"--primary:{self.primary};--accent:{self.accent};--muted:{self.muted};--tint:{self.tint};"
            f"--ink:{self.ink};--line:{self.line};--font:'{self.font}';--heading:'{self.heading_font}';"
            f"--size:{self.size}"
            "}" + COMPONENT_CSS
        )


def sample_theme(
    rng: random.Random,
    *,
    families: Sequence[str] = ("sans", "serif"),
    size: tuple[float, float] = (8.5, 10.5),
) -> Theme:
    """A palette, a body font of one of ``families``, a heading font and a base size.

    Half the stylesheets size text in whole pixels, half in points (fractional pixels), as web
    templates in the wild do; the two print differently (Chromium positions each glyph of a
    fractional size on its own, which PDF text extraction then sees as separate runs).
    """
    themes = load("themes")
    palette = rng.choice(themes["palettes"])
    family = rng.choice(list(families))
    font = rng.choice(themes["fonts"][family])
    heading = font if rng.random() < 0.5 else rng.choice(themes["fonts"][rng.choice(["sans", "serif"])])
    return Theme(
        palette=palette["name"],
        primary=palette["primary"],
        accent=palette["accent"],
        muted=palette["muted"],
        tint=palette["tint"],
        ink=palette["ink"],
        line=palette["line"],
        font=font,
        heading_font=heading,
        size=f"{round(rng.uniform(*size) * 4 / 3)}px"
        if rng.random() < 0.5
        else f"{rng.uniform(*size):.1f}pt",
    )


def page_css(*, page_label: str, first_top_mm: int, numbered: bool) -> str:
    """The A4 print rules shared by letter-sized documents (page numbers in the margin box).

    Side margins are zero in print: templates pad their own content, so colour bands can bleed to
    the paper's edge. On screen (screenshots) the same content is one A4-wide sheet.
    """
    number_box = (
        f'@bottom-right{{content:"{esc(page_label)} " counter(page) " / " counter(pages);'
        "font:7.5pt var(--font);color:#777;margin-right:14mm}"
        if numbered
        else ""
    )
    return (
        f"@page{{size:A4;margin:14mm 0 16mm 0;{number_box}}}"
        f"@page:first{{margin-top:{first_top_mm}mm}}"
        "html{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
        "body{margin:0;font-family:var(--font),sans-serif;font-size:var(--size);color:var(--ink);"
        "line-height:1.35;background:#fff}"
        "@media screen{body{width:210mm;min-height:297mm;box-sizing:border-box;"
        f"padding-top:{first_top_mm}mm;padding-bottom:12mm}}}}"
        "table{border-collapse:collapse}tr{break-inside:avoid}thead{display:table-header-group}"
        "h1,h2,h3{font-family:var(--heading),var(--font),sans-serif;margin:0}"
        ".num{text-align:right;white-space:nowrap}"
    )


def table_rows(rows: Iterable[Sequence[str]], *, numeric: Sequence[int] = (), cls: str = "") -> str:
    """``<tr>`` rows of escaped cells; the columns in ``numeric`` right-aligned."""
    out = []
    for row in rows:
        cells = "".join(
            f'<td class="num">{esc(cell)}</td>' if i in numeric else f"<td>{esc(cell)}</td>"
            for i, cell in enumerate(row)
        )
        out.append(f'<tr class="{cls}">{cells}</tr>' if cls else f"<tr>{cells}</tr>")
    return "".join(out)


def head_row(cells: Sequence[str], *, numeric: Sequence[int] = ()) -> str:
    return (
        "<tr>"
        + "".join(
            f'<th class="num">{esc(cell)}</th>' if i in numeric else f"<th>{esc(cell)}</th>"
            for i, cell in enumerate(cells)
        )
        + "</tr>"
    )


def pairs_table(pairs: Iterable[tuple[str, str]], *, cls: str = "") -> str:
    """Caption/value rows (``<th>`` caption, ``<td>`` value) for info blocks and totals."""
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in pairs)
    return f'<table class="{cls}">{rows}</table>' if cls else f"<table>{rows}</table>"


def cells(pairs: Iterable[tuple[str, str]]) -> str:
    """Caption-above-value cells, as card-style layouts print their key facts."""
    return "".join(
        f'<div class="cell"><div class="cap">{esc(k)}</div><div class="val">{esc(v)}</div></div>'
        for k, v in pairs
    )


def logo(rng: random.Random, name: str) -> str:
    """A logo box: the name's initials in a square, circle or rounded mark, or a bar motif."""
    words = [w for w in name.replace("&", " ").split() if w[:1].isalpha()]
    initials = "".join(w[0] for w in words[:2]).upper() or "·"
    shape = rng.choice(["square", "circle", "round", "bars"])
    if shape == "bars":
        return '<div class="logo logo-bars"><span></span><span></span><span></span></div>'
    return f'<div class="logo logo-{shape}">{esc(initials)}</div>'


def barcode(rng: random.Random, bars: int = 42) -> str:
    """A decorative barcode strip (bars of random widths), as receipts and slips print."""
    spans = "".join(
        f'<i style="width:{rng.choice((1, 1, 2, 3))}px;margin-right:{rng.choice((1, 2))}px"></i>'
        for _ in range(bars)
    )
    return f'<div class="barcode">{spans}</div>'
