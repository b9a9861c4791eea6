from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from apps.accounts.views import LoginView
from apps.observability.views import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("metrics", metrics, name="metrics"),
    path("api/v1/", include("apps.api.urls")),
    path("login/", LoginView.as_view(), name="login"),
    path("oidc/", include("apps.accounts.urls")),  # single sign-on (answers 404 until configured)
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("apps.review.urls")),
    path("", include("apps.cases.urls")),
    path("", include("apps.webhooks.urls")),
    path("", include("apps.ingestion.urls")),
]

# JSON under /api/ (every API error is {"code", "message"}), Django's pages elsewhere.
handler404 = "apps.api.errors.page_not_found"
handler500 = "apps.api.errors.server_error"
