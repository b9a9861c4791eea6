"""IdentityZones: the machine-readable zone of a passport or ID card, and the result it gives.

An MRZ is cheap to rule out and decisive when found: its check digits verify the number and the
dates, and its document code names the type. Where one is found the reading goes straight to
Assemble, which builds the result from it (:func:`identity_result`), cross-checked against the
page's print (the visual zone). A licence's PDF417 barcode is read with the licence's front, by
its reader (Extract).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import replace

from engines.business.name_spelling import MRZ_NAME_FIELDS, doubt_uncommon_spellings
from engines.classify import printed_identity_type
from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import PageText
from engines.mrz.page_reading import codes_read_otherwise
from engines.mrz.reader import MrzFieldReading, MrzReading, looks_like_mrz_line, read_mrz
from engines.mrz.visual_zone import (
    CROSS_CHECKED_FIELDS,
    document_number_from_visual_zone,
    fields_in_visual_zone,
    name_rejoined_by_print,
    name_respaced_by_print,
    names_printed_differently,
    names_split_by_print,
    number_ambiguous_in_print,
    number_lengthened_in_print,
)
from engines.stages.base import DocumentState, IdentityZone
from engines.types import Check, EngineContext, EngineResult, FieldResult
from engines.validators import find_iban

logger = logging.getLogger(__name__)

MRZ_TYPES = ("passport", "id_card")
# Below this type confidence a TD2's document code may be misread, and its printed title decides.
_TD2_CODE_TRUSTED = 0.9
# The raw confidence, at least, of an MRZ document number its check digit verified and its print
# repeats character for character.
_PRINT_CONFIRMED_CONFIDENCE = 0.98
# the least probability the MRZ's recogniser must give a printed character it did not read, for
# the print to overrule it (an OCR-B G read at 0.994, 6 at 0.005, stays a G)
_PRINT_OVERRULES_MRZ_MIN_PROBABILITY = 0.02
_SPARSE_PAGE_LINES = 12
_IDENTITY_WORDS = re.compile(alternation(KNOWLEDGE.words("identity_words")))


class IdentityZones:
    """The MRZ search, page by page, on the photos and scans worth it: every one where the caller
    says the document is a passport or ID card, else those whose text shows a sign of an MRZ
    (:func:`may_hold_mrz`). Not run where the caller names another type. The first MRZ found is
    the document's."""

    name = "identity_zones"
    timing = "mrz"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return bool(_pages_to_search(state))

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        for number in _pages_to_search(state):
            frame = state.frames.get(number)
            reading = read_mrz(
                state.images[number - 1],
                line_quads=frame.line_quads if frame is not None else None,
                turn=frame.turn if frame is not None else 0,
                today=ctx.today,
            )
            if reading is not None:
                return replace(state, identity=IdentityZone(reading, state.texts[number - 1]))
        return state


def _pages_to_search(state: DocumentState) -> list[int]:
    """The numbers of the pages to search for an MRZ (none of a digital page: it has no MRZ to
    read, its text layer says what it is)."""
    if state.hint is not None and state.hint not in MRZ_TYPES:
        return []
    return [
        number
        for number, (text, layer) in enumerate(zip(state.texts, state.layers, strict=True), start=1)
        if layer is None and (state.hint in MRZ_TYPES or may_hold_mrz(text))
    ]


def identity_timings(timings_ms: Mapping[str, float], reading: MrzReading) -> dict[str, float]:
    """The reading's timings once an MRZ is found: the search's total gives way to the MRZ
    reader's own split, its OCR (added to the pages' OCR) and its parsing with repair."""
    timings = dict(timings_ms)
    timings.pop("mrz", None)
    timings["ocr"] = timings.get("ocr", 0) + reading.timings_ms.get("ocr", 0)
    timings["parse"] = reading.timings_ms.get("parse", 0)
    return timings


def may_hold_mrz(page: PageText) -> bool:
    """Is the MRZ search (up to a few seconds on a dense page) worth running on this page? Yes
    when OCR saw an MRZ-like line or identity-document words, or saw little text at all (a
    small card, a dark photo); no for the dense pages of bills, statements and invoices."""
    if len(page.lines) < _SPARSE_PAGE_LINES:
        return True
    if any(looks_like_mrz_line(line.text) and not _is_iban_line(line.text) for line in page.lines):
        return True
    return bool(_IDENTITY_WORDS.search(page.text.lower()))


def _is_iban_line(text: str) -> bool:
    """An IBAN (labelled, or with valid check digits) is as digit-rich and unspaced as an MRZ
    line, and stands on most invoices and statements."""
    return text.lstrip().upper().startswith("IBAN") or find_iban(text) is not None


