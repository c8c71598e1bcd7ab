"""Hard limits: named, cited, cheap to check.

Owns the numbers that bound work and memory for untrusted input, and the range each
may take. Every limit is an integer compare made before allocating; exceeding one
yields a diagnostic, never an exception. A value outside its range is the caller's
mistake, refused when the :class:`Limits` is made (:func:`check_limit`). Imports only
``a2ui_stream.errors``.
"""

from __future__ import annotations

import sys
from typing import Final

import msgspec

from a2ui_stream.errors import UsageError

__all__ = [
    "DEFAULT_MAX_CONTENT_NODES",
    "DEFAULT_MAX_DATA_DEPTH",
    "DEFAULT_MAX_DATA_MODEL_BYTES",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_LINE_BYTES",
    "DEFAULT_MAX_LIVE_SURFACES",
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_OPERATIONS",
    "DEFAULT_MAX_RUN_SURFACES",
    "DEFAULT_MAX_STRING_LENGTH",
    "DEFAULT_MAX_TEMPLATE_ITEMS",
    "DEPTH_CEILING",
    "LIMIT_RANGES",
    "SIZE_CEILING",
    "Limits",
    "check_limit",
]

#: Element depth: the root is depth 0 and a node at depth 32 is dropped with its subtree.
#: Same as upstream's converter (assistant-ui ``DEPTH_CAP``), reference converter §1f.
DEFAULT_MAX_DEPTH = 32
#: Items a template expands before it is truncated; upstream ``TEMPLATE_ITEM_CAP``.
DEFAULT_MAX_TEMPLATE_ITEMS = 100
#: Elements one conversion may emit, ListView and ListViewItem included; upstream ``NODE_BUDGET``.
DEFAULT_MAX_NODES = 5000
#: Longest input line (JSONL line or SSE event). 16 MiB: four times the largest surface
#: the middleware was seen to emit, small enough that a bad stream cannot exhaust memory.
DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
#: Encoded size of one surface's data model after an update. Beyond it the update is
#: skipped: a chat surface's data is kilobytes, and 8 MiB keeps a hostile agent's state small.
DEFAULT_MAX_DATA_MODEL_BYTES = 8 * 1024 * 1024
#: Operations applied from one snapshot; the rest are skipped. Cumulative snapshots of
#: real agents carry a handful; 10,000 bounds a hostile one.
DEFAULT_MAX_OPERATIONS = 10_000
#: Surfaces alive at once in one activity message (one snapshot's bucket); creating more
#: is skipped. Counted per message so that a message's surfaces never depend on other
#: messages. Thousands of surfaces in one chat are already unusual; 10,000 bounds memory.
DEFAULT_MAX_LIVE_SURFACES = 10_000
#: Surfaces alive at once in one run, over all its activity messages; a message that
#: would add more keeps the run's earlier surfaces and drops its new ones. Without it a
#: run of many messages, each within ``max_live_surfaces``, is bounded by nothing. One
#: message may fill it.
DEFAULT_MAX_RUN_SURFACES = 10_000
#: Characters of one string copied into output; longer strings are cut there. Output
#: is rendered in a browser, where a megabyte of text in one prop is always a mistake.
DEFAULT_MAX_STRING_LENGTH = 1_000_000
#: Arrays and objects nested in what the state keeps: a data model (the segments of the
#: path a write goes through count as levels), one component, an activity's content.
#: The default maximum depth of .NET's System.Text.Json readers (``JsonReaderOptions.MaxDepth``);
#: A2UI data and components nest a handful of levels, and at 64 the deepest walk of
#: the state (a converted element with data bound inside its props, diffed) stays
#: below 200 of Python's 1,000 stack frames. A caller may raise it to
#: :data:`DEPTH_CEILING`, no further.
DEFAULT_MAX_DATA_DEPTH = 64
#: JSON values one activity's content may hold after a patch, counted as written out:
#: a subtree a ``copy`` put in two places counts twice. A ``copy`` of a value into
#: itself doubles the content at each delta; 24 such deltas (5.5 KB) made 16 million
#: values and a minute of work before this bound. One million is what a snapshot line
#: of ``max_line_bytes`` (16 MiB) holds at the density of the A2UI samples (about 17
#: bytes per value), so deltas cannot build content that no snapshot could carry.
DEFAULT_MAX_CONTENT_NODES = 1_000_000


