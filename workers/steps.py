"""Which Celery task runs each pipeline step, and sending those messages.

The one place that maps the domain's steps (``apps.documents.steps.PipelineStep``) to task names.
``settings.DOCINTEL_STEP_SENDER`` names :func:`steps_send`, through which the domain requests a
step (upload, reconciler) without importing ``workers``; the tasks (``workers.tasks``) and the
dispatcher send the next step here too. Messages carry document ids only, with the headers of
``apps.observability.context`` (when sent, the upload's request id).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from apps.documents.steps import PipelineStep
from apps.observability.context import message_headers
from config.celery import app

logger = logging.getLogger(__name__)

PREPARE_TASK = "workers.tasks.prepare"
PREPARE_BATCH_TASK = "workers.tasks.prepare_batch"
INFER_TASK = "workers.tasks.infer"
INFER_BATCH_TASK = "workers.tasks.infer_batch"
VALIDATE_TASK = "workers.tasks.validate"
DECIDE_TASK = "workers.tasks.decide"
ADVISORY_TASK = "workers.tasks.advisory"

STEP_TASKS: dict[PipelineStep, str] = {
    PipelineStep.PREPARE: PREPARE_TASK,
    PipelineStep.INFER: INFER_TASK,
    PipelineStep.VALIDATE: VALIDATE_TASK,
    PipelineStep.DECIDE: DECIDE_TASK,
    PipelineStep.ADVISORY: ADVISORY_TASK,
}
# The steps whose task also comes in a form that takes many documents in one message (an upload
# batch's documents, prepared together and sent on together).
STEP_BATCH_TASKS: dict[PipelineStep, str] = {
    PipelineStep.PREPARE: PREPARE_BATCH_TASK,
    PipelineStep.INFER: INFER_BATCH_TASK,
}


def steps_send(step: PipelineStep, document_ids: Sequence[str]) -> None:
    """One batch message for all the documents where the step has a batch task and there are
    several, else one message each. A broker outage is logged, not raised: the reconciler
    enqueues the documents later."""
    batch_task = STEP_BATCH_TASKS.get(step)
    if len(document_ids) <= 1 or batch_task is None:
        for document_id in document_ids:
            step_send(step, document_id)
        return
    try:
        app.send_task(batch_task, args=[list(document_ids)], headers=message_headers())
    except Exception:
        logger.warning(
            "could not enqueue %s for %d documents; the reconciler will retry",
            STEP_TASKS[step],
            len(document_ids),
        )


def step_send(step: PipelineStep, document_id: str, countdown_s: float | None = None) -> None:
    """The step's message for one document (``countdown_s``: run no sooner than that, for a
    document waiting out an outage; Celery workers honour it, the inference dispatcher waits
    itself before it sends). A broker outage is logged, not raised: the document is safe in the
    database and the reconciler will enqueue it later."""
    task_name = STEP_TASKS[step]
    try:
        # headers: when it was sent (queue wait) and the upload's request id (logs), never content
        if countdown_s is None:
            app.send_task(task_name, args=[document_id], headers=message_headers())
        else:
            app.send_task(task_name, args=[document_id], headers=message_headers(), countdown=countdown_s)
    except Exception:
        logger.warning(
            "could not enqueue %s for document %s; the reconciler will retry", task_name, document_id
        )
