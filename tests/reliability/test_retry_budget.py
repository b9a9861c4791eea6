"""Retries back off with jitter and end before the broker would hand the message to someone else.

Redis redelivers an unacknowledged message once its visibility timeout passes. A consumer still
retrying a document past that point would race a second consumer on the same document; the
retry budget of one message is therefore checked against the configured timeout, from the
settings. An outage outlasting it is waited out over further messages (apps.documents.unavailability):
its waits go on growing from where they were, up to the cap."""

from __future__ import annotations

import statistics

from django.conf import settings

from workers.retry import RetryPolicy


def _production_policy() -> RetryPolicy:
    return RetryPolicy(
        max_retries=settings.DOCINTEL_TRITON_RETRIES,
        base_s=settings.DOCINTEL_TRITON_RETRY_BASE_S,
        max_s=settings.DOCINTEL_TRITON_RETRY_MAX_S,
    )


def test_dispatcher_retry_budget_stays_below_the_visibility_timeout() -> None:
    """GIVEN the settings WHEN every call times out and every wait is the longest
    THEN the dispatcher lets go of the message before Redis would redeliver it."""
    visibility_s = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    from config.settings import base

    worst = _production_policy().worst_case_s(base.DOCINTEL_TRITON_TIMEOUT_S)
    assert worst < visibility_s, (worst, visibility_s)
    # the test settings' long deadline (a loaded CI machine) must fit too
    assert _production_policy().worst_case_s(settings.DOCINTEL_TRITON_TIMEOUT_S) < visibility_s


def test_celery_infer_task_retries_on_the_dispatchers_policy_within_the_visibility_timeout() -> None:
    """The Celery task waits as the dispatcher does; each retry is a message of its own, held by the
    worker as an unacknowledged ETA message for at most one wait, which ends within the visibility
    timeout."""
    from workers.tasks import _backoff

    visibility_s = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    policy = _backoff()
    assert policy == _production_policy()
    assert policy.max_s + settings.DOCINTEL_TRITON_TIMEOUT_S < visibility_s


def test_retry_delays_grow_exponentially_with_jitter_up_to_the_cap() -> None:
    """Each wait lies in [ceiling/2, ceiling] for ceiling = min(base x 2^n, max): it doubles, never
    passes the cap, and documents that failed together do not come back together."""
    policy = RetryPolicy(max_retries=8, base_s=2.0, max_s=60.0)
    for attempt in range(8):
        ceiling = min(2.0 * 2**attempt, 60.0)
        delays = [policy.delay(attempt) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays), attempt
        assert statistics.pstdev(delays) > ceiling / 20, "no jitter"
        assert len({round(d, 6) for d in delays}) > 150


def test_worst_case_adds_every_deadline_and_every_longest_wait() -> None:
    policy = RetryPolicy(max_retries=3, base_s=1.0, max_s=3.0)
    assert policy.worst_case_s(timeout_s=10.0) == 4 * 10.0 + 3 * 3.0


def test_an_outage_over_many_messages_keeps_the_pace_it_reached() -> None:
    """GIVEN a document that has waited ``w`` seconds WHEN it waits again THEN about as long again
    (between w/2 and w: the waits keep doubling, with jitter), never below the base nor above the
    cap, instead of starting again from the base with each message."""
    policy = RetryPolicy(max_retries=8, base_s=2.0, max_s=60.0)
    for waited, ceiling in ((0.0, 2.0), (1.0, 2.0), (10.0, 10.0), (40.0, 40.0), (3600.0, 60.0), (1e9, 60.0)):
        delays = [policy.delay_after(waited) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays), waited
        assert statistics.pstdev(delays) > ceiling / 20, "no jitter"
    assert policy.delay(10_000) <= 60.0  # no overflow however long a run of retries
