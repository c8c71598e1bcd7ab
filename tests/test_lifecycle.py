"""A messageId's lifecycle (``_engine.lifecycle``): the statuses before a surface paints."""

from __future__ import annotations

import pytest

from a2ui_stream._engine.lifecycle import next_lifecycle
from a2ui_stream._state.stream import Lifecycle
from a2ui_stream._wire.diagnostics import Severity


def move(before: str | None, status: str) -> tuple[Lifecycle, list[str]]:
    """The lifecycle ``status`` moves a lifecycle in phase ``before`` to, and the codes."""
    previous = None if before is None else Lifecycle(phase=before, content={})
    content = {"status": status, "attempt": 2}
    lifecycle, notes = next_lifecycle(previous, status, (content, 3), seq=4, message_id="m")
    return lifecycle, [note.code for note in notes]


@pytest.mark.parametrize(
    ("before", "status", "after"),
    [
        (None, "building", "building"),
        ("building", "retrying", "retrying"),
        ("retrying", "building", "retrying"),  # a retry goes on building: still a retry
        ("retrying", "failed", "failed"),
        ("painted", "building", "building"),
        (None, "failed", "failed"),
    ],
)
def test_the_table(before: str | None, status: str, after: str) -> None:
    """Known transitions move to their phase, quietly."""
    lifecycle, codes = move(before, status)
    assert (lifecycle.phase, codes) == (after, [])


@pytest.mark.parametrize(("before", "status"), [("failed", "building"), (None, "queued")])
def test_anything_else_is_recorded_with_a_debug_note(before: str | None, status: str) -> None:
    """An unknown status or a move out of failed is kept as is, with a debug diagnostic."""
    previous = None if before is None else Lifecycle(phase=before, content={})
    lifecycle, notes = next_lifecycle(previous, status, ({}, 0), seq=4, message_id="m")
    assert lifecycle.phase == status
    [note] = notes
    assert (note.code, note.severity, note.seq, note.message_id) == (
        "activity.lifecycle_unexpected",
        Severity.DEBUG,
        4,
        "m",
    )
    assert note.message == f"status {status!r} after {before or 'nothing'!r}; recorded as is"


def test_content_is_kept_frozen_with_its_count() -> None:
    """The content reaches callers read-only, with the count of values it was given."""
    lifecycle, _ = move(None, "building")
    assert lifecycle.content == {"status": "building", "attempt": 2}
    assert lifecycle.content_nodes == 3
    with pytest.raises(TypeError):
        lifecycle.content["status"] = "x"
