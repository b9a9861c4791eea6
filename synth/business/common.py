"""Countries, money, dates, addresses, people and organisations for business documents.

The printed forms vary the way real documents do ("1.234,50 €", "$1,234.50", "CHF 1'234.50";
"31.12.2026", "December 31, 2026"; "1015 CJ Amsterdam", "Toronto ON M5V 3L9") while the truth is
always the one canonical form of ARCHITECTURE §3.1. The truth conventions live here, in one
place (``canonical_text``, ``Money.truth``, ``date.isoformat``), so every generator applies the
same rules:

- names of people and organisations, streets and cities: the text as printed, upper-cased with
  Python's ``str.upper`` (so "ß" becomes "SS") and runs of whitespace collapsed to one space.
  Courtesy titles ("Mr", "Frau", "M.") printed before a name are not part of the name;
- ``address_street``: the whole street line as printed (house number and any flat number
  included); ``address_city``: the city alone; ``address_region``: the code as printed (US state,
  Canadian province, Italian province), and absent where the address prints none;
  ``address_postal_code``: as printed, upper case ("SW1A 1AA", "1015 CJ", "M5V 3L9", "10115");
- amounts: decimal strings with two decimals and no thousands separator ("1234.50");
  ``currency``: the ISO 4217 code ("EUR"), whether the document prints a code or a symbol;
- dates: ISO ``YYYY-MM-DD`` whatever the printed form;
- ``invoice_number``: as printed, without its caption; ``iban_or_account_number``: the IBAN
  without spaces, upper case, or the account number's digits where no IBAN is printed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TypeVar

import numpy as np
from schwifty import IBAN

from synth import data
from synth.business import lexicon

T = TypeVar("T")

CENT = Decimal("0.01")


# --------------------------------------------------------------------------------------------
# Random helpers


def pick(rng: np.random.Generator, items: Sequence[T]) -> T:
    """One item of ``items``, drawn uniformly."""
    return items[int(rng.integers(len(items)))]


def pick_weighted(rng: np.random.Generator, items: Sequence[tuple[T, float]]) -> T:
    """One item of (item, weight) pairs, drawn by weight."""
    weights = np.array([w for _, w in items], dtype=float)
    return items[int(rng.choice(len(items), p=weights / weights.sum()))][0]


def chance(rng: np.random.Generator, p: float) -> bool:
    return bool(rng.random() < p)


def digits(rng: np.random.Generator, n: int) -> str:
    return "".join(str(int(d)) for d in rng.integers(0, 10, size=n))


def letters(rng: np.random.Generator, n: int, alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ") -> str:
    return "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=n))


def random_date(rng: np.random.Generator, start: date, end: date) -> date:
    return start + timedelta(days=int(rng.integers(0, (end - start).days + 1)))


def canonical_text(printed: str) -> str:
    """The truth form of a printed name, street or city: upper case, single spaces."""
    return re.sub(r"\s+", " ", printed).strip().upper()


# --------------------------------------------------------------------------------------------
# Countries and locales


@dataclass(frozen=True)
class Country:
    """What a country's documents look like: language, currency, tax rates, number habits."""

    code: str  # ISO 3166 alpha-2 as used in IBANs ("GB" for the UK)
    name: dict[str, str]  # the country's name in each language
    languages: tuple[tuple[str, float], ...]
    currency: str
    tax_rates: tuple[Decimal, ...]  # standard rate first
    money_styles: tuple[str, ...]  # see format_money
    date_styles: Mapping[str, tuple[str, ...]]  # per language; see format_date
    iban: bool  # whether accounts are printed as IBANs


_EU_DATES: dict[str, tuple[str, ...]] = {
    "en": ("dmy/", "d mon y", "d month y", "iso"),
    "de": ("dmy.", "dmy.", "d. month y", "iso"),
    "fr": ("dmy/", "dmy/", "d month y", "iso"),
    "es": ("dmy/", "dmy-", "d de month de y", "iso"),
    "it": ("dmy/", "dmy/", "d month y", "dmy."),
    "nl": ("dmy-", "dmy-", "d month y", "dmy/"),
}


def _d(value: str) -> Decimal:
    return Decimal(value)


