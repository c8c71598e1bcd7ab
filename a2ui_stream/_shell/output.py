"""Standard output of the commands that print diffs: ``process``, ``replay`` and ``run``.

Owns buffering and writing: each line is the value's own wire form
(:meth:`PartDiff.to_wire <a2ui_stream.PartAdded.to_wire>`, :meth:`StreamState.to_wire
<a2ui_stream.StreamState.to_wire>`), gathered in one buffer and written in batches, so
what the command prints and what an embedding gets from ``to_wire()`` are the same
bytes by construction. Write errors name ``<stdout>``: a full disk behind a
redirection is reported there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, BinaryIO

from a2ui_stream._shell.filelog import name_error

if TYPE_CHECKING:
    from collections.abc import Iterable

    from a2ui_stream._state.stream import PartDiff, StreamState

__all__ = ["Output"]

#: Encoded output held before it is written even without a flush: one write per this
#: much, so replaying a long log never holds its whole output.
_OUTPUT_BATCH = 1 << 20


class Output:
    """Lines of diffs (or of ``--final`` runs) for one stream, written in batches."""

    def __init__(self, stream: BinaryIO, *, patches: bool) -> None:
        """Write to ``stream``; ``patches``: updates as RFC 6902 patches (``--diffs patch``)."""
        self._stream = stream
        self._patches = patches
        self._buffer = bytearray()

    def diffs(self, diffs: Iterable[PartDiff]) -> None:
        """Add one line per diff."""
        buffer = self._buffer
        for diff in diffs:
            buffer += diff.to_wire(patch=self._patches)
            buffer += b"\n"
        if len(buffer) >= _OUTPUT_BATCH:
            self._write()

    def final(self, state: StreamState) -> None:
        """Add the ``--final`` lines of ``state``: history restored, if any, then each run."""
        self._buffer += state.to_wire()
        if len(self._buffer) >= _OUTPUT_BATCH:
            self._write()

    def _write(self) -> None:
        try:
            self._stream.write(self._buffer)
        except OSError as error:
            name_error(error, "<stdout>")
            raise
        self._buffer.clear()

    def flush(self) -> None:
        """Write what is buffered and flush the stream: once per event with a log."""
        try:
            if self._buffer:
                self._stream.write(self._buffer)
                self._buffer.clear()
            self._stream.flush()
        except OSError as error:
            name_error(error, "<stdout>")
            raise
