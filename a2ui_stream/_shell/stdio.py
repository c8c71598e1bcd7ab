"""The standard streams when the shell closed one: named errors, never ``None``.

A program started as ``a2ui-stream process FILE >&-`` finds ``sys.stdout`` set to
``None``, and the first write raises ``AttributeError`` from deep inside a command. A
command should instead refuse the way it refuses any file it cannot use: exit 2 with a
line naming the stream. :func:`standard_streams` puts a stand-in where a stream is
missing for as long as a command runs. Closed input or output raises ``OSError``
(``EBADF``, naming ``<stdin>`` or ``<stdout>``) at its first use, before a command
reads or writes anything else; a closed error stream swallows what is written to it, as
its user asked, and the exit code still says how the run went.

:func:`write_out` is how a command prints what it made in one go (a page, a summary, a
tree): written and flushed at once, so a full disk behind ``>`` is an error naming
``<stdout>`` while the command can still say so, not a warning at exit.
"""

from __future__ import annotations

import contextlib
import errno
import io
import sys
from typing import TYPE_CHECKING, NoReturn

from a2ui_stream._shell.filelog import naming

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["standard_streams", "write_out"]


class _Closed(io.TextIOBase):
    """A standard stream the shell closed: any use raises ``OSError`` naming it."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def _refuse(self, *_arguments: object) -> NoReturn:
        raise OSError(errno.EBADF, "closed by the shell that started the command", self._name)

    @property
    def buffer(self) -> NoReturn:
        self._refuse()

    read = readline = write = fileno = _refuse

    def isatty(self) -> bool:
        return False


class _Discard(io.TextIOBase):
    """A closed error stream: what a command says is dropped, as its user asked."""

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def standard_streams() -> Iterator[None]:
    """Stand in for every standard stream the shell closed, restoring them after."""
    saved = sys.stdin, sys.stdout, sys.stderr
    if sys.stdin is None:
        sys.stdin = _Closed("<stdin>")
    if sys.stdout is None:
        sys.stdout = _Closed("<stdout>")
    if sys.stderr is None:
        sys.stderr = _Discard()
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def write_out(data: bytes | bytearray | str) -> None:
    """Write ``data`` to standard output and flush it; text is written as UTF-8.

    Text that cannot be UTF-8 (a lone surrogate an agent sent) becomes a replacement
    mark, not a crash. An error names ``<stdout>``.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    with naming("<stdout>"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
