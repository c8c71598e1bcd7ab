"""JSON numbers read as JavaScript reads them, so output prints as a JS client's does."""

from __future__ import annotations

import json
import math
import random
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest

from a2ui_stream import Processor
from a2ui_stream._convert.functions import FUNCTIONS, to_text
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


NODE = shutil.which("node")
_JS_NUMBERS = Path(__file__).resolve().parent / "node" / "js_numbers.mjs"
_DECODE = msgspec.json.Decoder(float_hook=js_number)


def number_corpus(seed: int = 12) -> list[str]:
    """A few thousand JSON number texts where JavaScript and Python part ways.

    Integers around 2**53 and its powers above, integers too long for a double's
    digits or range, exponents from -330 to 330, negative zero in its spellings,
    doubles from random bits (every digit they print matters), and integral
    doubles on both sides of 1e16 and 1e21.
    """
    rng = random.Random(seed)
    out: list[str] = []
    for power in range(50, 75):
        for step in range(-4, 5):
            value = 2**power + step
            out += [str(value), str(-value)]
    for length in range(15, 40):
        for _ in range(12):
            digits = str(rng.randrange(10 ** (length - 1), 10**length))
            out += [digits, "-" + digits]
    out += ["1" + "0" * 308, "17976931348623157" + "0" * 292, "18" + "0" * 307, "9" * 400]
    for exponent in range(-330, 331, 3):
        mantissa = f"{rng.randrange(1, 10)}.{rng.randrange(10**6)}"
        out += [f"{mantissa}e{exponent}", f"-{mantissa}E{exponent:+d}"]
    out += ["-0", "-0.0", "-0e5", "-0.000e-3", "0", "0.0", "5e-324", "2e-324", "1e-7", "1e-6"]
    out += ["9007199254740993", "123456789012345678901234567890", "1e21", "999999999999999999999"]
    while len(out) < 3000:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            out.append(repr(value))
    for exponent in range(14, 24):
        for _ in range(8):
            out.append(f"{rng.randrange(1, 10**6)}e{exponent}")
    return out


@pytest.fixture(scope="module")
def javascript() -> dict[str, list[str]]:
    """What node makes of each text of the corpus: String() and three Intl formats."""
    if NODE is None:
        pytest.skip("node is not installed: no JavaScript to compare with")
    texts = number_corpus()
    completed = subprocess.run(  # noqa: S603 - our own script, under node
        [NODE, _JS_NUMBERS], input=json.dumps(texts).encode(), capture_output=True, check=True
    )
    return dict(zip(texts, json.loads(completed.stdout), strict=True))


class TestAgainstNode:
    """String() and formatNumber of decoded numbers, compared with node itself (issue 12)."""

    def test_corpus_reaches_the_edges(self, javascript: dict[str, list[str]]) -> None:
        """The corpus holds each case the comparison is about, so it cannot pass idly."""
        printed = {row[0] for row in javascript.values()}
        assert len(javascript) > 3000
        assert {"9007199254740992", "1.2345678901234568e+29", "Infinity", "0"} <= printed
        assert any("e-" in text for text in printed)
        assert any("e+" in text for text in printed)

    def test_string_of_every_number(self, javascript: dict[str, list[str]]) -> None:
        """to_text (String()) prints each decoded number exactly as node does."""
        wrong = []
        for text, (expected, *_formats) in javascript.items():
            try:
                value = _DECODE.decode(text.encode())
            except msgspec.ValidationError:
                continue  # 1e400 and beyond: refused on input, with a diagnostic
            if to_text(value) != expected:
                wrong.append((text, to_text(value), expected))
        assert wrong == []

    def test_format_number_of_integral_values(self, javascript: dict[str, list[str]]) -> None:
        """formatNumber of integral values (those past 2**53 and 1e21 included) prints as
        Intl.NumberFormat("en-US") does: by default, with 2 decimals, without grouping.

        Fractional values are left out: Intl rounds the shortest decimal half away from
        zero, formatNumber rounds the binary value half to even, and it prints a result
        that rounds to minus zero as ``0``.
        """
        checked, wrong = 0, []
        for text, (shown, plain, fixed, bare) in javascript.items():
            try:
                value = _DECODE.decode(text.encode())
            except msgspec.ValidationError:
                continue
            if shown in {"NaN", "0"} or not (shown == "Infinity" or float(value).is_integer()):
                continue
            checked += 1
            got = [
                FUNCTIONS["formatNumber"]({"value": value}, _NO_ENV),
                FUNCTIONS["formatNumber"]({"value": value, "decimals": 2}, _NO_ENV),
                FUNCTIONS["formatNumber"]({"value": value, "grouping": False}, _NO_ENV),
            ]
            if got != [plain, fixed, bare]:
                wrong.append((text, got, [plain, fixed, bare]))
        assert checked > 1500
        assert wrong == []


class _NoEnv:
    def read(self, pointer: str) -> Any:
        raise AssertionError(pointer)

    def unsupported(self, name: str) -> None:
        raise AssertionError(name)


_NO_ENV = _NoEnv()


class TestBeyondExactIntegers:
    """The issue's cases, without node: String() and formatNumber past 2**53 and 1e21."""

    @pytest.mark.parametrize(
        ("text", "shown", "formatted"),
        [
            ("9007199254740993", "9007199254740992", "9,007,199,254,740,992"),
            (
                "123456789012345678901234567890",
                "1.2345678901234568e+29",
                "123,456,789,012,345,680,000,000,000,000",
            ),
            ("1152921504606846976", "1152921504606847000", "1,152,921,504,606,847,000"),
            ("-" + "9" * 400, "-Infinity", "-∞"),
            ("9007199254740991", "9007199254740991", "9,007,199,254,740,991"),
        ],
    )
    def test_string_and_format_number(self, text: str, shown: str, formatted: str) -> None:
        """The double JavaScript holds is what prints, not Python's exact integer."""
        value = _DECODE.decode(text.encode())
        assert to_text(value) == shown
        assert FUNCTIONS["formatNumber"]({"value": value}, _NO_ENV) == formatted

    def test_text_component_prints_the_double(self) -> None:
        """A Text bound to 9007199254740993 shows what a JavaScript client shows."""
        operations = [
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
            {
                "version": "v0.9",
                "updateComponents": {
                    "surfaceId": "s",
                    "components": [{"id": "root", "component": "Text", "text": {"path": "/v"}}],
                },
            },
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"v": 0}}},
        ]
        event = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": operations},
        }
        line = msgspec.json.encode(event).replace(b'"v":0', b'"v":9007199254740993')
        (diff,) = Processor().feed(line + b"\n")
        assert diff.args == {"$type": "Markdown", "value": "9007199254740992"}
