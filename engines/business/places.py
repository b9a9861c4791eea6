"""Places printed on documents: the last line of a postal address (city, region, postal code)
and the country a document comes from, which decides its currency when OCR cannot read the
currency sign (RapidOCR's recogniser has no "€" or "£").

Each country's address line has its own shape ("Springfield, IL 62704", "Toronto ON M5V 3L9",
"1015 CJ Amsterdam", "00184 Roma (RM)", "75002 PARIS", a UK postcode), so the shape that matches
names the country.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engines.business.common_cities import CITIES_BY_COUNTRY
from engines.business.fields import (
    PageIndex,
)
from engines.business.names import (
    canonical_name,
    looks_like_phone,
)
from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import Line
from engines.types import BBox
from engines.validators import UK_POSTCODE_AREAS, find_iban, valid_postal_code

# The codes of the states and provinces an address's last line prints (engines/knowledge/country).
US_STATES = KNOWLEDGE.country("US").regions
CA_PROVINCES = KNOWLEDGE.country("CA").regions
IT_PROVINCES = KNOWLEDGE.country("IT").regions

# Words for a street's type, which no city's name holds.
_STREET_WORD = re.compile(rf"\b({alternation(KNOWLEDGE.words('street_types'))})\b", re.IGNORECASE)
# The letters printed before a continental postal code ("D-10115", "CH-8001"), to their country,
# for codes of four digits and of five.
_PREFIXES = {
    digits: {
        prefix: country.code
        for country in KNOWLEDGE.countries
        if country.postcode is not None and country.postcode.digits == digits
        for prefix in country.postcode.prefixes
    }
    for digits in (4, 5)
}
_CITY = r"(?P<city>[^\d,;:]*?[^\W\d_][^\d,;:]*?)"
_UK_POSTCODE = r"(?P<postal>[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})"
# A city and its state's or province's code (US, Canada). OCR may glue "Miami,FL33139": spaces
# are optional once a comma separates, or where case does ("MiamiFL33139", "Miami.FL33139": its
# comma read as a full stop).
_CITY_REGION = rf"^{_CITY}(?:\s*,\s*|\s+|(?<=[a-z])\.?(?=[A-Z]{{2}}))(?P<region>[A-Z]{{2}})\.?,?\s*"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("US", re.compile(rf"{_CITY_REGION}(?P<postal>\d{{5}}(?:\s?-\s?\d{{4}})?)$")),
    ("CA", re.compile(rf"{_CITY_REGION}(?P<postal>[A-Z][\dO][A-Z]\s?[\dO][A-Z][\dO])$")),
    # OCR glues "OxfordOX13YP" too: a lower-case letter before the postcode's capitals divides them.
    ("GB", re.compile(rf"^{_CITY}(?:\s*,\s*|\s+|(?<=[a-z])(?=[A-Z])){_UK_POSTCODE}$")),
    ("GB", re.compile(rf"^{_UK_POSTCODE}$")),
    # the two letters end there: "1273 GENÈVE" is a Swiss code and its city, not 1273 GE and NÈVE
    (
        "NL",
        re.compile(rf"^(?P<postal>[1-9]\d{{3}}\s?[A-Z]{{2}})(?![^\W\d_A-Z])(?![A-Z][A-ZÀ-ÖØ-Þ])\s*{_CITY}$"),
    ),
    (
        "5",
        re.compile(
            rf"^(?:(?P<cc>[A-Z]{{1,2}})\s?-\s?)?(?P<postal>\d{{5}})\s*{_CITY}"
            r"(?:\s*\((?P<region>[A-Za-z]{2})\)|\s+(?P<region2>[A-Z]{2}))?$"
        ),
    ),
    (
        "4",
        re.compile(rf"^(?:(?P<cc>{alternation(_PREFIXES[4])})\s?-\s?)?(?P<postal>[1-9]\d{{3}})\s*{_CITY}$"),
    ),
)


@dataclass(frozen=True)
class CityLine:
    """The last line of an address: city, region (as printed, or ""), postal code, country."""

    city: str
    region: str
    postal_code: str
    country: str
    line: Line
    city_bbox: BBox
    postal_bbox: BBox
    region_bbox: BBox | None
    # the postal code was read only once letters and digits OCR confuses were swapped ("BI0" → B10):
    # a reading with one confusion undone may hide another, so it is doubted
    postal_code_repaired: bool = False


# OCR reads a monospaced O as 0 (and I, S, B as 1, 5, 8) inside a word: "33200 B0RDEAUX". A word
# of five characters or more with at least four letters and one or two of those digits is a word.
_DIGITS_IN_WORDS = re.compile(r"[^\W_]{5,}")
_AS_LETTER = str.maketrans("0158", "OISB")  # digits OCR reads for letters


def _as_letters(match: re.Match[str]) -> str:
    word = match.group()
    digits = [c for c in word if c.isdigit()]
    if not 1 <= len(digits) <= 2 or any(d not in "0158" for d in digits) or len(word) - len(digits) < 4:
        return word
    return word.translate(_AS_LETTER)


def parse_city_line(
    line: Line, *, text: str | None = None, offset: int = 0, country: str | None = None
) -> CityLine | None:
    """The city, region and postal code of an address's last line, or None when the line does not
    have the shape of one (``text``/``offset``: parse only part of the line; ``country``: the one
    the document comes from, where the line alone cannot tell)."""
    raw = line.text if text is None else text
    stripped = raw.strip().rstrip(".,")
    lead = len(raw) - len(raw.lstrip())
    base = offset + lead
    parsed = _city_line(line, stripped, base)
    if parsed is not None and country == "NL" and parsed.country == "XX":
        parsed = _dutch_code_glued_to_its_city(parsed, line, stripped, base) or parsed
    if parsed is not None and parsed.country == "XX":
        parsed = _dutch_code_before_a_dutch_city(parsed, line, stripped, base) or parsed
    if parsed is None:
        letters = _DIGITS_IN_WORDS.sub(_as_letters, stripped)
        parsed = _city_line(line, letters, base) if letters != stripped else None  # same length: boxes fit
    if parsed is None:
        parsed = _uk_postcode_glued_to_its_city(line, stripped, base)
    if parsed is None:
        postcode = _uk_postcode_repaired(stripped)
        parsed = _city_line(line, postcode, base) if postcode != stripped else None
        if parsed is not None and postcode.upper() != stripped.upper():
            parsed = replace(parsed, postal_code_repaired=True)
    if parsed is None:
        postcode = _leading_postal_code_repaired(stripped)
        parsed = _city_line(line, postcode, base) if postcode != stripped else None
        if parsed is not None:
            parsed = replace(parsed, postal_code_repaired=True)
    if parsed is None:
        postcode = _canadian_postcode_repaired(stripped)
        parsed = _city_line(line, postcode, base) if postcode != stripped else None
        if parsed is not None:
            parsed = replace(parsed, postal_code_repaired=True)
    return parsed


# A continental postal code before its city with a digit read as a letter ("CH-20B5Neuchatel",
# "B1363Munchen"): four or five characters, at least three of them digits
_LEADING_CODE_MISREAD = re.compile(r"^(?P<cc>[A-Z]{1,2}-)?(?P<code>[\dBOSIl]{4,5})(?=\s*[^\W\d_])")


def _leading_postal_code_repaired(text: str) -> str:
    """``text`` with such a code spelled in digits (same length), or as it was."""
    match = _LEADING_CODE_MISREAD.match(text)
    if match is None:
        return text
    code = match["code"]
    if code.isdigit() or sum(char.isdigit() for char in code) < 3:
        return text
    return text[: match.start("code")] + code.translate(_AS_DIGIT) + text[match.end("code") :]


# A Canadian postal code after its province, a digit read as a letter ("ON L7C sV3" of L7C 8V3)
_CA_POSTCODE_MISREAD = re.compile(
    r"(?<=\s[A-Z]{2}\s)(?P<fsa>[A-Z][\dOoIlSsBT][A-Z])(?P<gap>\s?)(?P<ldu>[\dOoIlSsBT][A-Z][\dOoIlSsBT])$"
)


def _canadian_postcode_repaired(text: str) -> str:
    """``text`` with a misread Canadian postal code at its end spelled as one (same length), or
    as it was: its second, fourth and sixth characters are digits."""
    match = _CA_POSTCODE_MISREAD.search(text)
    if match is None:
        return text
    fsa, ldu = match["fsa"], match["ldu"]
    postcode = (
        fsa[0] + fsa[1].translate(_AS_DIGIT) + fsa[2] + match["gap"]
        + ldu[0].translate(_AS_DIGIT) + ldu[1] + ldu[2].translate(_AS_DIGIT)
    )  # fmt: skip
    return text[: match.start()] + postcode


_GLUED_DUTCH = re.compile(r"^(?P<digits>[1-9]\d{3})(?P<letters>[A-Z]{2})(?P<city>[A-Z][A-Z ]{2,})$")


def _dutch_code_glued_to_its_city(parsed: CityLine, line: Line, stripped: str, base: int) -> CityLine | None:
    """On a Dutch document, "2594LRDENHAAG" is 2594 LR and DEN HAAG, not a four-digit code and a
    city "LRDENHAAG": OCR glued the code's letters to the city's (the line alone cannot tell it
    from a Swiss "1273GENEVE")."""
    match = _GLUED_DUTCH.match(stripped)
    return _as_dutch(parsed, line, base, match) if match is not None else None


def _as_dutch(parsed: CityLine, line: Line, base: int, match: re.Match[str]) -> CityLine | None:
    """``parsed`` read again as a Dutch postcode (``match``'s digits and letters) and the city
    after it, or None where the two make no valid Dutch code."""
    postal = valid_postal_code(f"{match['digits']} {match['letters'].upper()}", "NL")
    if postal is None:
        return None
    city_start, city_end = match.span("city")
    return replace(
        parsed,
        city=canonical_name(match["city"]),
        postal_code=postal,
        country="NL",
        city_bbox=line.span_bbox(base + city_start, base + city_end),
        postal_bbox=line.span_bbox(base, base + match.end("letters")),
    )


_DUTCH_CODE_IN_ANY_CASE = re.compile(
    r"^(?P<digits>[1-9]\d{3})\s?(?P<letters>[A-Za-z]{2})\s*(?P<city>[^\W\d_].*)$"
)
_DUTCH_CITIES = CITIES_BY_COUNTRY["NL"]


def _dutch_code_before_a_dutch_city(
    parsed: CityLine, line: Line, stripped: str, base: int
) -> CityLine | None:
    """ "5647 Hz Eindhoven" is 5647 HZ and EINDHOVEN, OCR having read a letter of the code in
    lower case, and "1080XPAMSTERDAM" is 1080 XP and AMSTERDAM, OCR having glued the line, where
    the words after the code's two letters name a Dutch city: no Swiss or Belgian town's name
    opens with two letters before a Dutch city's."""
    match = _DUTCH_CODE_IN_ANY_CASE.match(stripped)
    if match is None or canonical_name(match["city"]) not in _DUTCH_CITIES:
        return None
    return _as_dutch(parsed, line, base, match)


# "LONDONSE71QG": a capitals-only city with its postcode glued on, the inward digit maybe read as
# a letter ("SE7IQG")
_GLUED_UK = re.compile(
    r"^(?P<letters>[A-Z][A-Z' -]*[A-Z])(?P<district>\d\d?)(?P<sector>[\dOILSB])(?P<unit>[A-Z]{2})$"
)


def _uk_postcode_glued_to_its_city(line: Line, stripped: str, base: int) -> CityLine | None:
    """A city in capitals with its British postcode glued on ("LONDONSE7IQG", as OCR drops the
    spaces of a small, soft line). Where the city's last letter could also open the postcode
    (SE7 or E7: both are areas), the two-letter area wins, as most areas have two letters; the
    split is a guess either way, so the code counts as repaired and is doubted. Only plain
    districts and a unit of two letters: a Canadian code glued to its city and province
    ("VANCOUVERBCV8P7M0") would otherwise pass for Coventry's CV8P 7MO."""
    match = _GLUED_UK.match(stripped)
    if match is None:
        return None
    letters = match["letters"]
    inward = match["sector"].translate(_AS_DIGIT) + match["unit"]
    for area_letters in (2, 1):
        city_end = len(letters) - area_letters
        area = letters[city_end:]
        if area not in UK_POSTCODE_AREAS or city_end < 3 or not letters[city_end - 1].isalpha():
            continue
        postal = valid_postal_code(f"{area}{match['district']} {inward}", "GB")
        if postal is None:
            continue
        return CityLine(
            city=canonical_name(letters[:city_end]),
            region="",
            postal_code=postal,
            country="GB",
            line=line,
            city_bbox=line.span_bbox(base, base + city_end),
            postal_bbox=line.span_bbox(base + city_end, base + len(stripped)),
            region_bbox=None,
            postal_code_repaired=True,
        )
    return None


# A British postcode at a line's end as OCR misreads it: its letters in lower case or read as
# the digits they resemble ("Oxford Ox96NZ", "0X9 6SX"), its inward digit read as a letter
# ("S6TAL" for S6 7AL).
_UK_POSTCODE_MISREAD = re.compile(
    r"(?:(?<=[\s,a-z])|^)(?P<area>[A-Za-z0158]{1,2})(?P<district>\d[A-Za-z\d]?)(?P<gap>\s*)"
    r"(?P<sector>[\dOoIlSBT])(?P<unit>[A-Za-z0158]{2})$"
)
_AS_DIGIT = str.maketrans("OoIlSsBT", "00115587")  # letters OCR reads for digits
_DIGIT_LIKE_LETTERS = frozenset("OISB")


def _uk_postcode_repaired(text: str) -> str:
    """``text`` with a misread British postcode at its end spelled as one (same length), or as it was."""
    match = _UK_POSTCODE_MISREAD.search(text)
    if match is None or not any(c.isalpha() for c in match["area"]):
        return text  # an area of digits alone ("12 OBS") is no misread postcode
    area, district = match["area"].upper().translate(_AS_LETTER), match["district"].upper()
    if area not in UK_POSTCODE_AREAS and area[:1] in UK_POSTCODE_AREAS and area[1:] in _DIGIT_LIKE_LETTERS:
        area, district = area[0], area[1].translate(_AS_DIGIT) + district  # "BI0 7YG": B10
    postcode = (
        area
        + district
        + match["gap"]
        + match["sector"].translate(_AS_DIGIT)
        + match["unit"].upper().translate(_AS_LETTER)
    )
    return text[: match.start()] + postcode


def _city_line(line: Line, stripped: str, base: int) -> CityLine | None:
    for kind, pattern in _PATTERNS:
        match = pattern.match(stripped)
        if match is None:
            continue
        groups = match.groupdict()
        region = groups.get("region") or ""
        region_span = match.span("region") if groups.get("region") else None
        if kind == "5" and groups.get("region2"):
            if groups["region2"] in IT_PROVINCES:
                region, region_span = groups["region2"], match.span("region2")
            else:
                continue
        country = _country(kind, region, groups.get("cc"))
        if country is None:
            continue
        postal = valid_postal_code(groups["postal"], country) if kind not in ("4",) else groups["postal"]
        if postal is None:
            continue
        city = groups.get("city") or ""
        if city and (not re.search(r"[^\W\d_]", city) or looks_like_phone(city)):
            continue
        if kind in ("4", "5") and _STREET_WORD.search(city):
            continue  # "4821 Maple Avenue" is a street with its house number, not a city line
        if country == "ES" or (kind == "5" and not region):
            city = re.sub(r"\s*\([^)]*\)\s*$", "", city)
        if kind == "5" and not region:
            # OCR glues an Italian province to its city ("BOLOGNABO"): the code repeats the city's
            # first letters, which tells it apart from a city that merely ends in two capitals.
            glued = re.fullmatch(r"([A-Z]{2})[A-Z]{2,}([A-Z]{2})", city.strip())
            if glued and glued.group(1) == glued.group(2) and glued.group(2) in IT_PROVINCES:
                region, country = glued.group(2), "IT"
                city = city.strip()[:-2]
                end = match.start("city") + len(groups["city"].rstrip())
                region_span = (end - 2, end)
        city_span = match.span("city") if groups.get("city") else (0, 0)
        if city.endswith("."):
            # a comma before the state read as a full stop ("Salt LakeCity. UT84158"); no city's
            # name ends in one (an abbreviation ends the street's, "St."), so it is punctuation
            city = city.rstrip(". ")
            city_span = (city_span[0], city_span[0] + len(city))
        return CityLine(
            city=canonical_name(city),
            region=region.upper(),
            postal_code=postal,
            country=country,
            line=line,
            city_bbox=line.span_bbox(base + city_span[0], base + city_span[1]),
            postal_bbox=line.span_bbox(base + match.span("postal")[0], base + match.span("postal")[1]),
            region_bbox=line.span_bbox(base + region_span[0], base + region_span[1]) if region_span else None,
        )
    return None


def _country(kind: str, region: str, prefix: str | None) -> str | None:
    if kind == "US":
        return "US" if region in US_STATES else None
    if kind == "CA":
        return "CA" if region in CA_PROVINCES else None
    if kind in ("GB", "NL"):
        return kind
    if kind == "5":
        if region:
            return "IT" if region.upper() in IT_PROVINCES else None
        # (no prefix, or one of no five-digit country: read as German, which counts as "euro area")
        return _PREFIXES[5].get(prefix or "", "DE")
    # Four digits: Switzerland, Austria, Belgium, ... only a printed country prefix tells which.
    return _PREFIXES[4].get(prefix or "", "XX")


_CURRENCY = {country.code: country.currency for country in KNOWLEDGE.countries}

# A tax number only one country's businesses print (Canada's GST/HST account, "843142996RT0001").
_TAX_NUMBERS = tuple(
    (re.compile(country.tax_number), country.code) for country in KNOWLEDGE.countries if country.tax_number
)
# Words that only documents of one country (or the euro area) print.
_COUNTRY_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile("|".join(country.words), re.IGNORECASE), country.code)
    for country in KNOWLEDGE.countries
    if country.words
)


