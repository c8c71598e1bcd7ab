"""The bad-input corpus: each hostile line, the diagnostic it must give, and survivors.

Every case is one line placed between two good ACTIVITY_SNAPSHOT lines (surfaces
``before`` and ``after``). The case must give exactly its expected diagnostic codes, never
raise, and leave both neighbours painting their surfaces. The resource limits are tested
at their boundaries (just under passes, just over gives the documented diagnostic).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from helpers import RUN_LINE, Outcome, data_op, run_between, snapshot_line, v09_surface

from a2ui_stream import Limits, Processor, Severity, decode_event

if TYPE_CHECKING:
    from collections.abc import Callable

_encode = msgspec.json.Encoder().encode


def _deep(levels: int) -> bytes:
    return b'{"type":"CUSTOM","name":"deep","value":' + b"[" * levels + b"]" * levels + b"}"


def _million_items() -> bytes:
    items = b"[" + b"0," * 999_999 + b"0]"
    ops = v09_surface(
        "many",
        [
            {"id": "root", "component": "List", "children": {"componentId": "i", "path": "/items"}},
            {"id": "i", "component": "Text", "text": "item"},
        ],
    )
    line = snapshot_line("many", [*ops, data_op("many", "/items", 0)])
    return line.replace(b'"value":0}', b'"value":' + items + b"}")


#: name -> (line(s) builder, expected diagnostic codes).
CASES: dict[str, tuple[Callable[[], bytes | list[bytes]], set[str]]] = {
    "truncated JSON": (lambda: b'{"type":"RUN_STARTED","thr', {"json.invalid"}),
    "truncated snapshot": (lambda: snapshot_line("x", v09_surface("x"))[:-9], {"json.invalid"}),
    "invalid UTF-8": (
        lambda: b'{"type":"CUSTOM","name":"\xff\xfe","value":1}',
        {"json.invalid_utf8"},
    ),
    "overlong UTF-8 in content": (
        lambda: snapshot_line("x", v09_surface("x")).replace(b'"text":"x"', b'"text":"\xc0\xaf"'),
        {"json.invalid_utf8"},
    ),
    "BOM mid-stream": (
        lambda: b'\xef\xbb\xbf{"type":"CUSTOM","name":"x","value":1}',
        {"json.invalid"},
    ),
    "NUL inside a string": (
        lambda: b'{"type":"CUSTOM","name":"a\x00b","value":1}',
        {"json.invalid"},
    ),
    "NUL bytes only": (lambda: b"\x00\x00\x00", {"json.invalid"}),
    "a million levels deep": (lambda: _deep(1_000_000), {"json.too_deep"}),
    "a million levels deep in content": (
        lambda: (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"a2ui-surface",'
            b'"content":{"a2ui_operations":' + b"[" * 1_000_000 + b"]" * 1_000_000 + b"}}"
        ),
        {"json.too_deep"},
    ),
    "a mistyped optional field": (
        lambda: b'{"type":"CUSTOM","name":"n","value":1,"timestamp":"x"}',
        {"event.field_ignored"},
    ),
    # Read as JSON.parse reads it, the infinity (#16): a free-form value takes it...
    "a number past a double's range": (
        lambda: b'{"type":"CUSTOM","name":"n","value":1e400}',
        set(),
    ),
    # ...and a field that must be a string is malformed, as it is for any number.
    "a number past a double's range as catalogId": (
        lambda: snapshot_line("x", v09_surface("x")).replace(
            b'"catalogId":"c"', b'"catalogId":1e400'
        ),
        {"op.malformed", "op.missing_surface"},
    ),
    "not an object": (lambda: b"[1,2,3]", {"json.not_object"}),
    "type not a string": (lambda: b'{"type":5}', {"event.invalid"}),
    "empty operations": (lambda: snapshot_line("x", []), set()),
    "operations not a list": (
        lambda: (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"a2ui-surface",'
            b'"content":{"a2ui_operations":5}}'
        ),
        {"activity.malformed"},
    ),
    "content not an object": (
        lambda: (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"a2ui-surface",'
            b'"content":[1]}'
        ),
        {"event.invalid"},
    ),
    "operation not an object": (lambda: snapshot_line("x", [5, "s", None, []]), {"op.malformed"}),
    "operation with no kind": (
        lambda: snapshot_line("x", [{"version": "v0.9"}]),
        {"op.no_operation"},
    ),
    "component cycle": (
        lambda: snapshot_line(
            "x",
            v09_surface(
                "x",
                [
                    {"id": "root", "component": "Column", "children": ["a"]},
                    {"id": "a", "component": "Column", "children": ["root"]},
                ],
            ),
        ),
        {"convert.cycle"},
    ),
    "template over itself": (
        lambda: snapshot_line(
            "x",
            v09_surface(
                "x",
                [
                    {
                        "id": "root",
                        "component": "List",
                        "children": {"componentId": "root", "path": "/i"},
                    }
                ],
                {"i": [1, 2, 3]},
            ),
        ),
        {"convert.cycle"},
    ),
    "template over a million items": (_million_items, {"convert.template_cap"}),
    "pointer without leading slash": (
        lambda: snapshot_line("x", [*v09_surface("x", data={}), data_op("x", "a/b", 1)]),
        {"op.bad_path"},
    ),
    "pointer with leading zero index": (
        lambda: snapshot_line(
            "x", [*v09_surface("x", data={"a": [1, 2]}), data_op("x", "/a/01", 1)]
        ),
        {"op.bad_path"},
    ),
    "pointer path not a string": (
        lambda: snapshot_line("x", [*v09_surface("x", data={}), data_op("x", [], 1)]),
        {"op.bad_path"},
    ),
    "pointer word into an array": (
        lambda: snapshot_line("x", [*v09_surface("x", data={"a": [1]}), data_op("x", "/a/b", 1)]),
        {"op.bad_path"},
    ),
    "update of a missing surface": (
        lambda: snapshot_line("x", [data_op("nowhere", "/a", 1)]),
        {"op.missing_surface"},
    ),
}


def _wrong_type_cases() -> dict[str, tuple[bytes, set[str]]]:
    """Every field of the common events and operations, given each wrong JSON type."""
    events: dict[str, dict[str, Any]] = {
        "RUN_STARTED": {"threadId": "t", "runId": "r2"},
        "TEXT_MESSAGE_CONTENT": {"messageId": "m", "delta": "x"},
        "TOOL_CALL_START": {"toolCallId": "c", "toolCallName": "n"},
        "ACTIVITY_SNAPSHOT": {
            "messageId": "w",
            "activityType": "a2ui-surface",
            "replace": True,
            "content": {"a2ui_operations": []},
        },
        "ACTIVITY_DELTA": {"messageId": "w", "activityType": "a2ui-surface", "patch": []},
    }
    # Upstream's client drops an event only when one of these is wrong; any other
    # field of the wrong type is ignored and the event kept.
    needed = {
        "RUN_STARTED": {"runId"},
        "TEXT_MESSAGE_CONTENT": {"delta"},
        "TOOL_CALL_START": {"toolCallId"},
        "ACTIVITY_SNAPSHOT": {"activityType", "content"},
    }
    wrongs: tuple[Any, ...] = (5, "s", [], {}, True)
    out: dict[str, tuple[bytes, set[str]]] = {}
    for kind, fields in events.items():
        for key, good in fields.items():
            for wrong in wrongs:
                if type(wrong) is type(good):
                    continue
                line = _encode({"type": kind, **fields, key: wrong})
                found = {"event.invalid" if key in needed.get(kind, ()) else "event.field_ignored"}
                if kind == "ACTIVITY_DELTA" and key == "messageId":
                    found.add("activity.delta_unknown")  # filed as anonymous, never snapshot
                out[f"{kind}.{key}={json.dumps(wrong)}"] = (line, found)
    operations: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
        "createSurface": ({"surfaceId": "w", "catalogId": "c"}, {"surfaceId": "op.no_surface_id"}),
        "updateComponents": (
            {"surfaceId": "w", "components": [{"id": "root", "component": "Text", "text": "t"}]},
            {"surfaceId": "op.no_surface_id", "components": "op.bad_components"},
        ),
        "updateDataModel": (
            {"surfaceId": "w", "path": "/a", "value": 1},
            {"surfaceId": "op.no_surface_id", "path": "op.bad_path"},
        ),
        "deleteSurface": ({"surfaceId": "w"}, {"surfaceId": "op.no_surface_id"}),
    }
    for kind, (body, codes) in operations.items():
        for key, code in codes.items():
            for wrong in (5, [], {}, True, None):
                if type(wrong) is type(body[key]) or (key == "path" and wrong is None):
                    continue
                ops = [*v09_surface("w"), {"version": "v0.9", kind: {**body, key: wrong}}]
                out[f"{kind}.{key}={json.dumps(wrong)}"] = (snapshot_line("w", ops), {code})
    for wrong in (5, None, [], {}, True):
        ops = [*v09_surface("w"), {"version": wrong, "deleteSurface": {"surfaceId": "w"}}]
        out[f"version={json.dumps(wrong)}"] = (snapshot_line("w", ops), {"op.unsupported_version"})
        for key in ("id", "component"):
            component: dict[str, Any] = {"id": "root", "component": "Text", "text": "t", key: wrong}
            line = snapshot_line("w", v09_surface("w", [component]))
            out[f"component.{key}={json.dumps(wrong)}"] = (
                line,
                {"component.malformed", "convert.root_missing"},
            )
    return out


WRONG_TYPES = _wrong_type_cases()


class TestCorpus:
    """Each hostile line gives its diagnostic and the lines around it still paint."""

    @pytest.mark.parametrize("name", sorted(CASES))
    def test_case(self, name: str) -> None:
        """The case yields exactly its expected codes; both neighbours paint."""
        build, expected = CASES[name]
        outcome = run_between(build())
        assert outcome.codes == expected

    @pytest.mark.parametrize("name", sorted(WRONG_TYPES))
    def test_wrong_type(self, name: str) -> None:
        """A field of the wrong JSON type gives its code; neighbours paint.

        The event is dropped (an error) only where upstream's client drops it; otherwise
        the field is ignored with a warning and the event kept.
        """
        line, expected = WRONG_TYPES[name]
        outcome = run_between(line)
        assert outcome.codes == expected
        severity = Severity.WARNING if "event.field_ignored" in expected else Severity.ERROR
        assert outcome.diagnostics[0].severity is severity

    def test_errors_name_their_line(self) -> None:
        """A bad line's diagnostic carries its 1-based line number and raw prefix."""
        outcome = run_between(b'{"type":"RUN_STA')
        (diagnostic,) = outcome.diagnostics
        assert diagnostic.line == 3
        assert diagnostic.raw == b'{"type":"RUN_STA'

    def test_a_million_levels_deep_is_refused_not_recursed(self) -> None:
        """A million-level line becomes json.too_deep: the decoder never raises RecursionError."""
        outcome = run_between(_deep(1_000_000))
        assert outcome.diagnostics[0].severity is Severity.ERROR
        assert "too deep" in outcome.diagnostics[0].message

    def test_unknown_type_with_malformed_tail(self) -> None:
        """An unknown event type followed by malformed JSON is json.invalid, not an exception."""
        outcome = run_between(b'{"type":"TOOL_CALLd":"tc2"}')
        assert outcome.codes == {"json.invalid"}

    @pytest.mark.parametrize("number", [b"1e400", b"-1e999"])
    def test_delta_after_a_number_past_a_doubles_range(self, number: bytes) -> None:
        """A delta on a snapshot holding a number past a double's range applies, the
        number kept as the infinity JSON.parse reads (#16: it once refused the write)."""
        text = {"id": "root", "component": "Text", "text": {"path": "/x"}}
        ops = [*v09_surface("n", [text]), data_op("n", "/x", 0)]
        line = snapshot_line("n", ops).replace(b'"value":0', b'"value":' + number)
        outcome = run_between([line, self._append_delta()])
        assert outcome.codes == set()
        assert outcome.painted("n")["value"] == ("-Infinity" if b"-" in number else "Infinity")

    def test_delta_after_an_undecodable_operation(self) -> None:
        """A delta on a snapshot holding an operation that never decoded applies; nothing
        raises. Its bytes hold a string that is not UTF-8, which only the line reader
        checks: ``decode_event`` leaves content undecoded, so the operation fails late."""
        text = {"id": "root", "component": "Text", "text": {"path": "/y"}}
        ops = [*v09_surface("n", [text]), data_op("n", "/x", "ok")]
        line = snapshot_line("n", ops).replace(b'"value":"ok"', b'"value":"\xff"')
        processor = Processor()
        processor.feed(RUN_LINE + b"\n")
        diffs = processor.feed_events([decode_event(line), decode_event(self._append_delta())])
        codes = {d.code for d in processor.take_diagnostics()}
        assert "op.invalid_json" in codes
        assert diffs[-1].args == {"$type": "Markdown", "value": "1"}  # the delta's write

    @staticmethod
    def _append_delta() -> bytes:
        append = {"op": "add", "path": "/a2ui_operations/-", "value": data_op("n", "/y", 1)}
        return _encode(
            {
                "type": "ACTIVITY_DELTA",
                "messageId": "n",
                "activityType": "a2ui-surface",
                "patch": [append],
            }
        )

    def test_bom_at_start_is_accepted(self) -> None:
        """A BOM before the first line is skipped, unlike one mid-stream."""
        processor = Processor()
        diffs = processor.feed(
            b"\xef\xbb\xbf" + RUN_LINE + b"\n" + snapshot_line("m", v09_surface("s")) + b"\n"
        )
        assert [d.surface_id for d in diffs] == ["s"]
        assert processor.take_diagnostics() == []


