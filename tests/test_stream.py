"""The stream state (``_state.stream``): parts, diffs, runs and what they read."""

from __future__ import annotations

from typing import Any

import stream_cases as cases
from msgspec import UNSET

import a2ui_stream
from a2ui_stream import testing
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.stream import (
    Bucket,
    HistoryEntry,
    Part,
    PartAdded,
    PartRemoved,
    PartUpdated,
    RunState,
    StreamState,
)
from a2ui_stream._state.surface import Surface
from a2ui_stream._tree.patch import apply_patch

WHERE: dict[str, Any] = {
    "seq": 3,
    "run_id": "r",
    "message_id": "m",
    "surface_id": "s",
    "tool_call_id": "a2ui:s",
}


def surface(surface_id: str, version: str = "v0.9") -> Surface:
    """An empty surface; ``version`` tells two of the same id apart."""
    return Surface(surface_id=surface_id, version=version, components={})


class TestPart:
    def test_of_makes_the_tool_call_id(self) -> None:
        """A part presents its surface as ``a2ui:<surfaceId>``, with the tool ``present``."""
        part = Part.of("s1", "m", {"$type": "Text"})
        assert (part.tool_call_id, part.tool_name, part.surface_id, part.message_id) == (
            "a2ui:s1",
            "present",
            "s1",
            "m",
        )


class TestDiffs:
    def test_each_op_is_its_own_type(self) -> None:
        diffs = testing.process(cases.RECORDING).diffs
        kinds = {"add": a2ui_stream.PartAdded, "update": a2ui_stream.PartUpdated}
        assert all(type(diff) is kinds[diff.op] for diff in diffs)
        assert all(isinstance(diff, a2ui_stream.PartDiff) for diff in diffs)
        update = next(diff for diff in diffs if diff.op == "update")
        assert update.previous_args != update.args

    def test_add_patch_replaces_the_document(self) -> None:
        """An add is one replace of the whole document."""
        args = {"$type": "Text", "value": "x"}
        assert PartAdded(args=args, **WHERE).patch() == [
            {"op": "replace", "path": "", "value": args}
        ]

    def test_update_patch_goes_from_previous_to_new(self) -> None:
        """An update's patch, applied to the previous args, gives the new args."""
        before = {"$type": "Col", "children": [{"$type": "Text", "value": "a"}]}
        after = {
            "$type": "Col",
            "children": [{"$type": "Text", "value": "b"}, {"$type": "Divider"}],
        }
        patch = PartUpdated(args=after, previous_args=before, **WHERE).patch()
        assert patch
        assert apply_patch(before, patch) == after

    def test_remove_has_no_patch_and_no_args(self) -> None:
        """A remove carries no element tree."""
        removed = PartRemoved(**WHERE)
        assert removed.patch() == []
        assert removed.args is UNSET
        assert (removed.op, removed.history, removed.tool_name) == ("remove", False, "present")


class TestRunState:
    def test_activity_outranks_tools_and_the_latest_bucket_wins(self) -> None:
        """A surface id in several buckets is the most recent activity bucket's."""
        tool = Bucket(message_id="t", surfaces={"a": surface("a", "tool"), "c": surface("c")})
        old = Bucket(message_id="m1", surfaces={"a": surface("a", "old"), "b": surface("b", "old")})
        new = Bucket(message_id="m2", surfaces={"b": surface("b", "new")})
        run = RunState(
            buckets=OrderedMap({"m1": old, "m2": new}), tool_buckets=OrderedMap({"t": tool})
        )
        found = run.surfaces()
        assert {key: value.version for key, value in found.items()} == {
            "a": "old",
            "c": "v0.9",
            "b": "new",
        }

    def test_a_new_run_is_empty_and_running(self) -> None:
        """Defaults: no id, running, nothing drawn."""
        run = RunState()
        assert (run.run_id, run.status, run.surfaces(), len(run.parts)) == (None, "running", {}, 0)


class TestStreamState:
    def test_current_is_the_last_run(self) -> None:
        """The current run is the last one started; none before any."""
        assert StreamState().current is None
        first, second = RunState(run_id="a"), RunState(run_id="b")
        assert StreamState(runs=(first, second)).current is second

    def test_to_wire_puts_history_first(self) -> None:
        """One line per run; restored parts on a ``history`` line before them."""
        part = Part.of("s", "a1", {"$type": "Text"})
        state = StreamState(
            runs=(RunState(run_id="r1", thread_id="t"), RunState(run_id="r2")),
            history=(HistoryEntry(message_id="a1", parts=(part,)),),
        )
        lines = state.to_wire().splitlines(keepends=True)
        assert [line[:12] for line in lines] == [b'{"history":[', b'{"runId":"r1', b'{"runId":"r2']
        assert all(line.endswith(b"\n") for line in lines)
        assert StreamState().to_wire() == b""
