"""Diagnostic builders shared by the A2UI decoding modules.

Owns the wording and location of the problems that more than one A2UI module reports:
any problem located inside one operation (``$[index]<where>``), a component left out
of a component list (both the v0.9 and the v0.8 rules), and an operation without a
usable ``surfaceId``. Keeping them here lets :mod:`a2ui_stream._wire.legacy` and
:mod:`a2ui_stream._wire.envelope` report like :mod:`a2ui_stream.a2ui` without importing it.

Must not import any A2UI module (they all import this one), nor state, conversion or
shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import Any

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import DICTS

__all__ = ["bad_component", "no_surface", "problem"]


def problem(
    code: Code,
    message: str,
    *,
    index: int,
    where: str = "",
    severity: Severity = Severity.ERROR,
    surface_id: str | None = None,
    component_id: str | None = None,
) -> Diagnostic:
    """Build a diagnostic located inside operation ``index``.

    Args:
        code: the stable code (``Code.OP_MALFORMED``).
        message: one readable sentence.
        index: the operation's position in its list.
        where: the JSON path below the operation (``".updateComponents.components[3]"``).
        severity: ERROR when the operation or component is dropped, WARNING when kept.
        surface_id: the surface concerned, when known.
        component_id: the component concerned, when known.

    Returns:
        The diagnostic, with ``path`` ``$[index]<where>``.
    """
    return Diagnostic(
        code=code,
        message=message,
        severity=severity,
        path=f"$[{index}]{where}",
        surface_id=surface_id,
        component_id=component_id,
    )


def bad_component(item: Any, family: str, index: int, where: str, surface_id: str) -> Diagnostic:
    """Say why one entry of a component list was left out.

    Args:
        item: the entry as received.
        family: the message's version family; v0.8 wraps the type in an object.
        index: the operation's position in its list.
        where: the JSON path of the entry below the operation.
        surface_id: the surface the list belongs to.

    Returns:
        A ``component.malformed`` diagnostic (ERROR: the component is not stored).
    """
    cid = item.get("id") if type(item) in DICTS else None
    if type(item) not in DICTS:
        reason = f"is {type(item).__name__}, not an object"
    elif type(cid) is not str or not cid:
        reason = "has no non-empty string id"
    elif family == "v0.8":
        reason = 'needs "component" as an object with exactly one type key'
    else:
        reason = 'has no non-empty string "component" type'
    return problem(
        Code.COMPONENT_MALFORMED,
        f"Component at {where} in operation {index} {reason}; it was left out.",
        index=index,
        where=where,
        surface_id=surface_id,
        component_id=cid if type(cid) is str else None,
    )


def no_surface(key: str, index: int) -> Diagnostic:
    """Refuse an operation whose ``surfaceId`` is missing, empty or not a string.

    Args:
        key: the operation key (``"updateComponents"``).
        index: the operation's position in its list.

    Returns:
        An ``op.no_surface_id`` diagnostic located at the payload's ``surfaceId``.
    """
    return problem(
        Code.OP_NO_SURFACE_ID,
        f"Operation at index {index} has no valid surfaceId.",
        index=index,
        where=f".{key}.surfaceId",
    )
