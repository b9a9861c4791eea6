"""Retention and erasure: ``manage.py purge_expired`` (scheduled) and ``manage.py erase``.

GIVEN documents with pages, fields, a review task, a batch entry and a webhook delivery
WHEN they are erased (past their tenant's retention period, or on a person's request)
THEN the rows and the blobs are gone, other documents stay, the audit trail records the erasure
without any personal data, and the chain still verifies; the case deliveries that carried a
document's fields go with it, and refused files lose their names (tests/unit/cases/test_lifecycle.py
has the cases themselves, tests/integration/test_erasure_everywhere.py every table and blob).
"""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.audit.services import audit_chain_problems
from apps.batches.models import Batch, BatchDocument
from apps.documents import blobs
from apps.documents.models import Document, DocumentStatus, Extraction, Field, Page
from apps.documents.retention import documents_purge_expired, person_erase
from apps.review.models import ReviewTask
from apps.webhooks.models import WebhookDelivery
from tests.support.review_documents import PASSPORT_FIELDS, document_for_review

pytestmark = pytest.mark.django_db
NAME = ("VAN HANSEN RAMIREZ", "FATIMA PRIYA ZEYNEP")


def _passport(tenant, *, surname=NAME[0], given=NAME[1], born="1959-07-05", file="passport.jpg") -> Document:
    fields = {
        **PASSPORT_FIELDS,
        "surname": (surname, 0.99, [0.1, 0.1, 0.2, 0.2], True),
        "given_names": (given, 0.5, [0.1, 0.1, 0.2, 0.2], True),  # unsure: a review task
        "date_of_birth": (born, 0.99, [0.1, 0.1, 0.2, 0.2], True),
    }
    document = document_for_review(tenant, name=file, fields=fields)
    blobs.blob_write(document=document, name=document.blob_name, plaintext=b"original bytes")
    return document


def _statement(tenant, full_name: str) -> Document:
    fields = {"full_name": (full_name, 0.99, [0.1, 0.1, 0.2, 0.2], True)}
    return document_for_review(
        tenant, name="statement.pdf", document_type="bank_statement", fields=fields, checks=[]
    )


def _storage_files(document: Document) -> list[Path]:
    root = Path(django_settings.STORAGES["default"]["OPTIONS"]["location"]) / "documents" / str(document.pk)
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def _audit_text() -> str:
    return json.dumps(list(AuditEvent.objects.values("action", "object_type", "object_id", "data")))


def test_erasing_a_document_removes_every_row_and_blob_and_audits_it_without_pii(
    tenant, django_capture_on_commit_callbacks
):
    document = _passport(tenant, file="fatima-ramirez-passport.jpg")
    batch = Batch.objects.create(tenant=tenant)
    BatchDocument.objects.create(
        batch=batch, document=document, position=0, file="fatima-ramirez-passport.jpg"
    )
    WebhookDelivery.objects.create(
        tenant=tenant,
        document=document,
        event="document.decided",
        url="https://x.example/",
        body='{"surname": "X"}',
    )
    keep = _passport(tenant, surname="OTHER", given="PERSON", file="other.jpg")
    assert len(_storage_files(document)) == 2 and ReviewTask.objects.filter(document=document).exists()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("erase", "--document", str(document.pk), stdout=io.StringIO())

    assert not Document.objects.filter(pk=document.pk).exists()
    for model in (Page, Extraction, ReviewTask, WebhookDelivery, BatchDocument):
        assert not model.objects.filter(document_id=document.pk).exists()
    assert not Field.objects.filter(extraction__document_id=document.pk).exists()
    assert _storage_files(document) == []
    assert Document.objects.filter(pk=keep.pk).exists() and len(_storage_files(keep)) == 2

    erased = AuditEvent.objects.get(action="document.erased", object_id=str(document.pk))
    assert erased.data == {"reason": "request", "pages": 1}
    audit = _audit_text()
    assert not any(v in audit for v in ("RAMIREZ", "FATIMA", "1959-07-05", "fatima-ramirez"))
    assert audit_chain_problems()[1] == []


def test_erasure_deletes_a_blob_no_row_names(tenant, django_capture_on_commit_callbacks):
    """Two prepare attempts racing on one page name: the storage saves the second under a name of
    its own, the row records that one, and the first is named by no row; erasure deletes it too."""
    document = _passport(tenant)
    blobs.blob_write(
        document=document, name=f"documents/{document.pk}/page-0001_aB3dE9f.bin", plaintext=b"an attempt"
    )
    assert len(_storage_files(document)) == 3  # original, the row's page, the unrecorded page

    with django_capture_on_commit_callbacks(execute=True):
        call_command("erase", "--document", str(document.pk), stdout=io.StringIO())

    assert _storage_files(document) == []


def test_erasing_a_person_finds_their_documents_by_name_and_date_of_birth(tenant, other_tenant):
    passport = _passport(tenant)
    statement = _statement(tenant, "Ms Fátima Priya Zeynep van Hansen-Ramírez")
    namesake = _passport(tenant, born="1990-01-01", file="namesake.jpg")
    stranger = _passport(tenant, surname="ERIKSSON", given="ANNA", file="anna.jpg")
    elsewhere = _passport(other_tenant)  # the same person at another bank: not this tenant's request
    args = ["erase", "--tenant", tenant.name, "--person", "fatima priya zeynep van hansen ramirez"]

    out = io.StringIO()
    call_command(*args, "--date-of-birth", "1959-07-05", "--dry-run", stdout=out)
    assert set(out.getvalue().split()[:2]) == {str(passport.pk), str(statement.pk)}
    assert Document.objects.count() == 5  # a dry run erases nothing

    call_command(*args, "--date-of-birth", "1959-07-05", stdout=io.StringIO())
    remaining = set(Document.objects.values_list("pk", flat=True))
    assert remaining == {namesake.pk, stranger.pk, elsewhere.pk}
    request = AuditEvent.objects.get(action="person.erased")
    assert request.data["criteria"] == ["name", "date_of_birth"]
    assert set(request.data["documents"]) == {str(passport.pk), str(statement.pk)}
    assert not any(v in _audit_text() for v in ("RAMIREZ", "Ramírez", "FATIMA", "1959-07-05"))


