"""Rebuilding and placing buckets: prefix reuse, limits, and which bucket wins a surface."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec import UNSET

from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.buckets import Context, locate, place_bucket, rebuild_bucket, with_run
from a2ui_stream._engine.carriers import ToolConfig
from a2ui_stream._engine.parts import Conversions
from a2ui_stream._state.stream import Bucket, RunState, StreamState
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import Limits

_encode = msgspec.json.Encoder().encode


def _context(limits: Limits | None = None, seq: int = 1) -> Context:
    limits = limits or Limits()
    return Context(
        seq, Converter(limits=limits), limits, None, ToolConfig(frozenset(), None), Conversions()
    )


def _create(sid: str) -> dict[str, Any]:
    return {"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": "c"}}


def _text(sid: str, text: str) -> dict[str, Any]:
    component = {"id": "root", "component": "Text", "text": text}
    return {"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": [component]}}


def _keys(*operations: dict[str, Any]) -> list[msgspec.Raw]:
    return [msgspec.Raw(_encode(operation)) for operation in operations]


def _rebuilt(
    state: StreamState, key: str, keys: list[msgspec.Raw], context: Context | None = None
) -> tuple[StreamState, Any, Any]:
    run = state.runs[-1] if state.runs else RunState()
    state = state if state.runs else msgspec.structs.replace(state, runs=(run,))
    content = (UNSET, b"".join(bytes(one) for one in keys), 0)
    return rebuild_bucket(state, run, key, keys, None, content, context or _context())


def _bucket(state: StreamState, key: str) -> Bucket:
    bucket = state.runs[-1].buckets.get(key)
    assert isinstance(bucket, Bucket)
    return bucket


class TestWithRun:
    def test_replaces_the_current_run_only(self) -> None:
        first, second, third = RunState(run_id="a"), RunState(run_id="b"), RunState(run_id="c")
        state = StreamState(runs=(first, second))
        changed = with_run(state, third)
        assert changed.runs == (first, third)
        assert state.runs == (first, second)  # the state given is a value, left alone


class TestRebuild:
    def test_a_new_bucket_draws_its_surface(self) -> None:
        state, diffs, diagnostics = _rebuilt(
            StreamState(), "m", _keys(_create("s"), _text("s", "hi"))
        )
        assert diagnostics == ()
        assert [(d.op, d.surface_id, d.tool_call_id) for d in diffs] == [("add", "s", "a2ui:s")]
        assert diffs[0].args["value"] == "hi"
        assert list(_bucket(state, "m").surfaces) == ["s"]

    def test_the_same_operations_again_change_nothing(self) -> None:
        keys = _keys(_create("s"), _text("s", "hi"))
        state, _, _ = _rebuilt(StreamState(), "m", keys)
        again, diffs, diagnostics = _rebuilt(state, "m", _keys(_create("s"), _text("s", "hi")))
        assert (diffs, diagnostics) == ((), ())
        # Equal bytes, so nothing was applied again: the very surfaces are kept.
        assert _bucket(again, "m").surfaces is _bucket(state, "m").surfaces

    def test_an_operation_added_keeps_what_came_before(self) -> None:
        state, _, _ = _rebuilt(StreamState(), "m", _keys(_create("s"), _text("s", "hi")))
        more = _keys(_create("s"), _text("s", "hi"), _create("t"), _text("t", "yo"))
        grown, diffs, _ = _rebuilt(state, "m", more)
        assert [(d.op, d.surface_id) for d in diffs] == [("add", "t")]
        fresh, _, _ = _rebuilt(StreamState(), "m", more)
        assert _bucket(grown, "m").surfaces == _bucket(fresh, "m").surfaces
        assert _bucket(grown, "m").surfaces["s"] is _bucket(state, "m").surfaces["s"]

    def test_a_changed_operation_updates_its_surface(self) -> None:
        state, _, _ = _rebuilt(StreamState(), "m", _keys(_create("s"), _text("s", "hi")))
        changed, diffs, _ = _rebuilt(state, "m", _keys(_create("s"), _text("s", "bye")))
        assert [(d.op, d.args["value"]) for d in diffs] == [("update", "bye")]
        assert _bucket(changed, "m").surfaces["s"].components["root"].props["text"] == "bye"

    def test_operations_past_the_limit_are_dropped_with_an_error(self) -> None:
        limits = Limits(max_operations=2)
        keys = _keys(_create("s"), _text("s", "hi"), _text("s", "dropped"))
        state, diffs, diagnostics = _rebuilt(StreamState(), "m", keys, _context(limits, seq=7))
        assert [d.code for d in diagnostics] == [Code.LIMIT_OPERATIONS]
        assert (diagnostics[0].seq, diagnostics[0].message_id) == (7, "m")
        assert diffs[0].args["value"] == "hi"
        assert len(_bucket(state, "m").operation_keys) == 2

    def test_a_bad_operation_is_reported_once_and_the_rest_applied(self) -> None:
        keys = [*_keys(_create("s")), msgspec.Raw(b'{"version":"v0.9","nonsense":{}}')]
        keys += _keys(_text("s", "hi"))
        state, diffs, diagnostics = _rebuilt(StreamState(), "m", keys)
        assert len(diagnostics) == 1
        assert diagnostics[0].severity is Severity.ERROR
        assert diffs[0].args["value"] == "hi"
        # The same bad bytes again: already reported when first applied.
        _, diffs, again = _rebuilt(state, "m", [*keys, *_keys(_create("t"), _text("t", "yo"))])
        assert (again, [d.surface_id for d in diffs]) == ((), ["t"])


class TestPlace:
    def test_a_re_placed_older_bucket_wins_its_surface_again(self) -> None:
        state, _, _ = _rebuilt(StreamState(), "old", _keys(_create("s"), _text("s", "old")))
        state, diffs, _ = _rebuilt(state, "new", _keys(_create("s"), _text("s", "new")))
        assert diffs[0].args["value"] == "new"
        run = state.runs[-1]
        older = run.buckets.get("old")
        assert older is not None
        placed, diffs, _ = place_bucket(state, run, older, _context(), [], changed=False)
        assert placed.runs[-1].buckets.last_key() == "old"
        assert [(d.op, d.args) for d in diffs] == [
            ("update", {"$type": "Markdown", "value": "old"})
        ]

    def test_the_latest_bucket_placed_unchanged_draws_nothing(self) -> None:
        state, _, _ = _rebuilt(StreamState(), "m", _keys(_create("s"), _text("s", "hi")))
        run = state.runs[-1]
        placed, diffs, diagnostics = place_bucket(
            state, run, _bucket(state, "m"), _context(), [], changed=False
        )
        assert (diffs, diagnostics) == ((), ())
        assert placed.runs[-1].buckets.get("m") is _bucket(state, "m")


@pytest.mark.parametrize("seq", [0, 41])
def test_locate_names_the_event_and_the_message(seq: int) -> None:
    found = Diagnostic(code=Code.ACTIVITY_MALFORMED, message="bad", severity=Severity.ERROR)
    located = locate(found, "m1", _context(seq=seq))
    assert (located.seq, located.message_id, located.message) == (seq, "m1", "bad")