COUNTRIES: dict[str, Country] = {
    "US": Country(
        "US",
        {"en": "United States", "de": "USA", "fr": "États-Unis", "es": "EE. UU.", "it": "USA", "nl": "VS"},
        (("en", 1.0),),
        "USD",
        (_d("8.875"), _d("7.25"), _d("6.5"), _d("8.25"), _d("6")),
        ("$1,234.50", "$1,234.50", "$ 1,234.50", "1,234.50 USD", "USD 1,234.50"),
        {"en": ("mdy/", "mdy/", "month d, y", "mon d, y", "iso")},
        False,
    ),
    "CA": Country(
        "CA",
        {"en": "Canada", "fr": "Canada", "de": "Kanada", "es": "Canadá", "it": "Canada", "nl": "Canada"},
        (("en", 0.75), ("fr", 0.25)),
        "CAD",
        (_d("13"), _d("5"), _d("14.975"), _d("12")),
        ("$1,234.50", "CA$1,234.50", "1,234.50 CAD", "$ 1,234.50 CAD"),
        {"en": ("iso", "mdy/", "month d, y", "d mon y"), "fr": ("iso", "dmy/", "d month y")},
        False,
    ),
    "GB": Country(
        "GB",
        {
            "en": "United Kingdom",
            "de": "Vereinigtes Königreich",
            "fr": "Royaume-Uni",
            "es": "Reino Unido",
            "it": "Regno Unito",
            "nl": "Verenigd Koninkrijk",
        },
        (("en", 1.0),),
        "GBP",
        (_d("20"), _d("5")),
        ("£1,234.50", "£1,234.50", "£ 1,234.50", "GBP 1,234.50"),
        {"en": ("dmy/", "dmy/", "d mon y", "d month y", "iso")},
        True,
    ),
    "DE": Country(
        "DE",
        {
            "en": "Germany",
            "de": "Deutschland",
            "fr": "Allemagne",
            "es": "Alemania",
            "it": "Germania",
            "nl": "Duitsland",
        },
        (("de", 0.88), ("en", 0.12)),
        "EUR",
        (_d("19"), _d("7")),
        ("1.234,50 €", "1.234,50 €", "1.234,50 EUR", "EUR 1.234,50", "€ 1.234,50"),
        _EU_DATES,
        True,
    ),
    "FR": Country(
        "FR",
        {
            "en": "France",
            "de": "Frankreich",
            "fr": "France",
            "es": "Francia",
            "it": "Francia",
            "nl": "Frankrijk",
        },
        (("fr", 0.88), ("en", 0.12)),
        "EUR",
        (_d("20"), _d("10"), _d("5.5")),
        ("1 234,50 €", "1 234,50 €", "1 234,50 EUR", "1.234,50 €", "€1 234,50"),
        _EU_DATES,
        True,
    ),
    "ES": Country(
        "ES",
        {"en": "Spain", "de": "Spanien", "fr": "Espagne", "es": "España", "it": "Spagna", "nl": "Spanje"},
        (("es", 0.88), ("en", 0.12)),
        "EUR",
        (_d("21"), _d("10")),
        ("1.234,50 €", "1.234,50 €", "1.234,50 EUR", "€ 1.234,50", "1234,50 €"),
        _EU_DATES,
        True,
    ),
    "IT": Country(
        "IT",
        {"en": "Italy", "de": "Italien", "fr": "Italie", "es": "Italia", "it": "Italia", "nl": "Italië"},
        (("it", 0.88), ("en", 0.12)),
        "EUR",
        (_d("22"), _d("10")),
        ("€ 1.234,50", "€ 1.234,50", "1.234,50 €", "EUR 1.234,50", "1.234,50"),
        _EU_DATES,
        True,
    ),
    "NL": Country(
        "NL",
        {
            "en": "Netherlands",
            "de": "Niederlande",
            "fr": "Pays-Bas",
            "es": "Países Bajos",
            "it": "Paesi Bassi",
            "nl": "Nederland",
        },
        (("nl", 0.8), ("en", 0.2)),
        "EUR",
        (_d("21"), _d("9")),
        ("€ 1.234,50", "€ 1.234,50", "€1.234,50", "EUR 1.234,50", "1.234,50 EUR"),
        _EU_DATES,
        True,
    ),
    "CH": Country(
        "CH",
        {
            "en": "Switzerland",
            "de": "Schweiz",
            "fr": "Suisse",
            "es": "Suiza",
            "it": "Svizzera",
            "nl": "Zwitserland",
        },
        (("de", 0.65), ("fr", 0.35)),
        "CHF",
        (_d("8.1"), _d("2.6")),
        ("CHF 1'234.50", "CHF 1'234.50", "1'234.50 CHF", "Fr. 1'234.50", "CHF 1 234.50"),
        _EU_DATES,
        True,
    ),
}

COUNTRY_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("US", 0.16),
    ("GB", 0.15),
    ("DE", 0.15),
    ("FR", 0.13),
    ("ES", 0.1),
    ("IT", 0.1),
    ("NL", 0.1),
    ("CA", 0.06),
    ("CH", 0.05),
)


@dataclass(frozen=True)
class Locale:
    """The country a document comes from and the habits it is printed with."""

    country: Country
    language: str
    money_style: str
    date_style: str
    quebec: bool = False  # a French-language Canadian document: addresses in Québec

    @property
    def currency(self) -> str:
        return self.country.currency


