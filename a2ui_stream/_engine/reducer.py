"""The surface engine: ``reduce(state, event) -> (state', diffs, diagnostics)``.

Owns the stream-level semantics of A2UI over AG-UI: activity snapshots grouped into
buckets by ``messageId``, surfaces keyed by ``surfaceId`` across buckets (the most
recently received bucket wins), one ``present`` part per surface scoped to its run,
part diffs, lifecycle statuses, ``ACTIVITY_DELTA`` patches, and ``MESSAGES_SNAPSHOT``
(reference: assistant-ui converter §1b). The values it produces live in ``_state``;
rehydration from history in ``_history``.

Rules, as h11 keeps them for its state machine:

* Every event's transition starts in this module: the dispatch table ``_HANDLERS``
  maps each event type to one small function. A messageId's lifecycle table is
  ``_engine.lifecycle``'s.
* Nothing here does I/O, logs, or imports the shell (log, pipeline, CLI).
* States are immutable values. ``reduce`` never changes the state it is given; an old
  state stays valid and equal to itself after later events.

Why it is fast: the middleware re-sends cumulative snapshots, so most of a snapshot
repeats the previous one. A bucket remembers the undecoded bytes of each operation it
applied and checkpoints of the surfaces between them; a new snapshot is compared byte
for byte and only the operations after the first difference are decoded and applied.
Re-sent data takes back the identity of its unchanged parts, a surface that comes out
as the same object is not converted again, and an unchanged element tree produces no
diff.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import immutables
import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.carriers import RENDER_TOOL_NAME, Carriers, ToolConfig, carry, saw_activity
from a2ui_stream._engine.census import count_surfaces
from a2ui_stream._engine.content import (
    content_keys,
    no_operations,
    patch_content,
    read_content,
    too_deep,
)
from a2ui_stream._engine.deltas import (
    Edits,
    component_edits,
    content_of,
    edit_first,
    is_upsert,
    untouched_operations,
)
from a2ui_stream._engine.history import SeenIn, normalize_document, rehydrate
from a2ui_stream._engine.lifecycle import next_lifecycle
from a2ui_stream._engine.parts import Conversions, history_diffs, settle, synthesize
from a2ui_stream._engine.sharing import (
    decode_shared,
    delta_changes,
    is_checkpoint,
    restart,
    share_data,
    shared_prefix,
)
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.stream import (
    A2UI_ACTIVITY_TYPE,
    ANONYMOUS_MESSAGE_ID,
    OPERATIONS_KEY,
    Bucket,
    PartDiff,
    RunState,
    StreamState,
)
from a2ui_stream._state.surface import ComponentChange, apply_operation, too_many_operations
from a2ui_stream._tree.depth import count_values
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.chunks import CHUNK_EVENTS, expand
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity, internal_error
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from a2ui_stream._tree.patch import DataChange

__all__ = ["Reducer", "Reduction"]

JSON: TypeAlias = Any


class Reduction(NamedTuple):
    """What one event did: the new state, the part diffs, and what went wrong."""

    state: StreamState
    diffs: tuple[PartDiff, ...]
    diagnostics: tuple[Diagnostic, ...]


class _ContentView(msgspec.Struct):
    """The two keys of an activity's content the reducer reads; the rest stays undecoded."""

    a2ui_operations: list[msgspec.Raw] | msgspec.Raw | UnsetType = UNSET
    status: msgspec.Raw | UnsetType = UNSET


_replace = msgspec.structs.replace
_NO_SURFACES: immutables.Map[str, int] = immutables.Map()
_NO_REPORTS: immutables.Map[str, tuple[Diagnostic, ...]] = immutables.Map()
_CONTENT_VIEW = msgspec.json.Decoder(_ContentView)


class _Context(NamedTuple):
    """Per-event inputs every handler needs, decided once per event."""

    seq: int
    converter: Converter
    limits: Limits
    keep_runs: int | None
    tools: ToolConfig
    conversions: Conversions


