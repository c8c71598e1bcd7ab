"""Decode throughput of the AG-UI wire layer against plain msgspec, in MB/s.

Compares, on the same JSONL bytes held in memory:

- ``msgspec``: splitting on newlines and decoding each line to Python objects with a
  reused ``msgspec.json.Decoder()`` (the floor any typed decoder is measured against);
- ``EventDecoder``: :class:`a2ui_stream._wire.codec.EventDecoder` fed 64 KiB chunks
  (framing, UTF-8 check, typed events with ACTIVITY content kept as ``msgspec.Raw``).

Without ``--input`` it generates a seeded stream (``--mb`` megabytes) of chat events
where ACTIVITY_SNAPSHOT lines carry cumulative A2UI surfaces of a few KB. Usage::

    python benchmarks/bench_codec.py [--mb 50] [--seed 1] [--input FILE.jsonl] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream._wire.codec import EventDecoder

if TYPE_CHECKING:
    from collections.abc import Callable

_CHUNK = 64 * 1024
_WORDS = ("order", "coffee", "latte", "size", "small", "large", "total", "price", "pickup", "note")


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def _surface(rng: random.Random, surface_id: str, rows: int) -> dict[str, Any]:
    components: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": [f"row{i}" for i in range(rows)]}
    ]
    for i in range(rows):
        components.append({"id": f"row{i}", "component": "Row", "children": [f"t{i}", f"b{i}"]})
        components.append({"id": f"t{i}", "component": "Text", "text": {"path": f"/items/{i}"}})
        components.append(
            {
                "id": f"b{i}",
                "component": "Button",
                "child": f"t{i}",
                "action": {"event": {"name": "pick"}},
            }
        )
    items = [_text(rng, 4) for _ in range(rows)]
    return {
        "a2ui_operations": [
            {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": "basic"}},
            {
                "version": "v0.9",
                "updateComponents": {"surfaceId": surface_id, "components": components},
            },
            {
                "version": "v0.9",
                "updateDataModel": {
                    "surfaceId": surface_id,
                    "path": "/",
                    "value": {"items": items},
                },
            },
        ]
    }


def generate(megabytes: float, seed: int) -> bytes:
    """Make a seeded JSONL stream of about ``megabytes`` MB."""
    rng = random.Random(seed)
    encode = msgspec.json.Encoder().encode
    lines: list[bytes] = []
    size = 0
    run = 0
    while size < megabytes * 1_000_000:
        run += 1
        batch = [{"type": "RUN_STARTED", "threadId": "t", "runId": f"r{run}", "timestamp": run}]
        message = f"m{run}"
        batch.append({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
        batch.extend(
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": _text(rng, 6)}
            for _ in range(rng.randint(5, 20))
        )
        batch.append({"type": "TEXT_MESSAGE_END", "messageId": message})
        call = f"tc{run}"
        batch.append({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "render_a2ui"})
        batch.extend(
            {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": _text(rng, 3)}
            for _ in range(10)
        )
        batch.extend(
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": f"a2ui-surface-{call}",
                "activityType": "a2ui-surface",
                "content": _surface(rng, f"s{run}", rows),
                "replace": True,
            }
            for rows in range(2, rng.randint(8, 16))
        )
        batch.append({"type": "TOOL_CALL_END", "toolCallId": call})
        batch.append({"type": "RUN_FINISHED", "threadId": "t", "runId": f"r{run}"})
        for event in batch:
            line = encode(event) + b"\n"
            lines.append(line)
            size += len(line)
    return b"".join(lines)


def plain_msgspec(data: bytes) -> int:
    """Decode every line to Python objects with a reused decoder; return the count."""
    decode = msgspec.json.Decoder().decode
    count = 0
    for line in data.split(b"\n"):
        if line:
            decode(line)
            count += 1
    return count


def event_decoder(data: bytes) -> int:
    """Feed the stream to an EventDecoder in 64 KiB chunks; return the output count."""
    decoder = EventDecoder(format="jsonl")
    count = 0
    for start in range(0, len(data), _CHUNK):
        count += len(decoder.feed(data[start : start + _CHUNK]))
    return count + len(decoder.close())


def _best(fns: dict[str, Callable[[bytes], int]], data: bytes, repeat: int) -> dict[str, float]:
    """Best time of each function, runs interleaved so background load hits all alike."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(data)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    """Run both decoders and print MB/s for each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--input", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = args.input.read_bytes() if args.input else generate(args.mb, args.seed)
    lines = data.count(b"\n")
    print(f"input: {len(data) / 1e6:.1f} MB, {lines} lines, {len(data) / max(lines, 1):.0f} B/line")
    fns: dict[str, Callable[[bytes], int]] = {
        "msgspec": plain_msgspec,
        "EventDecoder": event_decoder,
    }
    for name, seconds in _best(fns, data, args.repeat).items():
        print(f"{name:>13}: {len(data) / 1e6 / seconds:7.1f} MB/s  ({seconds:.3f} s)")


if __name__ == "__main__":
    main()
