"""The toolkit's structural check (``_engine.toolkit``): may a streamed component list paint."""

from __future__ import annotations

from typing import Any

from a2ui_stream._engine.toolkit import structural_errors


def codes(components: list[Any]) -> list[tuple[str, str]]:
    """The ``(code, path)`` of each error, in order."""
    return [(e["code"], e["path"]) for e in structural_errors(components)]


class TestToolkitCheck:
    def test_errors_in_the_toolkit_order(self) -> None:
        components = [
            {"id": "a", "component": "Row", "children": ["b", "zz"]},
            {"id": "b", "component": "Row", "child": "a"},
            {"id": "c", "component": ""},
            {"id": "c", "component": "Text"},
        ]
        assert [(e["code"], e["path"]) for e in structural_errors(components)] == [
            ("duplicate_id", "components[id=c]"),
            ("unresolved_child", "components[0].children[1]"),
            ("missing_component_type", "components[2].component"),
            ("child_cycle", "components[id=a]"),
            ("no_root", "components"),
        ]
        assert (
            structural_errors(components)[3]["message"]
            == "Child reference cycle detected: a -> b -> a"
        )

    def test_a_valid_list_has_no_errors(self) -> None:
        """Ids unique, types set, children resolved through ids and templates, a root."""
        components = [
            {"id": "root", "component": "Column", "children": ["t", {"componentId": "i"}]},
            {"id": "t", "component": "Text", "child": "i"},
            {"id": "i", "component": "Text"},
        ]
        assert structural_errors(components) == []

    def test_empty(self) -> None:
        """An empty list is one error of its own."""
        assert codes([]) == [("empty_components", "components")]

    def test_missing_ids_and_non_objects(self) -> None:
        """A component without a string id, or no object at all, is named by its index."""
        assert codes([{"id": "root", "component": "Text"}, {"component": "Text"}, 7]) == [
            ("missing_id", "components[1].id"),
            ("missing_id", "components[2].id"),
            ("missing_component_type", "components[2].component"),
        ]

    def test_a_cycle_is_named_once_from_its_smallest_id(self) -> None:
        """Each cycle appears once, rotated to start at the id JavaScript sorts first."""
        components = [
            {"id": "root", "component": "Row", "child": "m"},
            {"id": "m", "component": "Row", "child": "b"},
            {"id": "b", "component": "Row", "children": ["m"]},
        ]
        [error] = structural_errors(components)
        assert (error["code"], error["message"]) == (
            "child_cycle",
            "Child reference cycle detected: b -> m -> b",
        )

    def test_a_deep_chain_does_not_exhaust_the_stack(self) -> None:
        """Ten thousand nested references are checked without recursion."""
        chain = [
            {"id": f"c{i}", "component": "Column", "child": f"c{i + 1}"} for i in range(10_000)
        ]
        chain.append({"id": "c10000", "component": "Text"})
        chain[0]["id"] = "root"
        chain[0]["child"] = "c1"
        assert structural_errors(chain) == []
