"""The fitted document-type classifier (engines/doctype_model.py): features, fit, artefact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from apps.extraction.doctype_fit import pages_from_json, pages_to_json
from engines import ENGINE_VERSION
from engines import doctype_model as dm
from engines.layout import Line, PageText


def _page(*texts: str, width: float = 0.6, source: str = "ocr") -> PageText:
    lines = tuple(
        Line(text=t, score=0.95, bbox=(0.1, 0.02 + i * 0.03, 0.1 + width, 0.04 + i * 0.03), page=1)
        for i, t in enumerate(texts)
    )
    return PageText(page=1, lines=lines, source=source)


RECEIPTS = [
    [
        _page(
            "CORNER MART",
            "MILK 1.99",
            "BREAD 2.49",
            "TOTAL 4.48",
            "CASH 5.00",
            "CHANGE 0.52",
            "THANK YOU",
            width=0.3,
        )
    ],
    [_page("Bäckerei Sonne", "Brot 3,20", "SUMME EUR 3,20", "BAR 5,00", "Rückgeld 1,80", "Danke", width=0.3)],
    [_page("CAFE LUNA", "Latte 3.50", "TOTAL 3.50", "VISA ****1234", "Thank you come again", width=0.3)],
    [
        _page(
            "SUPERMERCADO SOL", "Pan 1,20", "TOTAL 1,20", "EFECTIVO 2,00", "CAMBIO 0,80", "Gracias", width=0.3
        )
    ],
]
INVOICES = [
    [
        _page(
            "ACME Ltd",
            "INVOICE",
            "Invoice no 2024-17",
            "Bill to: Jane Roe",
            "Due date 2024-05-01",
            "Total due 1,200.00",
        )
    ],
    [
        _page(
            "Müller GmbH",
            "RECHNUNG",
            "Rechnungsnummer 88",
            "Kunde: Otto",
            "Fällig am 01.05.2024",
            "Zu zahlen 980,00 EUR",
        )
    ],
    [
        _page(
            "Dupont SARL",
            "FACTURE",
            "Facture n° 55",
            "Client: Marie",
            "Échéance 01/05/2024",
            "Net à payer 400,00",
        )
    ],
    [
        _page(
            "Widgets Inc",
            "Invoice",
            "Invoice number 9",
            "Billed to Bob",
            "Payment terms 30 days",
            "Amount due 75.00",
        )
    ],
]
STATEMENTS = [
    [
        _page(
            "First Bank",
            "Account statement",
            "Opening balance 1,000.00",
            "01/04/2024 Salary 2,000.00",
            "02/04/2024 Rent -900.00",
            "Closing balance 2,100.00",
        )
    ],
    [
        _page(
            "Sparkasse",
            "Kontoauszug",
            "Alter Kontostand 500,00",
            "01.04.2024 Gehalt 1.800,00",
            "03.04.2024 Miete -700,00",
            "Neuer Kontostand 1.600,00",
        )
    ],
    [
        _page(
            "Banque Azur",
            "Relevé de compte",
            "Ancien solde 300,00",
            "01/04/2024 Virement 1 000,00",
            "04/04/2024 Loyer -650,00",
            "Nouveau solde 650,00",
        )
    ],
    [
        _page(
            "City Bank",
            "Bank statement",
            "Balance brought forward 10.00",
            "05/04/2024 Deposit 90.00",
            "06/04/2024 ATM -20.00",
            "Closing balance 80.00",
        )
    ],
]


def _training() -> tuple[list[list[PageText]], list[str]]:
    docs = RECEIPTS + INVOICES + STATEMENTS
    labels = ["receipt"] * 4 + ["invoice"] * 4 + ["bank_statement"] * 4
    return docs, labels


@pytest.fixture(scope="module")
def model() -> dm.DoctypeModel:
    docs, labels = _training()
    return dm.fit(docs, labels, l2=1e-3, iterations=200).with_meta(engine_version=ENGINE_VERSION)


def test_features_are_deterministic_and_fold_accents() -> None:
    one = dm.features(INVOICES[1])
    two = dm.features(INVOICES[1])
    assert np.array_equal(one.indices, two.indices)
    assert np.array_equal(one.values, two.values)
    assert np.array_equal(one.layout, two.layout)
    # accents and case fold away: "Fällig" and "FALLIG" are one word
    accented = dm.features([_page("Fällig am")])
    plain = dm.features([_page("FALLIG AM")])
    assert np.array_equal(accented.indices, plain.indices)
    assert len(one.layout) == len(dm.dense_feature_names())


def test_numbers_count_by_shape_not_value() -> None:
    assert np.array_equal(
        dm.features([_page("Total 12.50")]).indices, dm.features([_page("Total 98.01")]).indices
    )


def test_a_tiny_model_separates_the_types(model: dm.DoctypeModel) -> None:
    assert model.classes == ("bank_statement", "invoice", "receipt")
    docs, labels = _training()
    assert [model.predict(doc).document_type for doc in docs] == labels
    # unseen documents of each type
    receipt = [
        _page("KIOSK 24", "Water 1.00", "TOTAL 1.00", "CASH 2.00", "CHANGE 1.00", "THANK YOU", width=0.3)
    ]
    invoice = [
        _page("Beta LLC", "INVOICE", "Invoice no 7", "Bill to: Sam", "Due date 2024-06-01", "Total due 50.00")
    ]
    statement = [
        _page(
            "North Bank",
            "Account statement",
            "Opening balance 5.00",
            "07/04/2024 Fee -1.00",
            "Closing balance 4.00",
        )
    ]
    assert model.predict(receipt).document_type == "receipt"
    assert model.predict(invoice).document_type == "invoice"
    assert model.predict(statement).document_type == "bank_statement"
    probabilities = model.probabilities(receipt)
    assert set(probabilities) == set(dm.DOCUMENT_TYPES)
    assert probabilities["passport"] == 0.0  # never fitted
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_fitting_is_reproducible() -> None:
    docs, labels = _training()
    first = dm.fit(docs, labels, l2=1e-3, iterations=50)
    second = dm.fit(docs, labels, l2=1e-3, iterations=50)
    assert np.array_equal(first.rows, second.rows)
    assert np.array_equal(first.weights, second.weights)
    assert np.array_equal(first.bias, second.bias)


def test_artefact_round_trips(model: dm.DoctypeModel, tmp_path: Path) -> None:
    path = tmp_path / "doctype.npz"
    dm.save(model.with_meta(training_seeds="1-2", heldout_accuracy=0.5), path)
    loaded = dm.load(path)
    assert loaded.classes == model.classes
    assert loaded.meta["engine_version"] == ENGINE_VERSION
    assert loaded.meta["training_seeds"] == "1-2"
    for doc in RECEIPTS + INVOICES:
        a, b = model.probabilities(doc), loaded.probabilities(doc)
        assert a.keys() == b.keys()
        # weights are stored as float16
        assert all(abs(a[t] - b[t]) < 2e-3 for t in a)
        assert model.predict(doc).document_type == loaded.predict(doc).document_type
    assert loaded.probabilities(RECEIPTS[0]) == dm.load(path).probabilities(RECEIPTS[0])


def test_load_refuses_another_engine_version(model: dm.DoctypeModel, tmp_path: Path) -> None:
    path = tmp_path / "doctype.npz"
    dm.save(model.with_meta(engine_version="0.0.1"), path)
    with pytest.raises(dm.EngineVersionMismatch, match=r"0\.0\.1"):
        dm.load(path)
    assert dm.load(path, engine_version=None).meta["engine_version"] == "0.0.1"


def test_the_artefact_of_another_version_is_not_current(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(dm, "MODELS_DIR", tmp_path)
    dm.current.cache_clear()
    try:
        assert dm.current() is None
    finally:
        dm.current.cache_clear()


def test_page_texts_round_trip_through_json() -> None:
    pages = RECEIPTS[0]
    assert pages_from_json(pages_to_json(pages)) == pages


def test_classify_text_is_the_model_and_without_one_claims_nothing(model: dm.DoctypeModel) -> None:
    from engines.classify import DOCUMENT_TYPES, classify_with_model

    invoice = INVOICES[0]
    decided = classify_with_model(invoice, model)
    assert decided.document_type == "invoice"
    assert sum(decided.probabilities.values()) == pytest.approx(1.0, abs=1e-3)
    # no model (an engine version not refitted) or no lines: "other", at chance, so to review
    for pages, with_model in ((invoice, None), ([PageText(page=1, lines=(), source="ocr")], model)):
        unsure = classify_with_model(pages, with_model)
        assert unsure.document_type == "other"
        assert unsure.confidence == pytest.approx(1 / len(DOCUMENT_TYPES), abs=1e-3)


def test_the_temperature_chosen_on_held_out_documents_tempers_an_overconfident_model(
    model: dm.DoctypeModel,
) -> None:
    """GIVEN documents the model gets wrong with confidence (a receipt's words on an invoice)
    THEN the temperature that fits them best is above 1, and the probabilities it gives are less
    sure; on documents it gets right, the temperature stays 1 (never sharpened)."""
    confusing = [INVOICES[0], RECEIPTS[0], STATEMENTS[0]]
    tempered = dm.tempered(model, confusing, ["receipt", "bank_statement", "invoice"])
    assert tempered.meta["temperature"] > 1.0
    assert tempered.predict(INVOICES[0]).confidence < model.predict(INVOICES[0]).confidence
    assert tempered.predict(INVOICES[0]).document_type == model.predict(INVOICES[0]).document_type
    right = dm.tempered(model, [INVOICES[1], RECEIPTS[1]], ["invoice", "receipt"])
    assert right.meta["temperature"] == 1.0
