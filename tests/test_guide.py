"""The render tool's usage guide (``_request.guide``): its text, example and description."""

from __future__ import annotations

import json

import pytest

from a2ui_stream._request.guide import GUIDE_EXAMPLE, guide_context_description, render_tool_guide


class TestGuide:
    def test_guide_covers_the_topics(self) -> None:
        """The guide names the arguments, the catalog rule, root, bindings and templates."""
        text = render_tool_guide("render_a2ui")
        for needle in (
            "`surfaceId`",
            "`components`",
            "`data`",
            "`catalogId`",
            '"root"',
            '{"path": "/customer/name"}',
            '"componentId"',
            "Rules for a valid call",
        ):
            assert needle in text
        example = text.split("```json\n", 1)[1].split("\n```", 1)[0]
        assert json.loads(example) == GUIDE_EXAMPLE

    @pytest.mark.parametrize("name", ["render_a2ui", "draw", "ui.v2"])
    def test_the_tool_is_named(self, name: str) -> None:
        """The guide and its description name the tool the agent will call, byte for byte."""
        assert name in render_tool_guide(name)
        assert guide_context_description(name) == (
            f"A2UI render tool usage guide \u2014 how to call {name} with valid arguments."
        )

    def test_braces_in_a_name_are_kept(self) -> None:
        """A tool name is text, never a format template."""
        assert "a{b}c" in render_tool_guide("a{b}c")
        assert "a{b}c" in guide_context_description("a{b}c")

    def test_example_is_laid_out_one_component_per_line(self) -> None:
        """Each example component sits on its own line of the JSON block."""
        text = render_tool_guide("render_a2ui")
        example = text.split("```json\n", 1)[1].split("\n```", 1)[0]
        lines = example.splitlines()
        for component in GUIDE_EXAMPLE["components"]:
            assert any(json.loads(line.strip().rstrip(",")) == component for line in lines[3:])
