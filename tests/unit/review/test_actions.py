"""What operators do with a claimed task, and who may do it."""

import json

import pytest

from apps.audit.models import AuditEvent
from apps.documents.models import DocumentStatus as S
from apps.documents.models import Field
from apps.review.errors import (
    FieldNotFoundError,
    InvalidInputError,
    LeaseError,
    ReviewPermissionError,
    SameOperatorError,
    TaskStateError,
)
from apps.review.models import FieldCorrection, FieldLabel, ReviewTask, TaskOutcome, TaskStatus
from apps.review.services import (
    QueueSettings,
    review_field_confirm,
    review_field_correct,
    review_queue_update,
    review_task_approve,
    review_task_claim_next,
    review_task_escalate,
    review_task_reject,
)
from tests.factories import CONFIDENT, RAW_CONFIDENCE, SPECIMEN_PASSPORT, decided_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def task(tenant):
    return ReviewTask.objects.get(document=decided_document(tenant))


@pytest.fixture
def claimed(task, operator, tenant):
    assert review_task_claim_next(user=operator, tenant=tenant) == task
    return task


def _field(task, name):
    return Field.objects.get(extraction__document=task.document, name=name)


def _events(task):
    return list(AuditEvent.objects.filter(object_type="review_task", object_id=str(task.pk)).order_by("id"))


def test_confirm_labels_the_field_right_and_makes_it_operator_certain(claimed, operator):
    label = review_field_confirm(task=claimed, user=operator, field_name="surname")
    assert label.correct and label.present and label.name == "surname"
    assert (label.source, label.raw_confidence, label.confidence) == ("mrz", RAW_CONFIDENCE, 0.5)
    assert label.calibration_version == "test-calibration" and label.engine_version == "test"
    field = _field(claimed, "surname")
    assert field.confidence == 1.0 and field.raw_confidence == RAW_CONFIDENCE
    assert _events(claimed)[-1].data == {
        "document": str(claimed.document_id),
        "kind": "review",
        "field": "surname",
    }


def test_correct_changes_the_value_keeps_old_and_new_and_labels_the_engine_wrong(claimed, operator):
    label = review_field_correct(task=claimed, user=operator, field_name="surname", value=" ERIKSON ")
    field = _field(claimed, "surname")
    assert (field.value, field.confidence, field.valid) == ("ERIKSON", 1.0, None)
    correction = FieldCorrection.objects.get()
    assert (correction.old_value, correction.new_value, correction.corrected_by) == (
        "ERIKSSON",
        "ERIKSON",
        operator,
    )
    assert not label.correct and label.confidence == 0.5  # evidence from before the correction


def test_correcting_back_to_the_engine_value_makes_the_label_right_again(claimed, operator):
    review_field_correct(task=claimed, user=operator, field_name="surname", value="ERIKSON")
    label = review_field_correct(task=claimed, user=operator, field_name="surname", value="ERIKSSON")
    assert label.correct and FieldLabel.objects.count() == 1 and FieldCorrection.objects.count() == 2


def test_audit_events_never_carry_field_values(claimed, operator):
    review_field_correct(task=claimed, user=operator, field_name="given_names", value="ANNA-MARIA")
    review_field_confirm(task=claimed, user=operator, field_name="document_number")
    review_task_approve(task=claimed, user=operator)
    dumped = json.dumps([e.data for e in AuditEvent.objects.all()])
    for value in [*SPECIMEN_PASSPORT.values(), "ANNA-MARIA"]:
        assert value not in dumped
    corrected = AuditEvent.objects.get(action="review.field_corrected")
    assert corrected.data["field"] == "given_names" and corrected.data["value_changed"] is True


def test_approve_approves_the_document_and_finishes_the_task(claimed, operator):
    review_task_approve(task=claimed, user=operator)
    claimed.refresh_from_db()
    assert (claimed.status, claimed.outcome, claimed.completed_by) == (
        TaskStatus.DONE,
        TaskOutcome.APPROVED,
        operator,
    )
    assert claimed.lease_holder is None
    assert claimed.document.status == S.APPROVED
    assert AuditEvent.objects.filter(
        action="document.status_changed", actor=operator, object_id=str(claimed.document_id)
    ).exists()


def test_reject_needs_a_known_reason_and_rejects_the_document(claimed, operator):
    with pytest.raises(InvalidInputError):
        review_task_reject(task=claimed, user=operator, reason="didn't like it")
    with pytest.raises(InvalidInputError):
        review_task_reject(task=claimed, user=operator, reason="other")
    review_task_reject(task=claimed, user=operator, reason="suspected_fraud", note="MRZ font differs")
    claimed.refresh_from_db()
    assert (claimed.outcome, claimed.reject_reason, claimed.document.status) == (
        "rejected",
        "suspected_fraud",
        S.REJECTED,
    )
    event = _events(claimed)[-1]
    assert event.action == "review.task_rejected" and event.data["reason"] == "suspected_fraud"
    assert "MRZ font" not in json.dumps(event.data)


def test_a_finished_task_takes_no_more_actions(claimed, operator):
    review_task_approve(task=claimed, user=operator)
    with pytest.raises(TaskStateError):
        review_field_confirm(task=claimed, user=operator, field_name="surname")


def test_actions_need_the_lease(task, operator, second_operator, tenant):
    with pytest.raises(LeaseError):
        review_task_approve(task=task, user=operator)  # nobody claimed it
    review_task_claim_next(user=operator, tenant=tenant)
    with pytest.raises(LeaseError):
        review_field_correct(task=task, user=second_operator, field_name="surname", value="X")
    assert _field(task, "surname").value == "ERIKSSON"


