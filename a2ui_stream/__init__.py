"""a2ui-stream: A2UI surfaces from AG-UI event streams, as immutable values."""

from __future__ import annotations

from a2ui_stream._diagnostics import Diagnostic, Severity
from a2ui_stream._limits import Limits
from a2ui_stream.errors import A2uiStreamError, LogLockedError, StrictModeError, UsageError

__all__ = [
    "A2uiStreamError",
    "Diagnostic",
    "Limits",
    "LogLockedError",
    "Severity",
    "StrictModeError",
    "UsageError",
]
