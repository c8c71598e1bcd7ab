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
  ``_engine.lifecycle``'s; rebuilding and placing a bucket once a handler has read
  its operations, ``_engine.buckets``'.
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

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeAlias

import immutables
import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.buckets import (
    Context,
    Handled,
    locate,
    place_bucket,
    rebuild_bucket,
    with_run,
)
from a2ui_stream._engine.carriers import (
    MIDDLEWARE_PREFIX,
    RENDER_TOOL_NAME,
    WRAPPER_TOOL_NAME,
    Carriers,
    ToolConfig,
    carry,
    saw_activity,
    unended,
)
from a2ui_stream._engine.content import (
    content_keys,
    no_operations,
    patch_content,
    read_content,
    too_deep,
)
from a2ui_stream._engine.deltas import (
    component_edits,
    content_of,
    untouched_operations,
)
from a2ui_stream._engine.history import SeenIn, rehydrate
from a2ui_stream._engine.lifecycle import next_lifecycle
from a2ui_stream._engine.parts import Conversions, history_diffs, settle
from a2ui_stream._engine.sharing import (
    delta_changes,
)
from a2ui_stream._state.persistent import EMPTY_MAP, last_items, with_appended, with_last
from a2ui_stream._state.stream import (
    A2UI_ACTIVITY_TYPE,
    ANONYMOUS_MESSAGE_ID,
    OPERATIONS_KEY,
    PartDiff,
    RunState,
    StreamState,
)
from a2ui_stream._tree.depth import count_values
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.chunks import CHUNK_EVENTS, expand
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity, internal_error
from a2ui_stream._wire.limits import Limits
from a2ui_stream.errors import UsageError

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
#: Makes a named tuple from a tuple of its fields: calling the class runs its
#: ``__new__`` as Python code, a frame per call, twice for every event reduced.
_new_tuple = tuple.__new__
_NO_SURFACES: immutables.Map[str, int] = immutables.Map()
_NO_REPORTS: immutables.Map[str, tuple[Diagnostic, ...]] = immutables.Map()
_CONTENT_VIEW = msgspec.json.Decoder(_ContentView)


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
        wrapper_tools: Iterable[str] = (WRAPPER_TOOL_NAME,),
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
            wrapper_tools: the tool names that wrap an A2UI sub-agent (the toolkit's
                ``generate_a2ui``, or the ``tool_name`` the agent gave it): a render
                call inside one, naming a message of the sub-agent's, is drawn under the
                wrapper's messageId, as the middleware draws it.

        Raises:
            TypeError: an option is of the wrong kind: ``limits`` no :class:`Limits`,
                ``render_tools`` or ``wrapper_tools`` a string or holding anything but
                strings,
                ``catalog_id`` no string.
            UsageError: ``keep_runs`` is not ``None`` or a whole number of at least 0.
        """
        _check_options(limits, keep_runs, catalog_id)
        self.limits = limits or Limits()
        self.keep_runs = keep_runs
        self.tools = ToolConfig(
            _tool_names(render_tools, "render_tools"),
            catalog_id or None,
            _tool_names(wrapper_tools, "wrapper_tools"),
        )
        self._converter = Converter(limits=self.limits)
        # Beside the states, never inside them: each surface's latest conversion, which
        # the converter builds on; a cache whose contents never change a result.
        conversions = Conversions()
        self._fixed = (self._converter, self.limits, keep_runs, self.tools, conversions)
        #: The event types that can change more than the event count; with no chunk
        #: stream open, every other event reduces to ``skip(state, 1)``.
        self.drawing_events: frozenset[type[ev.Event]] = frozenset(_HANDLERS) | CHUNK_EVENTS
        # Each drawing event's handler, a chunk's the expansion: one lookup an event.
        self._dispatch: dict[type[Any], _Handler] = {
            **_HANDLERS,
            **dict.fromkeys(CHUNK_EVENTS, _expanded),
        }

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

        Raises:
            TypeError: ``state`` is no :class:`StreamState` or ``event`` no decoded
                event (a dict is read by ``Processor.feed_events``).
        """
        handler = self._dispatch.get(type(event))
        # A drawing event's class is an Event's: asked first, it spares an isinstance
        # that goes through msgspec's metaclass for every subclass.
        if (handler is None and not isinstance(event, ev.Event)) or not isinstance(
            state, StreamState
        ):
            raise TypeError(_not_reducible(state, event))
        seq = state.seq
        if state.chunks:
            handler = _expanded
        elif handler is None:  # not in drawing_events
            # Most events (text, tool calls, steps) only advance the count.
            return _new_tuple(Reduction, (_replace(state, seq=seq + 1), (), ()))
        context = _new_tuple(Context, (seq, *self._fixed))
        try:
            new_state, diffs, diagnostics = handler(state, event, context)
        except Exception as error:  # noqa: BLE001 - containment: a bug must not stop the stream
            what = f"event {seq} ({type(event).__name__})"
            problem = internal_error(error, what, seq=seq)
            return Reduction(_replace(state, seq=seq + 1), (), (problem,))
        return _new_tuple(Reduction, (_replace(new_state, seq=seq + 1), diffs, diagnostics))

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
        # ``get``, not ``in``: the map's ``get`` is the trie's own, a C call.
        return type(carriers) is not Carriers or carriers.calls.get(event.tool_call_id) is None

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