#: The deepest element depth and data depth a caller may set. Measured (CPython 3.11,
#: ``tests/test_limits.py`` keeps it true): converting, diffing, encoding and drawing an
#: element ``n`` levels deep holding data ``d`` levels deep takes about ``3n + d + 100``
#: stack frames; at the defaults (32, 64) 180 of Python's 1,000, at 128 and 128 about
#: 530, which leaves almost half to the caller's own stack. At 250 and 250 the
#: converter ran out of stack (reported as ``convert.failed``): past these values a
#: limit no longer bounds the work, the interpreter's recursion limit does.
DEPTH_CEILING: Final = 128
#: The largest count or size a caller may set: ``sys.maxsize``, the longest container
#: Python can hold. A larger bound bounds nothing more, and C code that takes a length
#: refuses it.
SIZE_CEILING: Final = sys.maxsize
#: The range of each :class:`Limits` field, both ends allowed. The floor is 1 for
#: every one: 0 or less would refuse every input (no line, no element, no operation),
#: which is never what a caller means; small values are for tests and strict
#: deployments, and refuse most real input.
LIMIT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "max_depth": (1, DEPTH_CEILING),
    "max_template_items": (1, SIZE_CEILING),
    "max_nodes": (1, SIZE_CEILING),
    "max_line_bytes": (1, SIZE_CEILING),
    "max_data_model_bytes": (1, SIZE_CEILING),
    "max_operations": (1, SIZE_CEILING),
    "max_live_surfaces": (1, SIZE_CEILING),
    "max_run_surfaces": (1, SIZE_CEILING),
    "max_string_length": (1, SIZE_CEILING),
    "max_data_depth": (1, DEPTH_CEILING),
    "max_content_nodes": (1, SIZE_CEILING),
}


def check_limit(name: str, value: object) -> int:
    """Check one limit's value against its range (:data:`LIMIT_RANGES`).

    The one place a limit is judged: :class:`Limits` calls it for every field, and the
    command line for each ``--max-...`` option, so both say the same.

    Args:
        name: the :class:`Limits` field.
        value: the value asked for.

    Returns:
        ``value``, an integer within the range.

    Raises:
        UsageError: ``value`` is not an integer (a bool is not one), or is outside the
            range; the message names the field and the range.
    """
    low, high = LIMIT_RANGES[name]
    if type(value) is not int or not low <= value <= high:
        shown = f"{value:,}" if type(value) is int else repr(value)
        top = f"{high:,} (sys.maxsize)" if high == SIZE_CEILING else f"{high:,}"
        message = f"{name} must be an integer from {low:,} to {top}, not {shown}"
        raise UsageError(message)
    return value


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """Every bound a2ui-stream enforces, passed to constructors.

    Each value must be an integer in its range (:data:`LIMIT_RANGES`): at least 1, at
    most :data:`DEPTH_CEILING` (128) for ``max_depth`` and ``max_data_depth``, whose
    walks take stack frames in proportion, and at most ``sys.maxsize`` for the rest.
    Making one outside that raises :class:`~a2ui_stream.UsageError`.

    Attributes:
        max_depth: deepest element depth emitted (root is 0; depth ``max_depth`` is dropped).
        max_template_items: items a template expands.
        max_nodes: elements one conversion emits.
        max_line_bytes: longest input line or SSE event.
        max_data_model_bytes: largest encoded data model of one surface.
        max_operations: operations applied from one snapshot.
        max_live_surfaces: surfaces alive at once in one activity message.
        max_run_surfaces: surfaces alive at once in one run, over all its messages.
        max_string_length: longest string copied into output.
        max_data_depth: deepest nesting of a data model (path segments included), a
            component, or an activity's content below its operations.
        max_content_nodes: JSON values an activity's content may hold after a patch
            (a subtree copied to two places counts twice).
    """

    max_depth: int = DEFAULT_MAX_DEPTH
    max_template_items: int = DEFAULT_MAX_TEMPLATE_ITEMS
    max_nodes: int = DEFAULT_MAX_NODES
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_data_model_bytes: int = DEFAULT_MAX_DATA_MODEL_BYTES
    max_operations: int = DEFAULT_MAX_OPERATIONS
    max_live_surfaces: int = DEFAULT_MAX_LIVE_SURFACES
    max_run_surfaces: int = DEFAULT_MAX_RUN_SURFACES
    max_string_length: int = DEFAULT_MAX_STRING_LENGTH
    max_data_depth: int = DEFAULT_MAX_DATA_DEPTH
    max_content_nodes: int = DEFAULT_MAX_CONTENT_NODES

    def __post_init__(self) -> None:
        """Refuse a value outside its range, naming the field and the range.

        Raises:
            UsageError: see :func:`check_limit`.
        """
        for name in LIMIT_RANGES:
            check_limit(name, getattr(self, name))
