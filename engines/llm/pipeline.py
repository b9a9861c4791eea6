"""The GPU pipeline's steps around the two model calls: classify → extract → verify.

``doc_pipeline``'s GPU variant (``model_repo/doc_pipeline/1/gemma4_model.py``) does the Triton part —
encoding images, sending the calls with async BLS — and hands what the models wrote to these
functions, which decide everything else. They are plain functions over plain data so the unit
tests exercise every decision without a GPU or a server.

The result is the same :class:`engines.types.EngineResult` the CPU engine returns (§3.5): fields
with ``source="model"``, raw confidences from the models' token probabilities, and the checks the
verify step could run. Calibration, business validation and the decision happen downstream in
``apps/extraction``, exactly as for the CPU engine.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from engines.custom_types import TypeCandidate
from engines.evidence import engine_evidence
from engines.llm import ENGINE_NAME, ENGINE_VERSION
from engines.llm.confidence import ValueConfidence, value_confidence
from engines.llm.grounding import ground
from engines.llm.parsing import UNUSABLE, ParsedOutput, Span, parse_model_json
from engines.llm.prompts import classification_prompt, extraction_prompt
from engines.llm.schemas import (
    CLASSIFY_TYPES,
    FIELD_SCHEMAS,
    MRZ_PROPERTY,
    WITH_MRZ,
    classification_schema,
    extraction_schema,
    field_names,
    length_bound,
    tenant_schema,
)
from engines.types import Check, EngineError, EngineResult, FieldResult

Statistic = Literal["minimum", "geometric_mean"]
STATISTICS: tuple[Statistic, ...] = ("minimum", "geometric_mean")
# The longest type's answer, {"document_type":"proof_of_address"}, is 36 characters: a budget that
# holds it even written a character a token, so a classification is never cut short.
CLASSIFY_MAX_TOKENS = 48
EXTRACT_MAX_TOKENS = 512
# A hint loses to the classifier only when the classifier is at least this sure of another type.
HINT_OVERRIDE_CONFIDENCE = 0.9


@dataclass(frozen=True)
class ModelCall:
    """One request to a Gemma 4 model: the instruction, the JSON Schema it must follow, a budget."""

    prompt: str
    schema: dict[str, Any]
    max_tokens: int

    @property
    def schema_json(self) -> str:
        return json.dumps(self.schema, separators=(",", ":"))


@dataclass(frozen=True)
class Generation:
    """What a model wrote: the text, and per generated token its log-probability and characters."""

    text: str
    logprobs: Sequence[float]
    offsets: Sequence[tuple[int, int]]
    truncated_by_length: bool = False  # finish_reason "length"
    prompt_tokens: int = 0  # as the engine counted them (image soft tokens included)
    answer_tokens: int = 0
    engine_ms: int = 0  # the engine's own latency for this call, as the caller measured it
    # False when the engine returned no log-probabilities at all (``logprobs: null``): it was
    # started or proxied without them, a misconfiguration; every confidence is then unknown.
    scored: bool = True
    # Per token, how many tokens the grammar allowed at that step, counted among the top
    # alternatives the call asked for (engines.llm.confidence.allowed_choices); None where the
    # engine returned no alternatives. A forced token (1) decided nothing; a few make a value
    # unscored (its masked probability is not the model's).
    choices: Sequence[int] | None = None

    def __post_init__(self) -> None:
        if len(self.logprobs) != len(self.offsets) or (
            self.choices is not None and len(self.choices) != len(self.logprobs)
        ):
            raise EngineError(
                "invalid_response",
                "the model returned log-probs, offsets and alternatives of different lengths",
            )

    def confidence(self, span: Span) -> ValueConfidence | None:
        """How sure the model was of the characters in ``span`` (engines.llm.confidence)."""
        return value_confidence(span, self.offsets, self.logprobs, self.choices)


@dataclass(frozen=True)
class TypeDecision:
    document_type: str
    confidence: float
    checks: list[Check] = field(default_factory=list)


def _pick(confidence: ValueConfidence | None, statistic: Statistic) -> float:
    """The value's raw confidence; 0.0 (unknown) where nothing the model chose scores it."""
    if confidence is None or not confidence.scored:
        return 0.0
    return confidence.minimum if statistic == "minimum" else confidence.geometric_mean


