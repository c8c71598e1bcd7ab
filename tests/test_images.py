"""Images (``_view.images``): a ``data:image/`` URL is shown, any other becomes a placeholder."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from html_tree import parse

from a2ui_stream._view.images import image_tag

DOT = "data:image/png;base64,iVBORw0KGgo="


def img(src: str, alt: str = "a picture", classes: str = "image") -> dict[str, str]:
    """The attributes of the tag ``image_tag`` writes, parsed."""
    [node] = parse(image_tag(src, alt, classes)).find_all("img")
    return {key: value or "" for key, value in node.attrs.items()}


def test_data_image_is_shown_as_given() -> None:
    """A data: image URL goes into src unchanged, with no tooltip and no extra class."""
    attrs = img(DOT, "dot")
    assert attrs == {"class": "image", "src": DOT, "alt": "dot"}


@pytest.mark.parametrize(
    "src",
    [
        "https://cdn.example/photos/cat.png",
        "http://x/y.jpg",
        "//tracker.example/pixel.gif",
        "data:text/html;base64,PHNjcmlwdD4=",
        "javascript:alert(1)",
        "relative/img.png",
    ],
)
def test_anything_else_loads_nothing(src: str) -> None:
    """Any other URL is a placeholder: an SVG data: URL of our own, the URL in the tooltip."""
    attrs = img(src)
    assert attrs["src"].startswith("data:image/svg+xml;charset=utf-8,")
    assert src not in attrs["src"]
    assert attrs["class"] == "image remote"
    assert attrs["title"] == f"not loaded: {src}"
    assert attrs["alt"] == "a picture"


def test_placeholder_names_the_file() -> None:
    """The placeholder shows the URL's file name, cut when long; no URL shows ``image``."""
    assert ">cat.png</text>" in unquote(img("https://cdn.example/photos/cat.png?x=1")["src"])
    long_name = "a" * 40 + ".png"
    assert ">" + "a" * 27 + "…</text>" in unquote(img(f"https://x/{long_name}")["src"])
    empty = img("")
    assert ">image</text>" in unquote(empty["src"])
    assert empty["title"] == "no image URL"


def test_everything_is_escaped() -> None:
    """Quotes and markup in the URL, the alt text or the file name never leave an attribute."""
    hostile = '"><script>x</script>'
    markup = image_tag(f"https://x/{hostile}", hostile, "image")
    assert "<script" not in markup
    tree = parse(markup)
    assert [node.tag for node in tree.find_all()] == ["#document", "img"]
    assert tree.find("img").attrs["alt"] == hostile
