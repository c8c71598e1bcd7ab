"""The package's layers: which subpackage may import which, read from the source alone.

Every module of ``a2ui_stream`` is parsed (never imported) and each of its imports,
including those under ``TYPE_CHECKING`` and inside functions, is checked against one
table. A failure names the file, the line and the import that runs the wrong way.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import a2ui_stream

PACKAGE = Path(a2ui_stream.__file__).parent

#: What each layer may import from the package, besides itself. The order is the
#: direction: nothing imports a layer listed after it; the request side stands beside
#: the response layers and needs only the wire; the view draws element trees (the
#: converter's output) and needs only the converter's URL policy and tables.
ALLOWED: dict[str, frozenset[str]] = {
    "_wire": frozenset(),
    "_tree": frozenset({"_wire"}),
    "_state": frozenset({"_wire", "_tree"}),
    "_convert": frozenset({"_wire", "_tree", "_state"}),
    "_engine": frozenset({"_wire", "_tree", "_state", "_convert"}),
    "_view": frozenset({"_convert"}),
    "_request": frozenset({"_wire"}),
    "_shell": frozenset({"_wire", "_tree", "_state", "_convert", "_engine", "_view", "_request"}),
}
#: The top-level modules a layer may import: they import nothing themselves.
FOUNDATION = frozenset({"a2ui_stream.errors", "a2ui_stream._version"})
#: Libraries only the shell may use: effects, event loops and logging configuration.
SHELL_ONLY = frozenset(
    {"anyio", "structlog", "fcntl", "socket", "asyncio", "httpx", "webbrowser", "tempfile"}
)
#: Optional libraries and the one layer that may import each (``import a2ui_stream``
#: must work without them).
OPTIONAL = {"markdown_it": "_view", "apache_beam": "_shell"}

MODULES = sorted(PACKAGE.rglob("*.py"))
#: The top-level modules: the package's public faces over the layers. A new one is a new
#: public import path, listed here on purpose (``client`` alone may need an extra).
FACADES = frozenset(
    {
        "__init__",
        "__main__",
        "_version",
        "a2ui",
        "archive",
        "beam",
        "catalog",
        "client",
        "errors",
        "events",
        "testing",
    }
)


def _name(path: Path, package: Path = PACKAGE) -> str:
    return ".".join(path.relative_to(package.parent).with_suffix("").parts)


def _layer(module: str) -> str | None:
    """The layer a dotted module name belongs to (``None`` for a top-level facade)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else None


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement of the file names, with its line number."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                pytest.fail(f"{path}:{node.lineno}: a relative import; the package uses absolute")
            if node.module == "a2ui_stream" or node.module.removeprefix("a2ui_stream.") in ALLOWED:
                # ``from <package> import module``: the modules are what is imported
                found.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
            else:
                found.append((node.lineno, node.module))
    return found


def violations(path: Path, package: Path = PACKAGE) -> list[str]:
    """Every import of one file that runs against the table, as ``file:line: why``."""
    layer = _layer(_name(path, package))
    if layer is None:
        return []  # a facade or the package root: may import anything
    problems = []
    for line, module in _imports(path):
        where = f"{path.relative_to(package.parent)}:{line}: imports {module}"
        root = module.split(".")[0]
        if root == "a2ui_stream":
            target = _layer(module)
            if target is None:
                if module not in FOUNDATION:
                    problems.append(f"{where}, a top-level facade (import the layer instead)")
            elif target != layer and target not in ALLOWED[layer]:
                problems.append(f"{where}, but {layer} may import only {sorted(ALLOWED[layer])}")
        elif root in SHELL_ONLY and layer != "_shell":
            problems.append(f"{where}, which only the shell may use")
        elif root in OPTIONAL and layer != OPTIONAL[root]:
            problems.append(f"{where}, an optional library only {OPTIONAL[root]} may use")
    return problems


