"""Label matching that tolerates OCR, over the label phrases of every language in
engines/knowledge (English, German, French, Spanish, Italian, Dutch, ...).

Receipts, invoices, bills and statements print most values next to a label ("Total",
"Rechnungsdatum", "Montant TTC"). Labels are matched on folded text (lower case, accents dropped);
words may be glued together ("TotalAmtPayable") and the usual OCR confusions of i/l/1 and o/0 are
allowed, because that is what scanned receipts look like. Where two labels overlap the longer one
wins, so "sub total" is a subtotal, "total qty" is ignored and "amount due" is a total, not a due
date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import Line
from engines.validators import fold

# Label phrases per key, folded (lower case, no accents), of every language (engines/knowledge/lang).
# A line's text is matched against all of them; where two overlap the longer phrase wins, so "sub
# total" is a subtotal, "total qty" is ignored and "amount due" is a total, not a due date.
LABELS: dict[str, tuple[str, ...]] = KNOWLEDGE.labels()

# Words that open a document title, never a value ("INVOICE", "RECHNUNG", ...).
TITLES: tuple[str, ...] = KNOWLEDGE.words("titles")

_FREELY_GLUED_LENGTH = 9  # letters of a phrase long enough to be a label whatever follows it
_CHAR_CLASSES = {"i": "[il1!|]", "l": "[li1|]", "o": "[o0]", "'": "['\u2019` ]?", " ": ""}
_SEPARATOR = r"[\s.:_\-/'\u2019°º#]*"


# What OCR glues to a short tax qualifier ("sinIVA", "exclVAT", "HTtaxes"): the tax it qualifies.
_TAX_WORD = rf"(?:{alternation(KNOWLEDGE.words('tax_words'))})"


def _phrase_regex(phrase: str, *, glued: bool) -> str:
    """A phrase as a regex over folded text. ``glued``: the next word may follow without a space
    (OCR drops spaces: "ExcludingGST"), allowed for long phrases, where a longer word that merely
    starts with the phrase is unlikely, and for a short qualifier only when the glued word is a
    tax's name: "Singh", "Horsham" and "Dontell" are names, not "sin", "hors" and "dont"."""
    words = []
    for word in re.split(r"[\s.\-]+", phrase):
        words.append("".join(_CHAR_CLASSES.get(c, re.escape(c)) for c in word))
    if not glued:
        end = r"(?![a-z])"
    elif len(phrase) >= _FREELY_GLUED_LENGTH:
        end = ""
    else:
        end = rf"(?:(?![a-z])|(?={_TAX_WORD}))"
    return r"(?<![a-z0-9])" + _SEPARATOR.join(words) + end


@cache
def _key_patterns() -> dict[str, re.Pattern[str]]:
    out = {}
    for key, phrases in LABELS.items():
        ordered = sorted(set(phrases), key=len, reverse=True)
        qualifier = key in ("excl", "incl")
        out[key] = re.compile(
            "|".join(
                f"(?:{_phrase_regex(p, glued=qualifier or len(p) >= _FREELY_GLUED_LENGTH)})" for p in ordered
            )
        )
    return out


@dataclass(frozen=True)
class LabelHit:
    """A label printed on a line: which key it belongs to and where it is in the line's text."""

    key: str
    line: Line
    start: int
    end: int

    @property
    def strength(self) -> int:
        """Longer labels are more specific ("total amount payable" beats "total")."""
        return self.end - self.start


# Short words that are labels only when they fill a cell on their own ("To:", "Von").
# (invoice_number: an invoice's header cell over its number, "INTESTATARIO | DOCUMENTO | DATA")
CELL_LABELS: dict[str, tuple[str, ...]] = KNOWLEDGE.cell_labels()


# A tax abbreviation in capitals that OCR glued to the word before it ("dontTVA 20%", "inkl.MwSt"):
# case tells the word boundary that the folded text has lost.
_GLUED_TAX = re.compile(rf"(?<=[a-zß-ÿ.])(?:{alternation(KNOWLEDGE.words('tax_abbreviations'))})(?![a-z])")


# A total's word that OCR glued to the currency code after it ("TOTALEEUR", "TotalUSD", "TOTALRM").
_GLUED_TOTAL = re.compile(
    rf"(?<![A-Za-z])(?:{alternation(KNOWLEDGE.words('total_words'))})"
    rf"(?=(?:{alternation(KNOWLEDGE.currency_codes_after_total)})(?![A-Za-z]))",
    re.IGNORECASE,
)


def _initial_letter(text: str) -> bool:
    """A letter standing alone without a colon or its accent ("A" beside "Altamira", a logo's
    initial): no French "À" that names the addressee."""
    return len(text.strip()) == 1 and text.strip() not in ("à", "À")