class Reducer:
    """Reduces AG-UI events into :class:`StreamState` values.

    Holds configuration only (limits and the converter built from them); every call is
    a pure function of its arguments.
    """

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        keep_runs: int | None = None,
        render_tools: Iterable[str] = (RENDER_TOOL_NAME,),
        catalog_id: str | None = None,
    ) -> None:
        """Decide the configuration once.

        Args:
            limits: bounds on conversion and state; the defaults when omitted.
            keep_runs: how many past runs to keep besides the current one; ``None`` keeps
                all (their parts stay readable), a number bounds memory on long streams.
            render_tools: the tool names whose streamed arguments draw a surface
                (``A2uiRequest.render_tools`` names the ones a request asks for).
            catalog_id: the catalog a surface drawn from render arguments names (the
                middleware's ``defaultCatalogId``); when omitted, the run input's
                schema entry, then the arguments' ``catalogId``, then the basic catalog.
        """
        self.limits = limits or Limits()
        self.keep_runs = keep_runs
        self.tools = ToolConfig(frozenset(render_tools), catalog_id or None)
        self._converter = Converter(limits=self.limits)
        # Beside the states, never inside them: each surface's latest conversion, which
        # the converter builds on; a cache whose contents never change a result.
        conversions = Conversions()
        self._fixed = (self._converter, self.limits, keep_runs, self.tools, conversions)
        #: The event types that can change more than the event count; with no chunk
        #: stream open, every other event reduces to ``skip(state, 1)``.
        self.drawing_events: frozenset[type[ev.Event]] = frozenset(_HANDLERS) | CHUNK_EVENTS

    def reduce(self, state: StreamState, event: ev.Event) -> Reduction:
        """Apply one event.

        A chunk, and any event while a chunk stream is open, is first expanded (see
        ``_wire.chunks``); what it stands for is applied in order, under its ``seq``.

        Args:
            state: the state before the event; left unchanged.
            event: a decoded AG-UI event of any type.

        Returns:
            The new state, the part diffs of the current run, and diagnostics for
            anything in the event that could not be used. Never raises: a bug in a
            handler is contained here, where every event passes (live, replayed,
            inspected or resumed), as a ``core.internal_error`` and no change.
        """
        chunked = state.chunks or type(event) in CHUNK_EVENTS
        handler = _expanded if chunked else _HANDLERS.get(type(event))
        if handler is None:  # not in drawing_events
            # Most events (text, tool calls, steps) only advance the count.
            return Reduction(_replace(state, seq=state.seq + 1), (), ())
        context = _Context(state.seq, *self._fixed)
        try:
            new_state, diffs, diagnostics = handler(state, event, context)
        except Exception as error:  # noqa: BLE001 - containment: a bug must not stop the stream
            what = f"event {state.seq} ({type(event).__name__})"
            problem = internal_error(error, what, seq=state.seq)
            return Reduction(_replace(state, seq=state.seq + 1), (), (problem,))
        return Reduction(msgspec.structs.replace(new_state, seq=state.seq + 1), diffs, diagnostics)

    def inert(self, state: StreamState, event: ev.Event) -> bool:
        """Whether ``event`` would change nothing but the event count, cheaply told.

        True for an argument delta of a tool call that draws nothing here (not a
        render tool, or one the middleware's own activity draws): the most frequent
        event of a tool-calling stream, which :meth:`skip` can then count. Never
        while a chunk stream is open: the delta would end it.
        """
        if type(event) is not ev.ToolCallArgs or not state.runs or state.chunks:
            return False
        carriers = state.runs[-1].carriers
        return not isinstance(carriers, Carriers) or event.tool_call_id not in carriers.calls

    def settle(self, state: StreamState) -> tuple[Diagnostic, ...]:
        """End the input: the warnings its open run still has (call it once, at the end).

        An open run's conversion warnings are reported at debug level, since a later
        event may fix them; its end reports those that held (``_engine.parts.settle``).
        """
        current = state.current
        return () if current is None else tuple(settle(current, None))

    def skip(self, state: StreamState, count: int) -> StreamState:
        """Reduce ``count`` events that are not :attr:`drawing_events`, all at once.

        Only while no chunk stream is open: any event may end one, and is reduced then.

        Args:
            state: the state before them.
            count: how many such events.

        Returns:
            The state with its event count advanced, otherwise unchanged.
        """
        return _replace(state, seq=state.seq + count)

    def reduce_all(self, events: Iterable[ev.Event], state: StreamState | None = None) -> Reduction:
        """Fold :meth:`reduce` over events, collecting every diff and diagnostic.

        Args:
            events: the events in stream order.
            state: the state to start from; an empty one when omitted.

        Returns:
            The final state with all diffs and diagnostics in order.
        """
        current = state or StreamState()
        diffs: list[PartDiff] = []
        diagnostics: list[Diagnostic] = []
        for event in events:
            current, event_diffs, event_diagnostics = self.reduce(current, event)
            diffs.extend(event_diffs)
            diagnostics.extend(event_diagnostics)
        return Reduction(current, tuple(diffs), tuple(diagnostics))

    def rehydrate(self, messages: Iterable[ev.Message | Mapping[str, Any]]) -> Reduction:
        """Rebuild the parts of stored history, as upstream's client does on restore.

        An ``activity`` message with ``a2ui-surface`` content belongs to the nearest
        preceding assistant (or reasoning) message; its operations are applied from
        scratch, ``replace`` is not consulted, and a later activity with the same id
        overwrites the earlier one (reference converter §1c).

        Args:
            messages: AG-UI messages as Structs or plain dicts, in history order.

        Returns:
            A state whose ``history`` holds one entry per owning assistant message.
        """
        history, diagnostics = rehydrate(
            messages, converter=self._converter, limits=self.limits, tools=self.tools
        )
        return Reduction(StreamState(history=history), (), diagnostics)


