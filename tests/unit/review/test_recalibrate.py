"""Operators' confirmations and corrections refit the calibration (``manage.py recalibrate``)."""

import io

import pytest
from django.core.management import CommandError, call_command

from apps.audit.models import AuditEvent
from apps.extraction import calibration
from apps.review.models import FieldLabel, ReviewTask
from apps.review.services import (
    field_label_examples,
    review_field_confirm,
    review_field_correct,
    review_task_approve,
    review_task_claim_next,
)
from tests.factories import RAW_CONFIDENCE, SPECIMEN_PASSPORT, decided_document

pytestmark = pytest.mark.django_db


def _review_documents(tenant, operator, count: int) -> None:
    """Each document: the surname corrected (the engine was wrong), every other field confirmed."""
    for _ in range(count):
        decided_document(tenant)
        task = review_task_claim_next(user=operator, tenant=tenant)
        for name in SPECIMEN_PASSPORT:
            if name == "surname":
                review_field_correct(task=task, user=operator, field_name=name, value="ERIKSON")
            else:
                review_field_confirm(task=task, user=operator, field_name=name)
        review_task_approve(task=task, user=operator)
    assert ReviewTask.objects.filter(outcome="approved").count() == count


def test_labels_become_calibration_examples(tenant, operator):
    _review_documents(tenant, operator, 1)
    examples = {e.name: e for e in field_label_examples()}
    assert len(examples) == len(SPECIMEN_PASSPORT)
    assert examples["surname"] == calibration.Example(
        "mrz", "surname", None, RAW_CONFIDENCE, False, True, document_type="passport"
    )
    assert examples["date_of_birth"].correct and examples["date_of_birth"].valid is True


def test_recalibrate_fits_and_writes_a_versioned_artefact(tenant, operator, tmp_path):
    _review_documents(tenant, operator, 6)
    out = tmp_path / "calibration.json"
    stdout = io.StringIO()
    call_command(
        "recalibrate", "--out", str(out), "--name", "labels-test", "--min-labels", "40", stdout=stdout
    )
    fitted = calibration.load(out)
    assert fitted.version == "labels-test" and fitted.maps
    assert "on 48 operator labels (42 right, 6 wrong)" in stdout.getvalue()
    # unchecked MRZ fields at this raw score were right 24 times in 30 (every surname was wrong);
    # fewer than calibration.MIN_EXAMPLES names, so names borrow that class's map
    assert set(fitted.maps) == {"mrz|*|unchecked", "*|*|unchecked"}
    assert fitted.calibrate(source="mrz", name="surname", valid=None, raw_confidence=RAW_CONFIDENCE) == 0.8
    assert AuditEvent.objects.filter(action="calibration.refitted", object_id="labels-test").exists()
    # labels refit the maps only: the layouts and per-type thresholds fitted out of fold stay
    shipped = calibration.current()
    assert fitted.thresholds == shipped.thresholds and set(fitted.layouts) == set(shipped.layouts)
    assert fitted.fitted_on[-1]["path"] == "operator labels"


def test_recalibrate_refuses_too_few_labels(tenant, operator, tmp_path, settings):
    settings.DOCINTEL_RECALIBRATE_MIN_LABELS = 200
    _review_documents(tenant, operator, 1)
    out = tmp_path / "calibration.json"
    with pytest.raises(CommandError, match="8 operator labels; at least 9"):
        call_command("recalibrate", "--out", str(out), "--min-labels", "9")
    assert not out.exists()


def test_recalibrate_refuses_labels_too_thin_for_any_map(tenant, operator, tmp_path):
    _review_documents(tenant, operator, 1)
    with pytest.raises(CommandError, match="no evidence class"):
        call_command("recalibrate", "--out", str(tmp_path / "c.json"), "--min-labels", "1")
    assert FieldLabel.objects.count() == len(SPECIMEN_PASSPORT)
