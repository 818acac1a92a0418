"""The one headless Chromium the browser tests drive: Debian's ``chromium`` (installed by
``.ci/run``), launched by Playwright with the same flags everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch(playwright):
    """A headless browser of Debian's chromium from a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


@contextmanager
def watched_page(browser, **options) -> Iterator:
    """A new page of ``browser`` (``options`` as for ``new_page``) that fails the test, once it
    closes, if any script on it raised an error."""
    page = browser.new_page(**options)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        page.close()
    assert errors == [], errors
