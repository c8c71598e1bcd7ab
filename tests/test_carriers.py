"""Tool carriers: render-tool arguments and tool results drawn as the middleware draws them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from a2ui_stream import (
    A2uiRequest,
    Processor,
    Reducer,
    Severity,
    basic_catalog,
    decode_event,
    outbound_messages,
)
from a2ui_stream._engine.carriers import BASIC_CATALOG_ID

LIST_ARGS = {
    "surfaceId": "flights",
    "components": [
        {"id": "root", "component": "Column", "children": {"componentId": "row", "path": "/items"}},
        {"id": "row", "component": "Text", "text": {"path": "name"}},
    ],
    "data": {"items": [{"name": f"flight {i}"} for i in range(6)], "title": "Lisbon"},
}


def start(call: str, name: str = "render_a2ui", parent: str | None = "m1") -> dict[str, Any]:
    event: dict[str, Any] = {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": name}
    if parent is not None:
        event["parentMessageId"] = parent
    return event


def args(call: str, text: str, size: int) -> list[dict[str, Any]]:
    return [
        {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": text[i : i + size]}
        for i in range(0, len(text), size)
    ]


def end(call: str) -> dict[str, Any]:
    return {"type": "TOOL_CALL_END", "toolCallId": call}


def result(call: str, content: Any) -> dict[str, Any]:
    text = content if isinstance(content, str) else json.dumps(content)
    return {
        "type": "TOOL_CALL_RESULT",
        "messageId": f"t-{call}",
        "toolCallId": call,
        "content": text,
    }


def render(call: str, arguments: dict[str, Any], size: int = 7, **kw: Any) -> list[dict[str, Any]]:
    return [start(call, **kw), *args(call, json.dumps(arguments), size), end(call)]


RUN = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}


def ops(surface_id: str, text: str) -> list[dict[str, Any]]:
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {
                "surfaceId": surface_id,
                "components": [{"id": "root", "component": "Text", "text": text}],
            },
        },
    ]


def parts(processor: Processor) -> list[tuple[str, str, Any]]:
    run = processor.state.current
    assert run is not None
    return [(p.surface_id, p.message_id, p.args) for p in run.parts.values()]


class TestRenderArguments:
    def test_paints_before_the_last_delta_and_ends_as_the_one_shot_call(self) -> None:
        """A long render call paints its components first, then each item as it closes;
        its final parts are those of the same call sent in one delta."""
        streamed = Processor()
        text = json.dumps(LIST_ARGS)
        deltas = args("c1", text, 5)
        seen = [streamed.feed_events([RUN, start("c1")])]
        seen += [streamed.feed_events([delta]) for delta in deltas]
        streamed.feed_events([end("c1")])
        painted_at = [i for i, diffs in enumerate(seen) if diffs]
        assert painted_at[0] < len(seen) - 1  # the first paint came before the last delta
        counts = [len(d.args["children"]) for diffs in seen for d in diffs]  # type: ignore[index]
        assert counts[0] == 0  # components alone first (no item had closed)
        assert counts == sorted(counts)
        assert counts[-1] == 6
        assert len(counts) >= 4  # item by item, not all at once
        whole = Processor()
        whole.feed_events([RUN, start("c1"), *args("c1", text, len(text)), end("c1")])
        assert parts(streamed) == parts(whole)
        assert parts(whole)[0][1] == "a2ui-surface-c1"

    def test_lifecycle_building_with_progress_tokens_then_painted(self) -> None:
        """Building at the start, progressTokens every 20 tokens, painted once drawn."""
        processor = Processor()
        text = json.dumps(LIST_ARGS)
        processor.feed_events([RUN, start("c1")])
        run = processor.state.current
        assert run is not None
        assert run.lifecycles["a2ui-surface-c1"].content == {"status": "building"}
        processor.feed_events(args("c1", text[:100], 10))
        run = processor.state.current
        assert run is not None
        assert run.lifecycles["a2ui-surface-c1"].content == {
            "status": "building",
            "progressTokens": 20,
        }
        processor.feed_events([*args("c1", text[100:], 10), end("c1")])
        run = processor.state.current
        assert run is not None
        assert run.lifecycles["a2ui-surface-c1"].phase == "painted"

    def test_progress_counts_utf16_units_as_javascript_does(self) -> None:
        """Tokens are the text's UTF-16 length / 4, rounded half up, as Math.round does."""
        processor = Processor()
        processor.feed_events([RUN, start("c1"), *args("c1", '{"x":"' + "\U0001f600" * 40, 200)])
        run = processor.state.current
        assert run is not None
        assert run.lifecycles["a2ui-surface-c1"].content["progressTokens"] == 22  # (6+80)/4

    def test_a_rejected_tree_never_paints_and_retries(self) -> None:
        """A tree the toolkit rejects shows retrying with its errors and no part."""
        bad = {"surfaceId": "s", "components": [{"id": "top", "component": "Text", "text": "x"}]}
        processor = Processor()
        processor.feed_events([RUN, *render("c1", bad)])
        run = processor.state.current
        assert run is not None
        assert not run.parts
        assert run.lifecycles["a2ui-surface-c1"].content == {
            "status": "retrying",
            "attempt": 2,
            "maxAttempts": 3,
            "errors": [
                {"code": "no_root", "path": "components", "message": "No component has id 'root'"}
            ],
        }

    def test_catalog_id_resolution(self) -> None:
        """Configured id, else the arguments' (not "basic"), else the basic catalog."""
        plain = {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "x"}]}

        def catalog(arguments: dict[str, Any], **options: Any) -> str | None:
            processor = Processor(**options)
            processor.feed_events([RUN, *render("c1", arguments)])
            run = processor.state.current
            assert run is not None
            return run.surfaces()["s"].catalog_id

        def first(catalog_id: str) -> dict[str, Any]:
            return {"catalogId": catalog_id, **plain}

        assert catalog(plain) == BASIC_CATALOG_ID
        assert catalog(first("basic")) == BASIC_CATALOG_ID
        assert catalog(first("mine")) == "mine"
        assert catalog(first("mine"), catalog_id="host") == "host"
        # Streamed after the components it comes too late for the paint, as upstream.
        assert catalog({**plain, "catalogId": "mine"}) == BASIC_CATALOG_ID

    def test_custom_render_tool_name_from_a_request(self) -> None:
        """A request's custom render tool name is an easy way to configure the names."""
        request = A2uiRequest(basic_catalog("v0.9"), render_tool_name="draw")
        assert request.render_tools == {"render_a2ui", "draw"}
        arguments = {
            "surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "x"}],
        }
        default = Processor()
        default.feed_events([RUN, *render("c1", arguments, name="draw")])
        assert parts(default) == []
        custom = Processor(render_tools=request.render_tools)
        custom.feed_events([RUN, *render("c1", arguments, name="draw")])
        assert [p[0] for p in parts(custom)] == ["s"]

    def test_inner_calls_are_filed_under_the_open_outer_call(self) -> None:
        """generate_a2ui's inner render paints under the outer call's messageId, and the
        outer envelope re-wrapping that surface draws nothing more."""
        arguments = {
            "surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "a"}],
        }
        processor = Processor()
        diffs = processor.feed_events(
            [
                RUN,
                start("g1", "generate_a2ui"),
                end("g1"),
                *render("r1", arguments, parent=None),
                result("g1", {"a2ui_operations": ops("s", "wrapped again")}),
            ]
        )
        assert [(d.op, d.message_id) for d in diffs] == [("add", "a2ui-surface-g1")]
        assert parts(processor)[0][2] == {"$type": "Markdown", "value": "a"}

    def test_a_render_beside_an_unanswered_call_keeps_its_own_surface(self) -> None:
        """Not the middleware's defect: renders beside an open frontend tool call do not
        replace one another."""
        first = {"surfaceId": "a", "components": [{"id": "root", "component": "Text", "text": "a"}]}
        second = {
            "surfaceId": "b",
            "components": [{"id": "root", "component": "Text", "text": "b"}],
        }
        processor = Processor()
        processor.feed_events(
            [RUN, start("f1", "confirm"), end("f1"), *render("r1", first), *render("r2", second)]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [
            ("a", "a2ui-surface-r1"),
            ("b", "a2ui-surface-r2"),
        ]

    def test_a_render_in_a_later_message_of_the_agent_keeps_its_own_surface(self) -> None:
        """Not the defect either when the agent spoke again after the open call: renders in
        its new message are its own, not a sub-agent's, and do not replace one another."""
        first = {"surfaceId": "a", "components": [{"id": "root", "component": "Text", "text": "a"}]}
        second = {**first, "surfaceId": "b"}
        spoken = [
            {"type": "TEXT_MESSAGE_START", "messageId": "m2", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "Here."},
            {"type": "TEXT_MESSAGE_END", "messageId": "m2"},
        ]
        events = [RUN, start("f1", "confirm"), end("f1"), *spoken]
        processor = Processor()
        processor.feed_events(
            [*events, *render("r1", first, parent="m2"), *render("r2", second, parent="m2")]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [
            ("a", "a2ui-surface-r1"),
            ("b", "a2ui-surface-r2"),
        ]
        # A call naming no message is a sub-agent's, filed under the open call as upstream.
        processor = Processor()
        processor.feed_events(
            [*events, *render("r1", first, parent=None), *render("r2", second, parent=None)]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [("b", "a2ui-surface-f1")]

    def test_renders_in_messages_of_their_own_keep_their_surfaces(self) -> None:
        """ag-ui-strands gives each call of a turn a message of its own: renders beside an
        open backend call keep their surfaces; inside ``generate_a2ui`` such a render is
        the sub-agent's, filed under it as upstream files it."""
        first = {"surfaceId": "a", "components": [{"id": "root", "component": "Text", "text": "a"}]}
        second = {**first, "surfaceId": "b"}
        for outer, expected in (
            ("search", [("a", "a2ui-surface-r1"), ("b", "a2ui-surface-r2")]),
            ("generate_a2ui", [("b", "a2ui-surface-o1")]),
        ):
            processor = Processor()
            processor.feed_events(
                [
                    RUN,
                    start("o1", outer, parent="m1"),
                    end("o1"),
                    *render("r1", first, parent="m2"),
                    *render("r2", second, parent="m3"),
                ]
            )
            assert [(p[0], p[1]) for p in parts(processor)] == expected, outer

    def test_a_renamed_wrapper_is_one_when_named(self) -> None:
        """A wrapper given another name is a wrapper once ``wrapper_tools`` names it: a
        render naming a message of its own inside it is the sub-agent's; without it,
        the agent's own, as ag-ui-strands streams the agent's calls."""
        card = {"surfaceId": "a", "components": [{"id": "root", "component": "Text", "text": "a"}]}
        events = [RUN, start("o1", "make_ui", parent="m1"), end("o1")]
        events += render("r1", card, parent="m2")
        for options, key in (
            ({}, "a2ui-surface-r1"),
            ({"wrapper_tools": ("make_ui",)}, "a2ui-surface-o1"),
            ({"wrapper_tools": ()}, "a2ui-surface-r1"),
        ):
            processor = Processor(**options)
            processor.feed_events(events)
            assert [(p[0], p[1]) for p in parts(processor)] == [("a", key)], options
        processor = Processor(wrapper_tools=())  # generate_a2ui is then no wrapper either
        processor.feed_events(
            [
                RUN,
                start("o1", "generate_a2ui", parent="m1"),
                end("o1"),
                *render("r1", card, parent="m2"),
            ]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [("a", "a2ui-surface-r1")]

    def test_escaped_names_read_as_the_middleware_reads_them(self) -> None:
        """A top-level name is read with its escapes (``surface\\u0049d`` is surfaceId); a
        name inside ``data`` as written, so its rows paint only once ``data`` closes."""
        text = json.dumps(LIST_ARGS).replace('"surfaceId"', '"surface\\u0049d"')
        processor = Processor()
        diffs = processor.feed_events([RUN, start("c1"), *args("c1", text, 5), end("c1")])
        assert [d.surface_id for d in diffs][:1] == ["flights"]
        assert len(diffs) == 1 + 6  # the empty list, then one row per paint
        escaped = text.replace('"items"', '"it\\u0065ms"')
        processor = Processor()
        diffs = processor.feed_events([RUN, start("c1"), *args("c1", escaped, 5), end("c1")])
        assert len(diffs) == 2  # the empty list, then every row with the whole data
        assert len(parts(processor)[0][2]["children"]) == 6

    def test_bad_arguments_are_diagnostics(self) -> None:
        """Malformed or unusable arguments, and deltas for unknown calls, never raise."""
        processor = Processor()
        diffs = processor.feed_events(
            [
                RUN,
                {"type": "TOOL_CALL_ARGS", "toolCallId": "nobody", "delta": "{]"},
                {"type": "TOOL_CALL_END", "toolCallId": "nobody"},
                start("c1"),
                *args("c1", '{"surfaceId":"s","components":[{"id":"root","component":"Text"', 4),
                *args("c1", ', "text": x}]}', 4),
                end("c1"),
                start("c2"),
                *args("c2", '{"components":[]}', 3),
                end("c2"),
                start("c3"),
                *args("c3", '{"surfaceId":"s","components":[{"id":"root"}]}', 3),
                end("c3"),
            ]
        )
        assert diffs == []
        codes = [d.code for d in processor.take_diagnostics()]
        assert codes == ["tool.args_malformed", "tool.args_unusable", "tool.components_untyped"]

    def test_arguments_broken_after_their_components_draw_and_say_so(self) -> None:
        """Painted once ``components`` closed, as upstream paints; the broken rest is reported."""
        whole = '{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x"}]'
        for tail, found in (
            ("}", []),
            ("}}]]", ["tool.args_malformed"]),
            (',"data":', ["tool.args_malformed"]),
        ):
            processor = Processor()
            diffs = processor.feed_events(
                [RUN, start("c1"), *args("c1", whole + tail, 6), end("c1")]
            )
            assert [d.surface_id for d in diffs] == ["s"], tail
            problems = processor.take_diagnostics()
            assert [d.code for d in problems] == found, tail
            assert all("what they drew stays" in d.message for d in problems)


class TestToolResults:
    def test_results_group_by_surface_with_the_middleware_message_ids(self) -> None:
        """One surface: a2ui-surface-<call>; several: a2ui-surface-<surface>-<call>."""
        processor = Processor()
        processor.feed_events(
            [
                RUN,
                start("b1", "search"),
                end("b1"),
                result("b1", {"a2ui_operations": ops("one", "1")}),
                start("b2", "search"),
                end("b2"),
                result("b2", {"a2ui_operations": [*ops("x", "x"), *ops("y", "y")]}),
            ]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [
            ("one", "a2ui-surface-b1"),
            ("x", "a2ui-surface-x-b2"),
            ("y", "a2ui-surface-y-b2"),
        ]

    def test_results_of_calls_answered_together_keep_their_own_surfaces(self) -> None:
        """Not the middleware's defect: calls of one turn answered after all of them
        streamed (ag-ui-strands, each call in a message of its own) keep one surface each;
        a result whose call named no message (a sub-agent's) is filed under the open call."""
        events = [RUN, start("b1", "search", parent="m1"), end("b1")]
        events += [start("b2", "search", parent="m2"), end("b2")]
        processor = Processor()
        processor.feed_events(
            [
                *events,
                result("b1", {"a2ui_operations": ops("one", "1")}),
                result("b2", {"a2ui_operations": ops("two", "2")}),
            ]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [
            ("one", "a2ui-surface-b1"),
            ("two", "a2ui-surface-b2"),
        ]
        inner = [start("i1", "search", parent=None), end("i1")]
        processor = Processor()
        processor.feed_events([*events, *inner, result("i1", {"a2ui_operations": ops("one", "1")})])
        assert [(p[0], p[1]) for p in parts(processor)] == [("one", "a2ui-surface-i1")]
        processor = Processor()
        processor.feed_events(
            [
                RUN,
                start("g1", "generate_a2ui"),
                end("g1"),
                *inner,
                start("i2", "search", parent=None),
                result("i1", {"a2ui_operations": ops("one", "1")}),
            ]
        )
        assert [(p[0], p[1]) for p in parts(processor)] == [("one", "a2ui-surface-i2")]

    def test_a_content_of_parts_draws_nothing_and_says_why(self) -> None:
        """The middleware reads only a string content (``JSON.parse`` of a list fails), so
        a list of content parts draws nothing, here as behind it; one whose text holds
        A2UI is a ``tool.result_parts`` warning, other parts say nothing."""
        envelope = json.dumps({"a2ui_operations": ops("s", "x")})
        failure = json.dumps({"code": "a2ui_recovery_exhausted", "error": "boom"})
        for content, codes in (
            ([{"type": "text", "text": envelope}], ["tool.result_parts"]),
            (
                [{"type": "text", "text": envelope[:9]}, {"type": "text", "text": envelope[9:]}],
                ["tool.result_parts"],
            ),
            ([{"type": "text", "text": failure}], ["tool.result_parts"]),
            ([{"type": "text", "text": "found 3 flights"}], []),
            ([{"type": "image", "source": {"type": "url", "value": "https://x/y.png"}}], []),
        ):
            processor = Processor()
            events = [RUN, start("b1", "search"), end("b1")]
            event = {
                "type": "TOOL_CALL_RESULT",
                "messageId": "t",
                "toolCallId": "b1",
                "content": content,
            }
            processor.feed_events([*events, event])
            found = processor.take_diagnostics()
            assert [d.code for d in found] == codes, content
            assert all(d.seq == 3 and d.severity == Severity.WARNING for d in found)
            assert parts(processor) == []
            assert processor.state.current is not None
            assert processor.state.current.lifecycles == {}

    def test_a_content_of_parts_in_history_says_why_too(self) -> None:
        content = [{"type": "text", "text": json.dumps({"a2ui_operations": ops("s", "x")})}]
        messages: list[dict[str, Any]] = [
            {"role": "user", "id": "u1", "content": "find"},
            {
                "role": "assistant",
                "id": "a1",
                "toolCalls": [
                    {
                        "id": "b1",
                        "type": "function",
                        "function": {"name": "search", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "id": "t1", "toolCallId": "b1", "content": content},
        ]
        state, _, diagnostics = Reducer().rehydrate(messages)
        assert state.history == ()
        assert [(d.code, d.message_id, d.seq) for d in diagnostics] == [
            ("tool.result_parts", "a1", None)
        ]

    def test_a_json_string_is_decoded_once_more_and_no_further(self) -> None:
        """Double-encoded content draws; triple-encoded does not."""
        envelope = json.dumps({"a2ui_operations": ops("s", "x")})
        twice = Processor()
        twice.feed_events([RUN, result("b1", json.dumps(envelope))])
        assert len(parts(twice)) == 1
        thrice = Processor()
        thrice.feed_events([RUN, result("b1", json.dumps(json.dumps(envelope)))])
        assert parts(thrice) == []

    def test_recovery_exhausted_sets_failed(self) -> None:
        """The toolkit's exhausted envelope becomes lifecycle failed with its attempts."""
        attempts = [
            {"attempt": 1, "ok": False, "errors": []},
            {"attempt": 2, "ok": False, "errors": []},
        ]
        content = {
            "error": "Failed to generate",
            "code": "a2ui_recovery_exhausted",
            "attempts": attempts,
        }
        processor = Processor()
        processor.feed_events([RUN, start("g1", "generate_a2ui"), end("g1"), result("g1", content)])
        run = processor.state.current
        assert run is not None
        lifecycle = run.lifecycles["a2ui-surface-g1"]
        assert (lifecycle.phase, lifecycle.content) == (
            "failed",
            {
                "status": "failed",
                "error": "Failed to generate",
                "attempts": attempts,
                "maxAttempts": 2,
            },
        )

    def test_an_update_before_its_create_is_a_diagnostic(self) -> None:
        """Within one carrier, an update to a surface never created draws nothing and says so."""
        update = ops("s", "x")[1:]
        processor = Processor()
        assert processor.feed_events([RUN, result("b1", {"a2ui_operations": update})]) == []
        assert [d.code for d in processor.take_diagnostics()] == ["op.missing_surface"]

    def test_non_a2ui_results_draw_nothing(self) -> None:
        processor = Processor()
        for content in ['{"results": []}', "plain text", "[1]", '{"a2ui_operations": 5}']:
            processor.feed_events([RUN, result("b1", content)])
        assert parts(processor) == []
        assert processor.take_diagnostics() == []


class TestOwnership:
    def snapshot(self, message_id: str, surface_id: str, text: str) -> dict[str, Any]:
        return {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": message_id,
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": ops(surface_id, text)},
        }

    @pytest.mark.parametrize("activity_first", [True, False])
    def test_activity_outranks_a_tool_result_whichever_came_first(
        self, activity_first: bool
    ) -> None:
        tool = [
            start("b1", "search"),
            end("b1"),
            result("b1", {"a2ui_operations": ops("s", "tool")}),
        ]
        activity = [self.snapshot("act", "s", "activity")]
        processor = Processor()
        processor.feed_events([RUN, *(activity + tool if activity_first else tool + activity)])
        assert parts(processor) == [("s", "act", {"$type": "Markdown", "value": "activity"})]

    def test_a_stream_behind_the_middleware_draws_as_activity_alone(self) -> None:
        """The middleware's snapshots and the tool calls they came from draw each surface
        once, with the same diffs as the activity alone."""
        arguments = {
            "surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "a"}],
        }
        building = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "a2ui-surface-c1",
            "activityType": "a2ui-surface",
            "content": {"status": "building"},
        }
        paint = self.snapshot("a2ui-surface-c1", "s", "a")
        tools = render("c1", arguments)
        both = [RUN, building, tools[0], *tools[1:-1], paint, tools[-1]]
        only = [RUN, building, paint]
        behind, alone = Processor(), Processor()
        diffs = behind.feed_events(both)
        expected = alone.feed_events(only)
        assert [(d.op, d.surface_id, d.message_id, d.args) for d in diffs] == [
            (d.op, d.surface_id, d.message_id, d.args) for d in expected
        ]
        assert parts(behind) == parts(alone)

    @pytest.mark.parametrize(
        "activity",
        [
            {"messageId": "other", "content": {"status": "building"}},
            {"messageId": "act", "content": {"a2ui_operations": ops("t", "agent's own")}},
        ],
        ids=["a lone status", "the agent's own surface"],
    )
    def test_activity_not_named_by_the_middleware_leaves_the_tool_calls_drawing(
        self, activity: dict[str, Any]
    ) -> None:
        """Only the middleware's ``a2ui-surface-...`` activity means it drew the calls.

        Found by a probe against @ag-ui/a2ui-middleware: any a2ui-surface activity in a
        run, even a lone building status under another id, turned off every later
        render call and result of the run, with no word; the middleware draws them.
        """
        event = {"type": "ACTIVITY_SNAPSHOT", "activityType": "a2ui-surface", **activity}
        arguments = {
            "surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "a"}],
        }
        backend = [
            start("b1", "search"),
            end("b1"),
            result("b1", {"a2ui_operations": ops("x", "b")}),
        ]
        processor = Processor()
        processor.feed_events([RUN, event, *render("c1", arguments), *backend])
        drawn = [(sid, text) for sid, _, text in parts(processor)]
        assert ("s", {"$type": "Markdown", "value": "a"}) in drawn
        assert ("x", {"$type": "Markdown", "value": "b"}) in drawn


class TestValues:
    def test_an_old_state_fed_again_means_what_it_meant(self) -> None:
        """States stay values: feeding two different continuations of one state."""
        reducer = Reducer()
        text = json.dumps(LIST_ARGS)
        head = [
            decode_event(json.dumps(e).encode())
            for e in [RUN, start("c1"), *args("c1", text[:60], 6)]
        ]
        middle, _, _ = reducer.reduce_all(head)
        rest = [
            decode_event(json.dumps(e).encode()) for e in [*args("c1", text[60:], 6), end("c1")]
        ]
        other = [decode_event(json.dumps(e).encode()) for e in args("c1", "garbage]", 3)]
        first, _, _ = reducer.reduce_all(rest, middle)
        reducer.reduce_all(other, middle)
        again, _, _ = reducer.reduce_all(rest, middle)
        drawn = [(p.surface_id, p.args) for p in first.runs[-1].parts.values()]
        assert drawn == [(p.surface_id, p.args) for p in again.runs[-1].parts.values()]
        assert len(drawn[0][1]["children"]) == 6


class TestHistory:
    def history(self) -> list[dict[str, Any]]:
        arguments = {
            "surfaceId": "card",
            "components": [{"id": "root", "component": "Text", "text": "a"}],
        }
        return [
            {"role": "user", "id": "u1", "content": "draw"},
            {
                "role": "assistant",
                "id": "a1",
                "toolCalls": [
                    {
                        "id": "r1",
                        "type": "function",
                        "function": {"name": "render_a2ui", "arguments": json.dumps(arguments)},
                    },
                    {
                        "id": "b1",
                        "type": "function",
                        "function": {"name": "search", "arguments": "{}"},
                    },
                ],
            },
            {"role": "tool", "id": "t1", "toolCallId": "r1", "content": '{"status":"rendered"}'},
            {
                "role": "tool",
                "id": "t2",
                "toolCallId": "b1",
                "content": json.dumps({"a2ui_operations": ops("list", "b")}),
            },
        ]

    def test_restored_history_draws_render_calls_and_results(self) -> None:
        state, _, diagnostics = Reducer().rehydrate(self.history())
        assert diagnostics == ()
        assert [
            (h.message_id, [(p.surface_id, p.message_id) for p in h.parts]) for h in state.history
        ] == [("a1", [("card", "a2ui-surface-r1"), ("list", "a2ui-surface-b1")])]

    def test_a_turn_recorded_behind_the_middleware_draws_from_its_activity(self) -> None:
        messages = self.history()
        activity = {
            "role": "activity",
            "id": "a2ui-surface-r1",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": ops("card", "from activity")},
        }
        messages.insert(2, activity)
        state, _, _ = Reducer().rehydrate(messages)
        assert [[(p.surface_id, p.args) for p in h.parts] for h in state.history] == [
            [("card", {"$type": "Markdown", "value": "from activity"})]
        ]

    def test_a_snapshot_during_the_run_repeating_its_tool_calls_draws_them_once(self) -> None:
        """ag-ui-strands repeats the run's calls and results in MESSAGES_SNAPSHOTs: they
        stay one part per surface in the run, and are not history."""
        messages = self.history()
        live = [
            RUN,
            start("r1"),
            *args("r1", messages[1]["toolCalls"][0]["function"]["arguments"], 9),
            end("r1"),
        ]
        live += [start("b1", "search"), end("b1"), result("b1", messages[3]["content"])]
        snapshot = {"type": "MESSAGES_SNAPSHOT", "messages": messages}
        processor = Processor()
        diffs = processor.feed_events(
            [*live, snapshot, snapshot, {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}]
        )
        assert [(d.op, d.surface_id) for d in diffs] == [("add", "card"), ("add", "list")]
        assert [p[0] for p in parts(processor)] == ["card", "list"]
        assert processor.state.history == ()
        # A later run's snapshot restores nothing twice either: the first run saw them.
        processor.feed_events([{**RUN, "runId": "r2"}, snapshot])
        assert processor.state.history == ()

    def test_outbound_messages_keep_the_agents_tool_calls_and_results(self) -> None:
        kept = outbound_messages(self.history())
        assert [m.id for m in kept] == ["u1", "a1", "t1", "t2"]


def test_a_surface_id_counts_once_the_next_token_arrives() -> None:
    """As the middleware's parser, a string value is known at the `,` or `}` after it,
    so a paint waits for that delta (found by the differential test, seed 2079)."""
    arguments = (
        '{"components": [{"id": "root", "component": "Text", "text": "x"}], "surfaceId": "s"'
    )
    processor = Processor()
    assert processor.feed_events([RUN, start("c1"), *args("c1", arguments, len(arguments))]) == []
    assert [d.op for d in processor.feed_events(args("c1", "}", 1))] == ["add"]
