"""The engine's side of the pipeline's contract, answered without an engine (the engine is a separate
process in production; its own tests live in tests/unit/engines). Pass one as ``reader=`` to
``document_infer`` or use its result in ``documents_infer_finish``."""

from __future__ import annotations

from engines.types import Check, EngineResult, FieldResult


class FixedReader:
    """A passport read from its MRZ, with one value (the sex) the business rules find invalid."""

    def read_document(self, pages, *, document_type_hint=None, text_layer=None):
        mrz = {"page": 1, "bbox": None, "source": "mrz"}
        return EngineResult(
            document_type="passport",
            document_type_confidence=0.97,
            pages=len(pages),
            fields={
                "document_number": FieldResult("L898902C3", 0.99, valid=True, **mrz),
                "surname": FieldResult("ERIKSSON", 0.95, **mrz),
                "given_names": FieldResult("ANNA MARIA", 0.95, **mrz),
                "date_of_birth": FieldResult("1974-08-12", 0.99, valid=True, **mrz),
                "date_of_expiry": FieldResult("2012-04-15", 0.99, valid=True, **mrz),
                "sex": FieldResult("Q", 0.9, **mrz),  # no such sex: the business rules say invalid
            },
            checks=[Check("mrz_check_digits", True)],
            engine_name="fixed",
            engine_version="1",
        )


class TypedReader:
    """The engine's answer for a document of ``document_type``: a name and a date, placed."""

    def __init__(self, document_type: str) -> None:
        self.document_type = document_type

    def read_document(self, pages, *, document_type_hint=None, text_layer=None):
        placed = {"page": 1, "source": "ocr"}
        return EngineResult(
            document_type=self.document_type,
            document_type_confidence=0.97,
            pages=len(pages),
            fields={
                "surname": FieldResult("ERIKSSON", 0.95, bbox=(0.1, 0.1, 0.4, 0.15), **placed),
                "date_of_birth": FieldResult("1974-08-12", 0.99, bbox=(0.1, 0.2, 0.3, 0.25), **placed),
            },
            checks=[Check("mrz_check_digits", True)],
            engine_name="fixed",
            engine_version="1",
        )
