"""The login page and the two OpenID Connect endpoints (answering 404 while SSO is off)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponseBase
from mozilla_django_oidc.views import OIDCAuthenticationCallbackView, OIDCAuthenticationRequestView

from apps.accounts.sso import sso_enabled


class LoginView(auth_views.LoginView):
    """User name and password, and "Sign in with <provider>" when single sign-on is configured."""

    template_name = "login.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["sso_provider"] = settings.DOCINTEL_OIDC_PROVIDER_NAME if sso_enabled() else None
        context["sso_refused"] = self.request.GET.get("sso") == "refused"
        return context


class SsoStartView(OIDCAuthenticationRequestView):
    """Sends the browser to the provider with a fresh state, nonce and PKCE challenge."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not sso_enabled():
            raise Http404("single sign-on is not configured")
        return super().dispatch(request, *args, **kwargs)


class SsoCallbackView(OIDCAuthenticationCallbackView):
    """The provider's redirect back: exchanges the code, checks the ID token, signs the person in."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not sso_enabled():
            raise Http404("single sign-on is not configured")
        return super().dispatch(request, *args, **kwargs)
