"""JSON numbers read as JavaScript reads them, and printed as JavaScript prints them.

Three printers are compared with node itself over one seeded corpus of a few thousand
number texts (near 2**53, huge, tiny, 1e-7..1e-5, 1e16..1e22, negative zero, many
digits, halfway cases, random doubles): ``String()`` (:func:`number_text`), ``formatNumber``
(``Intl.NumberFormat``) and ``JSON.stringify`` (:class:`JsonEncoder`, of the numbers
nested in documents and in converted args). The conformance case at the end sends such
numbers through ``a2ui-stream process`` and the published assistant-ui client and
compares the args byte for byte. Each comparison is one node run; without node they skip.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from a2ui_stream import Limits, Processor
from a2ui_stream._convert.functions import FUNCTIONS, to_text
from a2ui_stream._wire.numbers import JsonEncoder, encode_json, js_number, past_python_ints

_DECODE = msgspec.json.Decoder(float_hook=js_number)


class TestJsNumber:
    @pytest.mark.parametrize(
        ("text", "value"),
        [
            ("2.0", 2),
            ("1e3", 1000),
            ("0.0", 0),
            ("1E+16", 10**16),
            ("9007199254740993.0", 9007199254740992),  # the double, exactly
            ("1152921504606847000.0", 2**60),  # as JavaScript prints 2**60
            ("9.99e20", 999000000000000000000),
        ],
    )
    def test_integral_values_below_1e21_are_ints(self, text: str, value: int) -> None:
        """msgspec prints an int's digits, as JavaScript prints an integral double."""
        decoded = js_number(text)
        assert type(decoded) is int
        assert decoded == value
        assert float(decoded) == float(text)  # the same double reads back

    @pytest.mark.parametrize("text", ["2.5", "1e21", "-1.5e-7", "1.5e-6", "1e300", "5e-324"])
    def test_other_values_stay_floats(self, text: str) -> None:
        """Fractions, and integral values from 1e21 (exponent form in JavaScript)."""
        assert type(js_number(text)) is float

    def test_negative_zero_keeps_its_sign(self) -> None:
        """-0 stays a float: it prints as 0, but Intl.NumberFormat shows it as -0."""
        value = js_number("-0.0")
        assert type(value) is float
        assert math.copysign(1, value) == -1
        assert encode_json(value) == b"0"

    def test_overflow_reads_as_an_infinity(self) -> None:
        """1e400 is the infinity JSON.parse reads (printed null), not a refused number."""
        assert js_number("1e400") == math.inf
        assert js_number("-1.7976931348623159e308") == -math.inf
        assert encode_json([js_number("1e400"), js_number("-1e400")]) == b"[null,null]"


