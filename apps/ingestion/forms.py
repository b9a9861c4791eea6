from django import forms

from apps.extraction.schemas import DOCUMENT_TYPES


class UploadForm(forms.Form):
    file = forms.FileField()
    document_type = forms.ChoiceField(
        required=False,
        choices=[("", "Detect automatically")] + [(t, t.replace("_", " ")) for t in DOCUMENT_TYPES],
    )
