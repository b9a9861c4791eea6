"""docs/decisions.md shows engines/spec/evidence.toml as tables: the kinds of evidence with their
weights, and per field kind the evidence that counts for a value and for an empty field. The page
is written by hand; this keeps it true when the data file changes."""

from __future__ import annotations

import re
from pathlib import Path

from engines.evidence import RULES
from engines.spec import CATALOGUE

DECISIONS = Path(__file__).resolve().parents[2] / "docs" / "decisions.md"
_CODE = re.compile(r"`([^`]+)`")


def _table(heading: str) -> list[list[str]]:
    """The cells of the body rows of the first table under ``## heading``."""
    text = DECISIONS.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _names(cell: str) -> list[str]:
    return _CODE.findall(cell) or [n.strip() for n in cell.split(",") if n.strip()]


def test_the_kinds_table_lists_exactly_the_kinds_with_their_weights_and_meanings():
    rows = _table("Kinds of evidence")
    assert [_names(kind)[0] for kind, _, _ in rows] == list(RULES.kinds)  # the data file's order
    for kind, weight, means in rows:
        rule = RULES.kinds[_names(kind)[0]]
        assert float(weight) == rule.weight, rule.name
        assert means == rule.means, rule.name


def test_the_requirements_table_lists_what_counts_for_every_field_kind():
    rows = _table("What counts for each field kind")
    assert [kind for kind, *_ in rows] == list(RULES.requirements)
    for kind, fields, counts, absence in rows:
        requirement = RULES.requirements[kind]
        assert set(_names(counts)) == requirement.counts, kind
        assert set(_names(absence)) == requirement.absence, kind
        assert set(_names(fields)) == {n for n, spec in CATALOGUE.fields.items() if spec.kind == kind}, kind


def test_the_page_states_what_an_approval_needs():
    text = DECISIONS.read_text(encoding="utf-8")
    assert f"**{RULES.needed:.1f}**" in text  # the 1.0 an approval needs, in bold in the prose
    assert "lacks evidence" in text