def sample_locale(rng: np.random.Generator, country_code: str | None = None) -> Locale:
    """A country (by weight unless given), one of its languages, and its money and date habits."""
    country = COUNTRIES[country_code or pick_weighted(rng, COUNTRY_WEIGHTS)]
    language = pick_weighted(rng, country.languages)
    date_styles = country.date_styles.get(language) or country.date_styles.get("en") or ("iso",)
    if country.code in ("GB", "CA") and language == "en":
        date_styles = country.date_styles["en"]
    elif language == "en" and country.code not in ("US", "GB", "CA"):
        date_styles = ("dmy/", "d mon y", "iso", "d month y")
    return Locale(
        country=country,
        language=language,
        money_style=pick(rng, country.money_styles),
        date_style=pick(rng, date_styles),
        quebec=country.code == "CA" and language == "fr",
    )


# --------------------------------------------------------------------------------------------
# Money


def money(value: float | Decimal) -> Decimal:
    """A value rounded half-up to cents, as every document here computes."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def truth_amount(value: Decimal) -> str:
    """The canonical amount: "1234.50"."""
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def group_number(value: Decimal, thousands: str, decimal_sep: str) -> str:
    """``value`` with two decimals and the given separators ("" for no grouping)."""
    sign = "-" if value < 0 else ""
    whole, frac = f"{abs(value):.2f}".split(".")
    if thousands:
        groups: list[str] = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        groups.insert(0, whole)
        whole = thousands.join(groups)
    return f"{sign}{whole}{decimal_sep}{frac}"


def number_separators(money_style: str) -> tuple[str, str]:
    """(thousands, decimal) separators of a money style such as "1.234,50 €"."""
    match = re.search(r"1(\D?)234(\D)50", money_style)
    if not match:
        return ",", "."
    return match.group(1), match.group(2)


def format_number(value: Decimal, money_style: str) -> str:
    """The amount alone, in the style's separators: "1.234,50"."""
    thousands, decimal_sep = number_separators(money_style)
    return group_number(value, thousands, decimal_sep)


def format_money(value: Decimal, money_style: str) -> str:
    """The amount with its currency as the style prints it: "1.234,50 €", "CHF 1'234.50"."""
    match = re.search(r"1\D?234\D50", money_style)
    if not match:
        return format_number(value, money_style)
    number = format_number(abs(value), money_style)
    printed = money_style[: match.start()] + number + money_style[match.end() :]
    return ("-" + printed) if value < 0 else printed


def currency_mark(money_style: str) -> str:
    """The currency sign or code a style prints ("€", "EUR", "$"); "" for bare numbers."""
    rest = re.sub(r"1\D?234\D50", " ", money_style).split()
    codes = [part for part in rest if part.isalpha() and part.isupper() and len(part) == 3]
    return codes[0] if codes else " ".join(rest)


# --------------------------------------------------------------------------------------------
# Dates

MONTHS: dict[str, tuple[str, ...]] = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "de": (
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
    "fr": (
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ),
    "es": (
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
    "it": (
        "gennaio",
        "febbraio",
        "marzo",
        "aprile",
        "maggio",
        "giugno",
        "luglio",
        "agosto",
        "settembre",
        "ottobre",
        "novembre",
        "dicembre",
    ),
    "nl": (
        "januari",
        "februari",
        "maart",
        "april",
        "mei",
        "juni",
        "juli",
        "augustus",
        "september",
        "oktober",
        "november",
        "december",
    ),
}
MONTHS_SHORT: dict[str, tuple[str, ...]] = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sep.", "Okt.", "Nov.", "Dez."),
    "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    "es": ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."),
    "it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
    "nl": ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"),
}


def format_date(value: date, style: str, language: str = "en") -> str:
    """A date as printed. Styles: "dmy/" 31/12/2026, "mdy/" 12/31/2026, "dmy." 31.12.2026,
    "dmy-" 31-12-2026, "iso" 2026-12-31, "d mon y" 31 Dec 2026, "d month y" 31 December 2026,
    "d. month y" 31. Dezember 2026, "d de month de y", "month d, y" December 31, 2026,
    "mon d, y" Dec 31, 2026, and the two-digit-year "dmy/ short", "mdy/ short", "dmy. short"."""
    d, m, y = value.day, value.month, value.year
    month = MONTHS.get(language, MONTHS["en"])[m - 1]
    month_short = MONTHS_SHORT.get(language, MONTHS_SHORT["en"])[m - 1]
    formats = {
        "dmy/": f"{d:02d}/{m:02d}/{y}",
        "mdy/": f"{m:02d}/{d:02d}/{y}",
        "dmy.": f"{d:02d}.{m:02d}.{y}",
        "dmy-": f"{d:02d}-{m:02d}-{y}",
        "iso": value.isoformat(),
        "d mon y": f"{d:02d} {month_short} {y}" if language == "en" else f"{d} {month_short} {y}",
        "d month y": f"{d} {month} {y}",
        "d. month y": f"{d}. {month} {y}",
        "d de month de y": f"{d} de {month} de {y}",
        "month d, y": f"{month} {d}, {y}",
        "mon d, y": f"{month_short} {d}, {y}",
        "dmy/ short": f"{d:02d}/{m:02d}/{y % 100:02d}",
        "mdy/ short": f"{m:02d}/{d:02d}/{y % 100:02d}",
        "dmy. short": f"{d:02d}.{m:02d}.{y % 100:02d}",
    }
    return formats[style]


