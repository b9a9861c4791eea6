"""The CPU reference engine's entry point: pages in, a classified document with typed fields out.

Everyone else (the CPU Triton models, ``manage.py extract --engine local``, apps/extraction)
calls :func:`read_document`. The order of the steps is the order of the evidence's strength and
cost:

1. the MRZ of an identity document (cheap to rule out, decisive when found);
2. the text of every page: the PDF's text layer where it has one, full-page OCR otherwise;
3. the document type from that text (a caller's hint is honoured unless the text contradicts it);
4. the reader of that type (driver licence barcode and front, or the key-value readers);
5. names and addresses are read again by a second OCR (engines.second_reading); trade words and
   cities both readers read without their one spelling's accents get them back, and one person's
   name read twice keeps the accents either reading saw (engines.business.accents); names one
   confusion from a common spelling are doubted (engines.business.name_spelling), and so are
   cities one confusion from a known city, which take a known city's spaces where only those
   differ (engines.business.city_spelling);
6. a photo smeared by a shaking hand (engines.deblur) is read a second time with the smear undone,
   and the reading that reads better is kept.

Field values are personal data: nothing here logs them, and check details name fields, never
their values.
"""

from __future__ import annotations

import importlib
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from engines import ENGINE_NAME, ENGINE_VERSION
from engines.business.accents import restore_customary_accents, share_accents_of_one_name
from engines.business.city_spelling import mend_city_spellings
from engines.business.name_spelling import (
    MRZ_NAME_FIELDS,
    doubt_uncommon_spellings,
    share_spacing_of_one_name,
)
from engines.classify import (
    DOCUMENT_TYPES,
    Classification,
    classify_text,
    identity_classification,
    printed_identity_type,
)
from engines.deblur import deblurred, motion_blur_of
from engines.images import decode_image
from engines.layout import PageText, page_from_text_layer
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
from engines.page_text import PageFrame, ocr_page_text
from engines.second_reading import confirm_fields
from engines.types import Check, EngineError, EngineResult, Extracted, FieldResult
from engines.validators import find_iban

logger = logging.getLogger(__name__)

# A text layer with fewer characters than this is a scan with a stray caption, not a digital page.
_MIN_TEXT_LAYER_CHARS = 20
# Below this probability for the hinted type, the text contradicts the caller's hint.
_HINT_MIN_PROBABILITY = 0.05
_MRZ_TYPES = ("passport", "id_card")
# Below this type confidence a TD2's document code may be misread, and its printed title decides.
_TD2_CODE_TRUSTED = 0.9
# The raw confidence, at least, of an MRZ document number its check digit verified and its print
# repeats character for character.
_PRINT_CONFIRMED_CONFIDENCE = 0.98
# the least probability the MRZ's recogniser must give a printed character it did not read, for
# the print to overrule it (an OCR-B G read at 0.994, 6 at 0.005, stays a G)
_PRINT_OVERRULES_MRZ_MIN_PROBABILITY = 0.02
_BARCODE_TYPE_CONFIDENCE = 0.99
# The most a receipt of several pages is believed to be one (see _read)
_MULTI_PAGE_RECEIPT_CONFIDENCE = 0.5
_SPARSE_PAGE_LINES = 12
# Photos mostly come one or two pages at a time (a card's two sides); longer documents, mostly
# scans, are not searched for motion blur (about 75 ms a page).
_MAX_PHOTO_PAGES = 2
# A photo's document enlarged to this many pixels for a second look at print too small to read
# at the usual size (Ocr.read_page): about twice the usual budget, 1.8 times the sides.
_ENLARGED_PAGE_PIXELS = 4_500_000
# ... whose reading must name a type this surely to be kept: a letter read better is still a letter
_ENLARGED_LOOK_MIN_CONFIDENCE = 0.6
_IDENTITY_WORDS = re.compile(
    r"passport|passeport|reisepass|pasaporte|passaporto|paspoort|identity|identit|ausweis|"
    r"nationality|nationalit|staatsangeh|nacionalidad|cittadinanza|nationaliteit|surname|given name"
)

Reader = Callable[[list[PageText], list[np.ndarray]], Extracted | None]