_Handled: TypeAlias = tuple[StreamState, tuple[PartDiff, ...], tuple[Diagnostic, ...]]
_Handler: TypeAlias = Callable[[StreamState, Any, _Context], _Handled]


def _expanded(state: StreamState, event: ev.Event, context: _Context) -> _Handled:
    """Apply the events one event expands into (``_wire.chunks``), all under its seq."""
    streams, events, found = expand(state.chunks, event, seq=context.seq)
    state = state if streams is state.chunks else _replace(state, chunks=streams)
    diffs: list[PartDiff] = []
    diagnostics = list(found)
    for one in events:
        handler = _HANDLERS.get(type(one))
        if handler is not None:
            state, more, problems = handler(state, one, context)
            diffs.extend(more)
            diagnostics.extend(problems)
    return state, tuple(diffs), tuple(diagnostics)


def _current_run(state: StreamState) -> tuple[RunState, StreamState]:
    """Return the current run, opening an anonymous one for events before any RUN_STARTED."""
    if state.runs:
        return state.runs[-1], state
    run = RunState()
    return run, msgspec.structs.replace(state, runs=(run,))


def _with_run(state: StreamState, run: RunState) -> StreamState:
    return msgspec.structs.replace(state, runs=(*state.runs[:-1], run))


def _on_run_started(state: StreamState, event: ev.RunStarted, context: _Context) -> _Handled:
    thread = event.thread_id
    carriers, _, _ = carry(Carriers(), event, context.tools)
    run = RunState(
        run_id=event.run_id,
        thread_id=None if isinstance(thread, UnsetType) else thread,
        carriers=carriers,
    )
    past = state.runs
    settled: tuple[Diagnostic, ...] = ()
    if past:
        # No event reaches a past run again, so its buckets and caches are dead weight;
        # its parts and lifecycles stay readable, and so do the tool calls it saw.
        last = past[-1]
        settled = tuple(settle(last, context.seq))
        seen = last.carriers.seen if isinstance(last.carriers, Carriers) else None
        last = msgspec.structs.replace(
            last,
            buckets=OrderedMap(),
            tool_buckets=OrderedMap(),
            live=_NO_SURFACES,
            reported=_NO_REPORTS,
            carriers=Carriers(seen=seen) if seen else None,
        )
        past = (*past[:-1], last)
    if context.keep_runs is not None:
        past = past[len(past) - context.keep_runs :] if context.keep_runs else ()
    context.conversions.clear()  # no event reaches a past run's surfaces again
    return msgspec.structs.replace(state, runs=(*past, run)), (), settled


