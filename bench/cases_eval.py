"""How well the KYC case checks decide generated applicants (issue 36's closing figures).

``python bench/cases_eval.py [--applicants 40] [--seed 3600] [--case-date 2026-06-15]``

Each applicant is a synthetic passport holder (``synth``) with a utility bill in their name and at
their declared address, dated within the policy's recency. A share of them carry one planted
inconsistency: another person's bill, a stale bill (200 days old), a declared date of birth off
by one day, or a passport reused by a second applicant (who declares their own name). Every
case runs through the real checks and the real decision (``apps.cases.checks``,
``apps.cases.policy``) with the default policy; duplicates are looked up among the generated
applicants with the real duplicate keys (``apps.cases.fingerprints``), as the database does
among a tenant's cases.

The documents' fields are the generator's truth (no engine reading), so this measures the
checks and the policy, not the reading: the bill's printed name is the passport holder's printed
name (accents, hyphens) against the passport's MRZ spelling. Prints the cases decided as
expected and, per check, the planted inconsistencies it caught and missed and its false alarms
on consistent applicants; writes ``bench/results/cases-eval-<date>.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.cases.checks import checks_run  # noqa: E402
from apps.cases.checks.types import CaseFacts, DocumentFacts, DuplicateHit, Policy  # noqa: E402
from apps.cases.fingerprints import number_key  # noqa: E402
from apps.cases.policy import case_decision  # noqa: E402
from synth.documents import SyntheticDocument, document_rng, generate_document  # noqa: E402

# planted inconsistency -> the check meant to catch it, and the decision the case should get
PLANTED = {
    "consistent": ("", "approved"),
    "other_persons_bill": ("same_person", "needs_review"),
    "stale_bill": ("proof_of_address_recent", "resubmission_requested"),
    "date_of_birth_off_by_one": ("date_of_birth_consistent", "needs_review"),
    "reused_passport": ("no_duplicate_document_number", "needs_review"),
}
# one applicant in two is consistent; the rest cycle through the plants
CYCLE = (
    "consistent", "other_persons_bill", "consistent", "stale_bill",
    "consistent", "date_of_birth_off_by_one", "consistent", "reused_passport",
)  # fmt: skip
RECENT_DAYS, STALE_DAYS = 20, 200
SALT = "bench-tenant"


@dataclass
class Applicant:
    index: int
    planted: str
    passport: DocumentFacts
    bill: DocumentFacts
    declared: dict[str, str]
    passport_sha: str


def _passport(seed: int, index: int, case_date: dt.date) -> tuple[SyntheticDocument, int]:
    """The first adult, unexpired synthetic passport holder from ``index`` on (so a consistent
    applicant fails nothing by chance); its stream index."""
    while True:
        doc = generate_document(document_rng(seed, index), kind="passport", profile="clean")
        fields = doc.truth.fields
        born = dt.date.fromisoformat(fields["date_of_birth"])
        expires = dt.date.fromisoformat(fields["date_of_expiry"])
        if expires >= case_date and born <= case_date.replace(year=case_date.year - 19):
            return doc, index
        index += 1


def _bill(seed: int, index: int) -> SyntheticDocument:
    return generate_document(document_rng(seed + 1, index), kind="proof_of_address", profile="clean")


def applicants(count: int, seed: int, case_date: dt.date) -> list[Applicant]:
    made: list[Applicant] = []
    stream = 0
    for i in range(count):
        planted = CYCLE[i % len(CYCLE)]
        passport_doc, stream = _passport(seed, stream, case_date)
        stream += 1
        identity = passport_doc.identity
        assert identity is not None
        printed_name = f"{identity.printed_given_names} {identity.printed_surname}"
        bill_doc = _bill(seed, i)
        bill_fields = dict(bill_doc.truth.fields)
        age = STALE_DAYS if planted == "stale_bill" else RECENT_DAYS
        bill_fields["document_date"] = (case_date - dt.timedelta(days=age)).isoformat()
        if planted != "other_persons_bill":
            bill_fields["full_name"] = printed_name  # else: the bill's own (generated) holder
        passport_fields = dict(passport_doc.truth.fields)
        sha = f"passport-{seed}-{stream}"
        declared_dob = passport_fields["date_of_birth"]
        if planted == "date_of_birth_off_by_one":
            declared_dob = (dt.date.fromisoformat(declared_dob) + dt.timedelta(days=1)).isoformat()
        if planted == "reused_passport" and made:
            # the previous applicant's passport, sent by this applicant under their own name
            donor = made[-1]
            passport_fields, sha = dict(donor.passport.fields), donor.passport_sha
        declared = {
            "full_name": printed_name,
            "date_of_birth": declared_dob,
            **{k: v for k, v in bill_doc.truth.fields.items() if k.startswith("address_")},
        }
        made.append(
            Applicant(
                index=i,
                planted=planted,
                passport=DocumentFacts(
                    label="passport (document 1)",
                    document_type="passport",
                    status="auto_approved",
                    fields=passport_fields,
                    sources=dict.fromkeys(passport_fields, "mrz"),
                    document_id=f"{i}-1",
                    sha256=sha,
                ),
                bill=DocumentFacts(
                    label="proof_of_address (document 2)",
                    document_type="proof_of_address",
                    status="auto_approved",
                    fields=bill_fields,
                    sources=dict.fromkeys(bill_fields, "ocr"),
                    document_id=f"{i}-2",
                    sha256=f"bill-{seed}-{i}",
                ),
                declared=declared,
                passport_sha=sha,
            )
        )
    return made


def _duplicates(applicant: Applicant, everyone: list[Applicant]) -> tuple[DuplicateHit, ...]:
    """As ``apps.cases.selectors.case_duplicates_find`` among the other applicants' cases."""
    key = number_key(applicant.passport, salt=SALT)
    hits = set()
    for other in everyone:
        if other.index == applicant.index:
            continue
        if key and number_key(other.passport, salt=SALT) == key:
            hits.add(DuplicateHit("document_number", applicant.passport.label, str(other.index)))
        if other.passport_sha == applicant.passport_sha:
            hits.add(DuplicateHit("file", applicant.passport.label, str(other.index)))
    return tuple(sorted(hits, key=lambda h: (h.kind, h.case_id)))


