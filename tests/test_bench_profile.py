"""Tests of the benchmark's profile mode: the child's stage timers and the report section."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest

import a2ui_stream._convert.converter
import a2ui_stream._engine.reducer
import a2ui_stream._engine.sharing
from a2ui_stream import a2ui

if TYPE_CHECKING:
    from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def bench_module(name: str) -> ModuleType:
    """Import a benchmark script by name, with its siblings importable."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def profiler() -> ModuleType:
    return bench_module("_profile")


@pytest.fixture(scope="module")
def report() -> ModuleType:
    return bench_module("_report")


@pytest.fixture(scope="module")
def chat(profiler: ModuleType) -> bytes:
    workloads = bench_module("workloads")
    out = io.BytesIO()
    workloads.generate("chat-mixed", out, mb=0.02, seed=3)
    assert profiler is not None
    return out.getvalue()


def hand_built(profiler: ModuleType, **changes: Any) -> Any:
    """A profile with round numbers: 100 ms total against a 10 ms decode limit."""
    stages = [
        {"name": "framing + event decode", "calls": 4, "seconds": 0.010},
        {"name": "reducer", "calls": 50, "seconds": 0.080},
        {"name": "operation decode", "parent": "reducer", "calls": 20, "seconds": 0.005},
        {"name": "conversion", "parent": "reducer", "calls": 10, "seconds": 0.060},
        {"name": "plan runs", "parent": "conversion", "calls": 9, "seconds": 0.020},
        {"name": "part diffing", "calls": 0, "seconds": 0.0},
    ]
    hotspots = [
        {"function": "a2ui_stream._convert.walk:visit", "calls": 1000, "self_seconds": 0.05},
        {"function": "msgspec.json:Decoder.decode", "calls": 40, "self_seconds": 0.025},
    ]
    raw = {
        "workload": "chat-mixed",
        "input_bytes": 2_000_000,
        "bytes": 2_000_000,
        "seconds": 0.100,
        "limit_seconds": 0.010,
        "stages": stages,
        "profiled_bytes": 2_000_000,
        "profiled_seconds": 0.200,
        "hotspots": hotspots,
        **changes,
    }
    return msgspec.convert(raw, type=profiler.Profile)


