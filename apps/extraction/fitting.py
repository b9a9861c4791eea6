"""Fitting the calibration so that it knows where it was fitted.

Three things are fitted on the same labelled documents: the confidence maps, the layouts they
were fitted on, and (apps.extraction.thresholds) the threshold per type. The maps are split by
whether a field's evidence suffices (calibration ``supported``), and one piece of that evidence is
``familiar_layout`` — which, judged against the very documents being fitted, every fitted
document would claim. So familiarity is judged across folds: a document counts as familiar only
when documents of the *other* fold share its layout, as a customer's document is familiar only
when documents like it were fitted. The maps then learn how often a field is right when its
layout was, or was not, seen, and a layout nobody fitted gets the rate of the unfamiliar.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace

from apps.extraction.calibration import Calibration, Example, fit
from apps.extraction.evaluation import Sample, type_examples
from apps.extraction.layouts import LayoutMemory, fingerprint, fit_layouts
from apps.extraction.thresholds import fold_of
from apps.extraction.validation import validate_result
from engines.evidence import FAMILIAR_LAYOUT, engine_evidence, sufficient

FOLDS = 2
# the folds familiarity is judged across: salted apart from the threshold's folds, which hold
# whole calibrations fitted on one of theirs
_SALT = "familiar"


def _familiar(sample: Sample, layouts: dict[str, LayoutMemory]) -> bool:
    assert sample.result is not None
    memory = layouts.get(sample.result.document_type)
    point = fingerprint(sample.result)
    return memory is not None and point is not None and memory.familiar(point)


def supported_examples(samples: Sequence[Sample], today: dt.date | None = None) -> list[Example]:
    """Every returned field of the scored documents, labelled right or wrong, with whether its
    evidence sufficed (familiarity judged against the other fold's layouts)."""
    read = [s for s in samples if s.result is not None]
    layouts = {
        k: fit_layouts(
            s.result for s in read if fold_of(s.file, FOLDS, salt=_SALT) != k and s.result is not None
        )
        for k in range(FOLDS)
    }
    examples = []
    for sample in read:
        assert sample.result is not None
        validated = validate_result(sample.result, today=today)
        familiar = _familiar(sample, layouts[fold_of(sample.file, FOLDS, salt=_SALT)])
        for name, found in engine_evidence(validated.fields, validated.checks).items():
            if not sample.is_scored(name):
                continue
            evidence = (*found.evidence, FAMILIAR_LAYOUT) if familiar else found.evidence
            present = found.value is not None
            examples.append(
                Example(
                    found.source,
                    name,
                    found.valid,
                    found.confidence,
                    sample.truth_fields.get(name) == found.value,
                    present=present,
                    document_type=sample.result.document_type,
                    supported=sufficient(name, evidence, present=present),
                )
            )
    return examples


def fit_calibration(
    samples: Sequence[Sample], *, version: str, engine_version: str, today: dt.date | None = None
) -> Calibration:
    """The maps (split by support) and the layouts of these documents; no thresholds."""
    fitted = fit(
        supported_examples(samples, today),
        version=version,
        types=type_examples(samples),
        engine_version=engine_version,
    )
    return replace(fitted, layouts=fit_layouts(s.result for s in samples if s.result is not None))
