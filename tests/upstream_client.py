"""Test helper: AG-UI streams through the published assistant-ui client, and through ours.

The reference client is ``@assistant-ui/react-ag-ui`` (with its converter package
``@assistant-ui/react-generative-ui``) at pinned versions, installed once into the
ignored peer cache by :func:`installed_peers.node_peer` and driven headless by our
script ``tests/node/agui_client.mjs`` (no upstream code): it builds the runtime core
that ``useAgUiRuntime`` wraps around an agent that hands each event to the client's
subscriber, replays each AG-UI run of a stream as one user turn, and reads the message
parts back. One Node process replays any number of streams.

Both sides come out in one shape, :class:`Run`, so a comparison is ``==``:

>>> client = UpstreamClient.install()          # doctest: +SKIP
>>> theirs = client.replay([events_a, events_b])  # doctest: +SKIP
>>> differences(ours(events_a), theirs[0])     # doctest: +SKIP
[]

A benchmark can time :meth:`UpstreamClient.replay` on a batch (Node start-up is paid
once per call).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from installed_peers import node_peer, run_node

from a2ui_stream import Processor
from a2ui_stream._state.stream import TOOL_CALL_PREFIX
from a2ui_stream._wire.numbers import encode_json

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from pathlib import Path

    from a2ui_stream import Limits, StreamState

__all__ = [
    "PACKAGES",
    "Part",
    "Replay",
    "Run",
    "UpstreamClient",
    "differences",
    "ours",
    "replay_of",
]

#: The published client and everything it loads, pinned exactly so every machine runs
#: the same code: react-ag-ui 0.0.57 is the last version that installs (0.0.58 needs an
#: unpublished converter), react-generative-ui 0.0.16 is the converter it depends on,
#: react is its peer (the package root imports it; no DOM is needed), and the rest are
#: its dependencies at the versions its ranges resolved to when this was written.
PACKAGES: tuple[str, ...] = (
    "@assistant-ui/react-ag-ui@0.0.57",
    "@assistant-ui/react-generative-ui@0.0.16",
    "react@19.3.1",
    "@ag-ui/client@0.0.58",
    "@assistant-ui/core@0.3.35",
    "@assistant-ui/store@0.3.23",
    "assistant-stream@0.3.57",
)
_PEER = "assistant-ui-client"
_SCRIPT = "agui_client.mjs"
_ENCODER = msgspec.json.Encoder()


class Part(NamedTuple):
    """One tool-call part as a client shows it.

    Attributes:
        tool_call_id: ``"a2ui:<surfaceId>"``.
        tool_name: ``"present"``.
        args_text: the args as compact JSON (upstream's ``argsText``).
    """

    tool_call_id: str
    tool_name: str
    args_text: str


class Run(NamedTuple):
    """One AG-UI run: its id, how it ended, and its surface parts in display order.

    Attributes:
        run_id: the ``runId`` of the ``RUN_STARTED`` that opened it; ``None`` for
            events before any.
        status: ``"complete"`` or ``"incomplete"`` (upstream's message status type);
            ``None`` where the client shows no live message for the run (a
            ``MESSAGES_SNAPSHOT`` ending in an assistant message replaced it, and nothing
            drew after), so nothing shows how it ended.
        parts: the ``a2ui:`` tool-call parts, in order (upstream's client starts a new
            assistant message at each new text messageId: its parts are those of all
            the run's messages, in order).
    """

    run_id: str | None
    status: str | None
    parts: tuple[Part, ...]


class Replay(NamedTuple):
    """What one stream left: its runs, and the surfaces restored from history.

    Attributes:
        runs: every run in order; one with no id and no parts (events before any run
            that drew nothing) is left out.
        history: by assistant message id, the parts a ``MESSAGES_SNAPSHOT`` restored,
            as they stand once the stream ended (the client's messages without parts
            left out; every entry of ours kept, so an empty one is a difference).
    """

    runs: tuple[Run, ...]
    history: tuple[tuple[str, tuple[Part, ...]], ...] = ()


_EMPTY = Run(None, "complete", ())


def _parts(raw: Iterable[Mapping[str, Any]]) -> tuple[Part, ...]:
    return tuple(
        Part(part["toolCallId"], part["toolName"], part["argsText"])
        for part in raw
        if str(part["toolCallId"]).startswith(TOOL_CALL_PREFIX)
    )


class UpstreamClient:
    """The published client, installed and ready to replay streams."""

    def __init__(self, folder: Path) -> None:
        """Use a peer folder that holds the packages (see :meth:`install`).

        Args:
            folder: the folder :func:`installed_peers.node_peer` returned.
        """
        self.folder = folder

    @classmethod
    def install(cls) -> UpstreamClient:
        """Install the pinned packages once per machine (skips where node/npm are absent).

        Returns:
            A client bound to the installed packages.
        """
        return cls(node_peer(_PEER, PACKAGES))

    def replay_raw(
        self, streams: Sequence[Sequence[Mapping[str, Any]]], *, timeout: float
    ) -> list[Any]:
        """Replay streams and return the driver's JSON results, one per stream.

        Args:
            streams: each a list of AG-UI events as JSON-ready dicts (camelCase).
            timeout: seconds the whole batch may take.

        Returns:
            The decoded result lines, in input order.
        """
        lines = b"".join(
            _ENCODER.encode({"id": index, "events": list(events)}) + b"\n"
            for index, events in enumerate(streams)
        )
        out = run_node(self.folder, _SCRIPT, data=lines, timeout=timeout)
        results = [json.loads(line) for line in out.splitlines() if line.strip()]
        assert [result["id"] for result in results] == list(range(len(streams)))
        for result in results:
            assert "error" not in result, result["error"]
        return results

    def replay(
        self, streams: Sequence[Sequence[Mapping[str, Any]]], *, timeout: float = 300
    ) -> list[Replay]:
        """Replay streams through the client, each on a fresh thread.

        Args:
            streams: each a list of AG-UI events as JSON-ready dicts (camelCase).
            timeout: seconds the whole batch may take.

        Returns:
            One :class:`Replay` per stream, in input order.
        """
        out: list[Replay] = []
        for result in self.replay_raw(streams, timeout=timeout):
            runs: list[Run] = []
            live: set[str] = set()
            for turn in result["turns"]:
                messages = turn["live"]
                live.update(message["id"] for message in messages)
                # One run's parts across the messages the client split it into, in order;
                # no message (the client dropped it): nothing shows how the run ended.
                parts = tuple(part for message in messages for part in _parts(message["parts"]))
                status = messages[-1]["status"]["type"] if messages else None
                run = Run(turn["runId"], status, parts)
                if run not in {_EMPTY, _EMPTY._replace(status=None)}:
                    runs.append(run)
            history = tuple(
                (message["id"], parts)
                for message in result["thread"]
                if message["id"] not in live and (parts := _parts(message["parts"]))
            )
            out.append(Replay(tuple(runs), history))
        return out


#: Our run status as the client shows the run's message once its stream ended: a run
#: whose stream ended without RUN_FINISHED is complete to the client, whose transport
#: finalises it when the response ends.
_STATUS = {"finished": "complete", "running": "complete", "error": "incomplete"}


def differences(ours: Replay, theirs: Replay) -> list[str]:
    """Where our replay of a stream differs from the client's, one line each.

    Run by run: the run id, the parts (toolCallIds in order, names, args byte for byte)
    and the status, where the client shows one; then the restored history.

    Args:
        ours: what :func:`ours` gave.
        theirs: what :meth:`UpstreamClient.replay` gave for the same stream.

    Returns:
        Readable differences; empty when the two agree.
    """
    found: list[str] = []
    if len(ours.runs) != len(theirs.runs):
        found.append(
            f"runs: ours {[r.run_id for r in ours.runs]}, theirs {[r.run_id for r in theirs.runs]}"
        )
    for index, (mine, other) in enumerate(zip(ours.runs, theirs.runs, strict=False)):
        if mine.run_id != other.run_id:
            found.append(f"run {index}: id ours {mine.run_id!r}, theirs {other.run_id!r}")
        if other.status is not None and mine.status != other.status:
            found.append(f"run {index}: status ours {mine.status}, theirs {other.status}")
        if [p.tool_call_id for p in mine.parts] != [p.tool_call_id for p in other.parts]:
            ids = ([p.tool_call_id for p in mine.parts], [p.tool_call_id for p in other.parts])
            found.append(f"run {index}: toolCallIds ours {ids[0]}, theirs {ids[1]}")
        else:
            found.extend(
                f"run {index}: {a.tool_call_id} ours {a.tool_name} {a.args_text}, "
                f"theirs {b.tool_name} {b.args_text}"
                for a, b in zip(mine.parts, other.parts, strict=True)
                if a != b
            )
    if ours.history != theirs.history:
        found.append(f"history: ours {ours.history}, theirs {theirs.history}")
    return found


def _our_parts(parts: Iterable[Any]) -> tuple[Part, ...]:
    return tuple(
        Part(part.tool_call_id, part.tool_name, encode_json(part.args).decode()) for part in parts
    )


def replay_of(state: StreamState) -> Replay:
    """Our final state in the client's shape.

    Args:
        state: a processor's state once its stream ended.

    Returns:
        Its runs and restored history, as :meth:`UpstreamClient.replay` gives them.
    """
    runs = tuple(
        run
        for run in (
            Run(one.run_id, _STATUS.get(one.status, one.status), _our_parts(one.parts.values()))
            for one in state.runs
        )
        if run != _EMPTY
    )
    # Every entry of ours, empty or not: the client lists a message only where it has
    # parts, so an empty entry of ours (one that draws nothing) shows as a difference.
    history = tuple((entry.message_id, _our_parts(entry.parts)) for entry in state.history)
    return Replay(runs, history)


def ours(events: Iterable[Mapping[str, Any]], *, limits: Limits | None = None) -> Replay:
    """Replay a stream through a fresh :class:`~a2ui_stream.Processor`.

    Args:
        events: AG-UI events as JSON-ready dicts.
        limits: the processor's limits; the defaults when omitted.

    Returns:
        What it left, in the shape :meth:`UpstreamClient.replay` gives.
    """
    processor = Processor(limits=limits) if limits is not None else Processor()
    processor.feed_events(list(events))
    processor.close()
    return replay_of(processor.state)
