"""Test helper: every A2UI sample message in ``../shared/a2ui-samples``, with what to expect.

The sample folder (see its ``MANIFEST.md``) holds four file shapes: a ``sample.json``
wrapper (``{name, description, messages}``), a bare JSON array, JSONL, and schema
test-case files (``{schema, tests: [{description, valid, data}]}``). This module reads
them all into :class:`SampleMessage` values and marks each with whether it is a
conformant server-to-client message, so tests can say "every good sample decodes and
every bad one is reported" without repeating the MANIFEST's notes.

Importable by any test (pytest puts ``tests/`` on ``sys.path``); reads files only when
called, so importing it never fails on a checkout without ``../shared``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "NONCONFORMANT_FILES",
    "SERVER_TO_CLIENT_KEYS",
    "SampleFile",
    "SampleMessage",
    "conformant_streams",
    "load_sample_files",
    "load_sample_messages",
]

#: Operation keys of agent-to-renderer messages, all versions.
SERVER_TO_CLIENT_KEYS = frozenset(
    {
        "createSurface",
        "updateComponents",
        "updateDataModel",
        "deleteSurface",
        "callRendererFunction",
        "agentFunctionResponse",
        "beginRendering",
        "surfaceUpdate",
        "dataModelUpdate",
    }
)
#: Files whose every message is non-conformant, with the MANIFEST's reason.
NONCONFORMANT_FILES = {
    "v0_9__northstar-tour.json": (
        "early draft shape: components use type/props, playback entries between messages"
    ),
}
#: Schema suites of renderer-to-agent messages: their entries are not server-to-client
#: messages, except the ones deliberately written as such (invalid there, valid for us).
_RENDERER_SCHEMAS = frozenset({"renderer_to_agent.json", "client_to_server.json"})

_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()


@dataclass(frozen=True)
class SampleMessage:
    """One message of one sample file.

    Attributes:
        file: the sample file name.
        position: 0-based position of the message in its file.
        message: the decoded message (usually an object).
        conformant: whether it is a spec-conformant server-to-client A2UI message, so
            decoding it must give an operation without errors.
        reason: why it is not conformant (empty when it is).
        description: the test-case description, for schema test-case files.
    """

    file: str
    position: int
    message: Any
    conformant: bool
    reason: str = ""
    description: str = ""

    @property
    def raw(self) -> bytes:
        """The message as compact JSON bytes."""
        return _ENCODER.encode(self.message)


@dataclass(frozen=True)
class SampleFile:
    """One sample file and its messages.

    Attributes:
        name: the file name.
        shape: ``"wrapper"``, ``"array"``, ``"jsonl"`` or ``"cases"`` (schema test cases).
        messages: every message, in file order.
        schema: for test-case files, the schema the cases are written against.
    """

    name: str
    shape: str
    messages: tuple[SampleMessage, ...] = field(default=())
    schema: str = ""

    @property
    def is_stream(self) -> bool:
        """Whether the messages form one stream (test cases are independent messages)."""
        return self.shape != "cases"

    @property
    def version(self) -> str:
        """The spec version folder the file came from: ``"v0_8"``, ``"v0_9"`` or ``"v1_0"``."""
        return self.name.split("__", 1)[0]


def _entries(path: Path) -> tuple[str, str, list[tuple[Any, bool | None, str]]]:
    """Read a file into (shape, schema, [(message, valid flag or None, description)])."""
    data = path.read_bytes()
    if path.suffix == ".jsonl":
        lines = [line for line in data.splitlines() if line.strip()]
        return "jsonl", "", [(_DECODER.decode(line), None, "") for line in lines]
    document = _DECODER.decode(data)
    if isinstance(document, list):
        return "array", "", [(message, None, "") for message in document]
    if "messages" in document:
        return "wrapper", "", [(message, None, "") for message in document["messages"]]
    cases: list[tuple[Any, bool | None, str]] = [
        (case["data"], bool(case["valid"]), str(case["description"])) for case in document["tests"]
    ]
    return "cases", str(document["schema"]), cases


def _verdict(name: str, schema: str, message: Any, valid: bool | None) -> tuple[bool, str]:
    """Whether one message is a conformant server-to-client message, and if not, why."""
    if name in NONCONFORMANT_FILES:
        return False, NONCONFORMANT_FILES[name]
    keys = set(message) - {"version"} if isinstance(message, dict) else set()
    if schema in _RENDERER_SCHEMAS:
        if keys <= SERVER_TO_CLIENT_KEYS:
            return True, ""
        return False, f"renderer-to-agent message ({', '.join(sorted(keys))})"
    if valid is False:
        return False, "schema test case marked invalid"
    if not keys <= SERVER_TO_CLIENT_KEYS:
        return False, f"non-protocol playback entry ({', '.join(sorted(keys))})"
    return True, ""


def load_sample_files(samples_dir: Path) -> list[SampleFile]:
    """Read every sample file of the folder, sorted by name.

    Args:
        samples_dir: the ``a2ui-samples`` folder (the ``samples_dir`` fixture).

    Returns:
        One :class:`SampleFile` per ``.json`` / ``.jsonl`` file.
    """
    files = []
    for path in sorted(samples_dir.iterdir()):
        if path.suffix not in {".json", ".jsonl"}:
            continue
        shape, schema, entries = _entries(path)
        messages = []
        for position, (message, valid, description) in enumerate(entries):
            conformant, reason = _verdict(path.name, schema, message, valid)
            messages.append(
                SampleMessage(
                    file=path.name,
                    position=position,
                    message=message,
                    conformant=conformant,
                    reason=reason,
                    description=description,
                )
            )
        files.append(
            SampleFile(name=path.name, shape=shape, messages=tuple(messages), schema=schema)
        )
    return files


def load_sample_messages(samples_dir: Path) -> list[SampleMessage]:
    """Every message of every sample file, in file then message order.

    Args:
        samples_dir: the ``a2ui-samples`` folder (the ``samples_dir`` fixture).

    Returns:
        All messages, flattened.
    """
    return [message for sample in load_sample_files(samples_dir) for message in sample.messages]


def conformant_streams(samples_dir: Path) -> list[tuple[str, list[Any]]]:
    """Each stream file's conformant messages, in order, as plain JSON values.

    Test-case files are left out (their messages are independent, not a stream), and so
    are files with no conformant message; non-conformant entries (playback entries) are
    dropped from the others.

    Args:
        samples_dir: the ``a2ui-samples`` folder (the ``samples_dir`` fixture).

    Returns:
        ``(file name, messages)`` pairs, sorted by file name.
    """
    streams = []
    for sample in load_sample_files(samples_dir):
        messages = [m.message for m in sample.messages if m.conformant]
        if sample.is_stream and messages:
            streams.append((sample.name, messages))
    return streams
