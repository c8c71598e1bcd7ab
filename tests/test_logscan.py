"""The layout of a log file (``_shell.logscan``): records, a torn tail, the sparse index,
and whether a file is a log at all."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from a2ui_stream._shell import logscan
from a2ui_stream._shell.logscan import Index, count_newlines, foreign, scan, torn_tail
from a2ui_stream._wire.diagnostics import Severity

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

EVENT = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[tuple[Path, list[int]]]:
    """A file to write, and the descriptors opened on it (closed after the test)."""
    fds: list[int] = []
    yield tmp_path / "log.jsonl", fds
    for fd in fds:
        os.close(fd)


def open_with(place: tuple[Path, list[int]], data: bytes) -> int:
    """Write ``data`` to the file and open it for reading."""
    path, fds = place
    path.write_bytes(data)
    fds.append(os.open(path, os.O_RDONLY))
    return fds[-1]


class TestScan:
    def test_records_and_a_torn_tail(self, opened: tuple[Path, list[int]]) -> None:
        """Complete lines are counted; what follows the last line feed is the fragment."""
        fd = open_with(opened, EVENT * 3 + b'{"type":"RU')
        found = scan(fd)
        assert (found.records, found.committed, found.total) == (
            3,
            3 * len(EVENT),
            3 * len(EVENT) + 11,
        )
        assert found.fragment == b'{"type":"RU'

    def test_an_empty_file(self, opened: tuple[Path, list[int]]) -> None:
        """Nothing to count, nothing torn."""
        found = scan(open_with(opened, b""))
        assert (found.records, found.committed, found.total, found.fragment) == (0, 0, 0, b"")

    def test_across_chunks(
        self, opened: tuple[Path, list[int]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Chunk boundaries inside records change nothing."""
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 7)
        found = scan(open_with(opened, EVENT * 5 + b"x"))
        assert (found.records, found.committed, found.fragment) == (5, 5 * len(EVENT), b"x")

    def test_the_index_finds_record_starts(
        self, opened: tuple[Path, list[int]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Each index entry is a real record start; lookups give the last one at or before."""
        monkeypatch.setattr(logscan, "INDEX_STRIDE", 100)
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 64)
        data = EVENT * 20
        positions = scan(open_with(opened, data)).positions
        assert len(positions.seqs) > 1
        for seq, offset in zip(positions.seqs, positions.offsets, strict=True):
            assert offset == seq * len(EVENT)
        assert positions.at_seq(0) == (0, 0)
        offset, seq = positions.at_seq(19)
        assert seq <= 19
        assert offset == seq * len(EVENT)
        before_end = [o for o in positions.offsets if o <= len(data) - 1]
        assert positions.at_offset(len(data) - 1)[0] == max(before_end)

    def test_a_new_index_starts_at_record_zero(self) -> None:
        """Before anything is added every lookup is the file's start."""
        index = Index()
        assert index.at_seq(10**9) == (0, 0) == index.at_offset(10**9)


def test_count_newlines(opened: tuple[Path, list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Line feeds between two offsets, read in chunks; past the end counts what there is."""
    monkeypatch.setattr(logscan, "SCAN_CHUNK", 3)
    fd = open_with(opened, b"a\nbb\n\nccc\n")
    assert count_newlines(fd, 0, 10) == 4
    assert count_newlines(fd, 2, 6) == 2
    assert count_newlines(fd, 5, 5) == 0
    assert count_newlines(fd, 0, 1000) == 4


def test_torn_tail_says_what_was_kept(tmp_path: Path) -> None:
    """A warning naming the bytes dropped, where, and the events kept, with the fragment."""
    found = logscan.Scan(records=2, committed=90, total=100, fragment=b"{", positions=Index())
    diagnostic = torn_tail(tmp_path / "x.jsonl", found, readonly=False)
    assert (diagnostic.code, diagnostic.severity) == ("log.torn_tail", Severity.WARNING)
    assert (diagnostic.line, diagnostic.offset, diagnostic.seq, diagnostic.raw) == (3, 90, 2, b"{")
    assert "truncated an incomplete last line of 10 bytes at byte 90" in diagnostic.message
    assert "kept 2 complete events" in diagnostic.message
    assert torn_tail(tmp_path, found, readonly=True).message.startswith("ignored ")


class TestForeign:
    @pytest.mark.parametrize(
        "data",
        [
            b"",
            EVENT,
            EVENT * 2,
            b'{"type":"RUN',
            b"{",
            b'{"type":"X\\"y","a":1}\n' + EVENT,  # a type AG-UI lacks, logged as it came
            EVENT[:-1],  # a first record torn just before its line feed
            b'{"type":"FeatureCollection","features":[',  # torn: not whole JSON
        ],
    )
    def test_logs_and_torn_first_lines_pass(
        self, opened: tuple[Path, list[int]], data: bytes
    ) -> None:
        """An empty file, events, and a torn start of an event are logs."""
        assert foreign(open_with(opened, data)) is None

    @pytest.mark.parametrize(
        ("data", "why"),
        [
            (b"hello\n", "does not begin like an event"),
            (b'{"runId":"r","type":"X"}\n', "does not begin like an event"),
            (b'{"type":"X",\n', "not a JSON object with a string type"),
            (b"hello", "one unterminated line"),
            (b'{"type": "X"}\n', "does not begin like an event"),
            # Found by an input probe: a one-line JSON file (compact GeoJSON) was taken
            # for a torn first record and truncated to nothing.
            (b'{"type":"FeatureCollection","features":[]}', "a whole JSON document"),
            (b'{"type":"info","msg":"up"}', "a whole JSON document"),
            # Another program's JSONL log: typed objects, none of them an AG-UI event.
            (b'{"type":"info","msg":"up"}\n{"type":"warn","msg":"x"}\n', "none of its first"),
            (b'{"type":"X\\"y","a":1}\n', "none of its first lines is an AG-UI event"),
        ],
    )
    def test_anything_else_is_named(
        self, opened: tuple[Path, list[int]], data: bytes, why: str
    ) -> None:
        """Another file is refused with the reason its first line gives."""
        reason = foreign(open_with(opened, data))
        assert reason is not None
        assert why in reason


class TestALongFirstLine:
    """A first line longer than the window read (found by an input probe: a compact
    GeoJSON file of 1.5 MB was taken for a torn first record and truncated to nothing)."""

    BIG = b"x" * 300

    @pytest.fixture(autouse=True)
    def _small_window(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 64)

    @pytest.mark.parametrize(
        "data",
        [
            b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"' + BIG + b'"}\n' + EVENT,
            b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"' + BIG,  # torn
            b'{"type":"Mine","blob":"' + BIG + b'"}\n' + EVENT,  # a type AG-UI lacks, then one
        ],
    )
    def test_an_event_or_one_followed_by_an_event_passes(
        self, opened: tuple[Path, list[int]], data: bytes
    ) -> None:
        assert foreign(open_with(opened, data)) is None

    @pytest.mark.parametrize(
        ("data", "why"),
        [
            (b'{"type":"FeatureCollection","features":["' + BIG + b'"]}', "no line follows it"),
            (
                b'{"type":"snapshot","blob":"' + BIG + b'"}\n{"type":"info","msg":"up"}\n',
                "none of the lines after it is one",
            ),
            (b'{"type":"RUN_STARTEDX","a":"' + BIG + b'"}', "no line follows it"),
        ],
    )
    def test_any_other_is_refused(
        self, opened: tuple[Path, list[int]], data: bytes, why: str
    ) -> None:
        reason = foreign(open_with(opened, data))
        assert reason is not None
        assert "is no AG-UI event" in reason
        assert why in reason