def _on_run_ended(status: str) -> _Handler:
    def handler(state: StreamState, event: ev.Event, context: _Context) -> _Handled:
        # A failed run stays failed (a RUN_FINISHED after RUN_ERROR changes nothing), as
        # upstream's client keeps it; a RUN_ERROR after RUN_FINISHED fails it there too.
        if not state.runs or state.runs[-1].status == "error":
            return state, (), ()
        last = state.runs[-1]
        settled = tuple(settle(last, context.seq))
        message = getattr(event, "message", UNSET)
        error = message if isinstance(message, str) else last.error
        run = msgspec.structs.replace(last, status=status, error=error)
        return _with_run(state, run), (), settled

    return handler


def _on_activity_snapshot(
    state: StreamState, event: ev.ActivitySnapshot, context: _Context, *, tool: bool = False
) -> _Handled:
    """Apply an activity snapshot; ``tool``: one drawn from a tool call or result."""
    if event.activity_type != A2UI_ACTIVITY_TYPE:
        return state, (), ()
    key = event.message_id if isinstance(event.message_id, str) else ANONYMOUS_MESSAGE_ID
    run, state = _current_run(state)
    if not tool:
        run, state = _behind_middleware(run, state)
    previous = (run.tool_buckets if tool else run.buckets).get(key)
    if event.replace is False and previous is not None:
        return state, (), ()
    raw = bytes(event.content)
    if previous is not None and previous.content_bytes == raw:
        # A cumulative snapshot identical to the last one: nothing to decode or apply.
        return _place_bucket(state, run, previous, context, [], changed=False, tool=tool)
    try:
        view = _CONTENT_VIEW.decode(raw)
    except msgspec.DecodeError as error:
        return state, (), (_content_error(key, context, f"content is not valid: {error}"),)
    except RecursionError:  # msgspec's own bound, the interpreter's stack
        return state, (), (_locate(too_deep(context.limits), key, context),)
    operations = view.a2ui_operations
    if isinstance(operations, list):
        # Each Raw is a view into ``raw``, which the bucket keeps anyway: no second copy.
        keys = operations
        return _rebuild_bucket(state, run, key, keys, None, (UNSET, raw, 0), context, tool=tool)
    if not isinstance(operations, UnsetType):
        message = "content.a2ui_operations is not an array; the snapshot changes nothing"
        return state, (), (_content_error(key, context, message),)
    if isinstance(view.status, UnsetType):
        return state, (), (_locate(no_operations(content_keys(raw)), key, context),)
    read = read_content(raw, context.limits)
    if isinstance(read, Diagnostic):
        return state, (), (_locate(read, key, context),)
    return _apply_lifecycle(state, run, key, read, context)


def _behind_middleware(run: RunState, state: StreamState) -> tuple[RunState, StreamState]:
    """Note that the run carries genuine activity, which draws its render calls itself."""
    carriers = run.carriers if isinstance(run.carriers, Carriers) else Carriers()
    noted = saw_activity(carriers)
    if noted is run.carriers:
        return run, state
    run = msgspec.structs.replace(run, carriers=noted)
    return run, _with_run(state, run)


