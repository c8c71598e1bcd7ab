"""Inputs and chunkings shared by the processor, pipeline and CLI tests.

Holds the bundled recording, the wire-contract example of the A2UI-over-AG-UI page, a
small stream exercising add, update and remove, helpers that turn JSONL into SSE, and
the h11-style chunkings every byte-level test feeds: whole, one byte at a time, random
splits, and with trailing bytes.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[1]
RECORDING_PATH = ROOT / "examples" / "recording.jsonl"
RECORDING = RECORDING_PATH.read_bytes()

_ENCODER = msgspec.json.Encoder()

#: The expected args of part ``a2ui:s1`` from the wire-contract example.
ORDER_CARD: dict[str, Any] = {
    "$type": "Card",
    "title": "Order",
    "children": [{"$type": "Markdown", "value": "$42"}],
}

#: The wire-contract example of ``a2ui-over-ag-ui.md``, as written there (pretty JSON).
WIRE_CONTRACT_EXAMPLE = b"""{
  "type": "ACTIVITY_SNAPSHOT",
  "messageId": "a2ui-surface-call_1",
  "activityType": "a2ui-surface",
  "replace": true,
  "content": {
    "a2ui_operations": [
      { "version": "v0.9", "createSurface": { "surfaceId": "s1" } },
      {
        "version": "v0.9",
        "updateComponents": {
          "surfaceId": "s1",
          "components": [
            { "id": "root", "component": "Card", "title": "Order", "children": ["total"] },
            { "id": "total", "component": "Text", "text": { "path": "/total" } }
          ]
        }
      },
      {
        "version": "v0.9",
        "updateDataModel": { "surfaceId": "s1", "path": "/", "contents": { "total": "$42" } }
      }
    ]
  }
}
"""


def compact(document: bytes) -> bytes:
    """Return a JSON document re-encoded on one line, as JSONL needs."""
    return _ENCODER.encode(msgspec.json.decode(document))


def line(value: Any) -> bytes:
    """Encode one event (a dict) as a JSONL line with its terminator."""
    return _ENCODER.encode(value) + b"\n"


def snapshot(message_id: str, operations: list[Any], *, replace: bool = True) -> dict[str, Any]:
    """Build an a2ui-surface ACTIVITY_SNAPSHOT event as a plain dict."""
    return {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": message_id,
        "activityType": "a2ui-surface",
        "replace": replace,
        "content": {"a2ui_operations": operations},
    }


def text_surface(surface_id: str, text: str) -> list[Any]:
    """Return v0.9 operations painting a surface whose root is one Text component."""
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": surface_id}},
        {
            "version": "v0.9",
            "updateComponents": {
                "surfaceId": surface_id,
                "components": [{"id": "root", "component": "Text", "text": text}],
            },
        },
    ]


def delete_surface(surface_id: str) -> list[Any]:
    """Return the v0.9 operation deleting a surface."""
    return [{"version": "v0.9", "deleteSurface": {"surfaceId": surface_id}}]


def run_started(run_id: str, thread_id: str = "t1") -> dict[str, Any]:
    """Build a RUN_STARTED event."""
    return {"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}


def run_finished(run_id: str, thread_id: str = "t1") -> dict[str, Any]:
    """Build a RUN_FINISHED event."""
    return {"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id}


#: A stream with a surface painted before any RUN_STARTED, then a run where a surface is
#: added, updated twice and removed while another stays.
LIFECYCLE_EVENTS: list[dict[str, Any]] = [
    snapshot("early", text_surface("pre", "before any run")),
    run_started("r1"),
    snapshot("m1", text_surface("a", "one")),
    {"type": "TEXT_MESSAGE_START", "messageId": "x", "role": "assistant"},
    snapshot("m1", text_surface("a", "two")),
    snapshot("m2", text_surface("b", "bee")),
    snapshot("m1", text_surface("a", "three")),
    snapshot("m1", delete_surface("a")),
    run_finished("r1"),
]
LIFECYCLE = b"".join(line(event) for event in LIFECYCLE_EVENTS)


def to_sse(jsonl: bytes) -> bytes:
    """Re-frame a JSONL stream as SSE, with a comment and an ``event:`` field thrown in."""
    events = (b"event: message\ndata: " + r + b"\n\n" for r in jsonl.splitlines() if r.strip())
    return b": a2ui-stream test stream\n\n" + b"".join(events)


def split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    """Cut ``data`` at the given sorted offsets (empty pieces are kept: feeding b"" is legal)."""
    bounds = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


def random_splits(data: bytes, rng: random.Random) -> list[bytes]:
    """Cut ``data`` at random offsets, from a few pieces to many small ones."""
    count = rng.randint(1, max(1, min(len(data), 64)))
    cuts = sorted(rng.randint(0, len(data)) for _ in range(count))
    return split_at(data, cuts)


def chunkings(data: bytes, *, seed: int = 0, splits: int = 6) -> Iterator[tuple[str, list[bytes]]]:
    """Yield named chunkings of ``data``: whole, byte by byte, and ``splits`` random ones."""
    yield "whole", [data]
    yield "bytewise", [data[index : index + 1] for index in range(len(data))]
    rng = random.Random(seed)
    for number in range(splits):
        yield f"random-{number}", random_splits(data, rng)
