"""Test helper: real peers (pinned npm and PyPI packages) installed once per machine.

Peers live under ``.cache/peers/`` in the checkout (gitignored), one folder per peer,
installed on first use under a file lock so parallel test workers install once. A
folder records what it was installed from; a change of pins reinstalls it. Nothing of
a peer's code is committed: Node packages are driven by small scripts of ours in
``tests/node/``, copied beside the installed packages so Node resolves their imports.

Only a missing tool skips (``node``/``npm`` not on ``PATH``); an install that fails
where the tools exist fails the test, so CI cannot pass without running the peers.
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

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["CACHE", "NODE_SCRIPTS", "node_peer", "python_peer", "run_node"]

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "peers"
NODE_SCRIPTS = Path(__file__).resolve().parent / "node"
#: Seconds an install may take before the test fails (npm on a cold cache, pip wheels).
INSTALL_TIMEOUT = 600
_MARKER = "installed-from.json"


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
            pytest.fail(f"installing peer {folder.name} failed: {' '.join(step)}\n{done.stderr}")
    (folder / _MARKER).write_text(json.dumps(pins))


def node_peer(name: str, packages: Sequence[str]) -> Path:
    """Install pinned npm packages into ``.cache/peers/<name>`` once; return the folder.

    Args:
        name: the peer folder's name.
        packages: exact npm specs, e.g. ``"@ag-ui/a2ui-middleware@0.0.10"``.

    Returns:
        The folder holding ``node_modules``; run scripts there with :func:`run_node`.
    """
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH: peer {name} ({', '.join(packages)}) cannot run")
    folder = CACHE / name
    pins: dict[str, object] = {"npm": sorted(packages)}
    with _locked(folder):
        if not _installed(folder, pins):
            npm = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"]
            _install(folder, pins, [["npm", "init", "-y"], [*npm, *packages]])
    return folder


def python_peer(name: str, requirements: Sequence[str]) -> Path:
    """Install PyPI packages into their own venv under ``.cache/peers/<name>`` once.

    A venv of its own keeps a peer's dependencies (an agent framework, say) out of the
    test environment; the peer runs as a subprocess of that interpreter.

    Args:
        name: the peer folder's name.
        requirements: pip requirement specs.

    Returns:
        The venv's Python executable.
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


def run_node(
    folder: Path, script: str, *args: str, data: bytes = b"", timeout: float = 120
) -> bytes:
    """Run one of our scripts from ``tests/node/`` beside a peer's packages.

    Args:
        folder: a folder :func:`node_peer` returned.
        script: the script's file name in ``tests/node/``.
        args: command-line arguments for the script.
        data: bytes for the script's stdin.
        timeout: seconds before the run fails.

    Returns:
        The script's stdout. A non-zero exit fails the test with its stderr.
    """
    source = NODE_SCRIPTS / script
    target = folder / script
    if not target.exists() or target.read_bytes() != source.read_bytes():
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(source.read_bytes())
        tmp.replace(target)  # atomic: a parallel worker never runs half a script
    done = subprocess.run(  # noqa: S603 - one of our scripts
        ["node", script, *args],  # noqa: S607 - node as the user has it on PATH
        cwd=folder,
        input=data,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode:
        pytest.fail(f"node {script} exited {done.returncode}:\n{done.stderr.decode()[-4000:]}")
    return done.stdout