_Handler: TypeAlias = Callable[[StreamState, Any, Context], Handled]


def _expanded(state: StreamState, event: ev.Event, context: Context) -> Handled:
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


def _on_run_started(state: StreamState, event: ev.RunStarted, context: Context) -> Handled:
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
            buckets=EMPTY_MAP,
            tool_buckets=EMPTY_MAP,
            live=_NO_SURFACES,
            reported=_NO_REPORTS,
            carriers=Carriers(seen=seen) if seen else None,
        )
        past = with_last(past, last)
    if context.keep_runs is not None:
        past = last_items(past, context.keep_runs)
    context.conversions.clear()  # no event reaches a past run's surfaces again
    return msgspec.structs.replace(state, runs=with_appended(past, run)), (), settled


def _on_run_ended(status: str) -> _Handler:
    def handler(state: StreamState, event: ev.Event, context: Context) -> Handled:
        # A failed run stays failed (a RUN_FINISHED after RUN_ERROR changes nothing), as
        # upstream's client keeps it; a RUN_ERROR after RUN_FINISHED fails it there too.
        if not state.runs or state.runs[-1].status == "error":
            return state, (), ()
        last = state.runs[-1]
        settled = tuple(settle(last, context.seq))
        if status == "finished":  # a failed run may leave its calls open
            settled += unended(last.carriers, context.seq)
        message = getattr(event, "message", UNSET)
        error = message if isinstance(message, str) else last.error
        run = msgspec.structs.replace(last, status=status, error=error)
        return with_run(state, run), (), settled

    return handler


def _on_activity_snapshot(
    state: StreamState, event: ev.ActivitySnapshot, context: Context, *, tool: bool = False
) -> Handled:
    """Apply an activity snapshot; ``tool``: one drawn from a tool call or result."""
    if event.activity_type != A2UI_ACTIVITY_TYPE:
        return state, (), ()
    key = event.message_id if isinstance(event.message_id, str) else ANONYMOUS_MESSAGE_ID
    runs = state.runs
    run, state = (runs[-1], state) if runs else _current_run(state)
    if not tool:
        carriers = run.carriers
        # Noted at the run's first activity: every later snapshot skips the call.
        if (type(carriers) is not Carriers or not carriers.behind_middleware) and key.startswith(
            MIDDLEWARE_PREFIX
        ):
            run, state = _behind_middleware(run, state)
    previous = (run.tool_buckets if tool else run.buckets).get(key)
    if event.replace is False and previous is not None:
        return state, (), ()
    raw = bytes(event.content)
    if previous is not None and previous.content_bytes == raw:
        # A cumulative snapshot identical to the last one: nothing to decode or apply.
        return place_bucket(state, run, previous, context, [], changed=False, tool=tool)
    try:
        view = _CONTENT_VIEW.decode(raw)
    except msgspec.DecodeError as error:
        return state, (), (_content_error(key, context, f"content is not valid: {error}"),)
    except RecursionError:  # msgspec's own bound, the interpreter's stack
        return state, (), (locate(too_deep(context.limits), key, context),)
    operations = view.a2ui_operations
    if isinstance(operations, list):
        # Each Raw is a view into ``raw``, which the bucket keeps anyway: no second copy.
        keys = operations
        return rebuild_bucket(state, run, key, keys, None, (UNSET, raw, 0), context, tool=tool)
    if not isinstance(operations, UnsetType):
        message = "content.a2ui_operations is not an array; the snapshot changes nothing"
        return state, (), (_content_error(key, context, message),)
    if isinstance(view.status, UnsetType):
        return state, (), (locate(no_operations(content_keys(raw)), key, context),)
    read = read_content(raw, context.limits)
    if type(read) is Diagnostic:
        return state, (), (locate(read, key, context),)
    return _apply_lifecycle(state, run, key, read, context)