def evaluate(count: int, seed: int, case_date: dt.date) -> dict[str, object]:
    people = applicants(count, seed, case_date)
    donors = {people[i - 1].index for i, a in enumerate(people) if a.planted == "reused_passport" and i}
    policy = Policy()
    correct = 0
    by_planted: dict[str, Counter[str]] = defaultdict(Counter)
    caught: dict[str, Counter[str]] = defaultdict(Counter)
    false_alarms: Counter[str] = Counter()
    rows = []
    for applicant in people:
        facts = CaseFacts(
            case_date=case_date,
            documents=(applicant.passport, applicant.bill),
            declared=applicant.declared,
            duplicates=_duplicates(applicant, people),
        )
        checks = checks_run(facts, policy)
        decision = case_decision(checks, policy)
        failed = sorted(c.name for c in checks if not c.passed)
        planted = applicant.planted
        check, expected = PLANTED[planted]
        if applicant.index in donors and planted == "consistent":
            # the first holder of a reused passport is flagged too: the same passport is in
            # another applicant's case, which a reviewer must see
            expected = "needs_review"
        ok = decision.outcome == expected
        correct += ok
        by_planted[planted]["cases"] += 1
        by_planted[planted]["decided_as_expected"] += ok
        if check:
            caught[check]["caught" if check in failed else "missed"] += 1
        elif applicant.index not in donors:
            false_alarms.update(failed)
        rows.append(
            {"applicant": applicant.index, "planted": planted, "expected": expected,
             "decision": decision.outcome, "rule": decision.rule, "failed_checks": failed}
        )  # fmt: skip
    return {
        "date": dt.date.today().isoformat(),
        "seed": seed,
        "applicants": count,
        "case_date": case_date.isoformat(),
        "fields_from": "generator truth (no engine reading); bill's printed name = passport holder's printed name",
        "policy": "defaults of apps/cases/knowledge/rules.toml",
        "decided_as_expected": correct,
        "by_planted": {k: dict(v) for k, v in by_planted.items()},
        "per_check": {k: {"caught": v["caught"], "missed": v["missed"]} for k, v in caught.items()},
        "false_alarms_on_consistent": dict(false_alarms),
        "cases": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--applicants", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3600)
    parser.add_argument("--case-date", type=dt.date.fromisoformat, default=dt.date(2026, 6, 15))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()
    result = evaluate(args.applicants, args.seed, args.case_date)
    print(f"fields from: {result['fields_from']}")
    print(f"cases decided as expected: {result['decided_as_expected']} of {result['applicants']}")
    for planted, counts in sorted(result["by_planted"].items()):  # type: ignore[attr-defined]
        print(f"  {planted:26} {counts['decided_as_expected']}/{counts['cases']}")
    print("planted inconsistencies per check (caught / missed):")
    for check, counts in sorted(result["per_check"].items()):  # type: ignore[attr-defined]
        print(f"  {check:30} {counts['caught']} / {counts['missed']}")
    print(f"false alarms on consistent applicants: {result['false_alarms_on_consistent'] or 'none'}")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"cases-eval-{result['date']}.json"
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


if __name__ == "__main__":
    main()