class TestJsonEncoder:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            (1e21, b"1e+21"),
            (-1.5e300, b"-1.5e+300"),
            (1.5e-6, b"0.0000015"),
            (1e-6, b"0.000001"),
            (1e-7, b"1e-7"),
            (2.0, b"2"),
            (-0.0, b"0"),
            (1e16, b"10000000000000000"),
            (2.0**60, b"1152921504606847000"),
            (2**60, b"1152921504606847000"),
            (js_number("1152921504606847000.0"), b"1152921504606847000"),
            (9007199254740993, b"9007199254740992"),
            (9007199254740991, b"9007199254740991"),
            (10**30, b"1e+30"),
            (-(10**400), b"null"),
            (float("inf"), b"null"),
            (0.1, b"0.1"),
            (True, b"true"),
        ],
    )
    def test_bare_values(self, value: Any, expected: bytes) -> None:
        """Each shape where msgspec and JSON.stringify part ways, and a few where they agree."""
        assert encode_json(value) == expected

    def test_nested_numbers(self) -> None:
        """Numbers anywhere in dicts and lists; keys and order as msgspec writes them."""
        value = {"a": [1e21, {"b": [-0.0, 2.0, {"c": 1.5e-6}]}], "d": 9007199254740993, "e": 1}
        assert encode_json(value) == (
            b'{"a":[1e+21,{"b":[0,2,{"c":0.0000015}]}],"d":9007199254740992,"e":1}'
        )

    @pytest.mark.parametrize(
        "text",
        ["1e21", "x:1e21,", "[2.0]", ",1.0}", ":9007199254740993]", '"1e21"', "\\", "3e4f-9e-6"],
    )
    def test_strings_are_never_touched(self, text: str) -> None:
        """Number-like text inside strings and keys, escapes included, stays as written."""
        value = {text: [text, 1e21, {"k": text}], "n": 1.5e-6}
        marked = msgspec.json.encode({text: [text, "<A>", {"k": text}], "n": "<B>"})
        expected = marked.replace(b'"<A>"', b"1e+21").replace(b'"<B>"', b"0.0000015")
        assert encode_json(value) == expected

    def test_plain_output_is_msgspecs(self) -> None:
        """Without such a number the bytes are msgspec's own, lookalikes in strings too."""
        value = {"id": "call_3e45a9", "v": "v1.0,", "n": [1, 2.5, 1e-7, 0.30000000000000004]}
        value["long"] = ["1234567890123456789", 123456789012345, 0.3333333333333333]
        assert encode_json(value) == msgspec.json.encode(value)

    def test_encode_into_rewrites_only_what_it_wrote(self) -> None:
        """encode_into from an offset leaves what the buffer held before alone."""
        encoder = JsonEncoder()
        buffer = bytearray(b'{"x":1e21}\n')  # not ours: left as it is
        encoder.encode_into([1e21, "1e21"], buffer, len(buffer))
        assert buffer == b'{"x":1e21}\n[1e+21,"1e21"]'
        encoder.encode_into({"a": 1}, buffer, 0)
        assert buffer == b'{"a":1}'


def test_command_line_patches_print_numbers_as_javascript_does() -> None:
    """``process --diffs patch``: a number a patch carries prints as JSON.stringify's."""
    literal = {"n": msgspec.Raw(b"1")}
    first, _ = _drawing(0, gap="2.0", size="2", literal=literal, data=msgspec.Raw(b"0"))
    second, _ = _drawing(0, gap="2.0", size="1E21", literal=literal, data=msgspec.Raw(b"-0.0"))
    command = [sys.executable, "-m", "a2ui_stream", "process", "--diffs", "patch", "-"]
    done = subprocess.run(  # noqa: S603 - our own command
        command, input=first + b"\n" + second + b"\n", capture_output=True, check=True
    )
    update = done.stdout.splitlines()[1]
    assert update.endswith(b'"patch":[{"op":"replace","path":"/children/1/size","value":1e+21}]}')


def test_command_line_patches_print_an_infinity_as_null() -> None:
    """``process --diffs patch`` and ``--final``: a number past a double's range, once
    refused with the operation holding it, prints as JSON.stringify prints it (#16)."""
    literal = {"n": msgspec.Raw(b"1")}
    first, _ = _drawing(0, gap="2", size="2", literal=literal, data=msgspec.Raw(b"0"))
    second, _ = _drawing(0, gap="2", size="1e400", literal=literal, data=msgspec.Raw(b"-1E999"))
    stream = first + b"\n" + second + b"\n"
    command = [sys.executable, "-m", "a2ui_stream", "process"]
    done = subprocess.run(  # noqa: S603 - our own command
        [*command, "--diffs", "patch", "-"], input=stream, capture_output=True, check=True
    )
    assert done.stderr.count(b"op.") == 0
    update = json.loads(done.stdout.splitlines()[1])
    assert update["patch"] == [
        {"op": "replace", "path": "/children/0/$action/context/bound", "value": None},
        {"op": "replace", "path": "/children/1/size", "value": None},
    ]
    final = subprocess.run(  # noqa: S603 - our own command
        [*command, "--final", "-"], input=stream, capture_output=True, check=True
    )
    assert b'"bound":null' in final.stdout
    assert b'"size":null' in final.stdout


