"""The interactive mode of ``a2ui-stream run``: a prompt loop with numbered actions.

Owns reading turns from a person (a line is a user turn; a number presses that
action, ``2 seats=1`` with what a form would have collected), and showing each run as
text: the agent's new messages, then each part as an outline of its element tree, with
every pressable ``$action`` numbered and every form field's ``name`` shown. A failed
run is reported and the conversation goes on. Reads standard input on a daemon thread
of its own, so the event loop keeps running, Ctrl-C still cancels a run cleanly, and
Ctrl-C at the prompt ends the program at once (a worker thread of anyio's, blocked in a
read nobody will finish, would keep the interpreter from exiting).
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any, Final, TextIO

import anyio
import anyio.from_thread
import anyio.lowlevel

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


async def _line(read: Callable[[], str]) -> str:
    """One line from ``read``, called on a daemon thread; a cancelled wait abandons it."""
    token = anyio.lowlevel.current_token()
    done = anyio.Event()
    outcome: list[str | BaseException] = []

    def work() -> None:
        try:
            outcome.append(read())
        except BaseException as error:  # noqa: BLE001 - handed to the waiting task
            outcome.append(error)
        # The loop is gone when the wait was cancelled and the program ended.
        with contextlib.suppress(RuntimeError):
            anyio.from_thread.run_sync(done.set, token=token)

    threading.Thread(target=work, name="a2ui-stream-prompt", daemon=True).start()
    await done.wait()
    (result,) = outcome
    if isinstance(result, BaseException):
        raise result
    return result


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
) -> AgentError | None:
    """Hold the conversation until an empty line or end of input.

    Args:
        session: the open session to talk through.
        read: reads one line (without its newline); raises ``EOFError`` at the end.
        out: where the conversation is shown.
        report: shows one failure line (a run that did not complete, a bad press).
        drain: called after each run (to show its diagnostics).

    Returns:
        The first run's failure, if a run failed (the conversation went on after it),
        so that the command can still exit with its code.
    """
    out.write(HELP + "\n")
    actions: list[dict[str, Any]] = []
    first: AgentError | None = None
    while True:
        out.write(_PROMPT)
        out.flush()
        try:
            line = (await _line(read)).strip()
        except EOFError:
            line = ""
        if not line:
            return first
        before = len(session.messages)
        try:
            word = line.split()[0]
            if word.isdigit() and word.isascii():  # "²" is a digit, but no number of ours
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
            first = first or error
        drain()
        lines = _said(before, session)
        actions = []
        for part in session.parts:
            lines.extend(outline(part, actions))
        out.write("\n".join(lines) + "\n" if lines else "")
