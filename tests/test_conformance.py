"""Conformance: our processor against the published assistant-ui client, run by run.

In the spirit of wsproto's Autobahn run and msgspec's JSONTestSuite: the same AG-UI
streams go through a :class:`~a2ui_stream.Processor` and through the real client
(``@assistant-ui/react-ag-ui`` 0.0.57 with ``@assistant-ui/react-generative-ui``
0.0.16, installed once into the peer cache and driven by our script
``tests/node/agui_client.mjs``), and every run must agree: toolCallIds in order, args
as compact JSON byte for byte, run ids, how the run ended (where the client shows it),
and the surfaces restored from history. One Node process replays each batch.

Inputs:

- upstream's own test cases, transcribed as data (``tests/conformance/upstream_cases.json``);
- seeded streams from :mod:`conformance_streams`, in the profile where upstream's
  output is valid vocabulary: ``A2UI_CONFORMANCE_RUNS`` of them (300 by default, the CI
  budget; ``A2UI_CONFORMANCE_RUNS=5000 pytest tests/test_conformance.py`` runs more),
  from seed ``A2UI_CONFORMANCE_SEED`` (0);
- every A2UI sample stream of ``../shared/a2ui-samples`` (skipped where absent), as
  written and, for v0.9/v1.0, rewritten out of every documented difference
  (:mod:`sample_rewrites`), where it must agree byte for byte.

Where the README's compatibility table says we differ on purpose, the suite checks
that difference instead of equality: the row is in the README, the runs and their
toolCallIds agree, and only the args differ. A case names its rows (``differs``) and
fails once it stops differing, so the lists stay true; a sample may differ only when
its operations use a feature of a listed row (:func:`_features`), and a v0.8 sample
must draw nothing upstream and something here. :data:`DOCUMENTED` holds one stream of
ours per deliberate difference the live client can show. No case is left out.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from a2ui_samples import conformant_streams
from conformance_streams import streams
from sample_rewrites import rewritten
from upstream_client import Replay, UpstreamClient, differences, ours, replay_of

from a2ui_stream import Processor

if TYPE_CHECKING:
    from collections.abc import Sequence

HERE = Path(__file__).parent
CASES: list[dict[str, Any]] = json.loads(
    (HERE / "conformance" / "upstream_cases.json").read_text(encoding="utf-8")
)
RUNS = int(os.environ.get("A2UI_CONFORMANCE_RUNS", "300"))
SEED = int(os.environ.get("A2UI_CONFORMANCE_SEED", "0"))
#: What in a sample's operations makes upstream's client render it differently, each
#: with its README row (Area column of "Compatibility with upstream"). A sample whose
#: args differ must use at least one; v0.8 samples are all the "A2UI versions" row
#: (upstream rejects v0.8 and shows nothing), checked as such.
_MAPPED = "Icons, List, Tabs, Modal, ChoicePicker, DateTimeInput, Slider, Video, AudioPlayer"
_UNKNOWN_UPSTREAM = frozenset(
    {"Icon", "List", "Tabs", "Modal", "ChoicePicker", "DateTimeInput", "Slider", "Video"}
    | {"AudioPlayer"}
)
_VALUES = {"stretch", "baseline", "spaceAround", "spaceEvenly", "spaceBetween"}


def _features(component: dict[str, Any]) -> set[str]:
    """The README rows one A2UI component (v0.9/v1.0 spelling) falls under."""
    rows: set[str] = set()
    kind = component.get("component")
    if kind in _UNKNOWN_UPSTREAM:
        rows.add(_MAPPED)
    if "child" in component:
        rows.add("Single-child refs")
        if kind == "Button":
            rows.add("Button label")
    if isinstance(component.get("children"), dict) and "template" not in component["children"]:
        rows.add("Templates")
    if kind == "Image" and "alt" not in component and "altText" not in component:
        rows.add("Image `alt`")
    if kind == "CheckBox" and "label" not in component:
        rows.add("CheckBox `label`")
    if component.get("align") in _VALUES or component.get("justify") in _VALUES:
        rows.add("Row/Col `align`, Row `justify`")
    if isinstance(component.get("action"), dict) and "name" not in component["action"]:
        rows.add("`$action`")
    text = json.dumps(component)
    if '"call"' in text:
        rows.add("Function calls")
    if re.search(r'"path": "[^/]', text):
        rows.add("Bindings")
    if kind == "Text" and not isinstance(component.get("text"), str | dict):
        rows.add("Text value")
    return rows


def _sample_rows(messages: Sequence[Any]) -> set[str]:
    rows: set[str] = set()
    for message in messages:
        body = message.get("updateComponents") or message.get("createSurface") or {}
        for component in body.get("components") or ():
            if isinstance(component, dict):
                rows |= _features(component)
    return rows


def _readme_rows() -> set[str]:
    text = (HERE.parent / "README.md").read_text(encoding="utf-8")
    table = text.split("### Compatibility with upstream", 1)[1].split("\n## ", 1)[0]
    return {
        match.group(1).strip()
        for match in re.finditer(r"^\| ([^|]+) \|", table, re.MULTILINE)
        if match.group(1).strip() not in {"Area", "---"}
    }


README_ROWS = _readme_rows()


@pytest.fixture(scope="module")
def client() -> UpstreamClient:
    """The published client, installed once per machine (skips without node/npm)."""
    return UpstreamClient.install()


def _shape(replay: Replay) -> list[tuple[str | None, list[str]]]:
    return [(run.run_id, [part.tool_call_id for part in run.parts]) for run in replay.runs]


def _check(name: str, events: Sequence[Any], theirs: Replay, rows: Sequence[str]) -> list[str]:
    """What is wrong with one case: a difference, or a documented one that is not there."""
    mine = ours(events)
    found = differences(mine, theirs)
    if not rows:
        return [f"{name}: {line}" for line in found]
    problems = [f"{name}: README has no row {row!r}" for row in rows if row not in README_ROWS]
    if not found:
        problems.append(f"{name}: listed as differing ({', '.join(rows)}) but agrees now")
    elif _shape(mine) != _shape(theirs):
        problems.append(f"{name}: differs beyond its args ({', '.join(rows)}): {found[0]}")
    return problems


def _v09(key: str, surface_id: str, **payload: Any) -> dict[str, Any]:
    return {"version": "v0.9", key: {"surfaceId": surface_id, **payload}}


def _text(surface_id: str, text: Any) -> list[dict[str, Any]]:
    root = {"id": "root", "component": "Text", "text": text}
    return [
        _v09("createSurface", surface_id),
        _v09("updateComponents", surface_id, components=[root]),
    ]


def _activity(activity_id: str, surface_id: str, text: str) -> dict[str, Any]:
    content = {"a2ui_operations": _text(surface_id, text)}
    return {
        "id": activity_id,
        "role": "activity",
        "activityType": "a2ui-surface",
        "content": content,
    }


_RUN = {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}
#: One stream of ours per deliberate difference the live client can show: each must
#: differ from the client, in its args only, as its README row says.
DOCUMENTED: list[dict[str, Any]] = [
    {
        "name": "an operation without a version",
        "differs": ["An operation without `version`"],
        "events": [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {
                    "a2ui_operations": [
                        *_text("s", "one"),
                        {
                            "updateComponents": {
                                "surfaceId": "s",
                                "components": [{"id": "root", "component": "Text", "text": "two"}],
                            }
                        },
                    ]
                },
            },
        ],
    },
    {
        "name": "a __proto__ key in an action's context",
        "differs": ["A `__proto__` key"],
        "events": [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {
                    "a2ui_operations": [
                        _v09("createSurface", "s"),
                        _v09(
                            "updateComponents",
                            "s",
                            components=[
                                {
                                    "id": "root",
                                    "component": "Button",
                                    "label": "Go",
                                    "action": {
                                        "name": "go",
                                        "context": {"__proto__": {"x": 1}, "k": 1},
                                    },
                                }
                            ],
                        ),
                    ]
                },
            },
        ],
    },
    {
        "name": "a Text whose value is a number",
        "differs": ["Text value"],
        "events": [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": _text("s", 42)},
            },
        ],
    },
    {
        "name": "a spec Button with a Text child",
        "differs": ["Button label", "Single-child refs"],
        "events": [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {
                    "a2ui_operations": [
                        _v09("createSurface", "s"),
                        _v09(
                            "updateComponents",
                            "s",
                            components=[
                                {
                                    "id": "root",
                                    "component": "Button",
                                    "child": "t",
                                    "action": {"name": "go"},
                                },
                                {"id": "t", "component": "Text", "text": "Go"},
                            ],
                        ),
                    ]
                },
            },
        ],
    },
    {
        "name": "an ACTIVITY_DELTA changing a surface",
        "differs": ["`ACTIVITY_DELTA`"],
        "events": [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": _text("s", "one")},
            },
            {
                "type": "ACTIVITY_DELTA",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "patch": [
                    {
                        "op": "replace",
                        "path": "/a2ui_operations/1/updateComponents/components/0/text",
                        "value": "two",
                    },
                ],
            },
        ],
    },
    {
        "name": "a second text message re-drawing a surface",
        "differs": ["Text messages in a run"],
        "events": [
            _RUN,
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "x1", "delta": "first"},
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": _text("s", "one")},
            },
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "x2", "delta": "second"},
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": _text("s", "two")},
            },
        ],
    },
    {
        "name": "an activity id reused under a later assistant message",
        "differs": ["Surfaces restored from history"],
        "events": [
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [
                    {"id": "a1", "role": "assistant", "content": "first"},
                    _activity("act", "s", "old"),
                    {"id": "a2", "role": "assistant", "content": "second"},
                    _activity("act", "s", "new"),
                ],
            },
        ],
    },
]


def test_documented_differences(client: UpstreamClient) -> None:
    """Each deliberate difference shows on the live client, as the README table says."""
    theirs = client.replay([case["events"] for case in DOCUMENTED])
    problems: list[str] = []
    for case, replay in zip(DOCUMENTED, theirs, strict=True):
        if case["name"].startswith("a second text message"):
            # Upstream: one message per text messageId, the first keeping its old copy.
            args = ['{"$type":"Markdown","value":"one"}', '{"$type":"Markdown","value":"two"}']
            assert [p.args_text for p in replay.runs[0].parts] == args
            assert [p.args_text for p in ours(case["events"]).runs[0].parts] == args[1:]
            problems += [
                f"{case['name']}: README has no row {row!r}"
                for row in case["differs"]
                if row not in README_ROWS
            ]
            continue
        if case["name"].startswith("an activity id reused"):
            # Upstream leaves a stale copy on a1 (it never recomputes the first owner).
            assert [owner for owner, _ in replay.history] == ["a1", "a2"]
            assert [owner for owner, _ in ours(case["events"]).history] == ["a2"]
            problems += [
                f"{case['name']}: README has no row {row!r}"
                for row in case["differs"]
                if row not in README_ROWS
            ]
            continue
        problems += _check(case["name"], case["events"], replay, case["differs"])
    assert problems == [], "\n".join(problems)


def test_restored_messages_that_draw_nothing(client: UpstreamClient) -> None:
    """Restored activities that draw nothing leave no history entry, as on the client.

    A rootless surface, one deleted again and an empty operation list: the client shows
    no ``a2ui:`` part on their messages, and we list no entry for them (once, we listed
    each with no parts).
    """
    messages = [
        {"id": "a1", "role": "assistant", "content": "rootless"},
        {**_activity("act1", "s1", "x"), "content": {"a2ui_operations": _text("s1", "x")[:1]}},
        {"id": "a2", "role": "assistant", "content": "deleted"},
        {
            **_activity("act2", "s2", "x"),
            "content": {"a2ui_operations": [*_text("s2", "x"), _v09("deleteSurface", "s2")]},
        },
        {"id": "a3", "role": "assistant", "content": "empty"},
        {**_activity("act3", "s3", "x"), "content": {"a2ui_operations": []}},
        {"id": "a4", "role": "assistant", "content": "drawn"},
        _activity("act4", "s4", "kept"),
    ]
    events = [{"type": "MESSAGES_SNAPSHOT", "messages": messages}]
    (theirs,) = client.replay([events])
    mine = ours(events)
    assert [owner for owner, _ in theirs.history] == ["a4"]
    assert differences(mine, theirs) == []


def test_a_lifecycle_after_a_paint_keeps_the_surface(client: UpstreamClient) -> None:
    """A status snapshot on a painted messageId keeps its part, on the client as here.

    What the middleware sends when a render painted and its recovery then failed or
    retried (``a2ui_recovery_exhausted``): the lifecycle replaces the content, and the
    surface already drawn stays.
    """
    streams: list[list[dict[str, Any]]] = [
        [
            _RUN,
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "a2ui-surface-k",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": _text("s", "drawn")},
            },
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "a2ui-surface-k",
                "activityType": "a2ui-surface",
                "content": {"status": status},
            },
        ]
        for status in ("failed", "retrying", "building")
    ]
    for events, theirs in zip(streams, client.replay(streams), strict=True):
        mine = ours(events)
        assert [part.tool_call_id for run in theirs.runs for part in run.parts] == ["a2ui:s"]
        assert differences(mine, theirs) == [], events[-1]


#: Numbers past a double's range, as an agent may write them: JSON.parse reads each as an
#: infinity (sign kept), which JSON.stringify prints as null (#16).
_PAST_RANGE = ["1e400", "-1.7976931348623159e308", "1E+999", "-0.5e310"]


def _past_range_stream(number: str) -> list[dict[str, Any]]:
    """A surface holding ``number`` as written, where upstream keeps what it reads.

    In a Button's action context (literal, bound to the data model, nested), as an Image
    size, and in a surface restored from history. Numbers are ``msgspec.Raw`` text, so
    both sides read the digits as written.
    """
    n = msgspec.Raw(number.encode())
    context = {"literal": n, "bound": {"path": "/d"}, "nested": [n, {"x": n}]}
    components = [
        {"id": "root", "component": "Column", "children": ["b", "i"]},
        {
            "id": "b",
            "component": "Button",
            "label": "go",
            "action": {"name": "go", "context": context},
        },
        {
            "id": "i",
            "component": "Image",
            "url": "https://example.com/a.png",
            "alt": "a",
            "size": n,
        },
    ]
    operations = [
        _v09("createSurface", "s"),
        _v09("updateComponents", "s", components=components),
        _v09("updateDataModel", "s", value={"d": n, "e": [n]}),
    ]
    content = {"a2ui_operations": operations}
    restored = {"id": "act", "role": "activity", "activityType": "a2ui-surface", "content": content}
    history = [{"id": "a1", "role": "assistant", "content": "before"}, restored]
    return [
        {"type": "MESSAGES_SNAPSHOT", "messages": history},
        _RUN,
        {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": content,
        },
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
    ]


def test_numbers_past_a_doubles_range(client: UpstreamClient) -> None:
    """A number past a double's range draws its surface, printed ``null``, as on the client.

    Fed to us as bytes, as a recording holds them: we once refused the operation holding
    one (``op.invalid_json``), and drew nothing where the client draws the surface.
    """
    batch = [_past_range_stream(number) for number in _PAST_RANGE]
    problems: list[str] = []
    for number, events, theirs in zip(_PAST_RANGE, batch, client.replay(batch), strict=True):
        processor = Processor()
        processor.feed(b"".join(msgspec.json.encode(event) + b"\n" for event in events))
        processor.close()
        assert processor.take_diagnostics() == [], number
        mine = replay_of(processor.state)
        assert [len(run.parts) for run in mine.runs] == [1], number  # drawn, not refused
        assert '"literal":null' in mine.runs[0].parts[0].args_text, number
        assert [owner for owner, _ in mine.history] == ["a1"], number  # restored too
        problems += [f"{number}: {line}" for line in differences(mine, theirs)]
    assert problems == [], "\n".join(problems)


def test_readme_table_is_read() -> None:
    """The compatibility table parses into its rows (the checks below rely on it)."""
    assert {"A2UI versions", "Text value", "Button label"} <= README_ROWS


def test_upstream_cases(client: UpstreamClient) -> None:
    """Upstream's own a2ui test cases give the same runs on both sides."""
    theirs = client.replay([case["events"] for case in CASES])
    problems: list[str] = []
    for case, replay in zip(CASES, theirs, strict=True):
        problems += _check(case["name"], case["events"], replay, case.get("differs", ()))
    assert problems == [], "\n".join(problems)
    assert len(CASES) >= 40


