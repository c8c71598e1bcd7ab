"""Tests for render plans: generated code safe on hostile input, recording, caches and bounds."""

from __future__ import annotations

import ast
import gc
import re
import weakref
from typing import Any

import msgspec
import pytest
from convert_cases import converted_often, planned

from a2ui_stream._convert import plans
from a2ui_stream._convert.converter import Converter
from a2ui_stream._convert.walk import Walk
from a2ui_stream._state.surface import Surface
from a2ui_stream._wire.limits import Limits
from a2ui_stream.a2ui import Component

HOSTILE = (
    "'",
    '"',
    "'''",
    '"""',
    "\\",
    "\n",
    "\r\n",
    "x'); import os; os.system('echo pwned') #",
    '"]; __import__("os").system("echo pwned"); x = ["',
    "__class__",
    "__globals__",
    "__builtins__",
    "__import__",
    "{k0}",
    "\x00",
    "\u2028",
    "é東",
    "k" * 10_000,
    "'" * 10_000,
)


def _surface(components: list[dict[str, Any]], data: Any) -> Surface:
    return Surface(
        surface_id="s'\n\"__class__",
        version="v0.9",
        components={c["id"]: Component(c["id"], c["component"], c) for c in components},
        data_model=data,
    )


def _hostile_set(word: str) -> tuple[list[dict[str, Any]], Any]:
    """Components whose ids, keys, paths and texts are ``word``, and data they resolve to."""
    components: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": [word, "list", f"{word}-button"]},
        {"id": word, "component": "Text", "text": {"path": f"/{word}/0/{word}"}, "variant": word},
        {"id": "list", "component": "List", "children": {"componentId": "row", "path": f"/{word}"}},
        {"id": "row", "component": "Row", "children": ["cell", "pick"]},
        {"id": "cell", "component": "Text", "text": {"path": word}},
        {
            "id": "pick",
            "component": "CheckBox",
            "label": word,
            "value": {"path": word},
        },
        {
            "id": f"{word}-button",
            "component": "Button",
            "label": word,
            "action": {"event": {"name": word, "context": {word: {"path": f"/{word}"}}}},
        },
    ]
    data = {word: [{word: word}, {word: True}, {word: 3.5}, {"other": word}]}
    return components, data


def _walked(converter: Converter, surface: Surface) -> tuple[Any, Any]:
    walk = Walk(converter._setup, surface)
    return walk.convert(surface.root_id), walk.warnings()


def _planned(converter: Converter, surface: Surface) -> tuple[Any, Any] | None:
    plan = converter._plans.build(surface)
    assert plan is not None
    walk = Walk(converter._setup, surface)
    element = plan.run(walk)
    return None if element is None else (element, walk.warnings())


_NAMES = re.compile(
    r"[kabistcdel]\d+|it|r|st|log|mark|n0|w0|x|e|d|M|CAP|P|MISS|MISSING|LookupError|both|type|len"
    r"|list|str|H|R_\w+|F|L|FZ|LISTS"
)
_ATTRIBUTES = frozenset(
    {"nodes", "work", "log", "island", "undo", "list_item", "append", "extend", "startswith"}
)


