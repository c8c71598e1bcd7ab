"""Surface state: immutable values, and the semantics of each A2UI operation on them.

Owns :class:`Surface` and the pure functions that apply normalised operations to a
mapping of surfaces. Every function returns new values and never mutates its input;
unchanged parts (component dicts, data subtrees) keep their identity so later stages
can skip work with an ``is`` check.

Must not import: conversion, request or shell modules. Does no I/O, no logging.

INTERFACE (implemented by the a2ui helper; signatures are the contract):

    Surfaces = Mapping[str, Surface]   # by surfaceId, insertion-ordered, never mutated
    apply_operation(surfaces: Surfaces, op: Operation, *, index: int, limits: Limits)
        -> tuple[Surfaces, tuple[Diagnostic, ...]]
    apply_operations(surfaces: Surfaces, ops: Iterable[Operation | Diagnostic], *, limits)
        -> tuple[Surfaces, tuple[Diagnostic, ...]]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream.a2ui import Component

__all__ = ["Surface"]


class Surface(msgspec.Struct, frozen=True, kw_only=True):
    """One surface as its operations so far built it.

    Attributes:
        surface_id: the surface's id.
        version: A2UI version of the operation that created it.
        components: components by id. Never mutated: an update makes a new mapping and
            keeps the unchanged :class:`Component` objects.
        data_model: the data model; ``UNSET`` when none was ever written (distinct from null).
        root_id: id of the root component: ``"root"`` for v0.9/v1.0, the ``beginRendering``
            root for v0.8, ``None`` while a v0.8 surface has not been told to render.
        catalog_id: the catalog named at creation, if any.
    """

    surface_id: str
    version: str
    components: Mapping[str, Component]
    data_model: Any | UnsetType = UNSET
    root_id: str | None = "root"
    catalog_id: str | None = None
