"""Printing composed HTML with headless Chromium through Playwright, the way billing systems do.

One browser serves every document of a run (a launch costs about a second, a page a tenth):
A4 documents go through ``page.pdf()`` (a digital PDF with a real text layer, paginated by
Chromium, page numbers in the margin boxes) or a full-page ``page.screenshot()``; receipts are
rendered in a narrow viewport and captured as long strips, or printed as a PDF exactly as tall as
the slip. The browser is Debian's ``/usr/bin/chromium`` (``make test-packages`` installs it):
Playwright's own browser download cannot reach its host from closed networks.
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from types import TracebackType
from typing import Any

from PIL import Image

from htmldocs import roughen
from htmldocs.document import Composed

CHROMIUM = Path(os.environ.get("HTMLDOCS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",
]


class ChromiumMissing(RuntimeError):
    """The browser the renderer drives is not installed."""


class Renderer:
    """A started Chromium that turns :class:`Composed` documents into file bytes.

    Use as a context manager; the browser is closed (and Playwright stopped) on exit, so its
    event loop does not outlive the run.
    """

    def __init__(self, executable: Path = CHROMIUM) -> None:
        if not executable.exists():
            raise ChromiumMissing(f"{executable} is missing (make test-packages installs Debian's chromium)")
        self._executable = executable
        self._playwright: Any = None
        self._browser: Any = None
        self._pages: dict[float, Any] = {}

    def __enter__(self) -> Renderer:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=str(self._executable), headless=True, args=CHROMIUM_ARGS
        )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            if self._playwright is not None:
                self._playwright.stop()
            self._browser = self._playwright = None
            self._pages.clear()

    def _page(self, scale: float) -> Any:
        """The page of the context for ``scale`` (contexts carry the device scale factor)."""
        if scale not in self._pages:
            context = self._browser.new_context(
                device_scale_factor=scale, viewport={"width": 794, "height": 1123}, java_script_enabled=True
            )
            self._pages[scale] = context.new_page()
        return self._pages[scale]

    def render(self, doc: Composed) -> bytes:
        """The file the document's truth describes: PDF bytes, or PNG/JPEG bytes."""
        out = doc.output
        page = self._page(out.scale if out.form != "pdf" else 1.0)
        # a strip's viewport is short, so a full-page capture is exactly as long as the slip
        page.set_viewport_size({"width": out.width_px, "height": 1123 if out.page == "a4" else 120})
        page.set_content(doc.html, wait_until="load")
        if out.form == "pdf":
            if out.page == "a4":
                data: bytes = page.pdf(prefer_css_page_size=True, print_background=True)
                return data
            height = page.evaluate("() => Math.ceil(document.documentElement.scrollHeight)")
            data = page.pdf(
                width=f"{out.width_px}px", height=f"{height + 2}px", print_background=True, page_ranges="1"
            )
            return data
        png = page.screenshot(full_page=True, type="png")
        image = Image.open(io.BytesIO(png)).convert("RGB")
        rng = random.Random(out.seed)
        if out.photo:
            image = roughen.photo(image, rng, noise=out.form == "jpeg")
        elif out.roughen:
            image = roughen.scan(image, rng, noise=out.form == "jpeg")
        return roughen.encode(image, out.form, rng)
