"""PDFs are rendered in a child process with its own memory and CPU allowance: what PDFium does
with a hostile file ends that child, with a code, never the worker (media.pdf_sandbox)."""

from __future__ import annotations

import os
import time

import pytest

from engines.types import EngineError
from media.pdf_render import RenderOptions
from media.pdf_sandbox import SandboxLimits, render_pages_sandboxed
from media.preprocessing import PageLimits, prepare_pages
from tests.conftest import SAMPLES
from tests.hostile.corpus import pdf_lzw_bomb, pdf_pages


def test_sandboxed_pages_are_the_pages_rendered_in_process():
    data = (SAMPLES / "00006-invoice.pdf").read_bytes()
    inside = prepare_pages(data, "application/pdf", PageLimits(pdf_sandbox=False))
    sandboxed = prepare_pages(data, "application/pdf", PageLimits(pdf_sandbox=True))
    assert len(sandboxed) == len(inside) == 2
    assert sandboxed == inside  # same pixels, sizes and text layers


def test_an_lzw_bomb_the_zlib_check_cannot_see_ends_the_child_not_the_worker():
    started = time.monotonic()
    with pytest.raises(EngineError) as raised:
        prepare_pages(pdf_lzw_bomb(), "application/pdf", PageLimits())
    assert raised.value.code == "pdf_render_crashed"
    assert "1024 MB" in raised.value.message
    assert time.monotonic() - started < 30
    # this process is untouched and renders the next PDF
    assert prepare_pages((SAMPLES / "00008-bank_statement.pdf").read_bytes(), "application/pdf")


def test_a_pdf_that_takes_more_cpu_than_allowed_is_stopped():
    pages = list(
        render_pages_sandboxed(pdf_pages(3), RenderOptions(max_pages=200, max_side=800), SandboxLimits())
    )
    assert len(pages) == 3  # the same file, small, renders
    with pytest.raises(EngineError) as raised:
        list(
            render_pages_sandboxed(
                pdf_pages(190), RenderOptions(max_pages=200, max_side=4000), SandboxLimits(cpu_seconds=1)
            )
        )
    assert raised.value.code == "pdf_resource_limit"


def test_the_files_own_errors_come_back_with_their_codes():
    with pytest.raises(EngineError) as raised:
        list(render_pages_sandboxed(pdf_pages(5), RenderOptions(max_pages=4, max_side=800), SandboxLimits()))
    assert raised.value.code == "too_many_pages"


def _render_children() -> list[str]:
    """Processes forked by this process's fork server(s): the render children alive now."""
    servers = os.popen(f"pgrep -P {os.getpid()} -f 'forkserver import main'").read().split()
    return [child for server in servers for child in os.popen(f"pgrep -P {server}").read().split()]


def test_the_child_does_not_outlive_a_caller_that_stops_reading():
    rendered = render_pages_sandboxed(
        pdf_pages(50), RenderOptions(max_pages=200, max_side=800), SandboxLimits()
    )
    next(rendered)
    assert len(_render_children()) == 1
    rendered.close()  # the generator's finally kills the child
    deadline = time.monotonic() + 5
    while _render_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _render_children() == []