class TestAcceptedOddities:
    """Input that is odd but valid JSON is accepted as JSON.parse would read it."""

    def test_negative_zero_prints_as_zero(self) -> None:
        """-0 in the data model is a number and prints as JavaScript prints it: "0"."""
        text = {"id": "root", "component": "Text", "text": {"path": "/n"}}
        outcome = run_between(snapshot_line("z", v09_surface("z", [text], {"n": -0.0})))
        assert outcome.codes == set()
        assert outcome.painted("z")["value"] == "0"

    def test_duplicate_keys_last_wins(self) -> None:
        """A duplicated key keeps its last value, as JSON.parse does; no diagnostic."""
        outcome = run_between(b'{"type":"RUN_STARTED","threadId":"t","runId":"x","runId":"r"}')
        assert outcome.codes == set()
        assert {d.run_id for d in outcome.diffs} == {"r"}

    def test_duplicate_keys_in_an_operation(self) -> None:
        """A duplicated text prop paints its last value."""
        line = snapshot_line("d", v09_surface("d")).replace(
            b'"text":"d"', b'"text":"first","text":"last"'
        )
        outcome = run_between(line)
        assert outcome.painted("d")["value"] == "last"

    @pytest.mark.parametrize(
        ("path", "data", "expected"),
        [
            ("/~0~1", {}, {"~/": 7}),
            ("/a/-", {"a": [1]}, {"a": [1, 7]}),
            ("//", {}, {"": {"": 7}}),
            ("/a/0", {"a": [1]}, {"a": [7]}),
            ("/a/-/c", {"a": {}}, {"a": {"-": {"c": 7}}}),
            ("/a/-/c", {"a": [1]}, {"a": [1, {"c": 7}]}),
        ],
    )
    def test_pointer_edge_cases(self, path: str, data: Any, expected: Any) -> None:
        """~0, ~1, -, and empty segments write where RFC 6901 says."""
        text = {"id": "root", "component": "Text", "text": {"path": "/out"}}
        ops = [
            *v09_surface("p", [text], {"src": data}),
            data_op("p", "/src", data),
            data_op("p", "/src" + path, 7),
        ]
        processor = Processor()
        processor.feed(RUN_LINE + b"\n" + snapshot_line("p", ops) + b"\n")
        processor.close()
        run = processor.run()
        assert run is not None
        bucket = run.buckets["p"]
        model = bucket.surfaces["p"].data_model
        assert isinstance(model, dict)
        assert model["src"] == expected
        assert processor.take_diagnostics() == []

    def test_proto_names(self) -> None:
        """Surfaces and components named __proto__ or constructor are plain names."""
        components = [
            {"id": "root", "component": "Column", "children": ["__proto__"]},
            {"id": "__proto__", "component": "Column", "children": ["constructor"]},
            {"id": "constructor", "component": "Text", "text": "hasOwnProperty"},
        ]
        outcome = run_between(snapshot_line("__proto__", v09_surface("__proto__", components)))
        assert outcome.codes == set()
        args = outcome.painted("__proto__")
        assert args["children"][0]["children"][0]["value"] == "hasOwnProperty"
        assert any(d.tool_call_id == "a2ui:__proto__" for d in outcome.diffs)

    def test_huge_component_array(self) -> None:
        """A hundred thousand unreferenced components cost nothing in the output."""
        components = [{"id": f"c{i}", "component": "Text", "text": "x"} for i in range(100_000)]
        components.append({"id": "root", "component": "Text", "text": "root"})
        outcome = run_between(snapshot_line("h", v09_surface("h", components)))
        assert outcome.painted("h")["value"] == "root"