def _on_tool_event(state: StreamState, event: ev.Event, context: _Context) -> _Handled:
    """Draw what a tool event carries, through the activity path (see ``_engine.carriers``)."""
    if not state.runs and isinstance(event, ev.TextMessageStart):
        return state, (), ()  # only tool events open an anonymous run, as before
    run, state = _current_run(state)
    carriers = run.carriers if isinstance(run.carriers, Carriers) else Carriers()
    new, drawings, found = carry(carriers, event, context.tools, seq=context.seq)
    if new is run.carriers and not drawings:
        return state, (), found  # an argument delta of a call nobody draws: the common case
    state = _with_run(state, msgspec.structs.replace(run, carriers=new))
    diffs: list[PartDiff] = []
    diagnostics = list(found)
    for drawing in drawings:
        state, more, problems = _on_activity_snapshot(state, drawing, context, tool=True)
        diffs.extend(more)
        diagnostics.extend(problems)
    return state, tuple(diffs), tuple(diagnostics)


def _content_error(key: str, context: _Context, message: str) -> Diagnostic:
    return Diagnostic(
        code=Code.ACTIVITY_MALFORMED,
        message=message,
        severity=Severity.ERROR,
        seq=context.seq,
        message_id=key,
        path="$.content",
    )


def _apply_lifecycle(
    state: StreamState,
    run: RunState,
    key: str,
    read: tuple[dict[str, Any], int],
    context: _Context,
) -> _Handled:
    """Record a lifecycle status; ``read``: the content and how many values it holds."""
    status = read[0].get("status")
    if not isinstance(status, str):
        message = "content.status is not a string; the lifecycle is unchanged"
        return state, (), (_content_error(key, context, message),)
    lifecycle, diagnostics = next_lifecycle(
        run.lifecycles.get(key), status, read, seq=context.seq, message_id=key
    )
    lifecycles = run.lifecycles.set(key, lifecycle)
    return _with_run(state, msgspec.structs.replace(run, lifecycles=lifecycles)), (), diagnostics


def _rebuild_bucket(  # noqa: PLR0917 - one call site per carrier, each passing all
    state: StreamState,
    run: RunState,
    key: str,
    keys: Sequence[Any],
    documents: Sequence[Any] | None,
    content: tuple[JSON | UnsetType, bytes | None, int],
    context: _Context,
    known: Sequence[DataChange] = (),
    edits: Edits | None = None,
    *,
    tool: bool = False,
    untouched: int = 0,
) -> _Handled:
    """Rebuild one bucket from its operations, reusing the unchanged prefix.

    ``keys`` identify operations: bytes compare by value, decoded documents (after a
    delta) by identity, since a patch copies only what it changes. ``content`` is the
    decoded document (after a delta), the undecoded bytes (from the wire), and how many
    values the document holds.
    ``known`` says how a delta changed data values, for the stages that would diff them;
    ``edits``, how it changed component lists (the operations before it, and
    :func:`~a2ui_stream._engine.deltas.component_edits`), so that the first changed
    operation can be applied by what changed instead of replayed; ``untouched``, how
    many leading operations a delta left as the bucket's own objects.
    """
    diagnostics: list[Diagnostic] = []
    limit = context.limits.max_operations
    if len(keys) > limit:
        diagnostics.append(
            msgspec.structs.replace(
                too_many_operations(context.limits), seq=context.seq, message_id=key
            )
        )
        keys = keys[:limit]
    document, content_bytes, nodes = content
    previous = (run.tool_buckets if tool else run.buckets).get(key)
    shared = shared_prefix(previous.operation_keys, keys, untouched) if previous else 0
    if previous is not None and shared == len(keys) == len(previous.operation_keys):
        bucket = msgspec.structs.replace(
            previous,
            operation_keys=tuple(keys),
            content=document,
            content_nodes=nodes,
            content_bytes=content_bytes,
        )
        return _place_bucket(state, run, bucket, context, diagnostics, changed=False, tool=tool)
    checkpoints, surfaces, written, upserts = restart(previous, shared)
    start = checkpoints[-1][0] if checkpoints else 0
    reference = previous.surfaces if previous is not None else {}
    claims = list(known)
    first, changed = start, list[ComponentChange]()
    if edits is not None and previous is not None and documents is not None and start == shared:
        first, surfaces, changed = edit_first(
            previous,
            surfaces,
            (shared, len(keys), is_checkpoint(shared + 1, len(keys))),
            (documents, edits),
            (checkpoints, upserts),
        )
    shared_values: set[int] = set()  # the data values shared with the last snapshot's
    for index in range(first, len(keys)):
        if documents is None:
            operation = decode_shared(keys[index], index, previous, claims, written, shared_values)
        else:
            operation = normalize_document(documents[index], index)
        # Operations before ``shared`` are replayed from the nearest checkpoint; they
        # were reported when first applied.
        report = index >= shared
        if isinstance(operation, Diagnostic):
            if report:
                diagnostics.append(_locate(operation, key, context))
        else:
            surfaces, found = apply_operation(
                surfaces,
                operation,
                index=index,
                limits=context.limits,
                reference=reference,
                known=claims,
            )
            if report:
                diagnostics.extend(_locate(one, key, context) for one in found)
            if documents is not None and is_upsert(operation, found):
                upserts.add(index)
        if is_checkpoint(index + 1, len(keys)):
            checkpoints.append((index + 1, surfaces))
    # After a delta the data already shares what the patch left alone; only values
    # decoded afresh from the wire need sharing.
    fresh = documents is None
    if fresh and previous is not None and checkpoints and checkpoints[-1][0] == len(keys):
        surfaces = share_data(previous.surfaces, surfaces, shared_values)
        checkpoints[-1] = (len(keys), surfaces)
    bucket = Bucket(
        message_id=key,
        surfaces=surfaces,
        operation_keys=tuple(keys),
        checkpoints=tuple(checkpoints),
        content=document,
        content_nodes=nodes,
        content_bytes=content_bytes,
        written=written,
        upserts=frozenset(upserts),
    )
    return _place_bucket(
        state, run, bucket, context, diagnostics, changed=True, known=[*claims, *changed], tool=tool
    )


