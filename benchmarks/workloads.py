"""Seeded AG-UI workload generators, streamed to a file as JSONL.

Owns the benchmark inputs: one generator per workload, each writing whole runs
(``RUN_STARTED`` .. ``RUN_FINISHED``) until the output reaches ``--mb`` megabytes
(10**6 bytes), never holding more than one run in memory. The same workload, size
and seed always give the same bytes. A2UI surfaces travel the way
``@ag-ui/a2ui-middleware`` emits them (middleware notes §2.7): a ``building``
lifecycle snapshot, progress snapshots, a paint with ``createSurface`` and
``updateComponents``, cumulative snapshots with more ``/items`` rows, then the final
data, all under messageId ``a2ui-surface-<toolCallId>`` with ``replace: true``.

Workloads: ``chat-mixed``, ``big-surface``, ``data-churn-cumulative``,
``data-churn-delta``, ``data-churn-all``, ``many-surfaces``, ``adversarial``, and the fixed-count
``scaling-cumulative`` / ``scaling-delta`` (``--factor`` 1, 10, 100; ``--events``), and
``scaling-append`` / ``scaling-messages`` (``--events`` components appended by deltas,
or messageIds in one run; the run mode passes 10x and 100x more at the larger factors),
and ``scaling-runs`` (``--events`` short runs, one surface each; for
``bench_marginal.py runs``, which keeps every run as ``process --final`` does).

Usage::

    python benchmarks/workloads.py WORKLOAD --mb N --seed S --out PATH   # PATH "-" is stdout

A ``PATH.meta.json`` sidecar records the counts the report needs. Must not import
``a2ui_stream``: the inputs are written independently of the code they measure.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import random
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import _shapes
import msgspec
from _shapes import create_surface, update_components, update_data_model

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "GENERATOR_VERSION",
    "SCALING_WORKLOADS",
    "SIZED_WORKLOADS",
    "WORKLOADS",
    "Meta",
    "generate",
    "generate_file",
    "main",
    "meta_path",
]

#: Bumped whenever a generator's output changes, so cached files are regenerated.
GENERATOR_VERSION = 3
#: Megabyte as the report counts it.
MB = 1_000_000
#: Snapshots, deltas or surfaces a run always has, however small the target size.
_MIN_PER_RUN = 10
#: Flush the write buffer past this many bytes.
_FLUSH_BYTES = 1 << 20

_ENCODER = msgspec.json.Encoder()
_SNAPSHOT = "ACTIVITY_SNAPSHOT"
_DELTA = "ACTIVITY_DELTA"
_ACTIVITY_TYPE = "a2ui-surface"
_RENDER_TOOL = "render_a2ui"
_TOOLS = ("get_weather", "search_flights", "lookup_order", "list_hotels")


class Meta(msgspec.Struct, frozen=True, kw_only=True):
    """What was generated, written beside the data as ``PATH.meta.json``.

    Attributes:
        workload: the workload name.
        mb: the requested size in megabytes (0 for the fixed-count workloads).
        seed: the seed.
        version: :data:`GENERATOR_VERSION` at generation time.
        bytes: bytes written.
        events: lines written.
        a2ui_events: ``a2ui-surface`` snapshots plus activity deltas.
        setup_bytes: bytes before the measured steady part (scaling workloads), else 0.
        steady_events: a2ui events after ``setup_bytes`` (scaling workloads), else 0.
        factor: surface size factor (scaling workloads), else 0.
        types: lines per event type.
    """

    workload: str
    mb: float
    seed: int
    version: int
    bytes: int
    events: int
    a2ui_events: int
    setup_bytes: int = 0
    steady_events: int = 0
    factor: int = 0
    types: dict[str, int] = msgspec.field(default_factory=dict)


class _Writer:
    """Encodes events to JSONL into a binary stream and counts what went out."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._buffer = bytearray()
        self.bytes = 0
        self.events = 0
        self.a2ui_events = 0
        self.types: collections.Counter[str] = collections.Counter()

    def emit(self, event: dict[str, Any]) -> None:
        """Append one event line."""
        line = _ENCODER.encode(event)
        self._buffer += line
        self._buffer += b"\n"
        self.bytes += len(line) + 1
        self.events += 1
        kind = event["type"]
        self.types[kind] += 1
        if kind == _DELTA or (kind == _SNAPSHOT and event["activityType"] == _ACTIVITY_TYPE):
            self.a2ui_events += 1
        if len(self._buffer) >= _FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write out what is buffered."""
        self._out.write(self._buffer)
        self._buffer.clear()


class _Ids:
    """Deterministic ids: a counter per prefix."""

    def __init__(self) -> None:
        self._counts: collections.Counter[str] = collections.Counter()

    def __call__(self, prefix: str) -> str:
        self._counts[prefix] += 1
        return f"{prefix}-{self._counts[prefix]}"


def _enc(value: Any) -> bytes:
    return _ENCODER.encode(value)


def _snapshot(message_id: str, content: dict[str, Any], *, replace: bool = True) -> dict[str, Any]:
    return {
        "type": _SNAPSHOT,
        "messageId": message_id,
        "activityType": _ACTIVITY_TYPE,
        "content": content,
        "replace": replace,
    }


def _ops(*ops: Any) -> dict[str, Any]:
    return {"a2ui_operations": list(ops)}


def _text_message(rng: random.Random, w: _Writer, ids: _Ids) -> str:
    """An assistant message streamed as a few-word deltas; returns its id."""
    message_id = ids("msg")
    w.emit({"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"})
    for _ in range(rng.randint(5, 60)):
        delta = _shapes.sentence(rng, 1, 3) + " "
        w.emit({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": delta})
    w.emit({"type": "TEXT_MESSAGE_END", "messageId": message_id})
    return message_id


def _stream_args(rng: random.Random, w: _Writer, call_id: str, args: str) -> None:
    pos = 0
    while pos < len(args):
        end = min(len(args), pos + rng.randint(8, 40))
        w.emit({"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": args[pos:end]})
        pos = end


def _plain_tool_call(rng: random.Random, w: _Writer, ids: _Ids, parent: str) -> None:
    """A non-A2UI tool call with its result; sometimes the result carries A2UI ops."""
    call_id = ids("tc")
    name = rng.choice(_TOOLS)
    w.emit({"type": "STEP_STARTED", "stepName": name})
    w.emit(
        {
            "type": "TOOL_CALL_START",
            "toolCallId": call_id,
            "toolCallName": name,
            "parentMessageId": parent,
        }
    )
    _stream_args(rng, w, call_id, _enc({"query": _shapes.sentence(rng, 1, 6)}).decode())
    w.emit({"type": "TOOL_CALL_END", "toolCallId": call_id})
    if rng.random() < 0.15:
        # Auto-detected result (notes §2.7d): the ops travel verbatim after the result.
        surface_id = ids("s")
        surface = _shapes.chat_surface(rng)
        ops = [
            create_surface(surface_id),
            update_components(surface_id, surface.components),
            update_data_model(surface_id, surface.data),
        ]
        content = _enc({"a2ui_operations": ops}).decode()
        w.emit(
            {
                "type": "TOOL_CALL_RESULT",
                "messageId": ids("msg"),
                "toolCallId": call_id,
                "content": content,
            }
        )
        w.emit(_snapshot(f"a2ui-surface-{call_id}", _ops(*ops)))
    else:
        rows = [_shapes.item(rng, i) for i in range(rng.randint(1, 6))]
        content = _enc({"results": rows}).decode()
        w.emit(
            {
                "type": "TOOL_CALL_RESULT",
                "messageId": ids("msg"),
                "toolCallId": call_id,
                "content": content,
            }
        )
    w.emit({"type": "STEP_FINISHED", "stepName": name})


def _layout_args(surface_id: str, surface: _shapes.Surface) -> tuple[bytes, int, list[int], int]:
    """The render tool's JSON arguments and where the middleware's milestones close.

    Returns:
        The arguments, the offset just past the components array, the offset past
        each ``data.items`` row, and the offset past the whole ``data`` object.
    """
    head = (
        b'{"surfaceId":'
        + _enc(surface_id)
        + b',"catalogId":'
        + _enc(_shapes.BASIC_CATALOG_ID)
        + b',"components":'
        + _enc(surface.components)
    )
    body = bytearray(b',"data":{"items":[')
    item_ends: list[int] = []
    for index, row in enumerate(surface.data["items"]):
        if index:
            body += b","
        body += _enc(row)
        item_ends.append(len(head) + len(body))
    body += b"]"
    for key, value in surface.data.items():
        if key != "items":
            body += b"," + _enc(key) + b":" + _enc(value)
    body += b"}"
    data_end = len(head) + len(body)
    body += b"}"
    return head + bytes(body), len(head), item_ends, data_end


def _render_call(
    rng: random.Random,
    w: _Writer,
    call_id: str,
    surface_id: str,
    surface: _shapes.Surface,
    *,
    parent: str,
    chunk: tuple[int, int],
) -> None:
    """A streamed ``render_a2ui`` call with the snapshots the middleware interleaves.

    Synthetic snapshots precede the delta that triggered them (notes §2.7, ordering
    quirk). Each paint is cumulative: createSurface, updateComponents and, once rows
    are complete, updateDataModel at ``/`` with ``{"items": rows so far}``; when the
    whole ``data`` object has closed, a last snapshot carries all of it.
    """
    message_id = f"a2ui-surface-{call_id}"
    w.emit(_snapshot(message_id, {"status": "building"}))
    w.emit(
        {
            "type": "TOOL_CALL_START",
            "toolCallId": call_id,
            "toolCallName": _RENDER_TOOL,
            "parentMessageId": parent,
        }
    )
    create = msgspec.Raw(_enc(create_surface(surface_id)))
    components = msgspec.Raw(_enc(update_components(surface_id, surface.components)))
    args, components_end, item_ends, data_end = _layout_args(surface_id, surface)
    items = [_enc(row) for row in surface.data["items"]]
    full_data = msgspec.Raw(_enc(surface.data))
    painted = final = False
    progress = emitted = pos = 0
    while pos < len(args):
        end = min(len(args), pos + rng.randint(*chunk))
        while end < len(args) and (args[end] & 0xC0) == 0x80:
            end += 1  # never split a UTF-8 sequence
        if not painted:
            tokens = round(end / 4)
            if tokens - progress >= 20:
                w.emit(_snapshot(message_id, {"status": "building", "progressTokens": tokens}))
                progress = tokens
        newly = not painted and end >= components_end
        painted = painted or newly
        if painted:
            complete = bisect.bisect_right(item_ends, end)
            if newly or complete > emitted:
                ops: list[Any] = [create, components]
                if complete:
                    rows = msgspec.Raw(b'{"items":[' + b",".join(items[:complete]) + b"]}")
                    ops.append(update_data_model(surface_id, rows))
                w.emit(_snapshot(message_id, _ops(*ops)))
                emitted = complete
            if not final and end >= data_end:
                w.emit(
                    _snapshot(
                        message_id,
                        _ops(create, components, update_data_model(surface_id, full_data)),
                    )
                )
                final = True
        w.emit({"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": args[pos:end].decode()})
        pos = end
    w.emit({"type": "TOOL_CALL_END", "toolCallId": call_id})


def _run(rng: random.Random, w: _Writer, ids: _Ids, body: Callable[[str, list[str]], None]) -> None:
    """One run: start, ``body(parent_message_id, render_call_ids)``, results, finish."""
    thread_id, run_id = "thread-1", ids("run")
    w.emit({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id})
    renders: list[str] = []
    body(ids("msg"), renders)
    for call_id in renders:
        # The middleware closes render calls that got no result (notes §2.7e).
        uid = f"{rng.getrandbits(128):032x}"
        content = '{"status":"rendered"}'
        w.emit(
            {
                "type": "TOOL_CALL_RESULT",
                "messageId": uid,
                "toolCallId": call_id,
                "content": content,
            }
        )
    w.emit({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id})


def _chat_mixed(rng: random.Random, w: _Writer, ids: _Ids, _case: int, _target: int) -> None:
    def body(parent: str, renders: list[str]) -> None:
        for _ in range(rng.randint(1, 4)):
            roll = rng.random()
            if roll < 0.4:
                parent = _text_message(rng, w, ids)
            elif roll < 0.6:
                _plain_tool_call(rng, w, ids, parent)
            else:
                call_id = ids("tc")
                surface = _shapes.chat_surface(rng)
                _render_call(rng, w, call_id, ids("s"), surface, parent=parent, chunk=(20, 120))
                renders.append(call_id)
        _text_message(rng, w, ids)

    _run(rng, w, ids, body)


def _big_surface(rng: random.Random, w: _Writer, ids: _Ids, _case: int, _target: int) -> None:
    def body(parent: str, renders: list[str]) -> None:
        parent = _text_message(rng, w, ids)
        call_id = ids("tc")
        builder = _shapes.SurfaceBuilder(rng, rng.randint(3800, 4200), items=rng.randint(20, 40))
        surface = builder.build()
        _render_call(rng, w, call_id, ids("s"), surface, parent=parent, chunk=(2000, 8000))
        renders.append(call_id)

    _run(rng, w, ids, body)


def _churn_setup(
    rng: random.Random, w: _Writer, ids: _Ids, parent: str, renders: list[str], *, size: int
) -> tuple[str, str, _shapes.Surface]:
    call_id, surface_id = ids("tc"), ids("s")
    surface = _shapes.SurfaceBuilder(rng, size, items=50).build()
    _render_call(rng, w, call_id, surface_id, surface, parent=parent, chunk=(200, 800))
    renders.append(call_id)
    return f"a2ui-surface-{call_id}", surface_id, surface


def _change(rng: random.Random, data: dict[str, Any]) -> tuple[str, Any]:
    """Change one data value in place; return its pointer under the data root and value."""
    index = rng.randrange(len(data["items"]))
    row = data["items"][index]
    field = rng.choice(("price", "name", "inStock", "rating"))
    value = _FIELD_VALUES[field](rng)
    row[field] = value
    return f"/items/{index}/{field}", value


_FIELD_VALUES: dict[str, Callable[[random.Random], Any]] = {
    "price": lambda rng: round(rng.uniform(1, 500), 2),
    "name": lambda rng: _shapes.sentence(rng, 1, 3).title(),
    "inStock": lambda rng: rng.random() < 0.5,
    "rating": lambda rng: rng.randint(1, 5),
}


def _data_churn_cumulative(
    rng: random.Random, w: _Writer, ids: _Ids, _case: int, target: int
) -> None:
    def body(parent: str, renders: list[str]) -> None:
        message_id, surface_id, surface = _churn_setup(rng, w, ids, parent, renders, size=150)
        create = msgspec.Raw(_enc(create_surface(surface_id)))
        components = msgspec.Raw(_enc(update_components(surface_id, surface.components)))
        for count in range(300):
            if count >= _MIN_PER_RUN and w.bytes >= target:
                break  # a run ends early only once the size is reached
            _change(rng, surface.data)
            data = update_data_model(surface_id, surface.data)
            w.emit(_snapshot(message_id, _ops(create, components, data)))

    _run(rng, w, ids, body)


def _changed(rng: random.Random, value: Any) -> Any:
    """A new value of the same kind, never equal to ``value``: every scalar is replaced."""
    if isinstance(value, dict):
        return {key: _changed(rng, inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_changed(rng, inner) for inner in value]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.randint(1, 9)
    if isinstance(value, float):
        return round(value + rng.uniform(0.01, 5), 2)
    if isinstance(value, str):
        if value.startswith("https://"):
            return f"{value.rsplit('/', 1)[0]}/{rng.randrange(10**6)}-{len(value) % 7}.png"
        words = max(len(value.split()), 1)
        fresh = _shapes.sentence(rng, words, words)
        return fresh if fresh != value else fresh + " " + rng.choice(_shapes.WORDS)
    return value


def _data_churn_all(rng: random.Random, w: _Writer, ids: _Ids, _case: int, target: int) -> None:
    """A live dashboard: one surface re-sent with every data value changed each time."""

    def body(parent: str, renders: list[str]) -> None:
        call_id, surface_id = ids("tc"), ids("s")
        surface = _shapes.SurfaceBuilder(rng, 48, items=8).build()
        _render_call(rng, w, call_id, surface_id, surface, parent=parent, chunk=(200, 800))
        renders.append(call_id)
        message_id = f"a2ui-surface-{call_id}"
        create = msgspec.Raw(_enc(create_surface(surface_id)))
        components = msgspec.Raw(_enc(update_components(surface_id, surface.components)))
        data = surface.data
        for count in range(300):
            if count >= _MIN_PER_RUN and w.bytes >= target:
                break  # a run ends early only once the size is reached
            data = _changed(rng, data)
            write = update_data_model(surface_id, data)
            w.emit(_snapshot(message_id, _ops(create, components, write)))

    _run(rng, w, ids, body)


def _delta(message_id: str, pointer: str, value: Any) -> dict[str, Any]:
    path = f"/a2ui_operations/2/updateDataModel/value{pointer}"
    return {
        "type": _DELTA,
        "messageId": message_id,
        "activityType": _ACTIVITY_TYPE,
        "patch": [{"op": "replace", "path": path, "value": value}],
    }


def _data_churn_delta(rng: random.Random, w: _Writer, ids: _Ids, _case: int, target: int) -> None:
    def body(parent: str, renders: list[str]) -> None:
        message_id, _, surface = _churn_setup(rng, w, ids, parent, renders, size=150)
        for count in range(2000):
            if count >= _MIN_PER_RUN and w.bytes >= target:
                break  # a run ends early only once the size is reached
            pointer, value = _change(rng, surface.data)
            w.emit(_delta(message_id, pointer, value))

    _run(rng, w, ids, body)


def _many_surfaces(rng: random.Random, w: _Writer, ids: _Ids, _case: int, target: int) -> None:
    """Thousands of small surfaces stay live in one run; a third of snapshots revisit one."""

    def body(_parent: str, _renders: list[str]) -> None:
        live: list[tuple[str, str, _shapes.Surface]] = []
        for count in range(rng.randint(2000, 4000)):
            if count >= _MIN_PER_RUN and w.bytes >= target:
                break  # a run ends early only once the size is reached
            if live and rng.random() < 0.3:
                message_id, surface_id, surface = rng.choice(live)
                _change(rng, surface.data)
            else:
                call_id, surface_id = ids("tc"), ids("s")
                builder = _shapes.SurfaceBuilder(rng, rng.randint(5, 15), items=rng.randint(1, 4))
                surface = builder.build()
                # Multi-surface results are keyed by surface and call (notes §2.7d).
                multi = rng.random() < 0.1
                message_id = (
                    f"a2ui-surface-{surface_id}-{call_id}" if multi else f"a2ui-surface-{call_id}"
                )
                live.append((message_id, surface_id, surface))
            ops = (
                create_surface(surface_id),
                update_components(surface_id, surface.components),
                update_data_model(surface_id, surface.data),
            )
            w.emit(_snapshot(message_id, _ops(*ops)))

    _run(rng, w, ids, body)


def _paint(
    w: _Writer, message_id: str, surface_id: str, components: list[dict[str, Any]], data: Any
) -> None:
    ops = [create_surface(surface_id), update_components(surface_id, components)]
    if data is not None:
        ops.append(update_data_model(surface_id, data))
    w.emit(_snapshot(message_id, _ops(*ops)))


def _text(cid: str, text: Any) -> dict[str, Any]:
    return {"id": cid, "component": "Text", "text": text}


def _adv_depth(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """Nesting 40 deep, past the depth limit of 32."""
    depth = 40
    comps: list[dict[str, Any]] = [
        {"id": "root" if i == 0 else f"n{i}", "component": "Column", "children": [f"n{i + 1}"]}
        for i in range(depth)
    ]
    comps.append(_text(f"n{depth}", _shapes.sentence(rng, 2, 4)))
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, None)


def _adv_template(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """One template over 500 rows, past the 100-item template limit."""
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
        _text("row", {"path": "name"}),
    ]
    _paint(
        w,
        ids("a2ui-surface-adv"),
        ids("s"),
        comps,
        {"items": [_shapes.item(rng, i) for i in range(500)]},
    )


def _adv_nodes(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """6,000 flat children, and 100 template rows of 80 nodes: both past 5,000 nodes."""
    flat = [_text(f"t{i}", _shapes.sentence(rng, 1, 2)) for i in range(6000)]
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": [c["id"] for c in flat]},
        *flat,
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, None)
    cells = [_text(f"c{i}", {"path": "name"}) for i in range(79)]
    comps = [
        {
            "id": "root",
            "component": "Column",
            "children": {"componentId": "cell", "path": "/items"},
        },
        {"id": "cell", "component": "Row", "children": [c["id"] for c in cells]},
        *cells,
    ]
    _paint(
        w,
        ids("a2ui-surface-adv"),
        ids("s"),
        comps,
        {"items": [_shapes.item(rng, i) for i in range(100)]},
    )


def _adv_cycles(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """A self-reference, a two-node loop, and a cycle through a template."""
    del rng
    _paint(
        w,
        ids("a2ui-surface-adv"),
        ids("s"),
        [{"id": "root", "component": "Card", "child": "root"}],
        None,
    )
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": ["a"]},
        {"id": "a", "component": "Row", "children": ["b"]},
        {"id": "b", "component": "Card", "child": "a"},
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, None)
    comps = [
        {"id": "root", "component": "List", "children": {"componentId": "t", "path": "/items"}},
        {"id": "t", "component": "Column", "children": {"componentId": "root", "path": "/items"}},
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, {"items": [{"name": "x"}, {"name": "y"}]})


def _adv_unknown(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """Components outside the basic catalog, among known ones and as the root."""
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": ["chart", "map", "ok"]},
        {"id": "chart", "component": "FancyChart", "series": [1, 2, 3], "child": "ok"},
        {"id": "map", "component": "Map", "lat": 1.5, "lng": 2.5},
        _text("ok", _shapes.sentence(rng, 2, 4)),
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, None)
    _paint(w, ids("a2ui-surface-adv"), ids("s"), [{"id": "root", "component": "Hologram"}], None)


def _adv_strings(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """A 1.5 M-character literal and the same bound from the data model."""
    huge = (_shapes.sentence(rng, 5, 5) + " ") * 50_000
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": ["lit", "bound"]},
        _text("lit", huge[:1_500_000]),
        _text("bound", {"path": "/huge"}),
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, {"huge": huge[:1_500_000]})


def _adv_references(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """Dangling child ids, no root, and bindings that cannot resolve."""
    comps: list[dict[str, Any]] = [
        {"id": "root", "component": "Row", "children": ["missing", "there"]},
        {"id": "there", "component": "Card", "child": "also-missing"},
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, None)
    _paint(w, ids("a2ui-surface-adv"), ids("s"), [_text("not-root", "orphan")], None)
    comps = [
        {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
        _text("a", {"path": "/nothing/here/at/all"}),
        _text("b", {"path": "/items/abc/name"}),
        _text("c", {"path": "relative/outside"}),
    ]
    _paint(w, ids("a2ui-surface-adv"), ids("s"), comps, {"items": [_shapes.item(rng, 0)]})


def _adv_protocol(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """Ops out of order, duplicate creates, replace false, and bad deltas."""
    surface_id = ids("s")
    message_id = ids("a2ui-surface-adv")
    comps = [_text("root", _shapes.sentence(rng, 1, 3))]
    w.emit(
        _snapshot(
            message_id, _ops(update_components(surface_id, comps), create_surface(surface_id))
        )
    )
    w.emit(_snapshot(message_id, _ops(create_surface(surface_id), create_surface(surface_id))))
    w.emit(_snapshot(message_id, _ops(create_surface(surface_id)), replace=False))
    w.emit(_snapshot(message_id, {"a2ui_operations": []}))
    w.emit(_snapshot(message_id, {"status": "failed", "error": "boom", "attempts": []}))
    w.emit(_delta("a2ui-surface-never-seen", "/items/0/name", "x"))
    w.emit(_delta(message_id, "/no/such/path", 1))
    w.emit(
        {
            "type": _DELTA,
            "messageId": message_id,
            "activityType": _ACTIVITY_TYPE,
            "patch": [{"op": "remove", "path": "/a2ui_operations/9"}],
        }
    )


def _adv_operations(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """10,001 operations in one snapshot, past the operation limit."""
    surface_id = ids("s")
    ops = [
        create_surface(surface_id),
        update_components(surface_id, [_text("root", {"path": "/v"})]),
    ]
    ops.extend(update_data_model(surface_id, rng.randrange(1000), f"/v{i}") for i in range(9_999))
    w.emit(_snapshot(ids("a2ui-surface-adv"), _ops(*ops)))


def _adv_live_surfaces(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """10,050 live surfaces in one run, past the live-surface limit."""
    for _ in range(10_050):
        _paint(
            w, ids("a2ui-surface-adv"), ids("s"), [_text("root", rng.choice(_shapes.WORDS))], None
        )


def _adv_data_model(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """A 9 MB data model, past the 8 MiB data-model limit."""
    rows = [_shapes.sentence(rng, 12, 12) for _ in range(150_000)]
    _paint(
        w, ids("a2ui-surface-adv"), ids("s"), [_text("root", {"path": "/rows/0"})], {"rows": rows}
    )


def _adv_line(rng: random.Random, w: _Writer, ids: _Ids) -> None:
    """One 17 MB line, past the 16 MiB line limit."""
    blob = (_shapes.sentence(rng, 4, 4) + " ") * (17_000_000 // 20)
    _paint(w, ids("a2ui-surface-adv"), ids("s"), [_text("root", {"path": "/blob"})], {"blob": blob})


#: Cheap cases first, so small sizes still hit every structural limit once.
_ADVERSARIAL_CASES: tuple[Callable[[random.Random, _Writer, _Ids], None], ...] = (
    _adv_depth,
    _adv_cycles,
    _adv_unknown,
    _adv_references,
    _adv_protocol,
    _adv_template,
    _adv_nodes,
    _adv_strings,
    _adv_operations,
    _adv_live_surfaces,
    _adv_data_model,
    _adv_line,
)


def _adversarial(rng: random.Random, w: _Writer, ids: _Ids, case: int, _target: int) -> None:
    def body(_parent: str, _renders: list[str]) -> None:
        _ADVERSARIAL_CASES[case % len(_ADVERSARIAL_CASES)](rng, w, ids)

    _run(rng, w, ids, body)


#: Workloads sized by ``--mb``: each writes one run per call until the size is reached.
SIZED_WORKLOADS: dict[str, Callable[[random.Random, _Writer, _Ids, int, int], None]] = {
    "chat-mixed": _chat_mixed,
    "big-surface": _big_surface,
    "data-churn-cumulative": _data_churn_cumulative,
    "data-churn-delta": _data_churn_delta,
    "data-churn-all": _data_churn_all,
    "many-surfaces": _many_surfaces,
    "adversarial": _adversarial,
}
#: Fixed-count workloads for the scaling run.
SCALING_WORKLOADS = ("scaling-cumulative", "scaling-delta", "scaling-append", "scaling-messages")
#: Fixed-count workloads only ``bench_marginal.py`` streams (the run mode keeps no past
#: run, so a cost that grows with the runs kept does not show there).
MARGINAL_WORKLOADS = ("scaling-runs",)
WORKLOADS = (*SIZED_WORKLOADS, *SCALING_WORKLOADS, *MARGINAL_WORKLOADS)


def _scaling(
    rng: random.Random, w: _Writer, ids: _Ids, *, delta: bool, factor: int, events: int
) -> int:
    """A surface ``factor`` times the 1x size, then ``events`` one-value changes.

    Returns:
        The byte count before the first change (the unmeasured setup).
    """
    thread_id, run_id = "thread-1", ids("run")
    w.emit({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id})
    surface_id, message_id = ids("s"), "a2ui-surface-tc-scaling"
    surface = _shapes.SurfaceBuilder(rng, 40 * factor, items=10 * factor).build()
    create = msgspec.Raw(_enc(create_surface(surface_id)))
    components = msgspec.Raw(_enc(update_components(surface_id, surface.components)))
    w.emit(
        _snapshot(message_id, _ops(create, components, update_data_model(surface_id, surface.data)))
    )
    setup = w.bytes
    for index in range(events):
        # The same change at every size: the price of one of the first ten rows.
        pointer = f"/items/{index % 10}/price"
        value = round(rng.uniform(1, 500), 2)
        surface.data["items"][index % 10]["price"] = value
        if delta:
            w.emit(_delta(message_id, pointer, value))
        else:
            w.emit(
                _snapshot(
                    message_id,
                    _ops(create, components, update_data_model(surface_id, surface.data)),
                )
            )
    w.emit({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id})
    return setup


def _append(rng: random.Random, w: _Writer, ids: _Ids, *, events: int) -> int:
    """One surface, then ``events`` deltas each appending a component to its root list.

    How an agent streams a list one component at a time: every delta adds a Text to
    the ``updateComponents`` list and its id to the root Column's children (issue 12,
    ``deltas_quadratic.py``), so the list grows with the stream.

    Returns:
        The byte count before the first delta (the unmeasured setup).
    """
    thread_id, run_id = "thread-1", ids("run")
    w.emit({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id})
    surface_id, message_id = ids("s"), "a2ui-surface-tc-append"
    root = {"id": "root", "component": "Column", "children": []}
    w.emit(
        _snapshot(
            message_id, _ops(create_surface(surface_id), update_components(surface_id, [root]))
        )
    )
    setup = w.bytes
    path = "/a2ui_operations/1/updateComponents/components"
    for index in range(events):
        text = {"id": f"c{index}", "component": "Text", "text": f"row {rng.randrange(10**6)}"}
        patch = [
            {"op": "add", "path": f"{path}/-", "value": text},
            {"op": "add", "path": f"{path}/0/children/-", "value": f"c{index}"},
        ]
        w.emit(
            {
                "type": "ACTIVITY_DELTA",
                "messageId": message_id,
                "activityType": "a2ui-surface",
                "patch": patch,
            }
        )
    w.emit({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id})
    return setup


def _messages(rng: random.Random, w: _Writer, ids: _Ids, *, events: int) -> int:
    """One run with ``events`` messageIds, each a building status then its own surface.

    The run's maps grow with the stream (issue 12, ``scaling.py`` ``lifecycle`` and
    ``mids``): what each event costs must not.

    Returns:
        The byte count before the first message (the unmeasured setup).
    """
    thread_id, run_id = "thread-1", ids("run")
    w.emit({"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id})
    setup = w.bytes
    for index in range(events):
        message_id, surface_id = f"a2ui-surface-tc-{index}", f"s{index}"
        if index % 2:
            w.emit(_snapshot(message_id, {"status": "building"}))
        text = {"id": "root", "component": "Text", "text": f"card {rng.randrange(10**6)}"}
        w.emit(
            _snapshot(
                message_id, _ops(create_surface(surface_id), update_components(surface_id, [text]))
            )
        )
    w.emit({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id})
    return setup


def _runs(rng: random.Random, w: _Writer, ids: _Ids, *, events: int) -> int:
    """``events`` short runs in one thread, each drawing one surface of its own.

    A stream that keeps its runs (``process --final``, ``render``, an archive's fold)
    grows with them; what each event costs must not (a tuple of runs copied per event
    made 32,000 runs cost 46 s).

    Returns:
        The byte count before the first run (the unmeasured setup: nothing).
    """
    for index in range(events):
        run_id, surface_id = ids("run"), f"s{index}"
        w.emit({"type": "RUN_STARTED", "threadId": "thread-1", "runId": run_id})
        text = {"id": "root", "component": "Text", "text": f"card {rng.randrange(10**6)}"}
        operations = _ops(create_surface(surface_id), update_components(surface_id, [text]))
        w.emit(_snapshot(f"a2ui-surface-tc-{index}", operations))
        w.emit({"type": "RUN_FINISHED", "threadId": "thread-1", "runId": run_id})
    return 0


def generate(
    workload: str,
    out: IO[bytes],
    *,
    mb: float = 1.0,
    seed: int = 0,
    factor: int = 1,
    events: int = 1000,
) -> Meta:
    """Write one workload to a binary stream.

    Args:
        workload: a name from :data:`WORKLOADS`.
        out: where the JSONL goes.
        mb: target size in megabytes (sized workloads); the last run may overshoot it.
        seed: the seed; the same arguments always give the same bytes.
        factor: surface size factor (scaling workloads).
        events: measured changes (scaling workloads).

    Returns:
        The counts of what was written.

    Raises:
        KeyError: the workload name is unknown.
    """
    rng = random.Random(f"{workload}:{seed}")
    w, ids = _Writer(out), _Ids()
    setup = steady = 0
    if workload == "scaling-append":
        setup, steady, mb = _append(rng, w, ids, events=events), events, 0
    elif workload == "scaling-messages":
        setup, steady, mb = _messages(rng, w, ids, events=events), events, 0
    elif workload == "scaling-runs":
        setup, steady, mb = _runs(rng, w, ids, events=events), events, 0
    elif workload in SCALING_WORKLOADS:
        setup = _scaling(
            rng, w, ids, delta=workload == "scaling-delta", factor=factor, events=events
        )
        steady, mb = events, 0
    else:
        unit = SIZED_WORKLOADS[workload]
        target, case = int(mb * MB), 0
        while w.bytes < target:
            unit(rng, w, ids, case, target)
            case += 1
        factor = 0
    w.flush()
    return Meta(
        workload=workload,
        mb=mb,
        seed=seed,
        version=GENERATOR_VERSION,
        bytes=w.bytes,
        events=w.events,
        a2ui_events=w.a2ui_events,
        setup_bytes=setup,
        steady_events=steady,
        factor=factor,
        types=dict(sorted(w.types.items())),
    )


def generate_file(path: Path, workload: str, **options: Any) -> Meta:
    """Write a workload to ``path`` and its :class:`Meta` to ``path.meta.json``.

    Args:
        path: the output file.
        workload: a name from :data:`WORKLOADS`.
        **options: passed to :func:`generate`.

    Returns:
        The counts of what was written.
    """
    with path.open("wb") as out:
        meta = generate(workload, out, **options)
    meta_path(path).write_bytes(msgspec.json.format(msgspec.json.encode(meta)))
    return meta


def meta_path(path: Path) -> Path:
    """Where the sidecar of a data file lives.

    Args:
        path: the data file.

    Returns:
        ``path`` with ``.meta.json`` appended.
    """
    return path.with_name(path.name + ".meta.json")


def main(argv: list[str] | None = None) -> int:
    """Command line: generate one workload.

    Args:
        argv: arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", choices=WORKLOADS)
    parser.add_argument("--mb", type=float, default=1.0, help="target size in megabytes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help='output path, or "-" for stdout')
    parser.add_argument("--factor", type=int, default=1, help="surface size factor (scaling)")
    parser.add_argument("--events", type=int, default=1000, help="measured changes (scaling)")
    args = parser.parse_args(argv)
    options = {"mb": args.mb, "seed": args.seed, "factor": args.factor, "events": args.events}
    if args.out == "-":
        generate(args.workload, sys.stdout.buffer, **options)
        sys.stdout.buffer.flush()
    else:
        generate_file(Path(args.out), args.workload, **options)
    return 0


if __name__ == "__main__":
    sys.exit(main())