def test_uploaders_and_other_tenants_cannot_act(claimed, uploader, other_operator):
    for user in (uploader, other_operator):
        with pytest.raises(ReviewPermissionError):
            review_task_approve(task=claimed, user=user)
        with pytest.raises(ReviewPermissionError):
            review_field_confirm(task=claimed, user=user, field_name="surname")
    claimed.refresh_from_db()
    assert claimed.status == TaskStatus.OPEN and claimed.document.status == S.NEEDS_REVIEW


def test_an_unknown_field_is_refused(claimed, operator):
    with pytest.raises(FieldNotFoundError):
        review_field_correct(task=claimed, user=operator, field_name="shoe_size", value="42")


def test_escalate_needs_a_note_and_keeps_the_note_out_of_the_audit(claimed, operator):
    with pytest.raises(InvalidInputError):
        review_task_escalate(task=claimed, user=operator, note="  ")
    review_task_escalate(task=claimed, user=operator, note="is ERIKSSON the holder?")
    claimed.refresh_from_db()
    assert claimed.status == TaskStatus.ESCALATED and claimed.lease_holder is None
    assert claimed.escalation_note == "is ERIKSSON the holder?"
    assert "ERIKSSON" not in json.dumps(_events(claimed)[-1].data)


def test_an_operator_cannot_act_on_an_escalated_task_but_a_supervisor_can(
    claimed, operator, supervisor, tenant
):
    review_task_escalate(task=claimed, user=operator, note="unsure")
    assert review_task_claim_next(user=supervisor, tenant=tenant) == claimed
    review_task_reject(task=claimed, user=supervisor, reason="illegible")
    claimed.refresh_from_db()
    assert claimed.document.status == S.REJECTED and claimed.completed_by == supervisor


@pytest.fixture
def maker_checker(task, supervisor):
    review_queue_update(
        queue=task.queue,
        actor=supervisor,
        config=QueueSettings(name="Default", maker_checker_document_types=["passport"]),
    )


def test_maker_checker_needs_a_second_operator(maker_checker, claimed, operator, second_operator, tenant):
    review_task_approve(task=claimed, user=operator)
    claimed.refresh_from_db()
    assert claimed.status == TaskStatus.AWAITING_CHECK and claimed.maker == operator
    assert claimed.document.status == S.NEEDS_REVIEW and claimed.lease_holder is None
    # the maker is not offered their own approval to check
    assert review_task_claim_next(user=operator, tenant=tenant) is None
    assert review_task_claim_next(user=second_operator, tenant=tenant) == claimed
    review_task_approve(task=claimed, user=second_operator)
    claimed.refresh_from_db()
    assert (claimed.status, claimed.completed_by, claimed.document.status) == (
        TaskStatus.DONE,
        second_operator,
        S.APPROVED,
    )
    assert _events(claimed)[-1].data["maker"] == operator.pk


def test_the_maker_cannot_check_their_own_approval(maker_checker, claimed, operator, tenant):
    review_task_approve(task=claimed, user=operator)
    ReviewTask.objects.filter(pk=claimed.pk).update(lease_holder=operator, lease_expires_at=claimed.due_at)
    with pytest.raises(SameOperatorError):
        review_task_approve(task=claimed, user=operator)
    claimed.refresh_from_db()
    assert claimed.document.status == S.NEEDS_REVIEW


def test_a_checkers_correction_withdraws_the_makers_approval(
    maker_checker, claimed, operator, second_operator, tenant
):
    review_task_approve(task=claimed, user=operator)
    review_task_claim_next(user=second_operator, tenant=tenant)
    review_field_correct(task=claimed, user=second_operator, field_name="surname", value="ERIKSON")
    claimed.refresh_from_db()
    assert claimed.status == TaskStatus.OPEN and claimed.maker is None
    review_task_approve(task=claimed, user=second_operator)  # now the maker of the corrected values
    claimed.refresh_from_db()
    assert claimed.status == TaskStatus.AWAITING_CHECK and claimed.maker == second_operator
    assert review_task_claim_next(user=operator, tenant=tenant) == claimed  # the first maker may check it
    review_task_approve(task=claimed, user=operator)
    claimed.refresh_from_db()
    assert claimed.document.status == S.APPROVED


def test_maker_checker_is_per_document_type(task, supervisor, operator, tenant):
    review_queue_update(
        queue=task.queue,
        actor=supervisor,
        config=QueueSettings(name="Default", maker_checker_document_types=["receipt"]),
    )
    review_task_claim_next(user=operator, tenant=tenant)
    review_task_approve(task=task, user=operator)
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE and task.document.status == S.APPROVED


def test_a_quality_audit_labels_fields_and_leaves_the_approved_document_alone(tenant, operator, settings):
    settings.DOCINTEL_QA_SAMPLE_RATE = 1.0
    audit = ReviewTask.objects.get(document=decided_document(tenant, review=False))
    assert review_task_claim_next(user=operator, tenant=tenant) == audit
    label = review_field_confirm(task=audit, user=operator, field_name="surname")
    assert label.task_kind == "quality_audit" and label.confidence == CONFIDENT
    review_task_reject(task=audit, user=operator, reason="wrong_document_type")
    audit.refresh_from_db()
    assert audit.outcome == TaskOutcome.REJECTED and audit.document.status == S.AUTO_APPROVED
