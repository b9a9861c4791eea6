"""System checks: a half-configured single sign-on stops the start, not the first sign-in."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.checks import CheckMessage, Error, Tags, register

from apps.accounts.client_address import trusted_proxy_networks
from apps.accounts.sso import group_roles, sso_enabled

REQUIRED_WITH_SSO = {
    "OIDC_RP_CLIENT_SECRET": "DOCINTEL_OIDC_CLIENT_SECRET",
    "DOCINTEL_OIDC_ISSUER": "DOCINTEL_OIDC_ISSUER",
    "OIDC_OP_AUTHORIZATION_ENDPOINT": "DOCINTEL_OIDC_AUTHORIZATION_ENDPOINT",
    "OIDC_OP_TOKEN_ENDPOINT": "DOCINTEL_OIDC_TOKEN_ENDPOINT",
    "OIDC_OP_USER_ENDPOINT": "DOCINTEL_OIDC_USERINFO_ENDPOINT",
    "OIDC_OP_JWKS_ENDPOINT": "DOCINTEL_OIDC_JWKS_ENDPOINT",
}


@register(Tags.security)
def check_login_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    problems: list[CheckMessage] = []
    try:
        trusted_proxy_networks()
    except ValueError as exc:
        problems.append(Error(f"DOCINTEL_TRUSTED_PROXIES: {exc}", id="accounts.E001"))
    if not sso_enabled():
        return problems
    for setting, variable in REQUIRED_WITH_SSO.items():
        if not getattr(settings, setting, ""):
            problems.append(Error(f"single sign-on needs {variable}", id="accounts.E002"))
    try:
        if not group_roles(settings.DOCINTEL_OIDC_GROUP_ROLES):
            problems.append(Error("single sign-on needs DOCINTEL_OIDC_GROUP_ROLES", id="accounts.E003"))
    except ValueError as exc:
        problems.append(Error(str(exc), id="accounts.E003"))
    if not settings.OIDC_RP_SIGN_ALGO.startswith(("RS", "ES")):
        problems.append(
            Error(
                "DOCINTEL_OIDC_SIGN_ALGO must be RS* or ES* (signed by the provider's key)",
                id="accounts.E004",
            )
        )
    return problems


@register(Tags.security, deploy=True)
def check_sso_over_https(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if not sso_enabled():
        return []
    plain = [name for name in REQUIRED_WITH_SSO if str(getattr(settings, name, "")).startswith("http://")]
    return (
        [checks.Warning(f"single sign-on over plain HTTP: {', '.join(plain)}", id="accounts.W001")]
        if plain
        else []
    )