def label_hits(line: Line) -> list[LabelHit]:
    """The labels on one line, left to right; where labels overlap, the longest wins (a phrase
    that belongs to two keys, such as "customer", is a hit for both)."""
    folded = fold(line.text)
    cell = re.sub(r"[\s:.]+$", "", folded).strip()
    for key, words in CELL_LABELS.items():
        if cell in words and not _initial_letter(line.text):
            return [LabelHit(key, line, 0, len(line.text))]
    found = []
    for key, pattern in _key_patterns().items():
        for match in pattern.finditer(folded):
            if match.end() > match.start():
                found.append(LabelHit(key, line, match.start(), match.end()))
    spans = {(h.key, h.start, h.end) for h in found}
    found.extend(
        LabelHit("tax", line, m.start(), m.end())
        for m in _GLUED_TAX.finditer(line.text)
        if ("tax", m.start(), m.end()) not in spans
    )
    found.extend(
        LabelHit("total", line, m.start(), m.end())
        for m in _GLUED_TOTAL.finditer(line.text)
        if ("total", m.start(), m.end()) not in spans
    )
    found.sort(key=lambda h: (-h.strength, h.start))
    kept: list[LabelHit] = []
    for hit in found:
        same = any(k.start == hit.start and k.end == hit.end for k in kept)
        if same or all(hit.end <= k.start or hit.start >= k.end for k in kept):
            kept.append(hit)
    return sorted(kept, key=lambda h: h.start)


_TITLES_GLUED = frozenset(title.replace(" ", "") for title in TITLES)
# Words a title may open with: a possessive addressed to the reader ("Your bill", "Ihre Rechnung",
# "Votre facture") and the period a bill covers ("Monthly statement"). They never make a name of
# a title, and a title with them stands where an issuer's name stands on many bills.
_TITLE_OPENERS = frozenset(KNOWLEDGE.words("title_openers"))


def is_title(text: str) -> bool:
    """True for a document title alone on its line ("TAX INVOICE", "Rechnung", OCR's "TAXINVOICE",
    "Your bill", "Votre facture", "Monthly statement")."""
    if re.search(r"[#°º\d]", text):
        return False  # "Invoice #", "Facture n°": a caption, not the title
    words = re.sub(r"[^a-z ]", " ", fold(text)).split()
    while len(words) > 1 and words[0] in _TITLE_OPENERS:
        words = words[1:]
    if " ".join(words) in TITLES or "".join(words) in _TITLES_GLUED:
        return True
    if 2 <= len(words) <= 5 and words[-1] in _TITLE_TAILS and not any(w in _LEGAL_FORMS for w in words):
        return True  # the kind of a bill before its closing word: "Water and Sewerage Charges"
    # a bill's kind after its title word: "Facture de gaz", "Fattura servizio idrico"
    return (
        len(words) in (2, 3, 4)
        and words[0] in _TITLE_HEADS
        and not any(word in _LEGAL_FORMS or word in _CAPTION_WORDS for word in words[1:])
    )


# Words that close an English bill's title ("Water and Sewerage Charges"): no firm's name ends
# so without its legal form (not "bill": EVANS BILL is a person, surname first).
_TITLE_TAILS = frozenset(KNOWLEDGE.words("title_tails"))


# Title words a bill's kind follows ("Facture de gaz"); never "bill", a given name too. A tax's
# own word heads the tax's name, the title of its bill ("Impuesto sobre bienes inmuebles", "Taxe
# foncière", "Tassa rifiuti").
_TITLE_HEADS = frozenset(KNOWLEDGE.words("title_heads"))
# Words after a title word that make it a caption over a value ("INVOICE NO:", "Invoice date",
# "Facture à"), whose value may stand on the next line: never the page's title.
_CAPTION_WORDS = frozenset(KNOWLEDGE.words("caption_words"))
# Legal forms as words ("gmbh", "sa"): a title never holds one.
_LEGAL_FORMS = frozenset(KNOWLEDGE.words("legal_form_words"))


def without_trailing_title(text: str) -> str:
    """A name line without the document title OCR read into it from the same row
    ("Supermercado Nordlicht FACTURA SIMPLIFICADA"); the text itself when nothing else is left.
    The longest title is cut: "Thompson's Diner SALES RECEIPT" loses "SALES RECEIPT", not just
    "RECEIPT"."""
    if is_title(text):
        return text
    words = text.split()
    for cut in range(1, len(words)):
        if is_title(" ".join(words[cut:])):
            return " ".join(words[:cut])
    return text
