"""Refine: the business documents' names and addresses read a second time and mended.

A second OCR reads every name and address again (engines.second_reading), and every date and
amount, whose agreement is evidence (``two_readings``); trade words and cities
both readers read without their one spelling's accents get them back, and one person's name read
twice keeps the accents and spacing either reading saw (engines.business.accents,
engines.business.name_spelling); names one confusion from a common spelling are doubted, and so
are cities one confusion from a known city, which take a known city's spaces where only those
differ (engines.business.city_spelling).
"""

from __future__ import annotations

from dataclasses import replace

from engines.business.accents import restore_customary_accents, share_accents_of_one_name
from engines.business.city_spelling import mend_city_spellings
from engines.business.name_spelling import doubt_uncommon_spellings, share_spacing_of_one_name
from engines.second_reading import confirm_fields, confirm_values
from engines.stages.base import DocumentState
from engines.stages.extract import BUSINESS_READERS
from engines.types import Check, EngineContext, FieldResult


class Refine:
    name = "refine"
    timing = "second_reading"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return (
            state.identity is None and state.extracted is not None and state.document_type in BUSINESS_READERS
        )

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        extracted = state.extracted
        if extracted is None:
            return state
        confirmed: dict[str, FieldResult] = extracted.fields
        second_checks: list[Check] = []
        if ctx.second_reading:
            confirmed, second_checks = confirm_fields(extracted.fields, list(state.images), state.frames)
            confirmed = confirm_values(confirmed, list(state.images), state.frames)
        accented = share_spacing_of_one_name(share_accents_of_one_name(restore_customary_accents(confirmed)))
        spelled, spelling_checks = doubt_uncommon_spellings(accented)
        placed, city_checks = mend_city_spellings(spelled)
        return replace(
            state,
            extracted=replace(extracted, fields=placed),
            checks=(*state.checks, *second_checks, *spelling_checks, *city_checks),
        )
