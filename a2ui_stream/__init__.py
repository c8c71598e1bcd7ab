"""a2ui-stream: A2UI surfaces from AG-UI event streams, as immutable values.

Feed a :class:`Processor` the bytes (or events) of an AG-UI stream and it returns
:class:`PartDiff` values (a :class:`PartAdded`, :class:`PartUpdated` or
:class:`PartRemoved`): one ``present`` tool-call part per A2UI surface. The request
side (:class:`A2uiRequest`, :func:`build_run_input`) builds what a run must carry for an
agent to draw at all. Wire types live in
:mod:`a2ui_stream.events`, A2UI operations in :mod:`a2ui_stream.a2ui`.
"""

from __future__ import annotations

from a2ui_stream import a2ui, events
from a2ui_stream._engine.eventlog import EventLog, MemoryLog
from a2ui_stream._engine.processor import Processor
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._request.request import (
    SCHEMA_CONTEXT_DESCRIPTION,
    A2uiRequest,
    action_forwarded_props,
    action_message,
    action_text,
    answer_render_call,
    build_run_input,
    guide_context_description,
    outbound_messages,
    render_tool,
)
from a2ui_stream._shell.filelog import FileLog
from a2ui_stream._shell.pipeline import aiter_diffs, iter_diffs, replay
from a2ui_stream._state.stream import (
    HistoryEntry,
    Lifecycle,
    Part,
    PartAdded,
    PartDiff,
    PartRemoved,
    PartUpdated,
    RunState,
    StreamState,
)
from a2ui_stream._version import __version__
from a2ui_stream._wire.codec import decode_event, encode_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import Limits
from a2ui_stream.catalog import Catalog, basic_catalog, catalog_context
from a2ui_stream.errors import (
    A2uiStreamError,
    LogLockedError,
    LogRefusedError,
    UsageError,
)

__all__ = [
    "SCHEMA_CONTEXT_DESCRIPTION",
    "A2uiRequest",
    "A2uiStreamError",
    "Catalog",
    "Code",
    "Diagnostic",
    "EventLog",
    "FileLog",
    "HistoryEntry",
    "Lifecycle",
    "Limits",
    "LogLockedError",
    "LogRefusedError",
    "MemoryLog",
    "Part",
    "PartAdded",
    "PartDiff",
    "PartRemoved",
    "PartUpdated",
    "Processor",
    "Reducer",
    "RunState",
    "Severity",
    "StreamState",
    "UsageError",
    "__version__",
    "a2ui",
    "action_forwarded_props",
    "action_message",
    "action_text",
    "aiter_diffs",
    "answer_render_call",
    "basic_catalog",
    "build_run_input",
    "catalog_context",
    "decode_event",
    "encode_event",
    "events",
    "guide_context_description",
    "iter_diffs",
    "outbound_messages",
    "render_tool",
    "replay",
]
