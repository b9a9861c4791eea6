"""Erasure and retention leave nothing of a person anywhere: every table, every stored blob.

GIVEN two banks, each with an applicant who went through everything that keeps personal data on
the real stack (PostgreSQL, Redis, the Celery worker, Triton): a batch with a callback URL holding
their passport, an invoice billed to them, and a refused file named after them; a KYC case with a
callback URL, their declared name, and a packet PDF (their passport page and someone else's bank
statement) named after them, sent to review and decided by an operator with a note naming them
WHEN the first applicant asks to be erased (``person_erase``), and the second bank's retention
period passes (``purge_expired``)
THEN no table of the database (every column of every row, as text, also bytea as hex; a table
added later is searched too) and no stored blob (its raw bytes, and its plaintext decrypted with
the document's key) holds the person's name or document number, while before, the same search
found them in every place that keeps them; the other bank's applicant and the first bank's other
customer are untouched by the erasure. Nothing is kept on purpose that holds either value.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from fpdf import FPDF

from apps.cases.models import CasePolicy, CaseReviewTask
from apps.cases.review import case_review_decide
from apps.documents import blobs
from apps.documents.models import Document
from apps.documents.retention import documents_purge_expired, person_erase
from apps.tenants.services import membership_grant
from apps.webhooks.models import WebhookDelivery
from tests.conftest import SAMPLES
from tests.factories import api_key_client
from tests.support.live_stack import IN_FLIGHT, poll, sample_file
from tests.support.packets import image_page, joined
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Person:
    given_names: str
    surname: str
    document_number: str
    passport: str  # the sample file of their passport

    @property
    def name(self) -> str:
        return f"{self.given_names} {self.surname}"

    @property
    def slug(self) -> str:
        return f"{self.given_names.split()[0]}-{self.surname.split()[-1]}".lower()

    @property
    def needles(self) -> tuple[str, ...]:
        """What must be found nowhere: the surname's last word, a given name, the number."""
        return (self.surname.split()[-1], self.given_names.split()[-1], self.document_number)


FATIMA = Person("FATIMA PRIYA ZEYNEP", "VAN HANSEN RAMIREZ", "N9171K", "00000-passport.jpg")
LUCA = Person("LUCA", "ASANTE KOVALENKO", "G2121772", "00003-passport.jpg")
STATEMENT = "00008-bank_statement.pdf"  # another person's (LÉA SIMON), in the applicant's packet
CUSTOMER = "00004-driver_license.jpg"  # the first bank's other customer (DANIEL GEORGE CELIK)
# Every place the search must find an applicant before erasure: proof that it looks where they are.
EXPECTED_TABLES = {
    "documents_document",  # file names
    "documents_field",
    "documents_extraction",
    "webhooks_webhookdelivery",  # document.decided and case.decided bodies
    "cases_case",  # declared
    "cases_casepacket",  # the packet's file name
    "cases_casereviewtask",  # the operator's note
    "batches_batch",  # the refused file's name
    "batches_batchdocument",  # file names
}


