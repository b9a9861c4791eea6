"""The sandbox works from a daemonic process too: Celery's prefork pool runs tasks in processes
multiprocessing counts as daemonic (``make demo`` runs such a worker)."""

from __future__ import annotations

import multiprocessing

from tests.conftest import SAMPLES


def _render_in_daemon(queue: multiprocessing.Queue) -> None:
    from workers.preprocessing import PageLimits, prepare_pages

    try:
        pages = prepare_pages((SAMPLES / "00006-invoice.pdf").read_bytes(), "application/pdf", PageLimits())
        queue.put(("pages", len(pages), multiprocessing.current_process().daemon))
    except Exception as exc:  # the test reports what went wrong instead of hanging
        queue.put(("error", repr(exc), None))


def test_a_daemonic_pool_process_renders_pdfs_in_the_sandbox():
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    daemon = context.Process(target=_render_in_daemon, args=(queue,), daemon=True)
    daemon.start()
    outcome = queue.get(timeout=60)
    daemon.join(10)
    assert outcome == ("pages", 2, True)
