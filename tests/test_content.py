"""Activity content as a JSON document (:mod:`a2ui_stream._engine.content`).

The depth bound (a component at the data limit fits), patches applied within it,
whole-content decoding within it, top-level keys read without decoding values, and
the error naming what content without operations holds.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import stream_cases as cases
from helpers import nested

import a2ui_stream
from a2ui_stream import testing
from a2ui_stream._engine.content import (
    content_depth,
    content_keys,
    no_operations,
    patch_content,
    read_content,
    too_deep,
)
from a2ui_stream._tree.depth import count_values
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.limits import Limits

LIMITS = Limits(max_data_depth=4)


class TestDepth:
    def test_content_depth_is_the_data_limit_plus_the_levels_above_a_component(self) -> None:
        assert content_depth(LIMITS) == 9
        assert content_depth(Limits()) == Limits().max_data_depth + 5

    def test_a_component_at_the_limit_fits(self) -> None:
        """content > operations > operation > payload > components > a component."""
        component = {"id": "c", "deep": nested(LIMITS.max_data_depth - 1)}
        content = {"a2ui_operations": [{"updateComponents": {"components": [component]}}]}
        raw = msgspec.json.encode(content)
        assert read_content(raw, LIMITS) == (content, count_values(content))
        deeper = {"a2ui_operations": [{"updateComponents": {"components": [{"d": component}]}}]}
        assert isinstance(read_content(msgspec.json.encode(deeper), LIMITS), a2ui_stream.Diagnostic)

    def test_too_deep(self) -> None:
        found = too_deep(LIMITS, "$.patch[2]")
        assert (found.code, found.severity, found.path) == (
            Code.LIMIT_DATA_DEPTH,
            Severity.ERROR,
            "$.patch[2]",
        )
        assert "limit of 4 levels" in found.message
        assert too_deep(LIMITS).path == "$.content"


class TestPatchContent:
    def test_a_patch_applies_and_counts_what_it_holds(self) -> None:
        content = {"status": "a"}
        patch = [{"op": "add", "path": "/more", "value": [1, 2]}]
        patched, nodes, problem = patch_content(content, count_values(content), patch, LIMITS)
        assert (patched, nodes, problem) == ({"status": "a", "more": [1, 2]}, 5, None)
        assert content == {"status": "a"}

    def test_a_value_past_the_depth_is_refused_naming_its_operation(self) -> None:
        patch = [
            {"op": "add", "path": "/ok", "value": 1},
            {"op": "add", "path": "/deep", "value": nested(content_depth(LIMITS))},
        ]
        patched, nodes, problem = patch_content({}, 1, patch, LIMITS)
        assert (patched, nodes) == (None, 1)
        assert problem is not None
        assert (problem.code, problem.path) == (Code.LIMIT_DATA_DEPTH, "$.patch[1]")

    def test_a_value_at_the_depth_is_applied(self) -> None:
        value = nested(content_depth(LIMITS) - 1)
        patch = [{"op": "add", "path": "/v", "value": value}]
        patched, _, problem = patch_content({}, 1, patch, LIMITS)
        assert problem is None
        assert patched == {"v": value}

    def test_copies_past_the_values_allowed_are_refused(self) -> None:
        """A copy into itself doubles the content: refused once past the limit."""
        limits = Limits(max_content_nodes=10)
        content = {"a": [1, 2, 3]}  # 5 values
        copy = [{"op": "copy", "from": "/a", "path": "/b"}]
        grown, nodes, problem = patch_content(content, 5, copy, limits)
        assert (nodes, problem) == (9, None)
        again = [{"op": "copy", "from": "/b", "path": "/c"}]
        patched, kept, refused = patch_content(grown, nodes, again, limits)
        assert (patched, kept) == (None, 9)
        assert refused is not None
        assert (refused.code, refused.severity, refused.path) == (
            Code.LIMIT_CONTENT_NODES,
            Severity.ERROR,
            "$.patch[0]",
        )
        assert "limit of 10 values" in refused.message

    def test_a_failing_patch_is_a_warning(self) -> None:
        patched, nodes, problem = patch_content({}, 1, [{"op": "remove", "path": "/nope"}], LIMITS)
        assert (patched, nodes) == (None, 1)
        assert problem is not None
        assert (problem.code, problem.severity, problem.path) == (
            Code.ACTIVITY_PATCH_FAILED,
            Severity.WARNING,
            "$.patch[0]",
        )
        assert problem.message.endswith("; the state is unchanged")


class TestReadContent:
    def test_numbers_read_as_javascript_reads_them(self) -> None:
        """An integral ``2.0`` is the number 2, as a JavaScript client holds it."""
        found = read_content(b'{"n": 2.0, "e": 1e16, "f": 2.5}', LIMITS)
        assert isinstance(found, tuple)
        content, nodes = found
        assert [type(v) for v in content.values()] == [int, int, float]
        assert content == {"n": 2, "e": 10**16, "f": 2.5}
        assert nodes == 4

    def test_the_count_is_the_values_held(self) -> None:
        assert read_content(b'{"a": [1, {"b": null}], "c": "s"}', LIMITS) == (
            {"a": [1, {"b": None}], "c": "s"},
            6,
        )

    @pytest.mark.parametrize(
        "raw",
        [
            b'{"status": "building", "progressTokens": 32}',
            b'{"status": "building", "status": "failed"}',
            b'{"status": "a [ b", "note": "} {"}',
            b'{"status": "x", "errors": []}',
            b'{"status": "x", "error": {}}',
            b"{}",
        ],
    )
    def test_a_flat_object_counts_as_a_walk_counts_it(self, raw: bytes) -> None:
        """Scalars only, told off the brackets, or brackets in strings: the walk's count."""
        found = read_content(raw, LIMITS)
        assert isinstance(found, tuple)
        assert found == (msgspec.json.decode(raw), count_values(msgspec.json.decode(raw)))

    def test_past_the_interpreter_stack_is_too_deep(self) -> None:
        raw = b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        found = read_content(raw, LIMITS)
        assert isinstance(found, a2ui_stream.Diagnostic)
        assert found.code == Code.LIMIT_DATA_DEPTH


