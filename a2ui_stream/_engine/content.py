"""Activity content as a JSON document: patched and read within a depth and a size bound.

Owns what bounds the document the reducer keeps of an activity's content besides its
surfaces: how deep it may nest (:func:`content_depth`, so that no patch can nest it
ever deeper), how many values it may hold (``Limits.max_content_nodes``, so that no
``copy`` can double it delta after delta), applying an ``ACTIVITY_DELTA``'s patch
within both (:func:`patch_content`), decoding the whole content of a snapshot that only
carries a lifecycle status (:func:`read_content`), and saying what content with neither
operations nor a status holds (:func:`no_operations`). The number of values a document
holds is kept beside it, in the bucket or the lifecycle, so that a patch costs what it
writes and removes, never a walk of the whole content. Each function returns the
diagnostic of what it refused, for the reducer to place (seq and messageId).

Must not import: the reducer, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream._state.stream import OPERATIONS_KEY
from a2ui_stream._tree.depth import Exceeded, count_values, size_within
from a2ui_stream._tree.patch import (
    PatchDepthError,
    PatchError,
    PatchSizeError,
    apply_patch_within,
)
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.numbers import JsDecoder

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._wire.limits import Limits

__all__ = [
    "content_depth",
    "content_keys",
    "no_operations",
    "patch_content",
    "read_content",
    "too_deep",
]


#: Content decodes as every A2UI message does: numbers read as JavaScript reads them.
_JSON = JsDecoder()
_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])
#: Levels of content above a component's own object: the content, its operations, one
#: operation, its payload, its components list.
_ABOVE_COMPONENTS = 5


def content_depth(limits: Limits) -> int:
    """How deep an activity's content may nest: a component at the limit fits in it.

    Args:
        limits: the bounds in force.

    Returns:
        ``max_data_depth`` plus the levels above a component's own object.
    """
    return limits.max_data_depth + _ABOVE_COMPONENTS


def too_deep(limits: Limits, path: str = "$.content") -> Diagnostic:
    """The ERROR ``limit.data_depth`` of content refused whole.

    Args:
        limits: the bounds in force.
        path: where in the event the nesting was found.

    Returns:
        The diagnostic, without seq or messageId.
    """
    return Diagnostic(
        code=Code.LIMIT_DATA_DEPTH,
        message=(
            f"the activity content nests past the limit of {limits.max_data_depth} levels "
            "of data; the state is unchanged"
        ),
        severity=Severity.ERROR,
        path=path,
    )


def patch_content(
    content: Any, nodes: int, patch: Sequence[Any], limits: Limits
) -> tuple[Any, int, Diagnostic | None]:
    """Apply an RFC 6902 patch to content, within the depth and the values allowed.

    Args:
        content: the content document before the patch; not changed.
        nodes: how many values it holds (:func:`count_values`, then what this returned).
        patch: the delta's patch.
        limits: the bounds in force.

    Returns:
        The patched document, the values it holds and ``None``; or ``None``, ``nodes``
        and why nothing was applied (``limit.data_depth`` or ``limit.content_nodes``,
        errors, or an ``activity.patch_failed`` warning).
    """
    try:
        patched, count = apply_patch_within(
            content,
            patch,
            nodes=nodes,
            max_nodes=limits.max_content_nodes,
            max_depth=content_depth(limits),
        )
    except PatchDepthError as error:
        return None, nodes, too_deep(limits, f"$.patch[{error.index}]")
    except PatchSizeError as error:
        return None, nodes, _too_large(limits, error)
    except PatchError as error:
        return (
            None,
            nodes,
            Diagnostic(
                code=Code.ACTIVITY_PATCH_FAILED,
                message=f"{error}; the state is unchanged",
                severity=Severity.WARNING,
                path=f"$.patch[{error.index}]",
            ),
        )
    return patched, count, None


def _too_large(limits: Limits, error: PatchSizeError) -> Diagnostic:
    return Diagnostic(
        code=Code.LIMIT_CONTENT_NODES,
        message=(
            f"patch operation {error.index} would grow the activity content past the limit "
            f"of {limits.max_content_nodes:,} values (max_content_nodes); the state is "
            "unchanged"
        ),
        severity=Severity.ERROR,
        path=f"$.patch[{error.index}]",
    )


def read_content(raw: bytes, limits: Limits) -> tuple[dict[str, Any], int] | Diagnostic:
    """Decode a snapshot's whole content (a JSON object), within :func:`content_depth`.

    Args:
        raw: the content's bytes, known to hold an object.
        limits: the bounds in force.

    Returns:
        The content and how many values it holds, or the diagnostic when it nests too
        deeply (past the depth, or past msgspec's own bound, the interpreter's stack).
    """
    try:
        content: dict[str, Any] = _JSON.decode(raw)
    except RecursionError:
        return too_deep(limits)
    if raw.count(b"{") == 1 and b"[" not in raw:
        # No bracket but its own: an object of scalars (a status and its numbers, as
        # the middleware sends while it builds), the object and its members.
        return content, 1 + len(content)
    # One walk for both: the depth, and the count later patches start from.
    found = size_within(content, depth=content_depth(limits), nodes=len(raw))
    if found is Exceeded.DEPTH:
        return too_deep(limits)
    return content, found if type(found) is int else count_values(content)


def content_keys(raw: bytes) -> list[str]:
    """The top-level keys of a content object; its values are skipped, not decoded."""
    try:
        return list(_KEYS.decode(raw))
    except (msgspec.DecodeError, RecursionError):
        return []


def no_operations(keys: Sequence[str]) -> Diagnostic:
    """An a2ui-surface content with neither operations nor a status: nothing to draw.

    Upstream's client ignores such content without a word; saying so, and naming the
    keys it has, turns ``{"operations": [...]}`` from a silent blank into a fix.

    Args:
        keys: the content's top-level keys.
    """
    if not keys:
        has = "it is empty"
    else:
        shown = ", ".join(f"`{k}`" for k in sorted(keys)[:5]) + (", ..." if len(keys) > 5 else "")
        has = f"its keys are {shown}"
    return Diagnostic(
        code=Code.ACTIVITY_NO_OPERATIONS,
        message=(
            f"a2ui-surface content has no `{OPERATIONS_KEY}` (the list of A2UI messages) "
            f"and no `status`: {has}; nothing is drawn"
        ),
        severity=Severity.ERROR,
        path="$.content",
    )
