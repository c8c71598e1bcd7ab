"""Markdown: CommonMark through markdown-it-py, with raw HTML off and the converter's URLs.

Owns the one parser the page uses and its render rules: links and images pass the
converter's own :func:`~a2ui_stream._convert.elements.url_is_safe` (markdown-it-py asks
``validateLink`` for both), images follow :func:`~a2ui_stream._view.images.image_tag`,
links never send a referrer, and headings start at h4, under the page's own.
markdown-it-py is the optional ``html`` extra; only this layer imports it.

May import: ``a2ui_stream._convert.elements`` (the URL policy) and
:mod:`a2ui_stream._view.images`. Does no I/O.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Final

from markdown_it import MarkdownIt

from a2ui_stream._convert.elements import url_is_safe
from a2ui_stream._view.images import image_tag

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markdown_it.renderer import RendererHTML
    from markdown_it.token import Token
    from markdown_it.utils import EnvType, OptionsDict

__all__ = ["markdown_html"]


class _Markdown(MarkdownIt):
    """CommonMark with raw HTML off, whose links obey the converter's URL policy."""

    def validateLink(self, url: str) -> bool:  # noqa: N802 - markdown-it-py's name
        """Accept exactly the URLs the converter lets reach a browser (for an image)."""
        return url_is_safe(url)


def _image_rule(
    _self: RendererHTML, tokens: Sequence[Token], index: int, _options: OptionsDict, _env: EnvType
) -> str:
    """A Markdown image: shown only from a ``data:image/`` URL, else as its alt text."""
    token = tokens[index]
    alt = "".join(child.content for child in token.children or ())
    return image_tag(str(token.attrGet("src") or ""), alt, "md-image")


def _link_rule(
    renderer: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    """A Markdown link: never sends a referrer, never gives the target a window handle.

    ``validateLink`` lets ``data:image/`` URLs through for images; as a link's target
    one is no image but a document (SVG may run script), so the link loses its href.
    """
    token = tokens[index]
    if not url_is_safe(str(token.attrGet("href") or ""), image=False):
        token.attrs.pop("href", None)
    token.attrSet("rel", "noopener noreferrer nofollow")
    return renderer.renderToken(tokens, index, options, env)


def _heading_rule(
    renderer: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    """A Markdown heading, three levels down: the page's own h1-h3 frame every part."""
    token = tokens[index]
    level = int(token.tag[1])
    token.tag = f"h{min(level + 3, 6)}"
    if token.nesting == 1:
        token.attrSet("class", f"md-h{level}")
    return renderer.renderToken(tokens, index, options, env)


def _markdown_parser() -> MarkdownIt:
    parser = _Markdown("commonmark", {"html": False, "xhtmlOut": False})
    parser.add_render_rule("image", _image_rule)
    parser.add_render_rule("link_open", _link_rule)
    parser.add_render_rule("heading_open", _heading_rule)
    parser.add_render_rule("heading_close", _heading_rule)
    return parser


_MARKDOWN: Final = _markdown_parser()
#: Text that renders as one plain paragraph whatever Markdown does: starts with a letter,
#: holds no Markdown punctuation, nothing to escape, no line break, no trailing space.
_PLAIN: Final = re.compile(r"[^\W\d_](?:[^\W_]|[ ,.;:?!%$/@'-])*(?<! )\Z")


@functools.lru_cache(maxsize=4096)
def markdown_html(text: str) -> str:
    """Markdown source as HTML, under the page's rules (raw HTML off, safe URLs only).

    Args:
        text: the Markdown source.

    Returns:
        The HTML; plain one-line prose takes a shortcut with the same output.
    """
    if _PLAIN.match(text) is not None:
        return f"<p>{text}</p>\n"
    return str(_MARKDOWN.render(text))
