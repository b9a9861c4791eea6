"""The operators' pages work under the Content-Security-Policy: nothing inline for it to block.

GIVEN every page of the UI rendered for an admin (documents, a document, upload, review queues, the
review screen of a claimed task, queue settings, the dashboard, login, the error pages, Django's
admin) WHEN its HTML is read THEN no ``<script>`` runs inline (only files of the app, or JSON data),
no ``<style>`` element and no ``on...=`` handler or ``javascript:`` URL exist, and every script,
stylesheet and image comes from the app itself; and the app's scripts never evaluate strings.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from apps.review.models import ReviewTask
from apps.tenants.services import membership_grant
from tests.conftest import REPO_ROOT
from tests.support.review_documents import document_for_review

pytestmark = pytest.mark.django_db


class InlineFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...> handler")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:...>")
        if tag == "style":
            self.problems.append("<style> element")
        if tag == "script":
            src = attributes.get("src")
            if src is None and attributes.get("type") != "application/json":
                self.problems.append("inline <script>")
            if src and re.match(r"^(https?:)?//", src):
                self.problems.append(f"script from elsewhere: {src}")
        if tag in {"img", "link", "iframe"}:
            source = attributes.get("src") or (attributes.get("href") if tag == "link" else None) or ""
            if re.match(r"^(https?:)?//", source):
                self.problems.append(f"<{tag}> from elsewhere: {source}")


def _problems(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.problems


def test_every_page_of_the_ui_has_nothing_inline_for_the_policy_to_block(tenant, client, django_user_model):
    admin = django_user_model.objects.create_user(
        username="ada", password="correct horse battery", is_staff=True
    )
    admin.is_superuser = True
    admin.save()
    membership_grant(tenant=tenant, user=admin, role="admin")
    document = document_for_review(tenant)
    task = ReviewTask.objects.get(document=document)
    client.force_login(admin)
    client.post(reverse("review:task_next"))  # the review screen with its actions
    pages = {
        "documents": reverse("ingestion:document_list"),
        "document": reverse("ingestion:document_detail", args=[document.pk]),
        "upload": reverse("ingestion:upload"),
        "queues": reverse("review:queue_list"),
        "review screen": reverse("review:task_detail", args=[task.pk]),
        "queue settings": reverse("review:queue_manage"),
        "new queue": reverse("review:queue_create"),
        "edit queue": reverse("review:queue_edit", args=[task.queue_id]),
        "dashboard": reverse("review:dashboard"),
        "not found": "/documents/00000000-0000-0000-0000-000000000000/",
        "admin": "/admin/",
        "admin documents": "/admin/documents/document/",
    }
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code in {200, 404}, (name, response.status_code)
        assert "text/html" in response["Content-Type"], name
        assert _problems(response.content.decode()) == [], name
    client.logout()
    assert _problems(client.get(reverse("login")).content.decode()) == []


def test_the_apps_scripts_never_evaluate_strings_or_write_markup():
    scripts = sorted((REPO_ROOT / "static").rglob("*.js"))
    assert scripts
    forbidden = re.compile(
        r"\beval\(|new Function\(|setTimeout\(\s*['\"`]|innerHTML|outerHTML|insertAdjacentHTML"
    )
    for script in scripts:
        found = forbidden.findall(Path(script).read_text())
        assert not found, (script.name, found)
