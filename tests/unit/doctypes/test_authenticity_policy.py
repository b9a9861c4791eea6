"""/api/v1/policies/authenticity and the admin: which document types get the advisory
authenticity signals, per tenant; the default (identity documents and proofs of address) comes
from apps/doctypes/knowledge/authenticity.toml. A case whose documents still wait for their signals
says so, in the API and on its page.

GIVEN a tenant with no policy, WHEN it reads the policy, THEN it gets the default; an admin (or a
key with ``types:admin``) sets it, audited; an operator or a key without the scope is refused with
403; an unknown type is refused with 400 and a message; the tenant's own types are accepted.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.doctypes.models import AuthenticityPolicy
from apps.doctypes.selectors import authenticity_default_types
from tests.factories import api_key_client, member_client
from tests.support.payslip import PAYSLIP_SCHEMA

pytestmark = pytest.mark.django_db
URL = "/api/v1/policies/authenticity"


def test_the_default_is_identity_documents_and_proofs_of_address_from_the_data_file(tenant):
    assert set(authenticity_default_types()) == {
        "passport",
        "id_card",
        "driver_license",
        "proof_of_address",
        "bank_statement",
    }
    answer = api_key_client(tenant, name="k", scopes=["types:admin"]).get(URL).json()
    assert answer == {
        "document_types": list(authenticity_default_types()),
        "default": True,
        "updated_at": None,
    }


def test_an_admin_sets_the_policy_and_the_change_is_audited(tenant, django_user_model):
    admin = member_client(tenant, username="admin-user", role="admin")
    response = admin.put(URL, {"document_types": ["receipt", "passport", "receipt"]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["document_types"] == ["passport", "receipt"] and not response.json()["default"]
    assert AuthenticityPolicy.objects.get(tenant=tenant).document_types == ["passport", "receipt"]
    event = AuditEvent.objects.get(action="authenticity_policy.changed")
    assert event.actor.username == "admin-user" and event.tenant_id == tenant.pk
    assert event.data == {"from": list(authenticity_default_types()), "to": ["passport", "receipt"]}
    assert admin.get(URL).json()["document_types"] == ["passport", "receipt"]


def test_a_non_admin_is_refused(tenant, django_user_model):
    operator = member_client(tenant, username="operator-user", role="operator")
    for response in (operator.get(URL), operator.put(URL, {"document_types": []}, format="json")):
        assert response.status_code == 403 and response.json()["code"] == "insufficient_role"
    keyed = api_key_client(
        tenant, name="k", scopes=["types:read", "documents:read", "documents:write", "cases:read"]
    )
    response = keyed.put(URL, {"document_types": ["receipt"]}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "insufficient_scope"
    assert not AuthenticityPolicy.objects.exists()


def test_unknown_types_are_refused_with_a_message(tenant, other_tenant):
    from apps.doctypes.services import document_type_define

    document_type_define(tenant=other_tenant, name="payslip", description="", schema=PAYSLIP_SCHEMA)
    admin = api_key_client(tenant, name="k", scopes=["types:admin"])
    response = admin.put(URL, {"document_types": ["passport", "pasport", "payslip"]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_policy"
    assert "pasport" in response.json()["message"] and "payslip" in response.json()["message"]
    assert admin.put(URL, {"document_types": "passport"}, format="json").status_code == 400
    assert admin.put(URL, {"types": ["passport"]}, format="json").status_code == 400
    assert not AuthenticityPolicy.objects.exists()


def test_the_tenants_own_type_may_be_named(tenant):
    from apps.doctypes.services import document_type_define

    document_type_define(tenant=tenant, name="payslip", description="", schema=PAYSLIP_SCHEMA)
    response = api_key_client(tenant, name="k", scopes=["types:admin"]).put(
        URL, {"document_types": ["payslip", "id_card"]}, format="json"
    )
    assert response.status_code == 200 and response.json()["document_types"] == ["id_card", "payslip"]


def test_the_admin_form_checks_the_types_and_saves_through_the_service(tenant, admin_client):
    url = reverse("admin:doctypes_authenticitypolicy_add")
    refused = admin_client.post(url, {"tenant": tenant.pk, "document_types": '["nonsense"]'})
    assert refused.status_code == 200 and b"unknown document types: nonsense" in refused.content
    saved = admin_client.post(url, {"tenant": tenant.pk, "document_types": '["receipt"]'})
    assert saved.status_code == 302
    assert AuthenticityPolicy.objects.get(tenant=tenant).document_types == ["receipt"]
    assert AuditEvent.objects.filter(action="authenticity_policy.changed").count() == 1


def test_a_case_says_how_many_documents_wait_for_their_signals(tenant, operator_client):
    """GIVEN a case with a photographed passport decided, its signals pending WHEN the case is read
    by the API and on its page THEN both say one document's signals are pending; once attached,
    none."""
    from apps.cases.services import case_create
    from apps.documents.advisory import document_advisory
    from apps.documents.models import AdvisoryState
    from tests.factories import decided_upload

    passport = decided_upload(tenant, "00000-passport.jpg", "passport")
    receipt = decided_upload(tenant, "00005-receipt.jpg", "receipt")
    assert (passport.advisory_state, receipt.advisory_state) == (AdvisoryState.PENDING, AdvisoryState.NONE)
    case = case_create(tenant=tenant, documents=[passport, receipt])
    api = api_key_client(tenant, name="k", scopes=["cases:read"])
    assert api.get(f"/api/v1/cases/{case.pk}").json()["advisory_pending"] == 1
    page = operator_client.get(reverse("cases:case_detail", args=[case.pk])).content.decode()
    assert 'id="advisory-pending"' in page and "Authenticity signals pending" in page
    assert document_advisory(document_id=str(passport.pk)) == "done"
    assert api.get(f"/api/v1/cases/{case.pk}").json()["advisory_pending"] == 0
    assert (
        'id="advisory-pending"'
        not in operator_client.get(reverse("cases:case_detail", args=[case.pk])).content.decode()
    )
