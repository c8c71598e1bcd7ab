"""The wire layer: bytes and JSON on the wire, as typed values, and what was wrong with them.

Owns framing (JSONL and SSE), the AG-UI codec and event and message types, the
expansion of chunk events into the events they stand for, the A2UI message envelope
and its normalisation into one operation form (v0.8 rewritten into v0.9 spelling),
JSON numbers as JavaScript reads and prints them, the :class:`Diagnostic` value every
layer reports with, and the hard :class:`Limits`.

May import: msgspec, the standard library and ``a2ui_stream.errors``. Nothing else in
the package: every other layer builds on this one.
"""
