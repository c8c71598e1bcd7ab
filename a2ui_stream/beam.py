"""Archives on Apache Beam: read, fold and write threads on any Beam runner.

:class:`ReadArchive` reads per-thread recordings or interleaved envelopes into one
element per thread; :class:`FoldThreads` folds each (batch); :class:`KeyEnvelopes`
and :class:`StreamThreads` fold a stream of envelopes with a reorder buffer and an
inactivity timer; :class:`WriteResults` writes per-thread JSONL and the archive
summary. Needs the ``beam`` extra (``pip install 'a2ui-stream[beam]'``); ``import
a2ui_stream`` never imports it. The definitions live in ``a2ui_stream._shell.beam``,
on the engine-free :mod:`a2ui_stream.archive`; this module is their public name.
"""

from __future__ import annotations

from a2ui_stream._shell.beam import (
    INVALID,
    FoldThreads,
    KeyEnvelopes,
    Layout,
    ProgressCoder,
    ReadArchive,
    ResultCoder,
    StreamThreads,
    SummaryCoder,
    WriteResults,
)

__all__ = [
    "INVALID",
    "FoldThreads",
    "KeyEnvelopes",
    "Layout",
    "ProgressCoder",
    "ReadArchive",
    "ResultCoder",
    "StreamThreads",
    "SummaryCoder",
    "WriteResults",
]
