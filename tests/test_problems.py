"""Tests for the diagnostic builders shared by the A2UI decoding modules."""

from __future__ import annotations

from typing import Any

import pytest

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.problems import bad_component, no_surface, problem


class TestProblem:
    def test_located_inside_the_operation(self) -> None:
        """The path is the operation index followed by the place below it."""
        found = problem(
            Code.OP_MALFORMED, "m.", index=4, where=".a[1]", surface_id="s", component_id="c"
        )
        assert (found.code, found.path, found.severity) == (
            "op.malformed",
            "$[4].a[1]",
            Severity.ERROR,
        )
        assert (found.surface_id, found.component_id) == ("s", "c")


class TestBadComponent:
    @pytest.mark.parametrize(
        ("item", "family", "reason", "component_id"),
        [
            (None, "v0.9", "is NoneType, not an object", None),
            ({"id": ""}, "v0.9", "has no non-empty string id", ""),
            ({"id": "a"}, "v0.9", 'has no non-empty string "component" type', "a"),
            ({"id": "a", "component": "Text"}, "v0.8", "exactly one type key", "a"),
        ],
    )
    def test_reason(self, item: Any, family: Any, reason: Any, component_id: Any) -> None:
        """The message names what is wrong in the family's own terms."""
        found = bad_component(item, family, 1, ".c[0]", "s")
        assert found.code == "component.malformed"
        assert reason in found.message
        assert found.component_id == component_id
        assert found.path == "$[1].c[0]"


class TestNoSurface:
    def test_points_at_the_surface_id(self) -> None:
        """The diagnostic is located at the payload's ``surfaceId``."""
        found = no_surface("deleteSurface", 0)
        assert (found.code, found.path) == ("op.no_surface_id", "$[0].deleteSurface.surfaceId")
