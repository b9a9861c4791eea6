import pytest

from apps.audit.models import AuditEvent
from apps.documents.models import DocumentStatus as S
from apps.documents.state import IllegalTransitionError, can_transition, document_transition
from tests.factories import make_document


@pytest.mark.parametrize(
    ("source", "target"),
    [
        (S.RECEIVED, S.QUEUED),
        (S.QUEUED, S.PROCESSING),
        (S.PROCESSING, S.EXTRACTED),
        (S.EXTRACTED, S.AUTO_APPROVED),
        (S.EXTRACTED, S.NEEDS_REVIEW),
        (S.NEEDS_REVIEW, S.APPROVED),
        (S.NEEDS_REVIEW, S.REJECTED),
        (S.PROCESSING, S.FAILED),
    ],
)
def test_the_pipeline_transitions_are_allowed(source, target):
    assert can_transition(source, target)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        (S.RECEIVED, S.EXTRACTED),
        (S.QUEUED, S.AUTO_APPROVED),
        (S.AUTO_APPROVED, S.NEEDS_REVIEW),
        (S.APPROVED, S.REJECTED),
        (S.FAILED, S.QUEUED),
        (S.NEEDS_REVIEW, S.FAILED),
    ],
)
def test_skipping_or_reversing_a_step_is_not_allowed(source, target):
    assert not can_transition(source, target)


@pytest.mark.django_db
def test_illegal_transition_raises_and_leaves_the_document_unchanged(tenant):
    document = make_document(tenant)
    with pytest.raises(IllegalTransitionError):
        document_transition(document=document, target=S.EXTRACTED)
    document.refresh_from_db()
    assert document.status == S.RECEIVED


@pytest.mark.django_db
def test_transition_is_audited_and_failure_keeps_its_error_code(tenant):
    document = make_document(tenant)
    document_transition(
        document=document, target=S.FAILED, error_code="unreadable_image", error_message="bad"
    )
    document.refresh_from_db()
    assert (document.status, document.error_code) == (S.FAILED, "unreadable_image")
    event = AuditEvent.objects.filter(object_id=str(document.pk), action="document.status_changed").get()
    assert event.data == {"from": "received", "to": "failed", "error_code": "unreadable_image"}


@pytest.mark.django_db
def test_expected_state_makes_a_repeated_transition_a_no_op(tenant):
    document = make_document(tenant)
    document_transition(document=document, target=S.QUEUED, expected=S.RECEIVED)
    again = document_transition(document=document, target=S.QUEUED, expected=S.RECEIVED)
    assert again.status == S.QUEUED
    assert (
        AuditEvent.objects.filter(object_id=str(document.pk), action="document.status_changed").count() == 1
    )
