"""The pure routing rules: which queue takes a task, the audit sample, maker-checker."""

import uuid

import pytest

from apps.review.rules import (
    QUALITY_AUDIT,
    REVIEW,
    QueueRule,
    best_queue,
    qa_sampled,
    queue_settings_errors,
    requires_check,
)

CATCH_ALL = QueueRule(key="default", document_types=(), task_kinds=(), priority=0)
PASSPORTS = QueueRule(key="passports", document_types=("passport",), task_kinds=(), priority=0)
AUDITS = QueueRule(key="audits", document_types=(), task_kinds=(QUALITY_AUDIT,), priority=0)
URGENT = QueueRule(key="urgent", document_types=(), task_kinds=(), priority=5)


def test_a_queue_that_names_the_document_type_beats_a_catch_all_of_higher_priority():
    assert best_queue([CATCH_ALL, URGENT, PASSPORTS], document_type="passport", kind=REVIEW) == "passports"


def test_among_catch_all_queues_the_higher_priority_wins():
    assert best_queue([CATCH_ALL, URGENT, PASSPORTS], document_type="receipt", kind=REVIEW) == "urgent"


def test_a_kind_filter_takes_its_kind_only():
    assert best_queue([CATCH_ALL, AUDITS], document_type="receipt", kind=QUALITY_AUDIT) == "audits"
    assert best_queue([CATCH_ALL, AUDITS], document_type="receipt", kind=REVIEW) == "default"


def test_no_accepting_queue_gives_none():
    assert best_queue([PASSPORTS], document_type="invoice", kind=REVIEW) is None


def test_the_audit_sample_is_the_same_on_every_draw_and_near_its_rate():
    ids = [uuid.UUID(int=i) for i in range(2000)]
    first = [qa_sampled(document_id=i, rate=0.1) for i in ids]
    assert first == [qa_sampled(document_id=i, rate=0.1) for i in ids]
    assert 150 < sum(first) < 250


@pytest.mark.parametrize(("rate", "expected"), [(0.0, False), (1.0, True)])
def test_rates_zero_and_one_are_certain(rate, expected):
    assert all(qa_sampled(document_id=uuid.uuid4(), rate=rate) is expected for _ in range(200))


def test_maker_checker_applies_to_reviews_of_listed_types_only():
    listed = ("passport",)
    assert requires_check(maker_checker_document_types=listed, document_type="passport", kind=REVIEW)
    assert not requires_check(maker_checker_document_types=listed, document_type="receipt", kind=REVIEW)
    assert not requires_check(
        maker_checker_document_types=listed, document_type="passport", kind=QUALITY_AUDIT
    )


def test_queue_settings_errors_name_each_problem():
    errors = queue_settings_errors(
        name=" ",
        document_types=["passport", "tax_form"],
        task_kinds=["gossip"],
        maker_checker_document_types=[],
        qa_sample_rate=1.5,
        sla_seconds=0,
    )
    assert len(errors) == 5
