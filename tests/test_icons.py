"""Icons (``_view.icons``): one inline drawing per vocabulary icon name."""

from __future__ import annotations

import re

import pytest

from a2ui_stream._convert.vocabulary import ICON_NAMES
from a2ui_stream._view.icons import ICONS


def test_icons_are_the_vocabulary_names() -> None:
    """There is one drawing per icon name of the vocabulary, and no other."""
    assert set(ICONS) == set(ICON_NAMES)


@pytest.mark.parametrize("name", sorted(ICONS))
def test_drawings_are_plain_geometry(name: str) -> None:
    """Each drawing is SVG shapes only: no script, link, style, text or URL."""
    drawing = ICONS[name]
    tags = re.findall(r"<(\w+)", drawing)
    assert tags
    assert set(tags) <= {"path", "circle", "rect", "line", "polyline", "polygon"}
    assert not re.search(r"href|url\(|on\w+=|style=|<script", drawing, re.IGNORECASE)


def test_drawings_differ() -> None:
    """No two names draw the same picture."""
    assert len(set(ICONS.values())) == len(ICONS)
