"""Names on business documents: which lines are addresses, phones or tax numbers, the
organisation printed at the top of a page, people without their courtesy titles, and names in the
canonical form of ARCHITECTURE §3.1 (upper case, single spaces).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.business.fields import Candidate, PageIndex, Parsed, repair_eszett, text_parser
from engines.business.labels import is_title, without_trailing_title
from engines.knowledge import COMMON_NAMES, KNOWLEDGE, alternation
from engines.layout import Line
from engines.types import FieldResult
from engines.validators import find_amounts, find_dates

# A phone label counts only as a caption (followed by ":" or a number): "Levante Mobile" and
# "Orion Telecom" are names.
_PHONE = re.compile(
    rf"\b({alternation(KNOWLEDGE.words('phone_words'))})\b(?=\s*(?:no\b|nr\b)?\s*[:.#]|\s*\+?\(?\d)"
    r"|\+?\d[\d\s()\-]{7,}\d",
    re.I,
)
_REGISTRATION = re.compile(
    rf"\b({'|'.join(KNOWLEDGE.words('registration_words'))})\b|\(\s*\d{{4,}}[- ]?[A-Z]\s*\)|^\d{{5,}}-[A-Z]$",
    re.I,
)
_WEB = re.compile(
    r"@|www\.|https?:|\.com\b|\.net\b|\.my\b|\.de\b|\.fr\b|\.es\b|\.it\b|\.nl\b|\.co\.uk\b", re.I
)
_STREET_WORDS = re.compile(rf"\b({alternation(KNOWLEDGE.words('street_words'))})\b", re.I)
# ... and those glued to the street's name ("Hauptstraße 5", "Dorpsstraat 12")
_STREET_SUFFIX = re.compile(rf"({alternation(KNOWLEDGE.words('street_suffixes'))})\b", re.I)


def looks_like_phone(text: str) -> bool:
    return bool(_PHONE.search(text))


def looks_like_registration(text: str) -> bool:
    return bool(_REGISTRATION.search(text))


def looks_like_web(text: str) -> bool:
    return bool(_WEB.search(text))


def looks_like_street(text: str) -> bool:
    """A street line: a street word and a number ("12 Main Street", "Hauptstraße 5")."""
    folded = text.replace("ß", "ss")
    has_number = bool(re.search(r"\d", folded))
    word = _STREET_WORDS.search(folded) or _STREET_SUFFIX.search(folded)
    return bool(word) and has_number


_PAGE_NUMBER = re.compile(
    rf"^\W*({alternation(KNOWLEDGE.words('page_words'))})\s*\d+"
    rf"(\s*({alternation(KNOWLEDGE.words('page_of_words'))})\s*\d+)?\W*$",
    re.IGNORECASE,
)


def looks_like_page_number(text: str) -> bool:
    """A page's running number ("Page 1 of 3", "Seite 2/4", "Página 1 de 2"): printed in the top
    corner of statements, where the issuer's name is looked for."""
    return bool(_PAGE_NUMBER.match(text.strip()))


_ATTENTION = re.compile(
    r"^\W*(z\.?\s*hd\.?|z\.?\s*h\.|zu\s*h(?:ä|a|ae)nden|attn\.?|attention(?:\s+of)?|c/o|"
    r"(?:à|a)\s*l['\u2019]\s*(?:attention|att\.?)(?:\s*de)?|t\.?\s*a\.?\s*v\.?|a/a|"
    r"all['\u2019]\s*(?:attenzione|att\.?)(?:\s+di)?|atención|atencion|"
    r"(?:alla\s+)?(?:cortese\s+attenzione|c\.\s?a\.|att\.?ne)(?:\s+(?:di|del|della))?|"
    # the name may follow glued, where case tells them apart ("A l'attentiondeYasmine")
    r"a/c|aos\s+cuidados\s+de)(?=[\s:.]|$|(?-i:(?<=[a-z.])[A-Z]))[\s:.]*",
    re.IGNORECASE,
)


def attention_prefix(text: str) -> int:
    """The length of an "attention of" opening ("z. Hd.", "Attn:", "c/o", "à l'attention de",
    "t.a.v.", "c.a."), 0 when the line has none. The person after it works for the addressee,
    who is named on the line above."""
    match = _ATTENTION.match(text)
    return match.end() if match else 0


