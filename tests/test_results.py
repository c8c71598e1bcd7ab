"""How a tool result's content reads as A2UI (``_engine.results``), as the middleware reads it."""

from __future__ import annotations

import json

import msgspec

from a2ui_stream._engine.results import (
    MAX_ATTEMPTS,
    operations,
    parts_text,
    recovery_failure,
    surface_of,
)

CREATE = {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}
ENVELOPE = json.dumps({"a2ui_operations": [CREATE, None, "x", 3, [1], {"version": "v0.9"}]})


class TestOperations:
    def test_objects_only_from_an_envelope_encoded_once_or_twice(self) -> None:
        """Non-object elements are dropped; a JSON string is decoded once more, no further."""
        for content in (ENVELOPE, json.dumps(ENVELOPE)):
            found = operations(content)
            assert found is not None
            assert [json.loads(bytes(op)) for op in found] == [CREATE, {"version": "v0.9"}]
        assert operations(json.dumps(json.dumps(ENVELOPE))) is None

    def test_what_is_no_envelope_reads_as_none(self) -> None:
        """Other JSON, bad JSON, content that is not text: no operations, never an error."""
        not_envelopes = [
            '{"result": {"a2ui_operations": []}}',  # nested under another key
            '[{"a2ui_operations": []}]',  # a list of blocks
            '{"a2ui_operations": {"x": 1}}',  # not an array
            '{"a2ui_operations": [',
            "plain text",
            "[" * 100_000,
        ]
        for content in not_envelopes:
            assert operations(content) is None, content[:40]
        assert operations([{"type": "text", "text": ENVELOPE}]) is None
        assert operations(None) is None


class TestSurfaceOf:
    def test_the_first_operation_body_naming_a_surface(self) -> None:
        """The surfaceId of the first of the four operations that names one; else None."""
        cases = [
            (CREATE, "s"),
            ({"deleteSurface": {"surfaceId": "d"}}, "d"),
            ({"createSurface": {"catalogId": "c"}, "updateComponents": {"surfaceId": "u"}}, "u"),
            ({"updateDataModel": {"surfaceId": 5}}, 5),
            ({"createSurface": "s"}, None),
            ({"surfaceUpdate": {"surfaceId": "v08"}}, None),  # v0.8: no surface here
        ]
        for op, expected in cases:
            assert surface_of(msgspec.Raw(json.dumps(op).encode())) == expected, op


class TestRecoveryFailure:
    def test_the_exhausted_envelope_becomes_the_failed_lifecycle(self) -> None:
        """Its error and attempts, ``maxAttempts`` from the attempts or the default."""
        attempts = [{"attempt": 1, "ok": False}, {"attempt": 2, "ok": False}]
        content = json.dumps(
            {"code": "a2ui_recovery_exhausted", "error": "boom", "attempts": attempts}
        )
        assert recovery_failure(content) == {
            "status": "failed",
            "error": "boom",
            "attempts": attempts,
            "maxAttempts": 2,
        }
        bare = recovery_failure('{"code": "a2ui_recovery_exhausted"}')
        assert bare is not None
        assert (bare["error"], bare["maxAttempts"]) == ("A2UI generation failed", MAX_ATTEMPTS)

    def test_anything_else_is_no_failure(self) -> None:
        """Another code, bad JSON, content that is not text."""
        for content in ('{"code": "other"}', "{", '"a2ui_recovery_exhausted"', None):
            assert recovery_failure(content) is None


class TestPartsText:
    def test_text_parts_are_joined_and_the_rest_left_out(self) -> None:
        parts = [
            {"type": "text", "text": '{"a2ui_'},
            {"type": "image", "source": {"type": "url", "value": "https://x"}},
            {"type": "text", "text": 'operations": []}'},
            {"type": "text", "text": 5},
            "text",
        ]
        assert parts_text(parts) == '{"a2ui_operations": []}'
        assert operations(parts_text(parts)) == []
        assert operations(parts) is None  # the list itself reads as no envelope

    def test_no_list_or_no_text_part_is_none(self) -> None:
        assert parts_text('{"a2ui_operations": []}') is None
        assert parts_text([]) is None
        assert parts_text([{"type": "image"}, {"text": "no type"}]) is None
