"""The text tree (``_view.text``): what ``inspect --tree`` prints, and the counting words."""

from __future__ import annotations

import pytest
from helpers import ACTION, nested, sample_page

from a2ui_stream._view.model import Card, Page, Section
from a2ui_stream._view.text import MAX_DEPTH, MAX_VALUE, page_text, plural, printable, tree_lines


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
        text = page_text(sample_page())
        assert text.splitlines() == [
            "rec.jsonl: AG-UI recording",
            "Run 1 of 1 (run r1)",
            '  surface "s1", drawn by event 7',
            '    Text value="second"',
            '    ! A2UI component "x" was not found.',
            '  surface "s2", drawn by event 4, removed by event 9',
        ]

    def test_function_actions_and_odd_values(self) -> None:
        """A function action shows its call; a non-element and an odd $type say so."""
        call = {"type": "a2ui:function", "call": "open", "args": {"url": "u"}}
        assert tree_lines({"$type": "Button", "$action": call}) == [
            'Button $action="open"() args={"url":"u"}'
        ]
        assert tree_lines([1, 2]) == ["(not an element) [1,2]"]
        assert tree_lines({"$type": "no such"}) == ['(type "no such")']

    def test_long_values_are_cut(self) -> None:
        """A prop shows at most MAX_VALUE characters, the cut marked."""
        [line] = tree_lines({"$type": "Text", "value": "x" * 500})
        shown = line.removeprefix("Text value=")
        assert len(shown) == MAX_VALUE
        assert shown.endswith("…")

    def test_deep_trees_stop(self) -> None:
        """Past MAX_DEPTH levels one line says the rest is not shown."""
        tree: dict[str, object] = {"$type": "Text", "value": "leaf"}
        for _ in range(MAX_DEPTH + 5):
            tree = {"$type": "Col", "children": [tree]}
        lines = tree_lines(tree)
        assert len(lines) == MAX_DEPTH + 1
        assert lines[-1].strip() == "… deeper elements not shown"

    def test_a_single_child_is_indented_too(self) -> None:
        """``children`` holding one element (not a list) is still a child."""
        tree = {"$type": "Card", "children": {"$type": "Text", "value": "x"}}
        assert tree_lines(tree, indent=2) == ["  Card", '    Text value="x"']

    def test_empty_page_and_sections(self) -> None:
        """A page without sections, a section without cards and a restored card say so."""
        assert page_text(Page(title="x")) == "x\n  nothing to show: the input drew no surface\n"
        restored = Card(surface_id="s", tool_call_id="a2ui:s", args=None, seq=None)
        page = Page(
            title="x",
            unit="message",
            sections=(Section(title="A"), Section(title="B", cards=(restored,))),
        )
        assert page_text(page).splitlines()[1:] == [
            "A",
            "  no surface was drawn",
            "B",
            '  surface "s", restored from history',
            "    (not an element) null",
        ]

    def test_page_text_of_a_nested_value(self) -> None:
        """A card of nested arrays prints one line per level, never raising."""
        card = Card(surface_id="s", tool_call_id="a2ui:s", args=nested(3), seq=0)
        text = page_text(Page(title="x", sections=(Section(title="A", cards=(card,)),)))
        assert text.splitlines()[-1] == "    (not an element) [[[1]]]"


class TestWords:
    @pytest.mark.parametrize(
        ("count", "expected"),
        [(0, "0 parts"), (1, "1 part"), (2, "2 parts"), (1234, "1,234 parts")],
    )
    def test_plural(self, count: int, expected: str) -> None:
        """The noun is plural unless the count is one; counts are grouped by thousands."""
        assert plural(count, "part") == expected

    def test_printable(self) -> None:
        """Controls, C1 codes and bidi overrides are escaped; plain text is untouched."""
        assert printable("plain é") == "plain é"
        assert printable("a\x1b[31mb\x9b\u202ec") == "a\\x1b[31mb\\x9b\\u202ec"
        assert printable("one\ntwo\tx") == "one\\x0atwo\\x09x"
        assert printable("one\ntwo\tx", keep="\n") == "one\ntwo\\x09x"
