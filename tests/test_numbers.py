"""JSON numbers read as JavaScript reads them, so output prints as a JS client's does."""

from __future__ import annotations

import msgspec
import pytest

from a2ui_stream import Processor
from a2ui_stream._wire.numbers import MAX_SAFE_INTEGER, js_number


class TestJsNumber:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [("2.0", "2"), ("-0.0", "0"), ("1e3", "1000"), ("2.5", "2.5"), ("-1.5e-7", "-1.5e-7")],
    )
    def test_prints_as_javascript(self, text: str, expected: str) -> None:
        """Integral values become ints; others stay floats."""
        assert msgspec.json.encode(js_number(text)).decode() == expected

    def test_unsafe_integers_stay_floats(self) -> None:
        """Past 2**53 JavaScript prints rounded digits, so the float is kept."""
        assert isinstance(js_number(str(float(MAX_SAFE_INTEGER + 1))), float)
        assert js_number(f"{MAX_SAFE_INTEGER}.0") == MAX_SAFE_INTEGER

    def test_overflow_is_refused(self) -> None:
        """1e400 is out of range and refused, as msgspec refuses it without the hook."""
        with pytest.raises(ValueError, match="out of range"):
            js_number("-1e400")


def test_converted_args_print_integral_floats_as_javascript_does() -> None:
    """A gap of 2.0 and a bound -0.0 print as 2 and "0", byte-identical to upstream."""
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {
                "surfaceId": "s",
                "components": [
                    {"id": "root", "component": "Row", "gap": 2.0, "children": ["t"]},
                    {"id": "t", "component": "Text", "text": {"path": "/v"}},
                ],
            },
        },
        {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"v": -0.0}}},
    ]
    event = {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": "m",
        "activityType": "a2ui-surface",
        "content": {"a2ui_operations": operations},
    }
    line = msgspec.json.encode(event) + b"\n"
    assert b'"gap":2.0' in line
    (diff,) = Processor().feed(line)
    assert msgspec.json.encode(diff.args) == (
        b'{"$type":"Row","gap":2,"children":[{"$type":"Markdown","value":"0"}]}'
    )
