"""Notice when the broker has lost its messages, so the reconciler need not wait to find out.

A Redis restart without persistence, a failover to an empty replica or a FLUSHALL drops every
queued and unacknowledged message at once and says nothing. Without a signal, the reconciler only
learns a document's message is gone when the document has sat untouched for
``DOCINTEL_STUCK_AFTER_S`` (ten minutes): it cannot tell a lost message from one waiting its turn
in a long queue, and re-sending the waiting ones early would burn their attempts.

So the reconciler keeps an *epoch* key in the broker's own Redis database and a copy of its value
in PostgreSQL (``BrokerEpoch``). While the key is there, the broker still holds what it was given.
When it is gone, every message sent before now may be gone too, and every document still owed
work is sent again at once: duplicates are harmless, because each step runs only from the state
it expects. The check costs one Redis round trip per reconciler run.
"""

from __future__ import annotations

import logging
import secrets
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.db import transaction

from apps.documents.models import BrokerEpoch

logger = logging.getLogger(__name__)

EPOCH_KEY = "docintel:broker-epoch"


def _broker_redis() -> redis.Redis | None:
    url = settings.CELERY_BROKER_URL
    if urlsplit(url).scheme not in {"redis", "rediss", "unix"}:
        return None  # RabbitMQ keeps messages on disk and says when it loses them
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


def broker_messages_lost() -> bool:
    """True when the broker has been emptied since the last call that saw it whole.

    The first call ever (no remembered epoch) only plants the key. A broker that cannot be reached
    answers False: nothing can be sent to it either, and the next run looks again.
    """
    client = _broker_redis()
    if client is None:
        return False
    try:
        current = client.get(EPOCH_KEY)
        if current is None:
            fresh = secrets.token_hex(16)
            if not client.set(EPOCH_KEY, fresh, nx=True):
                return False  # another reconciler planted it a moment ago and handles the loss
            current = fresh.encode()
            planted = True
        else:
            planted = False
    except redis.RedisError as exc:
        logger.warning("broker epoch not checked: %s", type(exc).__name__)
        return False
    finally:
        client.close()

    value = current.decode()
    with transaction.atomic():
        remembered = BrokerEpoch.objects.select_for_update().first()
        if remembered is None:
            BrokerEpoch.objects.create(value=value)
            return False  # the first look ever: nothing was remembered, so nothing can be missed
        remembered.value = value
        remembered.save(update_fields=["value", "seen_at"])
    # only the reconciler that planted the new key re-sends (SET NX elects one); another that sees
    # the new value first merely records it
    if planted:
        logger.warning("the broker lost its messages (epoch key gone); re-sending documents in flight")
        return True
    return False