def short_date_style(style: str) -> str:
    """The compact numeric style that goes with ``style`` (tables and receipts use it)."""
    if style.startswith("mdy") or style in ("month d, y", "mon d, y"):
        return "mdy/"
    if style.startswith("dmy.") or style == "d. month y":
        return "dmy."
    if style.startswith("dmy-"):
        return "dmy-"
    if style == "iso":
        return "iso"
    return "dmy/"


def document_date(rng: np.random.Generator) -> date:
    """A plausible issue date: recent years, every day of the month equally likely."""
    return random_date(rng, date(2022, 1, 1), date(2026, 12, 31))


# --------------------------------------------------------------------------------------------
# People


@dataclass(frozen=True)
class Person:
    """A person as a document prints them: given names, surname, and an optional courtesy title."""

    given: str
    surname: str
    sex: str  # "M" or "F": picks the courtesy title
    initials: bool = False  # print "J. Smith" instead of "John Smith"

    @property
    def printed(self) -> str:
        given = (
            " ".join(f"{part[0]}." for part in re.split(r"[\s]+", self.given))
            if self.initials
            else self.given
        )
        return f"{given} {self.surname}"


def _roundtrips(name: str) -> bool:
    """Names whose title case upper-cases back to themselves (not "İ", which would not)."""
    return name.title().upper() == name


_INTERNATIONAL_GIVEN = tuple(
    n.title() for n in data.GIVEN_NAMES_FEMALE + data.GIVEN_NAMES_MALE if _roundtrips(n)
)
_INTERNATIONAL_SURNAMES = tuple(n.title() for n in data.SURNAMES if _roundtrips(n) and len(n) > 2)


def sample_person(rng: np.random.Generator, language: str) -> Person:
    """A person of the document's language area, sometimes with a name from anywhere."""
    pool = "en" if language not in lexicon.GIVEN_NAMES else language
    if chance(rng, 0.12):
        given = pick(rng, _INTERNATIONAL_GIVEN)
        surname = pick(rng, _INTERNATIONAL_SURNAMES)
    else:
        given = pick(rng, lexicon.GIVEN_NAMES[pool])
        surname = pick(rng, lexicon.SURNAMES[pool])
        if language == "es":
            surname = f"{surname} {pick(rng, lexicon.SURNAMES['es'])}"
        elif chance(rng, 0.08):
            surname = f"{surname}-{pick(rng, lexicon.SURNAMES[pool]).split()[-1].title()}"
    if chance(rng, 0.12):
        given = f"{given} {pick(rng, lexicon.GIVEN_NAMES[pool])}"
    sex = "F" if given.split()[0] in lexicon.FEMALE_NAMES else "M"
    return Person(given, surname, sex, initials=language in ("nl", "de", "en") and chance(rng, 0.1))


def courtesy_title(rng: np.random.Generator, person: Person, language: str) -> str:
    titles = lexicon.TITLES.get(language, lexicon.TITLES["en"])
    return pick(rng, titles[person.sex])


# --------------------------------------------------------------------------------------------
# Addresses


@dataclass(frozen=True)
class Address:
    """A postal address and the lines it is printed as."""

    street: str
    city: str
    region: str  # printed code, or "" when the address prints none
    postal_code: str
    country: str  # alpha-2
    lines: tuple[str, ...]  # as printed, without the addressee

    def truth(self) -> dict[str, str]:
        """The canonical address fields; the region only where the address prints one."""
        fields = {
            "address_street": canonical_text(self.street),
            "address_city": canonical_text(self.city),
            "address_postal_code": canonical_text(self.postal_code),
        }
        if self.region:
            fields["address_region"] = canonical_text(self.region)
        return fields


