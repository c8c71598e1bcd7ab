"""An archive in figures (``_engine.summary``): one thread's summary, and merging them."""

from __future__ import annotations

import random

import pytest
from archive_cases import ENCODE, Archive, reference
from stream_cases import line, run_started

from a2ui_stream._engine import summary as sums
from a2ui_stream._engine.threads import ThreadResult, fold_thread


class TestSummary:
    def test_merge_in_any_grouping_gives_one_value(self, parts: list[sums.Summary]) -> None:
        expected = ENCODE(_fold_left(parts))
        rng = random.Random(5)
        for _ in range(5):
            shuffled = parts[:]
            rng.shuffle(shuffled)
            cut = rng.randrange(len(shuffled))
            tree = sums.merge(_fold_left(shuffled[:cut]), _fold_left(shuffled[cut:]))
            assert ENCODE(tree) == expected

    def test_counts(self, archive: Archive, parts: list[sums.Summary]) -> None:
        total = _fold_left(parts)
        results = reference(archive[1]).values()
        assert total.threads == 14
        assert total.runs == sum(len(r.runs) for r in results)
        assert total.surfaces == sum(len(run.parts) for r in results for run in r.runs)
        assert total.diagnostics["json.invalid"] == 1
        assert list(total.diagnostics.values()) == sorted(total.diagnostics.values(), reverse=True)
        assert total.statuses == {"finished": total.runs - 1, "running": 1}

    def test_failures_and_slowest(self) -> None:
        failing = ThreadResult(
            thread_id="f", events=1, rejected=0, errors=0, duplicates=0, missing=0,
            runs=[], lifecycle=[], diagnostics={},
        )  # fmt: skip
        events = [line(run_started("r")), line({"type": "RUN_ERROR", "message": "x"})]
        broken = fold_thread("b", enumerate(events))
        summaries = [sums.summarize(failing, 0.5), sums.summarize(broken, 2.0)]
        summaries += [sums.summarize(failing, n / 100) for n in range(20)]
        total = _fold_left(summaries)
        assert [slow.seconds for slow in total.slowest[:2]] == [2.0, 0.5]
        assert len(total.slowest) == sums.KEEP
        assert (total.failed_runs, total.failed_threads, total.failed_examples) == (1, 1, ["b"])

    def test_empty_is_the_identity(self, parts: list[sums.Summary]) -> None:
        assert sums.merge(sums.EMPTY, parts[0]) == parts[0] == sums.merge(parts[0], sums.EMPTY)
        assert sums.merge(sums.Summary(), parts[0]) == parts[0]


@pytest.fixture(scope="module")
def parts(archive: Archive) -> list[sums.Summary]:
    return [sums.summarize(result, 0.0) for result in reference(archive[1]).values()]


def _fold_left(summaries: list[sums.Summary]) -> sums.Summary:
    total = sums.EMPTY
    for summary in summaries:
        total = sums.merge(total, summary)
    return total
