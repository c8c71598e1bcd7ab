"""Test helper: real peers (pinned npm and PyPI packages) installed once per machine.

The installing lives in :mod:`peer_cache`, which the benchmarks share; here its two
errors become pytest outcomes. Only a missing tool skips (``node``/``npm`` not on
``PATH``); an install that fails where the tools exist fails the test, so CI cannot
pass without running the peers. Node packages are driven by small scripts of ours in
``tests/node/``, copied beside the installed packages so Node resolves their imports.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from peer_cache import (
    CACHE,
    PeerInstallError,
    PeerUnavailableError,
    install_node,
    install_python,
    place_script,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["CACHE", "NODE_SCRIPTS", "node_peer", "python_peer", "run_node"]

NODE_SCRIPTS = Path(__file__).resolve().parent / "node"


def node_peer(name: str, packages: Sequence[str]) -> Path:
    """Install pinned npm packages into ``.cache/peers/<name>`` once; return the folder.

    Args:
        name: the peer folder's name.
        packages: exact npm specs, e.g. ``"@ag-ui/a2ui-middleware@0.0.10"``.

    Returns:
        The folder holding ``node_modules``; run scripts there with :func:`run_node`.
    """
    try:
        return install_node(name, packages)
    except PeerUnavailableError as missing:
        pytest.skip(str(missing))
    except PeerInstallError as failed:
        pytest.fail(str(failed))


def python_peer(name: str, requirements: Sequence[str]) -> Path:
    """Install PyPI packages into their own venv under ``.cache/peers/<name>`` once.

    Args:
        name: the peer folder's name.
        requirements: pip requirement specs.

    Returns:
        The venv's Python executable.
    """
    try:
        return install_python(name, requirements)
    except PeerInstallError as failed:
        pytest.fail(str(failed))


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
    name = place_script(folder, NODE_SCRIPTS / script)
    done = subprocess.run(  # noqa: S603 - one of our scripts
        ["node", name, *args],  # noqa: S607 - node as the user has it on PATH
        cwd=folder,
        input=data,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode:
        pytest.fail(f"node {script} exited {done.returncode}:\n{done.stderr.decode()[-4000:]}")
    return done.stdout
