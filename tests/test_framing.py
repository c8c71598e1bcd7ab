"""The framer: JSONL and SSE cut into payloads identically however the bytes are chunked."""

from __future__ import annotations

import random
import re
from typing import NamedTuple

import pytest
import stream_cases as cases

from a2ui_stream import Diagnostic, Processor, Severity, UsageError
from a2ui_stream._wire import framing
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.framing import Frame, Framer

LIMIT = 16


def too_long(line: int, offset: int, raw: bytes, what: str = "line") -> Diagnostic:
    return Diagnostic(
        code=Code.LINE_TOO_LONG,
        message=f"{what} is longer than max_line_bytes ({LIMIT}); skipped",
        severity=Severity.ERROR,
        line=line,
        offset=offset,
        raw=raw,
    )


class Case(NamedTuple):
    """One framing case: fed whole, byte by byte, in random splits and with trailing
    bytes, its input must give exactly ``expected``."""

    name: str
    fmt: str
    data: bytes
    expected: list[Frame | Diagnostic]

    @property
    def complete(self) -> bool:
        """Whether the input ends on a line (JSONL) or event (SSE) boundary."""
        end = b"\n\n" if self.name.startswith("sse") else b"\n"
        return self.data.endswith(end)


CASES: list[Case] = [
    Case("jsonl-empty", "auto", b"", []),
    Case("jsonl-one", "auto", b'{"a":1}\n', [Frame(b'{"a":1}', 1, 0)]),
    Case(
        "jsonl-unterminated-last-line",
        "auto",
        b'{"a":1}\n{"b":2}',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 2, 8)],
    ),
    Case(
        "jsonl-blank-lines-and-crlf",
        "auto",
        b'\n  \r\n{"a":1}\r\n\r\n\t\n{"b":2}\r\n',
        [Frame(b'{"a":1}', 3, 5), Frame(b'{"b":2}', 6, 18)],
    ),
    Case(
        "jsonl-bom",
        "auto",
        b'\xef\xbb\xbf{"a":1}\n{"b":2}\n',
        [Frame(b'{"a":1}', 1, 3), Frame(b'{"b":2}', 2, 11)],
    ),
    Case(
        "jsonl-bom-explicit-format",
        "jsonl",
        b'\xef\xbb\xbf{"a":1}\n',
        [Frame(b'{"a":1}', 1, 3)],
    ),
    Case(
        "jsonl-not-json-lines-still-framed",
        "auto",
        b'{"a":1}\nnot json\n[1,2]\n',
        [Frame(b'{"a":1}', 1, 0), Frame(b"not json", 2, 8), Frame(b"[1,2]", 3, 17)],
    ),
    Case(
        "jsonl-leading-space-before-brace",
        "auto",
        b'  {"a":1}\n',
        [Frame(b'  {"a":1}', 1, 0)],
    ),
    Case(
        "jsonl-invalid-utf8-passed-through",
        "auto",
        b'{"a":"\xff\xfe"}\n{"b":"\xc3\xa9"}\n',
        [Frame(b'{"a":"\xff\xfe"}', 1, 0), Frame(b'{"b":"\xc3\xa9"}', 2, 11)],
    ),
    Case(
        "jsonl-long-line-skipped",
        "auto",
        b'{"a":1}\n{"long":"' + b"x" * 40 + b'"}\n{"b":2}\n',
        [
            Frame(b'{"a":1}', 1, 0),
            too_long(2, 8, b'{"long":"xxxxxxxx'),
            Frame(b'{"b":2}', 3, 60),
        ],
    ),
    Case(
        "jsonl-line-at-limit-with-crlf-kept",
        "auto",
        b'{"k":"12345678"}\r\n{"k":"123456789"}\r\n',
        [Frame(b'{"k":"12345678"}', 1, 0), too_long(2, 18, b'{"k":"123456789"}')],
    ),
    Case(
        "jsonl-long-unterminated-last-line",
        "auto",
        b'{"a":1}\n' + b"y" * 50,
        [Frame(b'{"a":1}', 1, 0), too_long(2, 8, b"y" * 17)],
    ),
    Case(
        "sse-simple",
        "auto",
        b'data: {"a":1}\n\ndata: {"b":2}\n\n',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 3, 15)],
    ),
    Case(
        "sse-comments-fields-multiline",
        "auto",
        b': hello\nevent: x\nid: 7\nretry: 10\ndata: {"a":\ndata:1}\nfoo: bar\n\n',
        [Frame(b'{"a":\n1}', 5, 33)],
    ),
    Case(
        "sse-crlf-and-final-flush",
        "auto",
        b'data: {"a":1}\r\n\r\ndata: {"b":2}',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 3, 17)],
    ),
    Case(
        "sse-event-without-data-ignored",
        "auto",
        b'event: ping\n\n\n\ndata: {"a":1}\n\n',
        [Frame(b'{"a":1}', 5, 15)],
    ),
    Case(
        "sse-detected-after-blank-lines",
        "auto",
        b'\r\n\ndata:{"a":1}\n\n',
        [Frame(b'{"a":1}', 3, 3)],
    ),
    Case(
        "sse-bom",
        "auto",
        b'\xef\xbb\xbfid: 1\ndata: {"a":1}\n\n',
        [Frame(b'{"a":1}', 2, 9)],
    ),
    Case(
        "sse-explicit",
        "sse",
        b'data: {"a":1}\n\n',
        [Frame(b'{"a":1}', 1, 0)],
    ),
    Case(
        "sse-event-too-long-skipped-to-blank-line",
        "auto",
        b'data: {"a":\ndata: "1234567"\ndata: }\n\ndata: {"b":2}\n\n',
        [
            too_long(1, 0, b'{"a":\n"1234567"\n}', what="event"),
            Frame(b'{"b":2}', 5, 37),
        ],
    ),
    Case(
        "sse-line-too-long",
        "auto",
        b"data: " + b"z" * 30 + b'\ndata: more\n\ndata: {"b":2}\n\n',
        [too_long(1, 0, b"data: " + b"z" * 11), Frame(b'{"b":2}', 4, 49)],
    ),
    Case(
        "jsonl-explicit-for-sse-looking-input",
        "jsonl",
        b'data: {"a":1}\n',
        [Frame(b'data: {"a":1}', 1, 0)],
    ),
    Case(
        "jsonl-cr-only",
        "auto",
        b'{"a":1}\r{"b":2}\r',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 2, 8)],
    ),
    Case(
        "jsonl-cr-lf-and-crlf-mixed",
        "auto",
        b'\r\r{"a":1}\r\r\n{"b":2}\n\r\n{"c":3}',
        [Frame(b'{"a":1}', 3, 2), Frame(b'{"b":2}', 5, 12), Frame(b'{"c":3}', 7, 22)],
    ),
    Case(
        "jsonl-cr-cr-lf-is-two-line-ends",
        "auto",
        b'{"a":1}\r\r\n{"b":2}\r\r',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 3, 10)],
    ),
    Case(
        "jsonl-line-at-limit-with-cr-kept",
        "auto",
        b'{"k":"12345678"}\r{"k":"123456789"}\r',
        [Frame(b'{"k":"12345678"}', 1, 0), too_long(2, 17, b'{"k":"123456789"}')],
    ),
    Case(
        "sse-cr-only",
        "auto",
        b'data: {"a":1}\r\rdata: {"b":\rdata: 2}\r\r',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":\n2}', 3, 15)],
    ),
    Case(
        "sse-cr-only-detected-after-blank-lines",
        "auto",
        b'\r\r: hi\rdata:{"a":1}\r\r',
        [Frame(b'{"a":1}', 4, 7)],
    ),
    Case(
        "sse-crlf-lf-and-cr-end-one-event-each",
        "auto",
        b'data: {"a":1}\r\n\rdata: {"b":2}\n\r\ndata: {"c":3}\r\r',
        [Frame(b'{"a":1}', 1, 0), Frame(b'{"b":2}', 3, 16), Frame(b'{"c":3}', 5, 32)],
    ),
    Case(
        "auto-garbage-first-means-jsonl",
        "auto",
        b'dx\n{"a":1}\n',
        [Frame(b"dx", 1, 0), Frame(b'{"a":1}', 2, 3)],
    ),
    Case(
        "auto-short-prefix-at-close-means-jsonl",
        "auto",
        b"da",
        [Frame(b"da", 1, 0)],
    ),
]

