"""The sandbox works from Celery's prefork pool too: billiard runs tasks in processes that
multiprocessing counts as daemonic, with an authentication key of billiard's own (``make demo``
runs such a worker)."""

from __future__ import annotations

from billiard.pool import Pool

from media.preprocessing import PageLimits, prepare_pages
from tests.conftest import SAMPLES


def _render_in_pool_process() -> tuple[int, bool]:
    import multiprocessing

    from media.preprocessing import PageLimits, prepare_pages

    pages = prepare_pages((SAMPLES / "00006-invoice.pdf").read_bytes(), "application/pdf", PageLimits())
    return len(pages), multiprocessing.current_process().daemon


def test_a_prefork_pool_process_renders_pdfs_in_the_sandbox():
    # the parent has its own fork server running first, as after any earlier PDF in this process
    prepare_pages((SAMPLES / "00008-bank_statement.pdf").read_bytes(), "application/pdf", PageLimits())
    pool = Pool(1)
    try:
        assert pool.apply_async(_render_in_pool_process).get(timeout=60) == (2, True)
    finally:
        pool.terminate()
        pool.join()
