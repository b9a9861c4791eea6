"""Which of the ARCHITECTURE §3.2 document types a page set is, from its text.

Identity documents announce themselves through machine-readable evidence (an MRZ, an AAMVA
barcode), which the pipeline reads before calling this and which then decides
(:func:`identity_classification`). Everything else is decided by the fitted document-type model
(engines/doctype_model.py): weights fitted on labelled documents over the page set's words,
character n-grams, layout and the type cues kept as data (engines/doctype_cues.py), with its
probabilities tempered on held-out documents so that its confidence means what it says.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines import doctype_model
from engines.doctype_cues import licence_holder_described, mrz_line_type, names_itself
from engines.doctype_model import Classification
from engines.layout import PageText
from engines.spec import DOCUMENT_TYPES

_PARTIAL_EVIDENCE_CONFIDENCE = 0.5


def classify_text(pages: Sequence[PageText]) -> Classification:
    """Probabilities over the §3.2 types for pages without machine-readable identity evidence,
    from the fitted model of this engine version."""
    return classify_with_model(pages, doctype_model.current())


def classify_with_model(
    pages: Sequence[PageText], model: doctype_model.DoctypeModel | None
) -> Classification:
    """:func:`classify_text` with the given fitted model. Without a model (an engine version not
    yet refitted: ``make refit``) or without a line of text, nothing is claimed: "other", with
    no confidence above chance, so the document goes to a person. Partial machine-readable
    identity evidence decides before the model."""
    evidence = mrz_line_type(pages) or ("driver_license" if licence_holder_described(pages) else None)
    if evidence in ("passport", "id_card"):
        # a line's length tells a passport from a card only where OCR read the line whole
        evidence = printed_identity_type(pages) or evidence
    if evidence is not None:
        # machine-readable identity evidence the readers could not read whole (an MRZ line, a
        # licence holder's AAMVA description) decides whatever the words around it say, but
        # claims no more than an even chance: the fields it could not read go to a person
        return identity_classification(evidence, _PARTIAL_EVIDENCE_CONFIDENCE)
    if model is None or not any(page.lines for page in pages):
        chance = round(1.0 / len(DOCUMENT_TYPES), 4)
        return Classification("other", chance, dict.fromkeys(DOCUMENT_TYPES, chance))
    probabilities = {t: round(p, 4) for t, p in model.probabilities(pages).items()}
    # a tie with "other" is "other": a type must beat it to be claimed
    best = max(probabilities, key=lambda t: (probabilities[t], t == "other"))
    return Classification(best, probabilities[best], probabilities)


def printed_identity_type(pages: Sequence[PageText]) -> str | None:
    """ "passport" or "id_card" where the printed words name one of the two and not the other
    ("PASSPORT", "PERSONALAUSWEIS"), else None: what a TD2 is when its MRZ's document code, the
    only other thing that tells the two apart, was misread. Only a name counts: both print
    "nationality", "place of birth" and "date of expiry"."""
    passport, card = (names_itself(pages, doc_type) for doc_type in ("passport", "id_card"))
    if passport and not card:
        return "passport"
    if card and not passport:
        return "id_card"
    return None


def identity_classification(document_type: str, confidence: float) -> Classification:
    """A classification decided by machine-readable evidence (MRZ or AAMVA barcode)."""
    rest = (1.0 - confidence) / (len(DOCUMENT_TYPES) - 1)
    probabilities = {t: (confidence if t == document_type else rest) for t in DOCUMENT_TYPES}
    return Classification(document_type, confidence, probabilities)
