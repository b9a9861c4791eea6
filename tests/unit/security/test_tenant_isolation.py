"""Tenant isolation as a matrix: every URL of the UI and the API, every kind of object.

GIVEN tenant A with a document (pages, fields, a review task in a queue) in a batch, and tenant B
with an admin (every role, so no role check can hide a missing tenant check) and an API key
WHEN B's admin (session) and B's key ask for any URL that names one of A's objects, with every
method the URL takes
THEN the answer is 404 and carries none of A's data, and nothing of A's changed; the URLs that name
no object (lists, status polls, "next task", the dashboard) show B nothing of A's.

A new URL pattern fails ``test_every_url_is_in_the_matrix`` until it is added here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from apps.batches.models import Batch, BatchDocument
from apps.cases.models import Case, CasePacket
from apps.cases.services import case_create
from apps.doctypes.services import document_type_define
from apps.documents import blobs
from apps.documents.models import Document
from apps.review.models import ReviewQueue, ReviewTask
from apps.tenants.models import ApiScope
from apps.tenants.services import api_key_create, membership_grant, tenant_create
from tests.support.payslip import PAYSLIP_SCHEMA
from tests.support.review_documents import document_for_review, passport_page_png

pytestmark = pytest.mark.django_db
SECRET_NAME = "a-tenant-secret-passport.jpg"
SECRET_VALUE = "VAN HANSEN RAMIREZ"  # the surname on A's document
# Names that carry no tenant's objects: authentication, the schema and its viewer, Prometheus.
NOT_TENANT_DATA = {
    "login",
    "logout",
    "oidc_authentication_init",  # single sign-on: no tenant's data, 404 until configured
    "oidc_authentication_callback",
    "api:schema",
    "api:docs",
    "metrics",
}


@dataclass(frozen=True)
class Objects:
    document: Document
    task: ReviewTask
    queue: ReviewQueue
    batch: Batch
    case: Case
    packet: CasePacket
    document_type: str


@pytest.fixture
def a_objects(tenant) -> Objects:
    document = document_for_review(tenant, name=SECRET_NAME)
    blobs.blob_write(document=document, name=document.blob_name, plaintext=passport_page_png())
    batch = Batch.objects.create(tenant=tenant)
    BatchDocument.objects.create(batch=batch, document=document, position=0, file=SECRET_NAME)
    task = ReviewTask.objects.get(document=document)
    case = case_create(tenant=tenant, external_reference="A-APPLICANT", documents=[document])
    packet = CasePacket.objects.create(
        case=case, sha256="0" * 64, original_name=SECRET_NAME, page_count=1, pages=[], parts=[]
    )
    document_type_define(tenant=tenant, name="payslip", description="A's payslips", schema=PAYSLIP_SCHEMA)
    return Objects(
        document=document, task=task, queue=task.queue, batch=batch, case=case, packet=packet,
        document_type="payslip",
    )  # fmt: skip


@pytest.fixture
def b_session(client, django_user_model):
    tenant_b = tenant_create(name="Tenant B")
    admin = django_user_model.objects.create_user(username="bob-b", password="correct horse battery")
    membership_grant(tenant=tenant_b, user=admin, role="admin")
    client.force_login(admin)
    return client


@pytest.fixture
def b_key() -> APIClient:
    tenant_b = tenant_create(name="Tenant B (key)")
    client = APIClient()
    # every scope: what stops this key is the tenant, never a missing scope
    raw_key = api_key_create(tenant=tenant_b, name="b", scopes=list(ApiScope.values)).raw_key
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw_key}")
    return client


# name → (path kwargs from A's objects, methods with their form data)
GET: list[tuple[str, Any]] = [("get", None)]
POST_FORM = [("post", {"value": "FORGED", "reason": "other", "note": "x"})]
OBJECT_URLS: dict[str, tuple[Callable[[Objects], dict[str, Any]], list[tuple[str, Any]]]] = {
    "ingestion:document_detail": (lambda o: {"document_id": o.document.pk}, GET),
    "ingestion:document_result_json": (lambda o: {"document_id": o.document.pk}, GET),
    "ingestion:page_image": (lambda o: {"document_id": o.document.pk, "number": 1}, GET),
    "ingestion:page_crop": (lambda o: {"document_id": o.document.pk, "number": 1}, GET),
    "ingestion:field_crop": (lambda o: {"document_id": o.document.pk, "name": "surname"}, GET),
    "review:task_detail": (lambda o: {"task_id": o.task.pk}, GET),
    "review:task_approve": (lambda o: {"task_id": o.task.pk}, POST_FORM),
    "review:task_reject": (lambda o: {"task_id": o.task.pk}, POST_FORM),
    "review:task_escalate": (lambda o: {"task_id": o.task.pk}, POST_FORM),
    "review:task_release": (lambda o: {"task_id": o.task.pk}, POST_FORM),
    "review:field_confirm": (lambda o: {"task_id": o.task.pk, "name": "surname"}, POST_FORM),
    "review:field_correct": (lambda o: {"task_id": o.task.pk, "name": "surname"}, POST_FORM),
    "review:field_crop": (lambda o: {"task_id": o.task.pk, "name": "surname"}, GET),
    "review:queue_edit": (lambda o: {"queue_id": o.queue.pk}, [*GET, ("post", {"name": "stolen"})]),
    "api:document": (lambda o: {"document_id": o.document.pk}, GET),
    "api:document_original": (lambda o: {"document_id": o.document.pk}, GET),
    "api:document_page": (lambda o: {"document_id": o.document.pk, "number": 1}, GET),
    "api:batch": (lambda o: {"batch_id": o.batch.pk}, GET),
    "api:batch_export_jsonl": (lambda o: {"batch_id": o.batch.pk}, GET),
    "api:batch_export_csv": (lambda o: {"batch_id": o.batch.pk}, GET),
    "api:case": (lambda o: {"case_id": o.case.pk}, GET),
    "api:case_documents": (lambda o: {"case_id": o.case.pk}, [("post", {"document_ids": "x"})]),
    "api:document_type": (lambda o: {"name": o.document_type}, GET),
    "api:document_reprocess": (lambda o: {"document_id": o.document.pk}, [("post", {})]),
    "ingestion:document_reprocess": (lambda o: {"document_id": o.document.pk}, [("post", {})]),
    "cases:case_detail": (lambda o: {"case_id": o.case.pk}, GET),
    "cases:case_decide": (lambda o: {"case_id": o.case.pk}, [("post", {"outcome": "approved"})]),
    "cases:packet_resplit": (
        lambda o: {"case_id": o.case.pk, "packet_id": o.packet.pk},
        [("post", {"ranges": "1"})],
    ),
}
# URLs that name no object: B sees B's own (empty) world through them.
LIST_URLS = {
    "ingestion:document_list",
    "ingestion:upload",
    "ingestion:upload_json",
    "ingestion:documents_status_json",
    "review:queue_list",
    "review:task_next",
    "review:queue_manage",
    "review:queue_create",
    "review:dashboard",
    "api:documents",
    "api:batches",
    "api:cases",
    "api:document_types",
    "cases:case_queue",
    "cases:case_next",
    # dead letters: only the caller's own are listed or redriven (tests/unit/webhooks/test_dead_letters.py)
    "api:webhook_dead_letters",
    "api:webhook_dead_letters_redrive",
    "webhooks:dead_letters",
    "webhooks:dead_letters_redrive",
    # the caller's own policy (tests/unit/doctypes/test_authenticity_policy.py)
    "api:authenticity_policy",
}


def _url_names(patterns: list[Any], namespace: str = "") -> list[str]:
    names = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue  # Django's admin: staff only, not tenant-scoped (operators are never staff)
            inner = f"{namespace}:{pattern.namespace}".strip(":") if pattern.namespace else namespace
            names += _url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.append(f"{namespace}:{pattern.name}".strip(":"))
    return names


def test_every_url_is_in_the_matrix():
    names = set(_url_names(get_resolver().url_patterns))
    missing = names - set(OBJECT_URLS) - LIST_URLS - NOT_TENANT_DATA
    assert not missing, f"add these URLs to the tenant-isolation matrix: {sorted(missing)}"


def _leaks(response, objects: Objects) -> list[str]:
    body = b"".join(response) if getattr(response, "streaming", False) else response.content
    text = body.decode("utf-8", "replace")
    secrets = [
        SECRET_NAME,
        SECRET_VALUE,
        str(objects.document.pk),
        str(objects.task.pk),
        str(objects.batch.pk),
        str(objects.case.pk),
        "A-APPLICANT",
    ]
    return [s for s in secrets if s in text]


def _snapshot(objects: Objects) -> tuple[Any, ...]:
    task = ReviewTask.objects.get(pk=objects.task.pk)
    queue = ReviewQueue.objects.get(pk=objects.queue.pk)
    document = Document.objects.get(pk=objects.document.pk)
    surname = document.extractions.get().fields.get(name="surname").value
    case = Case.objects.get(pk=objects.case.pk)
    return task.status, task.lease_holder_id, task.outcome, queue.name, document.status, surname, case.status


@pytest.mark.parametrize("name", sorted(OBJECT_URLS))
def test_another_tenants_object_is_404_for_a_user_and_a_key(name, a_objects, b_session, b_key):
    kwargs, methods = OBJECT_URLS[name]
    url = reverse(name, kwargs=kwargs(a_objects))
    before = _snapshot(a_objects)
    callers = {"session": b_session} if not name.startswith("api:") else {"session": b_session, "key": b_key}
    for caller, client in callers.items():
        for method, data in methods:
            response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
            assert response.status_code == 404, (caller, method, url, response.status_code)
            assert not _leaks(response, a_objects), (caller, method, url)
    assert _snapshot(a_objects) == before


def test_the_owner_reaches_every_object_url(a_objects, tenant, client, django_user_model):
    """The control: the same URLs answer A's own admin and key (so a 404 above is the tenant check,
    not a wrong URL)."""
    owner = django_user_model.objects.create_user(username="alice-a", password="correct horse battery")
    membership_grant(tenant=tenant, user=owner, role="admin")
    client.force_login(owner)
    key = APIClient()
    raw_key = api_key_create(tenant=tenant, name="a", scopes=list(ApiScope.values)).raw_key
    key.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw_key}")
    for name, (kwargs, methods) in OBJECT_URLS.items():
        url = reverse(name, kwargs=kwargs(a_objects))
        for method, data in methods:
            status = (client.get(url) if method == "get" else client.post(url, data)).status_code
            # a GET shows A's object (page_crop without a box: 400); a POST reaches the task (and is
            # refused for want of a lease, or redirects back) instead of being not found
            assert status in ({200, 400} if method == "get" else {200, 302, 400, 403, 409}), (
                name,
                method,
                status,
            )
        if name.startswith("api:") and ("get", None) in methods:
            assert key.get(url).status_code == 200, name


def test_a_key_is_no_way_into_the_operators_pages(a_objects, b_key):
    for name, (kwargs, _methods) in OBJECT_URLS.items():
        if name.startswith("api:"):
            continue
        response = b_key.get(reverse(name, kwargs=kwargs(a_objects)))
        assert response.status_code in {302, 404}, (name, response.status_code)  # login, or not found
        assert not _leaks(response, a_objects), name


def test_lists_polls_and_next_task_show_another_tenant_nothing(a_objects, b_session, b_key):
    before = _snapshot(a_objects)
    ids = f"{a_objects.document.pk},{uuid.uuid4()}"
    for response in (
        b_session.get(reverse("ingestion:document_list")),
        b_session.get(reverse("ingestion:document_list"), {"q": "passport"}),
        b_session.get(reverse("ingestion:upload")),
        b_session.get(reverse("ingestion:documents_status_json"), {"ids": ids}),
        b_session.get(reverse("review:queue_list")),
        b_session.post(reverse("review:task_next")),
        b_session.post(reverse("review:task_next"), {"queue": str(a_objects.queue.pk)}),
        b_session.get(reverse("review:queue_manage")),
        b_session.get(reverse("review:queue_create")),
        b_session.get(reverse("review:dashboard")),
        b_session.get("/api/v1/documents"),
        b_session.get("/api/v1/batches"),
        b_key.get("/api/v1/documents"),
        b_key.get("/api/v1/documents", {"status": "needs_review"}),
        b_key.get("/api/v1/batches"),
        b_session.get(reverse("cases:case_queue")),
        b_session.post(reverse("cases:case_next")),
        b_key.get("/api/v1/document-types"),
    ):
        assert response.status_code in {200, 302, 404}, response.status_code
        assert not _leaks(response, a_objects), response.request["PATH_INFO"]
    assert b_session.get(reverse("ingestion:documents_status_json"), {"ids": ids}).json()["documents"] == []
    assert _snapshot(a_objects) == before  # "next task" did not hand B A's task


def test_uploading_the_same_bytes_as_another_tenant_reveals_nothing(a_objects, b_key):
    """Deduplication is per tenant: B uploading A's exact bytes gets a new document of its own,
    not A's (which would tell B that A holds that file)."""
    from apps.documents.services import document_upload

    content = b"\x89PNG\r\n\x1a\n" + uuid.uuid4().bytes
    mine = document_upload(
        tenant=a_objects.document.tenant, content=content, original_name="a.png", uploaded_by=None
    )
    response = b_key.post("/api/v1/documents", {"file": _named(content, "b.png")}, format="multipart")
    assert response.status_code == 202 and response.json()["id"] != str(mine.document.pk)
    assert response.json()["duplicate"] is False


def _named(content: bytes, name: str):
    import io

    handle = io.BytesIO(content)
    handle.name = name
    return handle
