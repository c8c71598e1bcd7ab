"""Shared fixtures: where the reference data from ``../shared`` lives, the command line,
an archive on disk."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from archive_cases import Archive, build
from helpers import Result
from helpers import write as write_file
from hypothesis import HealthCheck, settings

from a2ui_stream._shell.cli import main

if TYPE_CHECKING:
    from collections.abc import Callable

# The suite runs on shared 2-core machines: a slow example is the machine's doing, not
# the code's, so timing checks would only make property tests flaky. Tests that set
# their own ``@settings`` inherit this and override what they name.
settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("shared-machine")


def pytest_configure() -> None:
    """Take SIGINT back when the suite was started with it ignored.

    A shell without job control starts a background job (``.ci/run &`` in a script, some
    CI runners) with SIGINT ignored, and every process it starts inherits that: the
    tests that press Ctrl-C on the command line would then see it carry on and exit 0.
    A handler of our own is reset to the default in each child, so the command lines
    the tests start (and xdist's workers) get Python's KeyboardInterrupt again.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SAMPLES = SHARED / "a2ui-samples"
VOCABULARY = SHARED / "reference" / "generative-ui-vocabulary.json"


@pytest.fixture
def samples_dir() -> Path:
    """The A2UI sample files; skip when this checkout has no ``../shared`` beside it."""
    if not SAMPLES.is_dir():
        pytest.skip(f"A2UI samples not found at {SAMPLES} (checkout without ../shared)")
    return SAMPLES


@pytest.fixture
def vocabulary_path() -> Path:
    """The vocabulary prop schemas; skip when ``../shared`` is absent."""
    if not VOCABULARY.is_file():
        pytest.skip(f"vocabulary schemas not found at {VOCABULARY} (checkout without ../shared)")
    return VOCABULARY


@pytest.fixture
def cli(capsysbinary: pytest.CaptureFixture[bytes]) -> Callable[..., Result]:
    """Run main() in-process and capture its exit code, stdout bytes and stderr text."""

    def run(*argv: str | Path) -> Result:
        code = main([str(arg) for arg in argv])
        out, err = capsysbinary.readouterr()
        return Result(code, out, err.decode())

    return run


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, bytes], Path]:
    """Write bytes to a file under tmp_path and return its path."""

    def make(name: str, data: bytes) -> Path:
        return write_file(tmp_path, name, data)

    return make


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """A small archive of recordings on disk (``archive_cases.build``), once per module."""
    root = tmp_path_factory.mktemp("archive") / "archive"
    return root, build(root)
