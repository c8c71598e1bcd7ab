"""Exceptions raised by a2ui-stream: caller misuse only.

Bad input (bytes, JSON, events, operations) never raises out of the core; it becomes a
:class:`~a2ui_stream.Diagnostic` value. What is raised here means the *caller* did
something the API does not allow (feeding after ``close()``, a second writer on one log,
an empty render tool name). This module imports nothing from the package so every other
module can import it.
"""

from __future__ import annotations

__all__ = [
    "A2uiStreamError",
    "LogLockedError",
    "LogRefusedError",
    "StrictModeError",
    "UsageError",
]


class A2uiStreamError(Exception):
    """Base class of every exception this package raises; never raised bare."""

    def __init__(self, *args: object) -> None:
        """Refuse direct instantiation so each raise names its kind."""
        if type(self) is A2uiStreamError:
            raise TypeError("raise a subclass of A2uiStreamError, not the base class")
        super().__init__(*args)


class UsageError(A2uiStreamError, ValueError):
    """The caller broke the API contract (bad argument, feeding after close)."""


class LogLockedError(A2uiStreamError, RuntimeError):
    """Another writer holds the event log's lock."""


class LogRefusedError(UsageError):
    """A path given as an event log names a file that must not be one.

    It is not a regular file, it is the input being read, or it holds something other
    than an event log. Nothing was written to it.
    """


class StrictModeError(A2uiStreamError, ValueError):
    """Strict mode met bad input; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: object) -> None:
        """Keep the diagnostic that stopped processing.

        Args:
            diagnostic: the :class:`~a2ui_stream.Diagnostic` describing the bad input.
        """
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic
