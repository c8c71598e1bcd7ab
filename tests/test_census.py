"""The census of a run's live surfaces (:mod:`a2ui_stream._engine.census`).

``count_surfaces`` directly, on buckets whose surfaces are only counted (their values
are never read): counts in and out, the cap with its one diagnostic, and the
shortcuts. Then ``max_run_surfaces`` through the reducer, over a run's messages.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import immutables
import pytest
from helpers import fold, run_started, snapshot, text_surface

from a2ui_stream import Processor
from a2ui_stream._engine.census import count_surfaces
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.stream import NO_HOLDERS, Bucket, Holders, Live, RunState
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from a2ui_stream import events as ev


def bucket(message_id: str, *surface_ids: str) -> Bucket:
    surfaces: Any = {sid: object() for sid in surface_ids}
    return Bucket(message_id=message_id, surfaces=surfaces)


def run_of(*buckets: Bucket) -> RunState:
    """A run holding ``buckets``, its census counted as the reducer would."""
    live: dict[str, Holders] = {}
    stored: OrderedMap[str, Bucket] = OrderedMap()
    for each in buckets:
        stored = stored.set(each.message_id, each)
        for sid in each.surfaces:
            live[sid] = live.get(sid, NO_HOLDERS).with_holder(each.message_id, tool=False)
    return RunState(run_id="r", buckets=stored, live=immutables.Map(live))


def counts(live: Live) -> dict[str, int]:
    """How many buckets hold each live surface."""
    return {sid: len(holders) for sid, holders in live.items()}


def count(
    run: RunState, new: Bucket, limit: int = 10
) -> tuple[dict[str, int], Bucket, list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    live, kept = count_surfaces(run, new, Limits(max_run_surfaces=limit), 7, diagnostics)
    return counts(live), kept, diagnostics


class TestCountSurfaces:
    def test_a_new_bucket_is_counted_in(self) -> None:
        live, kept, diagnostics = count(run_of(), bucket("m", "a", "b"))
        assert live == {"a": 1, "b": 1}
        assert list(kept.surfaces) == ["a", "b"]
        assert diagnostics == []

    def test_a_surface_in_two_buckets_counts_twice_and_once_in_the_length(self) -> None:
        live, _, _ = count(run_of(bucket("m1", "a")), bucket("m2", "a"))
        assert live == {"a": 2}

    def test_the_holders_are_the_buckets_by_kind(self) -> None:
        """Who holds a surface, activity or tool bucket, is what finds its owner."""
        run = run_of(bucket("m1", "a", "b"))
        live, _ = count_surfaces(run, bucket("call", "a"), Limits(), 7, [], tool=True)
        assert (dict(live["a"].activity), dict(live["a"].tools)) == ({"m1": None}, {"call": None})
        assert (dict(live["b"].activity), dict(live["b"].tools)) == ({"m1": None}, {})

    def test_surfaces_a_bucket_drops_are_counted_out(self) -> None:
        run = run_of(bucket("m1", "a", "b"), bucket("m2", "b"))
        live, _, _ = count(run, bucket("m1", "c"))
        assert live == {"b": 1, "c": 1}

    def test_same_surfaces_change_nothing(self) -> None:
        """A bucket redrawing the same surfaces returns the run's census itself."""
        run = run_of(bucket("m", "a", "b"))
        new = bucket("m", "b", "a")
        diagnostics: list[Diagnostic] = []
        live, kept = count_surfaces(run, new, Limits(), 1, diagnostics)
        assert live is run.live
        assert kept is new

    def test_past_the_cap_new_surfaces_are_dropped_with_one_error(self) -> None:
        run = run_of(bucket("m1", "a", "b"))
        live, kept, diagnostics = count(run, bucket("m2", "a", "c", "d", "e", "f", "g"), limit=3)
        assert live == {"a": 2, "b": 1, "c": 1}
        assert list(kept.surfaces) == ["a", "c"]
        [error] = diagnostics
        assert (error.code, error.severity) == (Code.LIMIT_RUN_SURFACES, Severity.ERROR)
        assert (error.seq, error.message_id, error.surface_id) == (7, "m2", "d")
        assert error.message.startswith("4 new surface(s) ('d', 'e', 'f', ...) would take")
        assert "limit of 3 live surfaces" in error.message

    def test_at_the_cap_exactly_nothing_is_dropped(self) -> None:
        live, kept, diagnostics = count(run_of(bucket("m1", "a")), bucket("m2", "b"), limit=2)
        assert len(live) == 2
        assert list(kept.surfaces) == ["b"]
        assert diagnostics == []

    def test_room_a_bucket_frees_is_taken_by_the_same_bucket(self) -> None:
        """Surfaces counted out first: replacing one surface by another fits a full run."""
        live, kept, diagnostics = count(run_of(bucket("m", "a")), bucket("m", "b"), limit=1)
        assert live == {"b": 1}
        assert list(kept.surfaces) == ["b"]
        assert diagnostics == []

    def test_the_run_is_not_changed(self) -> None:
        run = run_of(bucket("m", "a"))
        count(run, bucket("m", "b", "c"), limit=2)
        assert counts(run.live) == {"a": 1}
        assert list(run.buckets["m"].surfaces) == ["a"]

    @pytest.mark.parametrize("dropped", [1, 3])
    def test_few_dropped_are_all_named(self, dropped: int) -> None:
        names = [f"s{i}" for i in range(dropped)]
        _, _, [error] = count(run_of(bucket("m1", "a")), bucket("m2", *names), limit=1)
        assert error.message.startswith(
            f"{dropped} new surface(s) ({', '.join(map(repr, names))}) would"
        )


