"""The testing helpers users embed in their own tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from a2ui_stream.testing import (
    activity_snapshot,
    create_surface,
    delete_surface,
    jsonl,
    lifecycle,
    process,
    sse,
    update_components,
    update_data_model,
)

if TYPE_CHECKING:
    from a2ui_stream import events as ev

CARD = [
    create_surface("s1"),
    update_components(
        "s1",
        {"id": "root", "component": "Card", "title": "Order", "children": ["total"]},
        {"id": "total", "component": "Text", "text": {"path": "/total"}},
    ),
    update_data_model("s1", {"total": "$42"}),
]


def stream() -> list[ev.Event | dict[str, object]]:
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        lifecycle("m1", "building", progressTokens=20),
        activity_snapshot("m1", CARD),
        activity_snapshot("m1", [*CARD, delete_surface("s1")]),
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]


class TestBuilders:
    def test_stream_draws_updates_and_removes(self) -> None:
        """The builders make a stream the processor draws, then removes."""
        capture = process(jsonl(stream()))
        assert [(d.op, d.tool_call_id) for d in capture.diffs] == [
            ("add", "a2ui:s1"),
            ("remove", "a2ui:s1"),
        ]
        assert capture.diffs[0].args == {
            "$type": "Card",
            "title": "Order",
            "children": [{"$type": "Markdown", "value": "$42"}],
        }
        assert capture.diagnostics == ()
        assert capture.state.runs[-1].status == "finished"

    def test_sse_and_chunking_give_the_same_capture(self) -> None:
        """SSE bytes and any chunk size give the same diffs as whole JSONL."""
        whole = process(jsonl(stream()))
        assert process(sse(stream())).diffs == whole.diffs
        assert process(jsonl(stream()), chunk_size=7).diffs == whole.diffs

    def test_invalid_event_is_refused(self) -> None:
        """Encoding a dict that is not an AG-UI event raises TypeError."""
        with pytest.raises(TypeError, match="not a valid AG-UI event"):
            jsonl([{"type": "RUN_STARTED"}])

    def test_bad_input_shows_in_the_capture(self) -> None:
        """Diagnostics are captured, not raised."""
        capture = process(b"oops\n" + jsonl(stream()))
        assert [d.code for d in capture.diagnostics] == ["json.invalid"]
        assert len(capture.diffs) == 2