def _invoice(person: Person) -> bytes:
    """A digital invoice billed to the person: their name in the PDF's text layer."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for line in (
        "NORDWIND ENERGIE AG",
        "INVOICE",
        "Invoice number: INV-2026-0042",
        "Invoice date: 2026-03-01",
        f"Bill to: {person.name}",
        "Subtotal: 100.00 EUR",
        "VAT 19%: 19.00 EUR",
    ):
        pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _packet(person: Person) -> bytes:
    return joined([image_page((SAMPLES / person.passport).read_bytes()), (SAMPLES / STATEMENT).read_bytes()])


def _submit(tenant, person: Person, callback_url: str) -> dict[str, Any]:
    """Everything the person goes through at one bank; the ids to wait for."""
    CasePolicy.objects.create(tenant=tenant, required_document_types=[["passport"]], recency_days=36500)
    api = api_key_client(tenant, name="it")
    batch = api.post(
        "/api/v1/batches",
        {
            "files": [
                sample_file(person.passport),
                sample_file(f"{person.slug}-invoice.pdf", _invoice(person)),
                sample_file(f"{person.slug}-notes.txt", f"call {person.name} back".encode()),
            ],
            "callback_url": callback_url,
        },
        format="multipart",
    )
    assert batch.status_code == 202, batch.content
    assert [r["file"] for r in batch.json()["refused"]] == [f"{person.slug}-notes.txt"]
    case = api.post(
        "/api/v1/cases",
        {
            "files": [sample_file(f"{person.slug}-kyc.pdf", _packet(person))],
            "full_name": person.name,
            "callback_url": callback_url,
            "external_reference": f"applicant-{uuid.uuid4().hex[:8]}",
        },
        format="multipart",
    )
    assert case.status_code == 202, case.content
    return {"api": api, "case": case.json()["url"]}


def _case_decided(body: dict[str, Any]) -> bool:
    return body["status"] != "open" and not {d["status"] for d in body["documents"]} & IN_FLIGHT


def _review(tenant, person: Person, submitted: dict[str, Any], user) -> None:
    """Wait for the case to reach review; an operator rejects it with a note naming the person."""
    case = poll(submitted["api"], submitted["case"], _case_decided, timeout_s=420)
    assert case["status"] == "in_review", case
    task = CaseReviewTask.objects.get(case_id=case["id"])
    note = f"{person.name} sent someone else's statement; passport {person.document_number}"
    case_review_decide(task=task, user=user, decision="rejected", note=note)


def _settle(timeout_s: float = 420) -> None:
    """Every document read and every webhook sent: nothing still moving when the search starts."""
    deadline = time.monotonic() + timeout_s
    while (
        Document.objects.filter(status__in=IN_FLIGHT).exists()
        or WebhookDelivery.objects.filter(status__in=["pending", "sending"]).exists()
    ):
        assert time.monotonic() < deadline, (
            list(Document.objects.filter(status__in=IN_FLIGHT).values_list("original_name", "status")),
            list(
                WebhookDelivery.objects.exclude(status="succeeded").values_list(
                    "event", "status", "attempts", "last_error"
                )
            ),
        )
        time.sleep(0.5)


def _tables_holding(needle: str) -> set[str]:
    """Every table of the database with a row whose text (every column; bytea as hex) holds
    ``needle``, in any case."""
    hexed = needle.encode().hex()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        tables = [row[0] for row in cursor.fetchall()]
        found = set()
        for table in tables:
            quoted = connection.ops.quote_name(table)
            cursor.execute(
                f"SELECT 1 FROM {quoted} AS r WHERE r::text ILIKE %s OR r::text ILIKE %s LIMIT 1",
                [f"%{needle}%", f"%{hexed}%"],
            )
            if cursor.fetchone():
                found.add(table)
    assert "documents_document" in tables and "cases_case" in tables  # the search saw our tables
    return found


# A needle searched for in a blob's raw bytes as well as in its plaintext must be long enough
# that ciphertext cannot hold it by chance: a 4-letter name matches random bytes, in any case, at
# about 4e-9 a byte, so once in some 250 MB of encrypted pages (the suite's own blobs reach that).
RAW_NEEDLE_MIN = 8


def _storage_files() -> set[Path]:
    root = Path(settings.STORAGES["default"]["OPTIONS"]["location"])
    return {p for p in root.rglob("*") if p.is_file()}


def _blobs_holding(needle: str, before: set[Path]) -> set[str]:
    """Every blob stored since ``before`` whose plaintext (when its document still exists to
    decrypt it) or, for a long enough needle, whose raw bytes hold ``needle``, in any case."""
    root = Path(settings.STORAGES["default"]["OPTIONS"]["location"])
    wanted = needle.lower().encode()
    found = set()
    for path in _storage_files() - before:
        name = path.relative_to(root).as_posix()
        texts = [path.read_bytes()] if len(needle) >= RAW_NEEDLE_MIN else []
        parts = name.split("/")
        if parts[0] == "documents" and len(parts) == 3:
            document = Document.objects.filter(pk=parts[1]).first()
            if document is not None:
                texts.append(blobs.blob_read(document=document, name=name))
            # a document's blob left after it (ciphertext no key opens) is _blob_files's to find
        else:
            texts.append(path.read_bytes())
        if any(wanted in text.lower() for text in texts):
            found.add(name)
    return found


def _anywhere(person: Person, before: set[Path]) -> dict[str, set[str]]:
    """Tables and blobs (stored since ``before``: earlier tests' blobs are no part of it)."""
    return {n: _tables_holding(n) | {f"blob {b}" for b in _blobs_holding(n, before)} for n in person.needles}


def _blob_files(document_ids: list[str]) -> list[Path]:
    """The files left of these documents' blobs (the storage may keep an empty folder)."""
    root = Path(settings.STORAGES["default"]["OPTIONS"]["location"]) / "documents"
    return [p for d in document_ids for p in (root / d).rglob("*") if p.is_file()]


def test_erasure_and_retention_leave_no_trace_of_the_person_in_any_table_or_blob(
    celery_worker_process, tenant, other_tenant, operator, django_user_model
):
    stored_before = _storage_files()
    receiver = Receiver(path="/docintel")
    try:
        other_operator = django_user_model.objects.create_user(username="oskar", password="x" * 20)
        membership_grant(tenant=other_tenant, user=other_operator, role="operator")
        customer = api_key_client(tenant, name="it").post(
            "/api/v1/documents", {"file": sample_file(CUSTOMER)}, format="multipart"
        )
        assert customer.status_code == 202
        fatima = _submit(tenant, FATIMA, receiver.url)
        luca = _submit(other_tenant, LUCA, receiver.url)
        _review(tenant, FATIMA, fatima, operator)
        _review(other_tenant, LUCA, luca, other_operator)
        _settle()
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()

    before = _anywhere(FATIMA, stored_before)
    surname = FATIMA.needles[0]
    assert before[surname] >= EXPECTED_TABLES, sorted(EXPECTED_TABLES - before[surname])
    assert any(p.startswith("blob ") for p in before[surname]), "no blob held the invoice's text"
    assert before[FATIMA.document_number] >= {"documents_field", "webhooks_webhookdelivery"}

    erasure = person_erase(tenant=tenant, name=FATIMA.name, document_number=FATIMA.document_number)
    assert len(erasure.document_ids) == 4 and len(erasure.case_ids) == 1  # passport twice, invoice, statement
    assert _anywhere(FATIMA, stored_before) == {n: set() for n in FATIMA.needles}
    assert _blob_files(erasure.document_ids) == []
    # the first bank's other customer, and the other bank's applicant, are untouched
    assert Document.objects.filter(pk=customer.json()["id"]).exists()
    assert _anywhere(LUCA, stored_before)[LUCA.needles[0]] >= EXPECTED_TABLES

    tenant.retention_days = 0  # the first bank keeps its documents until erased on request
    tenant.save(update_fields=["retention_days"])
    other_tenant.retention_days = 30
    other_tenant.save(update_fields=["retention_days"])
    luca_documents = [
        str(pk) for pk in Document.objects.filter(tenant=other_tenant).values_list("pk", flat=True)
    ]
    assert len(luca_documents) == 4
    documents_purge_expired(now=timezone.now() + dt.timedelta(days=31))
    assert _anywhere(LUCA, stored_before) == {n: set() for n in LUCA.needles}
    assert _blob_files(luca_documents) == []
    assert Document.objects.filter(pk=customer.json()["id"]).exists()
