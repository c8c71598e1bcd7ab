"""The tests mirror the layout: one test module per module, shared helpers in one place.

Each module of a layer, ``a2ui_stream/_<layer>/<name>.py``, has its own
``tests/test_<name>.py`` (which may reach it through the public facade, as users do),
and that module holds tests. No test module imports another: what several share lives
in ``helpers.py``, ``conftest.py`` or a ``*_cases.py`` data module. Read from the files
alone, nothing imported.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import a2ui_stream

PACKAGE = Path(a2ui_stream.__file__).parent
TESTS = Path(__file__).parent
#: Layer modules that need no test module of their own: the packages' docstrings.
WITHOUT_TESTS = frozenset({"__init__"})
LAYER_MODULES = sorted(path for path in PACKAGE.glob("_*/*.py") if path.stem not in WITHOUT_TESTS)
TEST_MODULES = sorted(TESTS.glob("test_*.py"))


def _name(path: Path) -> str:
    return f"{path.parent.name}.{path.stem}"


def test_the_layers_are_found() -> None:
    """The scan sees the layer modules (a moved package would leave it checking nothing)."""
    assert len(LAYER_MODULES) > 50
    assert {path.parent.name for path in LAYER_MODULES} >= {"_wire", "_convert", "_shell"}


def test_module_names_are_unique_across_layers() -> None:
    """Two layers' modules of one name would share one test module: keep names apart."""
    repeated = [name for name, n in Counter(p.stem for p in LAYER_MODULES).items() if n > 1]
    assert repeated == []


@pytest.mark.parametrize("path", LAYER_MODULES, ids=_name)
def test_each_module_has_its_test_module(path: Path) -> None:
    """``_<layer>/<name>.py`` is tested in ``tests/test_<name>.py``, which holds tests."""
    test_module = TESTS / f"test_{path.stem}.py"
    assert test_module.is_file(), f"{_name(path)} has no {test_module.name}"
    tree = ast.parse(test_module.read_text(encoding="utf-8"))
    tests = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    ]
    assert tests, f"{test_module.name} holds no test"


def _imported_test_modules(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [f"line {node.lineno}: {name}" for name in names if name.startswith("test_")]
    return found


@pytest.mark.parametrize("path", TEST_MODULES, ids=lambda path: path.name)
def test_no_test_module_imports_another(path: Path) -> None:
    """Helpers two test modules share live in helpers.py, conftest.py or a cases module."""
    assert _imported_test_modules(path) == []


def test_an_import_of_a_test_module_is_caught(tmp_path: Path) -> None:
    """The check sees both spellings of an import of a test module."""
    probe = tmp_path / "test_probe.py"
    probe.write_text("import os\nfrom test_chunks import RULES\nimport test_bad_input as b\n")
    assert _imported_test_modules(probe) == [
        "line 2: test_chunks",
        "line 3: test_bad_input",
    ]
