"""The streaming step: a thread's events released in ``seq`` order, whatever order they come.

Owns :class:`Progress`, the small state a streaming engine keeps per thread besides the
events already folded: the next ``seq`` to release, a reorder buffer of events that
came early, and counts of duplicates and of gaps given up. :func:`step` takes one
arrival and returns what may now be folded (the next contiguous run of ``seq``);
:func:`give_up` goes past gaps, when the buffer is full or the thread has gone quiet.
Also owns :class:`Codec`, the compact msgpack encoding engine coders use for these
records (``array_like`` Structs: field names are not repeated per record).

Pure functions of immutable values. Must not import the shell or any engine library.
"""

from __future__ import annotations

import zlib
from typing import Any, Generic, TypeAlias, TypeVar

import msgspec

__all__ = ["MAX_PENDING", "Codec", "Progress", "Released", "give_up", "step"]

#: Early events a thread may hold before its lowest gap is given up.
MAX_PENDING = 10_000

T = TypeVar("T")


class Progress(msgspec.Struct, frozen=True, array_like=True):
    """How far one thread's fold has got, and what is waiting.

    Attributes:
        next_seq: the ``seq`` the fold needs next.
        pending: events that came before it, by ``seq``.
        duplicates: arrivals dropped because their ``seq`` was folded or waiting.
        missing: ``seq`` values given up (never arrived in time).
        digest: CRC-32 chained over every payload released, in order: a cheap check
            that a cached fold is the fold of exactly these events.
    """

    next_seq: int = 0
    pending: dict[int, bytes] = msgspec.field(default_factory=dict)
    duplicates: int = 0
    missing: int = 0
    digest: int = 0


#: Events released to the fold: ``(seq, payload)`` pairs in ``seq`` order.
Released: TypeAlias = list[tuple[int, bytes]]


def step(
    progress: Progress, seq: int, payload: bytes, *, max_pending: int = MAX_PENDING
) -> tuple[Progress, Released]:
    """Take one arrival.

    Args:
        progress: the thread's progress before it.
        seq: the arrival's position in the thread.
        payload: its undecoded event.
        max_pending: past this many waiting events, the lowest gap is given up, so a
            lost event cannot make the buffer grow without bound.

    Returns:
        The new progress and the payloads to fold now, in order (empty while a gap
        waits; a repeat of a ``seq`` already seen is counted and dropped).
    """
    if seq < progress.next_seq or seq in progress.pending:
        return msgspec.structs.replace(progress, duplicates=progress.duplicates + 1), []
    if seq != progress.next_seq:
        pending = {**progress.pending, seq: payload}
        progress = msgspec.structs.replace(progress, pending=pending)
        if len(pending) > max_pending:
            return give_up(progress, all_gaps=False)
        return progress, []
    return _release(progress, [(seq, payload)], seq + 1, progress.pending)


def give_up(progress: Progress, *, all_gaps: bool = True) -> tuple[Progress, Released]:
    """Go past gaps: release waiting events as if the missing ones were never sent.

    Args:
        progress: the thread's progress.
        all_gaps: release everything waiting (the thread went quiet); otherwise only
            up to the end of the contiguous run after the lowest gap.

    Returns:
        The new progress, its missing count raised by each ``seq`` skipped, and the
        payloads to fold now, in order.
    """
    if not progress.pending:
        return progress, []
    released: Released = []
    pending = dict(progress.pending)
    missing = progress.missing
    next_seq = progress.next_seq
    while pending:
        lowest = min(pending)
        missing += lowest - next_seq
        next_seq = lowest
        while next_seq in pending:
            released.append((next_seq, pending.pop(next_seq)))
            next_seq += 1
        if not all_gaps:
            break
    progress = msgspec.structs.replace(progress, missing=missing)
    return _release(progress, released, next_seq, pending)


def _release(
    progress: Progress, released: Released, next_seq: int, pending: dict[int, bytes]
) -> tuple[Progress, Released]:
    """Release ``released`` and every waiting event that now follows without a gap."""
    if next_seq in pending:
        pending = dict(pending)
        while next_seq in pending:
            released.append((next_seq, pending.pop(next_seq)))
            next_seq += 1
    digest = progress.digest
    for _, payload in released:
        digest = zlib.crc32(payload, digest)
    new = msgspec.structs.replace(progress, next_seq=next_seq, pending=pending, digest=digest)
    return new, released


class Codec(Generic[T]):
    """A compact binary encoding (msgpack) of one record type, for engine coders.

    Pickles by its type alone, so an engine can ship it to workers; the msgspec
    encoder and decoder (which do not pickle) are rebuilt there.
    """

    def __init__(self, kind: type[T]) -> None:
        """Build the encoder and decoder once.

        Args:
            kind: a msgspec Struct type (or any type msgspec can decode).
        """
        self.kind = kind
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder(kind)

    def encode(self, value: T) -> bytes:
        """Encode one record."""
        return self._encoder.encode(value)

    def decode(self, data: bytes) -> T:
        """Decode one record.

        Raises:
            msgspec.DecodeError: the bytes are not such a record.
        """
        return self._decoder.decode(data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Codec, (self.kind,))
