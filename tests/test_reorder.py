"""Releasing a thread's events in ``seq`` order (``_engine.reorder``), and the engine codec."""

from __future__ import annotations

import pickle
import zlib

import pytest
from helpers import payloads
from hypothesis import given
from hypothesis import strategies as st
from stream_cases import RECORDING

from a2ui_stream._engine.reorder import Codec, Progress, give_up, step
from a2ui_stream._engine.threads import Keyed, fold_thread


class TestReorder:
    @given(st.permutations(range(12)), st.lists(st.integers(0, 11), max_size=6))
    def test_releases_in_seq_order_whatever_the_arrival(
        self, order: list[int], repeats: list[int]
    ) -> None:
        progress, released = Progress(), []
        for seq in [*order, *repeats]:
            progress, ready = step(progress, seq, b"e%d" % seq)
            released.extend(ready)
        assert released == [(seq, b"e%d" % seq) for seq in range(12)]
        assert (progress.next_seq, progress.pending, progress.duplicates) == (12, {}, len(repeats))

    def test_give_up_goes_past_gaps(self) -> None:
        progress = Progress()
        for seq in (0, 3, 4, 7):
            progress, _ = step(progress, seq, b"%d" % seq)
        after, released = give_up(progress)
        assert [seq for seq, _ in released] == [3, 4, 7]
        assert (after.next_seq, after.missing, after.pending) == (8, 4, {})  # 1, 2, 5, 6
        late, ready = step(after, 5, b"5")
        assert (ready, late.duplicates) == ([], 1)

    def test_a_full_buffer_gives_up_its_lowest_gap(self) -> None:
        progress = Progress()
        for seq in (2, 3, 6, 7):
            progress, ready = step(progress, seq, b"x", max_pending=3)
        assert [seq for seq, _ in ready] == [2, 3]
        assert (progress.next_seq, progress.missing, sorted(progress.pending)) == (4, 2, [6, 7])

    def test_digest_names_what_was_released(self) -> None:
        one, two = Progress(), Progress()
        one, _ = step(one, 0, b"a")
        two, _ = step(two, 0, b"b")
        assert one.next_seq == two.next_seq
        assert one.digest != two.digest

    @pytest.mark.parametrize(
        "value",
        [
            Progress(3, {5: b"x", 9: b"\xff"}, 1, 2, 77),
            Keyed("t", 4, b'{"type":"RUN_STARTED"}'),
            fold_thread("t", enumerate(payloads(RECORDING))),
        ],
    )
    def test_codec_round_trips_and_pickles(self, value: object) -> None:
        codec = Codec(type(value))
        shipped = pickle.loads(pickle.dumps(codec))  # noqa: S301 - our own bytes
        assert shipped.decode(codec.encode(value)) == value

    def test_array_like_records_are_compact(self) -> None:
        assert len(Codec(Progress).encode(Progress())) < 10

    def test_the_digest_chains_crc32_over_payloads_in_order(self) -> None:
        """Whatever the arrival, the digest is CRC-32 of the payloads in seq order."""
        progress = Progress()
        for seq, payload in ((1, b"b"), (0, b"a"), (2, b"c")):
            progress, _ = step(progress, seq, payload)
        assert progress.digest == zlib.crc32(b"c", zlib.crc32(b"b", zlib.crc32(b"a")))

    def test_giving_up_nothing_waiting_changes_nothing(self) -> None:
        """With no event waiting there is no gap to go past."""
        progress, _ = step(Progress(), 0, b"x")
        assert give_up(progress) == (progress, [])

    def test_giving_up_one_gap_at_a_time(self) -> None:
        """Without all_gaps only the run after the lowest gap is released."""
        progress = Progress()
        for seq in (2, 3, 6):
            progress, _ = step(progress, seq, b"x")
        after, released = give_up(progress, all_gaps=False)
        assert [seq for seq, _ in released] == [2, 3]
        assert (after.next_seq, after.missing, sorted(after.pending)) == (4, 2, [6])
