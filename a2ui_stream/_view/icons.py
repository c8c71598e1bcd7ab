"""Icons: the vocabulary's 24 icon names drawn as inline SVG, and nothing else.

Owns one small line drawing per name on a 24-unit grid, stroked in the text colour by
the page's stylesheet (``.icon``), so an icon needs no font, no file and no network.
The drawings are plain geometry written for this package.

Imports nothing from the package (a test holds the names to the vocabulary's). Does
no I/O.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ICONS"]

_CLOUD = "M7 14h10a4 4 0 0 0 .5-8 6 6 0 0 0-11.5 1.5A3.3 3.3 0 0 0 7 14z"

#: Icon name -> the SVG shapes inside its ``<svg viewBox="0 0 24 24">``.
ICONS: Final[dict[str, str]] = {
    "sun": (
        '<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4'
        ' 1.4M17.7 17.7l1.4 1.4M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>'
    ),
    "moon": '<path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z"/>',
    "cloud": '<path d="M7 18h10a4 4 0 0 0 .5-8 6 6 0 0 0-11.5 1.5A3.5 3.5 0 0 0 7 18z"/>',
    "rain": f'<path d="{_CLOUD}"/><path d="M8 17l-1 3M12 17l-1 3M16 17l-1 3"/>',
    "snow": f'<path d="{_CLOUD}"/><path d="M8 18h.01M12 18h.01M16 18h.01M10 21h.01M14 21h.01"/>',
    "wind": '<path d="M3 8h11a3 3 0 1 0-3-3M3 12h16a3 3 0 1 1-3 3M3 16h8"/>',
    "play": '<path d="M7 4l13 8-13 8z"/>',
    "pause": '<path d="M8 4v16M16 4v16"/>',
    "check": '<path d="M4 12l5 5L20 6"/>',
    "x": '<path d="M5 5l14 14M19 5L5 19"/>',
    "star": '<path d="M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3l-5.5 2.9 1-6.2L3 9.6l6.2-.9z"/>',
    "heart": '<path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"/>',
    "arrow-right": '<path d="M4 12h16M14 6l6 6-6 6"/>',
    "arrow-up-right": '<path d="M7 17L17 7M8 7h9v9"/>',
    "chevron-right": '<path d="M9 5l7 7-7 7"/>',
    "calendar": (
        '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>'
    ),
    "clock": '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
    "map-pin": (
        '<path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z"/>'
        '<circle cx="12" cy="9.5" r="2.5"/>'
    ),
    "plane": (
        '<path d="M12 2c1 0 1.5 1 1.5 2v5l7 4v2l-7-2v4l2 2v1.5L12 19.5l-3.5 1V19l2-2v-4l-7'
        ' 2v-2l7-4V4c0-1 .5-2 1.5-2z"/>'
    ),
    "truck": (
        '<path d="M2 6h11v10H2zM13 10h4l3 3v3h-7z"/>'
        '<circle cx="6" cy="18" r="2"/><circle cx="17" cy="18" r="2"/>'
    ),
    "credit-card": '<rect x="2" y="5" width="20" height="14" rx="2"/><path d="M2 10h20M6 15h4"/>',
    "user": '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
    "search": '<circle cx="11" cy="11" r="7"/><path d="M16 16l5 5"/>',
    "bell": '<path d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 21h4"/>',
}