def _locate(diagnostic: Diagnostic, key: str, context: _Context) -> Diagnostic:
    return msgspec.structs.replace(diagnostic, seq=context.seq, message_id=key)


def _place_bucket(
    state: StreamState,
    run: RunState,
    bucket: Bucket,
    context: _Context,
    diagnostics: list[Diagnostic],
    *,
    changed: bool,
    known: Sequence[DataChange | ComponentChange] = (),
    tool: bool = False,
) -> _Handled:
    """Store ``bucket`` as the most recent one and resynthesize the surfaces it touches.

    Upstream's client deletes and re-inserts the bucket on every snapshot, so a
    re-sent older bucket wins a shared surfaceId again even when nothing in it changed.
    ``tool``: the bucket was drawn from a tool call or result, and goes with those.
    """
    key = bucket.message_id
    old = run.tool_buckets if tool else run.buckets
    is_latest = old.last_key() == key
    lifecycles = run.lifecycles
    current = lifecycles.get(key)
    if current is not None and current.phase != "painted":
        lifecycles = lifecycles.set(key, msgspec.structs.replace(current, phase="painted"))
    # The census counts buckets of both kinds; it finds the bucket replaced in ``buckets``.
    counted = msgspec.structs.replace(run, buckets=old) if tool else run
    live, bucket = count_surfaces(counted, bucket, context.limits, context.seq, diagnostics)
    buckets = old.set_last(key, bucket)
    field = "tool_buckets" if tool else "buckets"
    new_run = msgspec.structs.replace(run, lifecycles=lifecycles, live=live, **{field: buckets})
    if not changed and is_latest:
        return _with_run(state, new_run), (), tuple(diagnostics)
    previous = old.get(key)
    touched = list(bucket.surfaces)
    if previous is not None:
        touched.extend(sid for sid in previous.surfaces if sid not in bucket.surfaces)
    new_run, diffs, found = synthesize(
        new_run,
        touched,
        seq=context.seq,
        converter=context.converter,
        conversions=context.conversions,
        known=known,
        placed=(key, bucket.surfaces, tool),
    )
    diagnostics.extend(found)
    return _with_run(state, new_run), diffs, tuple(diagnostics)


