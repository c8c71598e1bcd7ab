"""The state layer: the immutable values the engine produces and callers keep.

Owns :class:`Surface` and the semantics of each A2UI operation on a mapping of
surfaces, and the stream values (:class:`StreamState`, runs, buckets, parts, part
diffs, lifecycles, history entries) with the wire strings of the ``present``
convention. Holds values and the pure functions that make them; no conversion, no
event handling.

May import: ``a2ui_stream._wire`` and ``a2ui_stream._tree``.
"""