_IDS = [case.name for case in CASES]
COMPLETE = [case for case in CASES if case.complete and case.data]


def run(fmt: str, chunks: list[bytes], *, close: bool = True) -> list[Frame | Diagnostic]:
    framer = Framer(format=fmt, max_line_bytes=LIMIT)  # type: ignore[arg-type]
    out: list[Frame | Diagnostic] = []
    for chunk in chunks:
        out += framer.feed(chunk)
    if close:
        out += framer.close()
    return out


def random_chunks(data: bytes, rng: random.Random) -> list[bytes]:
    chunks = []
    start = 0
    while start < len(data):
        size = rng.randint(1, 7)
        chunks.append(data[start : start + size])
        start += size
    return chunks


class TestFramingCases:
    @pytest.mark.parametrize("case", CASES, ids=_IDS)
    def test_whole(self, case: Case) -> None:
        """The whole input in one chunk gives the expected frames and diagnostics."""
        assert run(case.fmt, [case.data]) == case.expected

    @pytest.mark.parametrize("case", CASES, ids=_IDS)
    def test_one_byte_at_a_time(self, case: Case) -> None:
        """Feeding one byte at a time gives the same output as the whole input."""
        data = case.data
        assert run(case.fmt, [data[i : i + 1] for i in range(len(data))]) == case.expected

    @pytest.mark.parametrize("case", CASES, ids=_IDS)
    def test_random_splits(self, case: Case) -> None:
        """Random chunk boundaries (seeded) never change the output."""
        rng = random.Random(case.name)
        for _ in range(20):
            assert run(case.fmt, random_chunks(case.data, rng)) == case.expected

    @pytest.mark.parametrize("case", COMPLETE, ids=[case.name for case in COMPLETE])
    def test_trailing_bytes(self, case: Case) -> None:
        """An unfinished line after a complete input changes nothing before close."""
        tail = b'data: {"x"' if case.name.startswith("sse") else b'{"x"'
        assert run(case.fmt, [case.data + tail], close=False) == case.expected

    @pytest.mark.parametrize("case", CASES, ids=_IDS)
    def test_empty_chunks_are_harmless(self, case: Case) -> None:
        """Empty chunks between bytes change nothing."""
        data = case.data
        chunks = [part for i in range(len(data)) for part in (b"", data[i : i + 1])]
        assert run(case.fmt, chunks) == case.expected


