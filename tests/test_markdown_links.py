"""Media links rendered by a real CommonMark implementation: no unsafe href comes out.

Video and AudioPlayer become a Markdown link ``[label](url)``. Each case is converted,
rendered by markdown-it-py in CommonMark mode with raw HTML on and a link filter that
lets everything through (the most permissive renderer), and the HTML is read back with
the standard library's parser. A browser's reading of each ``href`` and ``src`` decides
whether it is safe to follow, independently of the converter's own check: no scheme
(relative) or ``http``/``https``. A ``data:image/`` URL is safe only as an image's
source: followed, ``data:image/svg+xml`` is a document that may run script. The link
must also be the only element besides the paragraph, carry the label as its text, and
point where the converter says.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from a2ui_stream._convert.converter import Converter
from a2ui_stream._convert.elements import markdown_link, url_is_safe
from a2ui_stream._state.surface import Surface
from a2ui_stream.a2ui import Component

CONVERTER = Converter()


class _Permissive(MarkdownIt):
    """markdown-it with its link filter off: every destination becomes an href."""

    def validateLink(self, url: str) -> bool:  # noqa: N802, ARG002 - the library's name
        return True


#: The most permissive CommonMark renderer: raw HTML allowed, no link filter.
PERMISSIVE = _Permissive("commonmark", {"html": True})

#: Hostile URLs: the probe's, and their Markdown-specific relatives.
HOSTILE_URLS = [
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "\x00javascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "data:image/png;base64,AA",
    " DATA:image/svg+xml;base64,PHN2Zz4=",
    "file:///etc/passwd",
    "//evil.example/x.png",
    "\\\\evil.example\\x",
    "/\\evil.example",
    "javascript%3Aalert(1)",
    "%6Aavascript:alert(1)",
    "javascript&#58;alert(1)",
    "javascript&#x3A;alert(1)",
    "javascript&#X3a;alert(1)",
    "javascript&colon;alert(1)",
    "javascript\\:alert(1)",
    "javascript\\&#58;alert(1)",
    "\u00a0javascript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "jav&Tab;ascript:alert(1)",
    "jav&NewLine;ascript:alert(1)",
    "http:evil",
    "about:blank",
    "https://ok.example/x\n\n<img src=x onerror=alert(1)>",
    "https://ok.example/x\n[c](javascript:alert%281%29",
    "https://ok.example/x\n\n[c]:\njavascript:alert(1)\n\n[c]",
    "https://ok.example/x)[c](javascript:alert(1)",
    "https://ok.example/x> <javascript:alert(1)>",
    "<javascript:alert(1)>",
    'https://ok.example/x "t")[c](javascript:alert(1))',
    "https://ok.example/x\r\n\r\n[c]: javascript:alert(1)\r\n\r\n[c]",
    "relative\\)[c](javascript:alert(1))",
    "https://ok.example/`x`",
]
HOSTILE_LABELS = [
    "",
    "plain",
    "Ep [1]",
    "a\\",
    "a](javascript:alert(1))[b",
    "<javascript:alert(1)>",
    "<img src=x onerror=alert(1)>",
    "x\n\n[c]: javascript:alert(1)\n\n[c]",
    "x\n<script>alert(1)</script>",
    "`code](javascript:alert(1))`",
    "![i](javascript:alert(1))",
    "&#91;c&#93;(javascript:alert(1))",
    "a\r\nb\rc",
]
#: Pieces the generated corpus is made of: Markdown syntax, references, schemes.
TOKENS = [
    "\\", "[", "]", "(", ")", "<", ">", "&", "#", ";", ":", "`", "!", "*", "_", '"', "'",
    " ", "\n", "\r", "\t", "\x00", "%", "%3A", "&#58;", "&#x3a;", "&colon;", "&amp;", "&Tab;",
    "javascript", "java", "script", "alert(1)", "https://ok.example/", "data:image/png,",
    "[c]: ", "\n\n", "<img src=x onerror=alert(1)>", "x", "1",
]  # fmt: skip


class _Html(HTMLParser):
    """Collects the tags, their URL attributes and the text inside ``<a>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.urls: list[str] = []
        self.link_text: list[str] = []
        self._in_link = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.urls.extend(value or "" for name, value in attrs if name in {"href", "src"})
        self._in_link += tag == "a"

    def handle_endtag(self, tag: str) -> None:
        self._in_link -= tag == "a"

    def handle_data(self, data: str) -> None:
        if self._in_link:
            self.link_text.append(data)


