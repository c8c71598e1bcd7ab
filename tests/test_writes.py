"""Data writes read lazily: the value's text, and the operation decoded all but it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._wire.numbers import js_number
from a2ui_stream._wire.writes import data_value_text, decode_data_write
from a2ui_stream.a2ui import decode_operation

_DECODE = msgspec.json.Decoder(float_hook=js_number).decode
_ENCODE = msgspec.json.encode

values = st.recursive(
    st.booleans() | st.integers(-5, 5) | st.sampled_from([1.0, 2.5, -0.0]) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=15,
)


class TestDecodeDataWrite:
    @settings(max_examples=300, deadline=None)
    @given(
        value=values,
        version=st.sampled_from([None, "v0.9", "v0.9.1", "v1.0", "v0.10"]),
        path=st.sampled_from([None, "", "/", "/a", "/a/0"]),
    )
    def test_plain_write_decodes_as_the_full_decode(
        self, value: Any, version: str | None, path: str | None
    ) -> None:
        """With its value decoded, a plain write is exactly what decode_operation gives."""
        body: dict[str, Any] = {"surfaceId": "s", "value": value}
        if path is not None:
            body["path"] = path
        message: dict[str, Any] = {"updateDataModel": body}
        if version is not None:
            message["version"] = version
        raw = _ENCODE(message)
        opened = decode_data_write(raw)
        assert opened is not None
        operation, text = opened
        full = msgspec.structs.replace(operation, value=_DECODE(text))
        assert full == decode_operation(raw, index=0)
        assert bytes(text) == bytes(data_value_text(raw) or b"")

    @pytest.mark.parametrize(
        "message",
        [
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": 1, "extra": 2}},
            {"version": "v1.0", "updateDataModel": {"surfaceId": "s", "value": None}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s"}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "contents": 1}},
            {"version": "v0.8", "updateDataModel": {"surfaceId": "s", "value": 1}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "", "value": 1}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "a", "value": 1}},
            {"version": ["v0.9"], "updateDataModel": {"surfaceId": "s", "value": 1}},
            {"version": "v0.9", "createSurface": {"surfaceId": "s"}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": 1}, "x": 1},
        ],
    )
    def test_anything_else_is_left_to_the_full_decode(self, message: dict[str, Any]) -> None:
        """Warnings, deletes, aliases, other versions and bad fields give None."""
        assert decode_data_write(_ENCODE(message)) is None

    def test_bytes_that_are_not_json_give_none(self) -> None:
        """A message that is not JSON is not opened here either."""
        assert decode_data_write(b'{"updateDataModel":') is None
        assert data_value_text(b"[1,") is None


class TestDataValueText:
    def test_value_text(self) -> None:
        """The value's text comes back undecoded; other messages give None."""
        raw = b'{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":[1.50]}}}'
        assert bytes(data_value_text(raw) or b"") == b'{"a":[1.50]}'
        assert data_value_text(b'{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}') is None
