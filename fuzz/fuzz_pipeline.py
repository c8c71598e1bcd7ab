"""Coverage-guided fuzzing of the whole pipeline: bytes to Processor to part diffs.

Input layout: the first byte picks the configuration (bit 7: tiny limits, so limit paths
are reachable; bits 0-3: number of extra cuts), the rest is the stream. Every input is fed
twice, whole and cut at seeded positions, and must give equal diffs and diagnostics, no
exception, and args within every bound. Run it as documented in ``fuzz/README.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports():
    import msgspec
    from invariants import feed_in_chunks, output_problems, split_points

    from a2ui_stream import Limits, Processor

_TINY = Limits(
    max_depth=6,
    max_template_items=5,
    max_nodes=60,
    max_line_bytes=8192,
    max_data_model_bytes=2048,
    max_operations=20,
    max_live_surfaces=3,
    max_string_length=64,
)
_DEFAULT = Limits()
_encode = msgspec.json.Encoder().encode


def _run(data: bytes, limits: Limits, cuts: list[int]) -> tuple[bytes, bytes, object]:
    processor = Processor(limits=limits)
    diffs = feed_in_chunks(processor, data, cuts)
    problems = output_problems(diffs, limits)
    if problems:
        raise AssertionError("; ".join(problems[:5]))
    return _encode(diffs), _encode(processor.take_diagnostics()), processor.state


def test_one_input(raw: bytes) -> None:
    """Feed one fuzz input through the processor and check every invariant."""
    if not raw:
        return
    config, data = raw[0], raw[1:]
    limits = _TINY if config & 0x80 else _DEFAULT
    whole = _run(data, limits, [])
    cut = _run(data, limits, split_points(len(data), config, (config & 0x0F) + 1))
    if whole[0] != cut[0]:
        raise AssertionError("chunking changed the diffs")
    if whole[1] != cut[1]:
        raise AssertionError("chunking changed the diagnostics")
    if whole[2] != cut[2]:
        raise AssertionError("chunking changed the final state")


def main() -> None:
    """Start libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