def browser_safe(url: str) -> bool:
    """Judge a link's URL as a browser reads it, without the converter's code.

    A browser strips leading and trailing C0 controls and spaces, removes every tab and
    line feed, and takes a scheme from the start: letters first, then letters, digits,
    ``+``, ``-``, ``.``, up to ``:``.
    """
    cleaned = re.sub(r"[\t\n\r]", "", url.strip("".join(map(chr, range(0x21)))))
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+\-.]*):", cleaned)
    if scheme is None:
        return True
    return scheme.group(1).lower() in {"http", "https"}


def rendered(markdown: str) -> _Html:
    html = _Html()
    html.feed(PERMISSIVE.render(markdown))
    html.close()
    return html


def media(url: str, label: str, kind: str = "Video") -> tuple[str | None, list[str]]:
    """Convert one media component; return its Markdown (``None``: dropped) and codes."""
    props: dict[str, Any] = {"id": "root", "component": kind, "url": url}
    if label:
        props["description"] = label
    components = {"root": Component(id="root", component=kind, props=props)}
    surface = Surface(
        surface_id="s", version="v0.9", components=components, data_model=msgspec.UNSET
    )
    result = CONVERTER.convert(surface)
    codes = [warning.code for warning in result.warnings]
    if result.element is None:
        return None, codes
    assert result.element["$type"] == "Markdown"
    return result.element["value"], codes


def check(url: str, label: str) -> None:
    """The converted link renders as one safe link with the label as its text."""
    for kind in ("Video", "AudioPlayer"):
        markdown, codes = media(url, label, kind)
        if markdown is None:
            assert "convert.unsafe_url" in codes
            assert not url_is_safe(url, image=False)
            continue
        html = rendered(markdown)
        assert all(browser_safe(found) for found in html.urls), (markdown, html.urls)
        assert html.tags == ["p", "a"], (markdown, html.tags)
        # CommonMark reads NUL as U+FFFD.
        text = re.sub(r"\r\n?|\n", " ", label).replace("\x00", "\ufffd") or kind
        assert "".join(html.link_text) == text, markdown
        _, href = markdown_link(text, url)
        assert html.urls == [PERMISSIVE.normalizeLink(href)], markdown


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_hostile_urls_give_no_unsafe_href(url: str) -> None:
    check(url, "")


@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_hostile_labels_stay_text(label: str) -> None:
    check("https://ok.example/v.mp4", label)
    check("media/a b(1).mp3", label)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(TOKENS), max_size=12).map("".join),
    st.lists(st.sampled_from(TOKENS), max_size=8).map("".join),
)
def test_generated_links_give_no_unsafe_href(url: str, label: str) -> None:
    check(url, label)


def test_references_that_would_decode_to_a_scheme_are_kept_as_written() -> None:
    """``&#58;`` stays the five characters it is: the href is relative, not javascript."""
    markdown, _ = media("javascript&#58;alert(1)", "")
    assert markdown == "[Video](javascript\\&#58;alert%281%29)"
    assert rendered(markdown).urls == ["javascript&#58;alert%281%29"]


@pytest.mark.parametrize(
    ("url", "label", "markdown"),
    [
        ("https://x/v.mp4", "", "[Video](https://x/v.mp4)"),
        ("/a b.mp3", "Ep [1]", "[Ep \\[1\\]](/a%20b.mp3)"),
        (
            "https://x/v.mp4?a=1&b=2#t=3",
            "Tom & Jerry",
            "[Tom & Jerry](https://x/v.mp4?a=1&b=2#t=3)",
        ),
        ("https://x/%E2%9C%93/\u00e9.mp4", "\u00dcn", "[\u00dcn](https://x/%E2%9C%93/\u00e9.mp4)"),
    ],
)
def test_ordinary_links_are_unchanged(url: str, label: str, markdown: str) -> None:
    """Safe, ordinary URLs and titles come out as they did before the escaping."""
    assert media(url, label)[0] == markdown


def test_markdown_in_a_title_is_shown_as_written() -> None:
    """A title is plain text: emphasis, code and references in it are escaped."""
    markdown, _ = media("https://x/v.mp4", "*bold* `code` &amp; my_file")
    assert markdown == "[\\*bold\\* \\`code\\` \\&amp; my\\_file](https://x/v.mp4)"
    assert "".join(rendered(markdown).link_text) == "*bold* `code` &amp; my_file"


def test_the_renderer_used_would_link_anything() -> None:
    """The renderer and judge can fail a case: agent Markdown with a javascript link."""
    html = rendered("[x](javascript:alert(1)) [y](java&#115;cript:alert(1))")
    assert html.urls == ["javascript:alert(1)", "javascript:alert(1)"]
    assert not any(browser_safe(url) for url in html.urls)
