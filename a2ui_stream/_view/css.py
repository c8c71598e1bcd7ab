"""Style values from element props: only what a strict grammar accepts reaches the page.

Owns the grammars for the free-form props the vocabulary leaves open (Box width,
height and radius, Card and Box background, Chart colour, numeric gaps and sizes), and
:class:`Rules`, the page's generated style rules. The page carries no ``style``
attributes at all: its Content-Security-Policy allows one stylesheet, by hash, and a
prop value becomes a declaration in that stylesheet only after matching a grammar
here, so no agent text can close the rule or the ``<style>`` element.

Imports nothing from the package. Does no I/O.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["Rules", "css_color", "css_length", "px"]

#: Lengths: a number with an optional unit, or ``auto``; a bare number is pixels.
_LENGTH: Final = re.compile(r"(?:\d{1,5}(?:\.\d{1,3})?(?:px|rem|em|%|vh|vw|ch)?|auto)\Z")
#: Colours: hex, a CSS keyword (letters only), or an rgb()/hsl() function of numbers.
_COLOR: Final = re.compile(
    r"(?:#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(?:rgba?|hsla?)\([0-9.,%\s/a-z]{1,60}\))\Z"
)


def px(value: float) -> str:
    """A number of pixels as CSS, with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text}px"


def css_length(value: Any) -> str | None:
    """A Box width or height as CSS: numbers are pixels, ``"full"`` is 100%.

    Args:
        value: the prop value.

    Returns:
        The CSS length, or ``None`` when the value is not one this page accepts.
    """
    if type(value) is int or type(value) is float:
        return px(value) if 0 <= value <= 100_000 else None
    if type(value) is not str:
        return None
    if value == "full":
        return "100%"
    if _LENGTH.match(value) is None:
        return None
    return f"{value}px" if value[-1].isdigit() else value


def css_color(value: Any) -> str | None:
    """A background or chart colour, or ``None`` when it is not a plain CSS colour.

    Args:
        value: the prop value.

    Returns:
        The value itself when it matches the colour grammar.
    """
    if type(value) is str and _COLOR.match(value) is not None:
        return value
    return None


class Rules:
    """The page's generated style rules: one class per distinct declaration list.

    Class names are handed out in order of first use (``u1``, ``u2``, ...), so the same
    elements always give the same page.
    """

    __slots__ = ("_classes",)

    def __init__(self) -> None:
        """Start with no rules."""
        self._classes: dict[str, str] = {}

    def use(self, declarations: str) -> str:
        """The class name that applies ``declarations`` (already checked by a grammar)."""
        name = self._classes.get(declarations)
        if name is None:
            name = self._classes[declarations] = f"u{len(self._classes) + 1}"
        return name

    def stylesheet(self) -> str:
        """Every rule handed out so far, one per line."""
        return "".join(f".{name}{{{body}}}\n" for body, name in self._classes.items())
