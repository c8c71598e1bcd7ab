"""Wire names read off a Struct class (:mod:`a2ui_stream._wire.spelling`).

They must say what ``msgspec.structs.fields`` says, for every Struct of the wire layer,
renamed fields, tags and the extra-keys field included; and reading them must not cost
an import what resolving annotations did.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from typing import Any

import msgspec
import pytest

import a2ui_stream._wire
from a2ui_stream._wire.events import RunStarted
from a2ui_stream._wire.spelling import wire_names


def _wire_structs() -> list[type[Any]]:
    found: dict[str, type[Any]] = {}
    for module in pkgutil.iter_modules(a2ui_stream._wire.__path__):
        loaded = importlib.import_module(f"a2ui_stream._wire.{module.name}")
        for _, value in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(value, msgspec.Struct) and value.__module__ == loaded.__name__:
                found[value.__qualname__] = value
    return list(found.values())


@pytest.mark.parametrize("cls", _wire_structs(), ids=lambda cls: cls.__qualname__)
def test_names_are_msgspecs(cls: type[Any]) -> None:
    expected = {field.encode_name: field.name for field in msgspec.structs.fields(cls)}
    assert wire_names(cls) == expected
    assert list(wire_names(cls)) == list(expected)  # in declaration order


def test_renamed_fields_are_spelled_as_on_the_wire() -> None:
    names = wire_names(RunStarted)
    assert names["threadId"] == "thread_id"
    assert names["runId"] == "run_id"


def test_importing_the_package_resolves_no_annotations() -> None:
    """The key tables are made at first use, not at ``import a2ui_stream``."""
    code = (
        "import a2ui_stream\n"
        "from a2ui_stream._wire import keys\n"
        "made = keys._tables.cache_info().currsize\n"
        "keys.camel_keys({'type': 'RUN_STARTED', 'thread_id': 't', 'run_id': 'r'})\n"
        "print(made, keys._tables.cache_info().currsize)\n"
    )
    command = [sys.executable, "-c", code]
    done = subprocess.run(command, capture_output=True, text=True, check=True)  # noqa: S603 - ours
    assert done.stdout.split() == ["0", "1"]
