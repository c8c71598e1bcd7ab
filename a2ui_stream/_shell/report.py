"""What a command tells its user on stderr: diagnostics, hints, one summary, the exit code.

Owns the structlog configuration of the command line, how one diagnostic becomes one
log line, the collapse of repeated diagnostics (the first few of each code are shown,
the rest only counted, and never formatted), and the line every command ends with:
events read, how many were rejected, diagnostics by code. The exit code follows from
what was reported: :data:`EXIT_BAD_INPUT` once an ERROR diagnostic occurred.

Every command (``process``, ``replay``, ``inspect``, ``render``, ``run``) reports through
one :class:`Reporter`, so they all say the same things in the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TextIO

import msgspec
import structlog

from a2ui_stream._view.text import plural, printable
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "SHOWN_PER_CODE",
    "Reporter",
    "configure_logging",
]

EXIT_OK: Final = 0
#: Bad input: an ERROR diagnostic occurred (input was dropped), or ``--strict`` stopped.
EXIT_BAD_INPUT: Final = 1
#: A usage or I/O error: a bad option, a file that cannot be used.
EXIT_USAGE: Final = 2
#: Ctrl-C: the shell's convention for a process ended by SIGINT (128 + 2).
EXIT_INTERRUPTED: Final = 130

#: Diagnostics of one code shown before the rest of that code are only counted. A
#: 4,000-component surface with one bad prop per component says so five times, then
#: once how many more there were.
SHOWN_PER_CODE: Final = 5

_LEVELS: Final = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.DEBUG: "debug"}
#: Bytes of a diagnostic's raw input shown in its log line.
_RAW_SHOWN: Final = 120
_HIDDEN_FIELDS: Final = frozenset({"message", "severity", "raw"})


def _printable(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """Escape controls in every text of a line, as an agent may have written them.

    An agent's message (a RUN_ERROR's, say) stays one readable line, and no escape
    sequence it holds reaches the terminal.
    """
    for key, value in event.items():
        if isinstance(value, str):
            event[key] = printable(value)
    return event


def configure_logging(log_format: str, *, verbose: bool, stream: TextIO) -> None:
    """Send structlog's output to ``stream`` as readable lines or JSON.

    Args:
        log_format: ``"text"`` or ``"json"``.
        verbose: whether debug lines are written too.
        stream: where the lines go (standard error).
    """
    processors: list[Any] = [structlog.processors.add_log_level]
    if log_format == "json":
        processors.append(structlog.processors.JSONRenderer())  # JSON escapes controls
    else:
        processors += [_printable, structlog.dev.ConsoleRenderer(colors=stream.isatty())]
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(10 if verbose else 20),
        logger_factory=structlog.PrintLoggerFactory(stream),
        cache_logger_on_first_use=False,
    )


def _fields(diagnostic: Diagnostic) -> dict[str, Any]:
    fields = {
        key: value
        for key, value in msgspec.structs.asdict(diagnostic).items()
        if value is not None and key not in _HIDDEN_FIELDS
    }
    if diagnostic.raw is not None:
        fields["raw"] = diagnostic.raw[:_RAW_SHOWN].decode("utf-8", "replace")
    return fields


class Reporter:
    """One command's reporting: diagnostics as log lines, then the summary and exit code.

    Call the reporter with diagnostics as they come; call :meth:`finish` once at the end.
    Debug diagnostics are counted and shown only with ``verbose``.
    """

    def __init__(self, logger: Any, *, verbose: bool = False, json: bool = False) -> None:
        """Start with nothing reported.

        Args:
            logger: the structlog logger the lines go to.
            verbose: whether debug diagnostics are shown (and counted).
            json: whether the log is JSON (the summary then carries its counts as fields).
        """
        self.logger = logger
        self._verbose = verbose
        self._json = json
        #: Per (code, severity): how many were reported.
        self._counts: dict[tuple[str, Severity], int] = {}
        #: How many ERROR diagnostics were reported.
        self.errors = 0

    def __call__(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Report diagnostics: log the first few of each code, count every one."""
        counts = self._counts
        for diagnostic in diagnostics:
            severity = diagnostic.severity
            if severity is Severity.DEBUG and not self._verbose:
                continue
            if severity is Severity.ERROR:
                self.errors += 1
            key = (diagnostic.code, severity)
            count = counts[key] = counts.get(key, 0) + 1
            if count > SHOWN_PER_CODE + 1:
                continue  # counted for the summary; formatting it would cost for nothing
            log = getattr(self.logger, _LEVELS[severity])
            if count > SHOWN_PER_CODE:
                log(
                    f"more {diagnostic.code} {_LEVELS[severity]}s are counted in the summary, "
                    "not shown"
                )
            else:
                log(diagnostic.message, **_fields(diagnostic))

    def hint(self, text: str | None) -> None:
        """Suggest what the user may have meant; nothing when ``text`` is ``None``."""
        if text is not None:
            line = f"hint: {text}"
            self.logger.warning(line)

    def finish(self, *, read: int, rejected: int = 0, unit: str = "event") -> int:
        """Write the summary line and give the exit code of what was reported.

        The summary is written when there is something to sum up (a diagnostic was
        reported, or a line rejected) and always with ``verbose``: a clean run is
        silent on stderr, as a pipeline's commands are.

        Args:
            read: how many events (or, with ``unit``, messages) were read.
            rejected: how many lines or events were dropped whole.
            unit: what ``read`` counts.

        Returns:
            :data:`EXIT_BAD_INPUT` when an ERROR diagnostic was reported, else
            :data:`EXIT_OK`.
        """
        code = EXIT_BAD_INPUT if self.errors else EXIT_OK
        if not (self._counts or rejected or self._verbose):
            return code
        by_code = sorted(self._counts.items(), key=lambda item: (-item[1], item[0][0]))
        hidden = sum(max(count - SHOWN_PER_CODE, 0) for _, count in by_code)
        if self._json:
            self.logger.info(
                "summary",
                read=read,
                unit=unit,
                rejected=rejected,
                diagnostics={f"{code} ({_LEVELS[severity]})": n for (code, severity), n in by_code},
                not_shown=hidden,
            )
        else:
            listed = ", ".join(
                f"{code} ({_LEVELS[severity]}) x{count:,}" for (code, severity), count in by_code
            )
            total = sum(count for _, count in by_code)
            text = f"{plural(read, unit)} read, {rejected:,} rejected; "
            text += f"{plural(total, 'diagnostic')}" + (f": {listed}" if listed else "")
            if hidden:
                text += f" ({hidden:,} not shown)"
            self.logger.info(text)
        return code
