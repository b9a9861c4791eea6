"""Around a case's life: `manage.py ingest --cases`, the reconciler for cases whose last hook was
lost, documents sent back for a new capture, and a person's erasure or retention erasing the
applicant's cases."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.cases.models import Case, CaseDocument
from apps.cases.services import case_create, cases_reconcile
from apps.documents.models import Document, DocumentStatus
from apps.documents.retention import documents_purge_expired, person_erase
from apps.webhooks.models import WebhookDelivery
from tests.factories import APPLICANT_PASSPORT, proof_of_address, read_document
from tests.support.packets import first_of

pytestmark = pytest.mark.django_db
CASE_DATE = dt.date(2026, 6, 15)


def test_ingest_cases_opens_one_case_per_applicant_folder(tenant, tmp_path, capsys):
    for name, seed in (("applicant-a", 11), ("applicant-b", 12)):
        folder = tmp_path / name
        folder.mkdir()
        passport = first_of("passport", extension="png", seed=seed)
        (folder / "passport.png").write_bytes(passport.image)
        (folder / "bill.pdf").write_bytes(first_of("proof_of_address", extension="pdf", seed=seed).image)
        (folder / "declared.json").write_text(json.dumps({"full_name": "Ann Example", "colour": "blue"}))
    (tmp_path / "empty").mkdir()
    call_command("ingest", str(tmp_path), "--tenant", tenant.name, "--cases")
    cases = list(Case.objects.filter(tenant=tenant).order_by("external_reference"))
    assert [c.external_reference for c in cases] == ["applicant-a", "applicant-b"]
    assert [c.documents.count() for c in cases] == [2, 2]
    assert cases[0].declared == {"full_name": "Ann Example"}
    assert "empty: not opened (no documents in the folder)" in capsys.readouterr().err


def test_the_reconciler_evaluates_a_case_left_open_after_its_documents_were_decided(tenant):
    passport = read_document(tenant, "passport", status=DocumentStatus.EXTRACTED, **APPLICANT_PASSPORT)
    bill = read_document(tenant, "proof_of_address", **proof_of_address("2026-06-01"))
    case = case_create(tenant=tenant, documents=[passport, bill], case_date=CASE_DATE)
    assert case.status == "open"
    # the passport is decided, but the hook that evaluates its case never ran (no on_commit here)
    passport.status = DocumentStatus.AUTO_APPROVED
    passport.save(update_fields=["status"])
    assert cases_reconcile() == []  # not stuck yet
    later = timezone.now() + dt.timedelta(hours=2)
    assert cases_reconcile(now=later) == [case.pk]
    case.refresh_from_db()
    assert case.status == "approved"
    assert cases_reconcile(now=later) == []


def test_a_document_sent_back_for_a_new_capture_asks_the_applicant_for_it(tenant):
    blurred = read_document(tenant, "", status=DocumentStatus.RESUBMISSION_REQUESTED)
    bill = read_document(tenant, "proof_of_address", **proof_of_address("2026-06-01"))
    case = case_create(tenant=tenant, documents=[blurred, bill], case_date=CASE_DATE)
    assert case.status == "resubmission_requested"
    readable = next(c for c in case.checks if c["name"] == "documents_readable")
    assert readable["detail"] == "unclassified document (document 1) is resubmission_requested"


def test_a_persons_erasure_erases_their_cases_whole_with_their_documents(tenant):
    """A case is one applicant's: it goes with everything on it, and with every document of it that
    no other applicant's case holds (the bill in another spelling of the name goes too)."""
    passport = read_document(tenant, "passport", **APPLICANT_PASSPORT)
    bill = read_document(tenant, "proof_of_address", **proof_of_address("2026-06-01"))
    shared = read_document(tenant, "proof_of_address", **proof_of_address("2026-06-01", full_name="BO LI"))
    theirs = case_create(
        tenant=tenant, documents=[passport, bill, shared], case_date=CASE_DATE, callback_url="https://x.example/",
        declared={"full_name": "Anna Maria Mueller", "date_of_birth": "1990-04-01"},
    )  # fmt: skip
    declared_only = case_create(
        tenant=tenant, documents=[], case_date=CASE_DATE, declared={"full_name": "anna maria  MUELLER"}
    )
    someone_else = case_create(
        tenant=tenant, documents=[shared], case_date=CASE_DATE, declared={"full_name": "Bo Li"}
    )
    assert WebhookDelivery.objects.filter(case=theirs).exists()  # case.decided, with every field

    erasure = person_erase(
        tenant=tenant, name="Anna Maria Mueller", document_number=APPLICANT_PASSPORT["document_number"]
    )
    assert set(erasure.case_ids) == {str(theirs.pk), str(declared_only.pk)}
    assert set(erasure.document_ids) == {str(passport.pk), str(bill.pk)}
    assert list(Case.objects.all()) == [someone_else]
    assert set(Document.objects.values_list("pk", flat=True)) == {shared.pk}  # another applicant's too
    assert not WebhookDelivery.objects.exists()
    event = AuditEvent.objects.get(object_id=str(theirs.pk), action="case.erased")
    assert event.data == {"reason": "request", "documents": 3}
    assert AuditEvent.objects.get(action="person.erased").data["cases"] == erasure.case_ids


def test_retention_erases_old_cases_once_their_documents_are_gone(tenant, settings):
    settings.DOCINTEL_RETENTION_DAYS = 30
    empty = case_create(tenant=tenant, documents=[], case_date=CASE_DATE, declared={"full_name": "Bo Li"})
    old = case_create(
        tenant=tenant,
        documents=[read_document(tenant, "passport", **APPLICANT_PASSPORT)],
        case_date=CASE_DATE,
    )
    later = timezone.now() + dt.timedelta(days=31)
    still_read = case_create(tenant=tenant, documents=[], case_date=CASE_DATE)
    recent = read_document(tenant, "proof_of_address", **proof_of_address("2026-06-01"))
    Document.objects.filter(pk=recent.pk).update(created_at=later)  # added to the case last month
    CaseDocument.objects.create(case=still_read, document=recent, position=1)
    documents_purge_expired(now=later)
    assert list(Case.objects.all()) == [still_read]  # kept as long as its newest document
    assert {e.object_id for e in AuditEvent.objects.filter(action="case.erased")} == {
        str(empty.pk),
        str(old.pk),
    }
