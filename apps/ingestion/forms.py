"""Forms of the operators' pages: the upload (one or many files, zips included) and the list filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from apps.documents.models import DocumentStatus
from apps.ingestion.presentation import document_type_label, status_label
from engines.spec import DOCUMENT_TYPES

# What the file picker offers; the server still decides from the bytes (a renamed file is caught).
ACCEPTED_EXTENSIONS = ".jpg,.jpeg,.png,.tif,.tiff,.webp,.pdf,.zip"
TYPE_CHOICES = [(t, document_type_label(t)) for t in DOCUMENT_TYPES]
# "In progress" groups the states the pipeline still owes work on; the rest are single states.
IN_FLIGHT_FILTER = "in_flight"


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Many files under one name: the non-JavaScript form uploads them all in one post."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ACCEPTED_EXTENSIONS}))
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single_clean = super().clean
        if isinstance(data, list | tuple):
            return [single_clean(item, initial) for item in data]
        return [single_clean(data, initial)]


def type_choices(own_types: Sequence[str]) -> list[Any]:
    """The §3.2 types, and the tenant's own types (apps.doctypes) after them, grouped apart."""
    if not own_types:
        return TYPE_CHOICES
    return [
        ("Standard types", TYPE_CHOICES),
        ("Your organisation's types", [(name, document_type_label(name)) for name in own_types]),
    ]


class _TypedUpload(forms.Form):
    """An upload's type may be one of the tenant's own: ``own_types``, their names."""

    no_type_label = ""

    def __init__(self, *args: Any, own_types: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["document_type"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", self.no_type_label), *type_choices(own_types)]


class UploadForm(_TypedUpload):
    no_type_label = "Detect automatically"
    file = MultipleFileField(label="Files")
    document_type = forms.ChoiceField(
        required=False, choices=[("", no_type_label), *TYPE_CHOICES], label="Document type"
    )


class UploadOneForm(_TypedUpload):
    """The JSON endpoint's form: one file per request, so each has its own progress and answer."""

    file = forms.FileField()
    document_type = forms.ChoiceField(required=False, choices=[("", ""), *TYPE_CHOICES])


class DocumentFilterForm(forms.Form):
    status = forms.ChoiceField(
        required=False,
        choices=[
            ("", "Any status"),
            (IN_FLIGHT_FILTER, "In progress"),
            *[(s, status_label(s)) for s in DocumentStatus.values],
        ],
    )
    document_type = forms.ChoiceField(required=False, choices=[("", "Any type"), *TYPE_CHOICES], label="Type")
    q = forms.CharField(required=False, max_length=100, label="File name")