def _on_activity_delta(state: StreamState, event: ev.ActivityDelta, context: _Context) -> _Handled:
    if event.activity_type != A2UI_ACTIVITY_TYPE or isinstance(event.patch, UnsetType):
        return state, (), ()  # no patch (kept with a warning, as upstream keeps it): no change
    key = event.message_id if isinstance(event.message_id, str) else ANONYMOUS_MESSAGE_ID
    run, state = _current_run(state)
    run, state = _behind_middleware(run, state)
    bucket = run.buckets.get(key)
    lifecycle = run.lifecycles.get(key)
    if bucket is not None:
        content, nodes = bucket.content, bucket.content_nodes
        if isinstance(content, UnsetType):
            content = content_of(bucket)
            nodes = count_values(content)  # once per snapshot: then kept beside it
    elif lifecycle is not None:
        content, nodes = lifecycle.content, lifecycle.content_nodes
    else:
        return (
            state,
            (),
            (
                Diagnostic(
                    code=Code.ACTIVITY_DELTA_UNKNOWN,
                    message="ACTIVITY_DELTA for a messageId with no snapshot; ignored",
                    severity=Severity.WARNING,
                    seq=context.seq,
                    message_id=key,
                ),
            ),
        )
    patched, nodes, problem = patch_content(content, nodes, event.patch, context.limits)
    if problem is not None:
        return state, (), (_locate(problem, key, context),)
    if not isinstance(patched, dict):
        message = "the patched content is not an object; the state is unchanged"
        return state, (), (_content_error(key, context, message),)
    operations = patched.get(OPERATIONS_KEY)
    if isinstance(operations, list):
        known = delta_changes(content, patched, event.patch)
        found = component_edits(content, event.patch)
        edits = None if found is None else (content[OPERATIONS_KEY], found)
        # Only a bucket a delta built holds the content's own operation objects.
        untouched = 0 if bucket is None or bucket.content is UNSET else len(content[OPERATIONS_KEY])
        return _rebuild_bucket(
            state,
            run,
            key,
            operations,
            operations,
            (patched, None, nodes),
            context,
            known,
            edits,
            untouched=untouched_operations(event.patch, untouched),
        )
    if operations is not None:
        message = "the patch left content.a2ui_operations not an array; the state is unchanged"
        return state, (), (_content_error(key, context, message),)
    if "status" in patched:
        return _apply_lifecycle(state, run, key, (patched, nodes), context)
    return state, (), (_locate(no_operations(list(patched)), key, context),)


def _on_messages_snapshot(
    state: StreamState, event: ev.MessagesSnapshot, context: _Context
) -> _Handled:
    # Without messages (kept with a warning) history empties, as upstream's thread does.
    messages = [] if isinstance(event.messages, UnsetType) else event.messages
    # A snapshot repeats the tool calls a live run already drew (ag-ui-strands sends
    # several per run): those stay the run's parts, not history's.
    live = [run.carriers.seen for run in state.runs if isinstance(run.carriers, Carriers)]
    history, diagnostics = rehydrate(
        messages,
        converter=context.converter,
        limits=context.limits,
        tools=context.tools,
        skip=SeenIn(live),
    )
    run_id = state.runs[-1].run_id if state.runs else None
    diffs = history_diffs(state.history, history, seq=context.seq, run_id=run_id)
    return msgspec.structs.replace(state, history=history), diffs, diagnostics


_HANDLERS: dict[type[Any], _Handler] = {
    ev.RunStarted: _on_run_started,
    ev.RunFinished: _on_run_ended("finished"),
    ev.RunError: _on_run_ended("error"),
    ev.ActivitySnapshot: _on_activity_snapshot,
    ev.ActivityDelta: _on_activity_delta,
    ev.MessagesSnapshot: _on_messages_snapshot,
    ev.TextMessageStart: _on_tool_event,  # which messages are the agent's own
    ev.ToolCallStart: _on_tool_event,
    ev.ToolCallArgs: _on_tool_event,
    ev.ToolCallEnd: _on_tool_event,
    ev.ToolCallResult: _on_tool_event,
}
