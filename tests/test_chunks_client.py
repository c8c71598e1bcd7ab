"""Differential test: chunk expansion here, against the published ``@ag-ui/client``.

Seeded streams (tests/chunk_cases.py) go once through ``transformChunks`` of
``@ag-ui/client`` 1.0.0 in Node (our script tests/node/agui_chunks.mjs pushes one event
at a time and records what each expands into) and once through
:func:`a2ui_stream._wire.chunks.expand`. Event by event the expansions must be equal as
JSON. Where the client throws (and would fail the run), we must drop that very chunk
with an ERROR of the matching code, having expanded everything before it the same;
the comparison of that case ends there. After the last event the client emits nothing
(its ``finalize`` only forgets open streams), and neither do we.

CI runs ``CHUNK_CASES`` cases (default 400) in one Node process; for thousands:
``CHUNK_CASES=20000 .venv/bin/python -m pytest -q tests/test_chunks_client.py``
(``CHUNK_SEED`` moves the window).
"""

from __future__ import annotations

import collections
import json
import os
from typing import Any

from chunk_cases import RULES, generate_case
from installed_peers import node_peer, run_node

from a2ui_stream._wire.chunks import OpenChunks, expand
from a2ui_stream._wire.codec import encode_event, read_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity

#: The same pins as the middleware's differential test: one peer folder for both.
PEERS = ["@ag-ui/a2ui-middleware@0.0.10", "@ag-ui/client@1.0.0", "rxjs@7.8.1"]
CASES = int(os.environ.get("CHUNK_CASES", "400"))
FIRST = int(os.environ.get("CHUNK_SEED", "0"))

JSON = Any


def _code(message: str) -> str:
    """Our diagnostic code for what the client threw."""
    if message.startswith("First ") and message.endswith("toolCallName"):
        return Code.CHUNK_NO_NAME
    if message.startswith("First "):
        return Code.CHUNK_NO_ID
    if message.startswith("Cannot continue "):
        return Code.CHUNK_MISMATCH
    if message.startswith("Ambiguous "):
        return Code.CHUNK_AMBIGUOUS
    raise AssertionError(f"an error the test does not know: {message}")


def ours(events: list[dict[str, JSON]]) -> list[tuple[list[JSON], list[str]]]:
    """Per input event: what it expanded into (as JSON) and the codes of dropped chunks."""
    streams: OpenChunks = ()
    out = []
    for index, wire in enumerate(events):
        event, found = read_event(wire)
        assert event is not None, (wire, found)
        streams, expanded, diagnostics = expand(streams, event, seq=index)
        errors = [d.code for d in diagnostics if d.severity is Severity.ERROR]
        assert all(d.seq == index for d in diagnostics)
        out.append(([json.loads(encode_event(e)) for e in expanded], errors))
    return out


def test_expansion_equals_the_clients() -> None:
    """Event by event, the client's transformChunks and ours expand the same."""
    folder = node_peer("a2ui-middleware", PEERS)
    seeds = range(FIRST, FIRST + CASES)
    cases = [generate_case(seed) for seed in seeds]
    # The rule table's own streams go too, so each rule as written is the client's.
    names = [*seeds, *RULES]
    cases += [rule.stream for rule in RULES.values()]
    payload = json.dumps({"cases": cases}).encode()
    out = json.loads(run_node(folder, "agui_chunks.mjs", data=payload, timeout=3600))
    seen: collections.Counter[str] = collections.Counter()
    for seed, events, theirs in zip(names, cases, out["cases"], strict=True):
        mine = ours(events)
        error = theirs["error"]
        stop = len(events) if error is None else error["at"]
        for index in range(stop):
            expanded, errors = mine[index]
            assert (expanded, errors) == (theirs["groups"][index], []), (seed, index, events[index])
            _count(seen, events[index], expanded)
        if error is None:
            assert theirs["tail"] == [], seed
            seen["streams ended with nothing emitted"] += 1
        else:
            expanded, errors = mine[stop]
            assert (expanded, errors) == ([], [_code(error["message"])]), (seed, stop, error)
            seen[_code(error["message"])] += 1
    # Every rule was reached: the generator is not testing a corner of the expansion.
    for rule in (
        Code.CHUNK_NO_ID,
        Code.CHUNK_NO_NAME,
        Code.CHUNK_MISMATCH,
        Code.CHUNK_AMBIGUOUS,
        "opened",
        "continued",
        "closed by a chunk",
        "closed by its lane",
        "closed by a run event",
        "closed by a sub-agent",
        "several lanes open",
        "empty content",
        "streams ended with nothing emitted",
    ):
        assert seen[rule], (rule, dict(seen))
    # The figures, for a run with -s: how often each rule was met.
    print(f"{CASES} cases from seed {FIRST}:", dict(sorted(seen.items())))  # noqa: T201


_RUN_EVENTS = frozenset({"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"})


def _count(seen: collections.Counter[str], event: dict[str, JSON], expanded: list[JSON]) -> None:
    """Tally which rules one event's expansion exercised."""
    types = [e["type"] for e in expanded]
    ends = sum(t.endswith("_END") and t != event["type"] for t in types)
    if event["type"].endswith("_CHUNK"):
        opened = any(t.endswith("_START") for t in types)
        seen["opened" if opened else "continued"] += 1
        seen["closed by a chunk"] += ends > 0
        seen["empty content"] += any(e.get("delta") == "" for e in expanded)
    elif ends:
        kind = "a run event" if event["type"] in _RUN_EVENTS else "its lane"
        kind = "a sub-agent" if event["type"].startswith("SUBAGENT_") else kind
        seen[f"closed by {kind}"] += 1
        seen["several lanes open"] += ends > 1
