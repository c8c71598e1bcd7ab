"""Property tests over generated AG-UI streams and A2UI operations, valid and corrupted.

Each property runs a bounded number of examples so the file stays fast on two cores.
The generators build small worlds on purpose: few surface ids, few component ids, so
that references hit, cycles happen, and surfaces are updated rather than only created.

The oracle of the converter's tiers lives here too: a surface converted by the walk,
by a compiled plan, and incrementally (plan patches, root appends) gives the same args
and the same diagnostics on every generated case (:class:`TestTiers`, and every
:class:`TestIncremental` stream run both ways).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import msgspec
from convert_cases import converted_often
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from invariants import conversion_problems, feed_in_chunks, output_problems, split_points

from a2ui_stream import (
    Diagnostic,
    Limits,
    PartDiff,
    Processor,
    Reducer,
    Severity,
    decode_event,
    encode_event,
)
from a2ui_stream import events as ev
from a2ui_stream._convert import plans
from a2ui_stream._convert.converter import Converter
from a2ui_stream._convert.walk import Walk
from a2ui_stream._state.surface import apply_operations
from a2ui_stream._tree.patch import DataChange, PatchError, apply_patch
from a2ui_stream.a2ui import normalize_message

if TYPE_CHECKING:
    from collections.abc import Callable

    import pytest

_encode = msgspec.json.Encoder().encode
_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
_TINY = Limits(
    max_depth=4,
    max_template_items=3,
    max_nodes=25,
    max_line_bytes=4096,
    max_data_model_bytes=600,
    max_operations=12,
    max_live_surfaces=2,
    max_string_length=12,
)
_LIMITS = st.sampled_from([Limits(), _TINY])
#: Falsifying examples found outside the suite, pinned as data (``tests/regressions/``).
_REGRESSIONS: dict[str, Any] = {
    path.stem: json.loads(path.read_text(encoding="utf-8"))
    for path in (Path(__file__).parent / "regressions").glob("*.json")
}

# -- A2UI generators -------------------------------------------------------------------

SURFACE_IDS = st.sampled_from(["s1", "s2", "__proto__", "s-3"])
COMPONENT_IDS = st.sampled_from(["root", "a", "b", "c", "d"])
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=20)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(["a", "b", "items", "name", "~", ""]), inner, max_size=4)
    ),
    max_leaves=15,
)
PATHS = st.sampled_from(
    ["/", "", "/a", "/items", "/items/0", "/items/-", "/a/b", "/~0/~1", "//", "x"]
)
DYNAMIC = (
    TEXT
    | st.builds(lambda p: {"path": p}, PATHS)
    | st.builds(lambda p: {"path": p.lstrip("/")}, PATHS)
    | st.builds(
        lambda v: {"call": "formatString", "args": {"value": v}},
        st.sampled_from(["${/a}", "x ${name} y", "${formatNumber(value: ${/a})}", "${"]),
    )
)
CHILDREN = st.lists(COMPONENT_IDS, max_size=4) | st.builds(
    lambda c, p: {"componentId": c, "path": p}, COMPONENT_IDS, PATHS
)


def _component(kind: str, cid: str, draw: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"id": cid, "component": kind}
    if kind in {"Text", "Heading"}:
        props["text"] = draw(DYNAMIC)
        if draw(st.booleans()):
            props["variant"] = draw(st.sampled_from(["h1", "h2", "caption", "body", "bogus"]))
    elif kind in {"Column", "Row", "List"}:
        props["children"] = draw(CHILDREN)
    elif kind in {"Card", "Button"}:
        props["child"] = draw(COMPONENT_IDS)
        if kind == "Button":
            props["action"] = draw(
                st.sampled_from(
                    [
                        {"event": {"name": "go", "context": {"v": {"path": "/a"}}}},
                        {"functionCall": {"call": "openUrl", "args": {"url": "javascript:x"}}},
                        "bad",
                    ]
                )
            )
    elif kind in {"Image", "Video"}:
        props["url"] = draw(st.sampled_from(["https://x.test/i.png", "javascript:alert(1)", 5]))
    elif kind == "ChoicePicker":
        props["options"] = draw(
            st.lists(st.fixed_dictionaries({"label": DYNAMIC, "value": TEXT}), max_size=3)
        )
        props["variant"] = draw(st.sampled_from(["multipleSelection", "mutuallyExclusive"]))
    elif kind == "Tabs":
        props["tabs"] = draw(
            st.lists(st.fixed_dictionaries({"title": DYNAMIC, "child": COMPONENT_IDS}), max_size=3)
        )
    elif kind == "Modal":
        props["trigger"], props["content"] = draw(COMPONENT_IDS), draw(COMPONENT_IDS)
    elif kind in {"TextField", "CheckBox", "Slider", "DateTimeInput"}:
        props["label"] = draw(DYNAMIC)
        props["value"] = draw(DYNAMIC)
    elif kind == "Icon":
        props["name"] = draw(st.sampled_from(["close", "person", "nope", "star"]))
    return props


KINDS = st.sampled_from(
    [
        "Text", "Column", "Row", "List", "Card", "Button", "Image", "Video", "ChoicePicker",
        "Tabs", "Modal", "TextField", "CheckBox", "Slider", "DateTimeInput", "Icon",
        "Divider", "Unknown",
    ]
)  # fmt: skip


@st.composite
def components(draw: Any) -> dict[str, Any]:
    """One A2UI v0.9 component, sometimes referencing missing or cyclic ids."""
    return _component(draw(KINDS), draw(COMPONENT_IDS), draw)


@st.composite
def operations(draw: Any) -> Any:
    """One A2UI message: valid v0.9 mostly, sometimes corrupted."""
    sid = draw(SURFACE_IDS)
    kind = draw(st.sampled_from(["create", "components", "components", "data", "delete"]))
    if kind == "create":
        body: dict[str, Any] = {"createSurface": {"surfaceId": sid, "catalogId": "basic"}}
    elif kind == "components":
        comps = draw(st.lists(components(), min_size=1, max_size=6))
        body = {"updateComponents": {"surfaceId": sid, "components": comps}}
    elif kind == "data":
        body = {
            "updateDataModel": {"surfaceId": sid, "path": draw(PATHS), "value": draw(JSON_VALUES)}
        }
    else:
        body = {"deleteSurface": {"surfaceId": sid}}
    op: dict[str, Any] = {"version": "v0.9", **body}
    corruption = draw(st.integers(0, 9))
    if corruption == 0:
        return draw(JSON_VALUES)
    if corruption == 1:
        inner = next(iter(body.values()))
        key = draw(st.sampled_from(sorted(inner)))
        inner[key] = draw(JSON_VALUES)
    if corruption == 2:
        op["version"] = draw(st.sampled_from(["v0.8", "v1.0", "v9", 1]))
    return op


OPERATION_LISTS = st.lists(operations(), max_size=10)


def _snapshot(message_id: str, ops: Any) -> dict[str, Any]:
    return {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": message_id,
        "activityType": "a2ui-surface",
        "replace": True,
        "content": {"a2ui_operations": ops},
    }


@st.composite
def streams(draw: Any) -> list[bytes]:
    """A JSONL AG-UI stream: runs, cumulative snapshots, deltas, lifecycle, garbage."""
    lines: list[bytes] = []
    sent: dict[str, list[Any]] = {}
    for _ in range(draw(st.integers(1, 8))):
        choice = draw(st.integers(0, 11))
        mid = draw(st.sampled_from(["m1", "m2", "m3"]))
        if choice == 0:
            event: Any = {
                "type": "RUN_STARTED",
                "threadId": "t",
                "runId": draw(st.sampled_from(["r1", "r2"])),
            }
        elif choice == 1:
            event = {
                "type": draw(st.sampled_from(["RUN_FINISHED", "RUN_ERROR"])),
                "threadId": "t",
                "runId": "r1",
                "message": "m",
            }
        elif choice <= 6:
            ops = sent.get(mid, []) + draw(OPERATION_LISTS)
            sent[mid] = ops
            event = _snapshot(mid, ops)
        elif choice == 7:
            event = {
                "type": "ACTIVITY_DELTA",
                "messageId": mid,
                "activityType": "a2ui-surface",
                "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": draw(operations())}],
            }
        elif choice == 8:
            event = {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": mid,
                "activityType": "a2ui-surface",
                "content": {"status": draw(st.sampled_from(["building", "retrying", "failed"]))},
            }
        elif choice == 9:
            event = {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t1", "delta": draw(TEXT)}
        elif choice == 10:
            lines.append(draw(st.binary(max_size=30)).replace(b"\n", b" "))
            continue
        else:
            event = {"type": "CUSTOM", "name": "x", "value": draw(JSON_VALUES)}
        lines.append(_encode(event))
    return lines


def _run(data: bytes, limits: Limits, cuts: list[int]) -> tuple[list[PartDiff], Processor]:
    processor = Processor(limits=limits)
    diffs = feed_in_chunks(processor, data, cuts)
    return diffs, processor


class TestStreams:
    """Whole streams through the processor."""

    @_SETTINGS
    @given(lines=streams(), limits=_LIMITS)
    def test_no_raise_and_limits_hold(self, lines: list[bytes], limits: Limits) -> None:
        """Any stream processes without raising and every diff honours every bound."""
        diffs, _ = _run(b"\n".join(lines), limits, [])
        assert output_problems(diffs, limits) == []

    @_SETTINGS
    @given(lines=streams(), limits=_LIMITS)
    def test_deterministic(self, lines: list[bytes], limits: Limits) -> None:
        """The same stream gives the same diffs and diagnostics twice."""
        data = b"\n".join(lines)
        first, p1 = _run(data, limits, [])
        second, p2 = _run(data, limits, [])
        assert _encode(first) == _encode(second)
        assert _encode(p1.take_diagnostics()) == _encode(p2.take_diagnostics())

    @_SETTINGS
    @given(lines=streams(), seed=st.integers(0, 2**16), count=st.integers(1, 12))
    def test_chunking_never_changes_output(self, lines: list[bytes], seed: int, count: int) -> None:
        """Cutting the bytes anywhere gives the diffs, diagnostics and state of one feed."""
        data = b"\n".join(lines) + b"\n"
        whole, p1 = _run(data, _TINY, [])
        cut, p2 = _run(data, _TINY, split_points(len(data), seed, count))
        assert _encode(whole) == _encode(cut)
        assert _encode(p1.take_diagnostics()) == _encode(p2.take_diagnostics())
        assert p1.state == p2.state

    @_SETTINGS
    @given(lines=streams())
    def test_sse_framing_equals_jsonl(self, lines: list[bytes]) -> None:
        """The same events framed as SSE give the same diffs as JSONL."""
        good = [line for line in lines if line.startswith(b"{")]
        jsonl, _ = _run(b"\n".join(good), Limits(), [])
        sse_data = b"".join(b"data: " + line + b"\n\n" for line in good)
        processor = Processor(format="sse")
        sse = feed_in_chunks(processor, sse_data, [])
        assert _encode(jsonl) == _encode(sse)


_ROWS_SURFACE: list[Any] = [
    {"version": "v0.9", "createSurface": {"surfaceId": "s1", "catalogId": "c"}},
    {
        "version": "v0.9",
        "updateComponents": {
            "surfaceId": "s1",
            "components": [
                {"id": "root", "component": "Column", "children": ["title", "rows"]},
                {"id": "title", "component": "Text", "text": {"path": "/title"}},
                {
                    "id": "rows",
                    "component": "List",
                    "children": {"componentId": "row", "path": "/items"},
                },
                {"id": "row", "component": "Row", "children": ["name", "price"]},
                {"id": "name", "component": "Text", "text": {"path": "name"}},
                {"id": "price", "component": "Text", "text": {"path": "price"}},
            ],
        },
    },
    {
        "version": "v0.9",
        "updateDataModel": {
            "surfaceId": "s1",
            "value": {
                "title": "t",
                "items": [{"name": f"n{i}", "price": i} for i in range(4)],
            },
        },
    },
]
_VALUE = "/a2ui_operations/2/updateDataModel/value"
_ROW = st.fixed_dictionaries({"name": SCALARS, "price": SCALARS})
_REPLACEMENTS = st.one_of(
    st.tuples(
        st.integers(0, 3).map(lambda i: f"{_VALUE}/items/{i}"),
        st.sampled_from(["/name", "/price", ""]),
    ).flatmap(
        lambda where: st.builds(
            lambda value: {"op": "replace", "path": where[0] + where[1], "value": value},
            SCALARS if where[1] else _ROW,
        )
    ),
    st.builds(lambda value: {"op": "replace", "path": f"{_VALUE}/title", "value": value}, SCALARS),
    st.builds(
        lambda rows: {"op": "replace", "path": _VALUE, "value": {"title": "w", "items": rows}},
        st.lists(_ROW, max_size=5),
    ),
    st.builds(
        lambda rows: {
            "op": "replace",
            "path": "/a2ui_operations/2",
            "value": {
                "version": "v0.9",
                "updateDataModel": {"surfaceId": "s1", "value": {"items": rows}},
            },
        },
        st.lists(_ROW, max_size=5),
    ),
    st.just({"op": "test", "path": "/a2ui_operations/0/version", "value": "v0.9"}),
)
REPLACE_PATCHES = st.lists(_REPLACEMENTS, min_size=1, max_size=3)


def _final_args(processor: Processor) -> dict[str, Any]:
    return {part.surface_id: part.args for part in processor.parts()}


def _from_scratch(ops: list[Any], limits: Limits) -> dict[str, Any]:
    reducer = Reducer(limits=limits)
    run_started = ev.RunStarted(thread_id="t", run_id="r")
    snapshot = decode_event(_encode(_snapshot("m", ops)))
    state = reducer.reduce_all([run_started, snapshot]).state
    assert state.current is not None
    return {part.surface_id: part.args for part in state.current.parts.values()}


#: The conversions in a row a component set needs to be compiled, per tier: every set at
#: once (plans, patches and appends everywhere), and never (the walk alone).
_TIERS = (1, 10**9)


def _both_tiers(
    monkeypatch: pytest.MonkeyPatch, feed: Callable[[], tuple[Processor, list[Any]]]
) -> Processor:
    """Run ``feed`` with plans at first sight and with none; both give the same output.

    Returns:
        The processor of the compiling run.
    """
    outputs = []
    for at in _TIERS:
        monkeypatch.setattr(plans, "COMPILE_AT", at)
        processor, diffs = feed()
        outputs.append((_encode(diffs), _encode(processor.take_diagnostics()), processor))
    (diffs_a, warned_a, compiled), (diffs_b, warned_b, walked) = outputs
    assert diffs_a == diffs_b
    assert warned_a == warned_b
    assert _final_args(compiled) == _final_args(walked)
    return compiled


class TestIncremental:
    """Incremental processing equals processing the final snapshot from scratch.

    The parts, and each conversion the processor keeps: its element and warnings equal
    a fresh conversion's (the diagnostics reported differ by design: each warning is
    reported when it appears).
    """

    @_SETTINGS
    @given(batches=st.lists(OPERATION_LISTS, min_size=1, max_size=5), limits=_LIMITS)
    @example(batches=_REGRESSIONS["cumulative-snapshots"]["batches"], limits=_TINY)
    def test_cumulative_snapshots(self, batches: list[list[Any]], limits: Limits) -> None:
        """Growing cumulative snapshots end in the parts a fresh reducer builds from the last.

        From the last one the processor took: a snapshot line longer than
        ``max_line_bytes`` is skipped, so the parts before it stand (the pinned example,
        whose second snapshot is 5 KiB under a 4 KiB limit, failed on this oracle).
        """
        processor = Processor(limits=limits)
        processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')
        ops: list[Any] = []
        taken: list[Any] = []
        for batch in batches:
            ops = ops + batch
            line = _encode(_snapshot("m", ops))
            processor.feed(line + b"\n")
            if len(line) <= limits.max_line_bytes:
                taken = ops
        processor.close()
        assert _final_args(processor) == _from_scratch(taken, limits)
        assert conversion_problems(processor.state, limits) == []

    @_SETTINGS
    @given(first=OPERATION_LISTS, later=st.lists(operations(), max_size=5), limits=_LIMITS)
    def test_deltas(
        self, monkeypatch: pytest.MonkeyPatch, first: list[Any], later: list[Any], limits: Limits
    ) -> None:
        """A snapshot then appending deltas equals one snapshot holding every operation."""

        def feed() -> tuple[Processor, list[Any]]:
            processor = Processor(limits=limits)
            diffs = processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')
            diffs += processor.feed(_encode(_snapshot("m", first)) + b"\n")
            for op in later:
                delta = {
                    "type": "ACTIVITY_DELTA",
                    "messageId": "m",
                    "activityType": "a2ui-surface",
                    "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": op}],
                }
                diffs += processor.feed(_encode(delta) + b"\n")
            return processor, diffs + processor.close()

        compiled = _both_tiers(monkeypatch, feed)
        assert _final_args(compiled) == _from_scratch(first + later, limits)
        assert conversion_problems(compiled.state, limits) == []

    @_SETTINGS
    @given(patches=st.lists(REPLACE_PATCHES, min_size=1, max_size=6), limits=_LIMITS)
    def test_replacing_data_values(
        self, monkeypatch: pytest.MonkeyPatch, patches: list[list[Any]], limits: Limits
    ) -> None:
        """Deltas that replace data values paint what a fresh reducer paints from the result.

        Such deltas are read for the data paths they change instead of diffing the
        models; the patches mix value replacements with replacements of a whole row,
        the whole model and the whole operation, which that reading must not trust.
        """
        for at in _TIERS:
            monkeypatch.setattr(plans, "COMPILE_AT", at)
            processor = Processor(limits=limits)
            processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')
            content: Any = {"a2ui_operations": _ROWS_SURFACE}
            processor.feed(_encode(_snapshot("m", _ROWS_SURFACE)) + b"\n")
            for patch in patches:
                delta = {
                    "type": "ACTIVITY_DELTA",
                    "messageId": "m",
                    "activityType": "a2ui-surface",
                    "patch": patch,
                }
                processor.feed(_encode(delta) + b"\n")
                with contextlib.suppress(PatchError):  # a failing patch changes nothing
                    content = apply_patch(content, patch)
                expected = _from_scratch(content["a2ui_operations"], limits)
                assert _final_args(processor) == expected
                assert conversion_problems(processor.state, limits) == []

    @_SETTINGS
    @given(ops=OPERATION_LISTS, cut=st.integers(0, 10))
    def test_prefix_then_whole(self, ops: list[Any], cut: int) -> None:
        """Sending a prefix first never changes what the whole snapshot paints."""
        processor = Processor(limits=_TINY)
        processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')
        processor.feed(_encode(_snapshot("m", ops[:cut])) + b"\n")
        processor.feed(_encode(_snapshot("m", ops)) + b"\n")
        assert _final_args(processor) == _from_scratch(ops, _TINY)
        assert conversion_problems(processor.state, _TINY) == []


def _surfaces(ops: list[Any], limits: Limits) -> list[Any]:
    messages = [normalize_message(op, index=index) for index, op in enumerate(ops)]
    surfaces, _ = apply_operations({}, messages, limits=limits)
    return list(surfaces.values())


@st.composite
def _component_sets(draw: Any) -> list[Any]:
    """The operations of one surface that has a root: compiled, mostly, into a plan."""
    comps = [
        {"id": "root", "component": "Column", "children": draw(CHILDREN)},
        *(_component(draw(KINDS), cid, draw) for cid in ("a", "b", "c", "d")),
    ]
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": "s1", "catalogId": "basic"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": comps}},
    ]


#: Data models whose keys the generated bindings read, so that plans replay them.
_MODELS = st.fixed_dictionaries(
    {
        "a": SCALARS | st.fixed_dictionaries({"b": SCALARS}),
        "items": st.lists(st.fixed_dictionaries({"name": SCALARS, "a": SCALARS}), max_size=4),
        "name": SCALARS,
    }
)


class TestTiers:
    """Plans give what the walk gives, on any components and any data."""

    @_SETTINGS
    @given(
        ops=OPERATION_LISTS | _component_sets(),
        models=st.lists(_MODELS | JSON_VALUES | st.just(msgspec.UNSET), min_size=1, max_size=4),
        limits=_LIMITS,
    )
    def test_a_plan_run_equals_the_walk(
        self, ops: list[Any], models: list[Any], limits: Limits
    ) -> None:
        """Every surface's plan, run against many data models, converts as the walk does."""
        converter = Converter(limits=limits)
        for built in _surfaces(ops, limits):
            plan = converter._plans.build(built)
            for model in models:
                surface = msgspec.structs.replace(built, data_model=model)
                walk = Walk(converter._setup, surface)
                expected = (walk.convert(surface.root_id), walk.warnings())
                if plan is not None:
                    walk = Walk(converter._setup, surface)
                    element = plan.run(walk)
                    if element is not None:
                        assert _encode((element, walk.warnings())) == _encode(expected)

    @_SETTINGS
    @given(
        rows=st.lists(_ROW, max_size=5),
        edits=st.lists(
            st.tuples(st.integers(0, 4), st.sampled_from(["name", "price", "title"]), SCALARS),
            min_size=1,
            max_size=6,
        ),
        limits=_LIMITS,
    )
    def test_patches_equal_the_walk(
        self, rows: list[Any], edits: list[tuple[int, str, Any]], limits: Limits
    ) -> None:
        """Data changes named by a claim, patched into items, convert as the walk does."""
        ops = [*_ROWS_SURFACE[:2], {**_ROWS_SURFACE[2]}]
        ops[2] = {
            "version": "v0.9",
            "updateDataModel": {"surfaceId": "s1", "value": {"title": "t", "items": rows}},
        }
        (surface,) = _surfaces(ops, limits)
        converter = Converter(limits=limits)
        previous = converted_often(converter, surface)
        for index, key, value in edits:
            model: Any = surface.data_model
            items = list(model["items"])
            if key == "title":
                path: tuple[str, ...] = ("title",)
                model = {**model, "title": value}
            elif index < len(items):
                path = ("items", str(index), key)
                items[index] = {**items[index], key: value}
                model = {**model, "items": items}
            else:
                continue
            changed = msgspec.structs.replace(surface, data_model=model)
            claim = DataChange(surface.data_model, model, (path,))
            incremental = converter.convert(changed, previous, known=[claim])
            walk = Walk(converter._setup, changed)
            expected = (walk.convert(changed.root_id), walk.warnings())
            assert _encode((incremental.element, incremental.warnings)) == _encode(expected)
            surface, previous = changed, incremental


