"""Browser tests: Debian's Chromium, driven by Playwright, against pytest-django's live server.

- The browser is the distribution's ``/usr/bin/chromium`` (``make test`` installs it), launched
  through ``executable_path``: Playwright's own browser download cannot work in closed networks.
  ``launch()`` gives it a fresh, throwaway user-data directory; every test gets its own browser
  context (no cookies or storage shared between tests or users).
- Documents really get processed: tests that upload also request the session's real Triton
  server and Celery worker (``tests/triton_server_fixture.py``, ``tests/celery_worker_fixture.py``),
  which share the live server's test database.
- Screenshots land in ``var/e2e-screenshots/`` (git-ignored): the ones a test takes on purpose,
  and one of the page as it was whenever a test fails.

Playwright's synchronous API keeps an asyncio loop marked as running on the test thread while it
is started, which Django's async-safety guard mistakes for async code touching the database from
the test itself. The guard is lifted only while the browser runs (this package), and Playwright is
stopped at the end of the package so the loop does not leak into other tests.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

CHROMIUM = Path(os.environ.get("DOCINTEL_E2E_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = REPO_ROOT / "var" / "e2e-screenshots"
VIEWPORT = {"width": 1440, "height": 900}
PASSWORD = "correct horse battery"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Keep each phase's report on the item, so the page fixture knows whether the test failed."""
    outcome = yield
    setattr(item, f"rep_{call.when}", outcome.get_result())


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, live_server, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Open pages in fresh browser contexts (one per user); failed tests leave a screenshot of each."""
    contexts = []
    csp_violations: list[str] = []  # the browser's own reports: the pages must work under the policy

    def open_page():  # type: ignore[no-untyped-def]
        context = browser.new_context(base_url=live_server.url, viewport=VIEWPORT, locale="en-GB")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                csp_violations.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    yield open_page
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for index, context in enumerate(contexts):
        if failed:
            for page in context.pages:
                screenshot(page, f"FAILED-{_slug(request.node.name)}-{index}")
        context.close()
    assert not csp_violations, f"the Content-Security-Policy blocked: {csp_violations}"


@pytest.fixture
def page(new_page):  # type: ignore[no-untyped-def]
    return new_page()


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, username: str, password: str = PASSWORD) -> None:  # type: ignore[no-untyped-def]
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name)[:80]