def test_generated_streams(client: UpstreamClient) -> None:
    """Seeded hostile streams in upstream's valid profile agree run by run, byte for byte."""
    batch = streams(RUNS, start=SEED)
    theirs = client.replay(batch, timeout=max(120.0, RUNS / 10))
    problems: list[str] = []
    for offset, (events, replay) in enumerate(zip(batch, theirs, strict=True)):
        problems += _check(f"seed {SEED + offset}", events, replay, ())
    print(f"conformance: {RUNS} generated streams, {len(problems)} differences")  # noqa: T201
    assert problems == [], "\n".join(problems[:20])


def _sample_stream(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """A sample as an agent sends it: cumulative snapshots, one per message, in one run."""
    snapshots = [
        {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "a2ui-surface-sample",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": list(messages[:count])},
        }
        for count in range(1, len(messages) + 1)
    ]
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "sample"},
        *snapshots,
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "sample"},
    ]


def test_samples(client: UpstreamClient, samples_dir: Path) -> None:
    """Every A2UI sample stream agrees, or differs only as the README says."""
    samples = conformant_streams(samples_dir)
    batch = [_sample_stream(messages) for _, messages in samples]
    theirs = client.replay(batch)
    problems: list[str] = []
    for (name, messages), events, replay in zip(samples, batch, theirs, strict=True):
        if name.startswith("v0_8__"):  # README row "A2UI versions": upstream rejects v0.8
            if any(run.parts for run in replay.runs):
                problems.append(f"{name}: upstream drew a v0.8 surface")
            if not any(run.parts for run in ours(events).runs):
                problems.append(f"{name}: we drew nothing from a v0.8 sample")
            continue
        rows = sorted(_sample_rows(messages))
        found = _check(name, events, replay, ())
        if found and rows:
            found = _check(name, events, replay, rows)
        problems += found
    assert problems == [], "\n".join(problems)


def test_samples_outside_the_documented_rows(client: UpstreamClient, samples_dir: Path) -> None:
    """Every v0.9/v1.0 sample, said without any feature the README lists as a difference
    (:mod:`sample_rewrites`), agrees byte for byte once its stream has ended.

    test_samples lets a sample differ once it uses a listed feature, which nearly all
    do; rewritten out of those features, what is left of each real screen must match.
    (Before its data arrives a sample shows the "Text value" and "Image `src`" rows.)
    """
    samples = [
        (name, rewritten(messages))
        for name, messages in conformant_streams(samples_dir)
        if not name.startswith("v0_8__")
    ]
    batch = [_sample_stream(messages) for _, messages in samples]
    theirs = client.replay(batch)
    problems = [
        f"{name}: {line}"
        for (name, _), events, replay in zip(samples, batch, theirs, strict=True)
        for line in differences(ours(events), replay)
    ]
    assert problems == [], "\n".join(problems)
    assert len(samples) >= 20
    drawn = [
        name for (name, _), replay in zip(samples, theirs, strict=True) if replay.runs[0].parts
    ]
    assert len(drawn) >= len(samples) - 2  # the rewritten samples draw (two end deleted)
