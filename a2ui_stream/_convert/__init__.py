"""The conversion layer: an A2UI surface to the generative UI element tree of a part.

Owns the converter (tables and limits resolved once), the walk over component
references with its depth, node and template limits, bindings into the data model,
the basic catalog's functions, one handler per component type, URL safety, and the
vocabulary the output is checked against. Knows nothing of runs, messages or events.

May import: ``a2ui_stream._wire``, ``a2ui_stream._tree`` and ``a2ui_stream._state``
(surface values only).
"""
