"""The pipeline's steps as values, and how the domain asks for one to run on documents.

The domain (``apps.documents.pipeline``, ``.services``) decides which step a document owes next;
it does not know which Celery task runs that step. ``workers`` maps each step to its task and
sends the message (``workers.steps``); the domain reaches it through
``settings.DOCINTEL_STEP_SENDER``, a dotted path loaded when a step is requested (the way Django
loads its backends), so ``apps`` never imports ``workers`` (tests/unit/test_layering.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string


class PipelineStep(StrEnum):
    """One idempotent step of ``apps.documents.pipeline``, owed by a document in a given state."""

    PREPARE = "prepare"  # QUEUED
    INFER = "infer"  # PROCESSING
    VALIDATE = "validate"  # EXTRACTED, its extraction not validated yet
    DECIDE = "decide"  # EXTRACTED, validated
    # decided, its advisory authenticity signals pending (apps.documents.advisory): off the
    # decision's path, on a queue of its own
    ADVISORY = "advisory"


class StepSender(Protocol):
    """What ``settings.DOCINTEL_STEP_SENDER`` names: sends ``step`` for the documents, never raises
    for a broker outage (the reconciler requests the step again)."""

    def __call__(self, step: PipelineStep, document_ids: Sequence[str], /) -> None: ...


def steps_request(step: PipelineStep, document_ids: Sequence[str]) -> None:
    """Have ``step`` run on the documents: one message for them all where the step can take
    several at once, else one each. A broker outage is logged by the sender, not raised: the
    documents are safe in the database and the reconciler requests their step again later."""
    sender: StepSender = import_string(settings.DOCINTEL_STEP_SENDER)
    sender(step, document_ids)
