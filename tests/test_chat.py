"""The terminal conversation (``_shell.chat``): parts as outlines, presses by number."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import anyio

from a2ui_stream._shell.chat import HELP, chat, outline
from a2ui_stream._state.stream import Part
from a2ui_stream._wire import events as ev
from a2ui_stream.errors import RunFailedError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from a2ui_stream._shell.client import AgentSession

ACTION = {"type": "a2ui:action", "name": "book", "surfaceId": "s", "sourceComponentId": "b"}
FORM = Part.of(
    "s",
    "m",
    {
        "$type": "Card",
        "title": "Flight",
        "children": [
            {"$type": "Input", "name": "seats", "label": "Seats"},
            {"$type": "Button", "label": "Book", "$action": ACTION},
            {"$type": "Button", "label": "Open", "$action": {"type": "a2ui:function"}},
        ],
    },
)


def test_the_prompt_loop_shows_agent_text_escaped() -> None:
    """Surface ids, types and names an agent wrote are shown with their controls escaped."""
    part = Part(
        surface_id="s\x1b[31m",
        message_id="m",
        tool_call_id="a2ui:s",
        args={"$type": "Input\x07", "name": "q\u202e", "children": []},
    )
    lines = outline(part, [])
    assert lines == [r"[s\x1b[31m]", r"  Input\x07 [q\u202e=]"]


def test_outline_numbers_the_actions() -> None:
    """One line per element, indented; each a2ui:action pressable by its number."""
    actions: list[dict[str, Any]] = []
    assert outline(FORM, actions) == [
        "[s]",
        "  Card 'Flight'",
        "    Input 'Seats' [seats=]",
        "    1) Button 'Book'",
        "    Button 'Open'",
    ]
    assert actions == [ACTION]
    second = Part.of("t", "m", {"$type": "Button", "label": "Again", "$action": ACTION})
    assert outline(second, actions)[1] == "  2) Button 'Again'"


class FakeSession:
    """What chat() reads of a session: its messages and parts, send and press."""

    def __init__(self, *, fail: bool = False) -> None:
        self.messages: list[Any] = []
        self.parts: tuple[Part, ...] = ()
        self.calls: list[tuple[str, Any, Any]] = []
        self.fail = fail

    async def _run(self) -> AsyncIterator[Any]:
        self.messages.append(ev.AssistantMessage(id="a", content="done\x1b"))
        self.parts = (FORM,)
        if self.fail:
            raise RunFailedError("the run failed: boom")
        for _ in ():
            yield None

    def send(self, text: str) -> AsyncIterator[Any]:
        self.calls.append(("send", text, None))
        return self._run()

    def press(self, action: Any, *, input: Any = None) -> AsyncIterator[Any]:  # noqa: A002
        self.calls.append(("press", action, input))
        return self._run()


def talk(session: FakeSession, *lines: str) -> tuple[str, list[str], int]:
    """Hold a conversation of ``lines``: what was shown, what was reported, drains."""
    typed = iter(lines)
    out = io.StringIO()
    reported: list[str] = []
    drained: list[int] = []

    def read() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    anyio.run(
        lambda: chat(
            cast("AgentSession", session),
            read=read,
            out=out,
            report=reported.append,
            drain=lambda: drained.append(1),
        )
    )
    return out.getvalue(), reported, len(drained)


def test_a_message_then_a_press_with_its_form() -> None:
    """Text is sent; ``N name=value`` presses action N with what the form collected."""
    session = FakeSession()
    shown, reported, drains = talk(session, "hi there", "1 seats=2", "")
    assert session.calls == [("send", "hi there", None), ("press", ACTION, {"seats": "2"})]
    assert shown.startswith(HELP + "\nyou> ")
    assert "agent: done\\x1b" in shown
    assert "    1) Button 'Book'" in shown
    assert (reported, drains) == ([], 2)


def test_bad_presses_are_reported_and_nothing_is_sent() -> None:
    """A number with no action (0 included), or a field without ``=``, sends nothing."""
    session = FakeSession()
    _, reported, drains = talk(session, "1", "hello", "2", "0", "1 seats")
    assert reported == [
        "no action 1: there are 0",
        "no action 2: there are 1",
        "no action 0: there are 1",
        "'seats' is not name=value",
    ]
    assert session.calls == [("send", "hello", None)]
    assert drains == 1


def test_a_digit_of_another_script_is_text_not_a_press() -> None:
    """A superscript or Arabic-Indic digit is one to ``str.isdigit``, but names no action."""
    session = FakeSession()
    _, reported, _ = talk(session, "\u00b2 seats", "\u0661")
    assert reported == []
    assert session.calls == [("send", "\u00b2 seats", None), ("send", "\u0661", None)]


def test_a_failed_run_shows_what_it_drew() -> None:
    """A run that fails is reported, and its parts are still outlined; end of input ends."""
    shown, reported, _ = talk(FakeSession(fail=True), "go")
    assert reported == ["the run failed: boom"]
    assert "[s]" in shown
