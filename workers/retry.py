"""How long a document waits for an unavailable Triton before it is left to the reconciler.

One policy for both inference paths: the dispatcher's own retries and the Celery ``infer`` task's,
so a document behind a Celery worker waits as long as one behind the dispatcher.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """Triton unavailable: wait ``base_s x 2ⁿ`` (capped, half of it random) up to ``max_retries`` times.

    The jitter spreads the documents of one outage over time, so they do not all come back in the
    same instant when Triton returns (and fill its queue at once)."""

    max_retries: int = 8
    base_s: float = 2.0
    max_s: float = 60.0

    def delay(self, attempt: int) -> float:
        ceiling = min(self.base_s * 2**attempt, self.max_s)
        return ceiling / 2 + random.uniform(0, ceiling / 2)  # jitter, not secrecy

    def worst_case_s(self, timeout_s: float) -> float:
        """The longest one document can hold its message: every call times out and every wait is
        the longest. It must stay below the broker's visibility timeout, or Redis hands the message
        to another consumer while this one is still retrying it."""
        waits = sum(min(self.base_s * 2**attempt, self.max_s) for attempt in range(self.max_retries))
        return (self.max_retries + 1) * timeout_s + waits
