"""The broker epoch on the real Redis broker and PostgreSQL: an emptied broker is noticed once."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from apps.documents.models import BrokerEpoch
from workers.broker_epoch import EPOCH_KEY, broker_messages_lost

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker() -> redis.Redis:
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.delete(EPOCH_KEY)
    yield client
    client.delete(EPOCH_KEY)
    client.close()


def test_first_look_plants_the_epoch_and_reports_nothing_lost(broker):
    assert broker_messages_lost() is False
    assert broker.get(EPOCH_KEY).decode() == BrokerEpoch.objects.get().value
    assert broker_messages_lost() is False


def test_an_emptied_broker_is_reported_once(broker):
    broker_messages_lost()
    broker.delete(EPOCH_KEY)  # what FLUSHALL or a restart without persistence does to it
    assert broker_messages_lost() is True
    assert broker_messages_lost() is False
    assert BrokerEpoch.objects.count() == 1


def test_a_key_planted_by_another_reconciler_is_recorded_not_reported(broker):
    broker_messages_lost()
    broker.set(EPOCH_KEY, "planted-elsewhere")
    assert broker_messages_lost() is False
    assert BrokerEpoch.objects.get().value == "planted-elsewhere"


def test_an_unreachable_broker_reports_nothing(broker, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    assert broker_messages_lost() is False


def test_a_non_redis_broker_is_not_checked(broker, settings):
    settings.CELERY_BROKER_URL = "amqp://guest@127.0.0.1:5672//"
    assert broker_messages_lost() is False
    assert not BrokerEpoch.objects.exists()
