"""The request side: what a run must carry for an agent to draw, and what goes back.

Owns catalogs and the schema context entry, the usage guide, the render tool and its
answer, user actions in both conventions, outbound history cleaning, building the run
input, and a thread's history folded from its run events. Pure functions of their
arguments (the history is a fed fold, like the processor), beside the response-side
layers.

May import: ``a2ui_stream._wire`` (events, messages) and ``a2ui_stream.errors``.
"""
