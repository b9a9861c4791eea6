"""How long a document waits before it tries again something that was unavailable.

One policy for both inference paths (the dispatcher's own retries and the Celery tasks'), and for
every outage a document waits out (Triton, the model engine, the database, a master key not
loaded: apps.documents.unavailability), so a document behind a Celery worker waits as long as
one behind the dispatcher.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# 2 ** 40 times any base is past any cap: larger exponents only risk a float overflow
_MAX_EXPONENT = 40


@dataclass(frozen=True)
class RetryPolicy:
    """Wait ``base_s x 2ⁿ`` (capped at ``max_s``, half of it random); ``max_retries``: the calls
    one inference message makes again before the document is sent again (or, for a failure the
    document pays for, left to the reconciler).

    The jitter spreads the documents of one outage over time, so they do not all come back in the
    same instant when Triton returns (and fill its queue at once)."""

    max_retries: int = 8
    base_s: float = 2.0
    max_s: float = 60.0

    def delay(self, attempt: int) -> float:
        """The wait before retry ``attempt`` (0-based) of a run of retries."""
        return _jittered(min(self.base_s * 2 ** min(attempt, _MAX_EXPONENT), self.max_s))

    def delay_after(self, waited_s: float) -> float:
        """The next wait of a document that has waited ``waited_s`` already: about as long again
        (so the waits double), at least the base, at most the cap, half of it random. An outage
        that outlasts one message's retries goes on at the pace it had reached, instead of
        starting over from the base with every message."""
        return _jittered(min(max(waited_s, self.base_s), self.max_s))

    def worst_case_s(self, timeout_s: float) -> float:
        """The longest one document can hold its message: every call times out and every wait is
        the longest. It must stay below the broker's visibility timeout, or Redis hands the message
        to another consumer while this one is still retrying it."""
        return (self.max_retries + 1) * timeout_s + self.max_retries * self.max_s


def _jittered(ceiling: float) -> float:
    """Between half the ceiling and the ceiling, uniformly."""
    return ceiling / 2 + random.uniform(0, ceiling / 2)  # jitter, not secrecy
