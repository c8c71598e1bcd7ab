"""Real peers (pinned npm and PyPI packages) installed once per machine, without pytest.

Peers live under ``.cache/peers/`` in the checkout (gitignored), one folder per peer,
installed on first use under a file lock so parallel workers install once. A folder
records what it was installed from; a change of pins reinstalls it. Nothing of a
peer's code is committed: Node packages are driven by small scripts of ours, copied
beside the installed packages (:func:`place_script`) so Node resolves their imports.

The tests reach this through ``installed_peers`` (which turns the two errors below
into a skip and a failure) and the benchmarks through ``benchmarks/peers.py``, so both
install the same way into the same folders.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = [
    "CACHE",
    "PeerInstallError",
    "PeerUnavailableError",
    "install_node",
    "install_python",
    "place_script",
]

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "peers"
#: Seconds an install may take before it fails (npm on a cold cache, pip wheels).
INSTALL_TIMEOUT = 600
_MARKER = "installed-from.json"


class PeerUnavailableError(Exception):
    """A tool the peer needs (``node``, ``npm``) is not on ``PATH``; the message says which."""


class PeerInstallError(Exception):
    """Installing the peer failed although its tools are there; the message has the output."""


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the folder's install lock for the ``with`` block."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f".{folder.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _installed(folder: Path, pins: dict[str, object]) -> bool:
    marker = folder / _MARKER
    return marker.is_file() and json.loads(marker.read_text()) == pins


def _install(folder: Path, pins: dict[str, object], steps: Sequence[Sequence[str]]) -> None:
    """Run the install steps into a fresh folder, then record the pins."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for step in steps:
        done = subprocess.run(  # noqa: S603 - our own install commands
            step, cwd=folder, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, check=False
        )
        if done.returncode:
            raise PeerInstallError(
                f"installing peer {folder.name} failed: {' '.join(step)}\n{done.stderr}"
            )
    (folder / _MARKER).write_text(json.dumps(pins))


def install_node(name: str, packages: Sequence[str]) -> Path:
    """Install pinned npm packages into ``.cache/peers/<name>`` once; return the folder.

    Args:
        name: the peer folder's name.
        packages: exact npm specs, e.g. ``"@ag-ui/a2ui-middleware@0.0.10"``.

    Returns:
        The folder holding ``node_modules``.

    Raises:
        PeerUnavailableError: ``node`` or ``npm`` is not on ``PATH``.
        PeerInstallError: npm failed.
    """
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise PeerUnavailableError(
                f"{tool} is not on PATH: peer {name} ({', '.join(packages)}) cannot run"
            )
    folder = CACHE / name
    pins: dict[str, object] = {"npm": sorted(packages)}
    with _locked(folder):
        if not _installed(folder, pins):
            npm = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"]
            _install(folder, pins, [["npm", "init", "-y"], [*npm, *packages]])
    return folder


def install_python(name: str, requirements: Sequence[str]) -> Path:
    """Install PyPI packages into their own venv under ``.cache/peers/<name>`` once.

    A venv of its own keeps a peer's dependencies (an agent framework, say) out of the
    caller's environment; the peer runs as a subprocess of that interpreter.

    Args:
        name: the peer folder's name.
        requirements: pip requirement specs.

    Returns:
        The venv's Python executable.

    Raises:
        PeerInstallError: venv or pip failed.
    """
    folder = CACHE / name
    pins: dict[str, object] = {"pip": sorted(requirements), "python": sys.version_info[:2]}
    pins = json.loads(json.dumps(pins))  # tuples as lists, as the marker reads back
    with _locked(folder):
        if not _installed(folder, pins):
            python = str(folder / "venv" / "bin" / "python")
            _install(
                folder,
                pins,
                [
                    [sys.executable, "-m", "venv", "venv"],
                    [python, "-m", "pip", "install", "-q", *requirements],
                ],
            )
    return folder / "venv" / "bin" / "python"


def place_script(folder: Path, source: Path) -> str:
    """Copy one of our scripts beside a peer's packages (atomically); return its name.

    Args:
        folder: a folder :func:`install_node` returned.
        source: the script.

    Returns:
        The script's file name in ``folder``, to run with ``cwd=folder``.
    """
    target = folder / source.name
    if not target.exists() or target.read_bytes() != source.read_bytes():
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(source.read_bytes())
        tmp.replace(target)  # atomic: a parallel worker never runs half a script
    return source.name
