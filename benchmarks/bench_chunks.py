"""Time a stream against its chunked twin: what expanding chunk events costs (issue 13).

The twin has every text message and tool call of the workload as ``TEXT_MESSAGE_CHUNK``
and ``TOOL_CALL_CHUNK`` events (the first of each with its id, name and role, the rest
with their delta alone; the ends left to the next event, as chunk streams end). It
draws the same parts. Both go through a fresh :class:`Processor` (``keep_runs=0``, 64
KiB feeds), alternately, and the CPU time per event is reported, with the expansion
alone (:func:`a2ui_stream._wire.chunks.expand` over the decoded twin) beside it.

Usage::

    .venv/bin/python benchmarks/bench_chunks.py [--workload chat-mixed] [--mb 5]
        [--repeat 7]
"""

from __future__ import annotations

import argparse
import io
import json
import time
from typing import Any

import workloads

from a2ui_stream import Processor
from a2ui_stream._wire.chunks import OpenChunks, expand
from a2ui_stream._wire.codec import decode_events

_CLOCK = time.process_time
_FEED = 1 << 16


def chunked(data: bytes) -> bytes:
    """The stream with its text messages and tool calls as chunk events."""
    out = []
    for line in data.splitlines():
        event: dict[str, Any] = json.loads(line)
        kind = event["type"]
        if kind in {"TEXT_MESSAGE_END", "TOOL_CALL_END"}:
            continue
        if kind == "TEXT_MESSAGE_START":
            event = {**event, "type": "TEXT_MESSAGE_CHUNK"}
        elif kind in {"TEXT_MESSAGE_CONTENT", "TOOL_CALL_ARGS"}:
            chunk = "TEXT_MESSAGE_CHUNK" if kind == "TEXT_MESSAGE_CONTENT" else "TOOL_CALL_CHUNK"
            event = {"type": chunk, "delta": event["delta"]}
        elif kind == "TOOL_CALL_START":
            event = {**event, "type": "TOOL_CALL_CHUNK"}
        out.append(json.dumps(event, separators=(",", ":")).encode())
    return b"\n".join(out) + b"\n"


def processed(data: bytes) -> tuple[float, int]:
    """CPU seconds to process the stream, and how many diffs it gave."""
    processor = Processor(keep_runs=0)
    start = _CLOCK()
    diffs = 0
    for at in range(0, len(data), _FEED):
        diffs += len(processor.feed(data[at : at + _FEED]))
    diffs += len(processor.close())
    return _CLOCK() - start, diffs


def expanded(data: bytes) -> float:
    """CPU seconds to expand the decoded stream, and nothing else."""
    events = [item.event for item in decode_events(data) if hasattr(item, "event")]
    streams: OpenChunks = ()
    start = _CLOCK()
    for event in events:
        streams = expand(streams, event)[0]
    return _CLOCK() - start


def main() -> None:
    """Measure and print one line per stream."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workload", default="chat-mixed")
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    buffer = io.BytesIO()
    workloads.generate(options.workload, buffer, mb=options.mb, seed=1)
    plain = buffer.getvalue()
    twin = chunked(plain)
    best = {"plain": float("inf"), "chunked": float("inf")}
    drawn = {}
    for _ in range(options.repeat):
        for name, data in (("plain", plain), ("chunked", twin)):
            seconds, drawn[name] = processed(data)
            best[name] = min(best[name], seconds)
    if drawn["plain"] != drawn["chunked"]:  # the twin must draw the same, diff for diff
        raise SystemExit(f"the chunked twin drew otherwise: {drawn}")
    expansion = min(expanded(twin) for _ in range(options.repeat))
    chunks = twin.count(b"_CHUNK")
    for name, data in (("plain", plain), ("chunked", twin)):
        events = data.count(b"\n")
        print(
            f"{options.workload} {name}: {events:,} events, {len(data) / 1e6:.1f} MB, "
            f"{best[name]:.3f} s CPU = {best[name] / events * 1e6:.2f} us/event "
            f"({drawn[name]:,} diffs)"
        )
    extra = best["chunked"] - best["plain"]
    print(
        f"chunked / plain: {best['chunked'] / best['plain']:.2f}x; {chunks:,} chunk events, "
        f"{extra / chunks * 1e6:.2f} us more per chunk; expand() alone "
        f"{expansion / chunks * 1e6:.2f} us per chunk"
    )


if __name__ == "__main__":
    main()