def _only_our_code(source: str) -> bool:
    """Whether every name and attribute in ``source`` is one the plan writer uses.

    Input can then be in it only as string constants (keys, path segments) and
    integers (array indexes): data, never code.
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and not _NAMES.fullmatch(node.id):
            return False
        if isinstance(node, ast.Attribute) and node.attr not in _ATTRIBUTES:
            return False
        if isinstance(node, ast.FunctionDef) and node.name != "s":
            return False
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Lambda, ast.Global)):
            return False
    return True


#: Values of every kind for a bound text, URL and choice: the silent case a plan writes
#: inline, and each case it leaves to the rule (cut, printed, unsafe, missing).
_RULE_VALUES: list[Any] = [
    "short",
    "x" * 40,  # past the string limit below
    "https://example.com/a.png",
    "http://example.com/a.png",
    "/relative/a.png",
    "javascript:alert(1)",
    "data:image/png;base64,AAAA",
    "mailto:someone",
    "https://" + "x" * 40,
    3.5,
    7,
    True,
    None,
    ["one", "two"],
    [],
    {"k": "v"},
]


class TestRulesInline:
    @pytest.mark.parametrize("value", _RULE_VALUES, ids=range(len(_RULE_VALUES)))
    def test_a_plan_gives_what_the_walk_gives(self, value: Any) -> None:
        """Text, URL and choice rules written inline agree with the rules themselves."""
        converter = Converter(limits=Limits(max_string_length=30))
        components: list[dict[str, Any]] = [
            {"id": "root", "component": "Column", "children": ["t", "i", "c"]},
            {"id": "t", "component": "Text", "text": {"path": "/v"}},
            {"id": "i", "component": "Image", "url": {"path": "/v"}},
            {
                "id": "c",
                "component": "ChoicePicker",
                "options": [{"label": "A", "value": "a"}],
                "value": {"path": "/v"},
            },
        ]
        surface = _surface(components, {"v": value})
        planned = _planned(converter, surface)
        if planned is not None:  # ``None``: the plan left this value to the walk
            assert msgspec.json.encode(planned) == msgspec.json.encode(_walked(converter, surface))


class TestHostileInput:
    @pytest.mark.parametrize("word", HOSTILE, ids=range(len(HOSTILE)))
    def test_hostile_ids_keys_and_paths(self, word: str) -> None:
        """Quotes, newlines, dunder names and 10,000 characters convert as the walk does."""
        converter = Converter()
        components, data = _hostile_set(word)
        models = [
            data,
            {word: {word: word}},
            {word: [{word: {"nested": 1}}]},
            {},
            msgspec.UNSET,
        ]
        replayed = 0
        for model in models:
            surface = _surface(components, model)
            expected = _walked(converter, surface)
            found = _planned(converter, surface)
            if found is not None:
                replayed += 1
                encode = msgspec.json.encode
                assert encode(found) == encode(expected)
        assert replayed  # the hostile words really went through generated code

    @pytest.mark.parametrize("word", HOSTILE, ids=range(len(HOSTILE)))
    def test_no_input_value_enters_the_source(self, word: str) -> None:
        """Input reaches the source only as repr()'d keys and path segments."""
        converter = Converter()
        components, data = _hostile_set(word)
        plan = converter._plans.build(_surface(components, data))
        assert plan is not None
        assert _only_our_code(plan.source)

    def test_the_source_check_catches_code(self) -> None:
        """The check above fails on source that does anything but build elements."""
        assert not _only_our_code("import os")
        assert not _only_our_code("def s(r, st):\n    return os.system('x')")
        assert not _only_our_code("def s(r, st):\n    return r.__class__")
        assert not _only_our_code("def f(r, st):\n    return k3")
        assert _only_our_code("def s(r, st):\n    return {'$type': 'Divider', 'x': k3}")

    def test_literal_texts_never_enter_the_source(self) -> None:
        """Texts, labels, ids and the surface id are constants of the plan, not source."""
        converter = Converter()
        hidden = "print('the hidden text')"
        components: list[dict[str, Any]] = [
            {"id": "root", "component": "Column", "children": ["t", "b"]},
            {"id": "t", "component": "Text", "text": hidden},
            {"id": "b", "component": "Button", "label": hidden, "action": hidden},
        ]
        plan = converter._plans.build(_surface(components, {}))
        assert plan is not None
        assert hidden not in plan.source
        assert "the hidden text" not in plan.source


def _surfaces(count: int) -> list[Surface]:
    return [
        _surface(
            [
                {"id": "root", "component": "Column", "children": ["t"] * (i % 5 + 1)},
                {"id": "t", "component": "Text", "text": {"path": f"/v{i}"}},
            ],
            {f"v{i}": "x"},
        )
        for i in range(count)
    ]


