"""The wire strings both sides share (:mod:`a2ui_stream._wire.convention`).

Each is pinned byte for byte from ``../shared/reference`` facts: a peer matches them
exactly (the schema description by equality), so a changed letter breaks interop.
"""

from __future__ import annotations

import ast
from pathlib import Path

from a2ui_stream._wire import convention

#: Every constant the module owns, and its value on the wire.
PINNED = {
    "A2UI_ACTIVITY_TYPE": "a2ui-surface",
    "OPERATIONS_KEY": "a2ui_operations",
    "PRESENT_TOOL_NAME": "present",
    "TOOL_CALL_PREFIX": "a2ui:",
    "RENDER_TOOL_NAME": "render_a2ui",
    "INJECT_TOOL_KEY": "injectA2UITool",
    "ACTION_KEY": "a2uiAction",
    "USER_ACTION_KEY": "userAction",
    "SCHEMA_CONTEXT_DESCRIPTION": (
        "A2UI Component Schema \u2014 available components for generating UI surfaces. "
        "Use these component names and properties when creating A2UI operations."
    ),
}


def test_every_string_is_pinned() -> None:
    assert sorted(convention.__all__) == sorted(PINNED)
    assert {name: getattr(convention, name) for name in convention.__all__} == PINNED


def test_schema_description_has_the_em_dash() -> None:
    """Upstream matches the description exactly: its dash is U+2014, not a hyphen."""
    assert "\u2014" in convention.SCHEMA_CONTEXT_DESCRIPTION
    assert " - " not in convention.SCHEMA_CONTEXT_DESCRIPTION


def test_imports_nothing() -> None:
    """The module is where both sides read the strings: it depends on nothing."""
    tree = ast.parse(Path(convention.__file__).read_text(encoding="utf-8"))
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert imported <= {"__future__", "typing"}
