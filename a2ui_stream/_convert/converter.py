"""Conversion: an A2UI surface to the generative UI element tree of a ``present`` call.

Owns the converter's public face: :class:`Converter` (tables and limits resolved once)
and :class:`Conversion` (one result, carrying what the next conversion may reuse).
Upstream's converter (assistant-ui ``convertSurfaceToUISpec``, reference converter
sections 1f and 2) is reproduced key for key wherever its output is valid; every
element emitted also validates against :mod:`a2ui_stream._convert.vocabulary`.

The work is split by concept, each module importing only those below it:

- :mod:`a2ui_stream._convert.elements`: what each component type becomes, actions, URL safety.
- :mod:`a2ui_stream._convert.run`: one conversion in progress: traversal, limits, templates,
  scopes, binding resolution, warnings.
- :mod:`a2ui_stream._convert.reuse`: memos of converted subtrees and what changed since.
- :mod:`a2ui_stream._convert.functions`: ``formatString`` and the formatting functions.
- :mod:`a2ui_stream._convert.bindings`: binding, call and template shapes; pointers; reading data.

Must not import: the reducer, events, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream._convert.elements import HANDLERS
from a2ui_stream._convert.reuse import Basis, Memo, changes_between
from a2ui_stream._convert.run import Run, Setup
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._state.surface import ComponentChange, Surface
    from a2ui_stream._tree.patch import DataChange

__all__ = ["Conversion", "Converter"]


class Conversion(msgspec.Struct, frozen=True):
    """One surface converted: the ``present`` args and what was lost on the way.

    Attributes:
        element: the root element (the ``present`` args), or ``None`` when the surface
            has nothing to show (no root, root unknown, root over a limit).
        warnings: diagnostics in depth-first order, each naming surface and component.
    """

    element: dict[str, Any] | None
    warnings: tuple[Diagnostic, ...]
    _memo: Any = None
    _basis: Any = None


class Converter:
    """Converts surfaces to element trees, reusing unchanged subtrees of a previous result.

    The component table and limits are resolved once here; :meth:`convert` branches
    only on data. Converting is linear in the elements emitted, whatever the input.
    """

    def __init__(self, *, limits: Limits = Limits()) -> None:  # noqa: B008 (immutable default)
        """Resolve tables and limits.

        Args:
            limits: the bounds to enforce; depth, template items, nodes and string length
                are used here.
        """
        self._limits = limits
        self._setup = Setup(HANDLERS, limits)

    def convert(
        self,
        surface: Surface,
        previous: Conversion | None = None,
        *,
        known: Sequence[DataChange | ComponentChange] = (),
    ) -> Conversion:
        """Convert a surface to the ``present`` args.

        Args:
            surface: the surface to convert.
            previous: an earlier conversion of the same surface by this converter; its
                unchanged subtrees are reused. The result always equals a conversion
                without it.
            known: claims of how the data or the components changed since
                ``previous`` (read off a patch), each checked by identity; a matching
                one spares a diff of the two data models, or a walk over every
                component.

        Returns:
            The element tree (or ``None``) and the warnings. Never raises: an internal
            failure gives ``None`` and a ``convert.failed`` warning.
        """
        basis = Basis(surface, self._limits)
        try:
            changes = None
            prev_root = None
            if previous is not None:
                old, memo = previous._basis, previous._memo  # noqa: SLF001 (our own memo)
                if type(old) is Basis and type(memo) is Memo:
                    changes = changes_between(old, basis, known)
                    prev_root = memo if changes is not None else None
            run = Run(self._setup, surface, changes)
            root = run.root(surface.root_id, prev_root)
        except Exception as exc:  # noqa: BLE001 (the contract: conversion never raises)
            failure = Diagnostic(
                code="convert.failed",
                message=f"A2UI surface conversion encountered malformed input ({exc!r}).",
                surface_id=surface.surface_id,
            )
            return Conversion(element=None, warnings=(failure,))
        return Conversion(
            element=None if root is None else root.element,
            warnings=run.warnings(),
            _memo=root,
            _basis=basis,
        )
