"""The operators' review pages and the supervisors' queue settings and dashboard.

Thin adapters: check the role, load through a scoped selector, call one service, shape the
answer. Who may see what:

- an uploader (or a user with no reviewing role anywhere) gets 403 on every review page, and an
  operator gets 403 on the supervisors' pages: the page exists, they may not use it;
- a task or queue id that is not the caller's tenant's answers 404, exactly like an id that does
  not exist, so ids of other tenants cannot be probed.

Field actions answer JSON when the page's script asks for it (``Accept: application/json``), so
confirming a field does not reload the page; without JavaScript the same forms post and redirect.
Refusals from the services carry a stable code (``apps.review.errors``), mapped here to an HTTP
status and a sentence an operator can act on.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.doctypes.selectors import document_custom_schema
from apps.documents.images import InvalidBoxError, box_check, png_crop
from apps.documents.models import AdvisoryState, DocumentStatus
from apps.documents.selectors import document_checks, document_field_get, document_page_image
from apps.ingestion.presentation import check_groups, check_regions, status_label
from apps.review import charts
from apps.review.dashboard import Dashboard, capture_counts_get, dashboard_get
from apps.review.errors import FieldNotFoundError, LeaseError, ReviewError, SameOperatorError, TaskStateError
from apps.review.forms import (
    CorrectForm,
    EscalateForm,
    NextTaskForm,
    QueueFilterForm,
    QueueForm,
    RejectForm,
)
from apps.review.models import ReviewQueue, ReviewTask, TaskStatus
from apps.review.permissions import REVIEWER_ROLES, SUPERVISOR_ROLES, is_supervisor, tenant_with_role
from apps.review.presentation import (
    KIND_LABELS,
    crop_box,
    deadline,
    document_type_label,
    duration_text,
    first_field_to_check,
    maker_checker_state,
    reason_rows,
    review_field_rows,
    task_status_label,
)
from apps.review.selectors import (
    review_queue_get_for_user,
    review_queue_summaries,
    review_task_corrections,
    review_task_fields,
    review_task_get_for_user,
    review_tasks_visible_to,
)
from apps.review.services import (
    review_field_confirm,
    review_field_correct,
    review_queue_create,
    review_queue_update,
    review_task_approve,
    review_task_claim_next,
    review_task_escalate,
    review_task_reject,
    review_task_release,
)
from apps.tenants.models import Tenant

TASKS_PER_PAGE = 50
DASHBOARD_PERIODS = (7, 14, 30, 90)
# HTTP status for each refusal code: 409 when the task moved on under the caller (someone else
# holds it, it is finished, the checker must differ), 400 for malformed input.
_ERROR_STATUS = {
    "permission_denied": 403,
    "not_lease_holder": 409,
    "invalid_task_state": 409,
    "checker_must_differ": 409,
    "field_not_found": 404,
    "invalid_input": 400,
}


# --- Access -------------------------------------------------------------------------------------


def _tenant(request: HttpRequest, roles: frozenset[str]) -> tuple[Tenant, str]:
    found = tenant_with_role(user=request.user, roles=roles)
    if found is None:
        raise PermissionDenied("this page needs one of the roles " + ", ".join(sorted(roles)))
    return found


def _task(request: HttpRequest, task_id: str) -> ReviewTask:
    """The task, if the caller reviews in its tenant: 403 for a non-reviewer, 404 for anything
    they may not see (another tenant's, or no such task)."""
    _tenant(request, REVIEWER_ROLES)
    task = review_task_get_for_user(user=request.user, task_id=task_id)
    if task is None:
        raise Http404("No such task")
    return task


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is behind login_required
    return request.user


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


# --- Refusals -----------------------------------------------------------------------------------


def refusal_message(*, error: ReviewError, task: ReviewTask | None, user: User) -> str:
    """What went wrong, in words that tell the operator what to do next."""
    if isinstance(error, LeaseError) and task is not None:
        task.refresh_from_db()
        now = timezone.now()
        if (
            task.lease_holder_id
            and task.lease_holder_id != user.pk
            and task.lease_expires_at
            and task.lease_expires_at > now
        ):
            holder = task.lease_holder.get_username() if task.lease_holder else "another operator"
            return (
                f"{holder} is working on this task now, so nothing was saved: your lease ran out "
                "and the task went back to the queue."
            )
        return "You no longer hold this task (your lease ran out and it was released), so nothing was saved. Take the next task."
    if isinstance(error, SameOperatorError):
        return "You approved this task as maker. A different operator has to check it."
    if isinstance(error, TaskStateError):
        if task is not None and task.status == TaskStatus.DONE:
            return "This task is already finished."
        return str(error)[:1].upper() + str(error)[1:] + "."
    if isinstance(error, FieldNotFoundError):
        return "The document has no such field."
    return str(error)[:1].upper() + str(error)[1:] + "."


def _refuse(request: HttpRequest, task: ReviewTask, error: ReviewError) -> HttpResponse:
    message = refusal_message(error=error, task=task, user=_user(request))
    status = _ERROR_STATUS.get(error.code, 400)
    if _wants_json(request):
        return JsonResponse({"error": {"code": error.code, "message": message}}, status=status)
    messages.error(request, message, extra_tags=error.code)
    return redirect("review:task_detail", task_id=task.pk)


# --- Queues and "next task" -----------------------------------------------------------------------


@login_required
@require_GET
def queue_list(request: HttpRequest) -> HttpResponse:
    """Every queue of the tenant with its depth and aging, and the waiting tasks in claim order."""
    tenant, role = _tenant(request, REVIEWER_ROLES)
    user = _user(request)
    now = timezone.now()
    form = QueueFilterForm(request.GET or None)
    document_type = form.cleaned_data["document_type"] if form.is_valid() else ""
    summaries = review_queue_summaries(user=user, tenant=tenant, now=now)
    tasks = review_tasks_visible_to(user=user, tenant=tenant, document_type=document_type or None, now=now)
    page = Paginator(tasks, TASKS_PER_PAGE).get_page(request.GET.get("page"))
    held = (
        ReviewTask.objects.filter(tenant=tenant, lease_holder=user, lease_expires_at__gt=now)
        .exclude(status=TaskStatus.DONE)
        .first()
    )
    context = {
        "tenant": tenant,
        "role": role,
        "is_supervisor": role in SUPERVISOR_ROLES,
        "form": form,
        "document_type": document_type,
        "type_label": document_type_label(document_type),
        "summaries": [
            {
                "summary": s,
                "oldest": duration_text(s.oldest_age) if s.oldest_age else "",
                "types": ", ".join(document_type_label(t) for t in s.queue.document_types) or "All types",
                "sla": duration_text(s.queue.sla),
            }
            for s in summaries
        ],
        "totals": {
            "depth": sum(s.depth for s in summaries),
            "breached": sum(s.sla_breached for s in summaries),
            "in_progress": sum(s.in_progress for s in summaries),
            "escalated": sum(s.escalated for s in summaries),
        },
        "page": page,
        "rows": [_task_row(t, now=now, user=user) for t in page.object_list],
        "held": held,
    }
    return render(request, "review/queue_list.html", context)


def _task_row(task: Any, *, now: dt.datetime, user: User) -> dict[str, Any]:
    return {
        "task": task,
        "type": document_type_label(task.document_type),
        "kind": KIND_LABELS.get(task.kind, task.kind),
        "status": task_status_label(task),
        "age": duration_text(task.age),
        "deadline": deadline(due_at=task.due_at, now=now, sla=task.queue.sla),
        "holder": task.lease_holder.get_username() if task.is_leased and task.lease_holder else "",
        "mine": task.is_leased and task.lease_holder_id == user.pk,
        "own_approval": task.status == TaskStatus.AWAITING_CHECK and task.maker_id == user.pk,
    }


@login_required
@require_POST
def task_next(request: HttpRequest) -> HttpResponse:
    """Lease the next task (of one queue or type, if asked) and open it; back to the list when
    there is nothing to take."""
    tenant, _ = _tenant(request, REVIEWER_ROLES)
    form = NextTaskForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That queue or document type does not exist.")
        return redirect("review:queue_list")
    queue = None
    if form.cleaned_data["queue"]:
        queue = review_queue_get_for_user(user=request.user, queue_id=str(form.cleaned_data["queue"]))
        if queue is None or queue.tenant_id != tenant.pk:
            raise Http404("No such queue")
    task = review_task_claim_next(
        user=_user(request),
        tenant=tenant,
        queue=queue,
        document_type=form.cleaned_data["document_type"] or None,
    )
    if task is None:
        message = _nothing_to_take(user=_user(request), tenant=tenant, queue=queue)
        messages.info(request, message, extra_tags="queue_empty")
        return redirect(reverse("review:queue_list") + _type_query(form.cleaned_data["document_type"]))
    return redirect("review:task_detail", task_id=task.pk)


def _nothing_to_take(*, user: User, tenant: Tenant, queue: ReviewQueue | None) -> str:
    """Why "next task" came back empty-handed: nothing waits, or what waits is not for this user."""
    waiting = review_tasks_visible_to(user=user, tenant=tenant, queue=queue).count()
    where = f" in {queue.name}" if queue else ""
    if not waiting:
        return f"No task for you right now: the queue{where} is empty."
    if waiting == 1:
        return "No task for you right now: the waiting task is being worked on or needs another reviewer."
    return f"No task for you right now: the {waiting} waiting tasks are being worked on or need another reviewer."


def _type_query(document_type: str) -> str:
    return f"?document_type={document_type}" if document_type else ""


# --- The review screen ----------------------------------------------------------------------------


@login_required
@require_GET
def task_detail(request: HttpRequest, task_id: str) -> HttpResponse:
    """Each field beside the crop of the page it came from, with the decision's reasons, the
    checks, maker-checker state and the actions; read-only for anyone not holding the lease."""
    task = _task(request, task_id)
    user = _user(request)
    now = timezone.now()
    corrections = list(review_task_corrections(task=task))
    engine_values: dict[str, str | None] = {}
    for c in corrections:
        engine_values.setdefault(c.field.name, c.old_value)
    custom = document_custom_schema(document=task.document)
    rows = review_field_rows(
        task=task, fields=review_task_fields(task=task), engine_values=engine_values, custom=custom
    )
    holding = (
        task.lease_holder_id == user.pk and task.lease_expires_at is not None and task.lease_expires_at > now
    )
    extraction = task.document.extractions.order_by("-created_at").first()
    checks = document_checks(
        page_checks=task.document.page_checks,
        reading_checks=extraction.checks if extraction else [],
        fields=extraction.fields.all() if extraction else [],
    )
    regions = check_regions(checks)
    pages = [
        {
            "number": p.number,
            "url": reverse("ingestion:page_image", args=[task.document_id, p.number]),
            "fields": [r for r in rows if r.page == p.number and r.bbox],
            "regions": [r for r in regions if r.page == p.number],
        }
        for p in task.document.pages.all()
    ]
    context = {
        "task": task,
        "document": task.document,
        "document_status": status_label(task.document.status),
        "type": document_type_label(task.document_type),
        "kind": KIND_LABELS.get(task.kind, task.kind),
        "status": task_status_label(task),
        "rows": rows,
        "active_key": first_field_to_check(rows),
        "flagged": sum(1 for r in rows if r.flag),
        "checked": sum(1 for r in rows if r.review),
        "reasons": reason_rows(task.reasons or [], custom=custom),
        "check_groups": check_groups({"checks": checks}),
        # the advisory authenticity signals, computed after the decision (apps.documents.advisory)
        "advisory_pending": task.document.advisory_state == AdvisoryState.PENDING,
        "pages": pages,
        "corrections": corrections,
        "holding": holding,
        "can_act": holding and task.status != TaskStatus.DONE,
        "holder": task.lease_holder.get_username()
        if task.lease_holder and task.lease_expires_at and task.lease_expires_at > now
        else "",
        "is_supervisor": is_supervisor(user=user, tenant=task.tenant),
        "age": duration_text(now - task.created_at),
        "deadline": deadline(due_at=task.due_at, now=now, sla=task.queue.sla),
        "check": maker_checker_state(task=task, user=user),
        "reject_form": RejectForm(),
        "escalate_form": EscalateForm(),
        "lease_left": _lease_left(task, now),
        "lease_left_text": duration_text(dt.timedelta(seconds=_lease_left(task, now))),
        "needs_review": task.document.status == DocumentStatus.NEEDS_REVIEW,
    }
    return render(request, "review/task_detail.html", context)


@login_required
@require_POST
def field_confirm(request: HttpRequest, task_id: str, name: str) -> HttpResponse:
    task = _task(request, task_id)
    try:
        review_field_confirm(task=task, user=_user(request), field_name=name)
    except ReviewError as error:
        return _refuse(request, task, error)
    return _field_done(request, task, name, "confirmed")


@login_required
@require_POST
def field_correct(request: HttpRequest, task_id: str, name: str) -> HttpResponse:
    task = _task(request, task_id)
    form = CorrectForm(request.POST)
    if not form.is_valid():
        if _wants_json(request):
            return JsonResponse(
                {"error": {"code": "invalid_input", "message": "The value is too long."}}, status=400
            )
        messages.error(request, "The value is too long.")
        return redirect("review:task_detail", task_id=task.pk)
    maker_before = task.maker_id
    try:
        label = review_field_correct(
            task=task, user=_user(request), field_name=name, value=form.cleaned_data["value"]
        )
    except ReviewError as error:
        return _refuse(request, task, error)
    task.refresh_from_db()
    withdrawn = maker_before is not None and task.maker_id is None
    if withdrawn and not _wants_json(request):
        messages.warning(request, "The maker's approval was withdrawn: the values changed after it.")
    return _field_done(
        request, task, name, "confirmed" if label.correct else "corrected", withdrawn=withdrawn
    )


def _lease_left(task: ReviewTask, now: dt.datetime) -> int:
    """Seconds of lease left, for the page's countdown: relative, so the browser's clock does not matter."""
    if task.lease_expires_at is None:
        return 0
    return max(int((task.lease_expires_at - now).total_seconds()), 0)


def _field_done(
    request: HttpRequest, task: ReviewTask, name: str, review: str, *, withdrawn: bool = False
) -> HttpResponse:
    if not _wants_json(request):
        return HttpResponseRedirect(reverse("review:task_detail", args=[task.pk]) + f"#field-{name}")
    task.refresh_from_db()
    field = next((f for f in review_task_fields(task=task) if f.name == name), None)
    first = review_task_corrections(task=task).filter(field__name=name).first()
    return JsonResponse(
        {
            "field": name,
            "review": review,
            "engine_value": first.old_value if first is not None else None,
            "value": field.value if field else None,
            "confidence": field.confidence if field else None,
            "lease_left_s": _lease_left(task, timezone.now()),
            "maker_approval_withdrawn": withdrawn,
        }
    )


@login_required
@require_POST
def task_approve(request: HttpRequest, task_id: str) -> HttpResponse:
    task = _task(request, task_id)
    try:
        done = review_task_approve(task=task, user=_user(request))
    except ReviewError as error:
        return _refuse(request, task, error)
    name = task.document.original_name
    if done.status == TaskStatus.AWAITING_CHECK:
        messages.success(
            request,
            f"Approved {name} as maker. It now waits for a second operator to check it.",
            extra_tags="maker",
        )
    else:
        messages.success(request, f"Approved {name}.", extra_tags="approved")
    return redirect("review:queue_list")


@login_required
@require_POST
def task_reject(request: HttpRequest, task_id: str) -> HttpResponse:
    task = _task(request, task_id)
    form = RejectForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a reason for the rejection.")
        return redirect("review:task_detail", task_id=task.pk)
    try:
        review_task_reject(
            task=task, user=_user(request), reason=form.cleaned_data["reason"], note=form.cleaned_data["note"]
        )
    except ReviewError as error:
        return _refuse(request, task, error)
    reason = dict(form.fields["reason"].choices)[form.cleaned_data["reason"]]  # type: ignore[attr-defined]
    messages.success(
        request, f"Rejected {task.document.original_name}: {str(reason).lower()}.", extra_tags="rejected"
    )
    return redirect("review:queue_list")


@login_required
@require_POST
def task_escalate(request: HttpRequest, task_id: str) -> HttpResponse:
    task = _task(request, task_id)
    form = EscalateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say what the supervisor should look at.")
        return redirect("review:task_detail", task_id=task.pk)
    try:
        review_task_escalate(task=task, user=_user(request), note=form.cleaned_data["note"])
    except ReviewError as error:
        return _refuse(request, task, error)
    messages.success(
        request, f"Escalated {task.document.original_name} to a supervisor.", extra_tags="escalated"
    )
    return redirect("review:queue_list")


@login_required
@require_POST
def task_release(request: HttpRequest, task_id: str) -> HttpResponse:
    task = _task(request, task_id)
    try:
        review_task_release(task=task, user=_user(request))
    except ReviewError as error:
        return _refuse(request, task, error)
    messages.info(
        request,
        f"Released {task.document.original_name} back to its queue, unchanged.",
        extra_tags="released",
    )
    return redirect("review:queue_list")


_PRIVATE = "private, no-store, max-age=0"


@login_required
@require_GET
def field_crop(request: HttpRequest, task_id: str, name: str) -> HttpResponse:
    """The close-up of one field, cut on the server: the review screen draws its crops from the page
    image it already loaded (one decrypted image per page instead of one per field), and falls back
    to this without JavaScript."""
    task = _task(request, task_id)
    field = document_field_get(document=task.document, name=name)
    bbox = field.bbox if field is not None else None
    png = document_page_image(document=task.document, number=field.page) if field and bbox else None
    if not bbox or png is None:
        raise Http404("No such field box")
    try:
        crop = png_crop(png, crop_box(box_check(bbox)), pad=0.0, max_side=900)
    except InvalidBoxError as exc:
        raise Http404("The field's box is empty") from exc
    response = HttpResponse(crop, content_type="image/png")
    response["Cache-Control"] = _PRIVATE
    response["Vary"] = "Cookie"
    return response


# --- Supervisors: queue settings ----------------------------------------------------------------


@login_required
@require_GET
def queue_manage(request: HttpRequest) -> HttpResponse:
    tenant, _ = _tenant(request, SUPERVISOR_ROLES)
    summaries = review_queue_summaries(user=request.user, tenant=tenant)
    rows = [
        {
            "summary": s,
            "types": ", ".join(document_type_label(t) for t in s.queue.document_types) or "All types",
            "kinds": ", ".join(KIND_LABELS.get(k, k) for k in s.queue.task_kinds) or "Both",
            "maker_checker": ", ".join(document_type_label(t) for t in s.queue.maker_checker_document_types),
            "sla": duration_text(s.queue.sla),
            "qa": f"{s.queue.effective_qa_sample_rate * 100:g}%"
            + ("" if s.queue.qa_sample_rate is not None else " (default)"),
        }
        for s in summaries
    ]
    return render(request, "review/queue_manage.html", {"tenant": tenant, "rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def queue_create(request: HttpRequest) -> HttpResponse:
    tenant, _ = _tenant(request, SUPERVISOR_ROLES)
    form = QueueForm(request.POST or None, initial={"priority": 0, "sla_hours": 24})
    if request.method == "POST" and form.is_valid():
        try:
            queue = review_queue_create(tenant=tenant, actor=_user(request), config=form.settings())
        except ReviewError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Created the queue {queue.name}.")
            return redirect("review:queue_manage")
    return render(
        request, "review/queue_form.html", {"form": form, "queue": None}, status=400 if form.errors else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def queue_edit(request: HttpRequest, queue_id: str) -> HttpResponse:
    tenant, _ = _tenant(request, SUPERVISOR_ROLES)
    queue = review_queue_get_for_user(user=request.user, queue_id=queue_id)
    if queue is None or queue.tenant_id != tenant.pk:
        raise Http404("No such queue")
    form = QueueForm(request.POST or None, initial=QueueForm.initial_for(queue))
    if request.method == "POST" and form.is_valid():
        try:
            review_queue_update(queue=queue, actor=_user(request), config=form.settings())
        except ReviewError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Saved the queue {form.cleaned_data['name']}.")
            return redirect("review:queue_manage")
    return render(
        request, "review/queue_form.html", {"form": form, "queue": queue}, status=400 if form.errors else 200
    )


# --- Supervisors: dashboard ---------------------------------------------------------------------


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    tenant, _ = _tenant(request, SUPERVISOR_ROLES)
    try:
        days = int(request.GET.get("days", 14))
    except ValueError:
        days = 14
    days = days if days in DASHBOARD_PERIODS else 14
    data = dashboard_get(user=request.user, tenant=tenant, days=days)
    context = {
        "tenant": tenant,
        "data": data,
        "capture": capture_counts_get(tenant=tenant, days=days),
        "days": days,
        "periods": DASHBOARD_PERIODS,
        **_dashboard_charts(data),
    }
    return render(request, "review/dashboard.html", context)


def _dashboard_charts(data: Dashboard) -> dict[str, Any]:
    """The dashboard's charts as inline SVG (``apps.review.charts``)."""
    day_labels = [f"{d.date:%d %b}" for d in data.days]
    throughput = charts.column_chart(
        label="Documents finished per day, and the share decided without a person",
        categories=day_labels,
        series=[
            charts.Series("Auto-approved", "auto", [d.auto_approved for d in data.days]),
            charts.Series("Approved in review", "approved", [d.approved for d in data.days]),
            charts.Series("Rejected", "rejected", [d.rejected for d in data.days]),
        ],
        line=charts.Series("Straight-through rate", "rate", [d.straight_through_rate for d in data.days]),
        width=1160,
        height=260,
    )
    ages = charts.column_chart(
        label="Waiting tasks by age",
        categories=[label for label, _ in data.age_buckets],
        series=[charts.Series("Waiting tasks", "waiting", [n for _, n in data.age_buckets])],
        width=620,
        height=250,
    )
    queues = charts.bar_list(
        label="Queue depth, split by deadline",
        rows=[
            charts.BarRow(
                label=q.queue.name,
                note=(f"oldest {duration_text(q.oldest_age)}" if q.oldest_age else "empty"),
                segments=[
                    charts.Segment(
                        q.depth - q.sla_breached, "waiting", f"{q.depth - q.sla_breached} within SLA"
                    ),
                    charts.Segment(q.sla_breached, "rejected", f"{q.sla_breached} past their deadline"),
                ],
                text=f"{q.depth}" + (f" · {q.sla_breached} late" if q.sla_breached else ""),
            )
            for q in data.queues
        ],
        legend=[charts.LegendItem("Within SLA", "waiting"), charts.LegendItem("Past deadline", "rejected")],
    )
    fields = charts.bar_list(
        label="Share of reviewed values operators corrected, per field",
        rows=[
            charts.BarRow(
                label=f"{document_type_label(r.document_type)} · {r.name.replace('_', ' ')}",
                segments=[charts.Segment(r.rate, "rejected", f"{r.corrected} of {r.reviewed} corrected")],
                text=f"{r.rate * 100:.0f}% ({r.corrected}/{r.reviewed})",
            )
            for r in data.field_rates[:12]
        ],
        scale=max((r.rate for r in data.field_rates[:12]), default=0) or 1.0,
    )
    confidence = charts.column_chart(
        label="Calibrated confidence of extracted fields, by what review said",
        categories=[f"{b.low:.1f}" for b in data.confidence_bins],
        series=[
            charts.Series("Confirmed", "approved", [b.confirmed for b in data.confidence_bins]),
            charts.Series("Corrected", "rejected", [b.corrected for b in data.confidence_bins]),
            charts.Series("Not reviewed", "unreviewed", [b.unreviewed for b in data.confidence_bins]),
        ],
        line=charts.Series(
            "Corrected share of reviewed",
            "rate",
            [
                b.corrected / (b.confirmed + b.corrected) if b.confirmed + b.corrected else None
                for b in data.confidence_bins
            ],
        ),
        width=620,
        height=250,
    )
    latency = {
        name: charts.bar_list(
            label=f"{title} latency percentiles",
            rows=[
                charts.BarRow(
                    label=p_name,
                    segments=[
                        charts.Segment(value or 0, css, f"{p_name}: {charts.seconds_text(value or 0)}")
                    ],
                    text=charts.seconds_text(value) if value is not None else "—",
                )
                for p_name, value, css in (
                    ("p50", pct.p50, "p50"),
                    ("p90", pct.p90, "p90"),
                    ("p99", pct.p99, "p99"),
                )
            ]
            if pct.count
            else [],
        )
        for name, title, pct in (
            ("latency_processing", "Upload to decision", data.processing),
            ("latency_review", "Routed to finished", data.review),
            ("latency_handle", "Claim to finish", data.handle),
        )
    }
    return {
        "chart_throughput": throughput,
        "chart_ages": ages,
        "chart_queues": queues,
        "chart_fields": fields,
        "chart_confidence": confidence,
        **latency,
    }