def test_purge_expired_erases_documents_past_their_tenants_retention(tenant, other_tenant, settings):
    settings.DOCINTEL_RETENTION_DAYS = 365
    tenant.retention_days = 30
    tenant.save()
    other_tenant.retention_days = 0  # kept until erased on request
    other_tenant.save()
    old, recent = _passport(tenant, file="old.jpg"), _passport(tenant, surname="B", file="recent.jpg")
    old_in_flight = _passport(tenant, surname="C", file="in-flight.jpg")
    kept_forever = _passport(other_tenant, file="forever.jpg")
    now = timezone.now()
    Document.objects.filter(pk__in=[old.pk, old_in_flight.pk, kept_forever.pk]).update(
        created_at=now - dt.timedelta(days=31)
    )
    Document.objects.filter(pk=recent.pk).update(created_at=now - dt.timedelta(days=29))
    Document.objects.filter(pk=old_in_flight.pk).update(status=DocumentStatus.PROCESSING)

    out = io.StringIO()
    call_command("purge_expired", stdout=out)
    assert "erased 1 expired documents" in out.getvalue()
    assert set(Document.objects.values_list("pk", flat=True)) == {
        recent.pk,
        old_in_flight.pk,
        kept_forever.pk,
    }
    assert AuditEvent.objects.get(action="document.erased").data == {"reason": "retention", "pages": 1}


def test_the_default_retention_applies_to_tenants_without_their_own(tenant, settings):
    settings.DOCINTEL_RETENTION_DAYS = 7
    document = _passport(tenant)
    Document.objects.filter(pk=document.pk).update(created_at=timezone.now() - dt.timedelta(days=8))
    from apps.documents.tasks import purge_expired

    assert purge_expired.run() == 1  # the task's body, as the worker runs it
    assert not Document.objects.exists()


def test_purging_is_scheduled_in_celery_beat():
    from config.celery import app

    schedule = django_settings.CELERY_BEAT_SCHEDULE["purge-expired-documents"]
    assert schedule["task"] == "apps.documents.tasks.purge_expired"
    app.loader.import_default_modules()
    assert schedule["task"] in app.tasks


def test_erasing_a_document_deletes_the_case_deliveries_that_carried_its_fields(tenant):
    from apps.cases.services import case_create

    passport = _passport(tenant)
    other = _passport(tenant, surname="OTHER", given="PERSON", file="other.jpg")
    case = case_create(tenant=tenant, documents=[passport, other], callback_url="https://x.example/")
    assert "RAMIREZ" in WebhookDelivery.objects.get(case=case).body  # every document's fields
    call_command("erase", "--document", str(passport.pk), stdout=io.StringIO())
    assert not WebhookDelivery.objects.filter(case=case).exists()
    assert case.case_documents.get().document == other  # the case itself stays


def test_a_persons_erasure_forgets_the_refused_file_names_of_their_submissions_and_naming_them(tenant):
    passport = _passport(tenant)
    theirs, other = Batch.objects.create(tenant=tenant), Batch.objects.create(tenant=tenant)
    BatchDocument.objects.create(batch=theirs, document=passport, position=0, file="passport.jpg")
    refusal = {"code": "unsupported_file_type", "message": "unsupported file type"}
    theirs.refused = [{"file": "scan-2.heic", **refusal}]
    theirs.save()
    other.refused = [
        {"file": "Fatima_van-Hansen.txt", **refusal},
        {"file": "N9171K.txt", **refusal},
        {"file": "fatima-smith.txt", **refusal},  # one word of the name: someone else's
    ]
    other.save()
    person_erase(tenant=tenant, name="Fatima Priya Zeynep van Hansen Ramirez", document_number="N9171K")
    theirs.refresh_from_db()
    other.refresh_from_db()
    assert theirs.refused == [{"file": "", **refusal}]  # the reason stays, the name goes
    assert [r["file"] for r in other.refused] == ["", "", "fatima-smith.txt"]


def test_retention_forgets_refused_names_and_deletes_batches_left_empty(tenant, settings):
    settings.DOCINTEL_RETENTION_DAYS = 30
    document = _passport(tenant)
    refused = [{"file": "fatima.txt", "code": "unsupported_file_type", "message": "unsupported file type"}]
    emptied, kept, recent = (Batch.objects.create(tenant=tenant, refused=refused) for _ in range(3))
    in_flight = _passport(tenant, surname="C", file="in-flight.jpg")
    BatchDocument.objects.create(batch=emptied, document=document, position=0, file="passport.jpg")
    BatchDocument.objects.create(batch=kept, document=in_flight, position=0, file="in-flight.jpg")
    Document.objects.filter(pk=in_flight.pk).update(status=DocumentStatus.PROCESSING)
    Batch.objects.filter(pk=recent.pk).update(created_at=timezone.now() + dt.timedelta(days=31))
    Document.objects.filter(pk=document.pk).update(created_at=timezone.now() - dt.timedelta(days=1))
    documents_purge_expired(now=timezone.now() + dt.timedelta(days=31))
    assert set(Batch.objects.values_list("pk", flat=True)) == {kept.pk, recent.pk}
    kept.refresh_from_db()
    recent.refresh_from_db()
    assert kept.refused[0]["file"] == "" and recent.refused[0]["file"] == "fatima.txt"
