"""The interactive mode of ``a2ui-stream run``: a prompt loop with numbered actions.

Owns reading turns from a person (a line is a user turn; a number presses that
action, ``2 seats=1`` with what a form would have collected), and showing each run as
text: the agent's new messages, then each part as an outline of its element tree, with
every pressable ``$action`` numbered and every form field's ``name`` shown. A failed
run is reported and the conversation goes on. Reads standard input on a worker thread,
so the event loop keeps running (and Ctrl-C still cancels a run cleanly).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TextIO

import anyio
import anyio.to_thread

from a2ui_stream._view.text import printable
from a2ui_stream._wire import events as ev
from a2ui_stream.errors import AgentError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from a2ui_stream._shell.client import AgentSession
    from a2ui_stream._state.stream import Part

__all__ = ["HELP", "chat", "outline"]

HELP: Final = (
    "Type a message and press Enter. A number presses that action; add what a form "
    "would send as name=value (e.g. 1 seats=2). An empty line or Ctrl-D ends."
)
#: The props that hold an element's text, in the order one is looked for.
_TEXT_PROPS: Final = ("title", "text", "value", "label", "placeholder")
_PROMPT: Final = "you> "


def outline(part: Part, actions: list[dict[str, Any]]) -> list[str]:
    """A part as lines of text: one per element that shows something, indented by depth.

    Args:
        part: the part to show.
        actions: where each pressable ``$action`` found is appended; its number on
            screen is its position there, counted from 1.

    Returns:
        The lines, starting with the surface id.
    """
    lines = [f"[{printable(part.surface_id)}]"]
    for depth, element in _walk(part.args, 1):
        words = [printable(str(element.get("$type", "?")))]
        shown = next((element[key] for key in _TEXT_PROPS if isinstance(element.get(key), str)), "")
        if shown:
            words.append(repr(shown))
        if isinstance(element.get("name"), str):
            words.append(f"[{printable(element['name'])}=]")
        action = element.get("$action")
        if isinstance(action, dict) and action.get("type") == "a2ui:action":
            actions.append(action)
            words.insert(0, f"{len(actions)})")
        lines.append("  " * depth + " ".join(words))
    return lines


def _walk(node: Any, depth: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every element of a tree with its depth, in document order (children last)."""
    if isinstance(node, list):
        for item in node:
            yield from _walk(item, depth)
        return
    if not isinstance(node, dict):
        return
    yield depth, node
    yield from _walk(node.get("children"), depth + 1)


def _press(line: str, actions: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, str]]:
    """Read ``N [name=value]...`` as the press of action N with what the form collected."""
    number, *fields = line.split()
    index = int(number)
    if not 1 <= index <= len(actions):
        raise UsageError(f"no action {index}: there are {len(actions)}")
    collected: dict[str, str] = {}
    for field in fields:
        name, equals, value = field.partition("=")
        if not equals or not name:
            raise UsageError(f"{field!r} is not name=value")
        collected[name] = value
    return actions[index - 1], collected


def _said(before: int, session: AgentSession) -> list[str]:
    """The text of the assistant messages the last run added to the thread."""
    return [
        f"agent: {printable(message.content, keep=chr(10))}"
        for message in session.messages[before:]
        if isinstance(message, ev.AssistantMessage) and isinstance(message.content, str)
        if message.content
    ]


async def chat(
    session: AgentSession,
    *,
    read: Callable[[], str],
    out: TextIO,
    report: Callable[[str], None],
    drain: Callable[[], None],
) -> None:
    """Hold the conversation until an empty line or end of input.

    Args:
        session: the open session to talk through.
        read: reads one line (without its newline); raises ``EOFError`` at the end.
        out: where the conversation is shown.
        report: shows one failure line (a run that did not complete, a bad press).
        drain: called after each run (to show its diagnostics).
    """
    out.write(HELP + "\n")
    actions: list[dict[str, Any]] = []
    while True:
        out.write(_PROMPT)
        out.flush()
        try:
            line = (await anyio.to_thread.run_sync(read, abandon_on_cancel=True)).strip()
        except EOFError:
            line = ""
        if not line:
            return
        before = len(session.messages)
        try:
            if line.split()[0].isdigit():
                action, collected = _press(line, actions)
                diffs = session.press(action, input=collected or None)
            else:
                diffs = session.send(line)
        except UsageError as error:  # a bad press: nothing was sent
            report(str(error))
            continue
        try:
            async for _diff in diffs:
                pass  # shown once the run is over: an outline per part, not per update
        except AgentError as error:
            report(str(error))  # what it drew before is shown all the same
        drain()
        lines = _said(before, session)
        actions = []
        for part in session.parts:
            lines.extend(outline(part, actions))
        out.write("\n".join(lines) + "\n" if lines else "")
