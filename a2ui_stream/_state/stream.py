"""The stream state: runs, buckets, parts and diffs, as immutable values.

Owns the value types the surface engine produces and callers keep: :class:`StreamState`
(every run and the surfaces restored from history), :class:`RunState`, :class:`Bucket`,
:class:`Part`, :class:`PartDiff`, :class:`Lifecycle` and :class:`HistoryEntry`, and the
wire strings of the convention (activity type, tool-call id prefix, tool name).

Imports only the wire and tree layers and surface values: never conversion, the
engine, the request side or the shell. Holds no logic beyond reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias

import immutables
import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._state.persistent import EMPTY_MAP, OrderedMap
from a2ui_stream._state.surface import Surface
from a2ui_stream._state.wire import diff_line, entry_line, history_line, part_line, run_line
from a2ui_stream._tree.diff import diff as json_diff
from a2ui_stream._wire.chunks import OpenChunks  # noqa: TC001 - msgspec reads it at runtime
from a2ui_stream._wire.convention import (
    A2UI_ACTIVITY_TYPE,
    OPERATIONS_KEY,
    PRESENT_TOOL_NAME,
    TOOL_CALL_PREFIX,
)
from a2ui_stream._wire.diagnostics import Diagnostic  # noqa: TC001 - for inspect.signature

__all__ = [
    "A2UI_ACTIVITY_TYPE",
    "ANONYMOUS_MESSAGE_ID",
    "NO_HOLDERS",
    "OPERATIONS_KEY",
    "PRESENT_TOOL_NAME",
    "TOOL_CALL_PREFIX",
    "Bucket",
    "HistoryEntry",
    "Holders",
    "Lifecycle",
    "Live",
    "Part",
    "PartAdded",
    "PartDiff",
    "PartRemoved",
    "PartUpdated",
    "RunState",
    "StreamState",
    "Surfaces",
]

#: Bucket key for a snapshot without a messageId, as upstream's client names it.
ANONYMOUS_MESSAGE_ID = "a2ui:anonymous"

#: The empty trie every run starts its counts and reports from (it never changes).
_NO_ENTRIES: immutables.Map[Any, Any] = immutables.Map()

Surfaces: TypeAlias = Mapping[str, Surface]
"""Surfaces by surfaceId, insertion-ordered; never mutated."""


class Holders(msgspec.Struct, frozen=True, gc=False):
    """The buckets holding one surface: activity buckets' messageIds, and tool buckets'.

    Kept apart because activity outranks the tool carriers: whether any activity
    bucket holds the surface is one truth test, where a search of one set of both
    kinds made every redraw by a new tool call cost the calls before it (issue 12).
    Its length is the number of buckets holding the surface.

    Attributes:
        activity: the activity buckets holding it, by messageId.
        tools: the tool buckets holding it, by messageId.
    """

    activity: immutables.Map[str, None] = _NO_ENTRIES
    tools: immutables.Map[str, None] = _NO_ENTRIES

    def __len__(self) -> int:
        return len(self.activity) + len(self.tools)

    def __bool__(self) -> bool:
        return bool(self.activity) or bool(self.tools)

    def with_holder(self, message_id: str, *, tool: bool) -> Holders:
        """These holders and one more bucket: a tool carrier's (``tool``) or activity's."""
        if tool:
            return Holders(self.activity, self.tools.set(message_id, None))
        return Holders(self.activity.set(message_id, None), self.tools)

    def without(self, message_id: str, *, tool: bool) -> Holders:
        """These holders without one bucket."""
        if tool:
            return Holders(self.activity, self.tools.delete(message_id))
        return Holders(self.activity.delete(message_id), self.tools)


Live: TypeAlias = "immutables.Map[str, Holders]"
"""The buckets holding each live surface of a run."""
#: No bucket holds the surface.
NO_HOLDERS: Holders = Holders()
JSON: TypeAlias = Any


class Lifecycle(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The latest lifecycle status of one messageId, for a UI to show.

    Attributes:
        phase: ``"building"``, ``"retrying"``, ``"failed"``, or ``"painted"`` once
            operations arrived after the status.
        content: the content of the last lifecycle snapshot (``status`` and its fields,
            such as ``progressTokens``, ``attempt``, ``maxAttempts``, ``errors``, ``error``).
        content_nodes: how many JSON values ``content`` holds, as
            ``Limits.max_content_nodes`` counts them; kept so that a delta costs what it
            changes, not a count of the whole content.
    """

    phase: str
    content: dict[str, Any]
    content_nodes: int = 0


