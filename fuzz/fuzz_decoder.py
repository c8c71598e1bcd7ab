"""Coverage-guided fuzzing of the AG-UI decoder alone: framing, JSON, event types.

Input layout: the first byte picks the configuration (bits 0-1: format auto, jsonl or
sse; bit 2: a 256-byte line limit; bit 3: strict; bits 4-7: number of extra cuts), the
rest is the stream. Every input is decoded whole and cut at seeded positions: the two
must agree, nothing may raise, and every decoded event must survive an encode/decode
round trip unchanged. Run it as documented in ``fuzz/README.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports():
    import msgspec
    from invariants import split_points

    from a2ui_stream import Diagnostic, EventDecoder, Limits, decode_event, encode_event

_FORMATS: tuple[Literal["auto", "jsonl", "sse"], ...] = ("auto", "jsonl", "sse", "auto")
_SMALL = Limits(max_line_bytes=256)
_DEFAULT = Limits()
_encode = msgspec.json.Encoder().encode


def _decode(data: bytes, config: int, cuts: list[int]) -> list[object]:
    decoder = EventDecoder(
        format=_FORMATS[config & 0x03],
        limits=_SMALL if config & 0x04 else _DEFAULT,
        strict=bool(config & 0x08),
    )
    out: list[object] = []
    start = 0
    for cut in [*cuts, len(data)]:
        out.extend(decoder.feed(data[start:cut]))
        start = cut
    out.extend(decoder.close())
    return out


def test_one_input(raw: bytes) -> None:
    """Decode one fuzz input whole and in chunks and check the decoder's promises."""
    if not raw:
        return
    config, data = raw[0], raw[1:]
    whole = _decode(data, config, [])
    cut = _decode(data, config, split_points(len(data), config, (config >> 4) + 1))
    if _encode(whole) != _encode(cut):
        raise AssertionError("chunking changed the decoder's output")
    for item in whole:
        if isinstance(item, Diagnostic):
            continue
        event = item.event  # type: ignore[attr-defined]
        if decode_event(encode_event(event)) != event:
            raise AssertionError(f"round trip changed {event!r}")


def main() -> None:
    """Start libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
