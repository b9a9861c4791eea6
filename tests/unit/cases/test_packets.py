"""Packets: one uploaded PDF holding several documents is cut into them by page classification
and page continuity, recorded on the case, and re-cut when a reviewer corrects the split."""

from __future__ import annotations

import pytest

from apps.audit.models import AuditEvent
from apps.cases.models import CaseDocument, CasePacket
from apps.cases.packets.services import case_packet_resplit
from apps.cases.packets.split import PageGuess, page_cue, parse_ranges, ranges_text, split_ranges
from apps.cases.services import SubmittedFile, case_create
from apps.documents import blobs
from engines.layout import Line, PageText
from tests.support.packets import packet_pdf, pdf_pages


def page(number: int, *texts: str) -> PageText:
    return PageText(
        page=number,
        source="text_layer",
        lines=tuple(Line(text=t, score=1.0, bbox=(0.1, 0.05 * i, 0.9, 0.05 * i + 0.04), page=number)
                    for i, t in enumerate(texts)),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Page 2 of 3", (2, 3)),
        ("Seite 1/2", (1, 2)),
        ("Página 2 de 2", (2, 2)),
        ("p. 3 of 4", (3, 4)),
        ("2/3", (2, 3)),
        ("Invoice 12/2024", None),
        ("Page 4 of 3", None),
    ],
)
def test_page_number_cues_are_read_in_several_languages(text: str, cue: tuple[int, int] | None) -> None:
    assert page_cue(page(1, "ACME ENERGY", text)) == cue


def test_a_passport_a_bill_and_a_numbered_statement_make_three_documents() -> None:
    """GIVEN no confident type but for the passport (as with an unfitted model), WHEN the pages
    are cut, THEN the page-number cues and the passport's single page decide."""
    guesses = [
        PageGuess(1, "passport", 0.99),
        PageGuess(2, "other", 0.12, heading=("york city council",)),
        PageGuess(3, "other", 0.12, cue=(1, 2), heading=("redfern bank ag",)),
        PageGuess(4, "other", 0.12, cue=(2, 2), heading=("redfern bank ag",)),
    ]
    assert split_ranges(guesses) == [(1, 1), (2, 2), (3, 4)]


def test_continuity_follows_headings_and_confident_types_but_not_a_finished_document() -> None:
    same_issuer = [
        PageGuess(1, "other", 0.1, heading=("acme bank",)),
        PageGuess(2, "other", 0.1, heading=("acme bank",)),
    ]
    assert split_ranges(same_issuer) == [(1, 2)]
    same_type = [PageGuess(1, "bank_statement", 0.9), PageGuess(2, "bank_statement", 0.8)]
    assert split_ranges(same_type) == [(1, 2)]
    finished = [PageGuess(1, "invoice", 0.9, cue=(1, 1)), PageGuess(2, "invoice", 0.9)]
    assert split_ranges(finished) == [(1, 1), (2, 2)]
    two_passports = [PageGuess(1, "passport", 0.99), PageGuess(2, "passport", 0.99)]
    assert split_ranges(two_passports) == [(1, 1), (2, 2)]
    weak_and_unrelated = [PageGuess(1, "invoice", 0.3), PageGuess(2, "invoice", 0.3)]
    assert split_ranges(weak_and_unrelated) == [(1, 1), (2, 2)]


def test_a_reviewers_split_is_read_and_checked() -> None:
    assert parse_ranges("1 | 2-4", 4) == [(1, 1), (2, 4)]
    assert parse_ranges("1, 2; 3-4", 4) == [(1, 1), (2, 2), (3, 4)]
    assert ranges_text([(1, 1), (2, 4)]) == "1 | 2-4"
    for wrong in ("1 | 3-4", "1-2 | 2-4", "1-3", "a-b"):
        with pytest.raises(ValueError):
            parse_ranges(wrong, 4)


@pytest.mark.django_db
def test_a_generated_packet_is_split_into_three_documents_and_a_correction_recuts_it(
    tenant, operator
) -> None:
    """GIVEN a PDF holding a passport scan, a utility bill and a two-page statement, WHEN a case is
    opened with it, THEN the case holds three documents (1, 1 and 2 pages) and records the cut;
    WHEN a reviewer merges the bill into the statement, THEN the passport keeps its document,
    the bill and statement become one new document of three pages, and the change is audited."""
    content = packet_pdf()
    case = case_create(tenant=tenant, files=[SubmittedFile("applicant-packet.pdf", content)])
    links = list(CaseDocument.objects.filter(case=case).select_related("document"))
    documents = [link.document for link in links]
    assert len(documents) == 3
    assert [pdf_pages(blobs.blob_read(document=d, name=d.blob_name)) for d in documents] == [1, 1, 2]
    assert [d.original_name for d in documents] == [
        "applicant-packet (page 1).pdf",
        "applicant-packet (page 2).pdf",
        "applicant-packet (pages 3-4).pdf",
    ]
    packet = CasePacket.objects.get(case=case)
    assert (packet.page_count, [(p["first"], p["last"]) for p in packet.parts]) == (
        4,
        [(1, 1), (2, 2), (3, 4)],
    )
    assert [p["document_id"] for p in packet.parts] == [str(d.pk) for d in documents]
    assert packet.pages[0]["document_type"] == "passport"
    assert [p["cue"] for p in packet.pages[2:]] == [[1, 2], [2, 2]]

    again = case_create(tenant=tenant, files=[SubmittedFile("again.pdf", content)])
    assert [link.document_id for link in CaseDocument.objects.filter(case=again)] == [d.pk for d in documents]

    case_packet_resplit(packet=packet, ranges=[(1, 1), (2, 4)], user=operator)
    packet.refresh_from_db()
    now = [link.document for link in CaseDocument.objects.filter(case=case).select_related("document")]
    assert now[0].pk == documents[0].pk and len(now) == 2
    assert pdf_pages(blobs.blob_read(document=now[1], name=now[1].blob_name)) == 3
    assert packet.corrected_by == operator
    event = AuditEvent.objects.get(object_id=str(case.pk), action="case.packet_corrected")
    assert event.actor_id == operator.pk
    assert [(p["first"], p["last"]) for p in event.data["after"]] == [(1, 1), (2, 4)]
    assert event.data["documents_removed"] == [str(documents[1].pk), str(documents[2].pk)]
