"""The fixed stylesheet (``_view.style``): a rule for every class the elements are drawn
with, and nothing a page would load."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers import page_of

from a2ui_stream._view.style import STYLESHEET

#: Classes that name an element for its children's rules or for a reader, with no rule
#: of their own.
HOOKS = frozenset({"carousel", "bar"})

#: Elements with every size, weight, colour, alignment and justification the view knows.
SIZES = ("sm", "md", "lg", "xl", "2xl", "3xl")
WEIGHTS = ("normal", "medium", "semibold", "bold")
COLOURS = ("emphasis", "secondary", "alpha-70", "white", "white-70", "white-50")
JUSTIFY = ("start", "center", "end", "between")
STYLED: list[dict[str, Any]] = [
    *({"$type": "Text", "value": "x", "size": s} for s in SIZES),
    *({"$type": "Text", "value": "x", "weight": w} for w in WEIGHTS),
    *({"$type": "Text", "value": "x", "color": c} for c in COLOURS),
    *({"$type": "Row", "align": a, "children": []} for a in ("start", "center", "end")),
    *({"$type": "Row", "justify": j, "children": []} for j in JUSTIFY),
    {"$type": "Header", "text": "x", "size": "3xl"},
    {"$type": "Icon", "name": "sun", "size": "lg"},
    {"$type": "Caption", "value": "x"},
    {"$type": "Markdown", "value": "# x"},
    {"$type": "Card", "children": [{"$type": "Text", "value": "x"}]},
]


def styled_classes(markup: str) -> set[str]:
    """Every class name the markup's elements carry, the generated ``u`` rules left out."""
    found = {name for value in re.findall(r'class="([^"]*)"', markup) for name in value.split()}
    return {name for name in found if not re.fullmatch(r"u\d+", name)}


def has_rule(name: str) -> bool:
    """Whether the fixed stylesheet has a selector naming the class."""
    return re.search(rf"\.{re.escape(name)}(?![\w-])", STYLESHEET) is not None


@pytest.mark.parametrize("element", STYLED, ids=lambda element: repr(element)[:60])
def test_every_class_drawn_has_a_rule(element: dict[str, Any]) -> None:
    """Each class the page writes for an element is styled (or is a known hook)."""
    classes = styled_classes(page_of(element))
    assert classes
    assert {name for name in classes if not has_rule(name)} <= HOOKS


def test_hooks_are_unstyled_on_purpose() -> None:
    """The hooks really have no rule: a rule added for one belongs out of HOOKS."""
    assert not any(has_rule(name) for name in HOOKS)


def test_the_generated_names_are_free() -> None:
    """No fixed rule uses a ``u<n>`` class, the names the generated rules take."""
    assert re.search(r"\.u\d+(?![\w-])", STYLESHEET) is None


def test_nothing_is_loaded() -> None:
    """System fonts only, no imports and no URLs: the stylesheet fetches nothing."""
    for needle in ("url(", "@import", "@font-face", "expression("):
        assert needle not in STYLESHEET.lower()