def looks_like_date_or_time(text: str) -> bool:
    return bool(find_dates(text, prefer="dmy")) or bool(re.search(r"\b\d{1,2}:\d{2}\b", text))


_DEGREE_AFTER_NUMBER = re.compile(r"(?<=\d)\s?°")


# A street type's abbreviation in capitals glued to the name before it ("8950 RIDGELN"), where
# no English word ends so (but KILN).
_STREET_TYPE_GLUED = re.compile(
    rf"(?<=[A-Z]{{3}})(?<!KI)(?=(?:{alternation(KNOWLEDGE.words('street_abbreviations_glued'))})\.?$)"
)


def with_street_type_apart(street: str) -> str:
    """A street with its type's abbreviation parted from the name OCR glued it to ("8950 RIDGE
    LN"); both readers glue it alike, so their agreement cannot part it."""
    return _STREET_TYPE_GLUED.sub(" ", street)


# A house number glued to the floor after it ("RONDA DE GOYA 1016º A" of 101 6º A): a floor's
# ordinal has one digit, so three digits or more before an indicator are two numbers.
_FLOOR_GLUED_TO_NUMBER = re.compile(r"(?<!\d)(\d{2,})(\d[ºª])")


def with_ordinal_indicators(street: str) -> str:
    """A street with a floor's or door's ordinal indicator ("6º B", "3º dcha.") where OCR read the
    degree sign it resembles (an address holds no temperatures), parted from the house number OCR
    glued it to."""
    return _FLOOR_GLUED_TO_NUMBER.sub(r"\1 \2", _DEGREE_AFTER_NUMBER.sub("º", street))


def canonical_name(text: str) -> str:
    """Names as ARCHITECTURE §3.1 wants them: upper case (``str.upper``, so "ß" is "SS"), single
    spaces, "&" between spaces, none beside a possessive's apostrophe ("MITCHELL 'S" and
    "THOMPSON' S", as readers that space marks read them, are MITCHELL'S and THOMPSON'S) nor
    on one side of a hyphen ("KOWALSKI -WRIGHT")."""
    text = repair_eszett(text)
    # (a Dutch place's "'s-" is no possessive: DRINKWATER 'S-HERTOGENBOSCH keeps its space)
    text = re.sub(r"(?<=[^\W\d_])\s+(?=['\u2019][Ss]\b(?!-))", "", text)
    text = re.sub(r"(?<=[^\W\d_]['\u2019])\s+(?=[Ss]\b)", "", text)  # and none after it (THOMPSON' S)
    text = re.sub(r"\s*&\s*", " & ", text)
    # a hyphen joins the words it stands between: a space on one side only is a reader's slip
    # ("KOWALSKI -WRIGHT"); one on both sides is a dash, and stays
    text = re.sub(r"(?<=[^\W\d_])(?:\s+-(?=[^\W\d_])|-\s+(?=[^\W\d_]))", "-", text)
    text = re.sub(r",(?=[^\s,])", ", ", text)
    text = re.sub(r"[|]", " ", text)
    return " ".join(text.upper().split()).strip(" ,;:-")


# --------------------------------------------------------------------------------------------
# The organisation at the top of a page (merchant, vendor, issuer)
# --------------------------------------------------------------------------------------------

# Legal forms are patterns ("S\.A\.R\.L\.?"), tried in the order the language files list them: the
# first form that ends at a word's edge is the match, so a form listed before a longer one it
# opens ends the match there.
LEGAL_SUFFIX = re.compile(
    r"(?<![A-Za-z0-9])(" + "|".join(KNOWLEDGE.words("legal_forms")) + r")(?![A-Za-z])", re.IGNORECASE
)
_SUFFIX_ONLY = re.compile(r"^\W*(" + LEGAL_SUFFIX.pattern + r")\W*$", re.IGNORECASE)
# A name's line that ends so continues on the next ("... HARDWARE &" / "ELECTRICAL").
_CONTINUED = re.compile(
    rf"(&|-|\b(?:{alternation(KNOWLEDGE.words('name_conjunctions'))}))\s*$", re.IGNORECASE
)
_OWNER_LABEL = re.compile(r"\b(owned|operated|managed|powered)\s*by\b", re.IGNORECASE)
_POSTAL_LINE = re.compile(r"(?<!\d)\d{5}(?!\d)|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b\d{4}\s?[A-Z]{2}\b")
_REG_IN_PARENS = re.compile(
    r"\s*\((?=[^)]*\d)[^)]*\)?\s*$|\s*\([^)]*\b(reg|no|gst)\b[^)]*\)\s*$", re.IGNORECASE
)


