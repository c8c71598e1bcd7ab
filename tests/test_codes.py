"""The diagnostic codes: one stable set, written once, used by name everywhere.

The set is pinned here (callers match on codes and logs keep them, so removing or
renaming one breaks them), every member is documented with its severity, the codes
table in ``docs/diagnostics.md`` is the enum's own comments, and no module of the
package writes a code as a string of its own (an AST scan, no execution).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import msgspec
import pytest

import a2ui_stream
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

PACKAGE = Path(a2ui_stream.__file__).parent
CODES_MODULE = PACKAGE / "_wire" / "codes.py"
DOC = PACKAGE.parent / "docs" / "diagnostics.md"

#: Every code the library emits. Adding one is a deliberate change made here too;
#: removing or renaming one breaks callers and old logs, and needs a changelog entry.
PINNED = frozenset(
    {
        "a2ui.file_invalid",
        "activity.delta_unknown",
        "activity.lifecycle_unexpected",
        "activity.malformed",
        "activity.no_operations",
        "activity.patch_failed",
        "chunk.ambiguous",
        "chunk.field_dropped",
        "chunk.mismatch",
        "chunk.no_id",
        "chunk.no_name",
        "component.malformed",
        "component.reserved",
        "convert.action_dropped",
        "convert.child_malformed",
        "convert.component_missing",
        "convert.cycle",
        "convert.depth_cap",
        "convert.element_dropped",
        "convert.failed",
        "convert.function_failed",
        "convert.function_unsupported",
        "convert.icon_unmapped",
        "convert.node_budget",
        "convert.prop_invalid",
        "convert.root_missing",
        "convert.string_cut",
        "convert.template_cap",
        "convert.template_not_list",
        "convert.unknown_component",
        "convert.unsafe_url",
        "convert.work_budget",
        "core.internal_error",
        "diagnostics.dropped",
        "event.field_ignored",
        "event.field_missing",
        "event.invalid",
        "event.surrogate_half",
        "history.bad_message",
        "history.orphan_activity",
        "archive.envelope_invalid",
        "archive.file_name_invalid",
        "json.invalid",
        "json.invalid_utf8",
        "json.not_object",
        "json.too_deep",
        "limit.content_nodes",
        "limit.data_depth",
        "limit.data_model_bytes",
        "limit.live_surfaces",
        "limit.operations",
        "limit.run_surfaces",
        "line.too_long",
        "log.bad_event",
        "log.torn_tail",
        "log.unterminated_tail",
        "op.bad_components",
        "op.bad_contents",
        "op.bad_data_model",
        "op.bad_metadata",
        "op.bad_path",
        "op.empty_components",
        "op.invalid_json",
        "op.malformed",
        "op.missing_surface",
        "op.multiple_operations",
        "op.no_operation",
        "op.no_surface_id",
        "op.no_value",
        "op.unknown",
        "op.unknown_field",
        "op.unsupported_version",
        "sse.data_unread",
        "sse.json_line",
        "tool.args_malformed",
        "tool.args_unusable",
        "tool.components_untyped",
        "tool.call_unended",
        "tool.result_parts",
    }
)

#: What a code looks like: dotted lower-case words.
CODE_SHAPE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+")
#: The severity a member's comment starts with, then how it is qualified, then ": ".
SEVERITY_LEAD = re.compile(r"(ERROR|WARNING|DEBUG)(?:, once| \([^)]*\))?: ")


def inline_codes(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """Every string constant in ``source`` shaped like a code, with its line.

    Docstrings are constants too, but a code inside prose is never the whole string,
    so they cannot match.
    """
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source, filename))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and CODE_SHAPE.fullmatch(node.value)
    ]


def _modules() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if path != CODES_MODULE]


def member_comments() -> dict[str, str]:
    """Each member's ``#:`` comment (its lines joined), read from the module's source."""
    lines = CODES_MODULE.read_text().splitlines()
    found: dict[str, str] = {}
    for index, line in enumerate(lines):
        match = re.fullmatch(r"    ([A-Z][A-Z0-9_]*) = \"[^\"]+\"", line)
        if match is None:
            continue
        above: list[str] = []
        for previous in reversed(lines[:index]):
            if not previous.startswith("    #: "):
                break
            above.insert(0, previous.removeprefix("    #: "))
        found[match[1]] = " ".join(above)
    return found


def doc_table() -> str:
    """The codes table ``docs/diagnostics.md`` holds: the enum's comments as rows."""
    rows = ["| code | severity | meaning |", "|---|---|---|"]
    comments = member_comments()
    for code in Code:
        severity, _, meaning = comments[code.name].partition(": ")
        rows.append(f"| `{code.value}` | {severity} | {meaning.replace('``', '`')} |")
    return "\n".join(rows) + "\n"


