"""The request side: what a run must carry for an agent to draw, and what goes back.

Owns catalogs and the schema context entry, the usage guide, the render tool and its
answer, user actions in both conventions, outbound history cleaning and building the
run input. Pure functions of their arguments, beside the response-side layers.

May import: ``a2ui_stream._wire`` (events, messages) and ``a2ui_stream.errors``.
"""