EVENTS = st.one_of(
    st.builds(ev.RunStarted, thread_id=TEXT, run_id=TEXT),
    st.builds(ev.TextMessageContent, message_id=TEXT, delta=TEXT),
    st.builds(ev.CustomEvent, name=TEXT, value=JSON_VALUES),
    st.builds(ev.StateSnapshot, snapshot=JSON_VALUES),
)


class TestRoundTrip:
    """Encoding and decoding events."""

    @_SETTINGS
    @given(event=EVENTS)
    def test_event_round_trip(self, event: ev.Event) -> None:
        """decode_event(encode_event(e)) == e for generated events."""
        assert decode_event(encode_event(event)) == event

    @_SETTINGS
    @given(
        kind=st.sampled_from(["RUN_STARTED", "CUSTOM", "MADE_UP", "ACTIVITY_SNAPSHOT"]),
        extra=st.dictionaries(
            st.sampled_from(["x", "threadId", "runId", "name", "zz"]), JSON_VALUES
        ),
    )
    def test_decoded_lines_round_trip(self, kind: str, extra: dict[str, Any]) -> None:
        """Every line the decoder accepts, unknown fields included, re-encodes to itself.

        Less the fields it ignored (of the wrong type, and not needed by the event), each
        named by a warning.
        """
        line = _encode({"type": kind, **extra})
        processor = Processor()
        decoded = processor._decoder.feed(line + b"\n")
        ignored = {
            item.path
            for item in decoded
            if isinstance(item, Diagnostic) and item.code == "event.field_ignored"
        }
        events = [item.event for item in decoded if hasattr(item, "event")]
        if not events:
            # Dropped (a field the event needs is missing or of the wrong type): one
            # ERROR says why. Checked rather than assumed away, so no example is wasted.
            errors = [
                d for d in decoded if isinstance(d, Diagnostic) and d.severity is Severity.ERROR
            ]
            assert len(errors) == 1
            return
        (event,) = events
        assert decode_event(encode_event(event)) == event
        kept = {key: value for key, value in json.loads(line).items() if f"$.{key}" not in ignored}
        assert json.loads(encode_event(event)) == kept


