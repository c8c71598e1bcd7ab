"""Tests for the basic-catalog functions, called directly with a stub environment."""

from __future__ import annotations

from typing import Any

import pytest

from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._convert.functions import FUNCTIONS, to_text


class StubEnv:
    """Reads from a flat dict and records unsupported calls."""

    def __init__(self, data: dict[str, Any], max_string: int = 1_000_000) -> None:
        self.data = data
        self.max_string = max_string
        self.unsupported_calls: list[str] = []
        self.reads = 0

    def read(self, pointer: str) -> Any:
        self.reads += 1
        return self.data.get(pointer, MISSING)

    def unsupported(self, name: str) -> None:
        self.unsupported_calls.append(name)


def call(name: str, env: StubEnv | None = None, **args: Any) -> Any:
    return FUNCTIONS[name](args, env or StubEnv({}))


class TestToText:
    @pytest.mark.parametrize(
        ("value", "text"),
        [
            ("s", "s"),
            (True, "true"),
            (3, "3"),
            (1.0, "1"),
            (0.5, "0.5"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (1.5e-7, "1.5e-7"),
            (2.5e-5, "0.000025"),  # Python writes 2.5e-05; JavaScript stays fixed
            (0.0001234, "0.0001234"),
            (123.45, "123.45"),
            (-0.1, "-0.1"),
            (1234567890123456.8, "1234567890123456.8"),
            (1.5e16, "15000000000000000"),
            (9007199254740994.0, "9007199254740994"),
            (1.2345678901234567e17, "123456789012345660"),  # shortest digits, not exact
            (float("nan"), "NaN"),
            (float("-inf"), "-Infinity"),
            (None, ""),
            (MISSING, ""),
            ([1, "a"], '[1,"a"]'),
            ({"a": 1}, '{"a":1}'),
            ({"a": [1e21, -0.0]}, '{"a":[1e+21,0]}'),  # as JSON.stringify writes them
        ],
    )
    def test_javascript_string(self, value: Any, text: str) -> None:
        """Values read as JavaScript's ``String(value)`` would print them."""
        assert to_text(value) == text

    def test_other_values_have_no_text(self) -> None:
        """A value that is not JSON has no text."""
        assert to_text(object()) is None


class TestFormatString:
    def test_paths_literals_and_escape(self) -> None:
        """Absolute and relative paths, literals and the ``\\${`` escape interpolate."""
        env = StubEnv({"/n": 2, "name": "Ann"})
        value = "${/n} for ${name} ${true} ${'q'} \\${x}"
        assert call("formatString", env, value=value) == "2 for Ann true q ${x}"

    def test_nested_calls(self) -> None:
        """Function calls nest inside the template and inside arguments."""
        env = StubEnv({"/n": 1})
        value = "${pluralize(value: ${/n}, one: 'item', other: 'items')}"
        assert call("formatString", env, value=value) == "item"

    def test_unsupported_nested_call_is_reported(self) -> None:
        """A nested call to an unknown function reads as empty and is reported."""
        env = StubEnv({})
        assert call("formatString", env, value="a${upper(value: 'x')}b") == "ab"
        assert env.unsupported_calls == ["upper"]

    @pytest.mark.parametrize("value", ["${/a", "${f(x)}", "${'open}", 3])
    def test_malformed_templates_raise(self, value: Any) -> None:
        """Malformed templates raise ValueError or TypeError for the caller to report."""
        with pytest.raises((ValueError, TypeError)):
            call("formatString", value=value)

    def test_stops_once_longer_than_a_prop_keeps(self) -> None:
        """A thousand references to a long value read it until the text is past the limit.

        6 KB of template over a 590 KB list took 23 s and 1.2 GB: each reference
        encoded the list again, for a prop cut at a million characters anyway.
        """
        env = StubEnv({"/a": list(range(100_000))}, max_string=1_000_000)
        text = call("formatString", env, value="${/a}" * 1000)
        one = to_text(list(range(100_000))) or ""
        assert len(one) == 588_891
        assert env.reads == 2  # the first read that goes past the limit is the last
        assert text == one * 2  # still past it: the prop is cut, and says so, as before

    def test_under_the_limit_everything_is_read(self) -> None:
        env = StubEnv({"/a": "xy"}, max_string=10)
        assert call("formatString", env, value="${/a}-" * 3) == "xy-xy-xy-"
        assert env.reads == 3
        nested = StubEnv({"/a": "xyz"}, max_string=4)
        template = "${formatString(value: '${/a}${/a}${/a}')}${/a}"
        assert call("formatString", nested, value=template) == "xyzxyz"
        assert nested.reads == 2  # the inner call stopped past 4 characters; the outer too


class TestFormatting:
    def test_format_number(self) -> None:
        """Grouping by default, fixed decimals on request, up to three otherwise."""
        assert call("formatNumber", value=1234.5) == "1,234.5"
        assert call("formatNumber", value=1234.5, decimals=2, grouping=False) == "1234.50"
        assert call("formatNumber", value=-0.0001) == "-0"  # Intl keeps the sign of -0

    @pytest.mark.parametrize(
        ("value", "decimals", "text"),
        [
            (1.005, 2, "1.01"),  # the double is just below 1.005; Intl rounds what it prints
            (8.345, 2, "8.35"),
            (0.125, 2, "0.13"),  # half away from zero, not to even
            (2.5, 0, "3"),
            (-2.5, 0, "-3"),
            (1.0005, None, "1.001"),
            (-0.0, None, "-0"),
            (-0.004, 2, "-0.00"),
        ],
    )
    def test_format_number_rounds_as_intl(
        self, value: float, decimals: int | None, text: str
    ) -> None:
        """Intl.NumberFormat rounds the shortest decimal half away from zero (node agrees)."""
        args: dict[str, Any] = (
            {"value": value} if decimals is None else {"value": value, "decimals": decimals}
        )
        assert call("formatNumber", **args) == text

    def test_format_currency(self) -> None:
        """Known codes get a symbol, others the code; the sign goes first (as Intl)."""
        assert call("formatCurrency", value=-6.5, currency="usd") == "-$6.50"
        assert call("formatCurrency", value=1, currency="CHF", decimals=0) == "CHF\u00a01"
        assert call("formatCurrency", value=1234.5, currency="JPY") == "\u00a51,235"
        assert call("formatCurrency", value=1.5, currency="kwd") == "KWD\u00a01.500"

    @pytest.mark.parametrize("decimals", [-1, 21, 100])
    def test_decimals_out_of_intls_range_raise(self, decimals: int) -> None:
        """Intl takes 0 to 20 fraction digits and throws past them: reported, not drawn."""
        with pytest.raises(ValueError, match="decimals must be 0 to 20"):
            call("formatNumber", value=1.5, decimals=decimals)
        with pytest.raises(ValueError, match="decimals must be 0 to 20"):
            call("formatCurrency", value=1.5, currency="USD", decimals=decimals)
        assert call("formatNumber", value=1.5, decimals=20) == "1." + "5".ljust(20, "0")

    @pytest.mark.parametrize("currency", ["US Dollar", "US", "", "€", "ÄBC", "USD\n"])
    def test_a_currency_that_is_no_code_raises(self, currency: str) -> None:
        """Intl refuses a malformed code with a RangeError: the call is reported, not drawn."""
        with pytest.raises(ValueError, match="three-letter ISO 4217 code"):
            call("formatCurrency", value=1, currency=currency)

    def test_format_date(self) -> None:
        """A Unicode pattern formats an ISO timestamp, quotes included."""
        value = "2026-03-04T15:06:07"
        assert call("formatDate", value=value, format="EEEE d MMM yyyy, h:mm a") == (
            "Wednesday 4 Mar 2026, 3:06 PM"
        )
        assert call("formatDate", value=value, format="HH 'o''clock'") == "15 o'clock"

    def test_pluralize(self) -> None:
        """Zero and one pick their forms when given, else other."""
        assert call("pluralize", value=0, zero="none", other="n") == "none"
        assert call("pluralize", value=1, other="n") == "n"
        assert call("pluralize", value=2) is MISSING

    @pytest.mark.parametrize(
        ("name", "args"),
        [
            ("formatNumber", {"value": "1"}),
            ("formatCurrency", {"value": 1}),
            ("formatDate", {"value": "not a date", "format": "y"}),
            ("pluralize", {"value": "1"}),
        ],
    )
    def test_bad_arguments_raise(self, name: str, args: dict[str, Any]) -> None:
        """Arguments of the wrong type raise for the caller to report."""
        with pytest.raises((ValueError, TypeError)):
            FUNCTIONS[name](args, StubEnv({}))
