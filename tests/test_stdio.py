"""The standard streams a shell closed: stand-ins that name them, and ``write_out``.

The command line run with a closed stream for real is in ``test_cli.py``
(``TestIoErrors``); these tests hold the stand-ins to their promises in-process.
"""

from __future__ import annotations

import errno
import io
import sys

import pytest

from a2ui_stream._shell.stdio import standard_streams, write_out


class TestStandardStreams:
    @pytest.mark.parametrize(("name", "shown"), [("stdin", "<stdin>"), ("stdout", "<stdout>")])
    def test_a_closed_stream_is_an_error_naming_it(
        self, monkeypatch: pytest.MonkeyPatch, name: str, shown: str
    ) -> None:
        monkeypatch.setattr(sys, name, None)
        with standard_streams():
            stream = getattr(sys, name)
            assert stream.isatty() is False
            uses = (
                lambda: stream.buffer,
                stream.read,
                stream.readline,
                lambda: stream.write("x"),
                stream.fileno,
            )
            for use in uses:
                with pytest.raises(OSError, match="closed by the shell") as raised:
                    use()
                assert (raised.value.errno, raised.value.filename) == (errno.EBADF, shown)
        assert getattr(sys, name) is None  # put back as it was

    def test_a_closed_error_stream_takes_everything_and_shows_nothing(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stderr", None)
        with standard_streams():
            assert sys.stderr.write("lost") == 4
            assert sys.stderr.isatty() is False
        assert sys.stderr is None

    def test_open_streams_are_left_alone(self) -> None:
        before = sys.stdin, sys.stdout, sys.stderr
        with standard_streams():
            assert (sys.stdin, sys.stdout, sys.stderr) == before


class _Full(io.RawIOBase):
    """A standard output on a full disk."""

    def writable(self) -> bool:
        return True

    def write(self, _data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


class TestWriteOut:
    def test_text_is_utf8_and_a_lone_surrogate_a_replacement(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        out = io.BytesIO()
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out))
        write_out("Zoë \ud800!")
        write_out(b"\x00raw")
        write_out(bytearray(b"more"))
        assert out.getvalue() == "Zoë ?!".encode() + b"\x00rawmore"

    def test_a_full_disk_names_standard_output(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(_Full())))
        with pytest.raises(OSError, match="No space") as raised:
            write_out("page")
        assert raised.value.filename == "<stdout>"