def read_document(
    pages: Sequence[bytes],
    *,
    document_type_hint: str | None = None,
    text_layer: Sequence[str] | None = None,
) -> EngineResult:
    """Read a document given as encoded PNG/JPEG pages (page 1 first).

    ``text_layer`` holds, per page, the JSON text-layer payload of a digital PDF page
    (:func:`engines.layout.text_layer_payload`) or "" for none. Raises
    EngineError("unreadable_image" | "image_too_large") for a page that cannot be decoded.
    """
    if not pages:
        raise EngineError("unreadable_image", "The document has no pages.")
    if text_layer is not None and len(text_layer) != len(pages):
        raise EngineError("invalid_request", "text_layer must have one entry per page.")
    timer = _Timer()
    with timer.section("decode"):
        images = [decode_image(page) for page in pages]
        layers = [_usable_text_layer(text_layer[i] if text_layer else "", i + 1) for i in range(len(pages))]
    hint = document_type_hint if document_type_hint in DOCUMENT_TYPES else None
    with timer.section("deblur"):
        blurs = [
            motion_blur_of(image) if layer is None and len(images) <= _MAX_PHOTO_PAGES else None
            for image, layer in zip(images, layers, strict=True)
        ]
    result = _read(images, layers, hint, timer)
    if not any(blurs):
        return result

    # A shaken photo: read it again with the smear undone, and keep the reading that reads better
    # (a wrong estimate of the smear then costs time, never a worse result).
    second_timer = _Timer()
    with second_timer.section("deblur"):
        sharpened = [
            image if blur is None else deblurred(image, blur)
            for image, blur in zip(images, blurs, strict=True)
        ]
    second = _read(sharpened, layers, hint, second_timer)
    timings = {
        name: result.timings_ms.get(name, 0) + second.timings_ms.get(name, 0)
        for name in {**result.timings_ms, **second.timings_ms}
    }
    deblurred_reads_better = _reads_better(second, result)
    kept, other = (second, result) if deblurred_reads_better else (result, second)
    kept = _unverified_where_readings_differ(kept, other)
    if not deblurred_reads_better:
        return replace(kept, timings_ms=timings)
    logger.info("Motion blur undone: the deblurred pages read better")
    return replace(
        kept,
        checks=[*kept.checks, Check("motion_blur_corrected", True, "read from deblurred pages")],
        timings_ms=timings,
    )


def _unverified_where_readings_differ(kept: EngineResult, other: EngineResult) -> EngineResult:
    """``kept`` with every field that both readings of the same pages verified (a check digit
    passed, a second reader agreed) but as different values marked invalid: a check digit cannot
    tell M from W (22 and 32 weigh alike), so when the blurred photo reads JW38750 and its
    deblurred copy JM38750, each passing, the check verified neither, and a person decides."""
    if kept.document_type != other.document_type:
        return kept
    differing = sorted(
        name
        for name, f in kept.fields.items()
        if f.valid is True
        and f.value
        and (theirs := other.fields.get(name)) is not None
        and theirs.valid is True
        and theirs.value
        and theirs.value != f.value
    )
    if not differing:
        return kept
    fields = {name: replace(f, valid=False) if name in differing else f for name, f in kept.fields.items()}
    detail = "verified as different values by two readings: " + ", ".join(differing)
    return replace(kept, fields=fields, checks=[*kept.checks, Check("readings_agree", False, detail)])


