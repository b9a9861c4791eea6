"""Synthetic US and Canadian driver licences: a printed front, and a back with an AAMVA PDF417.

A licence reader has two sources that must agree: the front, read by OCR, and the barcode on
the back, which encodes the same data in the AAMVA DL/ID format. This generator draws a
fictitious holder (some with a suffix, JR or III, and a unit on their street), encodes them in
an AAMVA payload of one of several versions with the header deviations and name layouts real
cards have (``synth.aamva_writer``: version 01 with its whole name in DAA or in DAB/DAC/DAD and
CCYYMMDD dates, 03 with DCT given names, 08, 09, 10; Canadian ones with CCYYMMDD dates; wrong
subfile offsets, LF for CR, a separator missing or doubled), prints the front in one of four
label styles (numbered AAMVA fields "4d DLN", abbreviated "LN"/"FN", bilingual captions above
values, "LABEL:" inline), and delivers the card as a photocopy of both sides on one image or as
a two-page PDF, degraded by ``synth.degrade``.

    data, extension, truth = generate(rng, profile="scan", severity=1.0)

Every random choice comes from ``rng`` in a fixed order: the same generator state gives the same
bytes (choices added later come from generators seeded by the licence's own draws, so earlier
seeds keep their documents). ``truth["fields"]`` holds the driver_license fields of the field
spec as the barcode encodes them (which the front prints too, unless a test asks for a
different front): the unit in ``address_street_2`` when the barcode keeps it apart (DAH).
"""

from __future__ import annotations

import datetime as dt
import io
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import cv2
import numpy as np
import zxingcpp

from synth import data, degrade, patterns, render
from synth.aamva_writer import PayloadStyle
from synth.aamva_writer import aamva_payload as _write_payload
from synth.identity import IN_CIRCULATION_ON, pick, pick_weighted, random_date, random_string
from synth.render import Canvas, RenderedDocument, Style

PROFILES = (*degrade.PROFILES, "mixed")
MIXED_WEIGHTS = (("clean", 0.2), ("scan", 0.4), ("photo", 0.4))
LAYOUTS = ("numbered", "abbreviated", "captions", "colon")
CONTAINERS = ("pdf", "stacked", "side")  # a two-page PDF, or both sides on one image
CARD_MM = (85.6, 53.98)
PX_PER_MM = (11.5, 14.0)
_DIGITS = "0123456789"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PDF_EPOCH = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)  # fixed: same seed, same PDF bytes


@dataclass(frozen=True)
class Jurisdiction:
    """An issuer: how its numbers look, which classes it issues, where its holders live."""

    code: str
    name: str
    country: str  # "USA" | "CAN"
    number_style: str  # see _document_number
    classes: tuple[str, ...]
    cities: tuple[tuple[str, str], ...]  # (city, ZIP prefix (3 digits) or postal-code first letter)


def _jurisdiction(
    code: str, name: str, country: str, number_style: str, classes: str, cities: str
) -> Jurisdiction:
    """One table row: classes space-separated ("-" for none), cities as "CITY:PREFIX,CITY:PREFIX"."""
    places = tuple((place.split(":")[0], place.split(":")[1]) for place in cities.split(","))
    return Jurisdiction(
        code, name, country, number_style, tuple(c.strip("-") for c in classes.split()), places
    )


