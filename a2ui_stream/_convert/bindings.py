"""Bindings: how A2UI prop values point into the data model, and reading what they point at.

Owns the shapes of the dynamic values a component prop can hold (``{"path"}`` and
v1.0's ``{"@path"}`` bindings, ``{"call"}`` function calls, the three template forms
of ``children``), splitting JSON Pointers into segments, and walking decoded data by
those segments. Everything here is a pure function of its arguments.

Must not import: other package modules but :mod:`~a2ui_stream._tree.gaps` (it sits
below the whole converter). Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream._tree.gaps import GAP
from a2ui_stream._wire.frozen import DICTS, LISTS

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "MISSING",
    "binding_of",
    "call_of",
    "field_name",
    "split_pointer",
    "template_of",
    "walk",
]

#: JavaScript ``undefined``: absent, unlike JSON ``null``. A prop that resolves to it
#: counts as not given (upstream's "first defined" rule).
MISSING: Final = msgspec.UNSET


def split_pointer(pointer: str) -> tuple[str, ...]:
    """Split a JSON Pointer, absolute (``/a/b``) or relative (``a/b``), into decoded segments.

    ``""`` and ``"/"`` both name the whole value (upstream treats them alike).

    Args:
        pointer: the pointer text.

    Returns:
        The segments with ``~1`` and ``~0`` decoded (RFC 6901 section 4).
    """
    body = pointer[1:] if pointer[:1] == "/" else pointer
    if not body:
        return ()
    if "~" not in body:
        return tuple(body.split("/"))
    return tuple(s.replace("~1", "/").replace("~0", "~") for s in body.split("/"))


def _index(segment: str, size: int) -> int:
    """The array index a segment names, or ``-1``: canonical decimal only (RFC 6901)."""
    if (
        segment.isdigit()
        and segment.isascii()
        and (segment[0] != "0" or segment == "0")
        and int(segment) < size
    ):
        return int(segment)
    return -1


def walk(value: Any, segments: tuple[str, ...]) -> Any:
    """Read decoded data at ``segments``: own keys of objects, canonical indices of arrays.

    Args:
        value: the decoded JSON value to read from (``MISSING`` reads as missing).
        segments: decoded pointer segments.

    Returns:
        The value found, or ``MISSING``; a list's gap reads as ``MISSING`` too (a
        JavaScript hole reads as ``undefined``), and so does any step past one.
    """
    for segment in segments:
        kind = type(value)
        if kind in DICTS:
            value = value.get(segment, MISSING)
        elif kind in LISTS:
            index = _index(segment, len(value))
            if index < 0:
                return MISSING
            value = value[index]
        else:
            return MISSING
    return MISSING if value is GAP else value


def binding_of(value: dict[str, Any]) -> str | None:
    """The pointer of a ``{"path"}`` or ``{"@path"}`` binding object, else ``None``."""
    if len(value) == 1:
        path = value.get("path", value.get("@path"))
        if type(path) is str:
            return path
    return None


def call_of(value: dict[str, Any]) -> tuple[str, Any] | None:
    """Function name and raw args of a ``{"call"}`` or ``{"@call"}`` object, else ``None``."""
    name = value.get("call", value.get("@call"))
    if type(name) is str and "path" not in value and "@path" not in value:
        return name, value.get("args")
    return None


def template_of(children: dict[str, Any]) -> tuple[str, str] | None:
    """``(componentId, pointer)`` of a ``children`` template object, else ``None``.

    Three forms (issue 4, "Templates in every form"): the spec's bare
    ``{"componentId", "path"}`` (v0.9, v1.0), upstream's ``{"template": {"componentId",
    "path"}}``, and v0.8's ``{"template": {"componentId", "dataBinding"}}``.
    """
    if len(children) == 1 and type(children.get("template")) in DICTS:
        inner = children["template"]
        path = inner.get("path", inner.get("dataBinding"))
        if len(inner) == 2 and type(inner.get("componentId")) is str and type(path) is str:
            return inner["componentId"], path
        return None
    if len(children) == 2 and type(children.get("componentId")) is str:
        path = children.get("path")
        if type(path) is str:
            return children["componentId"], path
    return None


def field_name(props: Mapping[str, Any]) -> str | None:
    """Upstream's form field ``name``: the last segment of the raw value binding.

    Args:
        props: the component's props.

    Returns:
        The decoded last segment of the first of ``text``, ``value``, ``binding`` that
        is present, when it is a binding to something below the root; else ``None``.
    """
    for key in ("text", "value", "binding"):
        if key in props:
            raw = props[key]
            path = binding_of(raw) if type(raw) in DICTS else None
            if path is None or path in {"", "/"}:
                return None
            name = path.rsplit("/", 1)[-1]
            return name.replace("~1", "/").replace("~0", "~") if "~" in name else name
    return None