UNSCORED = "model_scored"  # the check that fails where a confidence could not be computed
NO_LOGPROBS = (
    "the model engine returned no log-probabilities, so confidences are unknown (0.0): the engine "
    "is misconfigured (serve with log-probabilities enabled)"
)
GRAMMAR_CHOSE = (
    "the grammar left the model few or no choices while it wrote these values, and engines score "
    "a token after the grammar's mask, so their confidence is unknown (0.0): "
)


def unscored_checks(generation: Generation, parsed: ParsedOutput | None = None) -> list[Check]:
    """A failed ``model_scored`` check if the engine returned no log-probabilities, or naming the
    values of ``parsed`` (the extraction's answer) whose scores rest on the grammar's choices:
    forced throughout, or chosen at some step among fewer allowed tokens than were asked for."""
    if not generation.scored:
        return [Check(UNSCORED, False, NO_LOGPROBS)]
    if parsed is None:
        return []
    unscored = [
        name
        for name, span in parsed.spans.items()
        if name != MRZ_PROPERTY
        and parsed.data.get(name) is not None
        and (confidence := generation.confidence(span)) is not None
        and not confidence.scored
    ]
    return [Check(UNSCORED, False, GRAMMAR_CHOSE + ", ".join(unscored))] if unscored else []


def plan_classification(page_count: int, own_types: Sequence[TypeCandidate] = ()) -> ModelCall:
    """The classifier's call; ``own_types``: the tenant's types it may also choose."""
    names = [t.name for t in own_types]
    # {"document_type":"<name>"} written a character a token still fits, for the longest name
    budget = max(CLASSIFY_MAX_TOKENS, max((len(n) for n in names), default=0) + 24)
    return ModelCall(classification_prompt(page_count, own_types), classification_schema(names), budget)


def read_classification(
    generation: Generation,
    *,
    hint: str | None,
    statistic: Statistic = "minimum",
    own_types: Sequence[str] = (),
) -> TypeDecision:
    """The type to read the document as (the hint, unless the model is sure it is wrong): a §3.2
    type or one of ``own_types``, the tenant's types the classifier was offered."""
    parsed = parse_model_json(generation.text)
    named = parsed.data.get("document_type")
    known = (*CLASSIFY_TYPES, *own_types)
    if named not in known and parsed.truncated:
        # cut before it named a type: read the document as the hint (or as other), doubted
        cut = Check("model_output_complete", False, "the classifier's answer was cut short")
        return TypeDecision(hint or "other", 0.0, [cut])
    if named not in known:
        raise EngineError(UNUSABLE, "the classifier named no known document type")
    scored = generation.confidence(parsed.spans["document_type"])
    confidence = _pick(scored, statistic)
    unscored: list[Check] = []
    if scored is None or not scored.scored:  # no score is an unknown confidence, never a sure one
        reason = (
            NO_LOGPROBS
            if not generation.scored
            else "no scored token wrote the document type"
            if scored is None
            else GRAMMAR_CHOSE + "document_type"
        )
        unscored = [Check(UNSCORED, False, reason)]
    if hint is None or hint == named:
        checks = [] if hint is None else [Check("document_type_hint", True, "")]
        return TypeDecision(str(named), confidence, [*checks, *unscored])
    if confidence >= HINT_OVERRIDE_CONFIDENCE:
        detail = f"the page contradicts the hint; read as {named}"
        return TypeDecision(str(named), confidence, [Check("document_type_hint", False, detail)])
    # Read as the hint, which the model did not choose: the model gave no probability of the hint
    # (1 - P(its choice) only bounds it), so the hint's confidence is unknown.
    detail = f"the model suggests {named}; the hint's own probability is unknown"
    return TypeDecision(hint, 0.0, [Check("document_type_hint", False, detail), *unscored])


