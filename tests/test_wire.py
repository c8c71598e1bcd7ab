"""The state's wire form (``_state.wire``): the lines ``process`` and ``--final`` print."""

from __future__ import annotations

import json
from typing import Any

import stream_cases as cases

import a2ui_stream
from a2ui_stream import testing
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.stream import HistoryEntry, Part, PartAdded, PartUpdated, RunState
from a2ui_stream._state.wire import (
    diff_line,
    encode,
    entry_line,
    final_run,
    history_line,
    part_line,
    run_line,
)

WHERE: dict[str, Any] = {
    "seq": 1,
    "run_id": None,
    "message_id": "m",
    "surface_id": "s",
    "tool_call_id": "a2ui:s",
}


class TestDiffLine:
    def test_remove_and_camel_case(self) -> None:
        data = testing.jsonl(
            [
                {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                testing.activity_snapshot("m", cases.text_surface("s1", "hi")),
                testing.activity_snapshot("m", [testing.delete_surface("s1")]),
            ]
        )
        removed = testing.process(data).diffs[-1]
        assert isinstance(removed, a2ui_stream.PartRemoved)
        assert json.loads(removed.to_wire()) == {
            "seq": 2,
            "runId": "r",
            "messageId": "m",
            "surfaceId": "s1",
            "op": "remove",
            "toolCallId": "a2ui:s1",
            "toolName": "present",
        }

    def test_key_order_and_null_run(self) -> None:
        """Keys in the documented order; ``runId`` shown even when null; history only if set."""
        line = diff_line(PartAdded(args={"$type": "Divider"}, **WHERE))
        assert line == (
            b'{"seq":1,"runId":null,"messageId":"m","surfaceId":"s","op":"add",'
            b'"toolCallId":"a2ui:s","toolName":"present","args":{"$type":"Divider"}}'
        )
        restored = json.loads(diff_line(PartAdded(args={}, history=True, **WHERE)))
        assert restored["history"] is True

    def test_patch_replaces_args_of_an_update_only(self) -> None:
        """With ``patch``, an update carries the RFC 6902 patch; an add keeps its args."""
        update = PartUpdated(args={"v": 2}, previous_args={"v": 1}, **WHERE)
        patched = json.loads(diff_line(update, patch=True))
        assert patched["patch"] == [{"op": "replace", "path": "/v", "value": 2}]
        assert "args" not in patched
        assert json.loads(diff_line(update))["args"] == {"v": 2}
        added = json.loads(diff_line(PartAdded(args={"v": 1}, **WHERE), patch=True))
        assert (added["args"], "patch" in added) == ({"v": 1}, False)


class TestFinal:
    def test_part_run_entry_and_history_lines(self) -> None:
        """A part, a run's parts in display order, and restored parts per message."""
        first, second = Part.of("b", "m", {"n": 1}), Part.of("a", "m", {"n": 2})
        assert part_line(first) == (
            b'{"toolCallId":"a2ui:b","toolName":"present","surfaceId":"b","args":{"n":1}}'
        )
        run = RunState(run_id="r", thread_id="t", parts=OrderedMap({"b": first, "a": second}))
        assert [p.surface_id for p in final_run(run).parts] == ["b", "a"]
        assert json.loads(run_line(run)) == {
            "runId": "r",
            "threadId": "t",
            "parts": [json.loads(part_line(first)), json.loads(part_line(second))],
        }
        entry = HistoryEntry(message_id="a1", parts=(first,))
        assert json.loads(entry_line(entry)) == {
            "messageId": "a1",
            "parts": [json.loads(part_line(first))],
        }
        assert json.loads(history_line([entry])) == {"history": [json.loads(entry_line(entry))]}

    def test_numbers_as_json_stringify_writes_them(self) -> None:
        """A whole float loses its ``.0`` and large ones use JavaScript's exponent form."""
        assert encode([1.0, 2.5, 1e21, -0.0]) == b"[1,2.5,1e+21,0]"
