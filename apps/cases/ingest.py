"""``manage.py ingest DIR --cases``: a folder per applicant, each opening one case.

The folder's name is the case's external reference (the same applicant's folder ingested again
is the same applicant, never their own duplicate); a ``declared.json`` beside the documents holds
what the applicant declared (``full_name``, ``date_of_birth``, ``address_*``).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

from apps.cases.models import Case, CaseStatus
from apps.cases.selectors import case_documents_in_flight
from apps.cases.services import DECLARED_FIELDS, SubmittedFile, case_create
from apps.documents.services import UploadRejectedError
from apps.tenants.models import Tenant

DECLARED_FILE = "declared.json"


def applicant_folders(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith("."))


def case_from_folder(*, tenant: Tenant, folder: Path, files: Sequence[Path]) -> Case:
    """The applicant's case; ValueError (saying why) for a folder without documents or with a file
    that cannot be one (nothing of that applicant is stored then)."""
    declared_path = folder / DECLARED_FILE
    declared = json.loads(declared_path.read_text(encoding="utf-8")) if declared_path.exists() else {}
    if not isinstance(declared, dict):
        raise ValueError(f"{DECLARED_FILE} must be an object")
    submitted = [SubmittedFile(str(p.relative_to(folder)), p.read_bytes()) for p in files]
    if not submitted:
        raise ValueError("no documents in the folder")
    try:
        return case_create(
            tenant=tenant,
            external_reference=folder.name[:200],
            declared={k: str(v) for k, v in declared.items() if k in DECLARED_FIELDS},
            files=submitted,
        )
    except UploadRejectedError as exc:
        raise ValueError(f"{exc.code}: {exc.message}") from exc


def cases_wait(case_ids: Sequence[uuid.UUID], wait_s: float) -> list[Case]:
    """The cases once each is decided (or ``wait_s`` has passed), in the order given."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        cases = list(Case.objects.filter(pk__in=list(case_ids)))
        if all(c.status != CaseStatus.OPEN and not case_documents_in_flight(case=c) for c in cases):
            break
        time.sleep(1.0)
    found = {c.pk: c for c in Case.objects.filter(pk__in=list(case_ids))}
    return [found[i] for i in case_ids if i in found]
