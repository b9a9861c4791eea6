"""Single sign-on through OpenID Connect, against a real provider (``oidc_provider``, Authlib).

GIVEN a provider serving on a loopback port and DocIntel's live server configured for it WHEN a
browser (a real HTTP client following redirects) presses "Sign in with Test IdP" THEN the whole
authorization-code flow runs over HTTP: the provider approves, DocIntel exchanges the code, checks
the RS256 ID token against the JWKS and signs the person in with the role their groups map to.
A person whose groups map to nothing, a tampered ID token and a token for another client are
refused. Nothing of DocIntel is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
import requests

from apps.tenants.models import Membership, SsoIdentity
from tests.unit.accounts.oidc_provider import Person, RunningProvider

CLIENT_ID = "docintel"
CLIENT_SECRET = "s3cret-for-tests-only"
OLIVIA = Person(
    sub="248289761001",
    preferred_username="olivia.sso",
    email="olivia@bank.example",
    groups=["docintel-acme-supervisors", "everyone"],
)
LIVE = pytest.mark.django_db(transaction=True)  # the live server's thread sees the test's rows
ROLES = {
    "docintel-acme-supervisors": {"tenant": "Acme Bank", "role": "supervisor"},
    "docintel-acme-operators": [{"tenant": "Acme Bank", "role": "operator"}],
    "docintel-admins": {"tenant": "Acme Bank", "role": "admin"},
}


@pytest.fixture
def provider(live_server, settings, tenant) -> Iterator[RunningProvider]:
    running = RunningProvider(CLIENT_ID, CLIENT_SECRET, f"{live_server.url}/oidc/callback/", OLIVIA)
    discovery = requests.get(f"{running.url}/.well-known/openid-configuration", timeout=10).json()
    settings.OIDC_RP_CLIENT_ID = CLIENT_ID
    settings.OIDC_RP_CLIENT_SECRET = CLIENT_SECRET
    settings.DOCINTEL_OIDC_ISSUER = discovery["issuer"]
    settings.OIDC_OP_AUTHORIZATION_ENDPOINT = discovery["authorization_endpoint"]
    settings.OIDC_OP_TOKEN_ENDPOINT = discovery["token_endpoint"]
    settings.OIDC_OP_USER_ENDPOINT = discovery["userinfo_endpoint"]
    settings.OIDC_OP_JWKS_ENDPOINT = discovery["jwks_uri"]
    settings.DOCINTEL_OIDC_PROVIDER_NAME = "Test IdP"
    settings.DOCINTEL_OIDC_GROUP_ROLES = ROLES
    yield running
    running.stop()


def _sign_in(live_server) -> requests.Response:
    """What a browser does: open the login page, press the provider's button, follow redirects."""
    browser = requests.Session()
    page = browser.get(f"{live_server.url}/login/", timeout=30)
    assert page.status_code == 200 and "Sign in with Test IdP" in page.text
    start = page.text.split('id="sso-sign-in"', 1)[1].split('href="', 1)[1].split('"', 1)[0]
    answer = browser.get(f"{live_server.url}{start}", timeout=60)
    answer.browser = browser  # type: ignore[attr-defined]
    return answer


@LIVE
def test_a_person_signs_in_with_the_role_their_groups_map_to(provider, live_server, tenant):
    answer = _sign_in(live_server)
    assert answer.status_code == 200 and answer.url == f"{live_server.url}/", answer.url
    assert "Log in" not in answer.text  # the document list, signed in
    identity = SsoIdentity.objects.select_related("user").get(issuer=provider.url, subject=OLIVIA.sub)
    assert identity.user.username == "olivia.sso" and not identity.user.has_usable_password()
    assert Membership.objects.get(user=identity.user, tenant=tenant).role == "supervisor"
    # the session is a real one: the API answers it too
    assert answer.browser.get(f"{live_server.url}/api/v1/documents", timeout=30).status_code == 200

    # moved in the directory: the next sign-in gives the new role, the old one is gone
    provider.provider.person = replace(OLIVIA, groups=["docintel-acme-operators"])
    assert _sign_in(live_server).status_code == 200
    assert Membership.objects.get(user=identity.user, tenant=tenant).role == "operator"
    assert SsoIdentity.objects.count() == 1  # the same person, found by issuer and subject


@LIVE
def test_a_person_whose_groups_map_to_nothing_is_refused(provider, live_server, django_user_model):
    provider.provider.person = replace(OLIVIA, groups=["everyone", "marketing"])
    answer = _sign_in(live_server)
    assert answer.url == f"{live_server.url}/login/?sso=refused"
    assert "Single sign-on did not sign you in" in answer.text
    assert not django_user_model.objects.exists()  # no account made for someone without a role
    assert answer.browser.get(f"{live_server.url}/", timeout=30, allow_redirects=False).status_code == 302


@LIVE
def test_a_leaver_loses_every_role_at_their_next_sign_in(provider, live_server, tenant):
    assert _sign_in(live_server).status_code == 200
    user = SsoIdentity.objects.get(subject=OLIVIA.sub).user
    provider.provider.person = replace(OLIVIA, groups=[])
    assert _sign_in(live_server).url.endswith("/login/?sso=refused")
    assert not Membership.objects.filter(user=user).exists()


@LIVE
def test_a_tampered_id_token_is_refused(provider, live_server):
    provider.provider.tamper_id_token = True
    answer = _sign_in(live_server)
    assert answer.url == f"{live_server.url}/login/?sso=refused"
    assert not SsoIdentity.objects.exists() and not Membership.objects.filter(role="admin").exists()


@LIVE
def test_an_id_token_for_another_client_is_refused(provider, live_server):
    provider.provider.audience = "another-application"
    answer = _sign_in(live_server)
    assert answer.url == f"{live_server.url}/login/?sso=refused"
    assert not SsoIdentity.objects.exists()


@LIVE
def test_without_configuration_there_is_no_button_and_no_endpoint(client):
    page = client.get("/login/")
    assert page.status_code == 200 and "Sign in with" not in page.content.decode()
    assert client.get("/oidc/authenticate/").status_code == 404
    assert client.get("/oidc/callback/?code=x&state=y").status_code == 404


def test_the_highest_role_a_persons_groups_give_in_a_tenant_wins():
    from apps.accounts.sso import group_roles, roles_for_groups

    mapping = group_roles(ROLES)
    assert roles_for_groups(["docintel-acme-operators", "docintel-acme-supervisors"], mapping) == {
        "Acme Bank": "supervisor"
    }
    assert roles_for_groups(["marketing"], mapping) == {}


@pytest.mark.parametrize(
    "bad",
    [
        [],  # not an object
        {"g": {"tenant": "Acme Bank", "role": "owner"}},  # no such role
        {"g": {"tenant": "", "role": "operator"}},
        {"g": [{"tenant": "Acme Bank"}]},
    ],
)
def test_a_malformed_group_mapping_is_refused(bad):
    from apps.accounts.sso import group_roles

    with pytest.raises(ValueError):
        group_roles(bad)
