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

from a2ui_stream import Processor

PEERS = ["@ag-ui/a2ui-middleware@0.0.10", "@ag-ui/client@1.0.0", "rxjs@7.8.1"]
CASES = int(os.environ.get("CARRIER_CASES", "100"))
#: The first case's seed; ``CARRIER_SEED`` moves the window to look at other cases.
FIRST = int(os.environ.get("CARRIER_SEED", "0"))
RENDERED = '{"status":"rendered"}'


def drawn(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What a Processor draws from one run's events: parts, lifecycles, diffs."""
    processor = Processor()
    diffs = processor.feed_events(events)
    processor.close()
    run = processor.state.current
    assert run is not None
    return {
        "parts": [(p.surface_id, p.message_id, p.tool_call_id, p.args) for p in run.parts.values()],
        "lifecycles": {key: (v.phase, v.content) for key, v in run.lifecycles.items()},
        "diffs": [(d.op, d.surface_id, d.message_id, d.args) for d in diffs],
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
