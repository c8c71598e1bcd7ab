"""Conversion: an A2UI surface to the generative UI element tree of a ``present`` call.

Owns the mapping from A2UI components to vocabulary elements, binding resolution,
templates, actions, URL safety, and the depth/template/node limits.

Must not import: the reducer, events, request or shell modules. Does no I/O, no logging.

INTERFACE (implemented by the converter helper; signatures are the contract):

    class Conversion(msgspec.Struct, frozen=True):
        element: dict[str, Any] | None          # the present args, or None (no part)
        warnings: tuple[Diagnostic, ...]
        # plus whatever private memo the converter needs to reuse work next time

    class Converter:
        def __init__(self, *, limits: Limits = Limits()) -> None: ...
        def convert(self, surface: Surface, previous: Conversion | None = None) -> Conversion: ...
"""

from __future__ import annotations