def _suffix_repairs(text: str) -> str:
    """Malaysian legal suffixes as OCR mangles them: "SDN 3HD", "TRADINGSDNBHD", "5/B"."""
    text = re.sub(r"(?i)\bSDN\.?\s*[B38]HD", lambda m: m.group()[:-3] + "BHD", text)
    text = re.sub(r"(?i)(?<=[A-Za-z])(SDN\.?\s*BHD)", r" \1", text)
    text = re.sub(r"(?i)SDNBHD", "SDN BHD", text)
    return re.sub(r"(?<=\s)5/B\b", "S/B", text)


def clean_organisation(text: str) -> str:
    """An organisation name as printed, without its trailing registration number in brackets,
    in canonical form."""
    text = text.replace("\uff08", "(").replace("\uff09", ")")
    text = _suffix_repairs(text)
    text = _REG_IN_PARENS.sub("", text)
    text = re.sub(r"\s*\(\s*", " (", text)
    text = re.sub(r"\s*\)\s*", ") ", text)
    return canonical_name(text)


_BOILERPLATE = re.compile(
    rf"{alternation(KNOWLEDGE.words('boilerplate'))}|\b(?:{alternation(KNOWLEDGE.words('boilerplate_words'))})\b",
    re.IGNORECASE,
)


# A letter's salutation: words only a greeting opens with, or a short greeting word before a name
# and the comma that ends a salutation ("Hi Chloe," heads a phone bill whose letterhead OCR lost).
_SALUTATIONS = alternation(KNOWLEDGE.words("salutations"), space=r"\s+")
_GREETINGS = alternation(KNOWLEDGE.words("greetings"), space=r"\s+")
_GREETING = re.compile(rf"^\W*(?:(?:{_SALUTATIONS})\s|(?:{_GREETINGS})\s[^,]*,\s*$)", re.IGNORECASE)


def is_boilerplate(text: str) -> bool:
    """A courtesy sentence ("Thank you for your order.", "Hartelijk dank voor uw opdracht.") or a
    salutation ("Dear Ms Weber,"), never a party's name, though it may sit where one does."""
    lower_words = [w for w in text.split() if w.isalpha() and w.islower()]
    return bool(_BOILERPLATE.search(text) or _GREETING.search(text)) or (
        len(lower_words) >= 3 and text.rstrip().endswith((".", "!"))
    )


_BUSINESS_WORD = re.compile(
    rf"(?<![A-Za-z])({alternation(KNOWLEDGE.words('business_words'))})(?![A-Za-z])", re.IGNORECASE
)


def names_a_business(text: str) -> bool:
    """Does ``text`` carry a legal form or a word only a business's name holds (BANK, CAJA,
    STADTWERKE)? No person is called so."""
    return bool(LEGAL_SUFFIX.search(text) or _BUSINESS_WORD.search(text))


# a caption and its value ("Cassa: Andrea", "Tavolo: 9"): no name prints a colon after a word,
# though a firm's may follow its caption ("From: Nordlicht GmbH")
_CAPTIONED = re.compile(r"^[^\W\d_]{2,}(?: [^\W\d_]+)?\s?:\s*\S")


# A till's or a table's number ("CASSA 15", "TAVOLO22", "Kasse 3", "Table #4"): a till receipt's
# caption with its value, no name (though a "Cassa" or a "Caja" with a name is a savings bank).
_TILL_CAPTION = re.compile(
    rf"^(?:{alternation(KNOWLEDGE.words('till_captions'))})\s*[:#.]?\s*(?:n[.°º]?\s*)?\d+$",
    re.IGNORECASE,
)


