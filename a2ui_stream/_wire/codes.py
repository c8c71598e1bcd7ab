"""Diagnostic codes: every ``Diagnostic.code`` the library emits, as data.

Owns the one list of codes. They are promised stable (callers match on them, logs
keep them), so ``tests/test_codes.py`` pins the set, and no module writes a code as a
string of its own: each uses a member of :class:`Code`. A member *is* its string
(``Code.JSON_INVALID == "json.invalid"``), so a diagnostic encodes, compares and
prints exactly as the plain string did. Imports nothing from the package.

Each member's comment says what it means and at which :class:`~.diagnostics.Severity`
it is reported. A conversion warning (``convert.*``) is reported at debug level while
its run is open and at its own level when the run ends (README, "Diagnostics").
"""

from __future__ import annotations

import enum

__all__ = ["Code"]


class Code(enum.StrEnum):
    """A stable dotted diagnostic code; the member name is the code in capitals."""

    # -- input lines and events (_wire) ------------------------------------------------

    #: ERROR: a JSONL line or SSE event longer than ``max_line_bytes``; skipped.
    LINE_TOO_LONG = "line.too_long"
    #: ERROR: an SSE stream holds a line that is a JSON object, not a field; dropped.
    SSE_JSON_LINE = "sse.json_line"
    #: ERROR: an SSE line is a ``data`` field but for what precedes its name (blanks, a
    #: byte order mark) or its colon: SSE reads an unknown field and drops it; reported.
    SSE_DATA_UNREAD = "sse.data_unread"
    #: ERROR: a line (or a sample file's line) is not JSON; skipped.
    JSON_INVALID = "json.invalid"
    #: ERROR: a line holds bytes that are not UTF-8 (RFC 8259 §8.1 requires it); skipped.
    JSON_INVALID_UTF8 = "json.invalid_utf8"
    #: ERROR: a line nests past about 1,000 levels (or too deep to log); skipped.
    JSON_TOO_DEEP = "json.too_deep"
    #: ERROR: a line's JSON is not an object; skipped.
    JSON_NOT_OBJECT = "json.not_object"
    #: ERROR: a JSON object that is not a valid AG-UI event (a field it cannot do without
    #: missing, mistyped or empty, ``type`` not a string...); dropped where upstream's
    #: client drops it.
    EVENT_INVALID = "event.invalid"
    #: WARNING: an event lacks a field AG-UI requires; kept without it, as upstream keeps it.
    EVENT_FIELD_MISSING = "event.field_missing"
    #: WARNING: an optional event field has a bad value; the event is kept without it.
    EVENT_FIELD_IGNORED = "event.field_ignored"
    #: WARNING: a text delta began or ended with half of a UTF-16 surrogate pair that no
    #: neighbouring delta of its stream completes; the half is dropped, the rest kept.
    EVENT_SURROGATE_HALF = "event.surrogate_half"
    #: ERROR: a chunk that would open a stream has no ``messageId`` / ``toolCallId``; dropped.
    CHUNK_NO_ID = "chunk.no_id"
    #: ERROR: a ``TOOL_CALL_CHUNK`` that would open a call has no ``toolCallName``; dropped.
    CHUNK_NO_NAME = "chunk.no_name"
    #: ERROR: a chunk contradicts its stream's opener (role, name, lane...); dropped.
    CHUNK_MISMATCH = "chunk.mismatch"
    #: ERROR: a chunk without id or lane could continue streams in several lanes; dropped.
    CHUNK_AMBIGUOUS = "chunk.ambiguous"
    #: WARNING: a chunk carried a field its expanded start sets itself; that field dropped.
    CHUNK_FIELD_DROPPED = "chunk.field_dropped"

    # -- A2UI operations (_wire, _state) -----------------------------------------------

    #: ERROR: an operation is not an object, or its payload has the wrong shape; dropped.
    OP_MALFORMED = "op.malformed"
    #: ERROR: an operation given as text is not valid JSON; dropped.
    OP_INVALID_JSON = "op.invalid_json"
    #: ERROR: an operation object holds no operation key; dropped.
    OP_NO_OPERATION = "op.no_operation"
    #: ERROR: an operation object holds more than one operation key; dropped.
    OP_MULTIPLE_OPERATIONS = "op.multiple_operations"
    #: ERROR: an operation key A2UI does not define (in that version); dropped.
    OP_UNKNOWN = "op.unknown"
    #: ERROR: an operation names a version this library does not read; dropped.
    OP_UNSUPPORTED_VERSION = "op.unsupported_version"
    #: WARNING: a payload field the operation's A2UI version does not have; ignored.
    OP_UNKNOWN_FIELD = "op.unknown_field"
    #: ERROR: an operation has no non-empty string ``surfaceId``; dropped.
    OP_NO_SURFACE_ID = "op.no_surface_id"
    #: ERROR: an operation targets a surface that does not exist; dropped.
    OP_MISSING_SURFACE = "op.missing_surface"
    #: ERROR: a data model path is not an absolute JSON Pointer, or cannot be written; dropped.
    OP_BAD_PATH = "op.bad_path"
    #: ERROR: a v1.0 ``updateDataModel`` without the ``value`` it requires; dropped.
    OP_NO_VALUE = "op.no_value"
    #: WARNING: ``metadata`` that is not an object of ``extensions`` alone; ignored.
    OP_BAD_METADATA = "op.bad_metadata"
    #: WARNING: a ``createSurface`` ``dataModel`` that is not an object; kept, as upstream.
    OP_BAD_DATA_MODEL = "op.bad_data_model"
    #: WARNING: a v0.8 data entry without a string key and one typed value; left out.
    OP_BAD_CONTENTS = "op.bad_contents"
    #: ERROR: a component list that is not a list; the components are not stored.
    OP_BAD_COMPONENTS = "op.bad_components"
    #: WARNING: an empty component list; nothing changes.
    OP_EMPTY_COMPONENTS = "op.empty_components"
    #: ERROR: a component without a string id or type; left out, the rest kept.
    COMPONENT_MALFORMED = "component.malformed"
    #: ERROR: a v1.0 component of the reserved type ``Surface``; left out.
    COMPONENT_RESERVED = "component.reserved"

    # -- limits (every layer) ----------------------------------------------------------

    #: ERROR: more than ``max_operations`` in one list; those past it skipped.
    LIMIT_OPERATIONS = "limit.operations"
    #: ERROR: a new surface past ``max_live_surfaces`` in one activity message; skipped.
    LIMIT_LIVE_SURFACES = "limit.live_surfaces"
    #: ERROR: new surfaces past ``max_run_surfaces`` in one run; dropped, earlier ones kept.
    LIMIT_RUN_SURFACES = "limit.run_surfaces"
    #: ERROR: a write that would grow a data model past ``max_data_model_bytes``; skipped.
    LIMIT_DATA_MODEL_BYTES = "limit.data_model_bytes"
    #: ERROR: data, a component or activity content nesting past ``max_data_depth``; skipped.
    LIMIT_DATA_DEPTH = "limit.data_depth"
    #: ERROR: a patch that would grow an activity's content past ``max_content_nodes``
    #: values; the patch skipped, the content kept.
    LIMIT_CONTENT_NODES = "limit.content_nodes"

    # -- activities, tool carriers, history (_engine) ----------------------------------

    #: ERROR: ``a2ui-surface`` content without operations or a status; nothing drawn.
    ACTIVITY_NO_OPERATIONS = "activity.no_operations"
    #: ERROR: ``a2ui-surface`` content of the wrong shape (a status that is not a string).
    ACTIVITY_MALFORMED = "activity.malformed"
    #: WARNING: an ``ACTIVITY_DELTA`` whose patch cannot apply; the state is unchanged.
    ACTIVITY_PATCH_FAILED = "activity.patch_failed"
    #: WARNING: an ``ACTIVITY_DELTA`` for a messageId with no snapshot; ignored.
    ACTIVITY_DELTA_UNKNOWN = "activity.delta_unknown"
    #: DEBUG: a lifecycle status out of the expected order; recorded as is.
    ACTIVITY_LIFECYCLE_UNEXPECTED = "activity.lifecycle_unexpected"
    #: WARNING: a render tool call whose arguments are not valid JSON; not drawn.
    TOOL_ARGS_MALFORMED = "tool.args_malformed"
    #: WARNING: render arguments without a ``surfaceId`` string; not drawn.
    TOOL_ARGS_UNUSABLE = "tool.args_unusable"
    #: WARNING: render ``components`` empty or with an untyped item; not drawn.
    TOOL_COMPONENTS_UNTYPED = "tool.components_untyped"
    #: WARNING: ``RUN_FINISHED`` before a tool call's ``TOOL_CALL_END``; what it drew stays.
    TOOL_CALL_UNENDED = "tool.call_unended"
    #: WARNING: a tool result whose content is a list of parts with A2UI in its text; not
    #: drawn (the middleware reads only a string content).
    TOOL_RESULT_PARTS = "tool.result_parts"
    #: WARNING: a history activity with no assistant message before it; skipped.
    HISTORY_ORPHAN_ACTIVITY = "history.orphan_activity"
    #: ERROR: a history item that is neither a message nor a mapping; skipped.
    HISTORY_BAD_MESSAGE = "history.bad_message"
    #: WARNING: diagnostics past the pending bound, counted instead of kept.
    DIAGNOSTICS_DROPPED = "diagnostics.dropped"
    #: ERROR: a bug contained: the line or event that raised is dropped, the stream goes on.
    CORE_INTERNAL_ERROR = "core.internal_error"

    # -- conversion (_convert) ---------------------------------------------------------

    #: WARNING: conversion of a surface raised on malformed input; it draws nothing.
    CONVERT_FAILED = "convert.failed"
    #: WARNING: the surface's root component does not exist; it draws nothing.
    CONVERT_ROOT_MISSING = "convert.root_missing"
    #: WARNING: a referenced component does not exist; the reference is skipped.
    CONVERT_COMPONENT_MISSING = "convert.component_missing"
    #: WARNING: a child reference that is not a string; skipped.
    CONVERT_CHILD_MALFORMED = "convert.child_malformed"
    #: WARNING: a component reachable from itself; the repeat is dropped.
    CONVERT_CYCLE = "convert.cycle"
    #: WARNING: a component of a type the vocabulary lacks; skipped with its children.
    CONVERT_UNKNOWN_COMPONENT = "convert.unknown_component"
    #: WARNING, once: the component at ``max_depth`` dropped with its subtree.
    CONVERT_DEPTH_CAP = "convert.depth_cap"
    #: WARNING, once: ``max_nodes`` elements emitted; conversion stops emitting.
    CONVERT_NODE_BUDGET = "convert.node_budget"
    #: WARNING: too many references that emit nothing; conversion stops.
    CONVERT_WORK_BUDGET = "convert.work_budget"
    #: WARNING, once: a template past ``max_template_items``; its first items expanded.
    CONVERT_TEMPLATE_CAP = "convert.template_cap"
    #: WARNING (DEBUG while its data has not arrived): a template not bound to a list.
    CONVERT_TEMPLATE_NOT_LIST = "convert.template_not_list"
    #: WARNING (DEBUG while its data is pending): an element without what it needs; dropped.
    CONVERT_ELEMENT_DROPPED = "convert.element_dropped"
    #: WARNING: a prop value with no counterpart in the vocabulary; dropped or left empty.
    CONVERT_PROP_INVALID = "convert.prop_invalid"
    #: WARNING: a string prop past ``max_string_length``; cut there.
    CONVERT_STRING_CUT = "convert.string_cut"
    #: WARNING (DEBUG while an ``openUrl`` URL is pending): a URL scheme not allowed; dropped.
    CONVERT_UNSAFE_URL = "convert.unsafe_url"
    #: WARNING (DEBUG while its name is pending): a button action not usable; dropped.
    CONVERT_ACTION_DROPPED = "convert.action_dropped"
    #: DEBUG: an icon name with no counterpart in the vocabulary; skipped (as upstream).
    CONVERT_ICON_UNMAPPED = "convert.icon_unmapped"
    #: WARNING: a function call this library does not implement; its value dropped.
    CONVERT_FUNCTION_UNSUPPORTED = "convert.function_unsupported"
    #: WARNING (DEBUG while its data is pending): a function call that failed; value dropped.
    CONVERT_FUNCTION_FAILED = "convert.function_failed"

    # -- archives (_engine.threads) -------------------------------------------------------

    #: ERROR: an interleaved archive line that is not a ``{"threadId","seq","event"}``
    #: envelope; skipped, counted against no thread.
    ARCHIVE_ENVELOPE_INVALID = "archive.envelope_invalid"
    #: ERROR: an archive file whose name is not UTF-8, which an engine cannot carry;
    #: skipped (renamed to UTF-8, it is read).
    ARCHIVE_FILE_NAME_INVALID = "archive.file_name_invalid"

    # -- the shell (_shell) ------------------------------------------------------------

    #: ERROR: a log line that is not a valid event; replay keeps the state before it.
    LOG_BAD_EVENT = "log.bad_event"
    #: WARNING: an incomplete last log line (a crash mid-write); truncated, or ignored read-only.
    LOG_TORN_TAIL = "log.torn_tail"
    #: WARNING: a last log line that is a whole event with no line feed (another program
    #: wrote or cut the file); kept: its line feed is added, or read-only, read as it is.
    LOG_UNTERMINATED_TAIL = "log.unterminated_tail"
    #: ERROR: an A2UI sample file whose wrapper is not a sample or test-case file.
    A2UI_FILE_INVALID = "a2ui.file_invalid"
