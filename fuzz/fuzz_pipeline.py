"""Coverage-guided fuzzing of the whole pipeline: bytes to Processor to part diffs.

Input layout: the first byte picks the configuration (bit 7: tiny limits, so limit paths
are reachable; bits 0-3: number of extra cuts), the rest is the stream. Every input is fed
twice, whole and cut at seeded positions, and must give equal diffs, diagnostics and
state, no exception, and args within every bound (``tests/invariants.py`` holds the
checks, shared with the regression test). Run it as documented in ``fuzz/README.md``.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports():
    from invariants import check_pipeline_input


def main() -> None:
    """Start libFuzzer with the command-line arguments."""
    # libFuzzer re-runs argv[0] through the shell for -merge and -fork; the script is
    # not executable on its own, so name the interpreter too.
    command = f"{shlex.quote(sys.executable)} {shlex.quote(__file__)}"
    atheris.Setup([command, *sys.argv[1:]], check_pipeline_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
