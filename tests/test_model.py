"""The page model (``_view.model``): the values a page is drawn from, frozen and plain."""

from __future__ import annotations

import pytest

from a2ui_stream._view.model import Card, Note, Page, Section, Step


def test_defaults_describe_an_empty_live_page() -> None:
    """Unset fields mean: nothing removed, no warnings, no timeline, counted in events."""
    card = Card(surface_id="s", tool_call_id="a2ui:s", args=None, seq=0)
    assert (card.removed_at, card.warnings, card.steps) == (None, (), ())
    assert Step(seq=1, op="remove").args is None
    assert Section(title="Run 1") == Section(title="Run 1", details=(), cards=())
    page = Page(title="t")
    assert (page.summary, page.unit, page.sections, page.notes, page.timeline) == (
        "",
        "event",
        (),
        (),
        False,
    )


@pytest.mark.parametrize(
    "value",
    [
        Step(seq=0, op="add"),
        Card(surface_id="s", tool_call_id="c", args={}, seq=0),
        Section(title="x"),
        Note(severity="error", text="x"),
        Page(title="x"),
    ],
)
def test_frozen(value: Step | Card | Section | Note | Page) -> None:
    """A drawn page cannot be changed under the renderer."""
    field = value.__struct_fields__[0]
    with pytest.raises(AttributeError):
        setattr(value, field, None)


def test_keyword_only_and_equal_by_value() -> None:
    """Fields are named at construction, and equal values are equal pages."""
    with pytest.raises(TypeError):
        Note("error", "x")  # type: ignore[call-arg]
    first = Page(title="t", notes=(Note(severity="error", text="bad"),))
    assert first == Page(title="t", notes=(Note(severity="error", text="bad"),))
    assert first != Page(title="t")
