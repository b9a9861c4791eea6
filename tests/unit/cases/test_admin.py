"""The tenant's case policy and blocklist are kept in the admin; a policy's document groups are
checked there, so a typo cannot make every case ask for a document that does not exist."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from apps.cases.models import BlockedDocumentNumber, CasePolicy

pytestmark = pytest.mark.django_db


def test_policy_and_blocklist_pages_open_and_save(admin_client, tenant):
    for path in (
        "/admin/cases/casepolicy/add/",
        "/admin/cases/blockeddocumentnumber/add/",
        "/admin/cases/case/",
    ):
        assert admin_client.get(path).status_code == 200, path
    response = admin_client.post(
        "/admin/cases/blockeddocumentnumber/add/",
        {
            "tenant": str(tenant.pk),
            "document_number": "N9171K",
            "document_type": "passport",
            "reason": "stolen",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    assert BlockedDocumentNumber.objects.get().tenant == tenant


@pytest.mark.parametrize(
    "groups",
    [["passport", "proof_of_address"], [["passport"], []], [["pasport"]], {"identity": ["passport"]}],
)
def test_a_policy_with_malformed_document_groups_is_refused(tenant, groups):
    with pytest.raises(ValidationError):
        CasePolicy(tenant=tenant, required_document_types=groups).full_clean()


def test_the_default_policy_is_valid(tenant):
    CasePolicy(tenant=tenant).full_clean()