def test_data_model_size_counts_an_infinity_as_printed() -> None:
    """The data model's byte bound measures an infinity as the ``null`` it prints as."""
    values = msgspec.Raw(b"[" + b",".join([b"1e400"] * 1000) + b"]")
    line, _ = _drawing(0, gap="2", size="2", literal=1, data=values)
    printed = len(b'{"d":[' + b",".join([b"null"] * 1000) + b"]}")
    for limit, codes in [(printed, []), (printed - 1, ["limit.data_model_bytes"])]:
        processor = Processor(limits=Limits(max_data_model_bytes=limit))
        processor.feed(line + b"\n")
        processor.close()
        assert [d.code for d in processor.take_diagnostics()] == codes


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
    assert encode_json(diff.args) == (
        b'{"$type":"Row","gap":2,"children":[{"$type":"Markdown","value":"0"}]}'
    )


def test_what_a_caller_receives_encodes_with_any_json_library() -> None:
    """Args holding the rare doubles stay plain Python values: msgspec, json and
    to_builtins take them as they are (JavaScript's forms are the output edge's job)."""
    rare = (b"1e21", b"-0.0", b"1.5e-6", b"123456789012345678901234567890")
    for text in rare:
        first, _ = _drawing(0, gap="2.0", size=text.decode(), literal={}, data=msgspec.Raw(b"0"))
        (diff,) = Processor().feed(first + b"\n")
        encoded = msgspec.json.encode(diff.args)
        assert msgspec.json.decode(encoded) == msgspec.to_builtins(diff.args)
        assert json.loads(json.dumps(diff.args)) == msgspec.json.decode(encoded)


NODE = shutil.which("node")
_JS_NUMBERS = Path(__file__).resolve().parent / "node" / "js_numbers.mjs"
#: formatNumber's arguments (the basic catalog's ``decimals`` and ``grouping``), each
#: with the Intl.NumberFormat("en-US") options a JavaScript renderer formats them with.
FORMATS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {"maximumFractionDigits": 3}),
    ({"grouping": True}, {"maximumFractionDigits": 3}),
    ({"grouping": False}, {"maximumFractionDigits": 3, "useGrouping": False}),
    *(
        ({"decimals": places}, {"minimumFractionDigits": places, "maximumFractionDigits": places})
        for places in (0, 1, 2, 5, 20)
    ),
    (
        {"decimals": 2, "grouping": False},
        {"minimumFractionDigits": 2, "maximumFractionDigits": 2, "useGrouping": False},
    ),
]


