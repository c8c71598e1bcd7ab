"""Helpers for testing code that embeds a2ui-stream: build streams, run them, look.

Owns small builders for A2UI v0.9 operations and AG-UI activity events, encoders that
turn events into the JSONL or SSE bytes an agent would send, and :func:`process`, which
runs a whole stream through a :class:`~a2ui_stream.Processor` in any chunking and
returns everything it decided. Like ``structlog.testing``, it lets an application test
its integration without mocks. Pure: no I/O, no global state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream import events as ev
from a2ui_stream._engine.processor import Processor
from a2ui_stream._wire.codec import encode_event, event_from_mapping
from a2ui_stream._wire.convention import A2UI_ACTIVITY_TYPE, OPERATIONS_KEY
from a2ui_stream._wire.diagnostics import Diagnostic

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from a2ui_stream._state.stream import PartDiff, StreamState

__all__ = [
    "BASIC_CATALOG_V09",
    "Capture",
    "activity_snapshot",
    "create_surface",
    "delete_surface",
    "jsonl",
    "lifecycle",
    "process",
    "sse",
    "update_components",
    "update_data_model",
]

#: The v0.9 basic catalog, as surfaces built by these helpers name it.
BASIC_CATALOG_V09 = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"

_ENCODER = msgspec.json.Encoder()


def create_surface(surface_id: str, *, catalog_id: str = BASIC_CATALOG_V09) -> dict[str, Any]:
    """A v0.9 ``createSurface`` message."""
    return {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": catalog_id}}


def update_components(surface_id: str, *components: Mapping[str, Any]) -> dict[str, Any]:
    """A v0.9 ``updateComponents`` message; each component is ``{"id", "component", ...}``."""
    return {
        "version": "v0.9",
        "updateComponents": {"surfaceId": surface_id, "components": [dict(c) for c in components]},
    }


def update_data_model(surface_id: str, value: Any, *, path: str = "/") -> dict[str, Any]:
    """A v0.9 ``updateDataModel`` message setting ``value`` at ``path``."""
    return {
        "version": "v0.9",
        "updateDataModel": {"surfaceId": surface_id, "path": path, "value": value},
    }


def delete_surface(surface_id: str) -> dict[str, Any]:
    """A v0.9 ``deleteSurface`` message."""
    return {"version": "v0.9", "deleteSurface": {"surfaceId": surface_id}}


def activity_snapshot(
    message_id: str, operations: Sequence[Mapping[str, Any]], *, replace: bool = True
) -> ev.ActivitySnapshot:
    """An ``a2ui-surface`` activity snapshot carrying ``operations``, as the middleware sends."""
    return ev.ActivitySnapshot.of(
        message_id=message_id,
        activity_type=A2UI_ACTIVITY_TYPE,
        content={OPERATIONS_KEY: [dict(op) for op in operations]},
        replace=replace,
    )


def lifecycle(message_id: str, status: str, **fields: Any) -> ev.ActivitySnapshot:
    """A lifecycle snapshot (``building``, ``retrying``, ``failed``) with its fields."""
    return ev.ActivitySnapshot.of(
        message_id=message_id,
        activity_type=A2UI_ACTIVITY_TYPE,
        content={"status": status, **fields},
        replace=True,
    )


def _events(items: Iterable[ev.Event | Mapping[str, Any]]) -> list[ev.Event]:
    out: list[ev.Event] = []
    for item in items:
        if isinstance(item, ev.Event):
            out.append(item)
            continue
        event = event_from_mapping(item)
        if isinstance(event, Diagnostic):
            raise TypeError(f"not a valid AG-UI event: {event.message}")
        out.append(event)
    return out


def jsonl(items: Iterable[ev.Event | Mapping[str, Any]]) -> bytes:
    """Encode events (Structs or wire-form dicts) as a JSONL stream.

    Raises:
        TypeError: an item is not a valid AG-UI event.
    """
    return b"".join(encode_event(event) + b"\n" for event in _events(items))


def sse(items: Iterable[ev.Event | Mapping[str, Any]]) -> bytes:
    """Encode events (Structs or wire-form dicts) as a server-sent-events stream.

    Raises:
        TypeError: an item is not a valid AG-UI event.
    """
    return b"".join(b"data: " + encode_event(event) + b"\n\n" for event in _events(items))


class Capture(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a processor decided for one stream.

    Attributes:
        diffs: every part diff, in order.
        diagnostics: every diagnostic, in order.
        state: the final state.
    """

    diffs: tuple[PartDiff, ...]
    diagnostics: tuple[Diagnostic, ...]
    state: StreamState


def process(data: bytes, *, chunk_size: int | None = None, **options: Any) -> Capture:
    """Run a whole stream through a fresh :class:`~a2ui_stream.Processor`.

    Args:
        data: the stream's bytes (JSONL or SSE).
        chunk_size: feed it in chunks of this many bytes; whole when omitted. Any
            chunking gives the same capture, which is worth asserting in your tests.
        **options: passed to :class:`~a2ui_stream.Processor`.

    Returns:
        The diffs, diagnostics and final state.
    """
    processor = Processor(**options)
    step = chunk_size or max(len(data), 1)
    diffs: list[PartDiff] = []
    diagnostics: list[Diagnostic] = []
    for start in range(0, len(data), step):
        diffs.extend(processor.feed(data[start : start + step]))
        diagnostics.extend(processor.take_diagnostics())
    diffs.extend(processor.close())
    diagnostics.extend(processor.take_diagnostics())
    return Capture(diffs=tuple(diffs), diagnostics=tuple(diagnostics), state=processor.state)
