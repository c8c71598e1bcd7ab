"""Tests for the v0.8 rewriting module, on plain values (no envelope, no operations)."""

from __future__ import annotations

import copy
from typing import Any

from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.legacy import rewrite_components, rewrite_contents


def rewrite(*items: Any) -> tuple[list[Any], list[Diagnostic], tuple[Any, ...]]:
    return rewrite_components(
        list(items), index=2, where=".surfaceUpdate.components", surface_id="s"
    )


class TestRewriteComponents:
    def test_returns_triples_in_v09_spelling(self) -> None:
        """Each usable component comes back as (id, v0.9 type, v0.9 props)."""
        triples, problems, seeds = rewrite(
            {"id": "t", "component": {"Text": {"text": {"literalString": "Hi"}}}},
            {"id": "m", "component": {"MultipleChoice": {"maxAllowedSelections": 1}}},
        )
        assert triples == [
            ("t", "Text", {"text": "Hi"}),
            ("m", "ChoicePicker", {"variant": "mutuallyExclusive"}),
        ]
        assert problems == []
        assert seeds == ()

    def test_input_is_not_mutated(self) -> None:
        """Rewritten props are new dicts; the message as received is left as it was."""
        item = {
            "id": "b",
            "weight": 2,
            "component": {"Button": {"primary": True, "action": {"name": "go", "context": []}}},
        }
        before = copy.deepcopy(item)
        ((_, _, props),), _, _ = rewrite(item)
        assert item == before
        assert props == {
            "variant": "primary",
            "action": {"event": {"name": "go", "context": {}}},
            "weight": 2,
        }

    def test_bad_entries_reported_with_their_position(self) -> None:
        """A bad entry is left out with a v0.8 reason and its JSON path."""
        triples, problems, _ = rewrite({"id": "x", "component": {"A": {}, "B": {}}})
        assert triples == []
        (found,) = problems
        assert found.code == "component.malformed"
        assert found.severity is Severity.ERROR
        assert found.path == "$[2].surfaceUpdate.components[0]"
        assert "exactly one type key" in found.message
        assert found.component_id == "x"

    def test_seeds_collected_across_components(self) -> None:
        """Literal-plus-path values from several components all become seeds, in order."""
        _, _, seeds = rewrite(
            {"id": "a", "component": {"TextField": {"text": {"literalString": "x", "path": "f"}}}},
            {
                "id": "b",
                "component": {"CheckBox": {"value": {"literalBoolean": False, "path": "/g"}}},
            },
        )
        assert seeds == (("/f", "x"), ("/g", False))


class TestRewriteContents:
    def test_object_is_merged(self) -> None:
        """Typed entries become one object to merge under the path."""
        problems: list[Diagnostic] = []
        entries = [{"key": "a", "valueString": "x"}, {"key": "n", "valueNumber": 1}]
        assert rewrite_contents(entries, index=0, where="", problems=problems) == (
            {"a": "x", "n": 1},
            True,
        )
        assert problems == []

    def test_single_dot_entry_is_set(self) -> None:
        """One ``.`` entry is the value at the path itself, not merged."""
        entries = [{"key": ".", "valueBoolean": True}]
        assert rewrite_contents(entries, index=0, where="", problems=[]) == (True, False)

    def test_deep_value_maps_are_cut(self) -> None:
        """valueMap nesting past the bound is dropped with a warning instead of recursing."""
        entries: list[Any] = [{"key": "leaf", "valueString": "x"}]
        for _ in range(40):
            entries = [{"key": "k", "valueMap": entries}]
        problems: list[Diagnostic] = []
        value, merge = rewrite_contents(entries, index=0, where=".c", problems=problems)
        assert merge
        depth = 0
        while value:
            value = value["k"]
            depth += 1
        assert depth == 32
        assert [p.code for p in problems] == ["op.bad_contents"]
