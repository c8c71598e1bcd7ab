"""``python -m a2ui_stream``: the same as the ``a2ui-stream`` command."""

from __future__ import annotations

from a2ui_stream._shell.cli import run

run()