class TestProfileSection:
    def test_nothing_profiled_gives_no_section(self, report: ModuleType) -> None:
        """Without profiles the report has no section at all."""
        assert report.profile_section([]) == []

    def test_stage_rows_shares_and_multiples(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """Each stage row shows calls, ms, share of the total and multiple of the limit."""
        text = "\n".join(report.profile_section([hand_built(profiler)]))
        assert "## Where the time goes" in text
        assert "### chat-mixed (ours, 2.0 MB)" in text
        assert "| total (ours) | | 100 | 100% | 10.00 |" in text
        assert "| framing + event decode | 4 | 10.0 | 10.0% | 1.00 |" in text
        assert "| &emsp;conversion | 10 | 60.0 | 60.0% | 6.00 |" in text
        assert "| &emsp;&emsp;plan runs | 9 | 20.0 | 20.0% | 2.00 |" in text
        assert "| limit (msgspec decode) | | 10.0 | | 1.00 |" in text

    def test_rests_and_other_come_from_non_overlapping_stages(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """Rest rows subtract only direct children; other subtracts only top-level stages."""
        text = "\n".join(report.profile_section([hand_built(profiler)]))
        assert "| &emsp;&emsp;rest of conversion |  | 40.0 | 40.0% | 4.00 |" in text
        # 80 - (5 + 60): plan runs are inside conversion, not subtracted again.
        assert "| &emsp;rest of reducer |  | 15.0 | 15.0% | 1.50 |" in text
        # The total less framing, reducer and part diffing: 100 ms less 90 ms.
        assert "| other |  | 10.0 | 10.0% | 1.00 |" in text

    def test_stage_without_calls_is_named_not_tabled(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """A stage that never ran is listed under the table instead of as a row of zeros."""
        text = "\n".join(report.profile_section([hand_built(profiler)]))
        assert "| part diffing |" not in text
        assert "Not called on this workload: part diffing." in text

    def test_no_rest_row_when_every_part_is_idle(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """A stage whose only parts never ran gets no rest row repeating its own time."""
        found = hand_built(profiler)
        found.stages[4].calls, found.stages[4].seconds = 0, 0.0
        text = "\n".join(report.profile_section([found]))
        assert "rest of conversion" not in text
        assert "Not called on this workload: plan runs, part diffing." in text

    def test_sentence_is_computed_from_the_largest_stage(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """The sentence names the stage with the most time (not the reducer around it)."""
        text = "\n".join(report.profile_section([hand_built(profiler)]))
        assert (
            "On chat-mixed, conversion takes the most time: 60% of the total, 6.00x the "
            "decode limit, of 10.00x in all; the function with the most self time is "
            "`a2ui_stream._convert.walk:visit` (25% under cProfile)."
        ) in text

    def test_hotspots_table(self, profiler: ModuleType, report: ModuleType) -> None:
        """Functions show calls, self ms and their share of the profiled self time."""
        text = "\n".join(report.profile_section([hand_built(profiler)]))
        assert "| `a2ui_stream._convert.walk:visit` | 1,000 | 50.0 | 25.0% |" in text
        assert "| `msgspec.json:Decoder.decode` | 40 | 25.0 | 12.5% |" in text

    def test_partial_and_failed_profiles_say_so(
        self, profiler: ModuleType, report: ModuleType
    ) -> None:
        """A budget-cut pass is marked partial; a failed profile shows its error, no table."""
        partial = hand_built(profiler, bytes=1_000_000, partial=True, workload="big-surface")
        failed = hand_built(profiler, ok=False, error="no calls recorded for conversion")
        text = "\n".join(report.profile_section([partial, failed]))
        assert "(timed pass partial: 50% of input, time budget)" in text
        assert "Profile failed: no calls recorded for conversion" in text
        assert text.count("| stage |") == 1


class TestProfileChild:
    def test_every_stage_runs_on_chat_mixed(self, profiler: ModuleType, chat: bytes) -> None:
        """On chat-mixed every stage but the delta, patch and plan ones records calls and time.

        Its surfaces are re-sent fewer times than a component set takes to be compiled.
        """
        found = profiler.profile("chat-mixed", chat)
        assert found.ok, found.error
        assert found.limit_seconds > 0
        assert found.seconds > 0
        calls = {stage.name: stage.calls for stage in found.stages}
        idle = {"content patch (deltas)", "part diffing", "plan building", "plan runs"}
        assert all(count > 0 for name, count in calls.items() if name not in idle), calls
        assert calls["content patch (deltas)"] == calls["part diffing"] == 0
        assert 0 < len(found.hotspots) <= 12
        assert found.profiled_seconds >= max(h.self_seconds for h in found.hotspots)

    def test_timers_are_removed_afterwards(self, profiler: ModuleType, chat: bytes) -> None:
        """After a profile the package's functions are its own again."""
        profiler.profile("chat-mixed", chat)
        assert vars(a2ui_stream._engine.sharing)["decode_operation"] is a2ui.decode_operation
        convert = vars(a2ui_stream._convert.converter.Converter)["convert"]
        assert convert.__module__ == "a2ui_stream._convert.converter"
        assert convert.__name__ == "convert"

    def test_required_stage_without_calls_fails_loudly(self, profiler: ModuleType) -> None:
        """A workload whose required stages never run gives a failed profile naming them."""
        data = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
        found = profiler.profile("chat-mixed", data)
        assert not found.ok
        assert {"operation decode", "conversion"} <= set(found.missing)
        assert "no calls recorded" in found.error

    def test_vanished_call_site_fails_loudly(
        self, profiler: ModuleType, chat: bytes, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A stage naming a function that no longer exists fails and leaves nothing wrapped."""
        site = profiler.Site("a2ui_stream._engine.reducer", "", "no_such_function")
        bogus = profiler.StageSpec("bogus", "", (site,), "always")
        monkeypatch.setattr(profiler, "STAGES", (*profiler.STAGES, bogus))
        found = profiler.profile("chat-mixed", chat)
        assert not found.ok
        assert "a2ui_stream._engine.reducer has no function no_such_function" in found.error
        assert vars(a2ui_stream._engine.sharing)["decode_operation"] is a2ui.decode_operation
