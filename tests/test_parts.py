"""Parts (``_engine.parts``): which bucket owns a surface, its part, and the diffs of one event."""

from __future__ import annotations

from typing import Any

import immutables
from helpers import text_surface

from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.history import normalize_document
from a2ui_stream._engine.parts import Conversions, history_diffs, make_diff, settle, synthesize
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.stream import NO_HOLDERS, Bucket, HistoryEntry, Holders, Part, RunState
from a2ui_stream._state.surface import Surfaces, apply_operations
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.limits import Limits
from a2ui_stream.testing import create_surface, update_components


def surfaces(*operations: Any) -> Surfaces:
    """The surfaces a list of operations builds from nothing."""
    built, problems = apply_operations(
        {}, [normalize_document(op, i) for i, op in enumerate(operations)], limits=Limits()
    )
    assert not problems
    return built


def run_of(
    *buckets: tuple[str, Surfaces], tools: tuple[tuple[str, Surfaces], ...] = ()
) -> RunState:
    """A run whose activity buckets (least recent first) and tool buckets are given.

    Its census holds each surface's holders, as the reducer's census counts them.
    """
    live: dict[str, Holders] = {}
    for tool, given in ((False, buckets), (True, tools)):
        for key, held in given:
            for sid in held:
                live[sid] = live.get(sid, NO_HOLDERS).with_holder(key, tool=tool)
    return RunState(
        run_id="r",
        buckets=OrderedMap((key, Bucket(message_id=key, surfaces=s)) for key, s in buckets),
        tool_buckets=OrderedMap((key, Bucket(message_id=key, surfaces=s)) for key, s in tools),
        live=immutables.Map(live),
    )


def step(run: RunState, *touched: str, conversions: Conversions | None = None) -> Any:
    """Synthesize the touched surfaces' parts at event 5."""
    return synthesize(
        run, touched, seq=5, converter=Converter(), conversions=conversions or Conversions()
    )


def texts(run: RunState) -> list[tuple[str, str, Any]]:
    """``(surfaceId, owner, text)`` of each part, in display order."""
    return [(sid, p.message_id, p.args.get("value")) for sid, p in run.parts.items()]


