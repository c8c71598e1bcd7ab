"""Differential test: tool carriers drawn here, against the real ``@ag-ui/a2ui-middleware``.

Seeded runs that draw only through tool carriers (tests/carrier_cases.py) go once
through the middleware 0.0.10 in Node (a replay agent with ``agent.use(middleware)``)
and then through a Processor, and once straight into a Processor. Run by run, the
parts, the lifecycles and the sequence of part diffs must be the same.

CI runs ``CARRIER_CASES`` cases (default 100) in one Node process; for thousands:
``CARRIER_CASES=3000 .venv/bin/python -m pytest -q tests/test_carriers_middleware.py``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from carrier_cases import generate_case
from installed_peers import node_peer, run_node

from a2ui_stream import A2uiRequest, Processor, basic_catalog
from a2ui_stream._wire.numbers import encode_json

PEERS = ["@ag-ui/a2ui-middleware@0.0.10", "@ag-ui/client@1.0.0", "rxjs@7.8.1"]
CASES = int(os.environ.get("CARRIER_CASES", "100"))
#: The first case's seed; ``CARRIER_SEED`` moves the window to look at other cases.
FIRST = int(os.environ.get("CARRIER_SEED", "0"))
RENDERED = '{"status":"rendered"}'


def drawn(events: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """What a Processor draws from one run's events: parts, lifecycles, diffs.

    Args as printed (``JSON.stringify``'s text): behind the middleware they crossed JSON
    once more, so an infinity read from ``1e400`` arrives as the ``null`` it prints as.
    """
    processor = Processor(**options)
    diffs = processor.feed_events(events)
    processor.close()
    run = processor.state.current
    assert run is not None
    return {
        "parts": [
            (p.surface_id, p.message_id, p.tool_call_id, encode_json(p.args))
            for p in run.parts.values()
        ],
        "lifecycles": {key: (v.phase, v.content) for key, v in run.lifecycles.items()},
        "diffs": [
            (d.op, d.surface_id, d.message_id, None if d.op == "remove" else encode_json(d.args))
            for d in diffs
        ],
    }


def test_the_middleware_draws_what_the_processor_draws() -> None:
    """Run by run, the middleware's snapshots and our tool carriers draw the same."""
    folder = node_peer("a2ui-middleware", PEERS)
    cases = [generate_case(seed) for seed in range(FIRST, FIRST + CASES)]
    payload = json.dumps({"cases": cases}).encode()
    out = json.loads(run_node(folder, "a2ui_middleware_replay.mjs", data=payload, timeout=3600))
    differences: list[tuple[int, str, str]] = []
    painted = 0
    for seed, case, result in zip(range(FIRST, FIRST + CASES), cases, out["cases"], strict=True):
        for run, emitted in zip(case["runs"], result["runs"], strict=True):
            # Behind the middleware the run keeps every event, in order, with its own
            # snapshots and a {"status":"rendered"} result per unanswered render call.
            kept = [
                e for e in emitted if e["type"] != "ACTIVITY_SNAPSHOT" and e not in run["events"]
            ]
            assert all(e["content"] == RENDERED for e in kept), (seed, kept[:1])
            behind = drawn(emitted)
            direct = drawn(run["events"])
            painted += len(direct["parts"])
            differences.extend(
                (seed, run["runId"], what)
                for what in ("parts", "lifecycles", "diffs")
                if behind[what] != direct[what]
            )
    assert differences == [], f"{len(differences)} differences, first: {differences[:5]}"
    assert painted > CASES // 2  # the cases do draw


# --- Hand-written edges, each through the middleware too --------------------------------

_ARGS = json.dumps(
    {
        "surfaceId": "s1",
        "components": [
            {
                "id": "root",
                "component": "Column",
                "children": {"componentId": "t", "path": "/items"},
            },
            {"id": "t", "component": "Text", "text": {"path": "name"}},
            {"id": "e", "component": "Text", "text": 'caf\u00e9 \U0001f600 "q" \\ }]'},
        ],
        "data": {"title": 'x}]"', "items": [{"name": "a"}, {"name": "b}"}, {"name": "c"}]},
    },
    ensure_ascii=False,
)
_UNITS = _ARGS.encode("utf-16-le")


def _render(text: str, size: int, name: str = "render_a2ui") -> list[dict[str, Any]]:
    if size:
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
    else:  # one UTF-16 code unit each, an emoji split in two, as JavaScript splits
        deltas = [
            _UNITS[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(_UNITS), 2)
        ]
    return [
        {
            "type": "TOOL_CALL_START",
            "toolCallId": "c1",
            "toolCallName": name,
            "parentMessageId": "m",
        },
        *({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": d} for d in deltas),
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
    ]


def _result(content: str) -> list[dict[str, Any]]:
    return [
        {"type": "TOOL_CALL_START", "toolCallId": "b1", "toolCallName": "lookup"},
        {"type": "TOOL_CALL_END", "toolCallId": "b1"},
        {"type": "TOOL_CALL_RESULT", "messageId": "tm", "toolCallId": "b1", "content": content},
    ]


_OPS = json.dumps(
    {
        "a2ui_operations": [
            {"version": "v0.9", "createSurface": {"surfaceId": "s2", "catalogId": "c"}},
            {
                "version": "v0.9",
                "updateComponents": {
                    "surfaceId": "s2",
                    "components": [{"id": "root", "component": "Text", "text": "hi"}],
                },
            },
        ]
    }
)
#: Numbers past a double's range in render args: JSON.parse reads an infinity, printed
#: as null, where we once refused the args and drew nothing.
_HUGE_BUTTON = {
    "id": "root",
    "component": "Button",
    "label": "x",
    "action": {"name": "go", "context": {"n": "HUGE", "m": {"path": "/m"}}},
}
_HUGE = json.dumps({"surfaceId": "s3", "components": [_HUGE_BUTTON], "data": {"m": "-HUGE"}})
_HUGE = _HUGE.replace('"-HUGE"', "-1.7976931348623159e308").replace('"HUGE"', "1e400")
_FAILED = {"code": "a2ui_recovery_exhausted", "error": "boom", "attempts": [{"attempt": 1}]}


def _wrapped(name: str) -> list[dict[str, Any]]:
    """A sub-agent inside a wrapper tool called ``name``, as ag-ui-langgraph streams one
    (``get_a2ui_tools({"tool_name": name})``): the render call names the sub-agent's own
    message, and the wrapper's result repeats the surface in the toolkit's envelope."""
    inner = _render(_ARGS, 9)
    inner[0] = {**inner[0], "parentMessageId": "m2"}
    args = json.loads(_ARGS)
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": "s1", "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {"surfaceId": "s1", "components": args["components"]},
        },
        {
            "version": "v0.9",
            "updateDataModel": {"surfaceId": "s1", "path": "/", "value": args["data"]},
        },
    ]
    return [
        {
            "type": "TOOL_CALL_START",
            "toolCallId": "w1",
            "toolCallName": name,
            "parentMessageId": "m1",
        },
        {"type": "TOOL_CALL_ARGS", "toolCallId": "w1", "delta": '{"intent":"create"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "w1"},
        *inner,
        {
            "type": "TOOL_CALL_RESULT",
            "messageId": "tm",
            "toolCallId": "w1",
            "content": json.dumps({"a2ui_operations": operations}),
        },
    ]


#: name: (middleware config, Processor options, the run's events between start and end).
EDGES: dict[str, tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]] = {
    "1-byte deltas": ({}, {}, _render(_ARGS, 1)),
    "one delta": ({}, {}, _render(_ARGS, len(_ARGS))),
    "UTF-16 code units": ({}, {}, _render(_ARGS, 0)),
    "an escaped top-level name": (
        {},
        {},
        _render(_ARGS.replace('"surfaceId"', r'"surface\u0049d"'), 4),
    ),
    "an escaped data name": ({}, {}, _render(_ARGS.replace('"items"', r'"it\u0065ms"'), 4)),
    "a custom render tool": (
        {"injectA2UITool": "paint"},
        {"render_tools": A2uiRequest(basic_catalog("v0.9"), render_tool_name="paint").render_tools},
        _render(_ARGS, 9, name="paint"),
    ),
    "a default catalog id": (
        {"defaultCatalogId": "x://c"},
        {"catalog_id": "x://c"},
        _render(_ARGS, 9),
    ),
    "a number past a double's range": ({}, {}, _render(_HUGE, 5)),
    "a result encoded once": ({}, {}, _result(_OPS)),
    "a result encoded twice": ({}, {}, _result(json.dumps(_OPS))),
    "a result encoded three times": ({}, {}, _result(json.dumps(json.dumps(_OPS)))),
    "recovery exhausted": ({}, {}, _result(json.dumps(_FAILED))),
    "recovery exhausted, bare": ({}, {}, _result('{"code":"a2ui_recovery_exhausted"}')),
    "recovery exhausted, encoded twice": ({}, {}, _result(json.dumps(json.dumps(_FAILED)))),
    "bytes left over after the arguments": ({}, {}, _render(_ARGS + ']}"\\', 7)),
    "a result as content parts": (
        {},
        {},
        [
            *_result(_OPS)[:2],
            {
                "type": "TOOL_CALL_RESULT",
                "messageId": "tm",
                "toolCallId": "b1",
                "content": [{"type": "text", "text": _OPS}],
            },
        ],
    ),
    "a sub-agent inside generate_a2ui": ({}, {}, _wrapped("generate_a2ui")),
    "a sub-agent inside a renamed wrapper": (
        {},
        {"wrapper_tools": ("make_ui",)},
        _wrapped("make_ui"),
    ),
}


def test_hand_written_edges_draw_as_the_middleware_draws_them() -> None:
    """Deltas of every size, escapes, configuration and result encodings: no difference."""
    folder = node_peer("a2ui-middleware", PEERS)
    runs = {
        name: [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            *events,
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]
        for name, (_, _, events) in EDGES.items()
    }
    cases = [
        {"config": EDGES[name][0], "threadId": "t", "runs": [{"runId": "r", "events": events}]}
        for name, events in runs.items()
    ]
    payload = json.dumps({"cases": cases}).encode()
    out = json.loads(run_node(folder, "a2ui_middleware_replay.mjs", data=payload))
    for (name, events), result in zip(runs.items(), out["cases"], strict=True):
        options = EDGES[name][1]
        assert result["errors"] == [None], name  # the client accepted every event
        assert drawn(result["runs"][0], **options) == drawn(events, **options), name
    painted = {name for name, events in runs.items() if drawn(events, **EDGES[name][1])["parts"]}
    assert painted == set(EDGES) - {
        "a result as content parts",  # the middleware reads only a string content
        "a result encoded three times",
        "recovery exhausted",
        "recovery exhausted, bare",
        "recovery exhausted, encoded twice",
    }


def test_a_run_finished_with_calls_open_is_refused_there_and_reported_here() -> None:
    """``RUN_FINISHED`` before a call's ``TOOL_CALL_END``: ``@ag-ui/client`` fails the run
    naming the open calls; here the run keeps what it drew and each call is a warning."""
    folder = node_peer("a2ui-middleware", PEERS)
    open_calls = [
        *_render(_ARGS, 9)[:-1],  # drew, then never ended
        {"type": "TOOL_CALL_START", "toolCallId": "b1", "toolCallName": "lookup"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "b1", "delta": '{"q":'},
    ]
    runs = {
        "open": open_calls,
        "ended": [*_render(_ARGS, 9), *_result(_OPS)],
    }
    cases: list[dict[str, Any]] = [
        {
            "threadId": "t",
            "runs": [
                {
                    "runId": "r",
                    "events": [
                        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                        *events,
                        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
                    ],
                }
            ],
        }
        for events in runs.values()
    ]
    out = json.loads(
        run_node(folder, "a2ui_middleware_replay.mjs", data=json.dumps({"cases": cases}).encode())
    )
    (refused,), (accepted,) = (case["errors"] for case in out["cases"])
    assert accepted is None
    assert "still active" in refused
    for case in cases:
        processor = Processor()
        processor.feed_events(case["runs"][0]["events"])
        processor.close()
        unended = [d for d in processor.take_diagnostics() if d.code == "tool.call_unended"]
        run = processor.state.current
        assert run is not None
        assert run.status == "finished"
        if case is cases[0]:
            assert [d.message.split("'")[1] for d in unended] == ["c1", "b1"]
            assert all(call in refused for call in ("c1", "b1"))
            assert "drew stays" in unended[0].message
            assert "drew nothing" in unended[1].message
            assert [p.surface_id for p in run.parts.values()] == ["s1"]
        else:
            assert unended == []
