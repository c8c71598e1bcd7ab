"""Public API usage that must type-check under mypy --strict (never run by pytest).

If a change to a public signature breaks a caller's natural code, mypy fails here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from a2ui_stream import (
    A2uiRequest,
    Code,
    Diagnostic,
    Limits,
    MemoryLog,
    Part,
    PartAdded,
    PartDiff,
    PartRemoved,
    PartUpdated,
    Processor,
    Reducer,
    StreamState,
    aiter_diffs,
    basic_catalog,
    build_run_input,
    events,
    iter_diffs,
    replay,
)
from a2ui_stream.archive import (
    EMPTY,
    Codec,
    Keyed,
    Progress,
    Summary,
    ThreadResult,
    fold_thread,
    key_envelope,
    merge,
    step,
    summarize,
)
from a2ui_stream.client import AgentError, AgentSession, SyncAgentSession

if TYPE_CHECKING:
    import anyio


def embed(chunks: list[bytes]) -> tuple[list[PartDiff], list[Diagnostic]]:
    processor = Processor(limits=Limits(max_nodes=1000), log=MemoryLog(), keep_runs=0)
    diffs = [diff for chunk in chunks for diff in processor.feed(chunk)]
    diffs += processor.close()
    return diffs, processor.take_diagnostics()


def dropped_lines(diagnostics: list[Diagnostic]) -> list[int | None]:
    bad = {Code.JSON_INVALID, Code.EVENT_INVALID, Code.LINE_TOO_LONG}
    return [d.line for d in diagnostics if d.code in bad or d.code == "json.too_deep"]


def parts_of(state: StreamState) -> list[Part]:
    run = state.current
    return list(run.parts.values()) if run is not None else []


def reduce_events(items: list[events.Event]) -> StreamState:
    state, diffs, diagnostics = Reducer().reduce_all(items)
    for diff in diffs:
        if diff.op == "update":
            patch: list[dict[str, object]] = diff.patch()
            assert isinstance(patch, list)
    assert all(isinstance(d, Diagnostic) for d in diagnostics)
    return state


def element_types(diffs: list[PartDiff]) -> list[str]:
    """The op narrows a diff: past ``op != "remove"`` its args are a dict, no cast."""
    types: list[str] = []
    for diff in diffs:
        if diff.op != "remove":
            types.append(diff.args["$type"])
        if diff.op == "update":
            before: dict[str, object] = diff.previous_args
            assert before
        wire: bytes = diff.to_wire(patch=True)
        assert wire
    return types


def unnarrowed(diff: PartDiff) -> object:
    # A remove has no args: reading them before checking ``op`` is a type error. The
    # ignore is what pins it (warn_unused_ignores fails mypy if the error goes away).
    return diff.args["$type"]  # type: ignore[index]


def by_class(diff: PartDiff) -> str:
    match diff:
        case PartAdded(args=args) | PartUpdated(args=args):
            return str(args["$type"])
        case PartRemoved():
            return diff.surface_id


def replay_log(log: MemoryLog) -> StreamState:
    state = StreamState()
    for reduction in replay(log):
        state = reduction.state
    return state


def request() -> bytes:
    run = build_run_input(A2uiRequest(basic_catalog("v0.9")), thread_id="t", run_id="r")
    context: list[events.Context] = list(run.context or [])
    assert context
    return b""


async def streaming(source: anyio.abc.ByteReceiveStream) -> int:
    count = 0
    async for _ in aiter_diffs(source, Processor()):
        count += 1
    return count + sum(1 for _ in iter_diffs([b""], Processor()))


async def conversation(url: str) -> list[str]:
    labels: list[str] = []
    async with AgentSession(url, headers={"authorization": "Bearer x"}, timeout=30) as session:
        labels.extend([diff.tool_call_id async for diff in session.send("Find me a flight")])
        part: Part = session.parts[0]
        action: dict[str, object] = part.args["$action"]
        labels.extend([diff.op async for diff in session.press(action, input={"seats": "1"})])
        history: tuple[events.Message, ...] = session.messages
        assert history
    return labels


def script(url: str) -> int:
    try:
        with SyncAgentSession(url, request=False) as session:
            return sum(1 for _ in session.send([{"role": "user", "id": "u1", "content": "hi"}]))
    except AgentError as error:
        return len(str(error))


def fold_log(lines: list[bytes]) -> tuple[dict[str, ThreadResult], Summary]:
    """An engine of one's own: key, group, fold, add up."""
    groups: dict[str, list[tuple[int, bytes]]] = {}
    for line in lines:
        keyed = key_envelope(line)
        if isinstance(keyed, Keyed):
            groups.setdefault(keyed.thread_id, []).append((keyed.seq, keyed.event))
    results = {thread: fold_thread(thread, records) for thread, records in groups.items()}
    total = EMPTY
    for result in results.values():
        total = merge(total, summarize(result, 0.0))
    return results, total


def stream_step(arrivals: list[tuple[int, bytes]]) -> bytes:
    progress = Progress()
    for seq, payload in arrivals:
        progress, ready = step(progress, seq, payload)
        for _released_seq, _event in ready:
            pass
    return Codec(Progress).encode(progress)
