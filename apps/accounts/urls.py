"""OpenID Connect endpoints, under /oidc/ (the names are the ones mozilla-django-oidc reverses)."""

from django.urls import path

from apps.accounts.views import SsoCallbackView, SsoStartView

urlpatterns = [
    path("authenticate/", SsoStartView.as_view(), name="oidc_authentication_init"),
    path("callback/", SsoCallbackView.as_view(), name="oidc_authentication_callback"),
]
