"""Helpers the tests share, public and importable from any test module (``from tests.support.<module>
import ...``). The app's objects themselves (tenants' members, API clients, documents in a given
state) are made by ``tests/factories.py``; pytest fixtures stay in the ``conftest.py`` files and the
``tests/*_fixture.py`` plugins that ``tests/conftest.py`` loads.

Files and pages to feed the app:
    uploads           ``png_bytes`` (a small PNG, new bytes per seed) and ``upload`` (a named file
                      handle for a form or the API)
    payslip           a tenant's own document type: ``PAYSLIP_SCHEMA``, ``PAYSLIP_TRUTH``, ``payslip_pdf``
    packets           a packet PDF of synthetic documents (``packet_pdf``, ``first_of``, ``image_page``,
                      ``joined``, ``pdf_pages``)
    capture_pages     pages the capture gate must let through (a utility bill, a cropped receipt,
                      ``as_scan``/``as_photo``, ``image_pdf``, a digital invoice with a blank page)
    glyph_pages       a date and a name drawn glyph by glyph, one glyph forged (``glyph_page``,
                      ``jpeg_bytes``, ``DATE_BOX``, ``NAME_BOX``)
    business_pages    page text built by hand for the business readers (``page``, ``values``, ``Row``)
                      and the same rows rendered and read back by the real OCR (``render``, ``needs_font``)
    llm_pages         page texts the LLM reader's answers are grounded in (``INVOICE_PAGE``)

Documents for the review screens:
    review_documents  a passport waiting for review, with a real stored page image
                      (``document_for_review``, ``passport_page_png``, ``PASSPORT_FIELDS``)

Stand-ins for the other side of a boundary:
    readers           the engine's answer without an engine (``FixedReader``, ``TypedReader``)
    gemma4_model      model_repo's Gemma 4 Python model loaded outside Triton (``MODEL_FILE``,
                      ``TritonError``, ``Logger``)
    webhook_receiver  an integrator's endpoint: a real HTTP server that keeps what it is sent (``Receiver``)

Real processes and the real stack:
    processes         ``free_ports`` and ``log_tail`` for tests that start servers
    live_stack        the integration tests' uploads and waits (``sample_file``, ``poll``, ``web_upload``,
                      ``wait_until_settled``, ``TRUTH``, ``IN_FLIGHT``)
    gemma4_engine     talking to a served Gemma 4 (``CHAT``, ``tokenize_chat``,
                      ``assert_gemma_chat_prompt``, ``invoice_page_url``)
"""
