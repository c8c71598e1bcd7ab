"""The wire strings of A2UI over AG-UI that both the response and the request side use.

Owns the names a client and an agent (or ``@ag-ui/a2ui-middleware`` between them) must
agree on byte for byte: the activity type and content key that carry operations, the
``present`` parts a client synthesises and their reserved tool-call id prefix, the
render tool's default name, the ``forwardedProps`` keys, and the schema context
entry's description, which upstream readers match by exact equality
(``shared/reference/request-side.md`` section 1; ``agui-a2ui-middleware.md`` 2.7).
Each is written once here. Imports nothing.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "A2UI_ACTIVITY_TYPE",
    "ACTION_KEY",
    "INJECT_TOOL_KEY",
    "OPERATIONS_KEY",
    "PRESENT_TOOL_NAME",
    "RENDER_TOOL_NAME",
    "SCHEMA_CONTEXT_DESCRIPTION",
    "TOOL_CALL_PREFIX",
    "USER_ACTION_KEY",
]

#: The activity type that carries A2UI surfaces (AG-UI middleware convention).
A2UI_ACTIVITY_TYPE: Final = "a2ui-surface"
#: Key of the operation list in an a2ui-surface activity's content, and in tool results.
OPERATIONS_KEY: Final = "a2ui_operations"
#: The tool name every synthesized surface part carries.
PRESENT_TOOL_NAME: Final = "present"
#: Prefix of synthesized tool-call ids; reserved, never used by genuine agent calls.
TOOL_CALL_PREFIX: Final = "a2ui:"
#: The render tool's default name, as upstream's middleware and adapters use it.
RENDER_TOOL_NAME: Final = "render_a2ui"
#: ``forwardedProps`` key that asks an adapter to give its agent the A2UI tool.
INJECT_TOOL_KEY: Final = "injectA2UITool"
#: ``forwardedProps`` key holding a user action for the middleware.
ACTION_KEY: Final = "a2uiAction"
#: Key inside ``forwardedProps.a2uiAction`` holding the action itself.
USER_ACTION_KEY: Final = "userAction"
#: Description of the schema context entry, byte for byte what upstream matches (it
#: contains a U+2014 em dash).
SCHEMA_CONTEXT_DESCRIPTION: Final = (
    "A2UI Component Schema \u2014 available components for generating UI surfaces. "
    "Use these component names and properties when creating A2UI operations."
)