class TestRunSurfaceCap:
    """``max_run_surfaces`` bounds the surfaces alive in one run, over its messages."""

    @staticmethod
    def _events(count: int) -> list[ev.Event]:
        return [run_started(), *(snapshot(f"m{i}", text_surface(f"s{i}")) for i in range(count))]

    def test_new_surfaces_past_the_cap_are_dropped(self) -> None:
        """The run keeps its first surfaces; a message adding one more gets an error."""
        state, diffs, diagnostics = fold(
            *self._events(4), reducer=Reducer(limits=Limits(max_run_surfaces=3))
        )
        run = state.current
        assert run is not None
        assert list(run.parts) == ["s0", "s1", "s2"]
        assert len(run.live) == 3
        assert "s3" not in {d.surface_id for d in diffs}
        capped = [d for d in diagnostics if d.code == "limit.run_surfaces"]
        assert [(d.seq, d.message_id, d.surface_id, d.severity) for d in capped] == [
            (4, "m3", "s3", Severity.ERROR)
        ]
        assert "limit of 3 live surfaces" in capped[0].message

    def test_a_shared_surface_counts_once(self) -> None:
        """Messages drawing the same surfaceId add one live surface, not one each."""
        events = [run_started(), *(snapshot(f"m{i}", text_surface("s", f"v{i}")) for i in range(5))]
        state, _, diagnostics = fold(*events, reducer=Reducer(limits=Limits(max_run_surfaces=1)))
        run = state.current
        assert run is not None
        assert [d.code for d in diagnostics if d.code.startswith("limit")] == []
        assert counts(run.live) == {"s": 5}
        assert run.parts["s"].args == {"$type": "Markdown", "value": "v4"}

    def test_deleted_surfaces_make_room(self) -> None:
        """A message that drops its surface frees a place for the next message's."""
        limits = Limits(max_run_surfaces=1)
        delete = {"version": "v0.9", "deleteSurface": {"surfaceId": "s0"}}
        events = [*self._events(1), snapshot("m0", [delete]), snapshot("m1", text_surface("s1"))]
        state, _, diagnostics = fold(*events, reducer=Reducer(limits=limits))
        run = state.current
        assert run is not None
        assert list(run.parts) == ["s1"]
        assert counts(run.live) == {"s1": 1}
        assert [d.code for d in diagnostics if d.code.startswith("limit")] == []

    def test_a_dropped_surface_returns_when_there_is_room(self) -> None:
        """Re-sent after room was made, a dropped surface is counted in and drawn."""
        limits = Limits(max_run_surfaces=1)
        delete = {"version": "v0.9", "deleteSurface": {"surfaceId": "s0"}}
        events = [
            *self._events(2),
            snapshot("m0", [delete]),
            snapshot("m1", text_surface("s1", "again")),
        ]
        state, diffs, _ = fold(*events, reducer=Reducer(limits=limits))
        run = state.current
        assert run is not None
        assert list(run.parts) == ["s1"]
        assert [(d.op, d.surface_id) for d in diffs] == [
            ("add", "s0"),
            ("remove", "s0"),
            ("add", "s1"),
        ]

    def test_default_is_ten_thousand(self) -> None:
        assert Limits().max_run_surfaces == 10_000

    def test_a_new_run_starts_empty(self) -> None:
        """Past runs keep their parts; the count belongs to the run that is current."""
        limits = Limits(max_run_surfaces=1)
        events = [*self._events(1), run_started("r2"), snapshot("m9", text_surface("s9"))]
        state, _, diagnostics = fold(*events, reducer=Reducer(limits=limits))
        assert [d.code for d in diagnostics if d.code.startswith("limit")] == []
        assert [list(run.parts) for run in state.runs] == [["s0"], ["s9"]]
        assert len(state.runs[0].live) == 0


class TestOwnerSearch:
    """Each redraw of one surface by a new tool call finds its owner without a search.

    A tool bucket that holds the surface owns it unless an activity bucket does; with
    both kinds in one set of holders, that question searched them all, so 8,000
    backend results redrawing one surface took 68 s (issue 12). Counted, not timed:
    the buckets' positions are what a search of the holders reads.
    """

    @staticmethod
    def results(count: int) -> bytes:
        events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}]
        for index in range(count):
            call = f"b{index}"
            operations = [
                {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
                {
                    "version": "v0.9",
                    "updateComponents": {
                        "surfaceId": "s",
                        "components": [{"id": "root", "component": "Text", "text": call}],
                    },
                },
            ]
            events += [
                {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "search"},
                {"type": "TOOL_CALL_END", "toolCallId": call},
                {
                    "type": "TOOL_CALL_RESULT",
                    "toolCallId": call,
                    "messageId": f"r{index}",
                    "content": json.dumps({"a2ui_operations": operations}),
                },
            ]
        return b"".join(json.dumps(event).encode() + b"\n" for event in events)

    def test_redraws_by_new_calls_read_no_positions(self, monkeypatch: pytest.MonkeyPatch) -> None:
        read: list[Any] = []
        position = OrderedMap.position

        def counted(self: OrderedMap[Any, Any], key: Any) -> int:
            read.append(key)
            return position(self, key)

        monkeypatch.setattr(OrderedMap, "position", counted)
        processor = Processor()
        diffs = processor.feed(self.results(200))
        assert [diff.op for diff in diffs] == ["add"] + ["update"] * 199
        assert diffs[-1].args == processor.state.runs[-1].parts["s"].args
        assert len(processor.state.runs[-1].live["s"]) == 200  # every call still holds it
        assert read == []
