"""The page around the cards (``_view.page``)."""

from __future__ import annotations

from helpers import sample_page
from html_tree import parse

from a2ui_stream._view.model import Page
from a2ui_stream._view.page import render_page


class TestPage:
    def test_sections_and_cards(self) -> None:
        """One section per run, one card per part titled with its surfaceId."""
        tree = parse(render_page(sample_page()))
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
        tree = parse(render_page(sample_page(timeline=True)))
        steps = [p.text() for p in tree.find_all("p", "step")]
        assert steps == ["event 3 · add", "event 7 · update", "event 4 · add", "event 9 · remove"]
        without = parse(render_page(sample_page()))
        assert without.find_all("p", "step") == []

    def test_deterministic(self) -> None:
        """The same page value always gives the same bytes."""
        assert render_page(sample_page(timeline=True)) == render_page(sample_page(timeline=True))

    def test_empty_page(self) -> None:
        """A page with no sections says so."""
        assert "drew no surface" in render_page(Page(title="x"))
