"""The event-log contract, run against every store: MemoryLog and FileLog alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from helpers import LINES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2ui_stream._engine.eventlog import EventLog, MemoryLog
from a2ui_stream._shell.filelog import FileLog
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


@pytest.fixture(params=["memory", "file"])
def make_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], EventLog]]:
    """Build empty logs of one store kind; close them all at the end."""
    made: list[EventLog] = []

    def make() -> EventLog:
        log: EventLog
        if request.param == "memory":
            log = MemoryLog()
        else:
            log = FileLog.open(tmp_path / f"log-{len(made)}.jsonl", fsync="never")
        made.append(log)
        return log

    yield make
    for log in made:
        log.close()


class TestContract:
    def test_new_log_is_empty(self, make_log: Callable[[], EventLog]) -> None:
        """A new log holds no records and reads nothing."""
        log = make_log()
        assert len(log) == 0
        assert list(log.read()) == []

    def test_append_numbers_from_zero(self, make_log: Callable[[], EventLog]) -> None:
        """Each append returns the next seq, starting at 0."""
        log = make_log()
        assert [log.append(line) for line in LINES] == [0, 1, 2]
        assert len(log) == 3

    def test_read_returns_lines_in_order(self, make_log: Callable[[], EventLog]) -> None:
        """Reading yields every line with its seq, byte for byte."""
        log = make_log()
        log.append_many(LINES)
        assert list(log.read()) == list(enumerate(LINES))

    def test_append_many_returns_last_seq(self, make_log: Callable[[], EventLog]) -> None:
        """A batch returns the seq of its last line and continues the numbering."""
        log = make_log()
        log.append(b"a")
        assert log.append_many([b"b", b"c"]) == 2
        assert log.append(b"d") == 3

    def test_empty_batch_changes_nothing(self, make_log: Callable[[], EventLog]) -> None:
        """An empty batch appends nothing and returns the last seq (-1 when empty)."""
        log = make_log()
        assert log.append_many([]) == -1
        log.append(b"a")
        assert log.append_many([]) == 0
        assert len(log) == 1

    @pytest.mark.parametrize("start", [0, 1, 2, 3])
    def test_read_from_start(self, make_log: Callable[[], EventLog], start: int) -> None:
        """Reading from a seq yields exactly the records from that seq on."""
        log = make_log()
        log.append_many(LINES)
        assert list(log.read(start)) == list(enumerate(LINES))[start:]

    @pytest.mark.parametrize("start", [-1, 4])
    def test_read_outside_log_raises(self, make_log: Callable[[], EventLog], start: int) -> None:
        """A start before 0 or past the end is caller misuse."""
        log = make_log()
        log.append_many(LINES)
        with pytest.raises(UsageError, match="cannot read from seq"):
            log.read(start)

    def test_read_sees_records_present_at_call(self, make_log: Callable[[], EventLog]) -> None:
        """Records appended after read() was called are not part of that read."""
        log = make_log()
        log.append(b"a")
        reader = log.read()
        log.append(b"b")
        assert list(reader) == [(0, b"a")]
        assert list(log.read()) == [(0, b"a"), (1, b"b")]

    def test_interleaved_reads_and_appends(self, make_log: Callable[[], EventLog]) -> None:
        """Appending while a reader is half way through disturbs neither."""
        log = make_log()
        log.append_many([b"a", b"b"])
        reader = log.read()
        assert next(reader) == (0, b"a")
        log.append(b"c")
        assert list(reader) == [(1, b"b")]

    @pytest.mark.parametrize("line", [b"", b"a\nb", b"\n"])
    def test_unstorable_line_is_refused(
        self, make_log: Callable[[], EventLog], line: bytes
    ) -> None:
        """An empty line or one with a line feed is caller misuse."""
        log = make_log()
        with pytest.raises(UsageError, match="log line"):
            log.append(line)
        assert len(log) == 0

    def test_bad_batch_appends_nothing(self, make_log: Callable[[], EventLog]) -> None:
        """A batch with one unstorable line is refused whole."""
        log = make_log()
        with pytest.raises(UsageError):
            log.append_many([b"ok", b"bad\n"])
        assert len(log) == 0
        assert list(log.read()) == []

    def test_any_bytes_but_line_feed_round_trip(self, make_log: Callable[[], EventLog]) -> None:
        """The log is byte-agnostic: invalid UTF-8, NUL and CR come back unchanged."""
        log = make_log()
        odd = [b"\xff\xfe", b"\x00", b"a\rb", bytes(range(11, 256))]
        log.append_many(odd)
        assert [line for _, line in log.read()] == odd

    def test_close_twice_is_fine(self, make_log: Callable[[], EventLog]) -> None:
        """Closing an already closed log does nothing."""
        log = make_log()
        log.close()
        log.close()

    @pytest.mark.parametrize(
        "use",
        [
            lambda log: log.append(b"a"),
            lambda log: log.append_many([b"a"]),
            lambda log: log.read(),
            lambda log: log.flush(),
        ],
        ids=["append", "append_many", "read", "flush"],
    )
    def test_use_after_close_raises(
        self, make_log: Callable[[], EventLog], use: Callable[[EventLog], object]
    ) -> None:
        """Appending, reading or flushing a closed log is caller misuse."""
        log = make_log()
        log.close()
        with pytest.raises(UsageError, match="closed"):
            use(log)

    def test_flush_keeps_records(self, make_log: Callable[[], EventLog]) -> None:
        """Flushing changes nothing visible."""
        log = make_log()
        log.append_many(LINES)
        log.flush()
        assert list(log.read()) == list(enumerate(LINES))

    @settings(
        max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        batches=st.lists(
            st.lists(
                st.binary(min_size=1, max_size=40).filter(lambda b: b"\n" not in b), max_size=5
            ),
            max_size=12,
        ),
        start=st.integers(min_value=0, max_value=60),
    )
    def test_behaves_like_a_list(
        self, make_log: Callable[[], EventLog], batches: list[list[bytes]], start: int
    ) -> None:
        """Any mix of appends and batches reads back like appending to a list."""
        log = make_log()
        model: list[bytes] = []
        for batch in batches:
            if len(batch) == 1:
                assert log.append(batch[0]) == len(model)
            else:
                assert log.append_many(batch) == len(model) + len(batch) - 1
            model.extend(batch)
        assert len(log) == len(model)
        start = min(start, len(model))
        assert list(log.read(start)) == list(enumerate(model))[start:]
