"""The page around the cards, and its text form (``inspect --tree``)."""

from __future__ import annotations

from helpers import ACTION
from html_tree import parse

from a2ui_stream._view.model import Card, Note, Page, Section, Step
from a2ui_stream._view.page import render_page
from a2ui_stream._view.text import page_text, tree_lines


class TestPage:
    def page(self, *, timeline: bool = False) -> Page:
        first = {"$type": "Text", "value": "first"}
        second = {"$type": "Text", "value": "second"}
        live = Card(
            surface_id="s1",
            tool_call_id="a2ui:s1",
            args=second,
            seq=7,
            warnings=('A2UI component "x" was not found.',),
            steps=(Step(seq=3, op="add", args=first), Step(seq=7, op="update", args=second)),
        )
        gone = Card(
            surface_id="s2",
            tool_call_id="a2ui:s2",
            args=first,
            seq=4,
            removed_at=9,
            steps=(Step(seq=4, op="add", args=first), Step(seq=9, op="remove")),
        )
        return Page(
            title="rec.jsonl",
            summary="AG-UI recording",
            sections=(Section(title="Run 1 of 1", details=("run r1",), cards=(live, gone)),),
            notes=(Note(severity="error", text="bad line"),),
            timeline=timeline,
        )

    def test_sections_and_cards(self) -> None:
        """One section per run, one card per part titled with its surfaceId."""
        tree = parse(render_page(self.page()))
        assert [h.text() for h in tree.find_all("h2")] == ["Run 1 of 1 run r1"]
        titles = [h.text() for h in tree.find_all("h3")]
        assert titles == ["s1", "s2 removed by event 9"]
        parts = tree.find_all("article", "part")
        assert "removed" in parts[1].classes
        assert parts[0].find("ul", "warnings").text() == 'A2UI component "x" was not found.'
        assert "drawn by event 7" in parts[0].find("p", "meta").text()
        assert tree.find("section", "diagnostics").find("li", "error").text() == "bad line"

    def test_timeline(self) -> None:
        """Each card lists every state with the seq that caused it."""
        tree = parse(render_page(self.page(timeline=True)))
        steps = [p.text() for p in tree.find_all("p", "step")]
        assert steps == ["event 3 · add", "event 7 · update", "event 4 · add", "event 9 · remove"]
        without = parse(render_page(self.page()))
        assert without.find_all("p", "step") == []

    def test_deterministic(self) -> None:
        """The same page value always gives the same bytes."""
        assert render_page(self.page(timeline=True)) == render_page(self.page(timeline=True))

    def test_empty_page(self) -> None:
        """A page with no sections says so."""
        assert "drew no surface" in render_page(Page(title="x"))


class TestText:
    def test_tree_lines(self) -> None:
        """One line per element, props as JSON, children indented, actions named."""
        tree = {
            "$type": "Card",
            "title": "Order",
            "children": [
                {"$type": "Markdown", "value": "$42"},
                {"$type": "Button", "label": "Pay", "$action": ACTION},
            ],
        }
        assert tree_lines(tree) == [
            'Card title="Order"',
            '  Markdown value="$42"',
            '  Button label="Pay" $action="book" context={"flight":"TP 1351"}',
        ]

    def test_controls_never_reach_the_terminal(self) -> None:
        """Escape sequences an agent wrote are shown escaped."""
        lines = tree_lines({"$type": "Text", "value": "\x1b[31mred\x9b", "\x1bkey": 1})
        assert "\x1b" not in "".join(lines)
        assert "\x9b" not in "".join(lines)

    def test_page_text(self) -> None:
        """Sections, live parts with their trees, removed parts in one line."""
        text = page_text(TestPage().page())
        assert text.splitlines() == [
            "rec.jsonl: AG-UI recording",
            "Run 1 of 1 (run r1)",
            '  surface "s1", drawn by event 7',
            '    Text value="second"',
            '    ! A2UI component "x" was not found.',
            '  surface "s2", drawn by event 4, removed by event 9',
        ]
