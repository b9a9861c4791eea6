"""Required documents, unreadable and unreviewed documents, duplicates and the blocklist, as checks."""

from __future__ import annotations

from apps.cases.checks.documents import documents_readable, documents_reviewed, required_documents_present
from apps.cases.checks.duplicates import (
    document_number_not_blocklisted,
    no_duplicate_barcode,
    no_duplicate_document_number,
    no_duplicate_file,
)
from apps.cases.checks.types import DocumentFacts, DuplicateHit, Policy
from apps.cases.fingerprints import barcode_key, blocked, normalised_number, number_key
from tests.unit.cases.facts import case, doc

POLICY = Policy()


def test_required_documents_one_of_each_group() -> None:
    assert required_documents_present(case(doc("passport", 1), doc("bank_statement", 2)), POLICY).passed
    result = required_documents_present(case(doc("passport", 1), doc("invoice", 2)), POLICY)
    assert not result.passed and "one of proof_of_address, bank_statement" in result.detail


def test_a_failed_document_does_not_count_as_present_and_is_unreadable() -> None:
    facts = case(doc("passport", 1), doc("proof_of_address", 2, status="failed"))
    assert not required_documents_present(facts, POLICY).passed
    result = documents_readable(facts, POLICY)
    assert not result.passed and "proof_of_address (document 2) is failed" in result.detail


def test_a_policy_may_require_other_groups() -> None:
    policy = Policy(required_document_types=(("passport",),))
    assert not required_documents_present(case(doc("id_card", 1)), policy).passed
    assert required_documents_present(case(doc("passport", 1)), policy).passed


def test_a_document_waiting_for_review_is_named() -> None:
    result = documents_reviewed(case(doc("passport", 1, status="needs_review")), POLICY)
    assert not result.passed and "passport (document 1)" in result.detail


def test_duplicates_fail_with_links_to_the_other_cases_per_kind() -> None:
    facts = case(
        doc("passport", 1),
        duplicates=(
            DuplicateHit("document_number", "passport (document 1)", "case-b"),
            DuplicateHit("document_number", "passport (document 1)", "case-a"),
            DuplicateHit("file", "passport (document 1)", "case-a"),
        ),
    )
    number = no_duplicate_document_number(facts, POLICY)
    assert not number.passed and number.links == ("case-a", "case-b") and "2 other" in number.detail
    assert not no_duplicate_file(facts, POLICY).passed
    assert no_duplicate_barcode(facts, POLICY).passed


def test_blocklisted_documents_are_named() -> None:
    result = document_number_not_blocklisted(
        case(doc("passport", 1), blocklisted=("passport (document 1)",)), POLICY
    )
    assert not result.passed and "passport (document 1)" in result.detail


def test_number_keys_are_per_type_issuer_and_tenant_and_ignore_formatting() -> None:
    a = doc("passport", 1, document_number="N9171K", issuing_country="PHL")
    same = doc("passport", 2, document_number="n9171-k", issuing_country="PHL")
    other_country = doc("passport", 2, document_number="N9171K", issuing_country="THA")
    other_type = doc("id_card", 2, document_number="N9171K", issuing_country="PHL")
    bill = doc("proof_of_address", 2, document_number="N9171K")
    assert number_key(a, salt="t1") == number_key(same, salt="t1") != ""
    assert number_key(a, salt="t1") != number_key(a, salt="t2")
    assert number_key(a, salt="t1") not in {
        number_key(other_country, salt="t1"),
        number_key(other_type, salt="t1"),
    }
    assert number_key(bill, salt="t1") == ""
    assert normalised_number(" 273184-560 ") == "273184560"


def test_barcode_key_from_the_fields_read_from_the_barcode() -> None:
    fields = {"document_number": "273184-560", "surname": "CELIK", "date_of_birth": "2003-05-25"}
    licence = DocumentFacts("driver_license (document 1)", "driver_license", "auto_approved", fields,
                            dict.fromkeys(fields, "barcode"))  # fmt: skip
    photo_of_it = DocumentFacts("driver_license (document 1)", "driver_license", "auto_approved", fields,
                                dict.fromkeys(fields, "barcode"))  # fmt: skip
    printed_only = DocumentFacts("driver_license (document 1)", "driver_license", "auto_approved", fields,
                                 dict.fromkeys(fields, "ocr"))  # fmt: skip
    assert barcode_key(licence, salt="t") == barcode_key(photo_of_it, salt="t") != ""
    assert barcode_key(printed_only, salt="t") == ""


def test_blocklist_entries_narrow_by_type_and_issuer() -> None:
    passport = doc("passport", 1, document_number="N9171K", issuing_country="PHL")
    assert blocked(passport, number="n9171k", document_type="", issuer="")
    assert blocked(passport, number="N9171K", document_type="passport", issuer="phl")
    assert not blocked(passport, number="N9171K", document_type="id_card", issuer="")
    assert not blocked(passport, number="N9171K", document_type="", issuer="THA")
    assert not blocked(passport, number="N9171L", document_type="", issuer="")