def _elements(element: Any) -> list[dict[str, Any]]:
    out = [element]
    children = element.get("children")
    for kid in children if isinstance(children, list) else [children] if children else []:
        out.extend(_elements(kid))
    return out


_RESERVED = {"$type", "$key", "$action", "$status", "children"}


class TestVocabulary:
    """Every element validates against the vocabulary's JSON Schemas."""

    @_SETTINGS
    @given(lines=streams(), limits=_LIMITS)
    def test_elements_validate(
        self, vocabulary_path: Path, lines: list[bytes], limits: Limits
    ) -> None:
        """Each element's props satisfy the schema of its $type."""
        schemas = _schemas(vocabulary_path)
        diffs, _ = _run(b"\n".join(lines), limits, [])
        for diff in diffs:
            if not isinstance(diff.args, dict):
                continue
            for element in _elements(diff.args):
                schema = schemas[element["$type"]]
                props = {k: v for k, v in element.items() if k not in _RESERVED}
                jsonschema.validate(props, schema)


_SCHEMAS: dict[Path, dict[str, Any]] = {}


def _schemas(path: Path) -> dict[str, Any]:
    if path not in _SCHEMAS:
        _SCHEMAS[path] = json.loads(path.read_text())["components"]
    return _SCHEMAS[path]