class TestRecording:
    def test_the_basic_components_are_recorded(self) -> None:
        """Every component of an ordinary surface is replayed, none left to the walk."""
        from a2ui_stream._convert.record import Island, Template, record  # noqa: PLC0415

        components, data = _hostile_set("plain")
        _, scope = record(Converter()._setup, _surface(components, data))
        scopes = [scope]
        while scopes:
            found = scopes.pop()
            assert not any(type(event) is Island for event in found.events)
            scopes += [event.scope for event in found.events if type(event) is Template]


class TestBounds:
    def test_the_caches_are_bounded(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Plans and compiled sources stay within their bounds."""
        monkeypatch.setattr(plans, "_MAX_PLANS", 8)
        monkeypatch.setattr(plans, "_MAX_CODE", 3)
        converter = Converter()
        for surface in _surfaces(60):
            converted_often(converter, surface)
        cache = converter._plans
        assert len(cache._plans) == 8
        assert len(cache._code) <= 3

    def test_a_set_is_compiled_when_converted_often_in_a_row(self) -> None:
        """The COMPILE_AT-th conversion in a row of a set, each given the last, compiles it."""
        converter = Converter()
        (surface,) = _surfaces(1)
        result = converted_often(converter, surface, plans.COMPILE_AT - 1)
        assert result._made is not None
        assert result._made.seen == plans.COMPILE_AT - 1
        assert not converter._plans._plans
        converter.convert(msgspec.structs.replace(surface), result)
        assert len(converter._plans._plans) == 1

    def test_an_equal_set_in_a_new_object_is_a_new_set(self) -> None:
        """A set re-sent as a new object (a list streamed one component at a time) starts over.

        Equal is not the same: the count is of the very set the previous conversion had
        (the engine's case, with ids reused, is in ``test_deltas.py``).
        """
        converter = Converter()
        previous = None
        for count in range(plans.COMPILE_AT * 4):
            (surface,) = _surfaces(1)
            previous = converter.convert(
                msgspec.structs.replace(surface, data_model={"n": count}), previous
            )
            assert previous._made is not None
            assert previous._made.seen == 1
        assert not converter._plans._plans

    def test_a_dropped_plan_is_freed_without_the_cyclic_collector(self) -> None:
        """A plan's functions hold no cycle: dropped, reference counting frees them.

        The command line freezes what each chunk leaves (``gc.freeze``), trusting the
        state to be acyclic; a function held by its own globals would leak there.
        """
        converter = Converter()
        (surface,) = _surfaces(1)
        made = planned(converter, surface)._made
        assert made is not None
        plan = made.plan
        assert plan is not None
        del made
        items = [f for name, f in plan.root.__globals__.items() if name[:1] == "c" and callable(f)]
        functions = [weakref.ref(function) for function in (plan.root, *items)]
        assert functions
        collector_was_on = gc.isenabled()
        gc.disable()
        try:
            del plan
            converter._plans._plans.clear()
            converter._plans._code.clear()
            converter = None  # type: ignore[assignment]
            assert [ref() for ref in functions] == [None] * len(functions)
        finally:
            if collector_was_on:
                gc.enable()

    def test_a_forgotten_plan_is_built_again(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Forgetting only costs speed: converted often again, the set compiles again, equally."""
        monkeypatch.setattr(plans, "_MAX_PLANS", 1)
        converter = Converter()
        surfaces = _surfaces(3)
        first = [planned(converter, s) for s in surfaces]
        again = [planned(converter, s) for s in surfaces]
        assert [c.element for c in first] == [c.element for c in again]
        assert [c._made.plan is not None for c in again if c._made] == [True, True, True]

    def test_sets_past_the_size_are_walked(self) -> None:
        """A component set past the compiled size is always converted by the walk."""
        count = plans._MAX_PLAN_COMPONENTS + 1
        surface = _surface(
            [
                {"id": "root", "component": "Column", "children": [f"t{i}" for i in range(count)]},
                *({"id": f"t{i}", "component": "Divider"} for i in range(count)),
            ],
            {},
        )
        converter = Converter(limits=Limits(max_nodes=10_000))
        result = converted_often(converter, surface, plans.COMPILE_AT + 1)
        assert result._made is not None
        assert result._made.plan is None
        assert not converter._plans._plans
