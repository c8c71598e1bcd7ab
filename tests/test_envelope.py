"""Tests for the A2UI envelope: opening messages, routing by version, wire-level rules."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec import UNSET

from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.envelope import (
    _FAMILY_KEYS,
    _IMPLIED_VERSION,
    _ROUTES,
    _VERSIONS,
    CreateSurfaceWire,
    DeleteSurfaceWire,
    data_path,
    metadata_problem,
    open_bytes,
    open_object,
)

ENCODE = msgspec.json.Encoder().encode


class TestRoutes:
    def test_every_version_routes_its_family_keys(self) -> None:
        """Each version string routes exactly the operation keys of its family."""
        for version, family in _VERSIONS.items():
            keys = {
                key for (v, _), (key, fam, _) in _ROUTES.items() if v == version and fam == family
            }
            assert keys == _FAMILY_KEYS[family]

    def test_absent_version_routes_by_key(self) -> None:
        """Without ``version`` every operation key routes to its implied family."""
        routed = {key: family for (v, _), (key, family, _) in _ROUTES.items() if v is UNSET}
        assert routed == _IMPLIED_VERSION


class TestOpen:
    def test_bytes_and_object_open_alike(self) -> None:
        """Both entry points give the key, the payload Struct, the family and no warnings."""
        message = {"version": "v0.9.1", "deleteSurface": {"surfaceId": "s"}}
        expected: tuple[Any, ...] = ("deleteSurface", DeleteSurfaceWire(surface_id="s"), "v0.9", [])
        assert open_bytes(ENCODE(message), 0) == expected
        assert open_object(message, 0) == expected

    def test_foreign_fields_warn(self) -> None:
        """A v1.0-only createSurface field under v0.9 is kept out with a warning."""
        message = {"version": "v0.9", "createSurface": {"surfaceId": "s", "dataModel": {}}}
        opened = open_bytes(ENCODE(message), 3)
        assert not isinstance(opened, Diagnostic)
        key, payload, family, warnings = opened
        assert (key, family) == ("createSurface", "v0.9")
        assert isinstance(payload, CreateSurfaceWire)
        assert [(w.code, w.path) for w in warnings] == [
            ("op.unknown_field", "$[3].createSurface.dataModel")
        ]

    @pytest.mark.parametrize("version", [["v0.9"], {"v": 1}, 0.9, True])
    def test_unhashable_or_odd_versions_are_unsupported(self, version: Any) -> None:
        """A version of any non-string shape is refused, never raised on."""
        message = {"version": version, "deleteSurface": {"surfaceId": "s"}}
        for opened in (open_bytes(ENCODE(message), 0), open_object(message, 0)):
            assert isinstance(opened, Diagnostic)
            assert opened.code == "op.unsupported_version"

    def test_unknown_key_without_version(self) -> None:
        """An unknown key with no version is an unknown operation, not a version problem."""
        opened = open_object({"action": {"name": "x"}}, 1)
        assert isinstance(opened, Diagnostic)
        assert opened.code == "op.unknown"
        assert opened.path == "$[1].action"

    def test_slow_path_drops_unknown_fields(self) -> None:
        """Unknown payload fields are warned about and the payload opened without them."""
        opened = open_bytes(b'{"deleteSurface": {"surfaceId": "s", "x": 1}}', 0)
        assert not isinstance(opened, Diagnostic)
        assert opened[1] == DeleteSurfaceWire(surface_id="s")
        assert [w.code for w in opened[3]] == ["op.unknown_field"]


class TestDataPath:
    @pytest.mark.parametrize(
        ("path", "v08", "expected"),
        [
            (UNSET, False, ""),
            (None, False, ""),
            ("", False, ""),
            ("/", False, ""),
            ("/a/b", False, "/a/b"),
            ("a", False, None),
            ("a", True, "/a"),
            (3, True, None),
            (["/a"], False, None),
        ],
    )
    def test_normalised(self, path: Any, v08: Any, expected: Any) -> None:
        """Paths as sent become absolute pointers, ``""`` for the whole model, or None."""
        assert data_path(path, v08=v08) == expected


class TestMetadata:
    @pytest.mark.parametrize("metadata", [{}, {"extensions": {}}, {"extensions": {"_ok1": 1}}])
    def test_valid(self, metadata: Any) -> None:
        """Metadata holding only identifier-keyed extensions passes."""
        assert metadata_problem(metadata, index=0, where=".m") is None

    @pytest.mark.parametrize(
        ("metadata", "where"),
        [
            ([], "$[0].m"),
            ({"other": 1}, "$[0].m"),
            ({"extensions": []}, "$[0].m.extensions"),
            ({"extensions": {"1x": 1}}, "$[0].m.extensions"),
        ],
    )
    def test_invalid_warns(self, metadata: Any, where: Any) -> None:
        """Other shapes give an ``op.bad_metadata`` warning located at the bad part."""
        found = metadata_problem(metadata, index=0, where=".m")
        assert found is not None
        assert (found.code, found.severity, found.path) == (
            "op.bad_metadata",
            Severity.WARNING,
            where,
        )
