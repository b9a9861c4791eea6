"""People, postal addresses and organisations, drawn from this family's own lists.

Truth conventions (the ones ``manage.py evaluate`` compares against, ARCHITECTURE §3.1): names,
streets and cities are the text as printed, upper-cased with ``str.upper`` ("ß" becomes "SS") and
with runs of whitespace collapsed; a courtesy title printed before a name is not part of it; the
street is the whole street line (house and flat numbers included); the region is the code as
printed and only where the address prints one (US states, Italian provinces); the postal code is
as printed, upper case.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from htmldocs.data import load


def canonical(text: str) -> str:
    """The truth form of a printed name, street or city."""
    return re.sub(r"\s+", " ", text).strip().upper()


@dataclass(frozen=True)
class Person:
    given: str
    surname: str
    title: str  # the courtesy title a letter may print before the name

    @property
    def name(self) -> str:
        return f"{self.given} {self.surname}"


@dataclass(frozen=True)
class Address:
    street: str
    city: str
    region: str  # "" where the address prints none
    postal_code: str
    lines: tuple[str, ...]  # the printed lines below the addressee
    place: str  # the city's name in ordinary case, for organisations named after it

    def truth(self) -> dict[str, str | None]:
        return {
            "address_street": canonical(self.street),
            "address_city": canonical(self.city),
            "address_region": canonical(self.region) if self.region else None,
            "address_postal_code": canonical(self.postal_code),
        }


@dataclass(frozen=True)
class Organisation:
    name: str
    address: Address
    phone: str
    web: str
    tax_id: str


def sample_person(rng: random.Random, country: str) -> Person:
    """A person of ``country``: Spanish people carry two surnames, Dutch ones often a prefix."""
    people = load("people")[country]
    sex = rng.choice("fm")
    given = rng.choice(people[sex])
    surname = rng.choice(people["surnames"])
    if country == "ES":
        other = rng.choice([s for s in people["surnames"] if s != surname])
        surname = f"{surname} {other}"
    elif country == "NL" and rng.random() < 0.35:
        surname = rng.choice(people["prefixed_surnames"])
    elif rng.random() < 0.08:
        given = f"{given} {rng.choice([g for g in people[sex] if g != given])}"
    return Person(given, surname, rng.choice(people["titles"][sex]))


def _fill_pattern(rng: random.Random, pattern: str) -> str:
    """A postal code from a pattern: # any digit, % a digit 1-9, @ a letter as postcodes use them."""
    out = []
    for ch in pattern:
        if ch == "#":
            out.append(str(rng.randrange(10)))
        elif ch == "%":
            out.append(str(rng.randrange(1, 10)))
        elif ch == "@":
            out.append(rng.choice("ABDEFGHJLNPRSTUWXYZ"))
        else:
            out.append(ch)
    return "".join(out)


def _street_line(rng: random.Random, country: str) -> str:
    spec = load("places")[country]
    low, high = spec["house_numbers"]
    values = {
        "street": rng.choice(spec["streets"]),
        "n": str(rng.randint(low, high)),
        "n2": str(rng.randint(1, 20)),
        "unit": str(rng.randint(1, 40)),
        "letter": rng.choice("ABCD"),
        "lower": rng.choice("abcd"),
        "dir": rng.choice("NSEW"),
        "floor": str(rng.randint(1, 8)),
        "door": rng.choice(["A", "B", "C", "D", "izq.", "dcha."]),
    }
    fmt = rng.choice(spec["formats"])
    return string.Formatter().vformat(fmt, (), values)


def sample_address(
    rng: random.Random, country: str, *, upper: bool | None = None, place: str | None = None
) -> Address:
    """An address printed the way the country's post wants it (and sometimes all in capitals);
    in the town ``place`` when given."""
    towns = load("places")[country]["cities"]
    city, region, postal_pattern = rng.choice([t for t in towns if t[0] == place] or towns)
    postal = _fill_pattern(rng, postal_pattern)
    street = _street_line(rng, country)
    if upper is None:
        upper = rng.random() < 0.15
    city_print = city.upper() if country in ("FR", "NL", "GB") and rng.random() < 0.5 else city
    lines: tuple[str, ...]
    if country == "US":
        lines = (street, f"{city_print}, {region} {postal}")
    elif country == "GB":
        lines = (street, city_print, postal) if rng.random() < 0.6 else (street, f"{city_print} {postal}")
    elif country == "IT":
        if rng.random() < 0.8:
            lines = (
                street,
                f"{postal} {city_print} ({region})"
                if rng.random() < 0.7
                else f"{postal} {city_print} {region}",
            )
        else:
            region = ""
            lines = (street, f"{postal} {city_print}")
    elif country == "NL":
        lines = (street, f"{postal}  {city_print}" if rng.random() < 0.4 else f"{postal} {city_print}")
    else:  # DE, FR, ES
        lines = (street, f"{postal} {city_print}")
    if country != "US" and country != "IT":
        region = ""
    if upper:
        lines = tuple(line.upper() for line in lines)
        street, city_print = street.upper(), city_print.upper()
    return Address(street, city_print, region, postal, lines, city)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(n))