class TestFramer:
    @pytest.mark.parametrize("blanks", [b" ", b"\t \r", b" \n", b"\r\n \n"])
    def test_blanks_before_the_first_event_are_scanned_once(
        self, blanks: bytes, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """While "auto" waits, each byte is looked at once, however the blanks are cut.

        Found by a probe: every chunk rescanned the blanks held so far, so 4 MiB of
        spaces before the first event took 21 s in 4 KiB chunks. Counted, not timed.
        """
        scanned: list[int] = []
        pattern = framing._NOT_BLANK

        class Counting:
            def search(self, data: bytearray, start: int) -> re.Match[bytes] | None:
                scanned.append(len(data) - start)
                return pattern.search(data, start)

        monkeypatch.setattr(framing, "_NOT_BLANK", Counting())
        head = blanks * 20_000
        data = head + b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
        framer = Framer()
        frames = [*framer.feed(data[:7])]
        for index in range(7, len(data), 97):
            frames += framer.feed(data[index : index + 97])
        frames += framer.close()
        last_line = re.split(rb"\r\n|\r|\n", data[:-1])[-1]  # blank lines yield nothing
        assert [item.payload for item in frames if type(item) is Frame] == [last_line]
        assert sum(scanned) <= 2 * len(data)

    @pytest.mark.parametrize(
        "line",
        [b"  data: {}", b"\tdata:{}", b"\xef\xbb\xbfdata: {}", b"data : {}", b"  data"],
    )
    def test_a_data_field_misspelt_is_reported_not_dropped_in_silence(self, line: bytes) -> None:
        """Blanks or a BOM around ``data`` make SSE read another field: said, not silent.

        Found by a probe: indented SSE, and a second recording's BOM left mid-stream by
        ``cat``, gave no events, no diagnostic and exit 0.
        """
        framer = Framer(format="sse")
        items = framer.feed(b"data: {}\n\n" + line + b"\n\n") + framer.close()
        assert [type(item).__name__ for item in items] == ["Frame", "Diagnostic"]
        problem = items[1]
        assert isinstance(problem, Diagnostic)
        assert (problem.code, problem.line, problem.raw) == (Code.SSE_DATA_UNREAD, 3, line)

    @pytest.mark.parametrize("line", [b"database: x", b"event: data", b"id: data", b"dat: {}"])
    def test_other_fields_are_ignored_as_before(self, line: bytes) -> None:
        framer = Framer(format="sse")
        assert framer.feed(line + b"\n\n") + framer.close() == []

    @pytest.mark.parametrize("first", [b"event\n", b"data\r\n", b"id\n", b"retry\n"])
    def test_a_bare_field_first_is_sse(self, first: bytes) -> None:
        """A field alone on its line, no colon (the SSE spec allows it): SSE, not JSONL."""
        framer = Framer()
        items = framer.feed(first + b'data: {"a":1}\n\n') + framer.close()
        assert framer.format == "sse"
        # A bare data field adds an empty line to the event's data, as the spec says.
        data = b'\n{"a":1}' if first.startswith(b"data") else b'{"a":1}'
        assert [item.payload for item in items if isinstance(item, Frame)] == [data]

    def test_format_detected(self) -> None:
        """The format property is None until decided, then the chosen format."""
        framer = Framer()
        assert framer.format is None
        framer.feed(b"\n  da")
        assert framer.format is None
        framer.feed(b"ta: {}\n")
        assert framer.format == "sse"
        jsonl = Framer()
        jsonl.feed(b"{")
        assert jsonl.format == "jsonl"

    def test_feed_after_close_raises(self) -> None:
        """Feeding a closed framer is caller misuse."""
        framer = Framer()
        framer.close()
        with pytest.raises(UsageError):
            framer.feed(b"{}")

    def test_close_twice_returns_nothing(self) -> None:
        """A second close has nothing left to flush."""
        framer = Framer()
        framer.feed(b"{}")
        assert framer.close() == [Frame(b"{}", 1, 0)]
        assert framer.close() == []

    def test_bad_arguments_raise(self) -> None:
        """An unknown format or a non-positive limit is refused."""
        with pytest.raises(UsageError):
            Framer(format="xml")  # type: ignore[arg-type]
        with pytest.raises(UsageError):
            Framer(max_line_bytes=0)

    def test_long_line_buffers_at_most_the_limit(self) -> None:
        """A line far over the limit fed in pieces never grows the buffer past the limit."""
        framer = Framer(max_line_bytes=100)
        framer.feed(b"{")
        out = []
        for _ in range(1000):
            out += framer.feed(b"x" * 1000)
            assert len(framer._partial) <= 101
        out += framer.feed(b"\n{}\n")
        assert [type(item) for item in out] == [Diagnostic, Frame]
        assert out[1] == Frame(b"{}", 2, 1_000_002)

    def test_long_line_in_many_chunks_is_linear(self) -> None:
        """A legal long line split into many chunks is framed whole (no rescans needed)."""
        framer = Framer()
        line = b'{"k":"' + b"v" * 200_000 + b'"}'
        out = []
        for start in range(0, len(line), 10):
            out += framer.feed(line[start : start + 10])
        out += framer.feed(b"\n")
        assert out == [Frame(line, 1, 0)]

    def test_whitespace_only_stream_decides_at_close(self) -> None:
        """A stream of blank lines yields nothing and closes cleanly."""
        assert run("auto", [b"\n\n \r\n"]) == []

    def test_many_blank_lines_before_detection_are_counted(self) -> None:
        """Blank lines fed one by one before the format is known keep line numbers right."""
        framer = Framer()
        out = []
        for _ in range(1000):
            out += framer.feed(b"\r\n")
        assert len(framer._head) == 0
        out += framer.feed(b'data: {"a":1}\n\n')
        assert out == [Frame(b'{"a":1}', 1001, 2000)]


class TestLineEndsEndToEnd:
    """Issue 12 §7 (``cr_only_sse.jsonl``): CR, CRLF and LF give one stream, cut anywhere."""

    @pytest.mark.parametrize("end", [b"\r", b"\r\n", b"\n"], ids=["cr", "crlf", "lf"])
    @pytest.mark.parametrize("framing", ["jsonl", "sse"])
    def test_recording_with_each_line_end(self, end: bytes, framing: str) -> None:
        """The recording framed with any line end, fed whole, byte by byte and in random
        splits, gives the diffs and diagnostics of the LF original."""
        source = cases.RECORDING if framing == "jsonl" else cases.to_sse(cases.RECORDING)
        data = source.replace(b"\n", end)
        reference = Processor()
        expected = reference.feed(source) + reference.close()
        notes = [(d.code, d.seq) for d in reference.take_diagnostics()]
        assert len(expected) > 5
        for name, chunks in cases.chunkings(data, seed=len(end), splits=8):
            processor = Processor()
            diffs = [diff for chunk in chunks for diff in processor.feed(chunk)]
            diffs += processor.close()
            assert diffs == expected, name
            assert [(d.code, d.seq) for d in processor.take_diagnostics()] == notes, name

    def test_cr_at_a_chunk_end_then_lf(self) -> None:
        """A CRLF cut between its two bytes is one line end, in SSE where a second one
        would end the event early."""
        framer = Framer()
        out = framer.feed(b'data: {"a":\r')
        out += framer.feed(b"\ndata: 1}\r")
        out += framer.feed(b"\n\r")
        out += framer.feed(b"\n")
        assert out == [Frame(b'{"a":\n1}', 1, 0)]
        assert framer.close() == []
