"""Media handling without Django: what turns an uploaded file into page images and sends them to Triton.

The PDF guard and sandbox, PDF rendering, image preprocessing and page scaling, and the Triton
client. It is here, below both ``apps`` (upload checks, the prepare step, the CLI) and ``workers``
(the Celery tasks, the inference dispatcher), so that neither has to import the other for it.

Import rule (tests/unit/test_layering.py): ``media`` imports ``engines`` and libraries only, never
``django``, ``apps``, ``workers`` or ``servers``. ``media.pdf_render`` runs inside the sandbox's
child process, which must not load Django.
"""
