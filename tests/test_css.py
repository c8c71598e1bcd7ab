"""CSS values (``_view.css``): the grammars a prop must match, pixels, generated rules."""

from __future__ import annotations

from typing import Any

import pytest

from a2ui_stream._view.css import Rules, css_color, css_length, px


class TestGrammar:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [("#fff", "#fff"), ("rebeccapurple", "rebeccapurple"), ("red;x:y", None), ("u(", None)],
    )
    def test_colour_grammar(self, value: str, expected: str | None) -> None:
        """Only plain CSS colours pass."""
        assert css_color(value) == expected

    @pytest.mark.parametrize(
        ("value", "expected"),
        [(10, "10px"), ("10", "10px"), ("2.5rem", "2.5rem"), ("full", "100%"), ("1px;", None)],
    )
    def test_length_grammar(self, value: Any, expected: str | None) -> None:
        """Only plain CSS lengths pass."""
        assert css_length(value) == expected

    @pytest.mark.parametrize(
        "value",
        ["rgb(1, 2, 3)", "rgba(0,0,0,.5)", "hsl(120 50% 50%)", "#00ff0080", "auto"],
    )
    def test_colour_functions_and_keywords(self, value: str) -> None:
        """rgb()/hsl() of numbers, long hex and keywords are colours."""
        assert css_color(value) == value

    @pytest.mark.parametrize(
        "value", ["url(x)", "rgb(1,2,3);x", "#ff", "red blue", "", "expression(alert(1))", 3, None]
    )
    def test_what_is_no_colour(self, value: Any) -> None:
        """Anything that could carry a second declaration or a URL is refused."""
        assert css_color(value) is None

    @pytest.mark.parametrize(
        ("value", "expected"),
        [(0, "0px"), (12.5, "12.5px"), ("auto", "auto"), ("50%", "50%"), ("3vh", "3vh")],
    )
    def test_more_lengths(self, value: Any, expected: str) -> None:
        """Units pass as written; bare numbers, strings or not, are pixels."""
        assert css_length(value) == expected

    @pytest.mark.parametrize(
        "value", [-1, 100_001, True, None, [], "10 px", "calc(1px)", "1e3", "123456", "1.2345px"]
    )
    def test_what_is_no_length(self, value: Any) -> None:
        """Negative or huge numbers, booleans, expressions and long numbers are refused."""
        assert css_length(value) is None


class TestPx:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [(0, "0px"), (10, "10px"), (1.5, "1.5px"), (1.25, "1.25px"), (1 / 3, "0.33px")],
    )
    def test_two_decimals_and_no_trailing_zeros(self, value: float, expected: str) -> None:
        """At most two decimals, trailing zeros and a bare point dropped."""
        assert px(value) == expected


class TestRules:
    def test_one_class_per_declaration_list(self) -> None:
        """The same declarations share a class; classes are numbered in order of first use."""
        rules = Rules()
        assert rules.use("width:10px") == "u1"
        assert rules.use("gap:4px") == "u2"
        assert rules.use("width:10px") == "u1"
        assert rules.stylesheet() == ".u1{width:10px}\n.u2{gap:4px}\n"

    def test_empty(self) -> None:
        """No rule handed out, no stylesheet."""
        assert Rules().stylesheet() == ""

    def test_each_page_counts_afresh(self) -> None:
        """Two renderers never share classes: the same uses give the same names."""
        first, second = Rules(), Rules()
        first.use("a:1")
        assert second.use("b:2") == "u1"