def _read(
    images: list[np.ndarray], layers: list[PageText | None], hint: str | None, timer: _Timer
) -> EngineResult:
    """One reading of the decoded pages: MRZ, else the text's type and that type's reader."""
    with timer.section("ocr"):
        read = [
            (layer, None) if layer is not None else ocr_page_text(image, page=n)
            for n, (image, layer) in enumerate(zip(images, layers, strict=True), start=1)
        ]
        texts = [text for text, _ in read]
        frames = {text.page: frame for text, frame in read if frame is not None}

    if hint is None or hint in _MRZ_TYPES:
        for number, (image, text) in enumerate(zip(images, texts, strict=True), start=1):
            if layers[number - 1] is not None or not (hint in _MRZ_TYPES or _may_hold_mrz(text)):
                continue  # a digital page, or one whose text shows no sign of an MRZ
            with timer.section("mrz"):
                frame = frames.get(number)
                reading = read_mrz(
                    image,
                    line_quads=frame.line_quads if frame is not None else None,
                    turn=frame.turn if frame is not None else 0,
                )
            if reading is not None:
                return _result_from_mrz(reading, text, pages=len(images), hint=hint, timer=timer)

    with timer.section("classify"):
        classification = classify_text(texts)
    if hint is None and classification.document_type == "other" and _worth_an_enlarged_look(layers):
        # A photo whose words OCR could not make out: its print may be too small at the usual
        # size. Read it again enlarged, and keep that reading where it names a type surely.
        with timer.section("ocr"):
            enlarged = [
                ocr_page_text(image, page=n, enlarge_to=_ENLARGED_PAGE_PIXELS)
                for n, image in enumerate(images, start=1)
            ]
        with timer.section("classify"):
            second_look = classify_text([text for text, _ in enlarged])
        if second_look.document_type != "other" and second_look.confidence >= _ENLARGED_LOOK_MIN_CONFIDENCE:
            classification = second_look
            texts = [text for text, _ in enlarged]
            frames = {text.page: frame for text, frame in enlarged}
    document_type, type_confidence, checks = _apply_hint(classification, hint)
    if document_type == "receipt" and len(images) > 1:
        # A till's receipt is one slip. Several pages read as one are an invoice or a statement
        # whose telling page went unread (a first page too smeared to read, the item table of the
        # second read as a till's): the type is in doubt.
        type_confidence = min(type_confidence, _MULTI_PAGE_RECEIPT_CONFIDENCE)

    extracted: Extracted | None = None
    with timer.section("extract"):
        reader = _reader_for(document_type)
        if reader is not None:
            extracted = reader(texts, images)
            if document_type == "driver_license" and _has_barcode(extracted):
                type_confidence = max(type_confidence, _BARCODE_TYPE_CONFIDENCE)
        if (
            extracted is None
            and document_type != "driver_license"
            and _barcode_worth_a_look(classification, len(images))
        ):
            # an AAMVA barcode is decisive whatever the words say (a licence photographed badly)
            dl_reader = _reader_for("driver_license")
            extracted = dl_reader(texts, images) if dl_reader is not None else None
            if _has_barcode(extracted):
                document_type, type_confidence = "driver_license", _BARCODE_TYPE_CONFIDENCE
            else:
                extracted = None
    second_checks: list[Check] = []
    if extracted is not None and document_type in _BUSINESS_READERS:
        with timer.section("second_reading"):
            confirmed, second_checks = confirm_fields(extracted.fields, images, frames)
            accented = share_spacing_of_one_name(
                share_accents_of_one_name(restore_customary_accents(confirmed))
            )
            spelled, spelling_checks = doubt_uncommon_spellings(accented)
            placed, city_checks = mend_city_spellings(spelled)
            extracted = replace(extracted, fields=placed)
            second_checks += spelling_checks + city_checks
    logger.info(
        "Classified %d page(s) as %s (%.2f); %d field(s)",
        len(images),
        document_type,
        type_confidence,
        len(extracted.fields) if extracted else 0,
    )
    return EngineResult(
        document_type=document_type,
        document_type_confidence=type_confidence,
        pages=len(images),
        fields=_on_stored_pages(extracted.fields, frames) if extracted else {},
        checks=checks + (list(extracted.checks) if extracted else []) + second_checks,
        engine_name=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        timings_ms=timer.as_ms(),
    )


def _worth_an_enlarged_look(layers: list[PageText | None]) -> bool:
    """Photos only (a text layer is exact), and few of them: the enlarged reading costs about a
    second and a half of CPU a page, spent only on the pages nothing could classify."""
    return all(layer is None for layer in layers) and len(layers) <= _MAX_PHOTO_PAGES


def _reads_better(candidate: EngineResult, baseline: EngineResult) -> bool:
    """Is ``candidate`` the better of two readings of the same pages? Two readings that recognised
    different types are weighed by how sure each classification is: their fields belong to
    different schemas (a statement has more of them than an invoice), so their sums say nothing
    of which is right. Readings of one type are weighed by :func:`_reading_strength`."""
    if candidate.document_type != baseline.document_type and "other" not in (
        candidate.document_type,
        baseline.document_type,
    ):
        return candidate.document_type_confidence > baseline.document_type_confidence
    return _reading_strength(candidate) > _reading_strength(baseline)


def _reading_strength(result: EngineResult) -> tuple[bool, float]:
    """Which of two readings of the same pages to keep: one that recognised the document at all,
    then the one with more confidence in values no check refuted, less a point for every check
    that failed (a check digit, the totals' arithmetic, barcode against print)."""
    confidence = sum(f.confidence for f in result.fields.values() if f.value and f.valid is not False)
    failed = sum(1 for check in result.checks if not check.passed)
    return result.document_type != "other", confidence - failed