def _postal_code(rng: np.random.Generator, country: str, seed: str) -> str:
    if country == "US":
        code = seed + digits(rng, 5 - len(seed))
        return f"{code}-{digits(rng, 4)}" if chance(rng, 0.15) else code
    if country == "CA":
        letters_ok = "ABCEGHJKLMNPRSTVWXYZ"
        return f"{seed}{digits(rng, 1)}{letters(rng, 1, letters_ok)} {digits(rng, 1)}{letters(rng, 1, letters_ok)}{digits(rng, 1)}"
    if country == "GB":
        district = str(int(rng.integers(1, 20 if len(seed) == 1 else 10)))
        # a letter after the district only after one digit, as London's central districts print it
        # (W1A, EC1A, N1C); no district of two digits takes one
        if seed in ("SW", "EC", "W", "N", "E") and chance(rng, 0.2) and len(district) == 1:
            district += letters(rng, 1, "ABCDEFGHJKNPRSTUVWXY")
        return f"{seed}{district} {digits(rng, 1)}{letters(rng, 2, 'ABDEFGHJLNPQRSTUWXYZ')}"
    if country == "NL":
        code = seed + digits(rng, 4 - len(seed))
        suffix = letters(rng, 2, "ABCEGHJKLMNPRTVWXZ")
        return f"{code} {suffix}"
    if country == "FR":
        if seed == "750":
            return f"750{int(rng.integers(1, 21)):02d}"
        if seed == "130":
            return f"130{int(rng.integers(1, 17)):02d}"
        if len(seed) == 4:
            return seed + str(int(rng.integers(1, 10)))
        return seed + pick(rng, ("000", "100", "200", "300"))
    if country == "CH":
        return seed + digits(rng, 2)
    return seed + digits(rng, 5 - len(seed))  # DE, ES, IT


def street(rng: np.random.Generator, country: str, quebec: bool = False, french_swiss: bool = False) -> str:
    """A street line with its house number, in the country's order and abbreviations."""
    number = int(rng.integers(1, 180)) if country not in ("US", "CA") else int(rng.integers(1, 9900))
    if country in ("US", "CA") and not quebec:
        key = "US"
        line = f"{number} {pick(rng, ('', '', '', 'N ', 'S ', 'W ', 'E '))}{pick(rng, lexicon.STREETS[key])} {pick(rng, lexicon.STREET_TYPES[key])}"
        if country == "CA" and chance(rng, 0.2):
            line = f"{int(rng.integers(1, 30))}-{line}"
        elif chance(rng, 0.15):
            line += f" {pick(rng, ('Apt', 'Apt.', 'Unit', 'Suite', '#'))} {int(rng.integers(1, 40))}{pick(rng, ('', 'A', 'B'))}"
        return line
    if quebec:
        return f"{number} {pick(rng, ('rue', 'boulevard', 'avenue'))} {pick(rng, lexicon.STREETS['CA-QC'])}{pick(rng, ('', '', ' Ouest', ' Est'))}"
    if country == "GB":
        line = f"{number} {pick(rng, lexicon.STREETS['GB'])} {pick(rng, lexicon.STREET_TYPES['GB'])}"
        if chance(rng, 0.12):
            line = f"Flat {int(rng.integers(1, 30))} {line}"
        return line
    house = str(number) + (pick(rng, ("a", "b", "A")) if chance(rng, 0.08) else "")
    if country == "DE":
        if chance(rng, 0.12):
            return f"{pick(rng, ('Am', 'An der', 'Im'))} {pick(rng, ('Markt', 'Kirchberg', 'Stadtpark', 'Mühlbach', 'Eichenhain'))} {house}"
        return f"{pick(rng, lexicon.STREETS['DE'])}{pick(rng, lexicon.STREET_TYPES['DE'])} {house}"
    if country == "CH":
        if french_swiss:
            return f"{pick(rng, ('Rue', 'Avenue', 'Chemin'))} {pick(rng, lexicon.STREETS['CH-fr'])} {house}"
        return f"{pick(rng, lexicon.STREETS['CH'])}{pick(rng, lexicon.STREET_TYPES['CH'])} {house}"
    if country == "NL":
        return f"{pick(rng, lexicon.STREETS['NL'])}{pick(rng, lexicon.STREET_TYPES['NL'])} {house}"
    if country == "FR":
        extra = pick(rng, ("", "", "", " bis", " ter"))
        return f"{number}{extra} {pick(rng, lexicon.STREET_TYPES['FR'])} {pick(rng, lexicon.STREETS['FR'])}"
    if country == "ES":
        line = f"{pick(rng, lexicon.STREET_TYPES['ES'])} {pick(rng, lexicon.STREETS['ES'])}{pick(rng, (' ', ', '))}{number}"
        if chance(rng, 0.35):
            line += f"{pick(rng, (' ', ', '))}{int(rng.integers(1, 9))}º {pick(rng, ('A', 'B', 'C', 'D', 'izq.', 'dcha.'))}"
        return line
    # IT
    return f"{pick(rng, lexicon.STREET_TYPES['IT'])} {pick(rng, lexicon.STREETS['IT'])}{pick(rng, (' ', ', ', ' n. '))}{house}"


