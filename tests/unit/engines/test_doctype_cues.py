"""The type cues the document-type model weighs (engines/doctype_cues.py): phrases from data,
matched as OCR reads print, and the structures that tell types apart in any language."""

from __future__ import annotations

import numpy as np

from engines import doctype_cues as dc
from engines.layout import Line, PageText


def _page(*texts: str) -> PageText:
    lines = tuple(
        Line(text=t, score=0.95, bbox=(0.1, 0.02 + i * 0.03, 0.6, 0.04 + i * 0.03), page=1)
        for i, t in enumerate(texts)
    )
    return PageText(page=1, lines=lines, source="ocr")


def _features(*texts: str) -> dict[str, float]:
    return dict(zip(dc.feature_names(), dc.cue_features([_page(*texts)]).tolist(), strict=True))


def _phrases(*texts: str) -> dict[tuple[str, str], set[str]]:
    text = dc._page_words([_page(*texts)])
    return dc.cues().phrases.found(text, "".join(text.split()))


def test_every_type_of_the_spec_has_its_phrases_and_names_are_unique() -> None:
    from engines.spec import DOCUMENT_TYPES

    names = dc.feature_names()
    assert len(names) == len(set(names))
    assert set(dc.cues().types) == set(DOCUMENT_TYPES)
    assert all(f"{t}:decisive" in names for t in DOCUMENT_TYPES)


def test_phrases_match_whole_words_only() -> None:
    """ "gas" inside "Vegas", "tva" inside "TVAL" are no cues."""
    assert not _phrases("Welcome to Las Vegas", "TVAL park")


def test_a_phrase_written_with_accents_matches_an_ocr_reading_without_them() -> None:
    """PP-OCR has no accented letters: "Fällig" reads "Fallig", "Straße" upper-cased "STRASSE"."""
    assert _phrases("Fallig am 05.06.2024") == _phrases("Fällig am 05.06.2024")
    assert _phrases("Fallig am 05.06.2024")
    assert _phrases("STRASSENREINIGUNG") == _phrases("Straßenreinigung")


def test_a_phrase_glued_by_ocr_still_counts() -> None:
    glued, apart = _phrases("Accountstatement"), _phrases("Account statement")
    assert ("bank_statement", "decisive") in glued
    assert glued.get(("bank_statement", "decisive")) == apart.get(("bank_statement", "decisive"))


def test_a_caption_glued_to_its_number_counts_but_a_number_glued_to_a_number_does_not() -> None:
    """ "Factura2025-2985": the caption and the number it captions, glued; "net 300" (a weight) is
    not the term of payment "net 30"."""
    assert ("invoice", "decisive") in _phrases("Factura2025-2985")
    assert not any("net30" in found for found in _phrases("net 300 g").values())


def test_distinct_phrases_are_counted_and_capped() -> None:
    one = _features("Total 4.00")
    many = _features("Total 4.00", "Total 4.00", "Total 4.00")
    assert np.isclose(sum(one.values()), sum(many.values()))
    lots = _features("receipt no 1", "cashier Ann", "change due 1.00", "tendered 5.00", "cash receipt")
    assert max(lots[f"receipt:{tier}"] for tier in dc.TIERS) == 3


def test_a_title_counts_only_on_a_line_of_its_own() -> None:
    assert _features("RECHNUNG / INVOICE", "Total 3,00")["invoice:title"] == 1
    assert _features("We will send the invoice shortly")["invoice:title"] == 0


def test_structures() -> None:
    till = _features("2 x 1,00", "1 x 3,50", "8,04 B", "CASH 10.00", "12:41")
    assert till["till_lines"] == till["paid_at_counter"] == till["time_of_day"] == 1
    ledger = _features(*(f"{d:02d}.03.2026 Transfer {d},00" for d in range(1, 10)), "Closing balance 9,00")
    assert ledger["ledger_rows"] == ledger["ledger_balance"] == 1 and ledger["payment_plan"] == 0
    plan = _features(*(f"{d:02d}/05/2026 167,55" for d in range(1, 6)), "Amount due 837,75")
    assert plan["payment_plan"] == plan["payment_demand"] == 1
    assert _features("Change of opening hours")["paid_at_counter"] == 0


def test_an_mrz_line_the_reader_could_not_read_whole_says_which_identity_document() -> None:
    assert dc.mrz_line_type([_page("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<")]) == "passport"
    assert dc.mrz_line_type([_page("BIN<IVANOV<<JEAN<BAPTISTE<<<<<")]) == "id_card"
    assert dc.mrz_line_type([_page("PXUTOERIKSSONKKANNAKMARIAKKKKKKKKKKKKKKKKKKK")]) == "passport"
    assert dc.mrz_line_type([_page("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQR")]) is None


def test_a_licence_holders_description_without_its_captions() -> None:
    assert dc.licence_holder_described([_page("BRO", "5'-09\"", "DOE JOHN")])
    assert not dc.licence_holder_described([_page("5'-09\"", "DOE JOHN")])