def number_corpus(seed: int = 12) -> list[str]:
    """A few thousand JSON number texts where JavaScript and Python part ways.

    Integers around 2**53 and its powers above, integers too long for a double's
    digits or range, exponents from -330 to 330, negative zero in its spellings,
    doubles from random bits (every digit they print matters), integral and fractional
    values on both sides of 1e16 and 1e21, values from 1e-7 to 1e-5 (where msgspec and
    JavaScript switch notation), halfway cases for every number of places formatNumber
    rounds to, and fractions with more digits than a double holds.
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
    out += [*OVERFLOWS, "1.7976931348623158e308", "1.7976931348623159E+308", "-0.5e310"]
    for exponent in range(-330, 331, 3):
        mantissa = f"{rng.randrange(1, 10)}.{rng.randrange(10**6)}"
        out += [f"{mantissa}e{exponent}", f"-{mantissa}E{exponent:+d}"]
    out += ["-0", "-0.0", "-0e5", "-0.000e-3", "0", "0.0", "5e-324", "2e-324", "1e-7", "1e-6"]
    out += ["9007199254740993", "123456789012345678901234567890", "1e21", "999999999999999999999"]
    out += ["1e-5", "9.999999999999999e-6", "1e16", "9999999999999998", "1E+21", "1.0e0"]
    for exponent in (-8, -7, -6, -5):
        for _ in range(40):
            mantissa = str(rng.randrange(1, 10 ** rng.randrange(1, 17)))
            sign = rng.choice(["", "-"])
            out.append(f"{sign}{mantissa}e{exponent - len(mantissa) + 1}")
    for exponent in range(14, 24):
        for _ in range(8):
            out.append(f"{rng.randrange(1, 10**6)}e{exponent}")
            out.append(f"-{rng.randrange(1, 10**16)}.{rng.randrange(10**4)}e{exponent - 15}")
    for places in range(6):  # x.yyy5: a tie at places digits, in the decimal as written
        for _ in range(30):
            whole = rng.choice([0, rng.randrange(10), rng.randrange(10**7)])
            tail = f"{rng.randrange(10**places):0{places}d}" if places else ""
            out.append(f"{rng.choice(['', '-'])}{whole}.{tail}5")
    for _ in range(100):
        out.append(f"{rng.randrange(10**4)}.{rng.randrange(10**30):030d}")
    while len(out) < 4000:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            out.append(repr(value))
    return out


def document_corpus(numbers: list[str], seed: int = 13) -> list[str]:
    """JSON documents holding the corpus's numbers, nested in objects and arrays.

    Every number (1e400 too: an infinity, printed null) once alone (a bare document)
    and once inside a random document of a few levels, beside strings and keys that
    look like numbers.
    """
    rng = random.Random(seed)
    lookalikes = ["1e21", "x:1e21,", "2.0]", ",-0.0}", "9007199254740993", "3e4", 'a"b', "\\1e9"]

    def value(depth: int) -> str:
        roll = rng.random()
        if depth > 3 or roll < 0.5:
            return rng.choice(numbers) if rng.random() < 0.8 else json.dumps(rng.choice(lookalikes))
        if roll < 0.75:
            return "[" + ",".join(value(depth + 1) for _ in range(rng.randrange(4))) + "]"
        keys = rng.sample([*lookalikes, "a", "b", "c"], rng.randrange(4))
        return "{" + ",".join(f"{json.dumps(key)}:{value(depth + 1)}" for key in keys) + "}"

    return numbers + [
        "{" + f'"doc":{value(0)},"n":{rng.choice(numbers)}' + "}" for _ in range(1500)
    ]


#: Every code Intl writes otherwise than "CODE\u00a0" with two digits (node 20), and
#: ten that it writes so.
CURRENCY_CODES = (
    "AFN ALL AUD BHD BIF BRL CAD CLP CNY COP DJF EUR GBP GNF HKD HUF IDR ILS INR IQD "
    "IRR ISK JOD JPY KMF KPW KRW KWD LAK LBP LYD MGA MMK MXN NZD OMR PHP PKR PYG RWF "
    "SLL SOS SYP TND TWD UGX USD VND VUV XAF XCD XCG XOF XPF YER "
    "CHF SEK NOK ZAR SGD DKK PLN TRY RUB EGP"
)


def _node(request: dict[str, Any]) -> dict[str, Any]:
    """One run of our node script (see ``tests/node/js_numbers.mjs``)."""
    if NODE is None:
        pytest.skip("node is not installed: no JavaScript to compare with")
    completed = subprocess.run(  # noqa: S603 - our own script, under node
        [NODE, _JS_NUMBERS], input=json.dumps(request).encode(), capture_output=True, check=True
    )
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


@pytest.fixture(scope="module")
def javascript() -> dict[str, list[str]]:
    """What node makes of each text of the corpus: String(), then each of FORMATS."""
    texts = number_corpus()
    numbers = _node({"numbers": texts, "formats": [intl for _, intl in FORMATS]})["numbers"]
    return dict(zip(texts, numbers, strict=True))


class TestAgainstNode:
    """String(), formatNumber and JSON.stringify, compared with node itself (issues 12, 15)."""

    def test_corpus_reaches_the_edges(self, javascript: dict[str, list[str]]) -> None:
        """The corpus holds each case the comparison is about, so it cannot pass idly."""
        printed = {row[0] for row in javascript.values()}
        assert len(javascript) > 3500
        assert {"9007199254740992", "1.2345678901234568e+29", "Infinity", "0", "1e+21"} <= printed
        assert {"0.000001", "1e-7", "10000000000000000"} <= printed
        assert sum(text.startswith(("0.00000", "-0.00000")) for text in printed) > 30
        assert sum("e+" in text for text in printed) > 100
        assert sum("e-" in text for text in printed) > 100
        assert any(row[1] == "-0" for row in javascript.values())
        # Written in float form past a double's range: read, not refused (#16).
        assert javascript["1e400"][:2] == ["Infinity", "∞"]
        assert javascript["-1.7976931348623159e308"][:2] == ["-Infinity", "-∞"]

    def test_string_of_every_number(self, javascript: dict[str, list[str]]) -> None:
        """to_text (String()) prints each decoded number exactly as node does."""
        wrong = []
        for text, (expected, *_formats) in javascript.items():
            value = _DECODE.decode(text.encode())
            if to_text(value) != expected:
                wrong.append((text, to_text(value), expected))
        assert wrong == []

    def test_format_number_of_every_number(self, javascript: dict[str, list[str]]) -> None:
        """formatNumber prints each decoded number as Intl.NumberFormat("en-US") does, for
        every option the basic catalog has: rounding (the shortest decimal, half away from
        zero), -0, values past 2**53 and 1e21, and the infinities included."""
        checked, wrong = 0, []
        for text, (_shown, *formatted) in javascript.items():
            value = _DECODE.decode(text.encode())
            if text == "-0":  # msgspec reads the integer -0 as 0 (it has no hook for ints)
                assert FUNCTIONS["formatNumber"]({"value": value}, _NO_ENV) == "0"
                assert formatted[0] == "-0"  # the one known difference, checked as such
                continue
            for (args, _intl), expected in zip(FORMATS, formatted, strict=True):
                checked += 1
                got = FUNCTIONS["formatNumber"]({"value": value, **args}, _NO_ENV)
                if got != expected:
                    wrong.append((text, args, got, expected))
        assert checked > 30_000
        assert wrong == []

    def test_format_currency_as_intl_writes_each_currency(self) -> None:
        """Symbols, no-break spaces and fraction digits (JPY none, KWD three) as node's Intl."""
        codes = CURRENCY_CODES.split()
        texts = ["1234.5", "-0.5", "0", "12345678.125", "0.0049", "999.9999", "-1e21"]
        styles = [{"style": "currency", "currency": code} for code in codes]
        rows = _node({"numbers": texts, "formats": styles})["numbers"]
        wrong = []
        for text, (_, *formatted) in zip(texts, rows, strict=True):
            value = _DECODE.decode(text.encode())
            for code, expected in zip(codes, formatted, strict=True):
                got = FUNCTIONS["formatCurrency"]({"value": value, "currency": code}, _NO_ENV)
                if got != expected:
                    wrong.append((text, code, got, expected))
        assert wrong == []

    def test_other_functions_of_an_infinity(self) -> None:
        """formatCurrency formats an infinity as Intl.NumberFormat's currency style does
        ("$∞", "-€∞"), pluralize picks "other" as Intl.PluralRules does, and formatString
        interpolates String()'s "Infinity" (a list holding one: JSON.stringify's null)."""
        currencies = ["USD", "EUR", "GBP", "INR"]
        styles = [{"style": "currency", "currency": code} for code in currencies]
        texts = [*OVERFLOWS, "1E+999", "-0.5e310"]
        rows = _node({"numbers": texts, "formats": styles})["numbers"]
        for text, (shown, *formatted) in zip(texts, rows, strict=True):
            value = _DECODE.decode(text.encode())
            assert value in {math.inf, -math.inf}
            ours = [
                FUNCTIONS["formatCurrency"]({"value": value, "currency": code}, _NO_ENV)
                for code in currencies
            ]
            assert ours == formatted
            plural = {"value": value, "zero": "z", "one": "o", "other": "many"}
            assert FUNCTIONS["pluralize"](plural, _NO_ENV) == "many"
            template = {"value": "${/n} and ${/list}"}
            env = _DataEnv({"/n": value, "/list": [value, 1]})
            assert FUNCTIONS["formatString"](template, env) == f"{shown} and [null,1]"

    def test_json_of_every_document(self) -> None:
        """Every document, decoded as our decoders do and encoded by JsonEncoder, is the
        text JSON.stringify(JSON.parse(document)) gives."""
        documents = document_corpus(number_corpus())
        expected = _node({"documents": documents})["documents"]
        decoded = [_DECODE.decode(document.encode()) for document in documents]
        wrong = [
            (document, got, want)
            for document, value, want in zip(documents, decoded, expected, strict=True)
            if (got := encode_json(value).decode()) != want
        ]
        assert len(documents) > 5000
        assert wrong[:20] == []
        # Not idly: msgspec alone prints a good share of them differently.
        plain = [msgspec.json.encode(value).decode() for value in decoded]
        assert sum(got != want for got, want in zip(plain, expected, strict=True)) > 1000

    def test_converted_args_of_every_document(self) -> None:
        """Numbers that pass through the converter into args print as JSON.stringify
        prints the element tree: each document bound into a Button's action context,
        beside a literal one, under a Row whose gap and an Image whose size are numbers."""
        documents = document_corpus(number_corpus())[::4]
        rng = random.Random(14)
        gaps = [text for text in number_corpus() if 0 <= float(text) <= 8]
        sizes = [text for text in documents if text[0] in "-0123456789"]
        lines, trees = [], []
        for index, text in enumerate(documents):
            document = msgspec.Raw(text.encode())
            line, tree = _drawing(
                index, gap=rng.choice(gaps), size=rng.choice(sizes), literal=document, data=document
            )
            lines.append(line)
            trees.append(tree.decode())
        expected = _node({"documents": trees})["documents"]
        processor = Processor()
        diffs = processor.feed(b"\n".join(lines) + b"\n") + processor.close()
        assert processor.take_diagnostics() == []
        got = {diff.surface_id: encode_json(diff.args).decode() for diff in diffs}
        wrong = [
            (index, got.get(f"s{index}"), want)
            for index, want in enumerate(expected)
            if got.get(f"s{index}") != want
        ]
        assert len(expected) > 1000
        assert wrong[:10] == []
        plain = {diff.surface_id: msgspec.json.encode(diff.args).decode() for diff in diffs}
        assert sum(plain[f"s{index}"] != want for index, want in enumerate(expected)) > 300