def sample_address(rng: np.random.Generator, locale: Locale, upper: bool | None = None) -> Address:
    """An address of the locale's country, formatted as its post office wants it.

    ``upper`` prints every line in capitals (common on envelopes and French bills); drawn when None.
    """
    code = locale.country.code
    cities_key = "CA-QC" if locale.quebec else code
    city, region, seed = pick(rng, lexicon.CITIES[cities_key])
    french_swiss = code == "CH" and locale.language == "fr"
    if code == "CH" and french_swiss:
        city, region, seed = pick(
            rng,
            (("Genève", "", "12"), ("Lausanne", "", "10"), ("Neuchâtel", "", "20"), ("Fribourg", "", "17")),
        )
    street_line = street(rng, code, quebec=locale.quebec, french_swiss=french_swiss)
    postal = _postal_code(rng, code, seed)
    if upper is None:
        upper = chance(rng, 0.5 if code == "FR" else 0.2)
    city_printed = city.upper() if (upper or (code == "FR" and chance(rng, 0.5))) else city
    lines: tuple[str, ...]
    if code == "US":
        last = (
            f"{city_printed}, {region} {postal}" if chance(rng, 0.8) else f"{city_printed} {region} {postal}"
        )
        lines = (street_line, last)
    elif code == "CA":
        sep = pick(rng, (" ", ", ", "  "))
        lines = (
            street_line,
            f"{city_printed}{sep}{region}  {postal}"
            if chance(rng, 0.5)
            else f"{city_printed} {region} {postal}",
        )
    elif code == "GB":
        if chance(rng, 0.6):
            lines = (street_line, city_printed.upper() if chance(rng, 0.5) else city_printed, postal)
        else:
            lines = (street_line, f"{city_printed} {postal}")
    elif code == "IT":
        if chance(rng, 0.85):
            lines = (
                street_line,
                f"{postal} {city_printed} ({region})"
                if chance(rng, 0.6)
                else f"{postal} {city_printed} {region}",
            )
        else:
            region = ""
            lines = (street_line, f"{postal} {city_printed}")
    elif code == "CH":
        lines = (street_line, f"{'CH-' if chance(rng, 0.15) else ''}{postal} {city_printed}")
    else:  # DE, FR, ES, NL
        lines = (
            street_line,
            f"{postal} {city_printed}" if code != "NL" or chance(rng, 0.8) else f"{postal}  {city_printed}",
        )
    if upper:
        lines = tuple(line.upper() for line in lines)
        street_line, city = street_line.upper(), city.upper()
    return Address(street_line, city_printed if not upper else city.upper(), region, postal, code, lines)


def country_line(locale: Locale) -> str:
    return locale.country.name.get(locale.language, locale.country.name["en"])


# --------------------------------------------------------------------------------------------
# Organisations


def company_name(rng: np.random.Generator, locale: Locale) -> str:
    """A fictitious company with a legal form of its country: "Nordlicht Haustechnik GmbH"."""
    code = locale.country.code
    language = locale.language if locale.language in lexicon.TRADES else "en"
    legal = pick(rng, lexicon.LEGAL_FORMS[code])
    trade = pick(rng, lexicon.TRADES[language])
    surname = pick(rng, lexicon.SURNAMES[language if language in lexicon.SURNAMES else "en"])
    brand = pick(rng, lexicon.BRANDS)
    style = int(rng.integers(5))
    if style == 0:
        return f"{brand} {trade} {legal}"
    if style == 1:
        return f"{surname} {trade} {legal}"
    if style == 2:
        other = pick(rng, lexicon.SURNAMES[language if language in lexicon.SURNAMES else "en"])
        joiner = {"de": "&", "fr": "et", "es": "y", "it": "&", "nl": "&"}.get(language, "&")
        return f"{surname} {joiner} {other} {legal}"
    if style == 3:
        return f"{brand} {legal}"
    return f"{brand}{pick(rng, ('tech', 'soft', 'works', 'line', 'form', 'data'))} {legal}"