# A VAT identification number: the country's code, then 8 to 12 digits (and letters: "FR45...",
# "ESB1234567X", "NL123456789B01"); OCR may glue it to its label ("No.GB579665683").
_VAT_PREFIXES = "|".join(country.vat_prefix for country in KNOWLEDGE.countries if country.vat_prefix)
_VAT_ID = re.compile(
    rf"(?<![A-Za-z0-9])(?:{alternation(KNOWLEDGE.words('vat_id_captions'))})?({_VAT_PREFIXES})"
    r"(?=[0-9A-Z]{8,14}\b)(?=(?:[A-Z]?\d){7})"
)


def document_country(indexes: Sequence[PageIndex]) -> str | None:
    """The country a document's addresses, IBANs and words point to (alpha-2), by votes."""
    return country_evidence(indexes)[0]


def country_evidence(indexes: Sequence[PageIndex]) -> tuple[str | None, int]:
    """:func:`document_country` and its votes: an address line or a tax number gives two or
    three, a word ("VAT", "Steuernummer") one."""
    votes: Counter[str] = Counter()
    for index in indexes:
        for line in index.page.lines:
            city = parse_city_line(line)
            if city is not None and city.country != "XX":
                # Five digits alone are read as German; they only say "euro area" for sure.
                votes[city.country if city.region or city.country != "DE" else "EU"] += 2
            iban = find_iban(line.text)
            if iban is not None:
                votes[iban[0][:2]] += 3
            for vat_id in _VAT_ID.finditer(line.text):
                votes[vat_id.group(1)] += 3
            for pattern, country in _TAX_NUMBERS:
                if pattern.search(line.text):
                    votes[country] += 3
            for pattern, country in _COUNTRY_WORDS:
                if pattern.search(line.text):
                    votes[country] += 1
    if not votes:
        return None, 0
    return votes.most_common(1)[0]


def currency_from_country(indexes: Sequence[PageIndex]) -> str | None:
    """The currency of the country a document comes from, or None."""
    return currency_and_evidence(indexes)[0]


def currency_and_evidence(indexes: Sequence[PageIndex]) -> tuple[str | None, int]:
    """:func:`currency_from_country` and the votes for its country."""
    country, votes = country_evidence(indexes)
    if country is None:
        return None, 0
    return ("EUR" if country == "EU" else _CURRENCY.get(country)), votes