class Bucket(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The surfaces one messageId's latest snapshot built.

    Attributes:
        message_id: the activity messageId (``"a2ui:anonymous"`` when absent).
        surfaces: surfaces by id after every operation.
        operation_keys: per operation, its undecoded bytes as a :class:`msgspec.Raw` view
            into ``content_bytes`` (from a wire snapshot) or its
            decoded JSON value (after a delta); what the next snapshot is compared against.
        checkpoints: ``(count, surfaces)`` pairs: the surfaces after the first ``count``
            operations, for every count up to 64, then at powers of two and the last, so
            a snapshot that changes late restarts near where it changed.
        content: the content as a decoded JSON value, once a delta needed it.
        content_nodes: how many JSON values ``content`` holds, as
            ``Limits.max_content_nodes`` counts them (0 while it is unset).
        content_bytes: the undecoded content of the wire snapshot that built the bucket;
            an identical snapshot is recognised by it without being decoded.
        written: by operation index, the value each ``updateDataModel`` of a wire
            snapshot wrote, as decoded from its key, with the value's text once it was
            needed; the next snapshot shares its own values against these, text
            against text.
        upserts: indices of the ``updateComponents`` operations (applied after a delta)
            that decoded and applied with nothing to report and name each component
            id once; a later delta that only edits or appends their entries is applied
            by what it changed (:mod:`a2ui_stream._engine.deltas`).
        targets: per operation, the surfaceId it names (``None`` for none), once a
            delta that changed one surface's data needed them; empty until then.
    """

    message_id: str
    surfaces: Surfaces
    operation_keys: tuple[Any, ...] = ()
    checkpoints: tuple[tuple[int, Surfaces], ...] = ()
    content: JSON | UnsetType = UNSET
    content_nodes: int = 0
    content_bytes: bytes | None = None
    written: Mapping[int, tuple[JSON, msgspec.Raw | None, int]] = msgspec.field(default=_NO_ENTRIES)
    upserts: frozenset[int] = frozenset()
    targets: tuple[str | None, ...] = ()


class Part(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One synthesized ``present`` tool-call part: a surface ready to render.

    Attributes:
        tool_call_id: ``"a2ui:<surfaceId>"``.
        tool_name: always ``"present"``.
        surface_id: the surface.
        message_id: the bucket whose surface this is.
        args: the element tree; shared with earlier parts where unchanged, never mutated.
    """

    tool_call_id: str
    surface_id: str
    message_id: str
    args: dict[str, Any]
    tool_name: str = PRESENT_TOOL_NAME

    def to_wire(self) -> bytes:
        """The part as ``--final`` lists it: ``{"toolCallId","toolName","surfaceId","args"}``."""
        return part_line(self)

    @classmethod
    def of(cls, surface_id: str, message_id: str, args: dict[str, Any]) -> Part:
        """The part that presents ``surface_id``: the one place its tool-call id is made."""
        return cls(
            tool_call_id=TOOL_CALL_PREFIX + surface_id,
            surface_id=surface_id,
            message_id=message_id,
            args=args,
        )


class _Diff(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What every part diff says; :data:`PartDiff` is one of its three kinds."""

    seq: int
    run_id: str | None
    message_id: str
    surface_id: str
    tool_call_id: str
    tool_name: str = PRESENT_TOOL_NAME
    history: bool = False

    def patch(self) -> list[dict[str, Any]]:
        """Render the diff as an RFC 6902 patch from the previous args to the new ones.

        Returns:
            For an update, the operations from ``previous_args`` to ``args``; for an add,
            one ``replace`` of the whole document; for a remove, an empty list.
        """
        args: Any = getattr(self, "args", UNSET)
        previous: Any = getattr(self, "previous_args", UNSET)
        if isinstance(args, UnsetType):
            return []
        if isinstance(previous, UnsetType):
            return [{"op": "replace", "path": "", "value": args}]
        return json_diff(previous, args)

    def to_wire(self, *, patch: bool = False) -> bytes:
        """The diff as ``a2ui-stream process`` prints it: compact camelCase JSON.

        Args:
            patch: an update carries ``"patch"`` instead of ``"args"`` (``--diffs patch``).

        Returns:
            The line's bytes without its line feed, exactly what the command writes.
        """
        return diff_line(self, patch=patch)  # type: ignore[arg-type]  # always a PartDiff


class PartAdded(_Diff, frozen=True, kw_only=True):
    """A part appeared: its surface was drawn for the first time (or again after removal).

    Attributes:
        op: ``"add"``.
        seq: 0-based index of the input event that caused it.
        run_id: the run the part belongs to (``None`` before any ``RUN_STARTED``).
        message_id: the bucket that owns the surface (for ``history``, the assistant
            message it was restored onto).
        surface_id: the surface.
        tool_call_id: ``"a2ui:<surfaceId>"``.
        tool_name: ``"present"``.
        history: the part was restored from history (``MESSAGES_SNAPSHOT``), onto the
            assistant message ``message_id``; it is none of the run's parts.
        args: the element tree.
        previous_args: always ``UNSET``.
    """

    op: Literal["add"] = "add"
    args: dict[str, Any]
    previous_args: UnsetType = UNSET


class PartUpdated(_Diff, frozen=True, kw_only=True):
    """A part's element tree changed (an unchanged tree gives no diff).

    Attributes:
        op: ``"update"``.
        args: the new element tree.
        previous_args: the element tree before, for :meth:`patch`.

    The other attributes are :class:`PartAdded`'s.
    """

    op: Literal["update"] = "update"
    args: dict[str, Any]
    previous_args: dict[str, Any]


class PartRemoved(_Diff, frozen=True, kw_only=True):
    """A part went away: its surface was deleted, lost its root, or moved out of reach.

    Attributes:
        op: ``"remove"``.
        args: always ``UNSET``: check ``op`` (or the class) before reading ``args``.
        previous_args: always ``UNSET``.

    The other attributes are :class:`PartAdded`'s.
    """

    op: Literal["remove"] = "remove"
    args: UnsetType = UNSET
    previous_args: UnsetType = UNSET


PartDiff: TypeAlias = PartAdded | PartUpdated | PartRemoved
"""How one part changed after one event: a :class:`PartAdded`, :class:`PartUpdated` or
:class:`PartRemoved`. ``op`` tells them apart, for the type checker too: after
``if diff.op != "remove":``, ``diff.args`` is a ``dict``. ``isinstance(x, PartDiff)`` works."""


class RunState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One AG-UI run: its buckets, its parts, and the lifecycle of its messages.

    Attributes:
        run_id: the run's id; ``None`` for events before any ``RUN_STARTED``.
        thread_id: the thread's id, when known.
        status: ``"running"``, ``"finished"`` or ``"error"``.
        error: the message of the run's ``RUN_ERROR``, when it had one.
        buckets: buckets by messageId, least recently received first.
        tool_buckets: buckets drawn from tool calls and results (by the messageId the
            middleware would have given them), least recently drawn first; a surface
            in any of ``buckets`` outranks them.
        parts: the run's parts by surfaceId, in display order: a new part goes after
            the existing ones, an existing part keeps its place.
        lifecycles: the latest lifecycle per messageId.
        live: the run's buckets holding each surfaceId (:data:`Holders`); its length is
            the number of surfaces alive in the run, which ``Limits.max_run_surfaces``
            bounds, and a surface's owner is found among its holders, not by a search
            of every bucket.
        reported: the warnings of each surface's latest conversion, where it had any:
            a redraw reports only the warnings that are not among them.
        carriers: the tool-carrier stage's bookkeeping for the run (an opaque value of
            the engine's; ``None`` until a tool event arrives).

    The three mappings are read-only :class:`~a2ui_stream._state.persistent.OrderedMap`
    values: an event updates them at the cost of what it changes, sharing the rest
    with the run before it.
    """

    run_id: str | None = None
    thread_id: str | None = None
    status: str = "running"
    error: str | None = None
    buckets: OrderedMap[str, Bucket] = msgspec.field(default=EMPTY_MAP)
    tool_buckets: OrderedMap[str, Bucket] = msgspec.field(default=EMPTY_MAP)
    parts: OrderedMap[str, Part] = msgspec.field(default=EMPTY_MAP)
    lifecycles: OrderedMap[str, Lifecycle] = msgspec.field(default=EMPTY_MAP)
    live: Live = msgspec.field(default=_NO_ENTRIES)
    reported: immutables.Map[str, tuple[Diagnostic, ...]] = msgspec.field(default=_NO_ENTRIES)
    carriers: Any = None

    def to_wire(self) -> bytes:
        """The run as one line of ``--final``: ``{"runId","threadId","parts":[...]}``."""
        return run_line(self)

    def surfaces(self) -> dict[str, Surface]:
        """Return every live surface of the run, the most recent bucket winning a shared id.

        A surface drawn by activity outranks one drawn from a tool call or result.
        """
        union: dict[str, Surface] = {}
        for bucket in (*self.tool_buckets.values(), *self.buckets.values()):
            union.update(bucket.surfaces)
        return union


class HistoryEntry(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The parts rehydrated onto one assistant message of stored history.

    Attributes:
        message_id: the assistant message that owns the surfaces.
        parts: its surfaces as parts, in bucket order; never empty (a message that
            draws nothing has no entry).
    """

    message_id: str
    parts: tuple[Part, ...]

    def to_wire(self) -> bytes:
        """The entry as ``--final``'s history line lists it: ``{"messageId","parts"}``."""
        return entry_line(self)


class StreamState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything reduced so far: every run, and surfaces restored from history.

    Attributes:
        runs: every run in the order it started; the last one is current. A tuple
            while short, a :class:`~a2ui_stream._state.persistent.Vector` from
            :data:`~a2ui_stream._state.persistent.VECTOR_AT` runs on (a tuple's reads,
            and equal to a tuple of the same runs), so that a new current run costs
            what it changes however many runs came before.
        history: parts rehydrated from the latest ``MESSAGES_SNAPSHOT``.
        seq: the number of events reduced.
        chunks: the chunk streams still open, which later events continue or end
            (:func:`a2ui_stream._wire.chunks.expand`); empty when none is.
    """

    runs: Sequence[RunState] = ()
    history: tuple[HistoryEntry, ...] = ()
    seq: int = 0
    chunks: OpenChunks = ()

    @property
    def current(self) -> RunState | None:
        """The run new events apply to, if any event opened one."""
        return self.runs[-1] if self.runs else None

    def to_wire(self) -> bytes:
        """What ``a2ui-stream process --final`` prints for this state, byte for byte.

        One line per run, each ending in a line feed; when parts were restored from
        history (``MESSAGES_SNAPSHOT``), a ``{"history":[...]}`` line first.
        """
        lines = [run.to_wire() for run in self.runs]
        if self.history:
            lines.insert(0, history_line(self.history))
        return b"".join(line + b"\n" for line in lines)