def sector_name(rng: np.random.Generator, locale: Locale, sector: str, city: str) -> str:
    """A utility, council or bank name of the locale: "Stadtwerke Münster", "Banca Meridian"."""
    language = locale.language
    brand = pick(rng, lexicon.BRANDS)
    options: dict[str, dict[str, tuple[str, ...]]] = {
        "electricity": {
            "en": (f"{brand} Energy", f"{brand} Power", f"{city} Electric", f"{brand} Energy Supply Ltd"),
            "de": (f"Stadtwerke {city}", f"{brand} Energie GmbH", f"{brand}strom"),
            "fr": (f"{brand} Énergie", f"Électricité de {city}", f"{brand} Énergies SA"),
            "es": (f"{brand} Energía", f"Eléctrica de {city}", f"{brand} Luz y Gas S.A."),
            "it": (f"{brand} Energia", f"{brand} Luce e Gas S.p.A.", f"Azienda Energetica {city}"),
            "nl": (f"{brand} Energie", f"{brand} Stroom B.V.", f"Energiebedrijf {city}"),
        },
        "gas": {
            "en": (f"{brand} Gas", f"{brand} Gas & Power", f"{city} Gas Company"),
            "de": (f"Stadtwerke {city}", f"{brand} Gas GmbH", f"{brand} Erdgas"),
            "fr": (f"{brand} Gaz", f"Gaz de {city}"),
            "es": (f"{brand} Gas Natural", f"Gas {city} S.A."),
            "it": (f"{brand} Gas", f"{brand} Luce e Gas S.p.A."),
            "nl": (f"{brand} Gas", f"{brand} Energie"),
        },
        "water": {
            "en": (f"{city} Water", f"{brand} Water", f"{brand} Water Services"),
            "de": (f"Wasserversorgung {city}", f"Stadtwerke {city}", f"Wasserverband {brand}"),
            "fr": (f"Eaux de {city}", f"{brand} Eau", f"Régie des Eaux de {city}"),
            "es": (f"Aguas de {city}", f"Canal {brand}", f"{brand} Aguas S.A."),
            "it": (f"Acquedotto {brand}", f"{brand} Acqua S.p.A.", f"Servizio Idrico {city}"),
            "nl": (f"Waterbedrijf {brand}", f"{brand} Water", f"Drinkwater {city}"),
        },
        "telecom": {
            "en": (f"{brand} Telecom", f"{brand}Net", f"{brand} Mobile", f"{brand} Fibre"),
            "de": (f"{brand} Telekom", f"{brand}net GmbH", f"{brand} Mobilfunk"),
            "fr": (f"{brand} Télécom", f"{brand} Mobile", f"{brand} Box"),
            "es": (f"{brand} Telecom", f"{brand} Móvil", f"{brand} Fibra"),
            "it": (f"{brand} Telecomunicazioni", f"{brand} Mobile", f"{brand} Fibra"),
            "nl": (f"{brand} Telecom", f"{brand} Mobiel", f"{brand} Glasvezel"),
        },
        "council_tax": {
            "en": (f"{city} City Council", f"{brand} Borough Council", f"{brand} District Council"),
            "de": (f"Stadt {city}", f"Stadtverwaltung {city}", f"Gemeinde {brand}"),
            "fr": (f"Ville de {city}", "Direction Générale des Finances Publiques", f"Mairie de {city}"),
            "es": (f"Ayuntamiento de {city}", f"Agencia Tributaria de {city}"),
            "it": (f"Comune di {city}", f"Città di {city}"),
            "nl": (f"Gemeente {city}", f"Belastingsamenwerking {brand}"),
        },
        "bank": {
            "en": (
                f"{brand} Bank",
                f"First {brand} Bank",
                f"{brand} Savings Bank",
                f"{brand} & {pick(rng, lexicon.BRANDS)} Bank",
                f"Bank of {brand}",
            ),
            "de": (f"Sparkasse {city}", f"{brand} Bank AG", f"Volksbank {city} eG", f"{brand}bank"),
            "fr": (
                f"Banque {brand}",
                f"Crédit {brand}",
                f"Caisse d'Épargne {brand}",
                f"Banque Populaire de {city}",
            ),
            "es": (f"Banco {brand}", f"Caja {brand}", f"{brand}bank España S.A."),
            "it": (f"Banca {brand}", f"Cassa di Risparmio di {city}", f"Banca Popolare {brand}"),
            "nl": (f"{brand} Bank N.V.", f"{brand}bank", f"Spaarbank {city}"),
        },
    }
    table = options[sector]
    return pick(rng, table.get(language, table["en"]))


def phone_number(rng: np.random.Generator, country: str) -> str:
    """A phone number in the country's usual grouping (fictitious ranges where one exists)."""
    if country in ("US", "CA"):
        return f"({digits(rng, 3)}) 555-0{digits(rng, 3)}"
    if country == "GB":
        return f"0{pick(rng, ('20', '161', '121', '113', '131'))} {digits(rng, 3)} {digits(rng, 4)}"
    if country == "DE":
        return f"0{pick(rng, ('30', '40', '89', '221', '69', '711'))} {digits(rng, 6)}"
    if country == "FR":
        return "0" + " ".join(digits(rng, 2) if i else str(int(rng.integers(1, 6))) for i in range(5))
    if country == "ES":
        return f"9{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 3)}"
    if country == "IT":
        return f"0{digits(rng, 2)} {digits(rng, 7)}"
    if country == "NL":
        return f"0{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 4)}"
    return f"0{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 2)} {digits(rng, 2)}"