def _behind_middleware(run: RunState, state: StreamState) -> tuple[RunState, StreamState]:
    """Note that the run carries the middleware's activity, which draws its render calls.

    Only activity named as the middleware names it counts: an agent's own surface
    activity beside its render calls (or a lone ``{status}`` under another id) left
    every later tool call of the run undrawn, where the middleware draws them.
    """
    carriers = run.carriers
    if type(carriers) is Carriers and carriers.behind_middleware:
        return run, state  # noted at the run's first activity
    noted = saw_activity(carriers if isinstance(carriers, Carriers) else Carriers())
    if noted is run.carriers:
        return run, state
    run = msgspec.structs.replace(run, carriers=noted)
    return run, with_run(state, run)


def _on_tool_event(state: StreamState, event: ev.Event, context: Context) -> Handled:
    """Draw what a tool event carries, through the activity path (see ``_engine.carriers``)."""
    if not state.runs and isinstance(event, ev.TextMessageStart):
        return state, (), ()  # only tool events open an anonymous run, as before
    run, state = _current_run(state)
    carriers = run.carriers if isinstance(run.carriers, Carriers) else Carriers()
    new, drawings, found = carry(carriers, event, context.tools, seq=context.seq)
    if new is run.carriers and not drawings:
        return state, (), found  # an argument delta of a call nobody draws: the common case
    state = with_run(state, msgspec.structs.replace(run, carriers=new))
    diffs: list[PartDiff] = []
    diagnostics = list(found)
    for drawing in drawings:
        state, more, problems = _on_activity_snapshot(state, drawing, context, tool=True)
        diffs.extend(more)
        diagnostics.extend(problems)
    return state, tuple(diffs), tuple(diagnostics)


def _content_error(key: str, context: Context, message: str) -> Diagnostic:
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
    context: Context,
) -> Handled:
    """Record a lifecycle status; ``read``: the content and how many values it holds."""
    status = read[0].get("status")
    if not isinstance(status, str):
        message = "content.status is not a string; the lifecycle is unchanged"
        return state, (), (_content_error(key, context, message),)
    lifecycle, diagnostics = next_lifecycle(
        run.lifecycles.get(key), status, read, seq=context.seq, message_id=key
    )
    lifecycles = run.lifecycles.set(key, lifecycle)
    return with_run(state, msgspec.structs.replace(run, lifecycles=lifecycles)), (), diagnostics


def _on_activity_delta(state: StreamState, event: ev.ActivityDelta, context: Context) -> Handled:
    if event.activity_type != A2UI_ACTIVITY_TYPE or isinstance(event.patch, UnsetType):
        return state, (), ()  # no patch (kept with a warning, as upstream keeps it): no change
    key = event.message_id if isinstance(event.message_id, str) else ANONYMOUS_MESSAGE_ID
    run, state = _current_run(state)
    if key.startswith(MIDDLEWARE_PREFIX):
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
        return state, (), (locate(problem, key, context),)
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
        return rebuild_bucket(
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
    return state, (), (locate(no_operations(list(patched)), key, context),)


def _on_messages_snapshot(
    state: StreamState, event: ev.MessagesSnapshot, context: Context
) -> Handled:
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


def _not_reducible(state: object, event: object) -> str:
    if not isinstance(state, StreamState):
        return f"state must be a StreamState, not {type(state).__name__}"
    kind = type(event).__name__
    return (
        f"event must be a decoded AG-UI event (a2ui_stream.events), not {kind}; "
        "Processor.feed_events reads mappings and SDK objects"
    )


def _check_options(limits: object, keep_runs: object, catalog_id: object) -> None:
    """Refuse options of the wrong kind when the reducer is made, naming them.

    Caught later, they failed far from the mistake: ``keep_runs="3"`` made every
    ``RUN_STARTED`` a ``core.internal_error``, ``limits=5`` an ``AttributeError``.
    """
    if limits is not None and not isinstance(limits, Limits):
        message = f"limits must be a Limits or None, not {type(limits).__name__}"
        raise TypeError(message)
    if keep_runs is not None and (type(keep_runs) is not int or keep_runs < 0):
        message = f"keep_runs must be None or a whole number of at least 0, not {keep_runs!r}"
        raise UsageError(message)
    if catalog_id is not None and not isinstance(catalog_id, str):
        message = f"catalog_id must be a string or None, not {type(catalog_id).__name__}"
        raise TypeError(message)


def _tool_names(tools: object, option: str) -> frozenset[str]:
    """An option's tool names, refusing one name given alone (a set of its letters)."""
    if isinstance(tools, str | bytes) or not isinstance(tools, Iterable):
        kind = type(tools).__name__
        message = f"{option} must be an iterable of tool names, such as a tuple, not {kind}"
        raise TypeError(message)
    names = tuple(tools)
    strange = [name for name in names if not isinstance(name, str)]
    if strange:
        kind = type(strange[0]).__name__
        message = f"{option} must hold tool names (strings), not {kind} {strange[0]!r}"
        raise TypeError(message)
    return frozenset(names)


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