def extraction_schema_for(document_type: str, custom_schema: dict[str, Any] | None) -> dict[str, Any]:
    """The tenant's schema when the request carries one, else the §3.2 schema of the type."""
    return tenant_schema(custom_schema) if custom_schema is not None else extraction_schema(document_type)


def plan_extraction(document_type: str, schema: dict[str, Any], page_count: int) -> ModelCall:
    return ModelCall(extraction_prompt(document_type, schema, page_count), schema, EXTRACT_MAX_TOKENS)


def _as_text(value: Any, raw: str) -> str | None:
    """A JSON value as a field value: strings as written, numbers as their literal, else None."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return raw
    if isinstance(value, str):
        return " ".join(value.split()) or None
    return json.dumps(value, sort_keys=True)


def read_extraction(
    generation: Generation, schema: dict[str, Any], *, statistic: Statistic = "minimum"
) -> tuple[dict[str, FieldResult], ParsedOutput]:
    """Every field the schema asks for: value and raw confidence, or ``None`` at 0.0 if the
    output was cut before it. A ``null`` the model chose keeps the confidence of that choice.

    A value as long as the schema lets it be is marked not valid (and only such a value): the
    grammar ended it there, so the page may show more (a 33-character account number read as 32),
    and its token probabilities cannot tell. It goes to review; :func:`verify` names it."""
    parsed = parse_model_json(generation.text)
    fields: dict[str, FieldResult] = {}
    for name in field_names(schema):
        if name not in parsed.data:
            fields[name] = FieldResult(value=None, confidence=0.0, page=1, bbox=None, source="model")
            continue
        span = parsed.spans[name]
        confidence = generation.confidence(span)
        value = _as_text(parsed.data[name], generation.text[span.start : span.end])
        bound = length_bound(schema, name)
        written = parsed.data[name]
        at_bound = bound is not None and isinstance(written, str) and len(written) >= bound
        fields[name] = FieldResult(
            value=value,
            confidence=round(_pick(confidence, statistic), 6),
            page=1,
            bbox=None,
            source="model",
            valid=False if at_bound and value is not None else None,
        )
    return fields, parsed


# ----------------------------------------------------------------------------------------------
# verify: the CPU engine's own validators on what the model read
# ----------------------------------------------------------------------------------------------


def _iso_date(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def _amount(value: str | None) -> Decimal | None:
    try:
        return Decimal(value) if value else None
    except InvalidOperation:
        return None


def _with_valid(fields: dict[str, FieldResult], name: str, valid: bool) -> None:
    if name in fields and fields[name].value is not None:
        fields[name] = replace(fields[name], valid=valid)


def _verify_mrz(fields: dict[str, FieldResult], lines: Any) -> list[Check]:
    """Check digits of the MRZ the model transcribed, and its fields against the printed ones."""
    from engines.mrz.parse import MrzParseError, parse_mrz

    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        return [Check("mrz_found", False, "the model transcribed no machine-readable zone")]
    try:
        mrz = parse_mrz(lines)
    except MrzParseError:
        return [Check("mrz_found", False, "the transcribed zone is not an ICAO 9303 MRZ")]
    failed = mrz.failed_checks
    mismatched = []
    for name, mrz_field in mrz.fields.items():
        printed = fields.get(name)
        if printed is None or printed.value is None or mrz_field.value is None:
            continue
        if printed.value.replace(" ", "") != mrz_field.value.replace(" ", ""):
            mismatched.append(name)
            _with_valid(fields, name, False)
        elif mrz_field.valid is True:
            # the zone's check digit vouches for this value: its evidence is the MRZ's, not the
            # model's token probabilities (calibrated as MRZ-read values are)
            fields[name] = replace(fields[name], valid=True, source="mrz")
        elif mrz_field.valid is False:
            _with_valid(fields, name, False)
    return [
        Check("mrz_found", True, f"{mrz.format.name} transcribed by the model"),
        Check("mrz_check_digits", not failed, "" if not failed else "failed: " + ", ".join(failed)),
        Check(
            "mrz_matches_visual_zone",
            not mismatched,
            "" if not mismatched else "differs from print: " + ", ".join(sorted(mismatched)),
        ),
    ]


def verify(
    document_type: str,
    fields: dict[str, FieldResult],
    parsed: ParsedOutput,
    *,
    page_texts: Sequence[str] | None = None,
) -> list[Check]:
    """Mark fields ``valid`` where a rule applies and return the checks that ran (in place).
    ``page_texts``: the pages' own text (a digital PDF's text layer), where each value the model
    wrote is looked for: found, it is ``grounded`` (engines.llm.grounding); a model's token
    probability alone says nothing of whether it copied the value or made it up.
    A field that arrives not valid reached its length bound (:func:`read_extraction`): it fails
    ``value_within_length_bound``, by name."""
    from engines.validators import valid_iban

    at_bound = sorted(name for name, result in fields.items() if result.valid is False)
    checks: list[Check] = []
    for name, result in list(fields.items()):
        schema = FIELD_SCHEMAS.get(document_type, {}).get(name, {})
        if schema.get("pattern") == r"^\d{4}-\d{2}-\d{2}$" and result.value is not None:
            _with_valid(fields, name, _iso_date(result.value) is not None)
    account = fields.get("iban_or_account_number")
    if account is not None and account.value and account.value[:2].isalpha() and account.value[2:4].isdigit():
        ok = valid_iban(account.value) is not None
        _with_valid(fields, "iban_or_account_number", ok)
        checks.append(Check("iban_checksum", ok, "IBAN check digits" + (" verified" if ok else " wrong")))
    amounts = [
        _amount(fields[n].value) if n in fields else None for n in ("subtotal", "tax_amount", "total_amount")
    ]
    subtotal, tax, total = amounts
    if subtotal is not None and total is not None:
        ok = subtotal + (tax or Decimal(0)) == total
        detail = "subtotal plus tax equals the total" if ok else "subtotal plus tax does not equal the total"
        checks.append(Check("totals_arithmetic", ok, detail))
    start, end = (
        _iso_date(fields[n].value) if n in fields else None
        for n in ("statement_period_start", "statement_period_end")
    )
    if start is not None and end is not None:
        checks.append(
            Check(
                "statement_period_order",
                start <= end,
                "" if start <= end else "the period ends before it starts",
            )
        )
    if document_type in WITH_MRZ and MRZ_PROPERTY in parsed.data:
        checks.extend(_verify_mrz(fields, parsed.data[MRZ_PROPERTY]))
    grounded, grounding = ground(fields, page_texts)
    fields.update(grounded)
    checks.extend(grounding)
    if at_bound:
        detail = "as long as the schema allows, so possibly cut: " + ", ".join(at_bound)
        checks.append(Check("value_within_length_bound", False, detail))
    if parsed.truncated:
        checks.append(Check("model_output_complete", False, "the model's answer was cut short"))
    return checks


def assemble(
    decision: TypeDecision,
    fields: dict[str, FieldResult],
    checks: Sequence[Check],
    *,
    pages: int,
    timings_ms: dict[str, int],
) -> EngineResult:
    """The result, each field with the evidence the checks give it as the CPU engine's Evidence
    stage does (verified MRZ check digits, IBAN checksum, totals that add up; engines.evidence),
    beside any ``grounded`` that :func:`verify` found."""
    every_check = [*decision.checks, *checks]
    return EngineResult(
        document_type=decision.document_type,
        document_type_confidence=round(decision.confidence, 6),
        pages=pages,
        fields=engine_evidence(fields, every_check),
        checks=every_check,
        engine_name=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        timings_ms=timings_ms,
    )