def vat_id(rng: np.random.Generator, country: str) -> str:
    """A tax registration number shaped like the country's (not checksummed)."""
    shapes = {
        "US": lambda: f"{digits(rng, 2)}-{digits(rng, 7)}",
        "CA": lambda: f"{digits(rng, 9)} RT0001",
        "GB": lambda: f"GB {digits(rng, 3)} {digits(rng, 4)} {digits(rng, 2)}",
        "DE": lambda: f"DE{digits(rng, 9)}",
        "FR": lambda: f"FR{digits(rng, 11)}",
        "ES": lambda: f"B{digits(rng, 8)}",
        "IT": lambda: f"IT{digits(rng, 11)}",
        "NL": lambda: f"NL{digits(rng, 9)}B0{int(rng.integers(1, 4))}",
        "CH": lambda: f"CHE-{digits(rng, 3)}.{digits(rng, 3)}.{digits(rng, 3)} MWST",
    }
    return shapes[country]()


def web_domain(name: str, country: str) -> str:
    """A web domain made from an organisation's name: "nordlicht-haustechnik.de"."""
    ascii_name = name.lower()
    for a, b in (
        ("ä", "ae"),
        ("ö", "oe"),
        ("ü", "ue"),
        ("ß", "ss"),
        ("é", "e"),
        ("è", "e"),
        ("à", "a"),
        ("ñ", "n"),
        ("í", "i"),
        ("ó", "o"),
        ("ç", "c"),
        ("ê", "e"),
        ("'", ""),
    ):
        ascii_name = ascii_name.replace(a, b)
    words = [
        w
        for w in re.split(r"[^a-z0-9]+", ascii_name)
        if w
        and w
        not in {
            "gmbh",
            "ag",
            "kg",
            "ltd",
            "inc",
            "llc",
            "sa",
            "sas",
            "sarl",
            "sl",
            "srl",
            "spa",
            "bv",
            "nv",
            "co",
            "eg",
            "plc",
            "de",
            "of",
            "the",
            "la",
            "le",
        }
    ]
    tld = {"US": "com", "CA": "ca", "GB": "co.uk"}.get(country, country.lower())
    return "-".join(words[:2]) + "." + tld


# --------------------------------------------------------------------------------------------
# Bank accounts


@dataclass(frozen=True)
class Account:
    """A bank account as printed: an IBAN (grouped in fours) or a national account number."""

    iban: str  # compact, "" where the country prints no IBAN
    number: str  # national account number as printed
    bic: str
    sort_code: str  # UK sort code or US/CA routing/transit number, as printed

    @property
    def truth(self) -> str:
        return self.iban or re.sub(r"\D", "", self.number)

    @property
    def iban_printed(self) -> str:
        return " ".join(self.iban[i : i + 4] for i in range(0, len(self.iban), 4))


def _nl_account(rng: np.random.Generator) -> str:
    """Ten digits passing the Dutch "elfproef", as real NL account numbers do."""
    while True:
        number = digits(rng, 10)
        if sum(int(c) * (10 - i) for i, c in enumerate(number)) % 11 == 0 and number[0] != "0":
            return number


def sample_account(rng: np.random.Generator, country: str) -> Account:
    """A bank account of ``country`` with a valid IBAN (schwifty computes both check digits)."""
    bic = (
        letters(rng, 4)
        + (country if country != "US" else "US")
        + letters(rng, 2, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    )
    if chance(rng, 0.4):
        bic += letters(rng, 3, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
    if country == "US":
        return Account("", digits(rng, int(rng.integers(9, 13))), bic, digits(rng, 9))
    if country == "CA":
        return Account("", f"{digits(rng, 7)}", bic, f"{digits(rng, 5)}-{digits(rng, 3)}")
    bank_code, branch, account, sort_code = "", "", "", ""
    if country == "DE":
        bank_code, account = digits(rng, 8), digits(rng, 10)
    elif country == "GB":
        bank_code, branch, account = letters(rng, 4), digits(rng, 6), digits(rng, 8)
        sort_code = f"{branch[:2]}-{branch[2:4]}-{branch[4:]}"
    elif country == "FR":
        bank_code, branch, account = digits(rng, 5), digits(rng, 5), digits(rng, 11)
    elif country == "ES":
        bank_code, branch, account = digits(rng, 4), digits(rng, 4), digits(rng, 10)
    elif country == "IT":
        bank_code, branch, account = digits(rng, 5), digits(rng, 5), digits(rng, 12)
    elif country == "NL":
        bank_code, account = letters(rng, 4), _nl_account(rng)
    elif country == "CH":
        bank_code, account = digits(rng, 5), digits(rng, 12)
    iban = IBAN.generate(country, bank_code=bank_code, account_code=account, branch_code=branch)
    return Account(str(iban.compact), account, bic, sort_code)
