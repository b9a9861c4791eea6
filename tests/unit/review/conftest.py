"""Members of the test tenants in every role review knows about."""

from __future__ import annotations

import pytest

from apps.tenants.services import membership_grant


def _member(django_user_model, tenant, username: str, role: str):
    user = django_user_model.objects.create_user(username=username, password="correct horse battery")
    membership_grant(tenant=tenant, user=user, role=role)
    return user


@pytest.fixture
def second_operator(tenant, django_user_model):
    return _member(django_user_model, tenant, "oscar", "operator")


@pytest.fixture
def supervisor(tenant, django_user_model):
    return _member(django_user_model, tenant, "sofia", "supervisor")


@pytest.fixture
def uploader(tenant, django_user_model):
    return _member(django_user_model, tenant, "ulrich", "uploader")


@pytest.fixture
def other_operator(other_tenant, django_user_model):
    """An operator of the other tenant: must never see or touch the first tenant's work."""
    return _member(django_user_model, other_tenant, "otto", "operator")