class TestContentKeys:
    def test_keys_in_order(self) -> None:
        assert content_keys(b'{"b": [1, {"x": 2}], "a": null}') == ["b", "a"]

    @pytest.mark.parametrize("raw", [b"[1]", b"not json", b'"s"', b"[" * 100_000])
    def test_not_an_object_has_no_keys(self, raw: bytes) -> None:
        assert content_keys(raw) == []


class TestNoOperations:
    @pytest.mark.parametrize(
        ("keys", "said"),
        [
            ([], "it is empty"),
            (["b", "a"], "its keys are `a`, `b`"),
            (list("gfedcba"), "its keys are `a`, `b`, `c`, `d`, `e`, ...;"),
            (list("edcba"), "its keys are `a`, `b`, `c`, `d`, `e`;"),
        ],
        ids=["empty", "sorted", "past five", "five"],
    )
    def test_names_what_the_content_holds(self, keys: list[str], said: str) -> None:
        found = no_operations(keys)
        assert (found.code, found.severity, found.path) == (
            Code.ACTIVITY_NO_OPERATIONS,
            Severity.ERROR,
            "$.content",
        )
        assert said in found.message
        assert "has no `a2ui_operations`" in found.message


class TestNoOperationsInTheStream:
    """What reaches a client: the error in place of a silent blank."""

    @pytest.mark.parametrize(
        ("content", "said"),
        [
            ({"operations": []}, "its keys are `operations`"),
            ({}, "it is empty"),
            ({"messages": [], "surfaceId": "s"}, "its keys are `messages`, `surfaceId`"),
        ],
    )
    def test_snapshot_without_operations(self, content: dict[str, Any], said: str) -> None:
        """Content without a2ui_operations draws nothing, now with an ERROR saying why."""
        event = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": content,
        }
        capture = testing.process(cases.line(event))
        [error] = capture.diagnostics
        assert (error.code, error.severity) == (
            "activity.no_operations",
            a2ui_stream.Severity.ERROR,
        )
        assert "has no `a2ui_operations`" in error.message
        assert said in error.message
        assert capture.diffs == ()

    def test_delta_leaving_no_operations(self) -> None:
        snapshot = cases.snapshot("m", cases.text_surface("s", "hi"))
        delta = {
            "type": "ACTIVITY_DELTA",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "patch": [{"op": "move", "from": "/a2ui_operations", "path": "/operations"}],
        }
        capture = testing.process(cases.line(snapshot) + cases.line(delta))
        assert [d.code for d in capture.diagnostics] == ["activity.no_operations"]
