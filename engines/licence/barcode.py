"""The licence's barcode as the reader reports it: found or not, parsed or why not, and what the
barcode alone cannot settle (a full name's order, a name the issuer truncated).

:mod:`engines.licence.reader` merges the barcode with the printed front; this module keeps the
barcode's side of that: finding the PDF417 that holds an AAMVA payload (reporting the reason
when one that looks like AAMVA does not parse, instead of treating the card as barcode-less),
and the checks that say how far the barcode can be trusted on its own. Checks name fields and
deviations, never values.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engines.barcode import Barcode, read_barcodes
from engines.licence.aamva import AamvaError, AamvaRecord, looks_like_aamva, parse_aamva
from engines.licence.aamva_names import FULL_NAME_SPACES, settle_order
from engines.types import Check

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BarcodeScan:
    """What the pages' PDF417 codes held: a parsed record (with its symbol and 1-based page), or
    the reason the AAMVA-looking payload found could not be parsed, or neither."""

    record: AamvaRecord | None = None
    barcode: Barcode | None = None
    page: int = 0
    failure: str | None = None  # why an AAMVA-looking payload did not parse (no values)


def scan_for_aamva(images: Sequence[np.ndarray]) -> BarcodeScan:
    """The first AAMVA barcode that decodes and parses. Later pages are tried first: a licence's
    back, with the barcode, usually follows its front. A payload that looks like AAMVA but does
    not parse is remembered (the first one's reason) in case no other does."""
    failure: BarcodeScan | None = None
    for index in list(range(len(images)))[::-1]:
        for barcode in read_barcodes(images[index], formats="PDF417"):
            if not looks_like_aamva(barcode.text):
                continue
            try:
                record = parse_aamva(barcode.text)
            except AamvaError as error:
                logger.info("PDF417 on page %d is no readable AAMVA payload: %s", index + 1, error)
                failure = failure or BarcodeScan(barcode=barcode, page=index + 1, failure=str(error))
                continue
            logger.info(
                "AAMVA barcode on page %d: version %s, %d fields, %d deviations, found by %s",
                index + 1,
                record.version,
                len(record.fields),
                len(record.deviations),
                barcode.attempt,
            )
            return BarcodeScan(record=record, barcode=barcode, page=index + 1)
    return failure or BarcodeScan()


def parsed_check(record: AamvaRecord) -> Check:
    """The barcode parsed: its version and issuer, and the deviations it was read through."""
    issuer = f"IIN {record.iin}" if record.iin else "no IIN"
    if record.jurisdiction:
        issuer += f", {record.jurisdiction}"
    detail = f"AAMVA version {record.version} ({issuer})"
    if record.deviations:
        detail += "; read through: " + ", ".join(record.deviations)
    return Check("barcode_parsed", True, detail)


def failed_parse_check(reason: str) -> Check:
    return Check("barcode_parsed", False, f"an AAMVA barcode that cannot be read: {reason}")


def settle_name_order(
    record: AamvaRecord,
    printed_surname: str | None,
    printed_given: str | None,
    agreement: Callable[[str, str, str], int],
) -> tuple[AamvaRecord, Check | None]:
    """A record whose full name's order the front settled, and the check that says whether it
    did (None when the barcode's separators said the order). Unsettled, the standard's order
    (LAST FIRST MIDDLE) is kept and the check fails: the reader never guesses silently."""
    names = record.names
    if names is None or names.order_settled:
        return record, None
    settled, confirmed = settle_order(names, printed_surname, printed_given, agreement)
    if not confirmed:
        detail = (
            f"the barcode's {FULL_NAME_SPACES} has no separators and the front did not say which "
            "words are the surname"
        )
        return record, Check("barcode_name_order", False, detail)
    fields = dict(record.fields)
    for name, value in (("surname", settled.surname), ("given_names", settled.given_names)):
        if value:
            fields[name] = value
    return (
        replace(record, fields=fields, names=settled),
        Check("barcode_name_order", True, "the full name's order taken from the printed front"),
    )


def truncated_check(record: AamvaRecord, completed: Sequence[str]) -> Check | None:
    """A failed check naming the name fields the issuer truncated in the barcode (DDE/DDF/DDG),
    and those whose fuller reading the front gave."""
    truncated = record.names.truncated if record.names else ()
    if not truncated:
        return None
    detail = "truncated in the barcode: " + ", ".join(truncated)
    if completed:
        detail += "; the front's fuller reading used for " + ", ".join(completed)
    return Check("barcode_name_truncated", False, detail)