class TestLayers:
    def test_every_module_is_placed(self) -> None:
        """Each module is a top-level facade or lives in a known layer subpackage."""
        for path in MODULES:
            parts = path.relative_to(PACKAGE).parts
            assert len(parts) == 1 or parts[0] in ALLOWED, f"{path}: not in a layer"
            assert len(parts) <= 2, f"{path}: layers are one level deep"

    @pytest.mark.parametrize("path", MODULES, ids=_name)
    def test_imports_run_one_way(self, path: Path) -> None:
        """No import runs back up a layer, and no core layer imports an effectful library."""
        assert violations(path) == []

    def test_top_level_modules_are_the_public_faces(self) -> None:
        """No top-level module appears without being listed as a public face."""
        assert {path.stem for path in MODULES if path.parent == PACKAGE} == FACADES

    def test_every_layer_says_what_it_may_import(self) -> None:
        """Each subpackage's docstring states its ownership and its allowed imports."""
        for layer in ALLOWED:
            doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text()))
            assert doc
            assert "May import" in doc

    def test_a_back_import_is_caught(self, tmp_path: Path) -> None:
        """The check itself fails on an import that runs the wrong way, naming its line."""
        fake = tmp_path / "a2ui_stream" / "_wire" / "bad.py"
        fake.parent.mkdir(parents=True)
        fake.write_text(
            "from __future__ import annotations\n"
            "from a2ui_stream._engine.reducer import Reducer\n"
            "import anyio\n"
            "from markdown_it import MarkdownIt\n"
        )
        assert violations(fake, tmp_path / "a2ui_stream") == [
            (
                "a2ui_stream/_wire/bad.py:2: imports a2ui_stream._engine.reducer,"
                " but _wire may import only []"
            ),
            "a2ui_stream/_wire/bad.py:3: imports anyio, which only the shell may use",
            (
                "a2ui_stream/_wire/bad.py:4: imports markdown_it,"
                " an optional library only _view may use"
            ),
        ]

    def test_the_package_loads_no_optional_library(self) -> None:
        """``import a2ui_stream`` loads no view and no engine; the command line neither.

        The engine-free archive API loads no engine either: apache-beam comes in only
        with ``a2ui_stream.beam`` (or when ``batch`` runs).
        """
        probe = (
            "import sys\n"
            "def loaded(*names): return sorted(m for m in sys.modules if m.startswith(names))\n"
            "import a2ui_stream, a2ui_stream.archive\n"
            "first = loaded('a2ui_stream._view', 'markdown_it', 'apache_beam', 'pyspark')\n"
            "import a2ui_stream._shell.cli\n"
            "print(first, loaded('a2ui_stream._view.', 'markdown_it'),"
            " loaded('apache_beam', 'pyspark', 'a2ui_stream._shell.beam'))\n"
        )
        result = subprocess.run(  # noqa: S603 - our interpreter, our probe
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        )
        assert result.stdout.split() == [
            "[]",
            "['a2ui_stream._view.model',",
            "'a2ui_stream._view.text']",
            "[]",
        ]


#: Within the wire layer, the A2UI decoding modules import one way too: each may use
#: only those listed (the envelope opens a message, legacy rewrites v0.8 before it;
#: ``codes``, ``diagnostics`` and ``spelling`` import nothing of the package).
WIRE_ORDER = {
    "problems": {"codes", "diagnostics", "frozen"},
    "legacy": {"codes", "diagnostics", "frozen", "problems"},
    "envelope": {"codes", "diagnostics", "frozen", "numbers", "problems", "spelling"},
    "a2ui": {"codes", "diagnostics", "frozen", "problems", "legacy", "envelope"},
}


class TestWireOrder:
    @pytest.mark.parametrize("module", sorted(WIRE_ORDER))
    def test_decoding_modules_import_one_way(self, module: str) -> None:
        """Each A2UI decoding module imports only the wire modules below it."""
        used = {
            name.removeprefix("a2ui_stream._wire.")
            for _, name in _imports(PACKAGE / "_wire" / f"{module}.py")
            if name.startswith("a2ui_stream.")
        }
        assert used <= WIRE_ORDER[module]


class TestSize:
    @pytest.mark.parametrize("path", MODULES, ids=_name)
    def test_modules_stay_small(self, path: Path) -> None:
        """No module grows far past about 600 lines (style guide, rule 1)."""
        assert path.read_text().count("\n") <= 700
