"""Value rules (``_convert.rules``): what a prop value must be to be copied, and the probe
a render plan runs them with."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2ui_stream._convert import rules
from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._wire.diagnostics import Severity

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(["javascript:x", "https://x/a.png", "data:image/png", "h1", "start"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
    max_leaves=5,
)


class _Recorder:
    def __init__(self, max_string: int) -> None:
        self.max_string = max_string
        self.warned: list[str] = []

    def warn(self, code: str, _message: str, **_where: Any) -> None:
        self.warned.append(code)


_RULE_ARGS: dict[str, tuple[Any, ...]] = {
    "string": (),
    "text": (),
    "url": (),
    "link": (),
    "flag": (),
    "number": (0, 8),
    "enum": ({"start": "start", "center": "center", "stretch": None},),
    "chosen": ("start",),
    "first_choice": (),
}


class TestRules:
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        name=st.sampled_from(sorted(rules.RULES)),
        value=VALUES,
        max_string=st.sampled_from([3, 12, 1_000_000]),
    )
    def test_a_probe_is_silent_exactly_where_the_rule_is(
        self, name: str, value: Any, max_string: int
    ) -> None:
        """Where a rule warns a probe raises; elsewhere both give the same value."""
        rule = rules.RULES[name]
        args = _RULE_ARGS[name]
        recorder = _Recorder(max_string)
        expected = rule(recorder, value, "key", *args)  # type: ignore[operator]
        try:
            found = rule(rules.Probe(max_string), value, "key", *args)  # type: ignore[operator]
        except rules.Loud:
            assert recorder.warned
            return
        assert not recorder.warned
        assert json.dumps(found) == json.dumps(expected)


class _Warned:
    """A :class:`~a2ui_stream._convert.rules.Warner` that records the codes it is given."""

    def __init__(self, max_string: int) -> None:
        self.max_string = max_string
        self.warned: list[str] = []

    def warn(
        self, code: str, message: str, *, severity: Severity = Severity.WARNING, once: bool = False
    ) -> None:
        assert message
        assert severity is Severity.WARNING
        assert not once
        self.warned.append(code)


@pytest.fixture
def ctx() -> _Warned:
    """A context with a string limit of 5 that records what it is warned of."""
    return _Warned(5)


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://a.b/c", True),
        ("http://a", True),
        ("relative/path.png", True),
        ("/abs", True),
        ("HTTPS://A", True),
        ("data:image/png;base64,AA==", True),
        ("DATA:IMAGE/gif,x", True),
        ("javascript:alert(1)", False),
        ("java\nscript:alert(1)", False),
        (" javascript:x", False),
        ("\x00javascript:x", False),
        ("data:text/html,<b>", False),
        ("vbscript:x", False),
        ("file:///etc/passwd", False),
        ("x:y", False),
    ],
)
def test_url_is_safe(url: str, safe: bool) -> None:
    """http(s), data:image/ and relative URLs; controls and spaces cannot hide a scheme."""
    assert rules.url_is_safe(url) is safe


class TestRulesOneByOne:
    def test_string_is_cut_with_a_warning(self, ctx: _Warned) -> None:
        """A long string is cut to the limit; a non-string is no string, silently."""
        assert rules.string(ctx, "abcde", "k") == "abcde"
        assert ctx.warned == []
        assert rules.string(ctx, "abcdefg", "k") == "abcde"
        assert rules.string(ctx, 5, "k") is None
        assert ctx.warned == ["convert.string_cut"]

    @pytest.mark.parametrize(
        ("value", "expected"),
        [("hi", "hi"), (42, "42"), (True, "true"), (1.5, "1.5"), (1e21, "1e+21")],
    )
    def test_text_prints_as_javascript(self, ctx: _Warned, value: Any, expected: str) -> None:
        """Numbers and booleans become the text JavaScript prints for them."""
        assert rules.text(ctx, value, "k") == expected
        assert ctx.warned == []

    def test_text_of_an_unsafe_integer_is_javascripts(self) -> None:
        """An integer past 2**53 prints as JavaScript's nearest double does."""
        assert rules.text(_Warned(100), 2**60, "k") == "1152921504606847000"

    def test_text_of_what_is_no_text(self, ctx: _Warned) -> None:
        """Lists and objects leave the text empty with a warning; missing and null quietly."""
        assert rules.text(ctx, [1], "k") == ""
        assert rules.text(ctx, {"a": 1}, "k") == ""
        assert ctx.warned == ["convert.prop_invalid"] * 2
        assert rules.text(ctx, MISSING, "k") == ""
        assert rules.text(ctx, None, "k") == ""
        assert len(ctx.warned) == 2

    def test_url(self, ctx: _Warned) -> None:
        """A safe URL passes (cut like any string); an unsafe one is dropped with a warning."""
        assert rules.url(ctx, "a.png", "src") == "a.png"
        assert rules.url(ctx, "javascript:x", "src") is None
        assert rules.url(ctx, 3, "src") is None
        assert ctx.warned == ["convert.unsafe_url"]

    def test_flag_number_enum(self, ctx: _Warned) -> None:
        """Booleans only; numbers in range (others warn); enums through their table."""
        assert (rules.flag(ctx, value=True), rules.flag(ctx, 1)) == (True, None)
        assert rules.number(ctx, 8, "gap", 0, 8) == 8
        assert rules.number(ctx, 9, "gap", 0, 8) is None
        assert rules.number(ctx, "4", "gap", 0, 8) is None
        table = {"start": "start", "stretch": None}
        assert rules.enum(ctx, "start", "align", table) == "start"
        assert rules.enum(ctx, "stretch", "align", table) is None
        assert rules.enum(ctx, "sideways", "align", table) is None
        assert ctx.warned == ["convert.prop_invalid"] * 2

    def test_choices(self, ctx: _Warned) -> None:
        """A selection is one string or a list of them."""
        assert rules.chosen(ctx, "a", "k", "a")
        assert rules.chosen(ctx, ["b", "a"], "k", "a")
        assert not rules.chosen(ctx, {"a": 1}, "k", "a")
        assert rules.first_choice(ctx, [1, "x", "y"], "k") == "x"
        assert rules.first_choice(ctx, None, "k") is None

    def test_the_probe_raises_where_a_rule_warns(self) -> None:
        """A probe's warning is Loud, carrying the code; silent cases pass through."""
        probe = rules.Probe(3)
        assert rules.string(probe, "abc", "k") == "abc"
        with pytest.raises(rules.Loud) as raised:
            rules.string(probe, "abcd", "k")
        assert raised.value.args[0] == "convert.string_cut"
