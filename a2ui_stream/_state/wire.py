"""The wire form of the state's values: the JSON the command line prints, as bytes.

Owns one encoding of each value a caller may send on: a part diff as one line of
``a2ui-stream process`` (``{"seq","runId","messageId","surfaceId","op","toolCallId",
"toolName","args"|"patch"}``, camelCase, keys in that order, ``"history":true`` on a
part restored from history), a run as one line of ``--final``
(``{"runId","threadId","parts":[{"toolCallId","toolName","surfaceId","args"}]}``), and
the parts restored from history as the line ``--final`` writes first
(``{"history":[{"messageId","parts":[...]}]}``). The values' ``to_wire()`` methods and
the command line both call these functions: there is one implementation of the bytes.

Numbers are written as JavaScript's ``JSON.stringify`` writes them
(:class:`~a2ui_stream._wire.numbers.JsonEncoder`). Imports msgspec and ``_wire`` only
(the values it encodes are passed in); does no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._wire.numbers import JsonEncoder

if TYPE_CHECKING:
    from collections.abc import Iterable

    from a2ui_stream._state.stream import HistoryEntry, Part, PartDiff, RunState

__all__ = [
    "FinalPart",
    "FinalRun",
    "diff_line",
    "encode",
    "entry_line",
    "final_run",
    "history_line",
    "part_line",
    "run_line",
]

_ENCODER = JsonEncoder()  # numbers as JSON.stringify writes them


class _DiffLine(msgspec.Struct, kw_only=True, rename="camel", omit_defaults=True):
    """One part diff; field order is the documented key order (``runId`` always shown)."""

    seq: int
    run_id: str | None
    message_id: str
    surface_id: str
    op: str
    tool_call_id: str
    tool_name: str
    args: Any | UnsetType = UNSET
    patch: list[Any] | UnsetType = UNSET
    history: bool = False


class FinalPart(msgspec.Struct, kw_only=True, rename="camel"):
    """One part of a run's final state, as ``--final`` (and an archive's result) lists it."""

    tool_call_id: str
    tool_name: str
    surface_id: str
    args: Any


class FinalRun(msgspec.Struct, kw_only=True, rename="camel"):
    """One run's final parts: a line of ``--final``, and a run of an archive's result."""

    run_id: str | None
    thread_id: str | None
    parts: list[FinalPart]


class _EntryLine(msgspec.Struct, kw_only=True, rename="camel"):
    message_id: str
    parts: list[FinalPart]


class _HistoryLine(msgspec.Struct, kw_only=True):
    history: list[_EntryLine]


def diff_line(diff: PartDiff, *, patch: bool = False) -> bytes:
    """A diff as ``process`` prints it (without the line feed).

    Args:
        diff: the diff.
        patch: an update carries ``"patch"`` (RFC 6902 against the previous args)
            instead of ``"args"``, as ``--diffs patch`` prints it.
    """
    line = _DiffLine(
        seq=diff.seq,
        run_id=diff.run_id,
        message_id=diff.message_id,
        surface_id=diff.surface_id,
        op=diff.op,
        tool_call_id=diff.tool_call_id,
        tool_name=diff.tool_name,
        history=diff.history,
    )
    if diff.op == "update" and patch:
        line.patch = diff.patch()
    else:
        line.args = diff.args
    return _ENCODER.encode(line)


def _parts(parts: Iterable[Part]) -> list[FinalPart]:
    return [
        FinalPart(
            tool_call_id=part.tool_call_id,
            tool_name=part.tool_name,
            surface_id=part.surface_id,
            args=part.args,
        )
        for part in parts
    ]


def part_line(part: Part) -> bytes:
    """A part as ``--final`` lists it: ``{"toolCallId","toolName","surfaceId","args"}``."""
    return _ENCODER.encode(_parts((part,))[0])


def final_run(run: RunState) -> FinalRun:
    """The record ``--final`` prints for a run: its ids and its parts in display order."""
    return FinalRun(run_id=run.run_id, thread_id=run.thread_id, parts=_parts(run.parts.values()))


def run_line(run: RunState) -> bytes:
    """A run as one line of ``--final`` (without the line feed)."""
    return _ENCODER.encode(final_run(run))


def encode(value: object) -> bytes:
    """Any value holding these records, numbers written as ``JSON.stringify`` does."""
    return _ENCODER.encode(value)


def _entry(entry: HistoryEntry) -> _EntryLine:
    return _EntryLine(message_id=entry.message_id, parts=_parts(entry.parts))


def entry_line(entry: HistoryEntry) -> bytes:
    """One assistant message's restored parts: ``{"messageId","parts":[...]}``."""
    return _ENCODER.encode(_entry(entry))


def history_line(history: Iterable[HistoryEntry]) -> bytes:
    """The parts restored from history as the line ``--final`` writes before the runs."""
    return _ENCODER.encode(_HistoryLine(history=[_entry(entry) for entry in history]))
