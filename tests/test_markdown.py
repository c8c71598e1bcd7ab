"""Markdown drawn as HTML: what CommonMark would draw, raw HTML never."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from a2ui_stream._view import markdown as view_markdown
from a2ui_stream._view.markdown import markdown_html

#: Text the shortcut takes (from its own pattern, and from a narrower ASCII one that
#: finds more punctuation runs): it must render exactly as markdown-it-py renders it.
PLAIN = st.from_regex(view_markdown._PLAIN, fullmatch=True) | st.from_regex(
    r"[A-Za-z][A-Za-z0-9 ,.;:?!%$/@'-]{0,40}", fullmatch=True
)


class TestMarkdown:
    @settings(max_examples=300, deadline=None)
    @given(PLAIN)
    def test_plain_text_shortcut_matches_the_library(self, value: str) -> None:
        """The plain-prose shortcut gives markdown-it-py's own output."""
        assume(view_markdown._PLAIN.match(value) is not None)  # not one ending in a space
        library = MarkdownIt("commonmark", {"html": False}).render(value)
        assert markdown_html.__wrapped__(value) == library

    def test_the_shortcut_is_taken(self) -> None:
        """Ordinary prose skips the parser (the benchmark depends on it)."""
        assert view_markdown._PLAIN.match("Seat 14C confirmed, gate 5.")
        assert not view_markdown._PLAIN.match("1. a list")
        assert not view_markdown._PLAIN.match("*emphasis*")
