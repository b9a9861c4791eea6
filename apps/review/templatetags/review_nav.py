"""``{% review_nav %}``: the review pages' links in the main navigation, for the roles that may use
them (operators see Review; supervisors and admins also Queues and Dashboard). A tag rather than
a context processor so that pages which never show the menu pay no query for it."""

from __future__ import annotations

from typing import Any

from django import template

from apps.review.permissions import REVIEWER_ROLES, SUPERVISOR_ROLES
from apps.tenants.models import Membership

register = template.Library()

_REVIEW_PAGES = {"queue_list", "task_detail"}
_QUEUE_PAGES = {"queue_manage", "queue_create", "queue_edit"}


@register.inclusion_tag("review/_nav.html", takes_context=True)
def review_nav(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    roles = set(Membership.objects.filter(user=user).values_list("role", flat=True))
    match = getattr(request, "resolver_match", None)
    current = match.url_name if match is not None and match.namespace == "review" else ""
    return {
        "show": bool(roles & REVIEWER_ROLES),
        "supervisor": bool(roles & SUPERVISOR_ROLES),
        "on_review": current in _REVIEW_PAGES,
        "on_queues": current in _QUEUE_PAGES,
        "on_dashboard": current == "dashboard",
    }