_URL = "https://example.com/a.png"


def _drawing(index: int, *, gap: str, size: str, literal: Any, data: Any) -> tuple[bytes, bytes]:
    """A snapshot drawing surface ``s<index>``, and the element tree a client makes of it.

    A Row with ``gap`` holds a Button whose action context has ``literal`` and the data
    at ``/d`` (``data``), and an Image of ``size``. Numbers are ``msgspec.Raw`` JSON text
    wherever they go, so both sides read them as written.
    """
    surface, raw = f"s{index}", msgspec.Raw
    action = {"name": "go", "context": {"literal": literal, "bound": {"path": "/d"}}}
    components = [
        {"id": "root", "component": "Row", "gap": raw(gap.encode()), "children": ["b", "i"]},
        {"id": "b", "component": "Button", "label": "go", "action": action},
        {"id": "i", "component": "Image", "url": _URL, "alt": "a", "size": raw(size.encode())},
    ]
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": "c"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": surface, "value": {"d": data}}},
    ]
    event = {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": f"m{index}",
        "activityType": "a2ui-surface",
        "content": {"a2ui_operations": operations},
    }
    context = {"literal": literal, "bound": data}
    button = {
        "$type": "Button",
        "label": "go",
        "$action": {
            "type": "a2ui:action",
            "name": "go",
            "surfaceId": surface,
            "sourceComponentId": "b",
            "context": context,
        },
    }
    image = {"$type": "Image", "src": _URL, "alt": "a", "size": raw(size.encode())}
    tree = {"$type": "Row", "gap": raw(gap.encode()), "children": [button, image]}
    return msgspec.json.encode(event), msgspec.json.encode(tree)