def _recogniser_admits(number: MrzFieldReading, printed: str) -> bool:
    """Did the MRZ's recogniser give the printed reading's characters, where the two differ, at
    least a small chance? Only then does the print, read in a smaller typeface, settle what the
    check digit cannot (G and 6 weigh alike): an OCR-B G it read at 0.99 is a G, whatever the
    print's OCR made of it. Without the recogniser's alternatives the print is taken."""
    value = number.value or ""
    if len(number.alternatives) != len(value):
        return True
    return all(
        number.alternatives[i].get(theirs, 0.0) >= _PRINT_OVERRULES_MRZ_MIN_PROBABILITY
        for i, (ours, theirs) in enumerate(zip(value, printed, strict=True))
        if ours != theirs
    )


def doubt_states_a_letter_apart(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
    """``fields`` with the less sure of nationality and issuing state marked invalid where the two
    codes differ by one letter (MLI and MLT): no check digit guards either, both may be real
    states, and a holder of one state's document with a nationality one letter from it is far
    rarer than OCR taking a T for an I. Codes that differ wholly (a Syrian with a German travel
    document) are left as read."""
    nationality, issuer = fields.get("nationality"), fields.get("issuing_country")
    if nationality is None or issuer is None or not nationality.value or not issuer.value:
        return fields
    a, b = nationality.value, issuer.value
    if len(a) != len(b) or sum(x != y for x, y in zip(a, b, strict=True)) != 1:
        return fields
    doubted = "nationality" if nationality.confidence <= issuer.confidence else "issuing_country"
    return {**fields, doubted: replace(fields[doubted], valid=False)}


def _opens_with_an_undecided_pair(number: str) -> bool:
    """Does a document number open with exactly two characters each of which may be O or 0,
    then a digit ("00105523")? Their weights, 7 and 3, add to ten, so O (24) read as 0 in both
    leaves the check digit as it was, and a prefix of two letters (OO105523: many states' numbers
    open with two) is as likely as two leading zeros: a person reads the print. A longer run of
    zeros is a number padded with them (a specimen's 00000000), no prefix of letters."""
    return len(number) > 2 and all(c in "O0" for c in number[:2]) and number[2] in "123456789"


def _names_mended_by_print(reading: MrzReading, page_text: PageText) -> MrzReading:
    """``reading`` with its names mended where the printed page shows OCR took a filler for a
    letter or a letter for a filler: a names field read without its '<<' (all surname, no given
    names) parted as the print parts it (:func:`names_split_by_print`), a name's K read as
    filler joined back (:func:`name_rejoined_by_print`) and a filler read as K between two
    printed words parted (:func:`name_respaced_by_print`). No check digit guards names."""
    fields = dict(reading.fields)
    surname, given = fields.get("surname"), fields.get("given_names")
    if surname is not None and surname.value and (given is None or not given.value):
        parted = names_split_by_print(surname.value, page_text)
        if parted is not None:
            logger.info("MRZ names field read without its separator: parted where the print parts it")
            fields["surname"] = replace(surname, value=parted[0], alternatives=())
            fields["given_names"] = replace(given or surname, value=parted[1], alternatives=())
    for name in MRZ_NAME_FIELDS:
        f = fields.get(name)
        if f is not None and f.value:
            rejoined = name_respaced_by_print(name_rejoined_by_print(f.value, page_text), page_text)
            if rejoined != f.value:
                logger.info("MRZ %s: a filler and a letter confused, mended as the print spells it", name)
                fields[name] = replace(f, value=rejoined, alternatives=())
    return replace(reading, fields=fields) if fields != reading.fields else reading


def identity_result(
    reading: MrzReading, page_text: PageText, *, pages: int, hint: str | None, ctx: EngineContext
) -> EngineResult:
    """The result an MRZ gives (its timings are the reading's, added by the caller): its fields
    cross-checked against the print of its page, which mends and doubts what the check digits
    cannot settle, and the checks that say so."""
    page = page_text.page
    reading = _names_mended_by_print(reading, page_text)
    number = reading.fields.get("document_number")
    corrected = document_number_from_visual_zone(number.value, page_text) if number and number.value else None
    # the print reads the number otherwise where the MRZ's recogniser was sure of its own reading
    print_disputes_number = False
    if number is not None and corrected is not None:
        if _recogniser_admits(number, corrected):
            reading = replace(
                reading, fields={**reading.fields, "document_number": replace(number, value=corrected)}
            )
        else:
            print_disputes_number = True
    values = {n: f.value for n, f in reading.fields.items()}
    number = reading.fields.get("document_number")
    verified_number = number.value if number is not None and number.value and number.valid else None
    # an O-or-0 pair opening the number that the check digit cannot tell from its swap
    pair_undecided = verified_number is not None and _opens_with_an_undecided_pair(verified_number)
    # the print backs another reading of the number that passes the same check digit
    number_in_doubt = (
        print_disputes_number
        or pair_undecided
        or (
            verified_number is not None
            and (
                number_ambiguous_in_print(verified_number, page_text)
                or number_lengthened_in_print(verified_number, page_text)
            )
        )
    )
    printed = fields_in_visual_zone(values, page_text)
    # a letter read differently in print: one of the two readings is wrong, the check digits
    # cannot say which, so the MRZ's name keeps half its confidence (as a second reading's does)
    differing = names_printed_differently(values, page_text)
    fields = {
        name: FieldResult(
            value=f.value,
            confidence=f.confidence / 2 if name in differing else f.confidence,
            page=page,
            bbox=f.bbox,
            source="mrz",
            # a name the printed page repeats is cross-checked, as its check digit checks a number
            valid=True if f.valid is None and name in printed else f.valid,
        )
        for name, f in reading.fields.items()
    }
    fields = doubt_states_a_letter_apart(fields)
    read_otherwise = sorted(
        codes_read_otherwise(reading.repair.lines, reading.parse.format, page_text) & fields.keys()
    )
    for name in read_otherwise:
        fields[name] = replace(fields[name], valid=False)
    if number_in_doubt:
        fields["document_number"] = replace(fields["document_number"], valid=False)
    elif "document_number" in printed and fields["document_number"].valid:
        # the print, read in another typeface, repeats the number its check digit verified: what
        # the MRZ's OCR was unsure of (a character the check digit repaired) two readings agree on
        confirmed = fields["document_number"]
        fields["document_number"] = replace(
            confirmed, confidence=max(confirmed.confidence, _PRINT_CONFIRMED_CONFIDENCE)
        )
    fields, spelling_checks = doubt_uncommon_spellings(fields, names=MRZ_NAME_FIELDS, source="mrz")
    failed = reading.parse.failed_checks
    # fields whose check digit passed only after a repair it could not tell from another
    guessed = sorted(
        n
        for n in reading.repair.ambiguous
        if n in reading.fields and reading.fields[n].valid is False and n not in failed
    )
    detail = "; ".join(
        part
        for part in (
            "failed: " + ", ".join(failed) if failed else "",
            "repaired with an equally likely alternative: " + ", ".join(guessed) if guessed else "",
            "the print reads the document_number otherwise, as the check digit cannot tell"
            if print_disputes_number
            else "the document_number opens with two characters each O or 0, which the check digit cannot tell"
            if pair_undecided
            else "the print backs another reading that passes too: document_number"
            if number_in_doubt
            else "",
        )
        if part
    )
    unprinted = [
        n
        for n in CROSS_CHECKED_FIELDS
        if reading.fields.get(n) and reading.fields[n].value and n not in printed
    ]
    checks = [
        Check("mrz_found", True, f"{reading.parse.format.name} on page {page}"),
        Check("mrz_check_digits", not failed and not guessed and not number_in_doubt, detail),
        Check(
            "mrz_matches_visual_zone",
            not unprinted,
            "; ".join(
                part
                for part in (
                    "not found in print: " + ", ".join(n for n in unprinted if n not in differing)
                    if set(unprinted) - differing
                    else "",
                    "printed with a letter different: " + ", ".join(sorted(differing)) if differing else "",
                )
                if part
            ),
        ),
        Check(
            "mrz_read_alike_by_page_ocr",
            not read_otherwise,
            "the page's OCR reads another valid code: " + ", ".join(read_otherwise) if read_otherwise else "",
        ),
        *spelling_checks,
    ]
    document_type = reading.parse.document_type
    if reading.parse.format.name == "TD2" and reading.document_type_confidence < _TD2_CODE_TRUSTED:
        # the document code's letter, which alone tells a TD2 passport from a card, is unsure
        document_type = printed_identity_type([page_text]) or document_type
    if hint is not None:
        agrees = hint == document_type
        checks.append(Check("document_type_hint", agrees, "" if agrees else f"the MRZ says {document_type}"))
    logger.info(
        "MRZ found on page %d: format %s, %d/%d check digits pass, %d characters repaired",
        page,
        reading.parse.format.name,
        sum(reading.parse.check_digits.values()),
        len(reading.parse.check_digits),
        reading.repair.repair_count,
    )
    return EngineResult(
        document_type=document_type,
        document_type_confidence=reading.document_type_confidence,
        pages=pages,
        fields=fields,
        checks=checks,
        engine_name=ctx.engine_name,
        engine_version=ctx.engine_version,
    )