def _line_of(size: int) -> bytes:
    """A valid CUSTOM event line of exactly ``size`` bytes."""
    head, tail = b'{"type":"CUSTOM","name":"pad","value":"', b'"}'
    return head + b"a" * (size - len(head) - len(tail)) + tail


class TestLimits:
    """Every resource limit, just under and just over its boundary."""

    def test_line_bytes(self) -> None:
        """A line of max_line_bytes passes; one byte more is line.too_long."""
        limits = Limits(max_line_bytes=4096)
        assert run_between(_line_of(4096), limits).codes == set()
        outcome = run_between(_line_of(4097), limits)
        assert outcome.codes == {"line.too_long"}

    def test_line_of_100_mb(self) -> None:
        """A real 100 MB line is skipped with line.too_long, held at most once in memory."""
        processor = Processor()
        chunk = b"a" * (1 << 20)
        processor.feed(RUN_LINE + b'\n{"type":"CUSTOM","name":"big","value":"')
        for _ in range(100):
            assert processor.feed(chunk) == []
        diffs = processor.feed(b'"}\n' + snapshot_line("after", v09_surface("after")) + b"\n")
        assert [d.surface_id for d in diffs] == ["after"]
        assert [d.code for d in processor.take_diagnostics()] == ["line.too_long"]

    def test_data_model_bytes(self) -> None:
        """A data model of max_data_model_bytes is kept; one byte more is skipped."""
        limits = Limits(max_data_model_bytes=100)
        fits = {"s": "a" * 92}
        assert len(_encode(fits)) == 100
        text = {"id": "root", "component": "Text", "text": {"path": "/s"}}
        ok = run_between(snapshot_line("d", v09_surface("d", [text], fits)), limits)
        assert ok.codes == set()
        assert ok.painted("d")["value"] == "a" * 92
        over = run_between(snapshot_line("d", v09_surface("d", [text], {"s": "a" * 93})), limits)
        assert over.codes == {"limit.data_model_bytes"}

    def test_data_model_bytes_grows_by_writes(self) -> None:
        """Small writes that together pass the limit are refused from the first one over."""
        limits = Limits(max_data_model_bytes=200)
        ops = [*v09_surface("g", data={})] + [data_op("g", f"/k{i}", "x" * 20) for i in range(10)]
        outcome = run_between(snapshot_line("g", ops), limits)
        assert outcome.codes == {"limit.data_model_bytes"}
        fitting = max(
            n for n in range(11) if len(_encode({f"k{i}": "x" * 20 for i in range(n)})) <= 200
        )
        refused = [d for d in outcome.diagnostics if d.code == "limit.data_model_bytes"]
        assert len(refused) == 10 - fitting

    def test_operations(self) -> None:
        """max_operations operations apply; one more is skipped with limit.operations."""
        limits = Limits(max_operations=5)
        ops = v09_surface("o") + [data_op("o", f"/k{i}", i) for i in range(3)]
        assert run_between(snapshot_line("o", ops), limits).codes == set()
        over = run_between(snapshot_line("o", [*ops, data_op("o", "/late", 1)]), limits)
        assert over.codes == {"limit.operations"}

    def test_live_surfaces(self) -> None:
        """max_live_surfaces surfaces live in one snapshot; one more is limit.live_surfaces."""
        limits = Limits(max_live_surfaces=2)
        two = v09_surface("s1") + v09_surface("s2")
        ok = run_between(snapshot_line("m", two), limits)
        assert ok.codes == set()
        over = run_between(snapshot_line("m", [*two, *v09_surface("s3")]), limits)
        assert over.codes == {"limit.live_surfaces", "op.missing_surface"}
        assert "s3" not in {d.surface_id for d in over.diffs}

    def test_live_surfaces_count_per_message(self) -> None:
        """The limit counts one activity message's surfaces, not the whole run's."""
        limits = Limits(max_live_surfaces=1)
        outcome = run_between(
            [snapshot_line("m1", v09_surface("a")), snapshot_line("m2", v09_surface("b"))], limits
        )
        assert outcome.codes == set()
        assert {"a", "b"} <= {d.surface_id for d in outcome.diffs}

    def test_live_surfaces_count_deleted_ones_free(self) -> None:
        """A deleted surface frees its slot for the next one."""
        limits = Limits(max_live_surfaces=1)
        delete = {"version": "v0.9", "deleteSurface": {"surfaceId": "s1"}}
        ops = [*v09_surface("s1"), delete, *v09_surface("s2")]
        assert run_between(snapshot_line("m", ops), limits).codes == set()

    @pytest.mark.parametrize(
        ("component", "key"),
        [
            ({"id": "root", "component": "Text", "text": "{s}"}, "value"),
            ({"id": "root", "component": "Image", "url": "https://x/{s}"}, "src"),
            ({"id": "root", "component": "Video", "url": "https://x/{s}"}, "value"),
            (
                {
                    "id": "root",
                    "component": "ChoicePicker",
                    "options": [{"label": "l", "value": "{s}"}],
                },
                "options",
            ),
        ],
    )
    def test_string_length(self, component: dict[str, Any], key: str) -> None:
        """A string of max_string_length is copied whole; one longer is cut with a warning."""
        limits = Limits(max_string_length=40)
        raw = json.dumps(component)

        def paint(fill: str) -> Outcome:
            return run_between(
                snapshot_line("t", v09_surface("t", [json.loads(raw.replace("{s}", fill))])), limits
            )

        under = paint("a")
        assert under.codes == set()
        long = paint("a" * 60)
        assert long.codes == {"convert.string_cut"}
        value = long.painted("t")[key]
        text = value[0]["value"] if key == "options" else value
        assert len(text) == 40


class TestDecodeRoundTrip:
    """Lines the corpus accepts decode the same after encoding."""

    def test_duplicate_keys_round_trip(self) -> None:
        """The event decoded from a duplicated key re-encodes to its last value."""
        event = decode_event(b'{"type":"RUN_STARTED","threadId":"t","runId":"x","runId":"r"}')
        assert event.run_id == "r"  # type: ignore[attr-defined]