def is_header_noise(line: Line) -> bool:
    """A top-of-page line that is not a name: a caption with its value, address, phone,
    registration, web, date, title, greeting, or too few letters to be a name. A registration number in brackets after a name
    ("TRI SHAAS SDN BHD (728515-H)") does not make the name noise."""
    # a title OCR read into the name's line ("Thompson's Diner SALES RECEIPT") is no part of it
    text = without_trailing_title(
        _REG_IN_PARENS.sub("", line.text.replace("\uff08", "(").replace("\uff09", ")"))
    )
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
        return True
    if line.score < 0.6 or _TILL_CAPTION.match(text) or _NUMBER_CAPTION_END.search(text):
        return True
    amounts = find_amounts(text)
    return (
        (bool(_CAPTIONED.match(text)) and not LEGAL_SUFFIX.search(text))
        or looks_like_phone(text)
        or looks_like_registration(text)
        or looks_like_web(text)
        or looks_like_street(text)
        or bool(_POSTAL_LINE.search(text))
        or looks_like_date_or_time(text)
        or looks_like_page_number(text)
        or is_title(text)
        or is_boilerplate(text)
        or any(a.decimals == 2 for a in amounts)
    )


def _row_has_money(index: PageIndex, line: Line) -> bool:
    row = index.rows[index.row_of(line)]
    return any(a.decimals == 2 for other in row for a in find_amounts(other.text))


# A letterhead set in wide letter spacing is detected as two pieces, "Westerbrook Artes" and
# "Graficas S.A.", this many line heights apart at most (page fractions, as the row join below);
# two parties printed side by side stand a column apart, ten or more.
_LEGAL_FORM_GAP = 3.0


def legal_form_beside(index: PageIndex, line: Line) -> Line | None:
    """The piece just right of a party's name on its row, in the same type size, that ends the
    name with its legal form ("Westerbrook Artes" | "Graficas S.A."), where the name has none of
    its own: read alone, either piece would pass for the whole name."""
    if LEGAL_SUFFIX.search(_suffix_repairs(line.text)):
        return None
    right = sorted((o for o in index.rows[index.row_of(line)] if o.x0 >= line.x1), key=lambda o: o.x0)
    if not right:
        return None
    piece = right[0]
    return (
        piece
        if piece.x0 - line.x1 < _LEGAL_FORM_GAP * line.height
        and min(piece.height, line.height) >= 0.8 * max(piece.height, line.height)
        and len(piece.text.split()) <= 3
        and not index.hits[id(piece)]
        and LEGAL_SUFFIX.search(_suffix_repairs(piece.text))
        else None
    )


def _ends_with_legal_form(text: str) -> bool:
    repaired = _suffix_repairs(text)
    found = list(LEGAL_SUFFIX.finditer(repaired))
    return bool(found) and not repaired[found[-1].end() :].strip(" .,)")


