"""Component catalogs: what a client can draw, and the context entry that tells the agent.

:class:`Catalog` is a catalog document, :func:`basic_catalog` the A2UI basic catalog of
a version, and :func:`catalog_context` the schema entry a run carries. The definitions
live in ``a2ui_stream._request``; this module is their public name.
"""

from __future__ import annotations

from a2ui_stream._request.catalog import (
    BASIC_CATALOG_IDS,
    Catalog,
    basic_catalog,
    catalog_context,
)

__all__ = [
    "BASIC_CATALOG_IDS",
    "Catalog",
    "basic_catalog",
    "catalog_context",
]