class _NoEnv:
    max_string = 1_000_000

    def read(self, pointer: str) -> Any:
        raise AssertionError(pointer)

    def unsupported(self, name: str) -> None:
        raise AssertionError(name)


_NO_ENV = _NoEnv()


class _DataEnv(_NoEnv):
    """An environment whose data holds the given values, by pointer."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def read(self, pointer: str) -> Any:
        return self.data[pointer]


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
            ("1e400", "Infinity", "∞"),  # float form past the range: the same infinity
            ("-1.7976931348623159e308", "-Infinity", "-∞"),
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


#: Numbers a JavaScript client and msgspec print differently, and some they agree on,
#: as an agent might write them.
TRICKY = [
    "1e21", "-1e21", "1E+21", "1.5e300", "1.7976931348623157e308", "5e-324", "1e-7",
    "1.5e-6", "9.999999999999999e-6", "1e-5", "1e16", "1E16", "1.5e16", "123456789012345680000",
    "9007199254740993", "-9007199254740993", "18446744073709551616",
    "123456789012345678901234567890", "9" * 400, "-0", "-0.0", "2.0", "1152921504606846976.0",
    "0.1", "0.30000000000000004", "100", "1e0", "12345678.9e-3",
]  # fmt: skip
#: Numbers past a double's range: JSON.parse reads an infinity, which prints as null.
OVERFLOWS = ["1e400", "-1.7976931348623159e308"]
#: Numbers within a gap's range (0..8), which both clients pass through.
GAPS = ["1.5e-6", "1e-7", "2.0", "-0", "-0.0", "7.999999999999999", "1E-6", "0.000001", "4"]


def _number_stream(seed: int = 15) -> bytes:
    """A run drawing surfaces whose props and data hold the numbers above; each snapshot
    is sent twice with other numbers, as the middleware re-sends a cumulative one."""
    rng = random.Random(seed)
    raw = msgspec.Raw
    lines = [b'{"type":"RUN_STARTED","threadId":"t","runId":"r1"}']
    for index in range(48):
        pick = [raw(rng.choice(TRICKY).encode()) for _ in range(6)]
        literal = [pick[0], {"x": pick[1], "y": [pick[2]]}]
        data = {"a": pick[3], "b": [pick[4], {"c": []}], "far": raw(OVERFLOWS[index % 2].encode())}
        size = rng.choice(TRICKY)
        line, _tree = _drawing(
            index // 2, gap=rng.choice(GAPS), size=size, literal=literal, data=data
        )
        lines.append(line)
    lines.append(b'{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}')
    return b"\n".join(lines) + b"\n"


class _Part(msgspec.Struct, rename="camel"):
    tool_call_id: str
    args: msgspec.Raw


class _Run(msgspec.Struct):
    parts: list[_Part]


class _DiffLine(msgspec.Struct, rename="camel"):
    tool_call_id: str
    args: msgspec.Raw = msgspec.Raw(b"null")


class TestAgainstUpstreamClient:
    """The conformance suite's comparison, for numbers: the same stream through
    ``a2ui-stream process`` and through the published assistant-ui client (its
    ``argsText`` is ``JSON.stringify`` of the element tree), args byte for byte."""

    def test_numbers_in_props_print_as_upstream_prints_them(self) -> None:
        """Numbers in a gap, an Image size and a Button's action context (literal and
        bound to data, nested in objects and arrays) come out of the command line
        exactly as upstream's client prints them, in the final parts and the diffs."""
        from installed_peers import run_node  # noqa: PLC0415 - beside the peers it drives
        from upstream_client import UpstreamClient  # noqa: PLC0415

        stream = _number_stream()
        folder = UpstreamClient.install().folder
        request = b'{"id":0,"events":[' + b",".join(stream.splitlines()) + b"]}\n"
        (result,) = [
            json.loads(line)
            for line in run_node(folder, "agui_client.mjs", data=request).splitlines()
        ]
        (turn,) = result["turns"]
        theirs = {
            part["toolCallId"]: part["argsText"]
            for message in turn["live"]
            for part in message["parts"]
        }
        command = [sys.executable, "-m", "a2ui_stream"]
        final = subprocess.run(  # noqa: S603 - our own command
            [*command, "process", "--final", "-"], input=stream, capture_output=True, check=True
        )
        (run,) = [msgspec.json.decode(line, type=_Run) for line in final.stdout.splitlines()]
        ours = {part.tool_call_id: bytes(part.args).decode() for part in run.parts}
        assert len(ours) == 24
        assert ours == theirs
        diffs = subprocess.run(  # noqa: S603 - our own command
            [*command, "process", "-"], input=stream, capture_output=True, check=True
        )
        last = {
            line.tool_call_id: bytes(line.args).decode()
            for line in (
                msgspec.json.decode(raw, type=_DiffLine) for raw in diffs.stdout.splitlines()
            )
        }
        assert last == theirs
        # Not idly: msgspec would have printed most of these differently.
        plain = {
            key: msgspec.json.encode(_DECODE.decode(text)).decode() for key, text in ours.items()
        }
        assert sum(plain[key] != text for key, text in theirs.items()) > 20


