"""Values a patch copied into themselves: work and memory follow their distinct containers.

A ``copy`` of a list into itself adds one reference and doubles what the list holds
written out, so twenty such copies make a million values out of 21 lists. The content
budget counts the million, as JSON writes it; everything else (counting, refusing,
checking depth, converting, freezing) must cost the 21 lists, or a stream of lines of
200 bytes each costs 40 ms to refuse, and a surface showing such a value materialises
it whole on every snapshot (30 KB of input took 28 s and 1.8 GB before).
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from typing import TYPE_CHECKING, Any

from a2ui_stream import Processor
from a2ui_stream._convert import rules
from a2ui_stream._tree import depth
from a2ui_stream._tree.depth import Exceeded, count_values, deeper_than, size_within
from a2ui_stream._tree.gaps import GAP, closed
from a2ui_stream._wire.frozen import freeze

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    import pytest


def doubled(times: int) -> list[Any]:
    """``[0]`` copied into itself ``times`` times, as the patch makes it: shared lists."""
    value: list[Any] = [0]
    for _ in range(times):
        value = [*value, value]
    return value


def places(times: int) -> int:
    """How many values :func:`doubled` holds written out: it doubles, plus the new list."""
    count = 2  # the list and its 0
    for _ in range(times):
        count = 2 * count  # the old items again, the old list's own place among them
    return count


def _peak(make: Callable[[], Any]) -> tuple[Any, int]:
    """What ``make`` returns, and the most memory it held at once (tracemalloc's peak)."""
    tracemalloc.start()
    try:
        return make(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class TestCounting:
    def test_counts_every_place_exactly(self) -> None:
        """The count is the written-out one, as the budget has always counted it."""
        for times in range(8):
            written = len(json.dumps(doubled(times)).replace("[", "").split(",")) + (
                json.dumps(doubled(times)).count("[")
            )
            assert count_values(doubled(times)) == places(times) == written

    def test_millions_of_places_count_in_little_memory(self) -> None:
        """Each level keeps its distinct lists, not every place they fill."""
        value = doubled(21)
        found, peak = _peak(lambda: count_values(value))
        assert found == places(21)
        assert peak < 200_000  # its last level of places alone takes 8 MB

    def test_refused_past_the_budget_without_walking_to_it(self) -> None:
        value = doubled(24)  # 33 million places
        found, peak = _peak(lambda: size_within(value, depth=64, nodes=1_000_000))
        assert found is Exceeded.NODES
        assert peak < 200_000  # a walk of the million places kept them in a list

    def test_depth_is_still_checked_first_where_it_comes_first(self) -> None:
        assert size_within(doubled(10), depth=5, nodes=sys.maxsize) is Exceeded.DEPTH
        assert size_within(doubled(10), depth=11, nodes=sys.maxsize) == places(10)


class TestDepth:
    def test_shared_value_depth_without_a_walk_of_every_path(self) -> None:
        """Past the recursion's visits, the level walk decides: bounded calls."""
        value = doubled(16)  # 17 levels; 65,536 paths to the deepest
        calls = 0

        def count(frame: FrameType, event: str, _arg: Any) -> None:
            nonlocal calls
            if event == "call" and frame.f_code is depth._deeper.__code__:
                calls += 1

        sys.setprofile(count)
        try:
            assert not deeper_than(value, 17)
            assert deeper_than(value, 16)
        finally:
            sys.setprofile(None)
        assert calls <= 2 * depth._VISITS


def _stream(copies: int, edits: int) -> bytes:
    """A Button whose context list is copied into itself, then a Text edited again and again."""
    context = "/a2ui_operations/1/updateComponents/components/1/action/event/context/z"
    components = [
        {"id": "root", "component": "Column", "children": ["b", "t"]},
        {
            "id": "b",
            "component": "Button",
            "child": "t",
            "action": {"event": {"name": "go", "context": {"z": [0]}}},
        },
        {"id": "t", "component": "Text", "text": "go"},
    ]
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": "x", "catalogId": "c"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "x", "components": components}},
    ]
    lines: list[Any] = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": operations},
        },
    ]
    copy = {"op": "copy", "from": context, "path": f"{context}/-"}
    lines += [_delta([copy]) for _ in range(copies)]
    text = "/a2ui_operations/1/updateComponents/components/2/text"
    lines += [_delta([{"op": "replace", "path": text, "value": f"t{i}"}]) for i in range(edits)]
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def _delta(patch: list[Any]) -> dict[str, Any]:
    return {"type": "ACTIVITY_DELTA", "messageId": "m", "activityType": "a2ui-surface"} | {
        "patch": patch
    }


class TestConversion:
    def test_the_element_shares_what_the_content_shares(self) -> None:
        """The args hold each copied list once, as the content does: the same objects."""
        processor = Processor()
        diffs = processor.feed(_stream(copies=12, edits=2)) + processor.close()
        assert not processor.take_diagnostics()
        args = diffs[-1].args
        assert isinstance(args, dict)
        button = args["children"][0]
        z = button["$action"]["context"]["z"]
        assert len(z) == 13
        for k in range(2, 13):
            assert z[k][k - 1] is z[k - 1]  # z_k holds z_(k-1) in its last place
        assert json.loads(json.dumps(z)) == doubled(12)

    def test_refused_copies_leave_the_state_and_the_parts_alone(self) -> None:
        """Past the content budget every further copy is refused, each for what it is."""
        processor = Processor()
        diffs = processor.feed(_stream(copies=22, edits=1)) + processor.close()
        codes = [d.code for d in processor.take_diagnostics()]
        assert codes == ["limit.content_nodes"] * codes.count("limit.content_nodes")
        assert len(codes) >= 2
        args = diffs[-1].args
        assert isinstance(args, dict)
        assert args["children"][1] == {"$type": "Markdown", "value": "t0"}

    def test_freeze_keeps_the_sharing(self) -> None:
        value = doubled(16)
        frozen, peak = _peak(lambda: freeze(value))
        assert frozen[16][15] is frozen[15]
        assert peak < 200_000


class TestGapsAndText:
    def test_closing_gaps_walks_each_shared_list_once(self) -> None:
        value = [*doubled(16), GAP, 1]
        calls = 0

        def count(frame: FrameType, event: str, _arg: Any) -> None:
            nonlocal calls
            if event == "call" and frame.f_code is closed.__code__:
                calls += 1

        sys.setprofile(count)
        try:
            out = closed(value)
        finally:
            sys.setprofile(None)
        assert out[:17] == value[:17]
        assert out[17] == 1
        assert out[16] is value[16]  # no gap inside: kept as it is
        assert calls < 400  # a call a member of each distinct list: 17 lists, 65,536 places

    def test_a_list_bound_to_a_text_is_not_printed_first(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """It is no text whatever it prints as: printing a million values was the cost."""

        def refuse(value: Any) -> str | None:
            raise AssertionError(value)

        monkeypatch.setattr(rules, "to_text", refuse)
        warned: list[str] = []

        class Ctx:
            max_string = 10

            def warn(
                self, code: str, message: str, *, severity: Any = None, once: bool = False
            ) -> None:
                del message, severity, once
                warned.append(code)

        assert rules.text(Ctx(), doubled(3), "text") == ""
        assert rules.text(Ctx(), {"a": 1}, "text") == ""
        assert warned == ["convert.prop_invalid"] * 2
