"""Time a streamed render call against the size of its arguments: the cost must stay linear.

A render tool's arguments arrive as ``TOOL_CALL_ARGS`` deltas of a few bytes. Parsing the
text so far on every delta (what a partial JSON parser does, and what the middleware's
helpers do) costs the square of its length; the tool-carrier stage scans each delta once
and parses each value once it is complete. This script streams one ``render_a2ui`` call
of ``--sizes`` bytes in ``--delta``-byte deltas through a fresh :class:`Processor` and
reports CPU seconds per MB; linear means the same figure at every size.

Shapes of argument:

- ``components``: a flat list of many components (the tree closes once, one paint);
- ``string``: one component whose text is a single long string;
- ``items``: a template over many ``data.items`` rows, painted row by row as they close
  for the first 100, then each time their number has doubled (every paint repeats the
  rows so far; painting each of 20,000 rows was quadratic: 13 s/MB at 120 KB, 24 s/MB
  at 240 KB).

``--baseline`` also times what the stage avoids: ``jiter``'s partial mode parsing the
text so far at every delta that holds ``}``, ``]`` or ``"`` (when jiter is installed).

Usage::

    .venv/bin/python benchmarks/bench_tool_args.py [--sizes 250000,500000,1000000]
        [--delta 10] [--shapes components,string,items] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from a2ui_stream import Processor, Severity

_CLOCK = time.process_time


def arguments(shape: str, size: int) -> str:
    """Render arguments of about ``size`` bytes in the given shape."""
    root: dict[str, Any] = {"id": "root", "component": "Column"}
    if shape == "components":
        count = max(size // 110, 1)
        leaves = [
            {"id": f"t{i}", "component": "Text", "text": f"Row {i} of the flat component list"}
            for i in range(count)
        ]
        root["children"] = [leaf["id"] for leaf in leaves]
        return json.dumps({"surfaceId": "s", "components": [root, *leaves]})
    if shape == "string":
        text = "x" * size
        leaf = {"id": "t", "component": "Text", "text": text}
        root["children"] = ["t"]
        return json.dumps({"surfaceId": "s", "components": [root, leaf]})
    root["children"] = {"componentId": "row", "path": "/items"}
    row = {"id": "row", "component": "Text", "text": {"path": "name"}}
    items = [{"name": f"Item {i} of the repeated rows", "n": i} for i in range(max(size // 45, 1))]
    return json.dumps({"surfaceId": "s", "components": [root, row], "data": {"items": items}})


def stream(text: str, delta: int) -> float:
    """CPU seconds to draw one render call whose arguments arrive ``delta`` bytes at a time."""
    events: list[dict[str, Any]] = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "render_a2ui"},
    ]
    events += [
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": text[i : i + delta]}
        for i in range(0, len(text), delta)
    ]
    events.append({"type": "TOOL_CALL_END", "toolCallId": "c"})
    processor = Processor()
    start = _CLOCK()
    diffs = processor.feed_events(events)
    elapsed = _CLOCK() - start
    errors = [d for d in processor.take_diagnostics() if d.severity is Severity.ERROR]
    if not diffs or errors:
        raise SystemExit(f"the call did not draw cleanly: {errors[:1]}")
    return elapsed


def partial_reparse(text: str, delta: int) -> float:
    """CPU seconds for jiter's partial mode to parse the text so far at each closing delta."""
    import jiter  # noqa: PLC0415 - optional, only for the baseline

    start = _CLOCK()
    for end in range(delta, len(text) + delta, delta):
        piece = text[end - delta : end]
        if "}" in piece or "]" in piece or '"' in piece:
            jiter.from_json(text[:end].encode(), partial_mode="trailing-strings")
    return _CLOCK() - start


def main() -> None:
    """Print seconds and seconds per MB for each shape and size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="250000,500000,1000000")
    parser.add_argument("--delta", type=int, default=10)
    parser.add_argument("--shapes", default="components,string,items")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", action="store_true")
    options = parser.parse_args()
    best_of = f"CPU s (best of {options.repeat})"
    print(f"| shape | bytes | deltas of {options.delta} B | {best_of} | s per MB |")
    print("|---|---:|---:|---:|---:|")
    for shape in options.shapes.split(","):
        for size in map(int, options.sizes.split(",")):
            text = arguments(shape, size)
            best = min(stream(text, options.delta) for _ in range(options.repeat))
            megabytes = len(text.encode()) / 1e6
            deltas = -(-len(text) // options.delta)
            print(f"| {shape} | {len(text):,} | {deltas:,} | {best:.2f} | {best / megabytes:.2f} |")
            if options.baseline:
                spent = partial_reparse(text, options.delta)
                row = f"{len(text):,} | {deltas:,} | {spent:.2f} | {spent / megabytes:.2f}"
                print(f"| {shape}, jiter partial reparse | {row} |")


if __name__ == "__main__":
    main()
