"""The surface engine, tested without bytes: events in, states and diffs out."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
import pytest
from a2ui_samples import conformant_streams
from helpers import Op, fold, run_started, snapshot, text_surface
from msgspec import UNSET

from a2ui_stream import MemoryLog, Processor
from a2ui_stream import events as ev
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._state.stream import ANONYMOUS_MESSAGE_ID, StreamState
from a2ui_stream._wire.codec import decode_event, encode_event
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.limits import Limits
from a2ui_stream.testing import create_surface as create
from a2ui_stream.testing import update_components as components
from a2ui_stream.testing import update_data_model as data


def parts_of(state: StreamState) -> list[tuple[str, Any]]:
    run = state.current
    assert run is not None
    return [(part.tool_call_id, part.args) for part in run.parts.values()]


class TestActivityFilter:
    def test_only_a2ui_surface_draws(self) -> None:
        """Snapshots of any other activity type change nothing."""
        state, diffs, _ = fold(snapshot("m1", text_surface("s1"), activity_type="mcp-apps"))
        assert diffs == []
        assert state.current is None or not state.current.parts

    def test_surface_becomes_present_part(self) -> None:
        """A surface with a root becomes one present part with id a2ui:<surfaceId>."""
        state, diffs, diagnostics = fold(snapshot("m1", text_surface("s1")))
        assert [(d.op, d.tool_call_id, d.tool_name) for d in diffs] == [
            ("add", "a2ui:s1", "present")
        ]
        assert parts_of(state) == [("a2ui:s1", {"$type": "Markdown", "value": "hello"})]
        assert [d for d in diagnostics if d.severity is not Severity.DEBUG] == []

    def test_wire_contract_example(self) -> None:
        """The seed document's example converts to the documented Card."""
        ops = [
            create("s1"),
            components(
                "s1",
                {"id": "root", "component": "Card", "title": "Order", "children": ["total"]},
                {"id": "total", "component": "Text", "text": {"path": "/total"}},
            ),
            {
                "version": "v0.9",
                "updateDataModel": {"surfaceId": "s1", "path": "/", "contents": {"total": "$42"}},
            },
        ]
        state, _, _ = fold(snapshot("a2ui-surface-call_1", ops, replace=True))
        assert parts_of(state) == [
            (
                "a2ui:s1",
                {
                    "$type": "Card",
                    "title": "Order",
                    "children": [{"$type": "Markdown", "value": "$42"}],
                },
            )
        ]


