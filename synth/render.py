"""Rendering a document's visual zone and MRZ into an image.

Layouts are not fixed templates but a handful of families (TD3 data page, optionally as an open
booklet; TD2 card; TD1 front, back, or both sides on one page) whose parts move and change with
a sampled ``Style``: photo side, header band, label language and placement, date format, fonts,
colours and background patterns. Variety in these is what keeps a reader honest.

Geometry is worked out in millimetres of the real ICAO sizes and converted with ``px_per_mm``,
so the MRZ always has the ICAO pitch (about 2.54 mm a character) relative to the card.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from synth import fonts, patterns
from synth.fonts import FontFace
from synth.identity import Identity, pick, pick_weighted
from synth.mrz import FILLER
from synth.patterns import Color, Palette

Box = tuple[float, float, float, float]

# Physical sizes (mm) of the ICAO formats: ID-1, ID-2, ID-3 (passport data page).
SIZES_MM = {"TD1": (85.6, 53.98), "TD2": (105.0, 74.0), "TD3": (125.0, 88.0)}

# Resolution ranges (px/mm): small cards get more pixels so their MRZ stays as legible.
PX_PER_MM = {"TD1": (11.0, 14.0), "TD2": (10.0, 12.5), "TD3": (9.0, 11.5)}

# Captions in English, French and Spanish; styles combine one or two of them.
LABELS: dict[str, tuple[str, str, str]] = {
    "type": ("Type", "Type", "Tipo"),
    "code": ("Code", "Code", "Código"),
    "passport_number": ("Passport No.", "N° du passeport", "Pasaporte N°"),
    "document_number": ("Document No.", "N° du document", "Documento N°"),
    "surname": ("Surname", "Nom", "Apellidos"),
    "given_names": ("Given names", "Prénoms", "Nombres"),
    "nationality": ("Nationality", "Nationalité", "Nacionalidad"),
    "date_of_birth": ("Date of birth", "Date de naissance", "Fecha de nacimiento"),
    "sex": ("Sex", "Sexe", "Sexo"),
    "place_of_birth": ("Place of birth", "Lieu de naissance", "Lugar de nacimiento"),
    "date_of_issue": ("Date of issue", "Date de délivrance", "Fecha de expedición"),
    "authority": ("Authority", "Autorité", "Autoridad"),
    "date_of_expiry": ("Date of expiry", "Date d'expiration", "Fecha de caducidad"),
    "personal_number": ("Personal No.", "N° personnel", "N° personal"),
    "signature": ("Holder's signature", "Signature du titulaire", "Firma del titular"),
}
LANGUAGE_SETS: tuple[tuple[tuple[int, ...], float], ...] = (
    ((0,), 0.4),
    ((0, 1), 0.3),
    ((1, 0), 0.1),
    ((0, 2), 0.1),
    ((2, 0), 0.1),
)

TITLES: dict[str, tuple[str, str, str]] = {
    "P": ("PASSPORT", "PASSEPORT", "PASAPORTE"),
    "PD": ("DIPLOMATIC PASSPORT", "PASSEPORT DIPLOMATIQUE", "PASAPORTE DIPLOMÁTICO"),
    "PO": ("OFFICIAL PASSPORT", "PASSEPORT OFFICIEL", "PASAPORTE OFICIAL"),
    "PS": ("SERVICE PASSPORT", "PASSEPORT DE SERVICE", "PASAPORTE DE SERVICIO"),
    "I": ("IDENTITY CARD", "CARTE D'IDENTITÉ", "DOCUMENTO DE IDENTIDAD"),
    "ID": ("NATIONAL IDENTITY CARD", "CARTE NATIONALE D'IDENTITÉ", "DOCUMENTO NACIONAL DE IDENTIDAD"),
    "IR": ("RESIDENCE PERMIT", "TITRE DE SÉJOUR", "PERMISO DE RESIDENCIA"),
    "IP": ("PASSPORT CARD", "CARTE PASSEPORT", "TARJETA PASAPORTE"),
    "A": ("CREW MEMBER CERTIFICATE", "CERTIFICAT DE MEMBRE D'ÉQUIPAGE", "CERTIFICADO DE TRIPULANTE"),
    "C": ("IDENTITY CERTIFICATE", "CERTIFICAT D'IDENTITÉ", "CERTIFICADO DE IDENTIDAD"),
}

_MONTHS_EN = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_MONTHS_FR = ("JAN", "FÉV", "MARS", "AVR", "MAI", "JUIN", "JUIL", "AOÛT", "SEPT", "OCT", "NOV", "DÉC")
DATE_FORMATS = ("dd MON yyyy", "dd MON/MOIS yy", "dd.mm.yyyy", "dd/mm/yyyy", "yyyy-mm-dd", "dd mm yyyy")


def format_date(value: date, style: str) -> str:
    """A date as printed in the visual zone (the MRZ always uses YYMMDD)."""
    month_en, month_fr = _MONTHS_EN[value.month - 1], _MONTHS_FR[value.month - 1]
    if style == "dd MON yyyy":
        return f"{value.day:02d} {month_en} {value.year}"
    if style == "dd MON/MOIS yy":
        return f"{value.day:02d} {month_en}/{month_fr} {value.year % 100:02d}"
    if style == "dd.mm.yyyy":
        return value.strftime("%d.%m.%Y")
    if style == "dd/mm/yyyy":
        return value.strftime("%d/%m/%Y")
    if style == "dd mm yyyy":
        return value.strftime("%d %m %Y")
    return value.isoformat()


@dataclass(frozen=True)
class Style:
    """The design choices of one document, drawn once and applied to every part of it."""

    palette: Palette
    label_face: FontFace
    value_face: FontFace
    title_face: FontFace
    mrz_font: str
    languages: tuple[int, ...]
    numbered: bool
    upper_labels: bool
    label_inline: bool  # "Surname: VALUE" instead of a caption above the value
    value_bold: bool
    date_format: str
    photo_left: bool
    header_band: bool
    header_centered: bool
    grayscale_photo: bool
    nationality_as_code: bool
    ghost_image: bool
    label_scale: float
    value_scale: float


def sample_style(rng: np.random.Generator) -> Style:
    faces = fonts.viz_faces()
    ocrb, mono = fonts.mrz_fonts()
    if ocrb and (not mono or rng.random() < 0.88):
        mrz_font = pick_weighted(rng, [(path, 0.8 if i == 0 else 0.2) for i, path in enumerate(ocrb)])
    else:
        mrz_font = pick(rng, fonts.mrz_font_choices())
    value_face = pick(rng, faces)
    return Style(
        palette=patterns.sample_palette(rng),
        label_face=pick(rng, faces) if rng.random() < 0.5 else value_face,
        value_face=value_face,
        title_face=pick(rng, faces),
        mrz_font=mrz_font,
        languages=pick_weighted(rng, LANGUAGE_SETS),
        numbered=rng.random() < 0.25,
        upper_labels=rng.random() < 0.3,
        label_inline=rng.random() < 0.2,
        value_bold=rng.random() < 0.5,
        date_format=pick(rng, DATE_FORMATS),
        photo_left=rng.random() < 0.8,
        header_band=rng.random() < 0.45,
        header_centered=rng.random() < 0.5,
        grayscale_photo=rng.random() < 0.4,
        nationality_as_code=rng.random() < 0.5,
        ghost_image=rng.random() < 0.3,
        label_scale=rng.uniform(0.85, 1.15),
        value_scale=rng.uniform(0.85, 1.15),
    )


@dataclass(frozen=True)
class RenderedDocument:
    """The undegraded document: RGB pixels, a mask of where the document is, and its scale."""

    image: np.ndarray  # H x W x 3 uint8 RGB
    mask: np.ndarray  # H x W uint8, 255 on the document(s), 0 on the page around them
    px_per_mm: float
    layout: str


# --------------------------------------------------------------------------------------------
# Text with fonts that may lack glyphs


_NOT_A_GLYPH = "\ue000"  # a private-use code point: fonts render their .notdef box for it


def _glyph_image(path: str, char: str) -> bytes:
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((4, 4), char, font=fonts.load(path, 24), fill=255)
    return image.tobytes()


@functools.cache
def _missing_glyph_image(path: str) -> bytes:
    return _glyph_image(path, _NOT_A_GLYPH)


@functools.cache
def _has_glyph(path: str, char: str) -> bool:
    return char.isspace() or _glyph_image(path, char) != _missing_glyph_image(path)


def font_path_for(face: FontFace, text: str, bold: bool) -> str:
    """The face's file, or the first installed face that has every glyph of ``text``.

    OCR-B and some URW fonts lack letters such as Ł or Ș; without this they would print boxes.
    """
    path = face.bold if bold else face.regular
    if all(_has_glyph(path, c) for c in text):
        return path
    for other in fonts.viz_faces():
        candidate = other.bold if bold else other.regular
        if all(_has_glyph(candidate, c) for c in text):
            return candidate
    return path


class Canvas:
    """A PIL drawing surface that thinks in millimetres."""

    def __init__(self, background: np.ndarray, px_per_mm: float) -> None:
        self.image = Image.fromarray(background)
        self.draw = ImageDraw.Draw(self.image)
        self.s = px_per_mm

    def px(self, mm: float) -> float:
        return mm * self.s

    def box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        """A rectangle in millimetres as pixels."""
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)

    def text_width(self, text: str, path: str, size_px: float) -> float:
        return float(self.draw.textlength(text, font=fonts.load(path, round(size_px))))

    def text(
        self,
        x: float,
        baseline: float,
        text: str,
        face: FontFace,
        size_px: float,
        fill: Color,
        bold: bool = False,
        max_width: float | None = None,
        anchor: str = "ls",
    ) -> float:
        """Draw ``text`` with its baseline at ``baseline`` (px), shrunk to ``max_width``; returns its width."""
        path = font_path_for(face, text, bold)
        width = self.text_width(text, path, size_px)
        if max_width is not None and width > max_width > 0:
            size_px = size_px * max_width / width
            width = self.text_width(text, path, size_px)
        self.draw.text((x, baseline), text, font=fonts.load(path, round(size_px)), fill=fill, anchor=anchor)
        return width

    def array(self) -> np.ndarray:
        return np.asarray(self.image.convert("RGB")).copy()


# --------------------------------------------------------------------------------------------
# Parts: portrait, signature, header, fields, MRZ


_SKIN = ((241, 205, 180), (224, 172, 138), (198, 134, 100), (160, 104, 72), (110, 70, 48), (236, 192, 150))
_HAIR = ((30, 25, 20), (70, 45, 25), (120, 85, 50), (200, 170, 110), (140, 140, 140), (20, 20, 30))
_PHOTO_BG = ((235, 238, 242), (214, 226, 240), (245, 245, 245), (225, 225, 225), (205, 220, 230))


def portrait(rng: np.random.Generator, width: int, height: int, grayscale: bool) -> Image.Image:
    """A drawn head-and-shoulders silhouette standing in for the holder's photo."""
    img = Image.new("RGB", (width, height), pick(rng, _PHOTO_BG))
    draw = ImageDraw.Draw(img)
    skin, hair = pick(rng, _SKIN), pick(rng, _HAIR)
    clothes = patterns.hsv(float(rng.random()), rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.6))
    cx = width / 2 + rng.uniform(-0.04, 0.04) * width
    head_w = width * rng.uniform(0.4, 0.52)
    head_h = head_w * rng.uniform(1.2, 1.4)
    top = height * rng.uniform(0.1, 0.2)
    draw.ellipse((cx - width * 0.62, height * 0.74, cx + width * 0.62, height * 1.5), fill=clothes)
    neck = tuple(int(c * 0.85) for c in skin)
    draw.rectangle((cx - head_w * 0.2, top + head_h * 0.7, cx + head_w * 0.2, height * 0.82), fill=neck)
    hair_len = rng.uniform(0.5, 1.15)
    if rng.random() < 0.9:
        draw.ellipse(
            (cx - head_w * 0.58, top - head_h * 0.08, cx + head_w * 0.58, top + head_h * hair_len), fill=hair
        )
    draw.ellipse((cx - head_w / 2, top, cx + head_w / 2, top + head_h), fill=skin)
    if rng.random() < 0.85:
        draw.chord(
            (cx - head_w * 0.53, top - head_h * 0.06, cx + head_w * 0.53, top + head_h * 0.55),
            180,
            360,
            fill=hair,
        )
    eye_y, eye_dx = top + head_h * 0.5, head_w * 0.18
    for side in (-1, 1):
        ex = cx + side * eye_dx
        draw.ellipse(
            (ex - head_w * 0.05, eye_y - head_h * 0.02, ex + head_w * 0.05, eye_y + head_h * 0.02),
            fill=(40, 30, 30),
        )
    mouth_y = top + head_h * 0.78
    draw.line(
        (cx - head_w * 0.12, mouth_y, cx + head_w * 0.12, mouth_y),
        fill=(140, 70, 70),
        width=max(1, width // 80),
    )
    if grayscale:
        img = img.convert("L").convert("RGB")
    return img.filter(ImageFilter.GaussianBlur(radius=max(0.5, width / 160)))


def paste_portrait(
    canvas: Canvas, rng: np.random.Generator, box: Box, style: Style, ghost: bool = False
) -> None:
    x0, y0, x1, y1 = (round(v) for v in box)
    photo = portrait(rng, x1 - x0, y1 - y0, style.grayscale_photo or ghost)
    if ghost:  # the faint secondary portrait many cards print
        base = canvas.image.crop((x0, y0, x1, y1))
        canvas.image.paste(Image.blend(base, photo, 0.22), (x0, y0))
        return
    canvas.image.paste(photo, (x0, y0))
    if rng.random() < 0.5:
        canvas.draw.rectangle(
            (x0, y0, x1 - 1, y1 - 1), outline=style.palette.accent, width=max(1, round(canvas.s * 0.2))
        )


def signature(canvas: Canvas, rng: np.random.Generator, box: Box, color: Color) -> None:
    """A looping scribble in the box."""
    x0, y0, x1, y1 = box
    t = np.linspace(0, 1, 160)
    loops = rng.uniform(3, 9)
    xs = x0 + (x1 - x0) * (0.05 + 0.8 * t) + (x1 - x0) * 0.04 * np.sin(2 * math.pi * loops * t)
    ys = (y0 + y1) / 2 + (y1 - y0) * 0.35 * np.sin(2 * math.pi * loops * t + rng.uniform(0, 6)) * np.cos(
        2 * math.pi * rng.uniform(0.3, 1.2) * t
    )
    canvas.draw.line(
        list(zip(xs.tolist(), ys.tolist(), strict=True)),
        fill=color,
        width=max(1, round(canvas.s * 0.25)),
        joint="curve",
    )


def label_text(key: str, style: Style, number: int | None) -> str:
    words = [LABELS[key][i] for i in style.languages]
    text = " / ".join(dict.fromkeys(words))  # "Type / Type" reads as just "Type"
    if style.upper_labels:
        text = text.upper()
    if style.numbered and number is not None:
        text = f"{number}. {text}"
    return text


def document_title(code: str, style: Style) -> str:
    key = code.rstrip(FILLER)
    titles = TITLES.get(key) or TITLES[key[0]]
    return " / ".join(titles[i] for i in style.languages)


def header(
    canvas: Canvas,
    width_mm: float,
    height_mm: float,
    identity: Identity,
    style: Style,
    rng: np.random.Generator,
) -> None:
    """Country name and document title across the top, on a band or straight on the paper."""
    palette = style.palette
    if style.header_band:
        canvas.draw.rectangle((0, 0, canvas.px(width_mm), canvas.px(height_mm)), fill=palette.accent)
        color = palette.header_text
    else:
        color = palette.accent
    country = identity.issuing_country_name
    title = document_title(identity.mrz.document_code, style)
    margin = canvas.px(4)
    max_width = canvas.px(width_mm) - 2 * margin
    big, small = canvas.px(height_mm * 0.36), canvas.px(height_mm * 0.26)
    if rng.random() < 0.5:
        first, second, first_size, second_size = country, title, small, big
    else:
        first, second, first_size, second_size = title, country, big, small
    y1 = canvas.px(height_mm * 0.12) + first_size * 0.85
    y2 = y1 + second_size * 1.1
    if style.header_centered:
        cx = canvas.px(width_mm) / 2
        canvas.text(
            cx, y1, first, style.title_face, first_size, color, bold=True, max_width=max_width, anchor="ms"
        )
        canvas.text(
            cx, y2, second, style.title_face, second_size, color, bold=False, max_width=max_width, anchor="ms"
        )
    else:
        canvas.text(margin, y1, first, style.title_face, first_size, color, bold=True, max_width=max_width)
        canvas.text(margin, y2, second, style.title_face, second_size, color, bold=False, max_width=max_width)


@dataclass(frozen=True)
class Entry:
    """One caption and value in the field grid; ``span`` is in sixths of the grid's width."""

    key: str
    value: str
    span: int = 6
    optional: bool = False


def field_grid(canvas: Canvas, entries: Sequence[Entry], box: Box, style: Style, base_mm: float) -> None:
    """Flow ``entries`` into rows inside ``box`` (px): shrink the text, then drop optional entries.

    A row that still would not fit is left out rather than drawn below ``box``, where it could
    spill into the MRZ's clear zone and make the ground truth wrong.
    """
    x0, y0, x1, y1 = box
    items = list(entries)
    scale = 1.0
    while True:
        label_px = canvas.px(base_mm * 0.62 * style.label_scale) * scale
        value_px = canvas.px(base_mm * style.value_scale) * scale
        row_h = max(label_px, value_px) * 1.55 if style.label_inline else label_px * 1.15 + value_px * 1.35
        rows = _pack(items)
        if len(rows) * row_h <= y1 - y0:
            break
        optional = [i for i, e in enumerate(items) if e.optional]
        if optional and scale <= 0.72:
            items.pop(optional[-1])
        elif scale > 0.4:
            scale *= 0.93
        else:
            break
    cell_unit = (x1 - x0) / 6
    number = 1
    for row_index, row in enumerate(rows):
        y = y0 + row_index * row_h
        if y + row_h > y1 + 0.2 * row_h:
            break
        x = x0
        for entry in row:
            cell = (x, y, x + cell_unit * entry.span - canvas.px(1.2))
            _draw_entry(canvas, entry, label_text(entry.key, style, number), cell, style, label_px, value_px)
            number += 1
            x += cell_unit * entry.span


def _draw_entry(
    canvas: Canvas,
    entry: Entry,
    label: str,
    cell: tuple[float, float, float],
    style: Style,
    label_px: float,
    value_px: float,
) -> None:
    """One caption and value: the caption above the value, or inline before it ("Sex: F")."""
    x, y, right = cell
    width = right - x
    palette = style.palette
    if style.label_inline:
        baseline = y + max(label_px, value_px)
        label_w = canvas.text(
            x, baseline, label + ":", style.label_face, label_px, palette.label, max_width=width * 0.6
        )
        value_x = x + label_w + canvas.px(1.0)
        value_baseline, value_width = baseline, right - value_x
    else:
        baseline = y + label_px * 0.95
        canvas.text(x, baseline, label, style.label_face, label_px, palette.label, max_width=width)
        value_x, value_baseline, value_width = x, baseline + value_px * 1.12, width
    canvas.text(
        value_x,
        value_baseline,
        entry.value,
        style.value_face,
        value_px,
        palette.ink,
        bold=style.value_bold,
        max_width=value_width,
    )


def _pack(entries: Sequence[Entry]) -> list[list[Entry]]:
    rows: list[list[Entry]] = []
    current: list[Entry] = []
    used = 0
    for entry in entries:
        if used + entry.span > 6:
            rows.append(current)
            current, used = [], 0
        current.append(entry)
        used += entry.span
    if current:
        rows.append(current)
    return rows


def mrz_block(
    canvas: Canvas,
    lines: Sequence[str],
    width_mm: float,
    height_mm: float,
    style: Style,
    rng: np.random.Generator,
) -> None:
    """The MRZ in a monospaced grid at the ICAO pitch, bottom line a few millimetres above the edge."""
    n_chars = len(lines[0])
    pitch_mm = min(rng.uniform(2.42, 2.6), (width_mm - 5) / n_chars)
    line_pitch_mm = rng.uniform(3.7, 4.4) if len(lines) == 3 else rng.uniform(4.2, 5.2)
    left_mm = (width_mm - pitch_mm * n_chars) / 2 + rng.uniform(-0.8, 0.8)
    bottom_mm = height_mm - rng.uniform(3.6, 5.6)
    pitch = canvas.px(pitch_mm)
    probe = fonts.load(style.mrz_font, 100)
    advance_ratio = float(canvas.draw.textlength("<", font=probe)) / 100 or 0.6
    size = round(pitch * rng.uniform(0.9, 1.0) / advance_ratio)
    font = fonts.load(style.mrz_font, size)
    ink = patterns.hsv(0, 0, rng.uniform(0.0, 0.18))
    for i, line in enumerate(lines):
        baseline = canvas.px(bottom_mm - (len(lines) - 1 - i) * line_pitch_mm)
        for j, char in enumerate(line):
            advance = float(canvas.draw.textlength(char, font=font))
            x = canvas.px(left_mm) + j * pitch + (pitch - advance) / 2
            canvas.draw.text((x, baseline), char, font=font, fill=ink, anchor="ls")


# --------------------------------------------------------------------------------------------
# Layout families


def _entries_main(identity: Identity, style: Style, number_key: str, rng: np.random.Generator) -> list[Entry]:
    """Type/code/number, names, nationality, dates, sex and the optional extras, in one of a few orders."""
    mrz = identity.mrz
    fmt = style.date_format
    nationality = mrz.nationality if style.nationality_as_code else identity.nationality_name
    entries = [
        Entry("type", mrz.document_code.rstrip(FILLER), 1),
        Entry("code", mrz.issuing_country, 2),
        Entry(number_key, mrz.document_number, 3),
        Entry("surname", identity.printed_surname),
        Entry("given_names", identity.printed_given_names),
    ]
    if rng.random() < 0.5:
        entries += [Entry("nationality", nationality, 4), Entry("sex", mrz.sex, 2)]
        entries += [Entry("date_of_birth", format_date(mrz.date_of_birth, fmt), 3)]
        entries += [Entry("place_of_birth", identity.place_of_birth, 3, optional=True)]
    else:
        entries += [Entry("nationality", nationality)]
        entries += [Entry("date_of_birth", format_date(mrz.date_of_birth, fmt), 3), Entry("sex", mrz.sex, 3)]
        entries += [Entry("place_of_birth", identity.place_of_birth, 6, optional=True)]
    entries += [
        Entry("date_of_issue", format_date(identity.date_of_issue, fmt), 3, optional=True),
        Entry("authority", identity.authority, 3, optional=True),
        Entry("date_of_expiry", format_date(mrz.date_of_expiry, fmt), 3),
    ]
    if mrz.personal_number:
        entries.append(Entry("personal_number", mrz.personal_number, 3, optional=True))
    return entries


def _data_page(
    identity: Identity,
    lines: Sequence[str],
    style: Style,
    rng: np.random.Generator,
    px_per_mm: float,
    size_mm: tuple[float, float],
    mrz_zone_mm: float,
    photo_w_mm: tuple[float, float],
    base_text_mm: float,
) -> np.ndarray:
    """A passport data page or a TD2 card: header, portrait, field grid, signature, MRZ."""
    width_mm, height_mm = size_mm
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    background = patterns.security_background(rng, w, h, style.palette, px_per_mm)
    mrz_top_mm = height_mm - mrz_zone_mm
    patterns.clear_zone(background, round(mrz_top_mm * px_per_mm), rng.uniform(0.55, 0.95))
    canvas = Canvas(background, px_per_mm)
    header_mm = rng.uniform(0.1, 0.15) * height_mm
    header(canvas, width_mm, header_mm, identity, style, rng)

    top_mm = header_mm + rng.uniform(2.0, 5.0)
    photo_w = rng.uniform(*photo_w_mm)
    photo_h = min(photo_w * 1.28, mrz_top_mm - top_mm - 2)
    photo_w = photo_h / 1.28
    margin = rng.uniform(4.0, 7.0)
    photo_x = margin if style.photo_left else width_mm - margin - photo_w
    paste_portrait(canvas, rng, canvas.box(photo_x, top_mm, photo_x + photo_w, top_mm + photo_h), style)

    if style.photo_left:
        fx0, fx1 = photo_x + photo_w + rng.uniform(3.5, 6.0), width_mm - 4
    else:
        fx0, fx1 = 5.0, photo_x - rng.uniform(3.5, 6.0)
    sig_space = mrz_top_mm - (top_mm + photo_h)
    fy1 = mrz_top_mm - 1.5
    if sig_space >= 6:
        sig_box = (photo_x, top_mm + photo_h + 1, photo_x + photo_w, mrz_top_mm - 1)
    else:
        fy1 = mrz_top_mm - 8
        sig_box = (fx1 - 35, mrz_top_mm - 7.5, fx1 - 2, mrz_top_mm - 1)
    if style.ghost_image:
        gw = min(18.0, (fx1 - fx0) * 0.25)
        gx = fx1 - gw
        ghost = (gx, fy1 - gw * 1.28, fx1, fy1)
        paste_portrait(canvas, rng, canvas.box(*ghost), style, ghost=True)
    number_key = "passport_number" if identity.mrz.document_code.startswith("P") else "document_number"
    entries = _entries_main(identity, style, number_key, rng)
    field_grid(canvas, entries, canvas.box(fx0, top_mm, fx1, fy1), style, base_text_mm)
    signature(canvas, rng, canvas.box(*sig_box), style.palette.ink)
    mrz_block(canvas, lines, width_mm, height_mm, style, rng)
    return canvas.array()


def _booklet_upper_page(
    rng: np.random.Generator, style: Style, px_per_mm: float, width: int, height: int
) -> np.ndarray:
    """The facing page of an open passport: pattern, perhaps a printed note, no data."""
    page = patterns.security_background(rng, width, height, style.palette, px_per_mm)
    canvas = Canvas(page, px_per_mm)
    if rng.random() < 0.6:
        text = pick(
            rng, ("OBSERVATIONS", "ENDORSEMENTS / MENTIONS", "THIS PASSPORT CONTAINS 32 PAGES", "AMENDMENTS")
        )
        canvas.text(canvas.px(8), canvas.px(14), text, style.label_face, canvas.px(2.4), style.palette.label)
    return canvas.array()


def render_td3(
    identity: Identity, lines: Sequence[str], style: Style, rng: np.random.Generator
) -> RenderedDocument:
    px_per_mm = rng.uniform(*PX_PER_MM["TD3"])
    page = _data_page(
        identity, lines, style, rng, px_per_mm, SIZES_MM["TD3"], rng.uniform(21.0, 24.0), (30.0, 36.0), 3.3
    )
    layout = "td3-page"
    if rng.random() < 0.35:  # an open booklet: the facing page above the data page, and the fold
        h, w = page.shape[:2]
        upper = _booklet_upper_page(rng, style, px_per_mm, w, h)
        page = np.concatenate([upper, page], axis=0)
        fold = np.exp(-(((np.arange(2 * h) - h) / (0.012 * h)) ** 2))[:, None, None]
        page = (page.astype(np.float32) * (1 - 0.35 * fold)).astype(np.uint8)
        layout = "td3-booklet"
    return RenderedDocument(page, np.full(page.shape[:2], 255, np.uint8), px_per_mm, layout)


def _rounded_mask(width: int, height: int, radius: float) -> np.ndarray:
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return np.asarray(mask).copy()


def render_td2(
    identity: Identity, lines: Sequence[str], style: Style, rng: np.random.Generator
) -> RenderedDocument:
    px_per_mm = rng.uniform(*PX_PER_MM["TD2"])
    card = _data_page(
        identity, lines, style, rng, px_per_mm, SIZES_MM["TD2"], rng.uniform(16.5, 19.0), (24.0, 29.0), 2.9
    )
    h, w = card.shape[:2]
    return RenderedDocument(card, _rounded_mask(w, h, 3.2 * px_per_mm), px_per_mm, "td2-card")


def _td1_front(identity: Identity, style: Style, rng: np.random.Generator, px_per_mm: float) -> np.ndarray:
    width_mm, height_mm = SIZES_MM["TD1"]
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    canvas = Canvas(patterns.security_background(rng, w, h, style.palette, px_per_mm), px_per_mm)
    header_mm = rng.uniform(7.0, 9.5)
    header(canvas, width_mm, header_mm, identity, style, rng)
    top = header_mm + rng.uniform(1.5, 3.0)
    photo_h = min(rng.uniform(26.0, 32.0), height_mm - top - 6)
    photo_w = photo_h / 1.28
    margin = rng.uniform(3.0, 5.0)
    photo_x = margin if style.photo_left else width_mm - margin - photo_w
    paste_portrait(canvas, rng, canvas.box(photo_x, top, photo_x + photo_w, top + photo_h), style)
    signature(
        canvas,
        rng,
        canvas.box(photo_x, top + photo_h + 0.5, photo_x + photo_w, height_mm - 1.5),
        style.palette.ink,
    )
    fx0, fx1 = (photo_x + photo_w + 3, width_mm - 3) if style.photo_left else (3.5, photo_x - 3)
    mrz = identity.mrz
    fmt = style.date_format
    nationality = mrz.nationality if style.nationality_as_code else identity.nationality_name
    entries = [
        Entry("surname", identity.printed_surname),
        Entry("given_names", identity.printed_given_names),
        Entry("sex", mrz.sex, 2),
        Entry("nationality", nationality, 4),
        Entry("date_of_birth", format_date(mrz.date_of_birth, fmt), 3),
        Entry("document_number", mrz.document_number, 3),
        Entry("date_of_expiry", format_date(mrz.date_of_expiry, fmt), 3),
    ]
    if mrz.personal_number:
        entries.append(Entry("personal_number", mrz.personal_number, 3, optional=True))
    field_grid(canvas, entries, canvas.box(fx0, top, fx1, height_mm - 2), style, 2.5)
    return canvas.array()


def _td1_back(
    identity: Identity, lines: Sequence[str], style: Style, rng: np.random.Generator, px_per_mm: float
) -> np.ndarray:
    width_mm, height_mm = SIZES_MM["TD1"]
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    background = patterns.security_background(rng, w, h, style.palette, px_per_mm)
    mrz_top = height_mm - rng.uniform(17.5, 20.0)
    patterns.clear_zone(background, round(mrz_top * px_per_mm), rng.uniform(0.55, 0.95))
    canvas = Canvas(background, px_per_mm)
    fmt = style.date_format
    entries = [
        Entry("date_of_issue", format_date(identity.date_of_issue, fmt), 3),
        Entry("authority", identity.authority, 3),
        Entry("place_of_birth", identity.place_of_birth, 6, optional=True),
    ]
    left = rng.uniform(3.0, 5.0)
    right = width_mm - 3
    if style.ghost_image:
        gh = min(mrz_top - 5, 22.0)
        gx = width_mm - 4 - gh / 1.28
        paste_portrait(canvas, rng, canvas.box(gx, 3.5, gx + gh / 1.28, 3.5 + gh), style, ghost=True)
        right = gx - 2
    field_grid(canvas, entries, canvas.box(left, 4.0, right, mrz_top - 1.5), style, 2.4)
    mrz_block(canvas, lines, width_mm, height_mm, style, rng)
    return canvas.array()


def render_td1(
    identity: Identity, lines: Sequence[str], style: Style, rng: np.random.Generator
) -> RenderedDocument:
    """The back (with the MRZ) alone, or both sides on one page, stacked or side by side."""
    px_per_mm = rng.uniform(*PX_PER_MM["TD1"])
    radius = 3.2 * px_per_mm
    back = _td1_back(identity, lines, style, rng, px_per_mm)
    h, w = back.shape[:2]
    arrangement = pick_weighted(rng, (("back", 0.45), ("stacked", 0.3), ("side-by-side", 0.25)))
    if arrangement == "back":
        return RenderedDocument(back, _rounded_mask(w, h, radius), px_per_mm, "td1-back")
    front = _td1_front(identity, style, rng, px_per_mm)
    gap = round(rng.uniform(3.0, 10.0) * px_per_mm)
    card_mask = _rounded_mask(w, h, radius)
    back_first = rng.random() < 0.2
    first, second = (back, front) if back_first else (front, back)
    if arrangement == "stacked":
        image = np.full((2 * h + gap, w, 3), 255, np.uint8)
        mask = np.zeros((2 * h + gap, w), np.uint8)
        slots = [(0, 0), (h + gap, 0)]
    else:
        image = np.full((h, 2 * w + gap, 3), 255, np.uint8)
        mask = np.zeros((h, 2 * w + gap), np.uint8)
        slots = [(0, 0), (0, w + gap)]
    for card, (y, x) in zip((first, second), slots, strict=True):
        inside = card_mask[..., None] > 0
        image[y : y + h, x : x + w] = np.where(inside, card, image[y : y + h, x : x + w])
        mask[y : y + h, x : x + w] = card_mask
    return RenderedDocument(image, mask, px_per_mm, f"td1-{arrangement}")


def render(identity: Identity, lines: Sequence[str], rng: np.random.Generator) -> RenderedDocument:
    """Render ``identity`` with MRZ ``lines`` in a freshly sampled style of its format's layouts."""
    style = sample_style(rng)
    renderer = {"TD1": render_td1, "TD2": render_td2, "TD3": render_td3}[identity.mrz.format.name]
    rendered = renderer(identity, lines, style, rng)
    # Corners outside the rounded mask are white paper until a degradation places the card somewhere.
    outside = rendered.mask == 0
    if outside.any():
        rendered.image[outside] = 255
    return rendered
