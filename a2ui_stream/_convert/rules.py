"""Rules: what a resolved prop value must be to be copied into an element.

Owns the value rules element handlers apply (a string cut to the string limit, text as
JavaScript prints it, a safe URL, a boolean, a number in a range, an enum mapped onto
the vocabulary), the warnings they give for what they drop or repair, and URL safety.

Each rule is one function of ``(ctx, value, key)`` that returns the value to copy or
``None`` to leave the prop out, and reports through ``ctx.warn``. The interpreter calls
them with its context; a render plan calls the very same functions with a :class:`Probe`,
whose ``warn`` raises :class:`Loud`: a value the rule would warn about, or leave out,
is not the silent case the plan was recorded for, and that scope falls back to the
interpreter. So each rule has one implementation, used on both paths; a plan only tests
the first case of ``string``, ``text``, ``url`` and ``first_choice`` inline (a value
given back as it is) before calling the rule, and a test holds the two to agreeing.

Must not import: other converter modules except bindings and functions. Does no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, Protocol

from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._convert.functions import to_text
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.frozen import CONTAINERS, LISTS
from a2ui_stream._wire.numbers import MAX_SAFE_INTEGER

if TYPE_CHECKING:
    from collections.abc import Mapping

    from a2ui_stream._wire.diagnostics import Severity

__all__ = [
    "RULES",
    "SAFE_PREFIXES",
    "Loud",
    "Probe",
    "Warner",
    "chosen",
    "enum",
    "first_choice",
    "flag",
    "invalid",
    "link",
    "number",
    "string",
    "text",
    "url",
    "url_is_safe",
]

_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f]")
_NUMBER: Final = (int, float)
#: URL beginnings safe without a closer look (render plans test them inline too).
SAFE_PREFIXES: Final = ("https://", "http://")


class Warner(Protocol):
    """What a rule needs of its caller: the string limit and a way to warn."""

    @property
    def max_string(self) -> int:
        """The longest string copied into output."""

    def warn(
        self, code: str, message: str, *, severity: Severity = ..., once: bool = False
    ) -> None:
        """Report one diagnostic about the component being converted."""


def url_is_safe(url: str, *, image: bool = True) -> bool:
    """Keep http(s) and relative URLs, and ``data:image/`` ones where an image is shown.

    Browsers ignore controls in schemes, so they are ignored here too. A ``data:image/``
    URL is only safe as an image's source: followed as a link, ``data:image/svg+xml`` is
    a document that may run script.

    Args:
        url: the URL as given.
        image: whether the URL is an image's source (else a link's target).

    Returns:
        Whether the URL may reach a browser (issue 4, "URL safety").
    """
    if url.startswith(SAFE_PREFIXES) or ":" not in url:
        return True  # the common cases, decided without the expressions below
    cleaned = _CONTROL.sub("", url)
    match = _SCHEME.match(cleaned)
    if match is None:
        return True
    scheme = match.group(1).lower()
    if scheme in {"http", "https"}:
        return True
    return image and scheme == "data" and cleaned[5:].lower().startswith("image/")


def invalid(ctx: Warner, key: str, value: Any) -> None:
    """Warn that a prop value has no counterpart in the vocabulary and was dropped."""
    ctx.warn(
        Code.CONVERT_PROP_INVALID,
        f'Prop "{key}" value {value!r} is not valid in the vocabulary; it was dropped.',
    )


def string(ctx: Warner, value: Any, key: str) -> str | None:
    """A string value, cut to the string limit; ``None`` when not a string."""
    if type(value) is not str:
        return None
    if len(value) > ctx.max_string:
        ctx.warn(Code.CONVERT_STRING_CUT, f'Prop "{key}" was cut to {ctx.max_string} characters.')
        return value[: ctx.max_string]
    return value


def text(ctx: Warner, value: Any, key: str) -> str:
    """Text for a required text prop: numbers and booleans as JavaScript prints them."""
    kind = type(value)
    if kind is str and len(value) <= ctx.max_string:
        return value  # type: ignore[no-any-return]
    if kind is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return string(ctx, str(value), key) or ""
    # An array or object is no text: not printed first (it may hold a million values).
    printed = None if kind in CONTAINERS else to_text(value)
    if printed is None:
        if value is not MISSING and value is not None:
            ctx.warn(Code.CONVERT_PROP_INVALID, f'Prop "{key}" is not text; it was left empty.')
        return ""
    return string(ctx, printed, key) or ""


def url(ctx: Warner, value: Any, key: str) -> str | None:
    """An image's URL when it is a string with a safe scheme, else ``None``."""
    return _url(ctx, value, key, image=True)


def link(ctx: Warner, value: Any, key: str) -> str | None:
    """A link's URL when it is a string with a scheme safe to follow, else ``None``."""
    return _url(ctx, value, key, image=False)


def _url(ctx: Warner, value: Any, key: str, *, image: bool) -> str | None:
    if type(value) is not str:
        return None
    if not url_is_safe(value, image=image):
        ctx.warn(
            Code.CONVERT_UNSAFE_URL,
            f'Prop "{key}" has a URL scheme that is not allowed; it was dropped.',
        )
        return None
    return string(ctx, value, key)


def flag(_ctx: Warner, value: Any, _key: str = "") -> bool | None:
    """A boolean value, else ``None``."""
    return value if type(value) is bool else None


def number(ctx: Warner, value: Any, key: str, low: float, high: float) -> Any:
    """A number in ``[low, high]``; other numbers warn; ``None`` when not in range."""
    if type(value) in _NUMBER:
        if low <= value <= high:
            return value
        invalid(ctx, key, value)
    return None


def enum(ctx: Warner, value: Any, key: str, table: Mapping[str, str | None]) -> str | None:
    """A string mapped through an A2UI-to-vocabulary table; unknown strings warn."""
    if type(value) is str:
        if value in table:
            return table[value]
        invalid(ctx, key, value)
    return None


def _selected(value: Any) -> list[Any]:
    """A choice's selection as a list: one string, a list, or nothing chosen."""
    return [value] if type(value) is str else value if type(value) in LISTS else []


def chosen(_ctx: Warner, value: Any, _key: str, option: str) -> bool:
    """Whether ``option`` is among the selection ``value`` (a string or a list)."""
    return option in _selected(value)


def first_choice(_ctx: Warner, value: Any, _key: str) -> str | None:
    """The first string of the selection ``value``, else ``None``."""
    return next((choice for choice in _selected(value) if type(choice) is str), None)


#: The rules by name, as a render plan calls them.
RULES: Final = {
    "string": string,
    "text": text,
    "url": url,
    "link": link,
    "flag": flag,
    "number": number,
    "enum": enum,
    "chosen": chosen,
    "first_choice": first_choice,
}


class Loud(Exception):  # noqa: N818 - a signal between a probe and a plan, not an error
    """A rule would have warned: the value is not the silent case a plan replays."""


class Probe:
    """The context a render plan runs rules with: every warning raises :class:`Loud`.

    Args:
        max_string: the string limit.
    """

    __slots__ = ("max_string",)

    def __init__(self, max_string: int) -> None:
        self.max_string = max_string

    def warn(self, code: str, message: str, **_where: Any) -> None:
        """Refuse: the caller falls back to the interpreter, which warns for real."""
        raise Loud(code, message)
