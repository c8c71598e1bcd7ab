"""The shell: the only layer with effects.

Owns the durable file log (``fsync``, locks, torn-tail recovery), the pipelines that
move bytes from a source into a processor (sync and anyio), the HTTP session with a
live agent (httpx, an optional extra), and the ``a2ui-stream`` command line with its
structlog configuration. Everything it computes comes from the layers below.

May import: every layer of the package.
"""