def _heading_block(names: list[Line], position: int, body: BodyType) -> list[Line]:
    """The lines set together with ``names[position]`` as one heading: lines above and below it
    in the same prominent type size, aligned with it (left edges or centres), with no more than
    a tight line spacing between them and no digit in any (a name wraps; its address, phone and
    registration number carry digits), and not past a legal form, which ends a name. A line
    beside the heading (a logo's letters) is stepped over.

    A line's box height is a rough type size: descenders and accents ("Boulangerie Pâtisserie"
    over "du Vieux Moulin") make it up to a quarter taller. Its letters' pitch (width per
    character) is not changed by them, so where the heights differ by that much, the pitch
    decides."""

    def same_size(a: Line, b: Line) -> bool:
        heights = min(a.height, b.height) / max(a.height, b.height, 1e-6)
        pitches = min(_pitch(a), _pitch(b)) / max(_pitch(a), _pitch(b), 1e-6)
        return heights >= _BLOCK_SAME_SIZE or (heights >= _BLOCK_SAME_BOX and pitches >= _BLOCK_SAME_SIZE)

    def prominent(line: Line) -> bool:
        return line.height >= _BLOCK_PROMINENT * body.height or _pitch(line) >= _BLOCK_PROMINENT * body.pitch

    def continues(upper: Line, lower: Line) -> bool:
        large = max(upper.height, lower.height)
        centre_offset = abs((upper.x0 + upper.x1) - (lower.x0 + lower.x1)) / 2
        return (
            same_size(upper, lower)
            and prominent(upper)
            and prominent(lower)
            and min(abs(upper.x0 - lower.x0), centre_offset) < large
            and -_BLOCK_OVERLAP * large < lower.y0 - upper.y1 < _BLOCK_LEADING * large
            and not any(c.isdigit() for c in upper.text + lower.text)
            and not _ends_with_legal_form(upper.text)
            # a brand line and the name it heads repeat their words; a wrapped name does not
            and not (set(upper.text.upper().split()) & set(lower.text.upper().split()))
        )

    def neighbour(at: int, step: int) -> int:
        """The next line up or down in the heading's column: lines wholly beside it are skipped."""
        other = at + step
        while 0 <= other < len(names) and _beside(names[other], [names[at]]):
            other += step
        return other

    block = [position]
    while (above := neighbour(block[0], -1)) >= 0 and continues(names[above], names[block[0]]):
        block.insert(0, above)
    while (below := neighbour(block[-1], 1)) < len(names) and continues(names[block[-1]], names[below]):
        block.append(below)
    if len(block) > _BLOCK_MAX_LINES:
        return [names[position]]  # a paragraph of large print, not a name
    return [names[at] for at in block]


