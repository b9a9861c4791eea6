"""The fitted artefacts that ship say which engine version they were fitted on, so a change of
engine version is seen to need a refit (``make refit``)."""

from __future__ import annotations

import logging

import pytest

from apps.extraction import calibration
from engines import ENGINE_VERSION, doctype_model


def test_the_calibration_records_the_engine_version_it_was_fitted_on() -> None:
    shipped = calibration.load(calibration.ARTEFACT_PATH)
    assert shipped.engine_version, "the calibration artefact names no engine version"


def test_a_calibration_of_another_engine_version_is_used_and_said_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """GIVEN the shipped calibration WHEN it was fitted on another engine version than this one
    THEN loading it warns that a refit is due (and uses it: raw scores would be worse)."""
    calibration.current.cache_clear()
    with caplog.at_level(logging.WARNING, logger="apps.extraction.calibration"):
        loaded = calibration.current()
    calibration.current.cache_clear()
    warned = any("make refit" in record.getMessage() for record in caplog.records)
    assert loaded.maps
    assert warned == (loaded.engine_version != ENGINE_VERSION)


def test_a_document_type_model_was_fitted_on_this_engine_version() -> None:
    """The document-type model exists for this engine version (else nothing is classified)."""
    model = doctype_model.load(doctype_model.artefact_path(), engine_version=None)
    assert model.meta["engine_version"] == ENGINE_VERSION, "engine version changed: run `make refit`"
