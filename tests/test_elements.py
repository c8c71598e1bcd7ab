"""Element handlers (``_convert.elements``): one per basic-catalog component, every element
valid, and media links written so a renderer reads exactly them."""

from __future__ import annotations

from typing import Any

import pytest
from convert_cases import root, run
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._convert import elements
from a2ui_stream._convert.elements import HANDLERS, markdown_link
from a2ui_stream._convert.vocabulary import validate_element
from a2ui_stream._request.catalog import basic_catalog


@pytest.mark.parametrize("version", ["v0.9", "v1.0"])
def test_one_handler_per_basic_component(version: str) -> None:
    """The table converts exactly the basic catalog's components."""
    assert set(HANDLERS) == set(basic_catalog(version).components)


#: One component of each type, with the props that make it whole.
MINIMAL: dict[str, list[dict[str, Any]]] = {
    "Text": [root("Text", text="hi")],
    "Image": [root("Image", url="https://x/a.png")],
    "Row": [root("Row", children=["t"]), {"id": "t", "component": "Text", "text": "x"}],
    "Column": [root("Column", children=["t"]), {"id": "t", "component": "Text", "text": "x"}],
    "List": [root("List", children=["t"]), {"id": "t", "component": "Text", "text": "x"}],
    "Card": [root("Card", child="t"), {"id": "t", "component": "Text", "text": "x"}],
    "Divider": [root("Divider")],
    "Button": [
        root("Button", child="t", action={"event": {"name": "go"}}),
        {"id": "t", "component": "Text", "text": "Go"},
    ],
    "TextField": [root("TextField", label="Name", value="")],
    "CheckBox": [root("CheckBox", label="Ok", value=True)],
    "Icon": [root("Icon", name="star")],
    "Tabs": [
        root("Tabs", tabs=[{"title": "A", "child": "t"}]),
        {"id": "t", "component": "Text", "text": "x"},
    ],
    "Modal": [
        root("Modal", trigger="b", content="t"),
        {"id": "b", "component": "Text", "text": "open"},
        {"id": "t", "component": "Text", "text": "x"},
    ],
    "ChoicePicker": [root("ChoicePicker", options=[{"label": "A", "value": "a"}], value=["a"])],
    "DateTimeInput": [root("DateTimeInput", value="2026-01-02", enableDate=True)],
    "Slider": [root("Slider", value=3, min=0, max=10)],
    "Video": [root("Video", url="https://x/v.mp4")],
    "AudioPlayer": [root("AudioPlayer", url="https://x/a.mp3", description="song")],
}


def test_every_type_has_a_case() -> None:
    """The cases below cover the whole table."""
    assert set(MINIMAL) == set(HANDLERS)


@pytest.mark.parametrize("kind", sorted(MINIMAL))
def test_each_component_gives_a_valid_element(kind: str) -> None:
    """A whole component converts, without a warning, to one element the vocabulary accepts."""
    result = run(*MINIMAL[kind])
    assert result.element is not None
    assert result.warnings == ()
    assert validate_element(result.element) == []


class TestMarkdownLink:
    def test_ordinary_links_come_out_as_given(self) -> None:
        """A plain label and URL are written unchanged."""
        assert markdown_link("Song", "https://x/a.mp3") == (
            "[Song](https://x/a.mp3)",
            "https://x/a.mp3",
        )

    def test_label_syntax_is_escaped_and_lines_joined(self) -> None:
        """Brackets, emphasis and code in the label are escaped; a line ending is a space."""
        markdown, _ = markdown_link("a]*b*`c`\nd", "u")
        assert markdown == "[a\\]\\*b\\*\\`c\\` d](u)"

    def test_destination_syntax_is_percent_encoded(self) -> None:
        """Spaces, parentheses, angle brackets and backslashes cannot end or bend the URL."""
        markdown, href = markdown_link("x", "a b(c)<d>\\e")
        assert href == "a%20b%28c%29%3Cd%3E%5Ce"
        assert markdown == f"[x]({href})"

    def test_character_references_are_escaped(self) -> None:
        """An ``&`` that would start a reference is escaped in the destination."""
        markdown, href = markdown_link("x", "java&#115;cript:x")
        assert href == "java&#115;cript:x"
        assert markdown == "[x](java\\&#115;cript:x)"

    #: Text near the shortcuts' edges: every special character, ASCII (the shortcuts'
    #: case) with controls, references, Unicode spaces and format characters.
    EDGY = st.text(
        st.sampled_from(list("\\[]<>`*_!~&#;\r\n ()x9:/%\x85\xa0\xad\u200b\u2028\u3000\ufeff"))
        | st.characters(max_codepoint=127),
        max_size=8,
    )

    @settings(max_examples=300)
    @given(text=EDGY, url=EDGY)
    def test_the_shortcuts_write_what_the_expressions_write(self, text: str, url: str) -> None:
        """A label or URL that skips an expression is one the expression leaves as it is."""
        label = elements._LINK_TEXT_SPECIAL.sub(r"\\\g<0>", elements._LINE_ENDING.sub(" ", text))
        href = elements._DESTINATION_SPECIAL.sub(elements._percent, url)
        destination = elements._REFERENCE.sub(r"\\&", href)
        assert markdown_link(text, url) == (f"[{label}]({destination})", href)
