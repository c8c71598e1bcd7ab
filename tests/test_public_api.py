"""The public surface is pinned: nothing leaks into ``a2ui_stream`` by accident."""

from __future__ import annotations

import a2ui_stream

DOCUMENTED = {
    "__version__",
    "SCHEMA_CONTEXT_DESCRIPTION",
    "A2uiRequest",
    "A2uiStreamError",
    "Catalog",
    "Code",
    "Diagnostic",
    "EventLog",
    "FileLog",
    "HistoryEntry",
    "Lifecycle",
    "Limits",
    "LogLockedError",
    "LogRefusedError",
    "MemoryLog",
    "Part",
    "PartAdded",
    "PartDiff",
    "PartRemoved",
    "PartUpdated",
    "Processor",
    "Reducer",
    "RunState",
    "Severity",
    "StreamState",
    "UsageError",
    "a2ui",
    "action_forwarded_props",
    "action_message",
    "action_text",
    "aiter_diffs",
    "answer_render_call",
    "basic_catalog",
    "build_run_input",
    "catalog_context",
    "decode_event",
    "encode_event",
    "events",
    "guide_context_description",
    "iter_diffs",
    "outbound_messages",
    "render_tool",
    "replay",
}


class TestPublicApi:
    def test_all_is_the_documented_list(self) -> None:
        """__all__ names exactly the documented public API."""
        assert set(a2ui_stream.__all__) == DOCUMENTED

    def test_every_name_resolves(self) -> None:
        """Every name in __all__ is importable from the package root."""
        for name in a2ui_stream.__all__:
            assert getattr(a2ui_stream, name) is not None

    def test_base_error_cannot_be_raised_bare(self) -> None:
        """The base exception refuses direct use so every raise names its kind."""
        try:
            a2ui_stream.A2uiStreamError("x")
        except TypeError:
            pass
        else:
            raise AssertionError("A2uiStreamError was constructed bare")
