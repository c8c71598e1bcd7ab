"""Options every command shares: logging, the limits, the carriers, ``--version``, values.

Owns the options that mean the same under every command: ``--log-format`` and ``-v``
(accepted before the command and after it), one ``--max-...`` option per
:class:`~a2ui_stream.Limits` field (made from the fields themselves, so a new limit is
an option at once), the tool names that carry surfaces (``--render-tool``,
``--wrapper-tool``) and the catalog id render arguments draw in (``--catalog-id``), as
:class:`~a2ui_stream.Processor` takes them, ``--version`` (the installed package's
version, read from its metadata only when asked), and the value types that refuse what
makes no sense (a negative ``--from``) with a message saying what would.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream._engine.carriers import RENDER_TOOL_NAME, WRAPPER_TOOL_NAME
from a2ui_stream._version import __version__
from a2ui_stream._wire.limits import Limits, check_limit
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "add_carriers",
    "add_common",
    "add_limits",
    "add_version",
    "carriers",
    "limits",
    "package_version",
    "sequence_number",
]

#: A count with an optional binary suffix: ``16777216``, ``16MiB``, ``16M``, ``64k``.
_SIZE: Final = re.compile(r"(?i)\s*(\d[\d_]*)\s*([kmg]i?b?)?\s*")
_SUFFIX: Final = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def package_version() -> str:
    """The package's version (``a2ui_stream/_version.py``, which pyproject.toml reads)."""
    return __version__


class _Version(argparse.Action):
    """``--version``: print the version and exit, reading the metadata only then."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any, **__: Any) -> None:
        sys.stdout.write(f"{parser.prog} {package_version()}\n")
        parser.exit()


def add_version(parser: argparse.ArgumentParser) -> None:
    """Add ``--version`` to the top-level parser."""
    parser.add_argument("--version", action=_Version, help="print the version and exit")


def add_common(parser: argparse.ArgumentParser, *, after_command: bool) -> None:
    """Add ``--log-format`` and ``-v``: before the command, and again after it.

    Args:
        parser: the top-level parser, or one command's parser.
        after_command: a command's parser: its options default to nothing, so a value
            given before the command is kept unless one is given after it.
    """
    defaults: dict[str, Any] = {"default": argparse.SUPPRESS} if after_command else {}
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        help="how diagnostics and the summary are written to stderr (default: text)",
        **({"default": "text"} | defaults),
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also show debug diagnostics (expected and harmless ones, such as data an "
        "agent has not sent yet)",
        **({"default": False} | defaults),
    )


def _field_help() -> dict[str, str]:
    """Each :class:`Limits` field's description, read from its docstring's Attributes."""
    found: dict[str, str] = {}
    name = None
    for line in inspect.cleandoc(Limits.__doc__ or "").splitlines():
        match = re.fullmatch(r"\s{4}(\w+): (.*)", line)
        if match:
            name, found[match[1]] = match[1], match[2]
        elif name is not None and line.startswith(" " * 8):
            found[name] += " " + line.strip()
        else:
            name = None
    return found


def _limit_value(name: str) -> Callable[[str], int]:
    """The option type of the :class:`Limits` field ``name``: a count, within its range."""

    def parse(text: str) -> int:
        match = _SIZE.fullmatch(text)
        if match is None:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a count: give a whole number, optionally with k, M or G "
                "(powers of 1024), such as 64MiB"
            )
        value = int(match[1].replace("_", "")) * _SUFFIX.get((match[2] or " ")[0].lower(), 1)
        try:  # the range is the library's: the option says what Limits() would say
            return check_limit(name, value)
        except UsageError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def add_limits(parser: argparse.ArgumentParser) -> None:
    """Add one ``--max-...`` option per :class:`Limits` field, under their own heading."""
    group = parser.add_argument_group(
        "limits", "bounds on untrusted input; exceeding one is a diagnostic, never a crash"
    )
    described = _field_help()
    for field in msgspec.structs.fields(Limits):
        description = described.get(field.name, field.name.replace("_", " "))
        group.add_argument(
            "--" + field.name.replace("_", "-"),
            dest=f"limit_{field.name}",
            type=_limit_value(field.name),
            default=argparse.SUPPRESS,
            metavar="N",
            help=f"{description} (default: {field.default:,})",
        )


def limits(arguments: argparse.Namespace) -> Limits:
    """The :class:`Limits` the command line asked for: the defaults and any given."""
    given = {
        name.removeprefix("limit_"): value
        for name, value in vars(arguments).items()
        if name.startswith("limit_")
    }
    return Limits(**given)


def add_carriers(parser: argparse.ArgumentParser) -> None:
    """Add the options naming the tools that carry surfaces, under their own heading."""
    group = parser.add_argument_group(
        "carriers",
        "which tool calls draw surfaces, for an agent that renamed its tools; give the same "
        "to replay a log as to the process that wrote it",
    )
    group.add_argument(
        "--render-tool",
        dest="render_tools",
        action="append",
        type=_name,
        metavar="NAME",
        help=(
            "a tool whose streamed arguments draw a surface (the middleware's a2uiToolNames); "
            f"repeat for several; replaces the default, {RENDER_TOOL_NAME}"
        ),
    )
    group.add_argument(
        "--wrapper-tool",
        dest="wrapper_tools",
        action="append",
        type=_name,
        metavar="NAME",
        help=(
            "a tool that wraps an A2UI sub-agent, whose render calls are filed under it; "
            f"repeat for several; replaces the default, {WRAPPER_TOOL_NAME}"
        ),
    )
    group.add_argument(
        "--catalog-id",
        type=_name,
        metavar="ID",
        help="the catalog a surface drawn from render arguments names (defaultCatalogId)",
    )


def _name(text: str) -> str:
    """A tool's or a catalog's name: anything but nothing."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the name is empty: give the tool's or catalog's name")
    return text


def carriers(arguments: argparse.Namespace) -> dict[str, Any]:
    """What the carrier options asked for, as :class:`~a2ui_stream.Processor` keywords.

    Only the options given: the processor's defaults stand for the rest.
    """
    given = {
        "render_tools": getattr(arguments, "render_tools", None),
        "wrapper_tools": getattr(arguments, "wrapper_tools", None),
    }
    found: dict[str, Any] = {name: tuple(value) for name, value in given.items() if value}
    catalog_id = getattr(arguments, "catalog_id", None)
    if catalog_id is not None:
        found["catalog_id"] = catalog_id
    return found


def sequence_number(text: str) -> int:
    """An event's sequence number: a whole number, 0 or more.

    Raises:
        argparse.ArgumentTypeError: anything else, saying what a seq is.
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a sequence number: seqs count events from 0 (the first "
            "event of the log is 0)"
        )
    return value
