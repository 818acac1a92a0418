"""The one headless Chromium the browser tests drive: Debian's ``chromium`` (installed by
``.ci/run``), launched by Playwright with the same flags everywhere."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch(playwright):
    """A headless browser of Debian's chromium from a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
