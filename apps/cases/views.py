"""The case queue and the case review screen (operators, supervisors and admins of the tenant).

Thin, like ``apps.review.views``: check the role, load through a tenant-scoped selector, call one
service, shape the answer. A case of another tenant answers 404, exactly like one that does not
exist; an uploader gets 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from apps.cases.models import Case, CaseReviewTask, CaseStatus, CaseTaskStatus
from apps.cases.packets.services import PacketChangedError, case_packet_resplit
from apps.cases.packets.split import parse_ranges, ranges_text
from apps.cases.presentation import check_rows, columns, field_order, shortcuts
from apps.cases.review import DECISIONS, CaseReviewError, case_review_decide
from apps.cases.selectors import (
    case_advisory_pending,
    case_document_facts,
    case_get_for_tenant,
    case_packets,
    case_policy_get,
    case_review_next,
    case_review_task_of,
    case_review_tasks_waiting,
)
from apps.cases.services import CaseClosedError
from apps.review.permissions import REVIEWER_ROLES, tenant_with_role
from apps.tenants.models import Tenant

DECISION_LABELS = {
    "approved": "Approved",
    "rejected": "Rejected",
    "resubmission_requested": "Resubmission requested",
    "needs_review": "Needs review",
}


def _tenant(request: HttpRequest) -> Tenant:
    found = tenant_with_role(user=request.user, roles=REVIEWER_ROLES)
    if found is None:
        raise PermissionDenied("the case pages need one of the roles " + ", ".join(sorted(REVIEWER_ROLES)))
    return found[0]


def _case(request: HttpRequest, case_id: str) -> Case:
    case = case_get_for_tenant(tenant=_tenant(request), case_id=case_id)
    if case is None:
        raise Http404("No such case")
    return case


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is behind login_required
    return request.user


@login_required
@require_GET
def case_queue(request: HttpRequest) -> HttpResponse:
    tenant = _tenant(request)
    tasks = list(case_review_tasks_waiting(tenant=tenant)[:200])
    return render(request, "cases/case_queue.html", {"tasks": tasks, "keys": shortcuts()})


@login_required
@require_POST
def case_next(request: HttpRequest) -> HttpResponse:
    tenant = _tenant(request)
    task = case_review_next(tenant=tenant, user_id=_user(request).pk)
    if task is None:
        messages.info(request, "No case is waiting for you.")
        return redirect("cases:case_queue")
    return redirect("cases:case_detail", case_id=task.case_id)


def _task_state(task: CaseReviewTask | None, user: User, maker_checker: bool) -> dict[str, Any]:
    waiting = task is not None and task.status != CaseTaskStatus.DONE
    is_maker = bool(task and task.maker_id == user.pk)
    if not waiting:
        text = ""
    elif task is not None and task.status == CaseTaskStatus.AWAITING_CHECK:
        who = task.maker.get_username() if task.maker else "an operator"
        text = (
            f"Approved by {who} as maker: a second, different operator must check it."
            if not is_maker
            else "You approved this case as maker: a second, different operator must check it."
        )
    elif maker_checker:
        text = "Your approval is the first of two: a second, different operator checks it."
    else:
        text = ""
    return {"waiting": waiting, "is_maker": is_maker, "text": text}


@login_required
@require_GET
def case_detail(request: HttpRequest, case_id: str) -> HttpResponse:
    """The applicant's documents side by side, the fields the checks compare, each check's
    outcome and the decisions, all reachable from the keyboard."""
    case = _case(request, case_id)
    user = _user(request)
    rows = check_rows(case.checks)
    documents = [
        (
            link.position,
            facts,
            reverse("ingestion:page_image", args=[link.document_id, 1])
            if link.document.pages.exists()
            else "",
        )
        for link, facts in case_document_facts(case=case)
    ]
    cols = columns(documents=documents, declared=case.declared, rows=rows)
    # the rows some column has a value for
    shown = {cell["name"] for col in cols for cell in col.cells if cell["value"]}
    task = case_review_task_of(case=case)
    policy = case_policy_get(tenant=case.tenant)
    state = _task_state(task, user, policy.maker_checker)
    can_act = state["waiting"] and case.status == CaseStatus.IN_REVIEW and not state["is_maker"]
    packets = [
        {
            "packet": p,
            "ranges": ranges_text([(int(x["first"]), int(x["last"])) for x in p.parts]),
            "parts": p.parts,
        }
        for p in case_packets(case=case)
    ]
    context = {
        "case": case,
        "decision_label": DECISION_LABELS.get(case.decision, case.decision or "Not decided yet"),
        "rows": rows,
        "failed": sum(1 for r in rows if not r.passed),
        "columns": cols,
        "fields": [name for name in field_order() if name in shown],
        "task": task,
        "state": state,
        "can_act": can_act,
        "packets": packets,
        "can_resplit": case.status not in (CaseStatus.APPROVED, CaseStatus.REJECTED),
        "advisory_pending": case_advisory_pending(case=case),
        "keys": shortcuts(),
    }
    return render(request, "cases/case_detail.html", context)


@login_required
@require_POST
def case_decide(request: HttpRequest, case_id: str) -> HttpResponse:
    case = _case(request, case_id)
    task = case_review_task_of(case=case)
    decision = request.POST.get("decision", "")
    if task is None or decision not in DECISIONS:
        messages.error(request, "This case is not waiting for a decision.")
        return redirect("cases:case_detail", case_id=case.pk)
    try:
        result = case_review_decide(
            task=task, user=_user(request), decision=decision, note=request.POST.get("note", "")[:2000]
        )
    except CaseReviewError as error:
        if error.code == "permission_denied":
            raise PermissionDenied(error.message) from error
        messages.error(request, error.message)
        return redirect("cases:case_detail", case_id=case.pk)
    if not result.final:
        messages.success(request, "Approved as maker. The case now waits for a second operator.")
        return redirect("cases:case_queue")
    messages.success(request, f"Case decided: {DECISION_LABELS[decision].lower()}.")
    following = case_review_next(tenant=case.tenant, user_id=_user(request).pk, after=case.pk)
    if following is not None:
        return redirect("cases:case_detail", case_id=following.case_id)
    return redirect("cases:case_queue")


@login_required
@require_POST
def packet_resplit(request: HttpRequest, case_id: str, packet_id: str) -> HttpResponse:
    """A reviewer's corrected split of a packet ("1 | 2 | 3-4")."""
    case = _case(request, case_id)
    packet = next((p for p in case_packets(case=case) if str(p.pk) == packet_id), None)
    if packet is None:
        raise Http404("No such packet")
    try:
        ranges = parse_ranges(request.POST.get("ranges", ""), packet.page_count)
        case_packet_resplit(packet=packet, ranges=ranges, user=_user(request))
    except ValueError as exc:
        messages.error(request, f"Split not changed: {exc}.")
    except (CaseClosedError, PacketChangedError):
        messages.error(request, "Split not changed: the case is closed or a document of the packet is gone.")
    else:
        messages.success(request, f"Packet split as {ranges_text(ranges)}; the case is read again.")
    return redirect("cases:case_detail", case_id=case.pk)
