"""synth.driver_license: synthetic US/Canadian licences whose barcode decodes back to the truth."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest
import zxingcpp

from engines.licence.aamva import parse_aamva
from synth import driver_license
from synth.documents import document_rng
from synth.driver_license import aamva_payload, compose, generate, sample_licence
from synth.identity import IN_CIRCULATION_ON


def page_images(data: bytes, extension: str) -> list[np.ndarray]:
    """Grayscale pages: the image itself, or each PDF page rendered at about 2000 pixels."""
    if extension != "pdf":
        return [cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)]
    pdf = pdfium.PdfDocument(data)
    images = []
    for index in range(len(pdf)):
        page = pdf[index]
        scale = 2000 / max(page.get_size())
        images.append(np.asarray(page.render(scale=scale, grayscale=True).to_pil().convert("L")))
    pdf.close()
    return images


def decoded_payloads(data: bytes, extension: str) -> list[bytes]:
    return [
        symbol.bytes
        for image in page_images(data, extension)
        for symbol in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.PDF417)
    ]


@pytest.mark.parametrize("container", ["pdf", "stacked", "side"])
def test_same_seed_gives_the_same_bytes(container: str) -> None:
    def make() -> tuple[bytes, str, dict]:
        rng = document_rng(5, 3)
        return compose(sample_licence(rng), rng, "scan", 0.6, container=container)

    first, second = make(), make()
    assert first[0] == second[0]
    assert first[1:] == second[1:]


def test_generate_returns_bytes_an_extension_and_the_truth() -> None:
    data, extension, truth = generate(document_rng(1, 0), "mixed", 1.0)
    assert isinstance(data, bytes)
    assert extension in ("jpg", "png", "pdf")
    assert truth["document_type"] == "driver_license"
    assert {"document_number", "surname", "date_of_birth", "issuing_region"} <= set(truth["fields"])
    assert truth["meta"]["profile"] in ("clean", "scan", "photo")
    with pytest.raises(ValueError):
        generate(document_rng(1, 0), "fax", 1.0)


@pytest.mark.parametrize("index", range(4))
def test_barcode_decodes_back_to_the_truth(index: int) -> None:
    containers = ("pdf", "stacked", "side", "pdf")
    rng = document_rng(21, index)
    data, extension, truth = compose(sample_licence(rng), rng, "clean", container=containers[index])
    if extension == "pdf":
        assert data.startswith(b"%PDF") and len(pdfium.PdfDocument(data)) == 2
    payloads = decoded_payloads(data, extension)
    assert len(payloads) == 1
    assert parse_aamva(payloads[0]).fields == truth["fields"]


def test_payloads_of_every_version_and_country_parse_back_to_the_truth() -> None:
    seen = set()
    for index in range(120):
        rng = document_rng(3, index)
        licence = sample_licence(rng)
        payload, meta = aamva_payload(licence, rng)
        record = parse_aamva(payload)
        if not record.names.order_settled:  # a full name in the issuer's order: the front settles it
            assert meta["name_layout"].startswith("daa-spaces"), (meta, index)
            continue
        assert record.fields == licence.truth_fields(unit_apart=meta["unit_apart"]), (meta, index)
        assert record.version == licence.version
        seen.add((licence.version, licence.jurisdiction.country))
    assert {(1, "USA"), (3, "USA"), (8, "USA"), (9, "USA"), (10, "USA"), (3, "CAN"), (10, "CAN")} <= seen


def test_every_front_layout_renders() -> None:
    rng = document_rng(8, 0)
    licence = sample_licence(rng)
    shapes = set()
    for layout in driver_license.LAYOUTS:
        data, extension, truth = compose(licence, rng, "clean", layout=layout, container="stacked")
        assert truth["meta"]["layout"] == layout
        shapes.add(page_images(data, extension)[0].shape)
    assert len(shapes) >= 1


def test_a_different_front_is_recorded_in_the_meta_but_the_truth_is_the_barcode() -> None:
    rng = document_rng(9, 0)
    licence = sample_licence(rng)
    printed = replace(licence, surname="SOMEONE-ELSE")
    data, extension, truth = compose(licence, rng, "clean", printed=printed, container="stacked")
    assert truth["meta"]["front_differs"] is True
    assert truth["fields"]["surname"] == licence.surname
    assert parse_aamva(decoded_payloads(data, extension)[0]).fields["surname"] == licence.surname


def test_most_licences_are_in_circulation_and_some_have_expired() -> None:
    rng = np.random.default_rng(12)
    licences = [sample_licence(rng) for _ in range(600)]
    expired = sum(licence.date_of_expiry < IN_CIRCULATION_ON for licence in licences) / len(licences)
    assert 0.05 <= expired <= 0.3
    assert all(licence.date_of_issue < licence.date_of_expiry for licence in licences)