class TestSynthesize:
    def test_new_parts_are_added_in_bucket_order(self) -> None:
        """Parts appear once converted, in the order the buckets hold their surfaces."""
        run = run_of(("m1", surfaces(*text_surface("b", "B"), *text_surface("a", "A"))))
        after, diffs, notes = step(run, "a", "b")
        assert [(d.op, d.surface_id, d.seq, d.run_id) for d in diffs] == [
            ("add", "b", 5, "r"),
            ("add", "a", 5, "r"),
        ]
        assert texts(after) == [("b", "m1", "B"), ("a", "m1", "A")]
        assert notes == []

    def test_activity_outranks_tools_and_the_latest_bucket_wins(self) -> None:
        """A surface in several buckets is drawn from the latest activity bucket."""
        run = run_of(
            ("m1", surfaces(*text_surface("s", "old"))),
            ("m2", surfaces(*text_surface("s", "new"))),
            tools=(("t", surfaces(*text_surface("s", "tool"))),),
        )
        after, _, _ = step(run, "s")
        assert texts(after) == [("s", "m2", "new")]
        only_tools = run_of(tools=(("t", surfaces(*text_surface("s", "tool"))),))
        assert texts(step(only_tools, "s")[0]) == [("s", "t", "tool")]

    def test_a_placed_tool_bucket_yields_to_activity(self) -> None:
        """The tool bucket just stored owns the surface only if no activity holds it."""
        held = surfaces(*text_surface("s", "tool 2"))
        run = run_of(
            ("m", surfaces(*text_surface("s", "activity"))),
            tools=(("t1", surfaces(*text_surface("s", "tool 1"))), ("t2", held)),
        )
        placed = ("t2", held, True)
        converter, conversions = Converter(), Conversions()
        after, _, _ = synthesize(
            run, ["s"], seq=5, converter=converter, conversions=conversions, placed=placed
        )
        assert texts(after) == [("s", "m", "activity")]
        tools = run_of(tools=(("t1", surfaces(*text_surface("s", "tool 1"))), ("t2", held)))
        after, _, _ = synthesize(
            tools, ["s"], seq=5, converter=converter, conversions=conversions, placed=placed
        )
        assert texts(after) == [("s", "t2", "tool 2")]

    def test_unchanged_gives_no_diff_changed_an_update_gone_a_remove(self) -> None:
        """The same tree again is silent; a new tree updates in place; no owner removes."""
        first, _, _ = step(run_of(("m", surfaces(*text_surface("s", "x")))), "s")
        same = run_of(("m", surfaces(*text_surface("s", "x"))))
        same = RunState(run_id="r", buckets=same.buckets, live=same.live, parts=first.parts)
        assert step(same, "s")[1] == ()
        redrawn = run_of(("m", surfaces(*text_surface("s", "y"))))
        changed = RunState(
            run_id="r", buckets=redrawn.buckets, live=redrawn.live, parts=first.parts
        )
        [update] = step(changed, "s")[1]
        assert update.op == "update"
        assert (update.previous_args["value"], update.args["value"]) == ("x", "y")
        gone, diffs, _ = step(RunState(run_id="r", parts=first.parts), "s")
        assert [(d.op, d.surface_id) for d in diffs] == [("remove", "s")]
        assert len(gone.parts) == 0

    def test_warnings_are_debug_while_running_and_reported_once(self) -> None:
        """A conversion warning is provisional while the run runs, and not repeated."""
        broken = surfaces(
            create_surface("s"),
            update_components("s", {"id": "root", "component": "Column", "children": ["nope"]}),
        )
        run = run_of(("m", broken))
        after, _, notes = step(run, "s")
        assert notes
        assert {n.severity for n in notes} == {Severity.DEBUG}
        assert all((n.seq, n.message_id) == (5, "m") for n in notes)
        again = RunState(
            run_id="r",
            buckets=run.buckets,
            live=run.live,
            parts=after.parts,
            reported=after.reported,
        )
        assert step(again, "s")[2] == []
        settled = settle(again, 9)
        assert [n.severity for n in settled] == [Severity.WARNING] * len(settled)
        assert settled
        assert all(n.message.endswith("(still so when the run ended)") for n in settled)
        finished = RunState(
            run_id="r", status="finished", buckets=run.buckets, reported=after.reported
        )
        assert settle(finished, 9) == []

    def test_settled_warnings_name_the_bucket_that_draws_the_surface(self) -> None:
        """At the run's end each warning names its surface's owner, in drawing order."""
        broken = [
            create_surface("a"),
            update_components("a", {"id": "root", "component": "Column", "children": ["x"]}),
            create_surface("b"),
            update_components("b", {"id": "root", "component": "Column", "children": ["y"]}),
        ]
        run = run_of(
            ("m1", surfaces(*broken)),
            ("m2", surfaces(*broken[2:])),
            tools=(("t1", surfaces(*broken)), ("t2", surfaces(*broken[:2]))),
        )
        after, _, _ = step(run, "a", "b")
        ended = RunState(
            run_id="r",
            buckets=run.buckets,
            tool_buckets=run.tool_buckets,
            live=run.live,
            reported=after.reported,
        )
        owners = [(n.surface_id, n.message_id) for n in settle(ended, 9)]
        # The latest activity bucket holding each surface, though tool buckets came later.
        assert owners == [("a", "m1"), ("b", "m2")]


class TestDiffs:
    def test_make_diff_of_each_kind(self) -> None:
        """Each op gives its own type; an update without previous args is an add."""
        part = Part.of("s", "m", {"$type": "Divider"})
        assert make_diff("add", part, 1, "r").op == "add"
        assert make_diff("update", part, 1, "r", previous_args={}).op == "update"
        assert make_diff("update", part, 1, "r").op == "add"
        removed = make_diff("remove", part, 1, None, history=True)
        assert (removed.op, removed.run_id, removed.history, removed.tool_call_id) == (
            "remove",
            None,
            True,
            "a2ui:s",
        )

    def test_history_diffs(self) -> None:
        """Restored parts are known by owner and surface: adds and updates, then removes."""
        kept = Part.of("k", "x", {"v": 1})
        old = [HistoryEntry(message_id="a1", parts=(kept, Part.of("gone", "x", {})))]
        new = [
            HistoryEntry(message_id="a1", parts=(Part.of("k", "x", {"v": 2}),)),
            HistoryEntry(message_id="a2", parts=(kept,)),
        ]
        diffs = history_diffs(old, new, seq=3, run_id="r")
        assert [(d.op, d.message_id, d.surface_id, d.history) for d in diffs] == [
            ("update", "a1", "k", True),
            ("add", "a2", "k", True),
            ("remove", "a1", "gone", True),
        ]
        assert history_diffs(new, new, seq=4, run_id="r") == ()


def test_conversions_cache() -> None:
    """Put, get, drop and clear; the cache is keyed by surface."""
    conversions = Conversions()
    conversion = Converter().convert(surfaces(*text_surface("s"))["s"])
    conversions.put("s", conversion)
    assert conversions.get("s") is conversion
    conversions.drop("s")
    conversions.drop("never there")
    assert conversions.get("s") is None
    conversions.put("t", conversion)
    conversions.clear()
    assert conversions.get("t") is None
