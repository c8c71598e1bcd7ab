"""Coverage-guided fuzzing of the AG-UI decoder alone: framing, JSON, event types.

Input layout: the first byte picks the configuration (bits 0-1: format auto, jsonl or
sse; bit 2: a 256-byte line limit; bit 3: strict; bits 4-7: number of extra cuts), the
rest is the stream. Every input is decoded whole and cut at seeded positions: the two
must agree, nothing may raise, and every decoded event must survive an encode/decode
round trip unchanged (``tests/invariants.py`` holds the checks). Run it as documented
in ``fuzz/README.md``.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports():
    from invariants import check_decoder_input


def main() -> None:
    """Start libFuzzer with the command-line arguments."""
    # libFuzzer re-runs argv[0] through the shell for -merge and -fork; the script is
    # not executable on its own, so name the interpreter too.
    command = f"{shlex.quote(sys.executable)} {shlex.quote(__file__)}"
    atheris.Setup([command, *sys.argv[1:]], check_decoder_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