JURISDICTIONS: tuple[Jurisdiction, ...] = (
    _jurisdiction(
        "CA", "CALIFORNIA", "USA", "L7", "C A B M1", "SACRAMENTO:958,LOS ANGELES:900,SAN DIEGO:921,FRESNO:937"
    ),
    _jurisdiction("TX", "TEXAS", "USA", "D8", "C A B M", "AUSTIN:787,DALLAS:752,HOUSTON:770,EL PASO:799"),
    _jurisdiction(
        "NY", "NEW YORK", "USA", "D9", "D E DM", "ALBANY:122,BUFFALO:142,ROCHESTER:146,BROOKLYN:112"
    ),
    _jurisdiction("FL", "FLORIDA", "USA", "L12", "E A B", "TALLAHASSEE:323,MIAMI:331,ORLANDO:328,TAMPA:336"),
    _jurisdiction(
        "PA", "PENNSYLVANIA", "USA", "D8", "C M A", "HARRISBURG:171,PHILADELPHIA:191,PITTSBURGH:152,ERIE:165"
    ),
    _jurisdiction(
        "IL", "ILLINOIS", "USA", "L11", "D C M", "SPRINGFIELD:627,CHICAGO:606,PEORIA:616,ROCKFORD:611"
    ),
    _jurisdiction(
        "WA", "WASHINGTON", "USA", "WDL", "- M A", "OLYMPIA:985,SEATTLE:981,SPOKANE:992,TACOMA:984"
    ),
    _jurisdiction(
        "VA", "VIRGINIA", "USA", "L8", "D M A", "RICHMOND:232,NORFOLK:235,ROANOKE:240,ARLINGTON:222"
    ),
    _jurisdiction("OH", "OHIO", "USA", "LL6", "D M A", "COLUMBUS:432,CLEVELAND:441,TOLEDO:436,DAYTON:454"),
    _jurisdiction("GA", "GEORGIA", "USA", "D9", "C M A", "ATLANTA:303,SAVANNAH:314,MACON:312,AUGUSTA:309"),
    _jurisdiction("AZ", "ARIZONA", "USA", "L8", "D G M", "PHOENIX:850,TUCSON:857,MESA:852,FLAGSTAFF:860"),
    _jurisdiction(
        "MI", "MICHIGAN", "USA", "L12", "O R A", "LANSING:489,DETROIT:482,GRAND RAPIDS:495,FLINT:485"
    ),
    _jurisdiction("CO", "COLORADO", "USA", "D9", "R C A", "DENVER:802,BOULDER:803,PUEBLO:810,AURORA:800"),
    _jurisdiction(
        "NJ", "NEW JERSEY", "USA", "L14", "D E A", "TRENTON:086,NEWARK:071,CAMDEN:081,PATERSON:075"
    ),
    _jurisdiction("ON", "ONTARIO", "CAN", "ON", "G G1 G2 M", "TORONTO:M,OTTAWA:K,HAMILTON:L,LONDON:N"),
    _jurisdiction("QC", "QUEBEC", "CAN", "L12", "5 6A 1", "MONTREAL:H,QUEBEC:G,GATINEAU:J,LAVAL:H"),
    _jurisdiction(
        "BC", "BRITISH COLUMBIA", "CAN", "D7", "5 7 6", "VANCOUVER:V,VICTORIA:V,SURREY:V,KELOWNA:V"
    ),
    _jurisdiction("AB", "ALBERTA", "CAN", "AB", "5 7 1", "CALGARY:T,EDMONTON:T,RED DEER:T,LETHBRIDGE:T"),
    _jurisdiction("MB", "MANITOBA", "CAN", "D9", "5 1 6", "WINNIPEG:R,BRANDON:R,STEINBACH:R,THOMPSON:R"),
    _jurisdiction("NS", "NOVA SCOTIA", "CAN", "L12", "5 6 1", "HALIFAX:B,SYDNEY:B,TRURO:B,DARTMOUTH:B"),
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_US_SURNAMES = _words(
    "SMITH JOHNSON WILLIAMS BROWN JONES GARCIA MILLER DAVIS RODRIGUEZ MARTINEZ HERNANDEZ LOPEZ "
    "GONZALEZ WILSON ANDERSON THOMAS TAYLOR MOORE JACKSON MARTIN LEE PEREZ THOMPSON WHITE HARRIS "
    "SANCHEZ CLARK RAMIREZ LEWIS ROBINSON WALKER YOUNG ALLEN KING WRIGHT SCOTT TORRES NGUYEN HILL "
    "FLORES GREEN ADAMS NELSON BAKER HALL RIVERA CAMPBELL MITCHELL CARTER ROBERTS TREMBLAY GAGNON "
    "ROY COTE BOUCHARD GAUTHIER MORIN LAVOIE FORTIN MACDONALD CHEN PATEL KOWALSKI OKAFOR"
)
_US_GIVEN_M = _words(
    "JAMES ROBERT JOHN MICHAEL DAVID WILLIAM RICHARD JOSEPH THOMAS CHARLES CHRISTOPHER DANIEL "
    "MATTHEW ANTHONY MARK DONALD STEVEN PAUL ANDREW JOSHUA KEVIN BRIAN GEORGE TIMOTHY RONALD JASON "
    "EDWARD JEFFREY RYAN JACOB GARY NICHOLAS ERIC JONATHAN LUIS CARLOS MARC JEAN PIERRE LIAM NOAH"
)
_US_GIVEN_F = _words(
    "MARY PATRICIA JENNIFER LINDA ELIZABETH BARBARA SUSAN JESSICA SARAH KAREN LISA NANCY BETTY "
    "MARGARET SANDRA ASHLEY KIMBERLY EMILY DONNA MICHELLE CAROL AMANDA MELISSA DEBORAH STEPHANIE "
    "REBECCA SHARON LAURA CYNTHIA AMY ANGELA MARIA ANA SOPHIE CHLOE EMMA OLIVIA AVA ISABELLE"
)
_STREET_NAMES = _words(
    "MAIN OAK MAPLE PINE CEDAR ELM WASHINGTON LAKE HILL PARK 2ND 3RD SUNSET LINCOLN JEFFERSON "
    "MADISON FRANKLIN RIVER SPRING CHURCH HIGHLAND MEADOW FOREST VALLEY KING QUEEN WILLOW BIRCH "
    "CHESTNUT DOGWOOD MAGNOLIA RIDGE ORCHARD HARBOR 14TH 21ST BROADWAY COLLEGE"
)
_STREET_SUFFIXES = ("ST", "AVE", "RD", "DR", "LN", "BLVD", "CT", "WAY", "PL", "TER")
_EYES = ("BRO", "BLU", "GRN", "HAZ", "BLK", "GRY")
_HAIR = ("BRO", "BLK", "BLN", "RED", "GRY", "WHI")


@dataclass(frozen=True)
class Licence:
    """Everything printed on, or encoded in, one licence."""

    jurisdiction: Jurisdiction
    version: int  # AAMVA version of the barcode
    document_number: str
    surname: str
    first_name: str
    middle_names: str
    sex: str  # "M" | "F" | "X"
    date_of_birth: date
    date_of_issue: date
    date_of_expiry: date
    street: str
    unit: str  # printed after the street; encoded in DAH (street 2) or inline
    city: str
    postal_raw: str  # US: 9 digits (the +4 may be 0000); Canada: "K1A0B1"
    license_class: str
    height_cm: int
    eyes: str
    hair: str
    discriminator: str
    suffix: str = ""  # JR, SR, III: its own field, printed after the given names

    @property
    def given_names(self) -> str:
        return " ".join(part for part in (self.first_name, self.middle_names) if part)

    @property
    def printed_given_names(self) -> str:
        """The given names as the front prints them: with the suffix after them."""
        return " ".join(part for part in (self.given_names, self.suffix) if part)

    @property
    def region(self) -> str:
        return self.jurisdiction.code

    @property
    def postal_code(self) -> str:
        """As printed and as the canonical field: ZIP, ZIP+4 when the +4 is not 0000, "K1A 0B1"."""
        if self.jurisdiction.country == "CAN":
            return f"{self.postal_raw[:3]} {self.postal_raw[3:]}"
        if self.postal_raw[5:] == "0000":
            return self.postal_raw[:5]
        return f"{self.postal_raw[:5]}-{self.postal_raw[5:]}"

    @property
    def address_street(self) -> str:
        return " ".join(part for part in (self.street, self.unit) if part)

    def truth_fields(self, *, unit_apart: bool = False) -> dict[str, str]:
        """The canonical fields as the barcode encodes them: ``unit_apart`` when the payload keeps
        the unit in its second address line (DAH), which the field spec keeps apart too."""
        fields = {
            "document_number": self.document_number,
            "surname": self.surname,
            "given_names": self.given_names,
            "name_suffix": self.suffix,
            "date_of_birth": self.date_of_birth.isoformat(),
            "sex": self.sex,
            "date_of_expiry": self.date_of_expiry.isoformat(),
            "date_of_issue": self.date_of_issue.isoformat(),
            "address_street": self.street if unit_apart else self.address_street,
            "address_street_2": self.unit if unit_apart else "",
            "address_city": self.city,
            "address_region": self.region,
            "address_postal_code": self.postal_code,
            "issuing_region": self.region,
            "license_class": self.license_class,
        }
        return {name: value for name, value in fields.items() if value}


# --------------------------------------------------------------------------------------------
# Entry point


def generate(
    rng: np.random.Generator, profile: str = "mixed", severity: float = 1.0
) -> tuple[list[bytes] | bytes, str, dict[str, Any]]:
    """A synthetic licence: (encoded image or PDF bytes, extension, truth).

    ``profile`` is "clean", "scan", "photo" or "mixed"; ``severity`` in 0..1 scales the
    degradations. The first item is always one ``bytes`` here (one image holding both sides, or a
    two-page PDF); the type also admits a list of page images for generators that write several.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")
    if profile == "mixed":
        profile = pick_weighted(rng, MIXED_WEIGHTS)
    licence = sample_licence(rng)
    return compose(licence, rng, profile, severity)


def compose(
    licence: Licence,
    rng: np.random.Generator,
    profile: str,
    severity: float = 1.0,
    *,
    printed: Licence | None = None,
    layout: str | None = None,
    container: str | None = None,
    payload_style: PayloadStyle | None = None,
) -> tuple[bytes, str, dict[str, Any]]:
    """Render and degrade ``licence``. ``printed`` replaces what the front shows (the barcode
    still encodes ``licence``): a tampered or mismatched card, for cross-check tests.
    ``layout`` (one of LAYOUTS) and ``container`` (one of CONTAINERS) are drawn when not given;
    ``payload_style`` fixes how the barcode is written (header deviation, version 01 name layout)."""
    style = render.sample_style(rng)
    drawn_layout = pick(rng, LAYOUTS)
    layout = layout or drawn_layout
    px_per_mm = rng.uniform(*PX_PER_MM)
    payload, payload_meta = aamva_payload(licence, rng, payload_style)
    front = render_front(printed or licence, style, layout, rng, px_per_mm)
    back = render_back(licence, payload, style, rng, px_per_mm)
    photo = profile == "photo"
    drawn_container = pick_weighted(
        rng, (("pdf", 0.75), ("stacked", 0.25)) if photo else (("pdf", 0.3), ("stacked", 0.4), ("side", 0.3))
    )
    container = container or drawn_container
    if container not in CONTAINERS:
        raise ValueError(f"unknown container {container!r}; expected one of {CONTAINERS}")
    steps: list[str]
    if container == "pdf":
        pages = []
        steps = []
        for side in (front, back):
            degraded = degrade.degrade(side, rng, profile, severity)
            steps += list(degraded.steps)
            encoded = _encode(degraded.image, degraded.extension, degraded.jpeg_quality)
            pages.append((encoded, degraded.image.shape))
        output, extension = _pdf(pages, dpi=float(rng.uniform(200, 300))), "pdf"
    else:
        sheet = _photocopy(front, back, container, rng)
        degraded = degrade.degrade(sheet, rng, profile, severity)
        steps = list(degraded.steps)
        output = _encode(degraded.image, degraded.extension, degraded.jpeg_quality)
        extension = degraded.extension
    truth = {
        "document_type": "driver_license",
        "fields": licence.truth_fields(unit_apart=payload_meta["unit_apart"]),
        "meta": {
            "kind": "driver_license",
            "jurisdiction": licence.region,
            "country": licence.jurisdiction.country,
            "layout": layout,
            "container": container,
            "profile": profile,
            "severity": severity,
            "degradations": steps,
            "front_differs": printed is not None and printed != licence,
            **payload_meta,
        },
    }
    return output, extension, truth


# --------------------------------------------------------------------------------------------
# Holder and card data


def _ascii(text: str) -> str:
    """AAMVA barcodes and most US fronts carry no diacritics: fold them away."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(folded.upper().split())


def _surname(rng: np.random.Generator) -> str:
    roll = rng.random()
    if roll < 0.6:
        return pick(rng, _US_SURNAMES)
    base = _ascii(pick(rng, data.SURNAMES))
    if roll < 0.75:
        return base
    if roll < 0.85:
        return f"{pick(rng, ('DE LA', 'VAN', 'DEL', 'DI', 'MAC', 'VON', 'LE'))} {pick(rng, _US_SURNAMES)}"
    if roll < 0.95:
        return f"{pick(rng, _US_SURNAMES)}-{pick(rng, _US_SURNAMES)}"
    return f"{base} {pick(rng, _US_SURNAMES)}"


def _given(rng: np.random.Generator, sex: str) -> tuple[str, str]:
    pool = _US_GIVEN_M if sex == "M" else _US_GIVEN_F if sex == "F" else _US_GIVEN_M + _US_GIVEN_F
    foreign = data.GIVEN_NAMES_MALE if sex == "M" else data.GIVEN_NAMES_FEMALE

    def one() -> str:
        return pick(rng, pool) if rng.random() < 0.75 else _ascii(pick(rng, foreign))

    first = one()
    middle_count = pick_weighted(rng, ((0, 0.3), (1, 0.6), (2, 0.1)))
    middle = " ".join(one() for _ in range(middle_count))
    if middle_count == 1 and rng.random() < 0.15:
        middle = middle[0]  # a middle initial
    return first, middle


def _document_number(rng: np.random.Generator, style: str, surname: str) -> str:
    if style.startswith("D"):
        return random_string(rng, _DIGITS, int(style[1:]))
    if style.startswith("LL"):
        return random_string(rng, _LETTERS, 2) + random_string(rng, _DIGITS, int(style[2:]))
    if style.startswith("L"):
        return random_string(rng, _LETTERS, 1) + random_string(rng, _DIGITS, int(style[1:]))
    if style == "WDL":
        return "WDL" + random_string(rng, _LETTERS + _DIGITS, 9)
    if style == "ON":  # Ontario: the surname's initial, then 14 digits in groups
        digits = random_string(rng, _DIGITS, 14)
        return f"{surname[0]}{digits[:4]}-{digits[4:9]}-{digits[9:]}"
    if style == "AB":
        return f"{random_string(rng, _DIGITS, 6)}-{random_string(rng, _DIGITS, 3)}"
    raise ValueError(f"unknown number style {style!r}")


def _postal(rng: np.random.Generator, jurisdiction: Jurisdiction, prefix: str) -> str:
    if jurisdiction.country == "CAN":
        letters = "ABCEGHJKLMNPRSTVXY"  # letters Canada Post uses
        return (
            prefix
            + pick(rng, _DIGITS)
            + pick(rng, letters)
            + pick(rng, _DIGITS)
            + pick(rng, letters)
            + pick(rng, _DIGITS)
        )
    plus4 = random_string(rng, _DIGITS, 4) if rng.random() < 0.35 else "0000"
    return prefix + random_string(rng, _DIGITS, 2) + plus4


def sample_licence(rng: np.random.Generator) -> Licence:
    """A random, internally consistent licence."""
    jurisdiction = pick(rng, JURISDICTIONS)
    if jurisdiction.country == "CAN":
        version = pick_weighted(rng, ((3, 0.3), (8, 0.3), (10, 0.4)))
    else:
        version = pick_weighted(rng, ((1, 0.08), (3, 0.17), (8, 0.25), (9, 0.2), (10, 0.3)))
    sex = pick_weighted(rng, (("M", 0.47), ("F", 0.47), ("X", 0.06)))
    surname = _surname(rng)
    first, middle = _given(rng, sex)
    birth = random_date(rng, date(1940, 1, 1), date(2007, 12, 31))
    years = int(rng.integers(4, 9))
    first_issue = max(birth + timedelta(days=16 * 366), date(2012, 1, 1))
    if rng.random() < 0.85:  # in circulation: issued within its validity before the reference day
        first_issue = max(first_issue, date(IN_CIRCULATION_ON.year - years, 1, 1))
    issue = random_date(rng, first_issue, max(first_issue, IN_CIRCULATION_ON - timedelta(days=1)))
    try:
        expiry = birth.replace(year=issue.year + years)
    except ValueError:  # born on 29 February
        expiry = date(issue.year + years, 3, 1)
    city, prefix = pick(rng, jurisdiction.cities)
    number = f"{int(rng.integers(1, 20000))}"
    direction = pick(rng, ("N ", "S ", "E ", "W ")) if rng.random() < 0.2 else ""
    street = f"{number} {direction}{pick(rng, _STREET_NAMES)} {pick(rng, _STREET_SUFFIXES)}"
    unit = ""
    if rng.random() < 0.2:
        unit = f"{pick(rng, ('APT', 'UNIT', '#'))} {int(rng.integers(1, 400))}{pick(rng, ('', '', 'A', 'B'))}"
        unit = unit.replace("# ", "#")
    licence = Licence(
        jurisdiction=jurisdiction,
        version=version,
        document_number=_document_number(rng, jurisdiction.number_style, surname),
        surname=surname,
        first_name=first,
        middle_names=middle,
        sex=sex,
        date_of_birth=birth,
        date_of_issue=issue,
        date_of_expiry=expiry,
        street=street,
        unit=unit,
        city=city,
        postal_raw=_postal(rng, jurisdiction, prefix),
        license_class=pick(rng, jurisdiction.classes),
        height_cm=int(rng.integers(150, 200)),
        eyes=pick(rng, _EYES),
        hair=pick(rng, _HAIR),
        discriminator=random_string(rng, _DIGITS + _LETTERS, int(rng.integers(10, 20))),
    )
    return replace(licence, suffix=_suffix(_variation_rng(licence, "suffix"), sex))


def _variation_rng(licence: Licence, purpose: str) -> np.random.Generator:
    """A generator for the choices added after the licence's own (a suffix, a payload's header
    deviation and name layout), seeded from the licence's own draws: the main generator's
    sequence, and with it every earlier document of a seed, stays as it was, while the same
    main generator state still gives the same bytes."""
    key = f"{purpose}|{licence.discriminator}|{licence.document_number}".encode()
    return np.random.default_rng(zlib.crc32(key))


def _suffix(rng: np.random.Generator, sex: str) -> str:
    if rng.random() >= {"M": 0.08, "X": 0.03}.get(sex, 0.0):
        return ""
    return pick_weighted(rng, (("JR", 0.5), ("SR", 0.15), ("II", 0.1), ("III", 0.2), ("IV", 0.05)))


# --------------------------------------------------------------------------------------------
# AAMVA payload (synth.aamva_writer)


def aamva_payload(
    licence: Licence, rng: np.random.Generator, style: PayloadStyle | None = None
) -> tuple[str, dict[str, Any]]:
    """The licence as an AAMVA DL/ID payload of its version, and how it was written (meta); see
    :func:`synth.aamva_writer.aamva_payload`."""
    return _write_payload(licence, rng, style, _variation_rng)


# --------------------------------------------------------------------------------------------
# Front


def _us_date(value: date) -> str:
    return value.strftime("%m/%d/%Y")


def _front_date(value: date, canadian: bool, fmt: str) -> str:
    if not canadian:
        return value.strftime("%m/%d/%Y") if fmt != "dash" else value.strftime("%m-%d-%Y")
    return value.strftime("%Y/%m/%d") if fmt != "dash" else value.isoformat()


def _height_text(licence: Licence) -> str:
    if licence.jurisdiction.country == "CAN":
        return f"{licence.height_cm} cm"
    inches = round(licence.height_cm / 2.54)
    return f"{inches // 12}'-{inches % 12:02d}\""


class _Writer:
    """Draws label/value pairs on the card in millimetres, in one style, never overlapping: a
    pair asked to start left of where the previous one ended on its row starts after it."""

    def __init__(self, canvas: Canvas, style: Style, label_mm: float, value_mm: float, right_mm: float):
        self.canvas = canvas
        self.style = style
        self.label_px = canvas.px(label_mm)
        self.value_px = canvas.px(value_mm)
        self.right_mm = right_mm
        self.gap_mm = 2.5

    def pair(
        self, x_mm: float, baseline_mm: float, label: str, value: str, *, bold: bool | None = None
    ) -> tuple[float, float]:
        """``label`` then ``value`` on one baseline; returns where the value starts and ends (mm)."""
        canvas, style = self.canvas, self.style
        x = canvas.px(x_mm)
        if label:
            width = canvas.text(
                x, canvas.px(baseline_mm), label, style.label_face, self.label_px, style.palette.label
            )
            x += width + canvas.px(1.2)
        start = x / canvas.s
        return start, self.value(start, baseline_mm, value, bold=bold)

    def row(self, x_mm: float, baseline_mm: float, pairs: Sequence[tuple[float, str, str]]) -> None:
        """Pairs (offset from ``x_mm``, label, value) left to right on one baseline."""
        end = x_mm - self.gap_mm
        for offset, label, value in pairs:
            _, end = self.pair(max(x_mm + offset, end + self.gap_mm), baseline_mm, label, value)

    def value(self, x_mm: float, baseline_mm: float, value: str, *, bold: bool | None = None) -> float:
        """Draws ``value`` (shrunk to fit before the right edge); returns where it ends (mm)."""
        canvas, style = self.canvas, self.style
        x = canvas.px(x_mm)
        width = canvas.text(
            x,
            canvas.px(baseline_mm),
            value,
            style.value_face,
            self.value_px,
            style.palette.ink,
            bold=style.value_bold if bold is None else bold,
            max_width=canvas.px(self.right_mm) - x,
        )
        return (x + width) / canvas.s

    def label(self, x_mm: float, baseline_mm: float, text: str) -> float:
        canvas, style = self.canvas, self.style
        width = canvas.text(
            canvas.px(x_mm),
            canvas.px(baseline_mm),
            text,
            style.label_face,
            self.label_px,
            style.palette.label,
        )
        return x_mm + width / canvas.s

    def captioned(
        self, x_mm: float, baseline_mm: float, pitch_mm: float, cells: list[tuple[str, str]]
    ) -> None:
        """Captions on one line and their values on the next, in columns as wide as they need."""
        x = x_mm
        for caption, value in cells:
            caption_end = self.label(x, baseline_mm, caption)
            value_end = self.value(x, baseline_mm + pitch_mm, value)
            x = max(caption_end, value_end) + self.gap_mm + 1.0


def _card_base(style: Style, rng: np.random.Generator, px_per_mm: float) -> Canvas:
    width_mm, height_mm = CARD_MM
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    background = patterns.security_background(rng, w, h, style.palette, px_per_mm)
    # Licences keep their data area light: wash the pattern out so text stays legible.
    patterns.clear_zone(background, 0, rng.uniform(0.35, 0.7))
    return Canvas(background, px_per_mm)


def _front_header(canvas: Canvas, licence: Licence, style: Style, rng: np.random.Generator) -> float:
    """Issuer name and card title in a band across the top; returns the band's height (mm)."""
    width_mm = CARD_MM[0]
    band_mm = rng.uniform(8.5, 10.5)
    canadian = licence.jurisdiction.country == "CAN"
    if canadian:
        title = pick(rng, ("DRIVER'S LICENCE", "DRIVER'S LICENCE / PERMIS DE CONDUIRE", "DRIVER LICENCE"))
    else:
        title = pick(rng, ("DRIVER LICENSE", "DRIVER'S LICENSE", "DRIVER LICENSE  USA"))
    name = licence.jurisdiction.name if rng.random() < 0.8 else licence.jurisdiction.name.title()
    if style.header_band:
        canvas.draw.rectangle((0, 0, canvas.px(width_mm), canvas.px(band_mm)), fill=style.palette.accent)
        color = style.palette.header_text
    else:
        color = style.palette.accent
    margin = canvas.px(3.5)
    canvas.text(
        margin,
        canvas.px(band_mm * 0.55),
        name,
        style.title_face,
        canvas.px(band_mm * 0.45),
        color,
        bold=True,
        max_width=canvas.px(width_mm * 0.55),
    )
    canvas.text(
        margin,
        canvas.px(band_mm * 0.92),
        title,
        style.title_face,
        canvas.px(band_mm * 0.26),
        color,
        max_width=canvas.px(width_mm - 7),
    )
    return band_mm


def render_front(
    licence: Licence, style: Style, layout: str, rng: np.random.Generator, px_per_mm: float
) -> RenderedDocument:
    """The front of the card in one of the LAYOUTS."""
    canvas = _card_base(style, rng, px_per_mm)
    width_mm, height_mm = CARD_MM
    top = _front_header(canvas, licence, style, rng) + rng.uniform(1.5, 2.5)
    photo_w = rng.uniform(21.0, 25.0)
    photo_h = min(photo_w * 1.25, height_mm - top - 7)
    photo_x = rng.uniform(2.5, 4.0)
    render.paste_portrait(canvas, rng, canvas.box(photo_x, top, photo_x + photo_w, top + photo_h), style)
    render.signature(
        canvas,
        rng,
        canvas.box(photo_x, top + photo_h + 0.8, photo_x + photo_w, height_mm - 1.5),
        style.palette.ink,
    )
    x0 = photo_x + photo_w + rng.uniform(2.5, 4.0)
    right = width_mm - 2.5
    canadian = licence.jurisdiction.country == "CAN"
    date_fmt = pick(rng, ("slash", "slash", "dash"))

    def d(value: date) -> str:
        return _front_date(value, canadian, date_fmt)

    scale = rng.uniform(0.92, 1.08)
    writer = _Writer(canvas, style, 1.75 * scale, 2.75 * scale, right)
    city_line = f"{licence.city}, {licence.region} {licence.postal_code}"
    street = licence.address_street
    pitch = 3.55 * scale
    y = top + 2.6 * scale
    dob, iss, exp = d(licence.date_of_birth), d(licence.date_of_issue), d(licence.date_of_expiry)
    cls = licence.license_class
    if layout == "numbered":
        writer.row(x0, y, [(0, "4d DLN", licence.document_number), *([(33, "9 CLASS", cls)] if cls else [])])
        writer.pair(x0, y + pitch, "1", licence.surname, bold=True)
        writer.pair(x0, y + 2 * pitch, "2", licence.printed_given_names, bold=True)
        street_x, _ = writer.pair(x0, y + 3 * pitch, "8", street)
        writer.value(street_x, y + 3.9 * pitch, city_line)
        y += 4.9 * pitch
        writer.row(x0, y, [(0, "3 DOB", dob), (27, "4b EXP", exp)])
        writer.row(x0, y + pitch, [(0, "4a ISS", iss), (27, "15 SEX", licence.sex)])
        writer.row(x0, y + 2 * pitch, [(0, "16 HGT", _height_text(licence)), (22, "18 EYES", licence.eyes)])
    elif layout == "abbreviated":
        writer.pair(x0, y, "DL", licence.document_number, bold=True)
        writer.pair(x0, y + pitch, "EXP", exp, bold=True)
        writer.pair(x0, y + 2 * pitch, "LN", licence.surname, bold=True)
        writer.pair(x0, y + 3 * pitch, "FN", licence.printed_given_names, bold=True)
        writer.value(x0, y + 4 * pitch, street)
        writer.value(x0, y + 4.9 * pitch, city_line)
        writer.pair(x0, y + 5.9 * pitch, "DOB", dob, bold=True)
        extras = [
            *([(0, "CLASS", cls)] if cls else []),
            (17, "SEX", licence.sex),
            (29, "HGT", _height_text(licence)),
        ]
        writer.row(x0, y + 6.9 * pitch, extras)
        writer.row(x0, y + 7.9 * pitch, [(0, "ISS", iss), (27, "EYES", licence.eyes)])
    elif layout == "captions":
        bilingual = canadian or rng.random() < 0.3

        def cap(en: str, fr: str) -> str:
            return f"{en}/{fr}" if bilingual else en

        small = pitch * 0.62
        writer.label(x0, y - 0.6, cap("NAME", "NOM"))
        writer.value(x0, y + small, f"{licence.surname},", bold=True)
        writer.value(x0, y + small + 0.9 * pitch, licence.printed_given_names, bold=True)
        y += 2 * small + 0.9 * pitch
        writer.label(x0, y + 0.2, cap("ADDRESS", "ADRESSE"))
        writer.value(x0, y + small + 0.3, street)
        writer.value(x0, y + small + 0.3 + 0.85 * pitch, city_line)
        y += 2 * small + 0.3 + 0.85 * pitch
        number_cells = [
            (cap("NUMBER", "NUMÉRO"), licence.document_number),
            *([(cap("CLASS", "CAT"), cls)] if cls else []),
        ]
        writer.captioned(x0, y + 0.2, small + 0.2, number_cells)
        y += 2 * small + 0.6
        writer.captioned(
            x0, y + 0.2, small + 0.2, [(cap("DOB", "DDN"), dob), (cap("ISS", "DÉL"), iss), ("EXP", exp)]
        )
        y += 2 * small + 0.6
        writer.captioned(
            x0,
            y + 0.2,
            small + 0.2,
            [(cap("SEX", "SEXE"), licence.sex), (cap("HGT", "HAU"), _height_text(licence))],
        )
    elif layout == "colon":
        writer.pair(x0, y, "DL NO:", licence.document_number, bold=True)
        writer.pair(x0, y + pitch, "LAST NAME:", licence.surname, bold=True)
        writer.pair(x0, y + 2 * pitch, "FIRST NAME:", licence.printed_given_names, bold=True)
        writer.pair(x0, y + 3 * pitch, "ADDRESS:", street)
        writer.value(x0 + 1.0, y + 3.9 * pitch, city_line)
        writer.row(x0, y + 4.9 * pitch, [(0, "DOB:", dob), (27, "SEX:", licence.sex)])
        writer.row(x0, y + 5.9 * pitch, [(0, "ISSUED:", iss), *([(30, "CLASS:", cls)] if cls else [])])
        writer.pair(x0, y + 6.9 * pitch, "EXPIRES:", exp, bold=True)
    else:
        raise ValueError(f"unknown layout {layout!r}")
    image = canvas.array()
    h, w = image.shape[:2]
    return RenderedDocument(image, _rounded_mask(w, h, 3.2 * px_per_mm), px_per_mm, f"dl-front-{layout}")


# --------------------------------------------------------------------------------------------
# Back


def pdf417_image(payload: str, rng: np.random.Generator, width_px: int, max_height_px: int) -> np.ndarray:
    """The payload as a PDF417 (uint8, 0 = bar), ``width_px`` wide, as tall as its rows need
    (rows three to four modules high), with the fewest columns that keep it under the height."""
    ec_level = pick(rng, ("3", "4", "5"))
    row_modules = rng.uniform(3.0, 4.0)
    symbol = None
    for columns in range(int(rng.integers(8, 11)), 30):
        symbol = np.asarray(
            zxingcpp.create_barcode(
                payload, zxingcpp.BarcodeFormat.PDF417, ec_level=ec_level, columns=columns
            ).to_image(add_quiet_zones=False)
        )
        rows = symbol.shape[0] / 3
        module = width_px / symbol.shape[1]
        if rows * row_modules * module <= max_height_px:
            break
    assert symbol is not None
    module = width_px / symbol.shape[1]
    height_px = round(symbol.shape[0] / 3 * row_modules * module)
    factor = 4  # draw at 4x with nearest neighbour, then reduce: anti-aliased module edges
    big = cv2.resize(symbol, (width_px * factor, height_px * factor), interpolation=cv2.INTER_NEAREST)
    return cv2.resize(big, (width_px, height_px), interpolation=cv2.INTER_AREA)


def render_back(
    licence: Licence, payload: str, style: Style, rng: np.random.Generator, px_per_mm: float
) -> RenderedDocument:
    """The back: a few printed lines and the PDF417 across most of the card's width."""
    canvas = _card_base(style, rng, px_per_mm)
    width_mm, height_mm = CARD_MM
    writer = _Writer(canvas, style, 1.6, 2.1, width_mm - 3)
    y = rng.uniform(4.0, 6.0)
    for label in ("RESTRICTIONS:", "ENDORSEMENTS:"):
        writer.pair(3.5, y, label, "NONE")
        y += 3.0
    if rng.random() < 0.5:
        writer.label(3.5, y, pick(rng, ("ORGAN DONOR", "VETERAN", "NOT VALID FOR FEDERAL PURPOSES", "")))
    image = canvas.array()
    code_w_mm = rng.uniform(70.0, 78.0)
    code = pdf417_image(payload, rng, round(code_w_mm * px_per_mm), round((height_mm - y - 4.0) * px_per_mm))
    ch, cw = code.shape
    x = round((width_mm * px_per_mm - cw) / 2 + rng.uniform(-1, 1) * px_per_mm)
    bottom = round(height_mm * px_per_mm - rng.uniform(2.5, 4.0) * px_per_mm)
    top = max(round((y + 1.5) * px_per_mm), bottom - ch)
    quiet = round(1.5 * px_per_mm)
    region = image[max(0, top - quiet) : top + ch + quiet, max(0, x - quiet) : x + cw + quiet]
    region[:] = (region.astype(np.float32) * 0.25 + 255 * 0.75).astype(np.uint8)  # light quiet zone
    ink = np.array(patterns.hsv(0, 0, rng.uniform(0.0, 0.15)), np.float32)
    patch = image[top : top + ch, x : x + cw].astype(np.float32)
    alpha = (1.0 - code.astype(np.float32) / 255.0)[..., None]
    image[top : top + ch, x : x + cw] = (patch * (1 - alpha) + ink * alpha).astype(np.uint8)
    h, w = image.shape[:2]
    return RenderedDocument(image, _rounded_mask(w, h, 3.2 * px_per_mm), px_per_mm, "dl-back")


# --------------------------------------------------------------------------------------------
# Containers


def _rounded_mask(width: int, height: int, radius: float) -> np.ndarray:
    from PIL import Image, ImageDraw

    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return np.asarray(mask).copy()


def _photocopy(
    front: RenderedDocument, back: RenderedDocument, arrangement: str, rng: np.random.Generator
) -> RenderedDocument:
    """Both sides on one sheet, as a photocopy: front then back, stacked or side by side."""
    h, w = front.image.shape[:2]
    s = front.px_per_mm
    gap = round(rng.uniform(4.0, 12.0) * s)
    margin = round(rng.uniform(4.0, 10.0) * s)
    if arrangement == "stacked":
        size = (2 * h + gap + 2 * margin, w + 2 * margin)
        slots = [(margin, margin), (margin + h + gap, margin)]
    else:
        size = (h + 2 * margin, 2 * w + gap + 2 * margin)
        slots = [(margin, margin), (margin, margin + w + gap)]
    paper = patterns.hsv(rng.uniform(0, 1), rng.uniform(0, 0.04), rng.uniform(0.94, 1.0))
    sheet = np.empty((*size, 3), np.uint8)
    sheet[:] = paper
    for card, (y, x) in zip((front, back), slots, strict=True):
        inside = card.mask[..., None] > 127
        sheet[y : y + h, x : x + w] = np.where(inside, card.image, sheet[y : y + h, x : x + w])
    return RenderedDocument(sheet, np.full(size, 255, np.uint8), s, f"dl-{arrangement}")


def _encode(image: np.ndarray, extension: str, quality: int | None) -> bytes:
    bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    if extension == "png":
        ok, buffer = cv2.imencode(".png", bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    else:
        ok, buffer = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality or 90)])
    if not ok:
        raise RuntimeError(f"OpenCV could not encode a {image.shape} image as {extension}")
    return buffer.tobytes()


def _pdf(pages: list[tuple[bytes, tuple[int, ...]]], dpi: float) -> bytes:
    """An image-only PDF, one page per encoded image, each page the image's size at ``dpi``."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm")
    pdf.set_creation_date(_PDF_EPOCH)
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    for encoded, shape in pages:
        height_mm, width_mm = (shape[0] * 25.4 / dpi, shape[1] * 25.4 / dpi)
        pdf.add_page(format=(width_mm, height_mm))
        pdf.image(io.BytesIO(encoded), x=0, y=0, w=width_mm, h=height_mm)
    return bytes(pdf.output())
