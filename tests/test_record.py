"""Recording (``_convert.record``): a component set walked without data.

Whether recorded plans replay what the walk gives is test_convert_tiers' and
test_plans' (which also checks that an ordinary surface records with no island); here
is what a recording holds where data would be read, and that it never reads the data.
"""

from __future__ import annotations

import pytest
from convert_cases import root, surface

from a2ui_stream._convert.elements import HANDLERS
from a2ui_stream._convert.record import Hole, Read, Template, Uncompilable, record
from a2ui_stream._convert.walk import Setup
from a2ui_stream._wire.limits import Limits

SETUP = Setup(HANDLERS, Limits())


def test_bound_props_are_holes_naming_their_read() -> None:
    """A prop bound to data is a hole reading its pointer from the root model."""
    element, scope = record(SETUP, surface(root("Text", text={"path": "/user/name"})))
    assert isinstance(element, dict)
    hole = element["value"]
    assert isinstance(hole, Hole)
    assert hole.read == Read("root", ("user", "name"))
    assert scope.item is False


def test_a_template_is_a_scope_of_its_own() -> None:
    """A list template is recorded once for all its items, reading the list it expands."""
    components = [
        root("List", children={"componentId": "row", "path": "/items"}),
        {"id": "row", "component": "Text", "text": {"path": "name"}},
    ]
    _, scope = record(SETUP, surface(*components))
    [template] = [event for event in scope.events if type(event) is Template]
    assert template.read == Read("root", ("items",))
    assert template.scope.item is True


def test_the_data_model_is_never_read() -> None:
    """Whatever the data, the recording is the same: holes stand for it."""
    text = root("Text", text={"path": "/n"})
    without, _ = record(SETUP, surface(text))
    with_data, _ = record(SETUP, surface(text, data={"n": "x"}))
    assert without["value"].read == with_data["value"].read


def test_a_hole_refuses_to_be_looked_at() -> None:
    """Truth, equality and formatting of a hole raise: only placing it is allowed."""
    hole = Hole(Read("root", ("n",)))
    for look in (bool, str, lambda h: h == 1, lambda h: h["k"], len):
        with pytest.raises(Uncompilable):
            look(hole)
    assert hole.then("string").rules == (("string", ()),)
