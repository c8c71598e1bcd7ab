"""The words a model reads: context descriptions and the render tool's usage guide.

Owns the two context-entry descriptions that upstream readers match by exact equality
(the middleware, the Python A2UI toolkit and the LangGraph adapter; both contain a
U+2014 em dash, see ``shared/reference/request-side.md`` section 1) and the text of
the usage guide sent beside the schema entry. The guide is written for this project;
its example is kept as data (:data:`GUIDE_EXAMPLE`) so tests can check it against the
basic catalog.

Must not import: any other package module. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from a2ui_stream._wire.convention import SCHEMA_CONTEXT_DESCRIPTION

__all__ = [
    "GUIDE_EXAMPLE",
    "SCHEMA_CONTEXT_DESCRIPTION",
    "guide_context_description",
    "render_tool_guide",
]


_GUIDE_DESCRIPTION: Final = (
    "A2UI render tool usage guide \u2014 how to call {name} with valid arguments."
)

GUIDE_EXAMPLE: Final[dict[str, Any]] = {
    "surfaceId": "order-summary",
    "components": [
        {"id": "root", "component": "Column", "children": ["heading", "lines", "confirm"]},
        {"id": "heading", "component": "Text", "text": "## Your order"},
        {
            "id": "lines",
            "component": "List",
            "children": {"componentId": "line", "path": "/items"},
        },
        {"id": "line", "component": "Text", "text": {"path": "name"}},
        {
            "id": "confirm",
            "component": "Button",
            "child": "confirm-label",
            "variant": "primary",
            "action": {
                "event": {"name": "confirm_order", "context": {"total": {"path": "/total"}}},
            },
        },
        {"id": "confirm-label", "component": "Text", "text": "Confirm order"},
    ],
    "data": {"items": [{"name": "Espresso"}, {"name": "Almond croissant"}], "total": "7.40 EUR"},
}
"""The complete call shown in the guide; never mutate it (tests validate it)."""

_GUIDE_TEMPLATE: Final = """\
# Drawing with {name}

{name} puts a user interface on the user's screen. Every call needs these arguments:

- `surfaceId` (string, required): a short name for the surface, such as \
"order-summary". Calling again with the same name redraws that surface.
- `components` (array, required): every component of the surface, as one flat list. \
Never leave it out and never send it empty.
- `data` (object, optional): the values the components read through bindings.

The host chooses the component catalog. Do not send a `catalogId` argument.

## How components fit together

The list is flat: no component is written inside another. Each component is an object \
with a unique `id`, a `component` naming its type from the Available Components schema \
in this context, and its properties side by side with those two keys. A parent names its \
children by id: `"children": ["a", "b"]` for layouts, `"child": "a"` for one child \
(Card, Button). Exactly one component has the id `"root"`; the screen shows it and \
whatever it reaches through its children.

## Values from data

A property can hold a literal (`"text": "Hello"`) or a binding to `data`: \
`{{"path": "/customer/name"}}`, a JSON Pointer from the top of `data`. To repeat a \
component once per item of a list, give the parent \
`"children": {{"componentId": "line", "path": "/items"}}`; inside the repeated component, a \
path without a leading slash (`{{"path": "name"}}`) reads from the current item.

## Example

```json
{example}
```

## Rules for a valid call

1. Always send `surfaceId` and a non-empty `components` list.
2. Give the `root` component a layout type (Column, Row, List or Card), not Text or Button.
3. Keep every `id` unique, make every child reference name an existing id, and never let a \
component contain itself.
4. Use only component types and properties listed in the Available Components schema.
5. Write bindings as objects with a `path` key, never as strings such as "{{name}}".
6. Give a Button a `child` (usually a Text) and an `action` of the form \
`{{"event": {{"name": "...", "context": {{...}}}}}}`; `event` is always an object.
7. Use only real image URLs; for a symbol, use an Icon component instead of a placeholder \
picture."""


def guide_context_description(tool_name: str) -> str:
    """Describe the usage-guide context entry for a render tool.

    Args:
        tool_name: the render tool's name, as the agent knows it.

    Returns:
        ``A2UI render tool usage guide — how to call <tool_name> with valid arguments.``
        byte for byte as upstream's middleware writes it.
    """
    return _GUIDE_DESCRIPTION.format(name=tool_name)


def render_tool_guide(tool_name: str) -> str:
    """Write the usage guide for calling a render tool.

    Args:
        tool_name: the render tool's name, as the agent knows it.

    Returns:
        Markdown text: the arguments, how components and bindings work, a complete
        example call (:data:`GUIDE_EXAMPLE`) and the rules that keep a call valid.
    """
    return _GUIDE_TEMPLATE.format(name=tool_name, example=_EXAMPLE_TEXT)


def _example_text(call: dict[str, Any]) -> str:
    """Lay out a call one component per line: short, and still plain JSON."""
    encode = msgspec.json.Encoder().encode
    components = ",\n".join(f"    {encode(item).decode()}" for item in call["components"])
    return (
        f'{{\n  "surfaceId": {encode(call["surfaceId"]).decode()},\n'
        f'  "components": [\n{components}\n  ],\n'
        f'  "data": {encode(call["data"]).decode()}\n}}'
    )


_EXAMPLE_TEXT: Final = _example_text(GUIDE_EXAMPLE)
