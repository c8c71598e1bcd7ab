"""Test helper: Debian's headless Chromium, driven from the command line.

Finds ``chromium`` (``/usr/bin/chromium`` from Debian's package, which ``.ci/run``
installs where apt works) and runs it once per page with a fresh profile and the flags
that work on machines with a closed network: ``--dump-dom`` prints the document as the
browser built it after loading (scripts, had any run, included), ``--screenshot``
writes a PNG. No Node, no Playwright: one process per page, nothing else to install.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Final

__all__ = ["CHROMIUM", "MISSING", "dump_dom", "screenshot"]

#: The browser, when this machine has it.
CHROMIUM: Final = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
#: Why the browser tests skip where it is absent.
MISSING: Final = (
    "headless Chromium not found (Debian: apt-get install chromium; .ci/run installs it"
    " where apt-get works)"
)
#: Without the network flags Chromium keeps trying hosts a closed network refuses.
_FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--hide-scrollbars",
)
#: Seconds one page may take on a loaded two-core machine.
_TIMEOUT: Final = 120


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    if CHROMIUM is None:
        raise RuntimeError(MISSING)
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        return subprocess.run(  # noqa: S603 - the machine's browser, our own pages
            [CHROMIUM, *_FLAGS, f"--user-data-dir={profile}", *arguments],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            check=True,
        )


def dump_dom(page: Path) -> str:
    """The document Chromium built from ``page``, serialised after it loaded."""
    return _run("--dump-dom", page.resolve().as_uri()).stdout


def screenshot(page: Path, out: Path, width: int = 900, height: int = 700) -> Path:
    """A PNG of ``page`` at the given window size; returns ``out``."""
    _run(f"--screenshot={out}", f"--window-size={width},{height}", page.resolve().as_uri())
    if not out.is_file():
        raise RuntimeError(f"Chromium wrote no screenshot of {page}")
    return out