class TestIntegersPastPython:
    """An integer of more digits than Python converts (4,300) reads as JSON.parse reads it.

    Found by an input probe: msgspec refused the whole document holding one ("Integer
    value out of range"), so the operation was dropped, a delta's whole patch ignored and
    a history not restored; the client reads the number as an infinity, as ``1e400``.
    """

    LONG = b"9" * 5000

    def test_rewrite_touches_long_integers_only(self) -> None:
        short = b'{"a":' + b"9" * 309 + b',"b":"' + self.LONG + b'","c":1.' + self.LONG + b"}"
        assert past_python_ints(short) == short  # strings, fractions, 309 digits: kept
        exponent = b"[1e" + self.LONG + b"]"
        assert past_python_ints(exponent) == exponent
        assert past_python_ints(b"[" + self.LONG + b",-" + self.LONG + b"]") == b"[1e400,-1e400]"

    @staticmethod
    def _final(lines: list[dict[str, Any]], marker: bytes) -> dict[str, Any]:
        text = b"\n".join(json.dumps(line).encode() for line in lines).replace(
            marker, TestIntegersPastPython.LONG
        )
        processor = Processor()
        processor.feed(text + b"\n")
        processor.close()
        assert [d.code for d in processor.take_diagnostics()] == []
        return {
            part.tool_call_id: encode_json(part.args).decode()
            for run in processor.state.runs
            for part in run.parts.values()
        } | {
            part.tool_call_id: encode_json(part.args).decode()
            for entry in processor.state.history
            for part in entry.parts
        }

    def test_in_a_snapshot_delta_and_history(self) -> None:
        run = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
        text = {"id": "root", "component": "Text", "text": {"path": "/v"}}
        ops = [
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [text]}},
            {
                "version": "v0.9",
                "updateDataModel": {"surfaceId": "s", "path": "/", "value": {"v": 7, "w": 0}},
            },
        ]
        snapshot = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": ops},
        }
        found = self._final([run, snapshot], b"7")
        assert found == {"a2ui:s": '{"$type":"Markdown","value":"Infinity"}'}
        patch = [
            {"op": "replace", "path": "/a2ui_operations/2/updateDataModel/value/w", "value": 7},
            {"op": "replace", "path": "/a2ui_operations/2/updateDataModel/value/v", "value": "new"},
        ]
        delta = {
            "type": "ACTIVITY_DELTA",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "patch": patch,
        }
        ops = json.loads(json.dumps(ops))  # the snapshot before the delta: no long integer
        ops[2]["updateDataModel"]["value"]["v"] = 1
        snapshot = {**snapshot, "content": {"a2ui_operations": ops}}
        assert self._final([run, snapshot, delta], b"7") == {
            "a2ui:s": '{"$type":"Markdown","value":"new"}'
        }
        ops[2]["updateDataModel"]["value"]["v"] = 7
        activity = {
            "id": "act",
            "role": "activity",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": ops},
        }
        history = {
            "type": "MESSAGES_SNAPSHOT",
            "messages": [{"id": "a", "role": "assistant", "content": "hi"}, activity],
        }
        assert self._final([history], b"7") == {"a2ui:s": '{"$type":"Markdown","value":"Infinity"}'}