class TestTheSet:
    def test_the_set_is_pinned(self) -> None:
        """The enum lists exactly the pinned codes: none added, renamed or removed silently."""
        assert {code.value for code in Code} == PINNED

    def test_a_name_is_its_code_in_capitals(self) -> None:
        """``Code.OP_BAD_PATH`` is ``"op.bad_path"``: the name says the string."""
        for code in Code:
            assert code.name == code.value.upper().replace(".", "_")

    def test_every_member_says_what_and_how_bad(self) -> None:
        """Each member has a ``#:`` comment opening with its severity."""
        comments = member_comments()
        assert set(comments) == {code.name for code in Code}
        for name, comment in comments.items():
            lead = SEVERITY_LEAD.match(comment)
            assert lead is not None, f"{name}: {comment!r}"
            assert lead[1] in Severity.__members__

    def test_every_code_is_emitted_somewhere(self) -> None:
        """No member is dead: each is named by a module."""
        text = "\n".join(path.read_text() for path in _modules())
        used = set(re.findall(r"\bCode\.([A-Z][A-Z0-9_]*)\b", text))
        assert {code.name for code in Code} - used == set()

    def test_the_docs_table_is_the_enum(self) -> None:
        """``docs/diagnostics.md`` lists every code with the enum's own words."""
        assert doc_table() in DOC.read_text(), (
            "docs/diagnostics.md is stale: paste tests.test_codes.doc_table()'s output"
        )


class TestUsedByName:
    @pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
    def test_no_module_writes_a_code_inline(self, path: Path) -> None:
        """A module names ``Code.X``; a string of its own could drift from the set."""
        found = inline_codes(path.read_text(), str(path))
        assert found == [], "\n".join(f"{path}:{line}: {value!r}" for line, value in found)

    def test_the_scan_sees_an_inline_code(self) -> None:
        """The scan would fail on a code written as a string, and not on prose or versions."""
        source = (
            '"""Say ``op.malformed`` in prose."""\n'
            'VERSION = "v0.9"\n'
            'problem = Diagnostic(code="op.malformed", message="m")\n'
        )
        assert inline_codes(source) == [(3, "op.malformed")]


class TestWire:
    def test_a_code_encodes_as_its_string(self) -> None:
        """A diagnostic with a member encodes, compares and prints as with the plain string."""
        named = Diagnostic(code=Code.JSON_INVALID, message="m")
        plain = Diagnostic(code="json.invalid", message="m")
        assert msgspec.json.encode(named) == msgspec.json.encode(plain)
        assert msgspec.json.encode(named) == b'{"code":"json.invalid","message":"m"}'
        assert msgspec.msgpack.encode(named) == msgspec.msgpack.encode(plain)
        assert type(msgspec.to_builtins(named)["code"]) is str
        assert named == plain
        assert str(named) == str(plain) == "json.invalid: m"

    def test_a_decoded_code_matches_its_member(self) -> None:
        """A diagnostic read back from JSON compares equal to the member."""
        back = msgspec.json.decode(b'{"code":"op.bad_path","message":"m"}', type=Diagnostic)
        assert back.code == Code.OP_BAD_PATH
        assert Code(back.code) is Code.OP_BAD_PATH
