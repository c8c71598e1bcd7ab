"""The ``a2ui-stream run URL`` command: a conversation with a live agent, from a shell.

Owns the command's options, the :class:`~a2ui_stream.client.AgentSession` they make,
and the exit code of each way a run can fail. What it prints is exactly what
``process`` prints for the same events (the same output writer, the same processor
settings), and ``--log`` keeps every event received, so ``replay`` of the log gives the
same output. Header values are never printed or logged: a malformed ``-H`` is named by
its position only.

The command table in :mod:`a2ui_stream._shell.cli` names this module; this module
borrows the output writer and the log folding from it when the command runs, and
imports httpx (the ``client`` extra) only then, so that ``process`` never needs it.
"""

from __future__ import annotations

import argparse
import io
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import anyio

from a2ui_stream._request.catalog import Catalog, basic_catalog
from a2ui_stream._request.request import RENDER_TOOL_NAME, A2uiRequest
from a2ui_stream._shell import options
from a2ui_stream._shell.chat import chat
from a2ui_stream._shell.filelog import naming
from a2ui_stream._shell.output import Output
from a2ui_stream._shell.report import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from a2ui_stream._shell.resume import open_log, resumed_processor
from a2ui_stream.errors import (
    AgentContentTypeError,
    AgentError,
    AgentStatusError,
    AgentTimeoutError,
    AgentUnreachableError,
    RunFailedError,
    RunIncompleteError,
    UsageError,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from a2ui_stream._shell.client import AgentSession
    from a2ui_stream._shell.report import Reporter

__all__ = ["EXIT_CODES", "EXIT_INTERRUPTED", "add_parser", "command"]

#: The exit code of each way a run can fail (0 success, 1 and 2 as for every command).
EXIT_CODES: Final[dict[type[AgentError], int]] = {
    AgentUnreachableError: 3,
    AgentStatusError: 4,
    AgentContentTypeError: 5,
    AgentTimeoutError: 6,
    RunIncompleteError: 7,
    RunFailedError: 8,
}


def add_parser(commands: Any, output_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the ``run`` command to the command line's subparsers.

    Args:
        commands: the subparsers action of the ``a2ui-stream`` parser.
        output_options: adds ``--final`` and ``--diffs``, as ``process`` has them.
    """
    run = commands.add_parser(
        "run",
        help="talk to a live AG-UI agent and write part diffs as process does",
        description=(
            "POST each turn to an AG-UI endpoint, in one thread, with the A2UI request "
            "additions, and write what the agent draws exactly as process writes it."
        ),
    )
    run.add_argument("url", help="the agent's AG-UI endpoint (http or https)")
    run.add_argument(
        "-m",
        "--message",
        dest="messages",
        action="append",
        default=[],
        metavar="TEXT",
        help="one user turn; repeat for more turns, sent in order in one thread "
        "(none: one run on the thread as it is)",
    )
    run.add_argument("--thread-id", metavar="ID", help="the thread's id (default: a new one)")
    run.add_argument(
        "-i",
        "--interactive",
        action="store_true",
        help="a prompt loop with numbered actions to press (the default on a terminal "
        "when no -m is given)",
    )
    output_options(run)
    run.add_argument(
        "--log",
        type=Path,
        help="append every event received to this log; an existing log is resumed",
    )
    run.add_argument(
        "--fsync",
        choices=("always", "batch", "never"),
        default="always",
        help="when the log is synced to disk (default: always)",
    )
    run.add_argument(
        "-H",
        "--header",
        dest="headers",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="an extra request header, such as authorization; values are never shown",
    )
    what = run.add_mutually_exclusive_group()
    what.add_argument(
        "--catalog",
        type=Path,
        metavar="FILE",
        help="the catalog JSON document the agent may draw with (default: A2UI v0.9 basic)",
    )
    what.add_argument(
        "--no-request",
        action="store_true",
        help="send plain runs, without the A2UI context entries and injectA2UITool",
    )
    run.add_argument(
        "--press-text",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="-i: whether each press is also a user turn ('[A2UI Action] name=...'), for "
        "agents that read no forwarded action (the Python adapters); by default yes "
        "until the agent shows a2ui-surface activity (the A2UI middleware tells it itself)",
    )
    run.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="the longest the agent may go without sending an event (default: 60)",
    )


#: What a -H option that cannot be sent is told, by what is wrong with it.
_HEADER_PROBLEMS: Final = {
    "name": "is not 'Name: value'",
    "value": "has a value that is not visible ASCII text",
}


def _headers(values: Sequence[str]) -> dict[str, str]:
    """Read ``-H 'Name: value'`` options, naming a bad one by position only."""
    from a2ui_stream._shell.endpoint import header_problem  # noqa: PLC0415 - needs httpx

    headers: dict[str, str] = {}
    for position, text in enumerate(values, start=1):
        name, colon, value = text.partition(":")
        name, value = name.strip(), value.strip()
        problem = header_problem(name, value) if colon else "name"
        if problem is not None:
            raise UsageError(
                f"header {position} {_HEADER_PROBLEMS[problem]} (its text is not shown: it "
                "may hold a secret)"
            )
        headers[name] = value
    return headers


def _request(arguments: argparse.Namespace) -> A2uiRequest | None:
    if arguments.no_request:
        return None
    if arguments.catalog is not None:
        with naming(arguments.catalog):  # a read that fails names the file
            document = arguments.catalog.read_bytes()
        try:
            return A2uiRequest(Catalog.from_json(document))
        except UsageError as error:
            raise UsageError(f"--catalog {arguments.catalog}: {error}") from None
    return A2uiRequest(basic_catalog("v0.9"))


def command(arguments: argparse.Namespace, reporter: Reporter) -> int:
    """Run ``a2ui-stream run``: every turn in order, stopping at the first that fails.

    Args:
        arguments: the parsed options.
        reporter: where diagnostics, failures and the summary go.

    Returns:
        0 when every run finished, else the failure's code from :data:`EXIT_CODES`,
        1 when every run finished but an ERROR diagnostic occurred, 2 for a usage
        error, 130 when interrupted.

    Raises:
        UsageError: a bad ``-H``, catalog or URL (the command line reports it).
        OSError: the catalog or log cannot be used (likewise).
    """
    logger = reporter.logger
    try:
        from a2ui_stream._shell.client import AgentSession  # noqa: PLC0415
    except ImportError as missing:
        logger.error(str(missing))  # noqa: TRY400 - a missing extra, not a bug
        return EXIT_USAGE
    headers = _headers(arguments.headers)
    request = _request(arguments)
    interactive = arguments.interactive or (
        not arguments.messages and sys.stdin.isatty() and sys.stdout.isatty()
    )
    if interactive and (arguments.messages or arguments.final):
        raise UsageError("--interactive takes its turns from the prompt: no -m, no --final")
    output = Output(sys.stdout.buffer, patches=arguments.diffs == "patch")
    with ExitStack() as stack:
        log = None
        if arguments.log is not None:
            spare = ((sys.stdout, "standard output"), (sys.stderr, "standard error"))
            log = open_log(
                arguments.log, arguments.fsync, spare=spare, stack=stack, reporter=reporter
            )
        processor = resumed_processor(
            log,
            reporter,
            keep_runs=None if arguments.final else 0,
            limits=options.limits(arguments),
            carriers={
                "render_tools": (RENDER_TOOL_NAME,) if request is None else request.render_tools
            },
        )
        resumed = processor.state.seq
        timeout: dict[str, Any] = (
            {} if arguments.timeout is None else {"timeout": arguments.timeout}
        )
        session = AgentSession(
            arguments.url,
            request=False if request is None else request,
            headers=headers,
            thread_id=arguments.thread_id,
            press_text=arguments.press_text,
            processor=processor,
            **timeout,
        )
        try:
            if interactive:
                code = anyio.run(_chat, session, reporter)
            else:
                code = anyio.run(
                    _talk, session, arguments.messages, output, reporter, arguments.final
                )
        except KeyboardInterrupt:
            # asyncio cancelled the run at an await: no event is half logged or printed.
            said = "interrupted: the run was cancelled"
            logger.warning(said if log is None else f"{said}; the log holds every event received")
            code = EXIT_INTERRUPTED
        if arguments.final:
            output.final(processor.state)  # the parts so far, whatever ended the runs
        output.flush()
    reporter(session.take_diagnostics())
    summary = reporter.finish(read=processor.state.seq - resumed, rejected=processor.rejected)
    return code or summary


async def _chat(session: AgentSession, reporter: Reporter) -> int:
    """The prompt loop, on standard input and output."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        # A line that is not UTF-8 must not end the loop (a UTF-8 locale decodes strictly):
        # decoded with surrogates, it is refused by the session, and the user types again.
        sys.stdin.reconfigure(errors="surrogateescape")

    def read() -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    def drain() -> None:
        reporter(session.take_diagnostics())

    async with session:
        failed = await chat(
            session, read=read, out=sys.stdout, report=reporter.logger.error, drain=drain
        )
    # The conversation went on after a failed run; its exit code still says so.
    return EXIT_OK if failed is None else EXIT_CODES[type(failed)]


async def _talk(
    session: AgentSession, turns: Sequence[str], output: Any, reporter: Reporter, final: bool
) -> int:
    """Send each turn in order; write each diff as it comes; stop at the first failure."""
    logger = reporter.logger
    async with session:
        # No -m: one run on the thread as it stands (an agent that speaks first).
        contents: list[str | list[Any]] = list(turns) or [[]]
        for content in contents:
            diffs = session.send(content)
            try:
                async for diff in diffs:
                    if not final:
                        output.diffs([diff])
                        output.flush()
                    reporter(session.take_diagnostics())
            except AgentError as error:
                reporter(session.take_diagnostics())
                # A stream cut short still drew what it carried: a warning, as the issue of
                # an incomplete recording would be; every other failure is an error.
                report = logger.warning if isinstance(error, RunIncompleteError) else logger.error
                report(str(error))
                return EXIT_CODES[type(error)]
            reporter(session.take_diagnostics())
    return EXIT_OK