class TestBuckets:
    def test_replace_false_on_seen_message_is_ignored(self) -> None:
        """replace:false does nothing for a messageId already seen."""
        state, diffs, _ = fold(
            snapshot("m1", text_surface("s1", "one")),
            snapshot("m1", text_surface("s1", "two"), replace=False),
        )
        assert parts_of(state)[0][1]["value"] == "one"
        assert len(diffs) == 1

    def test_replace_false_on_new_message_applies(self) -> None:
        """replace:false on a messageId not seen yet is applied like any snapshot."""
        state, _, _ = fold(snapshot("m1", text_surface("s1"), replace=False))
        assert parts_of(state) == [("a2ui:s1", {"$type": "Markdown", "value": "hello"})]

    def test_replace_rebuilds_from_scratch(self) -> None:
        """A replacing snapshot rebuilds the bucket: surfaces it no longer has are removed."""
        state, diffs, _ = fold(
            snapshot("m1", [*text_surface("s1"), *text_surface("s2")]),
            snapshot("m1", text_surface("s2")),
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:s2"]
        assert [(d.op, d.surface_id) for d in diffs][-1] == ("remove", "s1")

    def test_most_recent_message_wins_shared_surface(self) -> None:
        """Two messageIds drawing one surfaceId: the latest received wins, in place."""
        state, diffs, _ = fold(
            snapshot("m1", text_surface("s1", "first")),
            snapshot("m2", text_surface("s1", "second")),
            snapshot("m1", text_surface("s1", "first")),
        )
        assert parts_of(state) == [("a2ui:s1", {"$type": "Markdown", "value": "first"})]
        assert [d.op for d in diffs] == ["add", "update", "update"]
        assert diffs[-1].message_id == "m1"

    def test_new_parts_go_after_existing_ones(self) -> None:
        """A new surface's part is appended; an updated one keeps its place."""
        state, _, _ = fold(
            snapshot("m1", text_surface("a")),
            snapshot("m2", text_surface("b")),
            snapshot("m1", text_surface("a", "changed")),
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:a", "a2ui:b"]

    def test_new_parts_follow_where_the_surfaces_first_appear(self) -> None:
        """Upstream's rule: new parts in the order of the buckets' union, not the snapshot's.

        m1 holds ``b`` and ``a`` without a root (no part). m2 then paints ``a`` and
        ``b``, in that order: both parts are new in one snapshot, and upstream's client
        appends them as it meets them in the union of the buckets, m1's order first.
        """
        unrooted = [create("b"), create("a")]
        state, diffs, _ = fold(
            snapshot("m1", text_surface("s0")),
            snapshot("m1", [*text_surface("s0"), *unrooted]),
            snapshot("m2", [*text_surface("a"), *text_surface("b")]),
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:s0", "a2ui:b", "a2ui:a"]
        assert [(d.op, d.surface_id) for d in diffs[1:]] == [("add", "b"), ("add", "a")]

    def test_a_stolen_surface_keeps_its_place_and_new_ones_follow_the_union(self) -> None:
        """A second messageId taking over s2 keeps s2's slot; its new s3 goes last."""
        state, _, _ = fold(
            snapshot("m1", [*text_surface("s1"), *text_surface("s2")]),
            snapshot("m2", [*text_surface("s3"), *text_surface("s2", "taken")]),
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:s1", "a2ui:s2", "a2ui:s3"]

    def test_deleted_surface_removes_part(self) -> None:
        """deleteSurface removes the surface's part."""
        ops = text_surface("s1")
        state, diffs, _ = fold(
            snapshot("m1", ops),
            snapshot("m1", [*ops, {"version": "v0.9", "deleteSurface": {"surfaceId": "s1"}}]),
        )
        assert parts_of(state) == []
        assert diffs[-1].op == "remove"
        assert diffs[-1].args is UNSET

    def test_surface_without_root_has_no_part(self) -> None:
        """A surface whose components have no root produces no part."""
        ops = [create("s1"), components("s1", {"id": "x", "component": "Text", "text": "t"})]
        state, diffs, _ = fold(snapshot("m1", ops))
        assert diffs == []
        assert parts_of(state) == []

    def test_missing_message_id_goes_to_the_anonymous_bucket(self) -> None:
        """Snapshots without a messageId share the bucket a2ui:anonymous."""
        event = ev.ActivitySnapshot.of(
            activity_type="a2ui-surface", content={"a2ui_operations": text_surface("s1")}
        )
        decoded = decode_event(encode_event(event))
        state, diffs, _ = fold(decoded, snapshot(ANONYMOUS_MESSAGE_ID, text_surface("s1", "b")))
        assert ANONYMOUS_MESSAGE_ID == "a2ui:anonymous"
        assert state.current is not None
        assert list(state.current.buckets) == [ANONYMOUS_MESSAGE_ID]
        assert [(d.op, d.message_id) for d in diffs] == [
            ("add", ANONYMOUS_MESSAGE_ID),
            ("update", ANONYMOUS_MESSAGE_ID),
        ]


class TestDiffs:
    def test_identical_snapshot_gives_no_diff(self) -> None:
        """A cumulative snapshot re-sent unchanged produces no diff."""
        event = snapshot("m1", text_surface("s1"))
        _, diffs, _ = fold(event, event, snapshot("m1", text_surface("s1")))
        assert [d.op for d in diffs] == ["add"]

    def test_update_only_when_args_change(self) -> None:
        """Changing data a component does not read yields no update."""
        base = text_surface("s1")
        _, diffs, _ = fold(
            snapshot("m1", [*base, data("s1", {"unused": 1})]),
            snapshot("m1", [*base, data("s1", {"unused": 2})]),
        )
        assert [d.op for d in diffs] == ["add"]

    def test_update_carries_fields_and_patch(self) -> None:
        """An update carries run, message, surface ids, args, and renders as a patch."""
        base = [
            create("s1"),
            components("s1", {"id": "root", "component": "Text", "text": {"path": "/v"}}),
        ]
        _, diffs, _ = fold(
            run_started("run-9"),
            snapshot("m1", [*base, data("s1", {"v": "a"})]),
            snapshot("m1", [*base, data("s1", {"v": "b"})]),
        )
        update = diffs[-1]
        assert (update.op, update.run_id, update.message_id, update.surface_id, update.seq) == (
            "update",
            "run-9",
            "m1",
            "s1",
            2,
        )
        assert update.args == {"$type": "Markdown", "value": "b"}
        assert update.patch() == [{"op": "replace", "path": "/value", "value": "b"}]

    def test_diffs_in_part_order(self) -> None:
        """Several diffs from one event come in the order of the parts."""
        _, diffs, _ = fold(snapshot("m1", [*text_surface("b"), *text_surface("a")]))
        assert [d.surface_id for d in diffs] == ["b", "a"]


class TestLifecycle:
    def test_status_only_snapshot_has_no_part_but_a_status(self) -> None:
        """A building snapshot produces no part, and the state shows building."""
        state, diffs, _ = fold(snapshot("m1", status="building"))
        assert diffs == []
        run = state.current
        assert run is not None
        assert run.lifecycles["m1"].phase == "building"

    def test_paint_after_building(self) -> None:
        """Operations under the same messageId replace the skeleton and mark it painted."""
        state, diffs, _ = fold(
            snapshot("m1", status="building"),
            snapshot("m1", status="building", progressTokens=20),
            snapshot("m1", text_surface("s1")),
        )
        run = state.current
        assert run is not None
        assert run.lifecycles["m1"].phase == "painted"
        assert [d.op for d in diffs] == ["add"]

    def test_retrying_then_failed(self) -> None:
        """Retrying and failed statuses are recorded with their fields."""
        state, _, _ = fold(
            snapshot("m1", status="building"),
            snapshot("m1", status="retrying", attempt=2, maxAttempts=3, errors=[]),
            snapshot("m1", status="failed", error="Failed to generate"),
        )
        run = state.current
        assert run is not None
        assert run.lifecycles["m1"].phase == "failed"
        assert run.lifecycles["m1"].content["error"] == "Failed to generate"

    def test_status_does_not_create_bucket(self) -> None:
        """A lifecycle snapshot does not count as 'seen' for a later replace:false paint."""
        state, _, _ = fold(
            snapshot("m1", status="building"),
            snapshot("m1", text_surface("s1"), replace=False),
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:s1"]


class TestOperationsInSnapshots:
    def test_malformed_operation_is_skipped_and_rest_applies(self) -> None:
        """A bad operation gives a diagnostic; the other operations still apply."""
        ops = [create("s1"), {"version": "v0.9", "bogus": {}}, *text_surface("s1")[1:]]
        state, _, diagnostics = fold(snapshot("m1", ops))
        assert [p[0] for p in parts_of(state)] == ["a2ui:s1"]
        assert any(d.severity is Severity.ERROR for d in diagnostics)
        assert all(d.message_id == "m1" and d.seq == 0 for d in diagnostics)

    def test_missing_surface_is_skipped(self) -> None:
        """An update to a surface that was never created is skipped with a diagnostic."""
        _, diffs, diagnostics = fold(snapshot("m1", [data("nope", {"a": 1})]))
        assert diffs == []
        assert diagnostics

    def test_unchanged_prefix_keeps_surface_identity(self) -> None:
        """Re-sent identical operations are not applied again: the components are reused."""
        reducer = Reducer()
        first, _, _ = fold(
            snapshot("m1", [*text_surface("s1"), data("s1", {"a": 1})]), reducer=reducer
        )
        second, _, _ = reducer.reduce(
            first, snapshot("m1", [*text_surface("s1"), data("s1", {"a": 2})])
        )
        assert first.current is not None
        assert second.current is not None
        old = first.current.buckets["m1"].surfaces["s1"]
        new = second.current.buckets["m1"].surfaces["s1"]
        assert old.components is new.components
        assert new.data_model == {"a": 2}

    def test_resent_data_keeps_identity_where_unchanged(self) -> None:
        """A cumulative snapshot's re-sent data shares the unchanged parts of the old data."""
        reducer = Reducer()
        items = [{"n": "a"}, {"n": "b"}]
        first, _, _ = fold(
            snapshot("m1", [*text_surface("s1"), data("s1", {"items": items})]), reducer=reducer
        )
        grown = [*items, {"n": "c"}]
        second, _, _ = reducer.reduce(
            first, snapshot("m1", [*text_surface("s1"), data("s1", {"items": grown})])
        )
        assert first.current is not None
        assert second.current is not None
        old: Any = first.current.buckets["m1"].surfaces["s1"].data_model
        new: Any = second.current.buckets["m1"].surfaces["s1"].data_model
        assert new == {"items": grown}
        assert new["items"][0] is old["items"][0]
        assert new["items"][1] is old["items"][1]

    def test_long_snapshot_keeps_few_checkpoints_and_restarts_exactly(self) -> None:
        """A 300-operation snapshot keeps logarithmically many checkpoints; a late change
        restarts from one and gives the same surfaces as a fresh reduction."""
        sets = [data("s1", i, path=f"/k{i}") for i in range(298)]
        first_ops = [*text_surface("s1", {"path": "/k200"}), *sets]
        changed = [*first_ops[:202], data("s1", "new", path="/k200"), *first_ops[203:]]
        reducer = Reducer()
        state, _, _ = fold(snapshot("m1", first_ops), reducer=reducer)
        assert state.current is not None
        assert len(state.current.buckets["m1"].checkpoints) <= 64 + 9 + 1
        state, diffs, diagnostics = reducer.reduce(state, snapshot("m1", changed))
        fresh, _, _ = Reducer().reduce(StreamState(), snapshot("m1", changed))
        assert state.current is not None
        assert fresh.current is not None
        assert state.current.buckets["m1"].surfaces == fresh.current.buckets["m1"].surfaces
        assert [d.args for d in diffs] == [{"$type": "Markdown", "value": "new"}]
        assert diagnostics == ()

    def test_operations_limit(self) -> None:
        """Operations past the per-snapshot limit are not applied and are reported."""
        ops = [*text_surface("s1"), *text_surface("s2")]
        state, _, diagnostics = fold(
            snapshot("m1", ops), reducer=Reducer(limits=Limits(max_operations=2))
        )
        assert [p[0] for p in parts_of(state)] == ["a2ui:s1"]
        assert any(d.code == "limit.operations" for d in diagnostics)


class TestResentData:
    def surface_with_rows(self, rows: list[Any]) -> list[Op]:
        return [
            create("s1"),
            components(
                "s1",
                {
                    "id": "root",
                    "component": "List",
                    "children": {"componentId": "r", "path": "/rows"},
                },
                {"id": "r", "component": "Text", "text": {"path": "n"}},
            ),
            data("s1", {"rows": rows, "title": {"t": "a"}}),
        ]

    def test_unchanged_parts_keep_their_identity(self) -> None:
        """A re-sent model shares every unchanged part with the last one, wire to wire."""
        rows = [{"n": i} for i in range(20)]
        changed = [*rows[:3], {"n": 99}, *rows[4:]]
        reducer = Reducer()
        sent = decode_event(encode_event(snapshot("m1", self.surface_with_rows(rows))))
        first, _, _ = fold(sent, reducer=reducer)
        wire = decode_event(encode_event(snapshot("m1", self.surface_with_rows(changed))))
        second, diffs, _ = reducer.reduce(first, wire)
        assert first.current is not None
        assert second.current is not None
        before: Any = first.current.buckets["m1"].surfaces["s1"].data_model
        after: Any = second.current.buckets["m1"].surfaces["s1"].data_model
        assert after["rows"][0] is before["rows"][0]
        assert after["title"] is before["title"]
        assert after["rows"][3] == {"n": 99}
        # Shared as it was decoded, text against text: the value written is the model.
        assert second.current.buckets["m1"].written[2][0] is after
        assert [d.op for d in diffs] == ["update"]
        fresh, _, _ = fold(wire)
        assert parts_of(second) == parts_of(fresh)

    def test_undecodable_resent_data_is_reported(self) -> None:
        """A re-sent model whose changed part does not decode is reported; the rest applies.

        The part is a string that is not UTF-8: only the line reader checks that, and
        ``decode_event`` leaves content undecoded, so the operation's bytes fail late.
        """
        reducer = Reducer()
        sent = decode_event(encode_event(snapshot("m1", self.surface_with_rows([{"n": 1}]))))
        first, _, _ = fold(sent, reducer=reducer)
        ops = self.surface_with_rows([{"n": 1}])
        raw = msgspec.json.encode(
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m1",
                "activityType": "a2ui-surface",
                "replace": True,
                "content": {"a2ui_operations": ops},
            }
        ).replace(b'"title":{"t":"a"}', b'"title":"\xff"')
        second, _, found = reducer.reduce(first, decode_event(raw))
        fresh, _, fresh_found = fold(decode_event(raw))
        codes = [d.code for d in found]
        assert codes == [d.code for d in fresh_found]
        assert codes[0] == "op.invalid_json"
        # As from scratch: the write is skipped with its diagnostic, the rest applies.
        assert parts_of(second) == parts_of(fresh)


class TestActivityDelta:
    def test_delta_patches_content_and_redraws(self) -> None:
        """An ACTIVITY_DELTA patch is applied and the result treated as a snapshot."""
        base = [
            create("s1"),
            components("s1", {"id": "root", "component": "Text", "text": {"path": "/v"}}),
            data("s1", {"v": "a"}),
        ]
        delta = ev.ActivityDelta(
            message_id="m1",
            activity_type="a2ui-surface",
            patch=[
                {
                    "op": "replace",
                    "path": "/a2ui_operations/2/updateDataModel/value/v",
                    "value": "b",
                }
            ],
        )
        state, diffs, _ = fold(snapshot("m1", base), delta)
        assert parts_of(state)[0][1] == {"$type": "Markdown", "value": "b"}
        assert [d.op for d in diffs] == ["add", "update"]

    def test_second_delta_reuses_components(self) -> None:
        """After a delta the components stay the same objects: only data is rebuilt."""
        base = [
            create("s1"),
            components("s1", {"id": "root", "component": "Text", "text": {"path": "/v"}}),
            data("s1", {"v": 0}),
        ]
        reducer = Reducer()
        state, _, _ = fold(snapshot("m1", base), reducer=reducer)
        seen = []
        for value in range(1, 4):
            patch = [
                {
                    "op": "replace",
                    "path": "/a2ui_operations/2/updateDataModel/value/v",
                    "value": str(value),
                }
            ]
            state, _, _ = reducer.reduce(
                state, ev.ActivityDelta(message_id="m1", activity_type="a2ui-surface", patch=patch)
            )
            assert state.current is not None
            seen.append(state.current.buckets["m1"].surfaces["s1"].components)
        assert seen[1] is seen[2]

    def test_lasting_conversion_warning_is_reported_once(self) -> None:
        """A redraw that keeps a conversion warning does not repeat it; a new one is reported."""
        base = [
            create("s1"),
            components(
                "s1",
                {"id": "root", "component": "Column", "children": ["t", "gone"]},
                {"id": "t", "component": "Text", "text": {"path": "/v"}},
            ),
            data("s1", {"v": "a"}),
        ]

        reducer = Reducer()
        state, _, first = fold(snapshot("m1", base), reducer=reducer)
        assert [d.code for d in first] == ["convert.component_missing"]

        def codes(value: Any) -> list[str]:
            nonlocal state
            path = "/a2ui_operations/2/updateDataModel/value/v"
            delta = ev.ActivityDelta(
                message_id="m1",
                activity_type="a2ui-surface",
                patch=[{"op": "replace", "path": path, "value": value}],
            )
            state, _, found = reducer.reduce(state, delta)
            return [d.code for d in found]

        assert codes("b") == []
        assert codes(["not", "text"]) == ["convert.prop_invalid"]
        assert codes("c") == []
        assert codes(["again"]) == ["convert.prop_invalid"]  # gone, then back: new again

    def test_empty_operation_list_after_a_delta(self) -> None:
        """A snapshot with no operations after a delta-built bucket clears it cleanly."""
        append = ev.ActivityDelta(
            message_id="m1",
            activity_type="a2ui-surface",
            patch=[{"op": "add", "path": "/a2ui_operations/-", "value": None}],
        )
        state, diffs, diagnostics = fold(snapshot("m1", []), append, snapshot("m1", []))
        assert diffs == []
        assert state.current is not None
        assert state.current.buckets["m1"].surfaces == {}
        assert [d.code for d in diagnostics] == ["op.malformed"]

    def test_failed_patch_leaves_state_unchanged(self) -> None:
        """A patch that fails changes nothing and gives a warning."""
        reducer = Reducer()
        state, _, _ = fold(snapshot("m1", text_surface("s1")), reducer=reducer)
        bad = ev.ActivityDelta(
            message_id="m1",
            activity_type="a2ui-surface",
            patch=[{"op": "remove", "path": "/nope/0"}],
        )
        after, diffs, diagnostics = reducer.reduce(state, bad)
        assert diffs == ()
        assert after.current == state.current
        assert [d.code for d in diagnostics] == ["activity.patch_failed"]

    def test_delta_that_breaks_the_operation_list_is_reported(self) -> None:
        """A patch that turns a2ui_operations into a non-array changes nothing and says so."""
        delta = ev.ActivityDelta(
            message_id="m1",
            activity_type="a2ui-surface",
            patch=[{"op": "replace", "path": "/a2ui_operations", "value": "oops"}],
        )
        state, diffs, diagnostics = fold(snapshot("m1", text_surface("s1")), delta)
        assert [d.op for d in diffs] == ["add"]
        assert [d.code for d in diagnostics] == ["activity.malformed"]
        assert [p[0] for p in parts_of(state)] == ["a2ui:s1"]

    def test_delta_for_unknown_message_is_ignored(self) -> None:
        """A delta with no earlier snapshot is ignored with a warning."""
        delta = ev.ActivityDelta(message_id="zz", activity_type="a2ui-surface", patch=[])
        _, diffs, diagnostics = fold(delta)
        assert diffs == []
        assert [d.code for d in diagnostics] == ["activity.delta_unknown"]


class TestRuns:
    def test_run_started_scopes_parts(self) -> None:
        """A new run starts with no parts; the finished run keeps its parts."""
        state, diffs, _ = fold(
            run_started("r1"),
            snapshot("m1", text_surface("s1")),
            ev.RunFinished(thread_id="t1", run_id="r1"),
            run_started("r2"),
            snapshot("m2", text_surface("s2")),
        )
        assert [run.run_id for run in state.runs] == ["r1", "r2"]
        assert list(state.runs[0].parts) == ["s1"]
        assert state.runs[0].status == "finished"
        assert list(state.runs[1].parts) == ["s2"]
        assert [(d.run_id, d.op) for d in diffs] == [("r1", "add"), ("r2", "add")]

    @pytest.mark.parametrize(
        ("ends", "status"),
        [
            (["finished"], "finished"),
            (["error"], "error"),
            (["error", "finished"], "error"),
            (["finished", "error"], "error"),
            (["finished", "finished"], "finished"),
        ],
    )
    def test_an_error_ends_the_run_for_good(self, ends: list[str], status: str) -> None:
        """As upstream's client: RUN_ERROR wins over any RUN_FINISHED, before or after."""
        kinds = {
            "finished": ev.RunFinished(thread_id="t1", run_id="r1"),
            "error": ev.RunError(message="boom"),
        }
        state, _, _ = fold(run_started("r1"), *(kinds[end] for end in ends))
        assert state.runs[0].status == status

    def test_events_before_any_run_form_an_anonymous_run(self) -> None:
        """Snapshots before RUN_STARTED belong to a run with null ids."""
        state, diffs, _ = fold(snapshot("m1", text_surface("s1")))
        assert state.runs[0].run_id is None
        assert diffs[0].run_id is None

    def test_keep_runs_bounds_past_runs(self) -> None:
        """keep_runs=0 drops past runs; the current one stays."""
        events = [run_started(f"r{i}") for i in range(5)]
        state, _, _ = fold(*events, reducer=Reducer(keep_runs=0))
        assert [run.run_id for run in state.runs] == ["r4"]


class TestSkip:
    def test_skip_equals_reducing_events_that_do_not_draw(self) -> None:
        """skip(state, n) gives the state that reducing n non-drawing events gives."""
        reducer = Reducer()
        others = [
            ev.TextMessageContent(message_id="t", delta="x"),
            ev.StateSnapshot(snapshot={"k": 1}),
            ev.StepStarted(step_name="s"),
        ]
        assert not any(type(event) in reducer.drawing_events for event in others)
        start, _, _ = fold(run_started(), snapshot("m1", text_surface("s1")), reducer=reducer)
        reduced, _, _ = reducer.reduce_all(others, start)
        assert reducer.skip(start, len(others)) == reduced
        assert ev.ActivitySnapshot in reducer.drawing_events

    def test_processor_fast_path_matches_the_logged_path(self) -> None:
        """The no-log loop that batches skipped events ends in the same state as the
        logged loop that reduces every event."""
        data = b"".join(
            encode_event(event) + b"\n"
            for event in [
                run_started(),
                ev.TextMessageContent(message_id="t", delta="x"),
                snapshot("m1", text_surface("s1")),
                ev.TextMessageContent(message_id="t", delta="y"),
            ]
        )
        fast, logged = Processor(), Processor(log=MemoryLog())
        assert fast.feed(data) == logged.feed(data)
        assert fast.state == logged.state
        assert fast.state.seq == 4


class TestPurity:
    def events(self) -> list[ev.Event]:
        base = [
            create("s1"),
            components(
                "s1",
                {"id": "root", "component": "Column", "children": ["t", "u"]},
                {"id": "t", "component": "Text", "text": {"path": "/a"}},
                {"id": "u", "component": "Text", "text": {"path": "/b"}},
            ),
        ]
        return [
            run_started("r1"),
            snapshot("m1", status="building"),
            *(snapshot("m1", [*base, data("s1", {"a": str(i), "b": "x"})]) for i in range(4)),
            snapshot("m2", text_surface("s2")),
            ev.RunFinished(thread_id="t1", run_id="r1"),
        ]

    def test_old_state_is_unchanged_by_later_events(self) -> None:
        """A state kept aside stays equal to a deep copy of itself after more events."""
        reducer = Reducer()
        events = self.events()
        state = StreamState()
        for event in events[:4]:
            state, _, _ = reducer.reduce(state, event)
        kept = state
        frozen = msgspec.json.encode(msgspec.to_builtins(_parts_view(kept)))
        snapshot_copy = copy.deepcopy(_parts_view(kept))
        for event in events[4:]:
            state, _, _ = reducer.reduce(state, event)
        assert msgspec.json.encode(msgspec.to_builtins(_parts_view(kept))) == frozen
        assert _parts_view(kept) == snapshot_copy

    def test_replay_gives_equal_states(self) -> None:
        """Replaying the same events from scratch gives an equal state and equal diffs."""
        events = self.events()
        first = Reducer().reduce_all(events)
        second = Reducer().reduce_all(events)
        assert first.state == second.state
        assert first.diffs == second.diffs

    def test_incremental_equals_from_scratch(self) -> None:
        """Random cumulative edits: parts equal those of a fresh reduction of the last event."""
        rng = random.Random(7)
        reducer = Reducer()
        state = StreamState()
        comps: list[dict[str, Any]] = [
            {"id": "root", "component": "Column", "children": [f"c{i}" for i in range(6)]}
        ]
        comps += [
            {"id": f"c{i}", "component": "Text", "text": {"path": f"/v{i}"}} for i in range(6)
        ]
        for _ in range(40):
            values = {f"v{i}": str(rng.randrange(3)) for i in range(6)}
            if rng.random() < 0.3:
                index = rng.randrange(1, 7)
                comps[index] = {**comps[index], "text": f"lit{rng.randrange(5)}"}
            event = snapshot("m1", [create("s1"), components("s1", *comps), data("s1", values)])
            state, _, _ = reducer.reduce(state, event)
            fresh, _, _ = Reducer().reduce(StreamState(), event)
            assert parts_of(state) == parts_of(fresh)


def _parts_view(state: StreamState) -> list[Any]:
    return [[(p.surface_id, p.args) for p in run.parts.values()] for run in state.runs]


class TestRehydration:
    def history(self) -> list[dict[str, Any]]:
        return [
            {"id": "u1", "role": "user", "content": "show me"},
            {"id": "a1", "role": "assistant", "content": "here"},
            {
                "id": "act1",
                "role": "activity",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": text_surface("s1", "restored")},
            },
            {"id": "a2", "role": "assistant", "content": "and more"},
            {
                "id": "act2",
                "role": "activity",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": text_surface("s2")},
            },
            {
                "id": "act3",
                "role": "activity",
                "activityType": "other",
                "content": {"a2ui_operations": text_surface("s3")},
            },
        ]

    def test_rehydrate_plain_messages(self) -> None:
        """Activity messages attach to the nearest preceding assistant message."""
        state, _, _ = Reducer().rehydrate(self.history())
        assert [(h.message_id, [p.surface_id for p in h.parts]) for h in state.history] == [
            ("a1", ["s1"]),
            ("a2", ["s2"]),
        ]
        assert state.history[0].parts[0].args == {"$type": "Markdown", "value": "restored"}

    def test_orphan_activity_is_dropped_with_warning(self) -> None:
        """An activity before any assistant message has no owner and is reported."""
        state, _, diagnostics = Reducer().rehydrate(self.history()[2:3])
        assert state.history == ()
        assert [d.code for d in diagnostics] == ["history.orphan_activity"]

    def test_stored_operations_are_cut_as_live_ones(self) -> None:
        """A stored message over max_operations is cut with limit.operations, as live."""
        history = self.history()[:3]
        limits = Limits(max_operations=1)
        _, _, diagnostics = Reducer(limits=limits).rehydrate(history)
        live = Reducer(limits=limits).reduce(StreamState(), snapshot("m1", text_surface("s1")))
        cut = [d for d in diagnostics if d.code == "limit.operations"]
        live_cut = [d for d in live[2] if d.code == "limit.operations"]
        assert len(cut) == len(live_cut) == 1
        assert cut[0].message == live_cut[0].message
        assert cut[0].severity is live_cut[0].severity

    def test_messages_snapshot_event(self) -> None:
        """A MESSAGES_SNAPSHOT event rebuilds history parts in the state, with their diffs."""
        messages = msgspec.convert(self.history(), list[ev.Message])
        state, diffs, _ = fold(ev.MessagesSnapshot(messages=messages))
        assert [h.message_id for h in state.history] == ["a1", "a2"]
        restored = [(h.message_id, p.surface_id) for h in state.history for p in h.parts]
        assert [(d.op, d.message_id, d.surface_id, d.history) for d in diffs] == [
            ("add", message_id, surface_id, True) for message_id, surface_id in restored
        ]
        again, more, _ = Reducer().reduce(state, ev.MessagesSnapshot(messages=messages))
        assert (again.history, more) == (state.history, ())  # the same history: no diffs


class TestSamples:
    def test_every_sample_draws_without_warnings(self, samples_dir: Any) -> None:
        """Each sample as one snapshot draws every surface with no warning; deletes remove."""
        checked = 0
        for name, messages in conformant_streams(samples_dir):
            drawn = list(messages)
            while drawn and "deleteSurface" in drawn[-1]:
                drawn.pop()
            _, diffs, diagnostics = fold(snapshot("m", drawn), snapshot("m", messages))
            problems = [d for d in diagnostics if d.severity is not Severity.DEBUG]
            assert problems == [], name
            adds = [diff for diff in diffs if diff.op == "add"]
            assert adds, name
            if len(drawn) < len(messages):
                assert [d.op for d in diffs[len(adds) :]] == ["remove"] * len(adds), name
            checked += 1
        assert checked >= 25