@dataclass(frozen=True)
class BodyType:
    """The page's body text: its median line height and letter pitch (page fractions)."""

    height: float
    pitch: float

    @classmethod
    def of(cls, index: PageIndex) -> BodyType:
        pitches = sorted(map(_pitch, index.page.lines))
        return cls(index.median_height(), pitches[len(pitches) // 2] if pitches else 0.01)


def _pitch(line: Line) -> float:
    """The line's width per character: its letters' size, whatever their descenders."""
    return (line.x1 - line.x0) / max(len(line.text.strip()), 1)


# A heading's lines: type sizes within 15 % of each other (boxes within 25 % where the letters'
# pitch agrees), larger than the page's body text, spaced no more than 0.6 of a line apart; a
# name wraps onto three lines at most.
_BLOCK_SAME_SIZE = 0.85
_BLOCK_SAME_BOX = 0.75
_BLOCK_PROMINENT = 1.15
_BLOCK_LEADING = 0.6
_BLOCK_OVERLAP = 0.2
_BLOCK_MAX_LINES = 3


# The most white space, in line heights, between the lines of one letterhead.
_HEADING_GAP = 3.0


def _beside(line: Line, column: Sequence[Line]) -> bool:
    """Does ``line`` stand wholly left or right of every line of ``column``?"""
    return all(line.x1 < other.x0 or line.x0 > other.x1 for other in column)


def organisation_at_top(
    index: PageIndex, *, max_lines: int = 14, skip: Callable[[Line], bool] | None = None
) -> Candidate | None:
    """The organisation that issued a document: among the first lines of the page (before the
    title, the first date or the first labelled value), the line with a legal suffix ("SDN BHD",
    "GmbH", "S.A.R.L.") wins, else the first prominent line that is not an address, phone, tax
    number or title. A name broken over two lines ("... HARDWARE &" / "ELECTRICAL", or
    "... Malaysia" / "Sdn Bhd") is joined."""
    lines = list(index.page.lines)
    median = index.median_height()
    pool: list[Line] = []
    for line in lines[:max_lines]:
        text = line.text
        if sum(c.isalnum() for c in text) < 2:
            continue  # a logo's letter ("A" in a circle) is neither a name nor a label ("a": "to")
        hits = index.hits[id(line)]
        if _OWNER_LABEL.search(text) or _GREETING.search(text):
            break  # the addressee's caption, or the letter's salutation: its body begins
        ends_heading = (
            is_title(text)
            or looks_like_date_or_time(text)
            or (hits and hits[0].start == 0 and hits[0].key not in ("ignore", "payment", "vendor"))
            or _row_has_money(index, line)  # the item lines have begun
        )
        if pool and line.y0 - max(other.y1 for other in pool) > _HEADING_GAP * line.height:
            # a gap of several lines: the letterhead has ended and the addressee's block begins,
            # unless nothing above it could be a name (a page number, a stamp's digits)
            if not all(is_header_noise(other) for other in pool):
                break
            pool.clear()
        if ends_heading:
            if pool and not _beside(line, pool):
                break
            # no name yet, or the title and labels of the page's other column ("INVOICE" over
            # its number, right of the letterhead): the name's column goes on
            continue
        if skip is not None and skip(line):
            continue
        pool.append(line)
    # a legal form alone on a line ends a name above it ("... Malaysia" / "Sdn Bhd"); beside all
    # of them, or first, it is a logo's monogram ("LP" at the row's far end)
    names = [
        line
        for at, line in enumerate(pool)
        if not is_header_noise(line)
        or (_SUFFIX_ONLY.match(line.text) and at > 0 and not _beside(line, pool[:at]))
    ]
    if not names:
        return None

    def rank(item: tuple[int, Line]) -> float:
        position, line = item
        score = -0.35 * position + min(2.0, line.height / max(median, 1e-6) - 1.0)
        if LEGAL_SUFFIX.search(_suffix_repairs(line.text)):
            score += 3.0
        elif _BUSINESS_WORD.search(line.text):
            score += 1.5
        return score

    best_pos, best = max(enumerate(names), key=rank)
    parts = [best]
    row = [
        line
        for line in names
        if line is best
        or (
            index.row_of(line) == index.row_of(best)
            # the same type size, a word space apart (a title beside the name is neither)
            and min(line.height, best.height) >= 0.8 * max(line.height, best.height)
            and max(line.x0 - best.x1, best.x0 - line.x1) < best.height
            # a name ends with its legal form: what stands right of "GmbH" is something else
            and not (line.x0 >= best.x1 and _ends_with_legal_form(best.text))
        )
        or legal_form_beside(index, line) is best
    ]
    if len(row) > 1:
        # OCR broke the name's line in pieces ("THE" | "SONNENTAL ARMS"): joined, and said so
        parts = sorted(row, key=lambda line: line.x0)
    elif _SUFFIX_ONLY.match(best.text) and best_pos > 0:
        parts.insert(0, names[best_pos - 1])
    elif len(block := _heading_block(names, best_pos, BodyType.of(index))) > 1:
        # a name set over two or three lines of one heading ("GASTHAUS ZUM" / "GOLDENEN HIRSCH")
        parts = block
    else:
        following = names[best_pos + 1] if best_pos + 1 < len(names) else None
        gap_ok = following is not None and following.y0 - best.y1 < 1.5 * max(best.height, following.height)
        if (
            following is not None
            and gap_ok
            and not _beside(following, [best])  # a logo's monogram ("LP") at the row's far end
            and (_CONTINUED.search(best.text) or _SUFFIX_ONLY.match(following.text))
        ):
            parts.append(following)
    text = without_trailing_title(" ".join(part.text for part in parts))
    first, last = parts[0], parts[-1]
    bbox = (min(p.x0 for p in parts), first.y0, max(p.x1 for p in parts), last.y1)
    cand_line = Line(text=text, score=min(p.score for p in parts), bbox=bbox, page=first.page)
    value = clean_organisation(text)
    if len(value) < 2:
        return None
    return Candidate(
        value,
        bool(LEGAL_SUFFIX.search(_suffix_repairs(text))),
        cand_line,
        bbox,
        None,
        "unlabelled_pieces" if len(row) > 1 else "unlabelled",
    )


# --------------------------------------------------------------------------------------------
# People
# --------------------------------------------------------------------------------------------

_COURTESY_WORDS = KNOWLEDGE.words("courtesy_titles")
# French "M." (Monsieur) and Spanish "D." (Don) are titles only with their full stop: without one
# they are a first name's initial. They are initials too before another initial ("M. E. Evans"),
# before a surname alone ("M. Patel") and before a Dutch surname's particle in lower case or in
# capitals ("M. van den Berg", "M. VAN LEEUWEN"): the title comes before a given name and a surname.
_COURTESY_INITIALS = KNOWLEDGE.words("courtesy_initials")
_PARTICLES_AFTER_INITIAL = KNOWLEDGE.words("particles_after_initial")
_COURTESY = re.compile(
    r"^(?:(?:"
    + alternation(_COURTESY_WORDS)
    + r")(?:\.\s*|\s+|$)|(?:"
    + alternation(_COURTESY_INITIALS)
    + r")\.(?!\s*[^\W\d_]\.)(?!\s*(?-i:"
    + "|".join([*_PARTICLES_AFTER_INITIAL, *(p.upper() for p in _PARTICLES_AFTER_INITIAL)])
    + r")\s)\s*(?=$|\S+\s+\S))",
    re.IGNORECASE,
)

# A long courtesy title the space restorer split where its print's letters stand apart or its
# case changes ("Mon Sieur", "MADA ME"): two pieces that are one title together, then a name.
_COURTESY_SPLIT = re.compile(
    r"^(?i:"
    + "|".join(
        re.escape(w[:cut]) + r"\s" + re.escape(w[cut:])
        for w in _COURTESY_WORDS
        if len(w) >= 6 and w.isalpha()
        for cut in range(2, len(w) - 1)
    )
    + r")\s+(?=\S)"
)

# A courtesy title OCR glued to the name after it, told by case ("DeheerD.HENDRIKS", "HerrnJonas"),
# a space inside it ("de heer") maybe dropped too.
_MAYBE_SPACE = r"\s?"
_GLUED_TITLES = KNOWLEDGE.words("courtesy_titles_glued")
_COURTESY_GLUED = re.compile(rf"^((?i:{alternation(_GLUED_TITLES, space=_MAYBE_SPACE)}))(?<=[a-z])(?=[A-Z])")

# ... or a title in capitals glued to a name in title case, told by case too ("MRNoah Fitzgerald").
_COURTESY_GLUED_CAPITALS = re.compile(
    rf"^({alternation([title.upper() for title in _GLUED_TITLES], space=_MAYBE_SPACE)})(?=[A-Z][a-z])"
)

# ... and, all in capitals, where the rest of the word is a common name and the word is none
# ("MRNOAH FITZGERALD").
_COURTESY_GLUED_UPPER = re.compile(
    rf"^({alternation(t.upper() for t in KNOWLEDGE.words('courtesy_titles_glued_in_capitals'))})([A-Z]{{2,}})(?![^\W\d_])"
)


def _without_glued_upper_title(text: str) -> str:
    """``text`` without a capitals title glued to a common name ("MRNOAH" → "NOAH"): case cannot
    tell the joint there, so the names list does, and a word that is itself a name stays."""
    match = _COURTESY_GLUED_UPPER.match(text)
    if match is None or match[2] not in COMMON_NAMES or match[1] + match[2] in COMMON_NAMES:
        return text
    return text[len(match[1]) :]


# An initial's full stop with the next word glued to it ("K.JOHNSON").
# Not inside a dotted abbreviation ("S.N.C.", "S.P.A."), whose next letter has a full stop too.
_INITIAL_GLUED = re.compile(r"(?<![^\W\d_])([^\W\d_])\.(?=[^\W\d_]{2})")


def is_courtesy_title(text: str) -> bool:
    """A line that is a courtesy title alone: DIN 5008 puts "Herrn" or "Frau" on its own line
    above the name, and a label's value is then the line after it."""
    rest = text.strip(" ,;:-")
    for _ in range(3):
        rest = _COURTESY.sub("", rest, count=1).strip(" ,;:-")
    return bool(text.strip()) and not rest


# A contact detail's caption alone on its line ("Tel.", "Email"): another label, never a name.
_CONTACT_CAPTION = re.compile(
    r"^(?:tel|t[eé]l[eé]?fono?|telephone|t[eé]l[eé]phone|phone|fax|e-?mail|web|www|mobile?|handy)\.?:?$",
    re.IGNORECASE,
)


def party_name_parser(text: str) -> Parsed | None:
    """A party's name after its label ("Rechnungsempfänger", "Account holder"): free text, but
    never a courtesy title alone, so that the value found is the name on the line after it, nor
    a contact detail's caption ("Tel." under "Nº cliente")."""
    parsed = text_parser(text)
    if parsed is None or is_courtesy_title(parsed.value) or _CONTACT_CAPTION.match(parsed.value.strip()):
        return None
    return parsed


def clean_person(text: str) -> str:
    """A person's name without courtesy titles ("Mr", "Frau", "M.", "Dhr."), in canonical form,
    an initial's full stop followed by a space (OCR drops it: "K.JOHNSON" is K. JOHNSON)."""
    text = _COURTESY_GLUED.sub(r"\1 ", text.strip(" ,;:-"))
    text = _COURTESY_SPLIT.sub("", _without_glued_upper_title(_COURTESY_GLUED_CAPITALS.sub(r"\1 ", text)))
    for _ in range(3):
        stripped = _COURTESY.sub("", text, count=1)
        if stripped == text or not stripped.strip():
            break
        text = stripped
    return canonical_name(_INITIAL_GLUED.sub(r"\1. ", text))


# Words that are never a name on their own: articles and conjunctions.
_FUNCTION_WORDS = frozenset(KNOWLEDGE.words("function_words"))


# A number's caption ends so ("Rechnungs-Nr", "Kunden-Nr.", "Invoice No.", "Factura nº"); no name does.
# A lone "n." is one only in lower case ("Scontrino n."): "N." ends a name with an initial.
_NUMBER_CAPTION_END = re.compile(r"(?:-\s*nr\.?|\bnr\.|\bno\.|\bn[º°]\.?|(?-i:\bn\.))\s*$", re.IGNORECASE)


def looks_like_name(text: str) -> bool:
    """Two to six words of letters (a person or organisation), no digits; not a sentence that
    introduces what follows ("... as follows:"), not an article alone ("THE" of a split line)."""
    if re.search(r"\d", text) or looks_like_web(text) or text.rstrip().endswith(":"):
        return False
    if _NUMBER_CAPTION_END.search(text):
        return False  # a number's caption whose main word OCR misread ("RECHNUGS-NR")
    words = [w for w in re.split(r"\s+", text.strip()) if w]
    if words and all(w.lower().strip(".,") in _FUNCTION_WORDS for w in words):
        return False
    return 1 <= len(words) <= 7 and sum(c.isalpha() for c in text) >= 3


def respace(value: str, indexes: Sequence[PageIndex]) -> str:
    """A name that OCR printed without spaces ("SONNENTALBANKAG") as the same letters with spaces,
    when the document prints it that way elsewhere (a footer, a second page, the account holder).

    Only for values with a word of ten letters or more: words that long are rare enough in names
    that they are more likely glued than real."""
    if not value or max(len(word) for word in value.split()) < 10:
        return value
    letters = value.replace(" ", "")
    pattern = re.compile(r"\s*".join(re.escape(ch) for ch in letters), re.IGNORECASE)
    best = value
    for index in indexes:
        for line in index.page.lines:
            match = pattern.search(line.text)
            if match is None:
                continue
            found = canonical_name(match.group())
            if found.replace(" ", "") == letters and found.count(" ") > best.count(" "):
                best = found
    return best


NAME_FIELDS = frozenset(
    {
        "merchant_name",
        "vendor_name",
        "customer_name",
        "full_name",
        "account_holder",
        "issuer_name",
        "address_street",
    }
)


def respace_fields(fields: dict[str, FieldResult], indexes: Sequence[PageIndex]) -> dict[str, FieldResult]:
    """:func:`respace` applied to every OCR-read name field; a name that still holds a word of
    twelve letters or more has probably lost its spaces to OCR, and its confidence says so."""
    out = {}
    for name, result in fields.items():
        if name in NAME_FIELDS and result.value and result.source == "ocr":
            spaced = respace(result.value, indexes)
            if spaced != result.value:
                result = dataclasses.replace(result, value=spaced)
            if max(len(word) for word in spaced.split()) >= 12:
                result = dataclasses.replace(result, confidence=round(result.confidence * 0.6, 3))
        out[name] = result
    return out
