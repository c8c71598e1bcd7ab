"""The engine layer: events to state and part diffs, and the processor that drives it.

Owns the reducer (``reduce(state, event)``: buckets by messageId, surfaces by
surfaceId, lifecycles, deltas, runs), which orchestrates conversion and applies chunk
events as the wire layer expands them; the tool-carrier stage in front of it
(render-tool arguments and tool results turned into the activity the middleware would
have sent); rehydration from stored history; data sharing across snapshots; the
:class:`EventLog` contract with its in-memory store; and :class:`Processor`, the
sans-I/O composition of framing, decoding, the log and the reducer. Does no I/O of its
own.

May import: ``a2ui_stream._wire``, ``_tree``, ``_state`` and ``_convert``. Never the
shell.
"""
