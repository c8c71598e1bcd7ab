"""Images: an ``<img>`` that loads nothing from the network, for elements and Markdown.

Owns the one rule both image paths follow: a ``data:image/`` URL the converter's policy
accepts is shown as it is; any other URL is never put in ``src``. Such an image is drawn
as a placeholder, an SVG of our own in a ``data:`` URL naming the file, while ``alt``
keeps the agent's text and the tooltip names the URL. Opening a page therefore fetches
nothing, whatever the Content-Security-Policy of the viewer.

May import: ``a2ui_stream._convert.elements`` (the URL policy). Does no I/O.
"""

from __future__ import annotations

from html import escape
from typing import Final
from urllib.parse import quote, urlsplit

from a2ui_stream._convert.elements import url_is_safe

__all__ = ["image_tag"]

#: Characters of the file name a placeholder shows.
_NAME_CHARS: Final = 28
_PLACEHOLDER: Final = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 100" width="160" height="100">'
    '<rect width="160" height="100" fill="#eef0f3"/>'
    '<path d="M58 64l15-17 10 11 8-7 16 13z" fill="#c4c9d1"/>'
    '<circle cx="97" cy="40" r="5" fill="#c4c9d1"/>'
    '<text x="80" y="86" font-family="sans-serif" font-size="9" fill="#6b7280"'
    ' text-anchor="middle">{name}</text></svg>'
)


def _file_name(url: str) -> str:
    try:
        path = urlsplit(url).path
    except ValueError:
        path = url
    name = path.rstrip("/").rsplit("/", 1)[-1] or "image"
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1] + "…"


def _placeholder(url: str) -> str:
    svg = _PLACEHOLDER.format(name=escape(_file_name(url)))
    return "data:image/svg+xml;charset=utf-8," + quote(svg, safe=" /:=,")


def image_tag(src: str, alt: str, classes: str) -> str:
    """The ``<img>`` of an image, or of its placeholder when it would need the network.

    Args:
        src: the image URL as given (any string; ``""`` when there is none).
        alt: its alternative text.
        classes: the element's classes (``remote`` is added for a placeholder).

    Returns:
        The tag, every attribute escaped.
    """
    if src[:11].lower() == "data:image/" and url_is_safe(src):
        return f'<img class="{classes}" src="{escape(src)}" alt="{escape(alt)}">'
    title = f"not loaded: {src}" if src else "no image URL"
    return (
        f'<img class="{classes} remote" src="{escape(_placeholder(src))}" alt="{escape(alt)}"'
        f' title="{escape(title)}">'
    )