def _has_barcode(extracted: Extracted | None) -> bool:
    """An AAMVA barcode was decoded: the document is a licence whatever its words say."""
    return extracted is not None and any(f.source == "barcode" for f in extracted.fields.values())


def _barcode_worth_a_look(classification: Classification, pages: int) -> bool:
    """A licence whose words were unreadable still has its barcode; look for one (a few hundred
    milliseconds on a photo) only where the words did not already say what the document is."""
    return pages <= 2 and (classification.document_type == "other" or classification.confidence < 0.6)


def _may_hold_mrz(page: PageText) -> bool:
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


def _usable_text_layer(payload: str, page: int) -> PageText | None:
    if not payload:
        return None
    try:
        text = page_from_text_layer(payload, page=page)
    except ValueError:
        return None  # a malformed layer is no reason to fail the page: OCR reads it
    return text if sum(len(line.text) for line in text.lines) >= _MIN_TEXT_LAYER_CHARS else None


def _on_stored_pages(fields: dict[str, FieldResult], frames: dict[int, PageFrame]) -> dict[str, FieldResult]:
    """Field boxes found in pages' reading frames (turned upright, straightened), mapped back onto
    the pages as stored, where a reviewer sees them."""
    return {
        name: replace(f, bbox=frames[f.page].to_stored(f.bbox))
        if f.bbox is not None and f.page in frames
        else f
        for name, f in fields.items()
    }


def _apply_hint(classification: Classification, hint: str | None) -> tuple[str, float, list[Check]]:
    """The type to read the document as, its confidence, and the hint check if there was a hint."""
    if hint is None:
        return classification.document_type, classification.confidence, []
    probability = classification.probabilities.get(hint, 0.0)
    if classification.document_type == hint or probability >= _HINT_MIN_PROBABILITY:
        agrees = classification.document_type == hint
        detail = "" if agrees else f"the text suggests {classification.document_type}"
        return (
            hint,
            max(probability, 0.5 if agrees else probability),
            [Check("document_type_hint", agrees, detail)],
        )
    detail = f"the text contradicts the hint; read as {classification.document_type}"
    return (
        classification.document_type,
        classification.confidence,
        [Check("document_type_hint", False, detail)],
    )


def _reader_for(document_type: str) -> Reader | None:
    """The reader of a type, imported on first use (each pulls in its own dependencies)."""
    if document_type == "driver_license":
        from engines.driver_license import read_driver_license

        return read_driver_license
    if document_type in _BUSINESS_READERS:
        module_name, function_name = _BUSINESS_READERS[document_type]
        function = getattr(importlib.import_module(module_name), function_name)
        return lambda texts, _images: function(texts)
    return None


_BUSINESS_READERS = {
    "receipt": ("engines.business.receipt", "read_receipt"),
    "invoice": ("engines.business.invoice", "read_invoice"),
    "proof_of_address": ("engines.business.address", "read_proof_of_address"),
    "bank_statement": ("engines.business.statement", "read_bank_statement"),
}


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


def _doubt_states_a_letter_apart(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
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


def _result_from_mrz(
    reading: MrzReading, page_text: PageText, *, pages: int, hint: str | None, timer: _Timer
) -> EngineResult:
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
    fields = _doubt_states_a_letter_apart(fields)
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
    classification = identity_classification(document_type, reading.document_type_confidence)
    timings = timer.as_ms()
    timings.pop("mrz", None)  # the reader's own split follows: its OCR, and parsing with repair
    timings["ocr"] = timings.get("ocr", 0) + reading.timings_ms.get("ocr", 0)
    timings["parse"] = reading.timings_ms.get("parse", 0)
    return EngineResult(
        document_type=classification.document_type,
        document_type_confidence=classification.confidence,
        pages=pages,
        fields=fields,
        checks=checks,
        engine_name=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        timings_ms=timings,
    )


class _Timer:
    """Milliseconds per named step, summed over repeats."""

    def __init__(self) -> None:
        self._ms: dict[str, float] = {}

    def section(self, name: str) -> _Section:
        return _Section(self, name)

    def add(self, name: str, seconds: float) -> None:
        self._ms[name] = self._ms.get(name, 0.0) + seconds * 1000

    def as_ms(self) -> dict[str, int]:
        return {name: round(ms) for name, ms in self._ms.items()}


class _Section:
    def __init__(self, timer: _Timer, name: str) -> None:
        self._timer, self._name = timer, name

    def __enter__(self) -> None:
        self._started = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self._timer.add(self._name, time.perf_counter() - self._started)
