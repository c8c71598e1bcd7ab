"""Diagnostics (``_wire.diagnostics``): what was wrong, where, and how much it matters."""

from __future__ import annotations

import msgspec
import pytest

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity, internal_error


class TestDiagnostic:
    def test_defaults(self) -> None:
        """A diagnostic is a warning with no location unless told."""
        diagnostic = Diagnostic(code="json.invalid", message="bad")
        assert diagnostic.severity is Severity.WARNING
        assert (diagnostic.line, diagnostic.offset, diagnostic.path, diagnostic.seq) == (
            None,
            None,
            None,
            None,
        )

    def test_str_names_every_location(self) -> None:
        """One line: the code, then line, byte, event, surface and path, then the sentence."""
        diagnostic = Diagnostic(
            code="op.missing_surface",
            message="no such surface",
            line=3,
            offset=120,
            seq=2,
            surface_id="s1",
            path="$.content.a2ui_operations[0]",
        )
        assert str(diagnostic) == (
            "op.missing_surface (line 3, byte 120, event 2, surface 's1', "
            "$.content.a2ui_operations[0]): no such surface"
        )

    def test_str_without_location(self) -> None:
        """With nothing known about where, only the code and the sentence."""
        assert str(Diagnostic(code="x.y", message="why")) == "x.y: why"

    def test_str_escapes_the_surface_id(self) -> None:
        """A surface id is quoted as a repr, so a newline in it cannot split the line."""
        assert "\n" not in str(Diagnostic(code="x", message="m", surface_id="a\nb"))

    def test_zero_is_a_location(self) -> None:
        """Line 0, byte 0 and event 0 are shown; they are not 'unknown'."""
        assert str(Diagnostic(code="x", message="m", offset=0, seq=0)) == "x (byte 0, event 0): m"

    def test_encodes_without_defaults(self) -> None:
        """As JSON only the fields that are set appear, the severity by its value."""
        diagnostic = Diagnostic(code="x", message="m", severity=Severity.ERROR, line=1)
        assert msgspec.json.decode(msgspec.json.encode(diagnostic)) == {
            "code": "x",
            "message": "m",
            "severity": "error",
            "line": 1,
        }

    def test_frozen(self) -> None:
        """A diagnostic handed out cannot be changed."""
        with pytest.raises(AttributeError):
            Diagnostic(code="x", message="m").code = "y"  # type: ignore[misc]


class TestSeverity:
    def test_values(self) -> None:
        """The three severities, spelled as the log and the CLI print them."""
        assert [s.value for s in Severity] == ["error", "warning", "debug"]


class TestInternalError:
    def test_names_the_exception_and_what_was_dropped(self) -> None:
        """An ERROR with the stable code, the exception type and message, and the location."""
        diagnostic = internal_error(KeyError("k"), "event 7", seq=7, line=8)
        assert diagnostic.code == Code.CORE_INTERNAL_ERROR
        assert str(diagnostic.code) == "core.internal_error"
        assert diagnostic.severity is Severity.ERROR
        assert (diagnostic.seq, diagnostic.line) == (7, 8)
        assert diagnostic.message == (
            "internal error, event 7 was ignored (KeyError: 'k'); please report it with the input"
        )

    def test_default_subject(self) -> None:
        """Without a subject the line was what was dropped."""
        assert "the line was ignored (ValueError: v)" in internal_error(ValueError("v")).message

    def test_long_reasons_are_cut(self) -> None:
        """An exception message is kept to 200 characters, the cut marked."""
        message = internal_error(RuntimeError("x" * 1000)).message
        assert "x" * 200 + "...)" in message
        assert "x" * 201 not in message