def phone(rng: random.Random, country: str) -> str:
    """A phone number in the country's grouping (US ones in the fictional 555-01xx range)."""
    shapes = {
        "US": lambda: f"({_digits(rng, 3)}) 555-01{_digits(rng, 2)}",
        "GB": lambda: (
            f"0{rng.choice(['113', '117', '1603', '29', '114'])} {_digits(rng, 3)} {_digits(rng, 4)}"
        ),
        "DE": lambda: (
            f"0{rng.choice(['551', '931', '521', '451', '761'])} {_digits(rng, 3)} {_digits(rng, 2)}-{_digits(rng, 2)}"
        ),
        "FR": lambda: "0" + str(rng.randint(1, 5)) + "".join(f" {_digits(rng, 2)}" for _ in range(4)),
        "ES": lambda: f"9{_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)}",
        "NL": lambda: f"0{_digits(rng, 2)}-{_digits(rng, 7)}",
        "IT": lambda: f"0{_digits(rng, 2)} {_digits(rng, 3)} {_digits(rng, 4)}",
    }
    return shapes[country]()


def tax_id(rng: random.Random, country: str) -> str:
    """A registration number shaped like the country's (no real checksum)."""
    shapes = {
        "US": lambda: f"{_digits(rng, 2)}-{_digits(rng, 7)}",
        "GB": lambda: f"GB{_digits(rng, 9)}",
        "DE": lambda: f"DE{_digits(rng, 9)}",
        "FR": lambda: f"FR{_digits(rng, 2)} {_digits(rng, 9)}",
        "ES": lambda: f"B-{_digits(rng, 8)}",
        "NL": lambda: f"NL{_digits(rng, 9)}B{_digits(rng, 2)}",
        "IT": lambda: f"IT {_digits(rng, 11)}",
    }
    return shapes[country]()


_PLAIN_LETTERS = {
    "ä": "ae",
    "ö": "oe",
    "ü": "ue",
    "ß": "ss",
    "é": "e",
    "è": "e",
    "ê": "e",
    "ë": "e",
    "à": "a",
    "â": "a",
    "á": "a",
    "í": "i",
    "ó": "o",
    "ú": "u",
    "ñ": "n",
    "ç": "c",
    "ì": "i",
    "ò": "o",
    "ù": "u",
    "'": "",
}


def web_address(name: str, country: str) -> str:
    """A plausible web address from an organisation's name ("www.harbor-point.com")."""
    ascii_name = name.lower()
    for accented, plain in _PLAIN_LETTERS.items():
        ascii_name = ascii_name.replace(accented, plain)
    stop = {"llc", "inc", "ltd", "gmbh", "ag", "sa", "sarl", "sas", "s", "l", "r", "p", "a", "co", "kg", "bv"}
    words = [w for w in re.split(r"[^a-z0-9]+", ascii_name) if w and w not in stop and len(w) > 1]
    tld = {"US": "com", "GB": "co.uk"}.get(country, country.lower())
    return f"www.{'-'.join(words[:2])}.{tld}"


def sample_organisation(
    rng: random.Random, country: str, name: str, *, place: str | None = None
) -> Organisation:
    """An organisation with an address of its own (never the customer's) and its contact lines.

    A name with "{city}" takes ``place`` (a council or water board is named after the town it
    serves) or else the town of its own address.
    """
    address = sample_address(rng, country, upper=False, place=place if "{city}" in name else None)
    name = name.replace("{city}", address.place)
    return Organisation(name, address, phone(rng, country), web_address(name, country), tax_id(rng, country))
