"""Forms of the review pages. They check the shape of what was posted; the services decide whether
it is allowed (lease, state, role) and the queue rules whether settings make sense."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from apps.review import rules
from apps.review.models import RejectReason, ReviewQueue
from apps.review.presentation import REJECT_REASON_HELP, document_type_label
from apps.review.services import QueueSettings
from engines.spec import DOCUMENT_TYPES

TYPE_CHOICES = [(t, document_type_label(t)) for t in DOCUMENT_TYPES]
KIND_CHOICES = [(rules.REVIEW, "Reviews"), (rules.QUALITY_AUDIT, "Quality audits of auto-approved documents")]
NOTE_MAX = 2000


class NextTaskForm(forms.Form):
    queue = forms.UUIDField(required=False)
    document_type = forms.ChoiceField(required=False, choices=[("", "Any type"), *TYPE_CHOICES])


class QueueFilterForm(forms.Form):
    document_type = forms.ChoiceField(required=False, choices=[("", "Any type"), *TYPE_CHOICES], label="Type")


class CorrectForm(forms.Form):
    # Blank is allowed: it says the document has no such value.
    value = forms.CharField(required=False, max_length=1000, strip=True)


class RejectForm(forms.Form):
    reason = forms.ChoiceField(
        choices=[(r.value, r.label) for r in RejectReason], widget=forms.RadioSelect, label="Reason"
    )
    note = forms.CharField(required=False, max_length=NOTE_MAX, widget=forms.Textarea(attrs={"rows": 3}))

    def reason_choices(self) -> list[tuple[int, str, str, str]]:
        """(shortcut digit, code, label, help) for the reason picker."""
        return [
            (i, r.value, r.label, REJECT_REASON_HELP.get(r, "")) for i, r in enumerate(RejectReason, start=1)
        ]


class EscalateForm(forms.Form):
    note = forms.CharField(max_length=NOTE_MAX, widget=forms.Textarea(attrs={"rows": 3}))


class QueueForm(forms.Form):
    """A queue's settings as a supervisor edits them: the SLA in hours, the QA rate in percent."""

    name = forms.CharField(max_length=100)
    document_types = forms.MultipleChoiceField(
        required=False,
        choices=TYPE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: the queue takes every type no more specific queue takes.",
    )
    task_kinds = forms.MultipleChoiceField(
        required=False,
        choices=KIND_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: both kinds.",
    )
    priority = forms.IntegerField(
        initial=0, min_value=-100, max_value=100, help_text="Higher is served first."
    )
    sla_hours = forms.DecimalField(
        label="SLA (hours)",
        initial=24,
        min_value=0.05,
        max_value=24 * 90,
        decimal_places=2,
        help_text="From routing to the deadline, for tasks routed from now on.",
    )
    maker_checker_document_types = forms.MultipleChoiceField(
        required=False,
        choices=TYPE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        label="Maker-checker",
        help_text="Reviews of these types need a second, different operator to approve.",
    )
    qa_sample_percent = forms.DecimalField(
        label="Quality-audit sample (%)",
        required=False,
        min_value=0,
        max_value=100,
        decimal_places=2,
        help_text="Share of auto-approved documents drawn for audit. Blank: the installation's default.",
    )

    @classmethod
    def initial_for(cls, queue: ReviewQueue) -> dict[str, Any]:
        return {
            "name": queue.name,
            "document_types": queue.document_types,
            "task_kinds": queue.task_kinds,
            "priority": queue.priority,
            "sla_hours": round(queue.sla.total_seconds() / 3600, 2),
            "maker_checker_document_types": queue.maker_checker_document_types,
            "qa_sample_percent": None
            if queue.qa_sample_rate is None
            else round(queue.qa_sample_rate * 100, 2),
        }

    def settings(self) -> QueueSettings:
        data = self.cleaned_data
        percent = data.get("qa_sample_percent")
        return QueueSettings(
            name=data["name"],
            document_types=data["document_types"],
            task_kinds=data["task_kinds"],
            priority=data["priority"],
            sla=dt.timedelta(hours=float(data["sla_hours"])),
            maker_checker_document_types=data["maker_checker_document_types"],
            qa_sample_rate=None if percent is None else float(percent) / 100,
        )