def _levels(element: Any) -> int:
    children = element.get("children")
    kids = children if isinstance(children, list) else [children] if children else []
    below = max((_levels(kid) for kid in kids), default=0)
    # A template's ListView and ListViewItem stand for one A2UI level between them.
    return below + (0 if element["$type"] == "ListViewItem" else 1)


class TestDepth:
    """The A2UI depth bound, exactly."""

    @_SETTINGS
    @given(depth=st.integers(1, 70), template_every=st.integers(0, 5))
    def test_chain_is_cut_at_max_depth(self, depth: int, template_every: int) -> None:
        """A chain of ``depth`` nested components emits min(depth, 32) A2UI levels."""
        comps: list[dict[str, Any]] = []
        for level in range(depth):
            cid = "root" if level == 0 else f"c{level}"
            child = f"c{level + 1}"
            if level == depth - 1:
                comps.append({"id": cid, "component": "Text", "text": "leaf"})
            elif template_every and level % template_every == 0:
                comps.append(
                    {
                        "id": cid,
                        "component": "List",
                        "children": {"componentId": child, "path": "/i"},
                    }
                )
            else:
                comps.append({"id": cid, "component": "Column", "children": [child]})
        ops = [
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": comps}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"i": [1]}}},
        ]
        args = _from_scratch(ops, Limits())["s"]
        assert _levels(args) == min(depth, Limits().max_depth)
