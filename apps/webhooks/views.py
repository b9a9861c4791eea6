"""The dead-letter page: a tenant's webhook events whose retry window closed undelivered, and a
button that sends them again (operators, supervisors and admins of the tenant).

Thin, like ``apps.cases.views``: check the role, load through a tenant-scoped selector, call one
service. The redrive is a POST (CSRF-checked, like every form here) and is audited by the service.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.review.permissions import REVIEWER_ROLES, tenant_with_role
from apps.tenants.models import Tenant
from apps.webhooks.selectors import webhook_dead_letters_of
from apps.webhooks.services import REDRIVE_BATCH, webhook_dead_letters_redrive

SHOWN = 200  # dead letters listed on the page, oldest first


def _tenant(request: HttpRequest) -> Tenant:
    found = tenant_with_role(user=request.user, roles=REVIEWER_ROLES)
    if found is None:
        raise PermissionDenied("the webhook pages need one of the roles " + ", ".join(sorted(REVIEWER_ROLES)))
    return found[0]


@login_required
@require_GET
def dead_letters(request: HttpRequest) -> HttpResponse:
    tenant = _tenant(request)
    letters = webhook_dead_letters_of(tenant=tenant)
    context = {"letters": list(letters[:SHOWN]), "total": letters.count(), "batch": REDRIVE_BATCH}
    return render(request, "webhooks/dead_letters.html", context)


@login_required
@require_POST
def dead_letters_redrive(request: HttpRequest) -> HttpResponse:
    """Redrive the dead letter named by the button (``delivery``), or all of them."""
    tenant = _tenant(request)
    chosen: list[uuid.UUID] | None = None
    if "delivery" in request.POST:
        try:
            chosen = [uuid.UUID(request.POST["delivery"])]
        except ValueError:
            chosen = []
    assert isinstance(request.user, User)  # behind login_required
    redriven = webhook_dead_letters_redrive(
        tenant=tenant, actor=request.user, via="page", delivery_ids=chosen
    )
    if redriven:
        messages.success(request, f"Sending {len(redriven)} webhook events again.")
    else:
        messages.info(request, "Nothing to send again: no such dead letter.")
    return redirect("webhooks:dead_letters")
