"""Writes of the review app, one module per job; import them from here.

queues    the tenant's default queue; supervisors creating and changing queues
routing   a decided document → a review or quality-audit task (the pipeline's hook)
claims    "next task" with a lease (SELECT … FOR UPDATE SKIP LOCKED), release
actions   confirm / correct fields, approve (maker-checker), reject, escalate
labels    operators' verdicts as calibration data, and the refit
"""

from apps.review.services.actions import (
    review_field_confirm,
    review_field_correct,
    review_task_approve,
    review_task_escalate,
    review_task_reject,
)
from apps.review.services.claims import review_task_claim_next, review_task_release
from apps.review.services.labels import RefitOutcome, calibration_refit, field_label_examples
from apps.review.services.queues import (
    QueueSettings,
    review_queue_create,
    review_queue_default,
    review_queue_update,
)
from apps.review.services.routing import review_queue_for, review_task_route

__all__ = [
    "QueueSettings",
    "RefitOutcome",
    "calibration_refit",
    "field_label_examples",
    "review_field_confirm",
    "review_field_correct",
    "review_queue_create",
    "review_queue_default",
    "review_queue_for",
    "review_queue_update",
    "review_task_approve",
    "review_task_claim_next",
    "review_task_escalate",
    "review_task_reject",
    "review_task_release",
    "review_task_route",
]
