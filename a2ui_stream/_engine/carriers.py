"""Tool carriers: render-tool arguments and tool results, drawn as the middleware draws them.

Owns the stage in front of the activity path. Agents without ``@ag-ui/a2ui-middleware``
in front of them (every Python adapter) draw through tool calls: the streamed
arguments of a render tool (``{surfaceId, components, data?, catalogId?}``) and tool
results holding ``a2ui_operations``. :func:`carry` turns each such event into the
``a2ui-surface`` activity snapshots the middleware would have emitted for it
(``shared/reference/agui-a2ui-middleware.md`` section 2.7), and the reducer applies
them on the activity path, as drawings of a lower rank than genuine activity.

How a tool event becomes a drawing, top to bottom:

1. ``TOOL_CALL_START`` of a render tool opens a call keyed ``outer ?? toolCallId``
   (``outer``: the open non-render call it runs inside, such as ``generate_a2ui``) and
   draws the lifecycle ``building`` on messageId ``a2ui-surface-<key>``. Any other
   tool becomes the open outer call. A call runs inside the open call when it names no
   message (a sub-agent's, as ag-ui-strands re-emits them), or, inside a wrapper tool
   (``generate_a2ui``, or a name in ``ToolConfig.wrapper_tools``), a message that is
   neither that call's nor one the agent spoke.
2. ``TOOL_CALL_ARGS`` appends to the call's text and advances a linear scan of its
   structure (:class:`Scan`): where each top-level value, the first ``data`` object's
   members and their arrays' items close. Progress (``progressTokens``, the text's
   UTF-16 length / 4) is drawn every 20 tokens. Only a delta holding ``}``, ``]`` or
   ``"`` can have completed something; on such a delta, once ``surfaceId`` is known:
   the closed ``components`` array is parsed (once) and checked as the middleware's
   toolkit checks it (rejected: lifecycle ``retrying``), then painted with
   ``createSurface`` + ``updateComponents``; each later delta that completes items of
   ``data.<key>`` paints them; the closed ``data`` object paints whole. Paints are
   cumulative snapshots whose values are slices of the arguments' own text, so
   nothing is decoded twice and the activity path's prefix reuse applies.
3. ``TOOL_CALL_RESULT`` whose content (decoded once more if it is a JSON string)
   holds an ``a2ui_operations`` array draws its operations grouped by surface, minus
   the surfaces a render call of the run already painted, unless a render call of
   this call (or inside it) already painted; ``a2ui_recovery_exhausted`` draws the
   lifecycle ``failed`` (how the content reads: :mod:`a2ui_stream._engine.results`).
   A content given as a list of parts draws nothing, as behind the middleware, which
   reads only a string; ``tool.result_parts`` says so when its text holds A2UI.
   It is keyed by the open call only when its own call ran inside it (named no
   message); the agent's own call keeps its own key.
4. ``RUN_FINISHED`` with calls still open (no ``TOOL_CALL_END``) reports each
   (:func:`unended`); ``@ag-ui/client`` fails such a run.

Where we differ from the middleware on purpose: past 100 repeated-data rows, a paint
waits until the rows painted have doubled (the middleware paints at every delta that
completes one, and every paint repeats them all, which is quadratic in a long list);
the last paint, of the whole ``data``, is the same. A render call, or a result, of the
agent's own beside an unanswered tool call keeps its own key, instead of being filed
under that call so that each drawing replaces the last (ag-ui-strands gives each of a
turn's calls a message of its own, and answers them only once all have streamed). And
once a run carries
``a2ui-surface`` activity (it is recorded behind the middleware), render calls that
start afterwards are left to that activity and cost nothing here.

Must not import: the reducer or the shell. Pure: frozen values in, values out; a bad
or out-of-order event is a :class:`Diagnostic`, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

import immutables
import msgspec

from a2ui_stream._engine.argscan import Scan, Tail, advance, watch
from a2ui_stream._engine.results import (
    MAX_ATTEMPTS,
    operations,
    parts_text,
    recovery_failure,
    surface_of,
)
from a2ui_stream._engine.toolkit import structural_errors
from a2ui_stream._state.persistent import EMPTY_MAP, OrderedMap
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.convention import (
    A2UI_ACTIVITY_TYPE,
    OPERATIONS_KEY,
    RENDER_TOOL_NAME,
    SCHEMA_CONTEXT_DESCRIPTION,
)
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.numbers import JsDecoder, js_string

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = [
    "BASIC_CATALOG_ID",
    "MIDDLEWARE_PREFIX",
    "RENDER_TOOL_NAME",
    "WRAPPER_TOOL_NAME",
    "Carriers",
    "ToolConfig",
    "carry",
    "saw_activity",
    "unended",
]

BASIC_CATALOG_ID: Final = "https://a2ui.org/specification/v0_9/basic_catalog.json"
"""The catalog a streamed ``createSurface`` names when nothing else does."""
_LOG_EVENT_TOOL: Final = "log_a2ui_event"  # the middleware's synthetic action tool
_TOKEN_STEP: Final = 20
#: Repeated-data rows painted one paint per delta, as the middleware paints them; past
#: this many, a paint waits until the rows have doubled (``Limits.max_template_items``
#: shows no more by default).
_EVERY_ITEM: Final = 100
#: The outer tool the adapters inject around their A2UI sub-agent (the toolkit's name).
WRAPPER_TOOL_NAME: Final = "generate_a2ui"
_MESSAGE_PREFIX: Final = "a2ui-surface-"

_JSON = JsDecoder()
_ENCODE = msgspec.json.Encoder().encode


class ToolConfig(NamedTuple):
    """What the reducer was told about tool carriers.

    Attributes:
        render_tools: tool names whose streamed arguments draw.
        catalog_id: the catalog a streamed surface names, before any streamed
            ``catalogId`` (the middleware's ``defaultCatalogId`` or the client's own
            catalog); ``None`` leaves it to the run's input, then the arguments.
        wrapper_tools: tool names that wrap an A2UI sub-agent: a render call inside
            one, in a message that is neither the wrapper's nor one the agent spoke, is
            the sub-agent's (the toolkit's ``generate_a2ui``, renamed by its
            ``tool_name``; nothing in the stream tells such a message from one of the
            agent's own calls, which ag-ui-strands streams each in a message of its own).
    """

    render_tools: frozenset[str] = frozenset({RENDER_TOOL_NAME})
    catalog_id: str | None = None
    wrapper_tools: frozenset[str] = frozenset({WRAPPER_TOOL_NAME})


# --- The stage's state ----------------------------------------------------------------


class _Call(msgspec.Struct, frozen=True, kw_only=True):
    """One streaming render call, as the middleware tracks it.

    Attributes:
        key: ``outer ?? toolCallId``: its messageId is ``a2ui-surface-<key>``.
        outer: the open call it runs inside, if any.
        scan: its argument text so far, scanned.
        units: the text's length in UTF-16 code units (what JavaScript counts).
        components: the accepted components' text and the surface they were accepted
            for; ``None`` until then.
        judged: the closed components array was read (accepted or not, never again).
        rejected: the components failed the toolkit's check.
        items_key: the repeated-data key the components name.
        items: how many repeated-data items were painted.
        tail: how the text after the closed repeated-data array reads, once it closed.
        data_complete: the whole ``data`` object was painted.
    """

    key: str
    outer: str | None
    scan: Scan = msgspec.field(default_factory=Scan)
    units: int = 0
    components: tuple[bytes, str] | None = None
    judged: bool = False
    rejected: bool = False
    items_key: bytes = b"items"
    items: int = 0
    tail: Tail | None = None
    data_complete: bool = False


Keys: TypeAlias = "immutables.Map[str, None]"
"""A set of ids that grows with the run: a trie, so that adding one costs a few steps
where a frozenset union copied them all (32,000 render calls in one run took 42 s)."""
_NO_KEYS: Keys = immutables.Map()


def _without(keys: Keys, key: str) -> Keys:
    return keys.delete(key) if key in keys else keys


class Carriers(msgspec.Struct, frozen=True, kw_only=True):
    """The stage's bookkeeping for one run (the middleware keeps its state per run).

    Attributes:
        calls: streaming render calls by toolCallId.
        outer: the open non-render call, if any, its ``parentMessageId``, and whether
            it wraps an A2UI sub-agent (``ToolConfig.wrapper_tools``).
        attempts: render attempts per key.
        retrying: keys whose last attempt was rejected.
        tokens: ``progressTokens`` last drawn per key.
        streamed: surfaceIds a render call of the run painted.
        painted_outers: outer calls a render call inside of which painted.
        frontend_catalog_id: the catalog id of the run input's schema entry.
        behind_middleware: the run carries ``a2ui-surface`` activity: it was recorded
            behind the middleware, which drew the render calls itself.
        seen: toolCallIds of every tool event of the run (history skips them), with
            the index of the first event naming each.
        named: the calls started naming a message (the agent's own, never a
            sub-agent's), each with that messageId.
        open: the calls started and not ended yet, each with its name.
        spoken: the last text message the agent started while the outer call was open:
            a render call in it (or in the outer call's own message) is the agent's own,
            never a sub-agent's. One id, not a set: each event costs the same.
    """

    calls: OrderedMap[str, _Call] = msgspec.field(default=EMPTY_MAP)
    outer: tuple[str, str | None, bool] | None = None
    attempts: OrderedMap[str, int] = msgspec.field(default=EMPTY_MAP)
    retrying: Keys = _NO_KEYS
    tokens: OrderedMap[str, int] = msgspec.field(default=EMPTY_MAP)
    streamed: Keys = _NO_KEYS
    painted_outers: Keys = _NO_KEYS
    frontend_catalog_id: str | None = None
    behind_middleware: bool = False
    seen: OrderedMap[str, int] = msgspec.field(default=EMPTY_MAP)
    named: OrderedMap[str, str] = msgspec.field(default=EMPTY_MAP)
    open: OrderedMap[str, str] = msgspec.field(default=EMPTY_MAP)
    spoken: str | None = None


Drawings: TypeAlias = tuple[ev.ActivitySnapshot, ...]
_Carried: TypeAlias = tuple[Carriers, Drawings, tuple[Diagnostic, ...]]

_replace = msgspec.structs.replace


#: How the middleware names every activity message it draws (reference, section 2):
#: ``a2ui-surface-<callId>``, or ``a2ui-surface-<surfaceId>-<callId>`` for a result's.
MIDDLEWARE_PREFIX: Final = "a2ui-surface-"


def saw_activity(carriers: Carriers) -> Carriers:
    """Note that the run carries ``a2ui-surface`` activity (it is behind the middleware)."""
    return carriers if carriers.behind_middleware else _replace(carriers, behind_middleware=True)


def carry(carriers: Carriers, event: ev.Event, config: ToolConfig, *, seq: int = 0) -> _Carried:
    """Turn one tool event into the activity snapshots the middleware would emit for it.

    Args:
        carriers: the run's bookkeeping before the event; left unchanged.
        event: any event; only ``RUN_STARTED`` and the tool events do anything.
        config: the render tool names and catalog id.
        seq: the event's index, for diagnostics.

    Returns:
        The bookkeeping after the event, the snapshots to draw in order, and
        diagnostics for what could not be read.
    """
    handler = _HANDLERS.get(type(event))
    if handler is None:
        return carriers, (), ()
    return handler(carriers, event, config, seq)


def _snapshot(key: str, content: bytes) -> ev.ActivitySnapshot:
    return ev.ActivitySnapshot(
        message_id=_MESSAGE_PREFIX + key,
        activity_type=A2UI_ACTIVITY_TYPE,
        content=msgspec.Raw(content),
        replace=True,
    )


def _lifecycle(key: str, content: dict[str, Any]) -> ev.ActivitySnapshot:
    return _snapshot(key, _ENCODE(content))


def _problem(code: Code, message: str, seq: int, call_id: str) -> Diagnostic:
    return Diagnostic(
        code=code,
        message=f"tool call {call_id!r}: {message}",
        severity=Severity.WARNING,
        seq=seq,
    )


# --- RUN_STARTED ----------------------------------------------------------------------


def _on_run_started(_c: Carriers, event: ev.RunStarted, _config: ToolConfig, _seq: int) -> _Carried:
    """A new run: the middleware's state starts afresh, reading the run input's catalog."""
    catalog_id = None
    run_input = event.input
    if isinstance(run_input, ev.RunAgentInput):
        catalog_id = _frontend_catalog_id(run_input.context)
    return Carriers(frontend_catalog_id=catalog_id), (), ()


def _on_text_start(
    c: Carriers, event: ev.TextMessageStart, _config: ToolConfig, _seq: int
) -> _Carried:
    """The agent speaks: a render call in this message is its own (see :func:`_on_start`)."""
    message_id = event.message_id
    if c.outer is None or not isinstance(message_id, str) or message_id == c.spoken:
        return c, (), ()  # the common case: nothing open, nothing to note
    return _replace(c, spoken=message_id), (), ()


def _frontend_catalog_id(context: Iterable[ev.Context]) -> str | None:
    """The ``catalogId`` of the schema context entry, as the middleware reads it first."""
    for entry in context:
        if entry.description == SCHEMA_CONTEXT_DESCRIPTION:
            try:
                value = _JSON.decode(entry.value)
            except msgspec.DecodeError:
                return None
            found = value.get("catalogId") if isinstance(value, dict) else None
            return found if isinstance(found, str) and found else None
    return None


# --- TOOL_CALL_START ------------------------------------------------------------------


def _on_start(c: Carriers, event: ev.ToolCallStart, config: ToolConfig, seq: int) -> _Carried:
    call_id, name = event.tool_call_id, event.tool_call_name
    parent = event.parent_message_id if isinstance(event.parent_message_id, str) else None
    named = name if isinstance(name, str) else "a tool"  # kept with a warning when absent
    c = _replace(c, seen=c.seen.set(call_id, seq), open=c.open.set(call_id, named))
    if parent is not None:
        c = _replace(c, named=c.named.set(call_id, parent))
    if name not in config.render_tools:
        if name != _LOG_EVENT_TOOL:
            wrapper = name in config.wrapper_tools
            c = _replace(c, outer=(call_id, parent, wrapper), spoken=None)
        return c, (), ()
    if c.behind_middleware:
        return c, (), ()  # the middleware draws this call; its activity is in the stream
    outer = c.outer
    # The middleware files every render call under the open call, so that each render
    # replaces the previous one (a defect we do not copy). A sub-agent's calls name no
    # message (ag-ui-strands), or run inside a wrapper in a message of their own;
    # the agent's own name one, its own message or one it spoke since.
    inside = outer is not None and (
        parent is None or (outer[2] and parent != outer[1] and parent != c.spoken)
    )
    outer_id = outer[0] if outer is not None and inside else None
    key = outer_id or call_id
    c = _replace(
        c,
        calls=c.calls.set(call_id, _Call(key=key, outer=outer_id)),
        attempts=c.attempts.set(key, c.attempts.get(key, 0) + 1),
        tokens=c.tokens.set(key, 0),
    )
    if key in c.retrying:
        return c, (), ()
    return c, (_lifecycle(key, {"status": "building"}),), ()


# --- TOOL_CALL_ARGS -------------------------------------------------------------------


def _on_args(c: Carriers, event: ev.ToolCallArgs, config: ToolConfig, seq: int) -> _Carried:
    call = c.calls.get(event.tool_call_id)
    delta = event.delta
    if call is None or not isinstance(delta, str) or not delta:
        return c, (), ()
    call = _replace(
        call,
        scan=advance(call.scan, delta.encode("utf-8", "surrogatepass")),
        units=call.units + len(delta.encode("utf-16-le", "surrogatepass")) // 2,
    )
    drawings: list[ev.ActivitySnapshot] = []
    diagnostics: list[Diagnostic] = []
    key = call.key
    painted = call.components is not None
    if not painted and not call.rejected and not call.data_complete and key not in c.retrying:
        tokens = (call.units + 2) // 4  # Math.round(length / 4)
        if tokens - c.tokens.get(key, 0) >= _TOKEN_STEP:
            c = _replace(c, tokens=c.tokens.set(key, tokens))
            drawings.append(_lifecycle(key, {"status": "building", "progressTokens": tokens}))
    structural = "}" in delta or "]" in delta
    if structural or '"' in delta:
        c, call = _paint(
            c, call, config, structural, drawings, diagnostics, seq, event.tool_call_id
        )
    c = _replace(c, calls=c.calls.set(event.tool_call_id, call))
    return c, tuple(drawings), tuple(diagnostics)


def _paint(  # noqa: PLR0917 - the one step of a delta, with what it reads and fills
    c: Carriers,
    call: _Call,
    config: ToolConfig,
    structural: bool,
    drawings: list[ev.ActivitySnapshot],
    diagnostics: list[Diagnostic],
    seq: int,
    call_id: str,
) -> tuple[Carriers, _Call]:
    """What a delta that can have completed something paints, in the middleware's order."""
    scan = call.scan
    surface_id = scan.strings.get(b"surfaceId")
    if not surface_id:
        return c, call  # nothing is drawn before the surface is known
    streamed = scan.strings.get(b"catalogId")
    catalog_id = (
        config.catalog_id
        or c.frontend_catalog_id
        or (streamed if streamed and streamed != "basic" else BASIC_CATALOG_ID)
    )
    newly = False
    if call.components is None and not call.rejected and not call.judged:
        c, call, newly = _judge(c, call, surface_id, drawings, diagnostics, seq, call_id)
    if call.components is None:
        return c, call
    count = 0
    if not call.data_complete:
        items = scan.items(call.items_key)
        closed = scan.items_closed.get(call.items_key)
        if closed is not None:
            call = _replace(call, tail=watch(call.tail or Tail(position=closed), scan))
        readable = items is not None and not (call.tail is not None and call.tail.broken)
        # Every paint repeats the rows so far: past the first rows (what a template
        # shows by default), paint when their number has doubled, so a long list
        # costs the activity path a multiple of its length, not of its square.
        if (
            readable
            and items is not None
            and items[1] > call.items
            and (items[1] <= _EVERY_ITEM or items[1] >= 2 * call.items)
        ):
            count = items[1]
    if newly or count:
        ops = _paint_ops(call, surface_id, catalog_id)
        if count:
            start = scan.data_starts[call.items_key][0]
            value = (
                b"{"
                + _ENCODE(call.items_key.decode("utf-8", "replace"))
                + b":"
                + scan.text(start, scan.item_end(call.items_key, count))
                + b"]}"
            )
            ops.append(_data_op(surface_id, value))
            call = _replace(call, items=count)
        drawings.append(_snapshot(call.key, _content(ops)))
        c = _replace(c, retrying=_without(c.retrying, call.key))
    if not call.data_complete and structural and scan.data_end is not None:
        start = scan.starts[b"data"][0]
        ops = [
            *_paint_ops(call, surface_id, catalog_id),
            _data_op(surface_id, scan.text(start, scan.data_end)),
        ]
        drawings.append(_snapshot(call.key, _content(ops)))
        call = _replace(call, data_complete=True)
    return c, call


def _judge(  # noqa: PLR0917
    c: Carriers,
    call: _Call,
    surface_id: str,
    drawings: list[ev.ActivitySnapshot],
    diagnostics: list[Diagnostic],
    seq: int,
    call_id: str,
) -> tuple[Carriers, _Call, bool]:
    """Read the closed components array once: accept it, reject it, or leave it unpainted."""
    scan = call.scan
    end = scan.components_end
    if end is None:
        return c, call, False
    text = scan.text(scan.starts[b"components"][0], end)
    call = _replace(call, judged=True)
    try:
        components = _JSON.decode(text)
    except (msgspec.DecodeError, RecursionError):
        diagnostics.append(
            _problem(
                Code.TOOL_ARGS_MALFORMED, "`components` is not valid JSON; not drawn", seq, call_id
            )
        )
        return c, call, False
    if not components or not all(
        isinstance(item, dict) and isinstance(item.get("component"), str) for item in components
    ):
        # The middleware waits for a typed array that never comes: nothing paints.
        diagnostics.append(
            _problem(
                Code.TOOL_COMPONENTS_UNTYPED,
                "`components` is empty or has an item without a string `component`; not drawn",
                seq,
                call_id,
            )
        )
        return c, call, False
    errors = structural_errors(components)
    if errors:
        key = call.key
        attempt = min(c.attempts.get(key, 1) + 1, MAX_ATTEMPTS)
        content = {
            "status": "retrying",
            "attempt": attempt,
            "maxAttempts": MAX_ATTEMPTS,
            "errors": errors,
        }
        drawings.append(_lifecycle(key, content))
        c = _replace(c, retrying=c.retrying.set(key, None), tokens=c.tokens.set(key, 0))
        return c, _replace(call, rejected=True), False
    call = _replace(call, components=(text, surface_id), items_key=_repeated_key(components))
    outers = c.painted_outers if call.outer is None else c.painted_outers.set(call.outer, None)
    streamed = c.streamed.set(surface_id, None)
    return _replace(c, streamed=streamed, painted_outers=outers), call, True


def _repeated_key(components: Sequence[dict[str, Any]]) -> bytes:
    """The data key repeated items stream under: the first template's path, else ``items``."""
    for component in components:
        children = component.get("children")
        if isinstance(children, dict):
            path = children.get("path")
            if isinstance(path, str) and path:
                return path.removeprefix("/").encode()
    return b"items"


def _paint_ops(call: _Call, surface_id: str, catalog_id: str) -> list[bytes]:
    assert call.components is not None  # noqa: S101 - only called once accepted
    sid = _ENCODE(surface_id)
    create = (
        b'{"version":"v0.9","createSurface":{"surfaceId":'
        + sid
        + b',"catalogId":'
        + _ENCODE(catalog_id)
        + b"}}"
    )
    components = (
        b'{"version":"v0.9","updateComponents":{"surfaceId":'
        + sid
        + b',"components":'
        + call.components[0]
        + b"}}"
    )
    return [create, components]


def _data_op(surface_id: str, value: bytes) -> bytes:
    return (
        b'{"version":"v0.9","updateDataModel":{"surfaceId":'
        + _ENCODE(surface_id)
        + b',"path":"/","value":'
        + value
        + b"}}"
    )


def _content(ops: Iterable[bytes]) -> bytes:
    return b'{"' + OPERATIONS_KEY.encode() + b'":[' + b",".join(ops) + b"]}"


# --- TOOL_CALL_END --------------------------------------------------------------------


def _on_end(c: Carriers, event: ev.ToolCallEnd, _config: ToolConfig, seq: int) -> _Carried:
    if event.tool_call_id in c.open:
        c = _replace(c, open=c.open.delete(event.tool_call_id))
    call = c.calls.get(event.tool_call_id)
    if call is None or (call.judged and call.components is None):
        return c, (), ()  # unknown, or its components were refused and reported
    scan = call.scan
    try:
        _JSON.decode(scan.text(0, scan.size))
    except (msgspec.DecodeError, RecursionError):
        if call.components is not None:
            # The middleware paints once `components` closes, whatever follows it; so
            # does this, and says that the arguments never became the JSON they claim.
            message = (
                "the render arguments are not valid JSON as a whole (something after "
                "`components` is broken or left over); what they drew stays"
            )
        else:
            message = "the render arguments are not valid JSON; nothing was drawn from them"
        return c, (), (_problem(Code.TOOL_ARGS_MALFORMED, message, seq, event.tool_call_id),)
    if call.components is not None:
        return c, (), ()
    if not scan.strings.get(b"surfaceId"):
        message = "the render arguments have no `surfaceId` string; nothing was drawn"
        return c, (), (_problem(Code.TOOL_ARGS_UNUSABLE, message, seq, event.tool_call_id),)
    return c, (), ()


def unended(carriers: object, seq: int) -> tuple[Diagnostic, ...]:
    """What ``RUN_FINISHED`` says of the run's tool calls that never ended.

    ``@ag-ui/client`` refuses such a run ("tool calls are still active") and fails it;
    here the run finishes and keeps what the calls drew, and each call is reported.

    Args:
        carriers: the run's bookkeeping (``None`` when it saw no tool event).
        seq: the ``RUN_FINISHED`` event's index.
    """
    if not isinstance(carriers, Carriers) or not carriers.open:
        return ()
    found = []
    for call_id, name in carriers.open.items():
        call = carriers.calls.get(call_id)
        drew = "what its arguments drew stays" if call and call.components else "it drew nothing"
        message = f"{name} call never ended (no TOOL_CALL_END before RUN_FINISHED); {drew}"
        found.append(_problem(Code.TOOL_CALL_UNENDED, message, seq, call_id))
    return tuple(found)


# --- TOOL_CALL_RESULT -----------------------------------------------------------------


def _on_result(c: Carriers, event: ev.ToolCallResult, _config: ToolConfig, seq: int) -> _Carried:
    call_id = event.tool_call_id
    c = _replace(c, seen=c.seen.set(call_id, seq))
    drawings: Drawings = ()
    call = c.calls.get(call_id)
    handled = (call is not None and call.components is not None) or call_id in c.painted_outers
    if not handled and not c.behind_middleware:
        drawings, c = _result_drawings(c, event)
    if c.outer is not None and c.outer[0] == call_id:
        c = _replace(c, outer=None)
    text = None if handled else parts_text(event.content)
    if text is not None and (operations(text) is not None or recovery_failure(text) is not None):
        # Drawing it would differ from the same run behind the middleware, which draws
        # nothing from it; saying so is what is missing.
        message = (
            "the result's content is a list of content parts whose text holds A2UI "
            "(a2ui_operations or a recovery failure); not drawn: the middleware reads "
            "only a string content, so send the envelope as the content itself"
        )
        return c, drawings, (_problem(Code.TOOL_RESULT_PARTS, message, seq, call_id),)
    return c, drawings, ()


def _result_drawings(c: Carriers, event: ev.ToolCallResult) -> tuple[Drawings, Carriers]:
    # The open call's key, as the middleware takes it, for a sub-agent's result alone:
    # the agent's own call, named in a message, keeps its own (see :func:`_on_start`).
    call_id = event.tool_call_id
    key = c.outer[0] if c.outer is not None and call_id not in c.named else call_id
    ops = operations(event.content)
    if ops is None:
        failure = recovery_failure(event.content)
        if failure is None:
            return (), c
        return (_lifecycle(key, failure),), _replace(c, retrying=_without(c.retrying, key))
    groups: dict[Any, tuple[Any, list[bytes]]] = {}
    for op in ops:
        target = surface_of(op)
        if target is not None and target in c.streamed:
            continue  # a render call of the run painted it already
        label = "default" if target is None else target
        group = groups.setdefault(_group_key(label), (label, []))
        group[1].append(bytes(op))
    single = len(groups) == 1
    drawings = tuple(
        _snapshot(key if single else f"{js_string(label)}-{key}", _content(group))
        for label, group in groups.values()
    )
    return drawings, c


def _group_key(label: Any) -> Any:
    """A dictionary key telling surfaceIds apart as a JavaScript Map would."""
    try:
        hash(label)
    except TypeError:
        return ("object", id(label))
    return (type(label), label)


_Handler: TypeAlias = Callable[[Carriers, Any, ToolConfig, int], _Carried]
_HANDLERS: dict[type[Any], _Handler] = {
    ev.RunStarted: _on_run_started,
    ev.TextMessageStart: _on_text_start,
    ev.ToolCallStart: _on_start,
    ev.ToolCallArgs: _on_args,
    ev.ToolCallEnd: _on_end,
    ev.ToolCallResult: _on_result,
}
