"""Standard output of the diff-printing commands (:mod:`a2ui_stream._shell.output`).

Each line is the value's own ``to_wire()``; lines are held until a flush or a batch's
worth; write errors name ``<stdout>``.
"""

from __future__ import annotations

import errno
import io
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import stream_cases as cases

from a2ui_stream import Processor
from a2ui_stream._shell import output
from a2ui_stream._shell.output import Output

if TYPE_CHECKING:
    from a2ui_stream._state.stream import PartDiff


def diffs_of(data: bytes = cases.RECORDING) -> list[PartDiff]:
    processor = Processor()
    return [*processor.feed(data), *processor.close()]


class Full(io.BytesIO):
    """A stream whose writes fail as a full disk's do (no file name)."""

    def write(self, _data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


class TestOutput:
    def test_lines_are_each_diff_s_wire_form(self) -> None:
        diffs = diffs_of()
        stream = io.BytesIO()
        out = Output(stream, patches=False)
        out.diffs(diffs)
        out.flush()
        assert stream.getvalue() == b"".join(d.to_wire() + b"\n" for d in diffs)

    def test_patches_write_updates_as_patches(self) -> None:
        diffs = diffs_of()
        stream = io.BytesIO()
        out = Output(stream, patches=True)
        out.diffs(diffs)
        out.flush()
        expected = b"".join(d.to_wire(patch=True) + b"\n" for d in diffs)
        assert stream.getvalue() == expected
        assert b'"patch"' in expected

    def test_final_is_the_state_s_wire_form(self) -> None:
        processor = Processor()
        processor.feed(cases.RECORDING)
        stream = io.BytesIO()
        out = Output(stream, patches=False)
        out.final(processor.state)
        assert stream.getvalue() == b""  # held until the flush
        out.flush()
        assert stream.getvalue() == processor.state.to_wire()

    def test_held_until_a_batch_is_full(self, monkeypatch: pytest.MonkeyPatch) -> None:
        diffs = diffs_of()
        one = len(diffs[0].to_wire()) + 1
        monkeypatch.setattr(output, "_OUTPUT_BATCH", one * 2 + 1)
        stream = io.BytesIO()
        out = Output(stream, patches=False)
        out.diffs(diffs[:1])
        assert stream.getvalue() == b""
        out.diffs(diffs[:1])
        out.diffs(diffs[:1])
        written = stream.getvalue()
        assert written.count(b"\n") == 3
        out.flush()
        assert stream.getvalue() == written  # nothing written twice

    def test_flush_with_nothing_held_still_flushes(self) -> None:
        flushed: list[bool] = []

        class Stream(io.BytesIO):
            def flush(self) -> None:
                flushed.append(True)

        out = Output(Stream(), patches=False)
        out.flush()
        assert flushed == [True]

    @pytest.mark.parametrize("where", ["flush", "batch"])
    def test_a_write_error_names_stdout(self, where: str, monkeypatch: pytest.MonkeyPatch) -> None:
        if where == "batch":
            monkeypatch.setattr(output, "_OUTPUT_BATCH", 1)
        out = Output(Full(), patches=False)
        diffs = diffs_of()[:1]

        def write() -> None:
            out.diffs(diffs)
            out.flush()

        with pytest.raises(OSError, match="No space left") as raised:
            write()
        assert raised.value.filename == "<stdout>"

    @pytest.mark.parametrize("command", ["process", "render"])
    def test_full_standard_output_is_named(self, command: str) -> None:
        """A full disk behind ``>`` is exit 2 naming ``<stdout>``, for every command."""
        if not Path("/dev/full").exists():
            pytest.skip("/dev/full does not exist on this system")
        with Path("/dev/full").open("wb") as full:
            completed = subprocess.run(  # noqa: S603 - our own command line
                [sys.executable, "-m", "a2ui_stream", command, str(cases.RECORDING_PATH)],
                stdout=full,
                stderr=subprocess.PIPE,
                check=False,
                timeout=60,
            )
        assert completed.returncode == 2
        assert b"path=<stdout>" in completed.stderr
        assert b"No space left on device" in completed.stderr
        assert b"Traceback" not in completed.stderr
