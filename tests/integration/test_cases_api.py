"""KYC cases on the real stack: PostgreSQL, Redis, a Celery worker process and Triton.

GIVEN a tenant with an API key, WHEN an integrator opens a case with an applicant's files and
polls it, THEN the worker reads each document, the last decision evaluates the case (the hook in
apps.documents.state), and the API shows the cross-document checks, the decision with the rule
that made it, and each document's §3.1 result; the case's callback_url receives case.decided,
signed. Duplicates are found across one tenant's applicants and never across tenants.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from apps.cases.models import CasePolicy
from apps.tenants.webhook_secrets import webhook_secret_of
from apps.webhooks import signing
from tests.factories import api_key_client
from tests.support.live_stack import IN_FLIGHT, TRUTH, poll, sample_file
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
PASSPORT, LICENCE, BILL = "00000-passport.jpg", "00004-driver_license.jpg", "00007-proof_of_address.jpg"


@pytest.fixture
def worker(celery_worker_process):
    return celery_worker_process


@pytest.fixture
def receiver():
    server = Receiver(path="/docintel")
    yield server
    server.server.shutdown()
    server.server.server_close()


def _decided(body: dict[str, Any]) -> bool:
    return body["status"] != "open" and not {d["status"] for d in body["documents"]} & IN_FLIGHT


def _open_case(api, files: list[str], **data: Any) -> dict[str, Any]:
    response = api.post(
        "/api/v1/cases", {"files": [sample_file(n) for n in files], **data}, format="multipart"
    )
    assert response.status_code == 202, response.content
    assert set(response.json()) == {"id", "status", "url"}
    return poll(api, response.json()["url"], _decided, timeout_s=240)


def _failed(case: dict[str, Any]) -> set[str]:
    return {c["name"] for c in case["checks"] if not c["passed"]}


def test_a_case_from_three_files_is_read_checked_decided_and_sent(worker, tenant, receiver):
    """The samples are three different synthetic people, and the bill is from 2024: the checks say
    so by field and document, never by value, and the stale bill decides (resubmission)."""
    api = api_key_client(tenant, name="it")
    case = _open_case(
        api, [PASSPORT, LICENCE, BILL], external_reference="applicant-1", callback_url=receiver.url
    )
    read = [(d["document_type"], d["status"], d["error"]) for d in case["documents"]]
    assert [t for t, _, _ in read] == ["passport", "driver_license", "proof_of_address"], read
    assert case["documents"][0]["fields"]["surname"]["value"] == TRUTH[PASSPORT]["fields"]["surname"]
    assert {
        "same_person",
        "date_of_birth_consistent",
        "address_matches",
        "proof_of_address_recent",
    } <= _failed(case)
    assert (case["status"], case["decision"]) == ("resubmission_requested", "resubmission_requested")
    assert case["decision_rule"] == "proof_of_address_recent"
    checks = json.dumps(case["checks"])
    for name in (PASSPORT, LICENCE, BILL):
        for value in TRUTH[name]["fields"].values():
            assert len(value) < 4 or value not in checks, "a check's detail shows a document's value"

    deadline = time.monotonic() + 60
    while not receiver.received and time.monotonic() < deadline:
        time.sleep(0.2)
    assert receiver.received, "case.decided was not sent"
    headers, body = receiver.received[-1]
    assert headers["X-DocIntel-Event"] == "case.decided"
    tenant.refresh_from_db()
    assert signing.verify(
        secret=webhook_secret_of(tenant=tenant), body=body, signature=headers["X-DocIntel-Signature"],
        timestamp=headers["X-DocIntel-Timestamp"], timestamped_signature=headers["X-DocIntel-Signature-Timestamped"],
    )  # fmt: skip
    assert json.loads(body)["decision_rule"] == "proof_of_address_recent"


def test_a_case_whose_proof_of_address_is_stale_asks_for_another(worker, tenant):
    api = api_key_client(tenant, name="it")
    case = _open_case(api, [BILL])
    stale = next(c for c in case["checks"] if c["name"] == "proof_of_address_recent")
    assert not stale["passed"] and "more than 90 days before the case" in stale["detail"]
    assert case["status"] == "resubmission_requested"
    assert any(reason.startswith("proof_of_address_recent:") for reason in case["reasons"])


def test_a_passport_reused_by_another_applicant_is_flagged_with_a_link_never_across_tenants(
    worker, tenant, other_tenant
):
    CasePolicy.objects.create(tenant=tenant, required_document_types=[["passport", "id_card"]])
    api, other = api_key_client(tenant, name="it"), api_key_client(other_tenant, name="it")
    foreign = _open_case(other, [PASSPORT], external_reference="someone")  # another tenant, same passport
    first = _open_case(api, [PASSPORT], external_reference="applicant-a")
    assert not _failed(first) & {"no_duplicate_file", "no_duplicate_document_number"}
    second = _open_case(api, [PASSPORT], external_reference="applicant-b")
    assert {"no_duplicate_file", "no_duplicate_document_number"} <= _failed(second)
    assert second["status"] == "in_review" and second["decision_rule"] == "no_duplicate_document_number"
    duplicate = next(c for c in second["checks"] if c["name"] == "no_duplicate_document_number")
    assert duplicate["links"] == [first["url"]] and api.get(duplicate["links"][0]).status_code == 200
    assert foreign["id"] not in json.dumps(second) and first["id"] not in json.dumps(foreign)
    assert not _failed(foreign) & {"no_duplicate_file", "no_duplicate_document_number"}
    for response in (other.get(first["url"]), api.get(foreign["url"])):
        assert response.status_code == 404 and response.json()["code"] == "not_found"
