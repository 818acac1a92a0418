"""Make docs/web.png from the live page: start ``bidlab serve`` on a free loopback port, open
it in headless Chromium (Debian's ``chromium``, driven by Playwright), deal board 5 (seed 7)
with South to bid beside the default bots, bid 3NT (1NT when no one opened) then pass to the end,
open the "Why?" of the first bot call, and save a full-page screenshot.

    python docs/screenshot.py                 # writes docs/web.png
    python docs/screenshot.py --out /tmp/x.png

Rerun it whenever the page changes; the README shows its output.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, server: subprocess.Popen, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit(f"bidlab serve exited with {server.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"bidlab serve did not answer at {url}")


def shoot(out: Path, board: int = 5, seed: int = 7) -> None:
    from playwright.sync_api import sync_playwright

    port = _free_port()
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen([sys.executable, "-c", "from bidlab.cli import main; main()", "serve",
                                   "--port", str(port), "--results", scratch], cwd=scratch)
        try:
            url = f"http://127.0.0.1:{port}/"
            _wait(url, server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(url)
                page.fill("[data-testid=number]", str(board))
                page.fill("[data-testid=seed]", str(seed))
                page.select_option("[data-testid=seat-S]", "you")
                page.click("[data-testid=deal-button]")
                first = True
                while True:
                    page.wait_for_selector("[data-testid=result]:not(.hidden), [data-testid=bid-Pass]:not([disabled])",
                                           timeout=120_000)
                    if page.is_visible("[data-testid=result]"):
                        break
                    n = page.locator("#auction td[data-call]").count()
                    call = "Pass"
                    if first:
                        # board 5, seed 7: South's 14 HCP raise partner's 1NT to game
                        call = next((c for c in ("3NT", "1NT") if page.is_enabled(f"[data-testid=bid-{c}]")),
                                    "Pass")
                        first = False
                    page.click(f"[data-testid=bid-{call}]")
                    page.wait_for_function("n => document.querySelectorAll('#auction td[data-call]').length > n",
                                           arg=n, timeout=120_000)
                why = page.locator("[data-testid^=why-this-]")
                if why.count():
                    why.first.click()
                    page.wait_for_selector("[data-testid=why-text]", timeout=120_000)
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=True)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "web.png")
    shoot(parser.parse_args().out)
