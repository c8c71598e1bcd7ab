"""Shared subtrees: a value decoded afresh takes the identity of the equal parts of the last.

Owns ``share``, which compares decoded values, and ``share_text``, which compares their
JSON texts and decodes only what changed. Cumulative snapshots re-send whole data
models, decoded into new objects even where nothing changed; once the unchanged parts
are the previous objects again, every later stage (diffs, conversion, caches) can tell
them with an ``is`` and skip them.

Imports only the frozen types from the package; does no I/O.
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from a2ui_stream._wire.frozen import DICTS, LISTS, FrozenDict, FrozenList, freeze

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["share", "share_text"]

JSON: TypeAlias = Any
"""A decoded JSON value."""

_ENCODE = msgspec.json.Encoder().encode


def share(old: JSON, new: JSON) -> JSON:
    """Return ``new`` rebuilt to reuse every subtree of ``old`` it equals.

    Cumulative snapshots re-send a whole data model, decoded into new objects even
    where nothing changed; sharing restores the identity of the unchanged parts. Equal
    means equal as JSON: Python's ``==`` says ``1 == 1.0 == True``, so an equal pair is
    confirmed by its encoded bytes before the old object is kept.

    Args:
        old: the previous value.
        new: the value that replaces it.

    Returns:
        A value equal (as JSON) to ``new``; ``old`` itself when they are equal, otherwise
        new containers holding ``old``'s equal subtrees, frozen where ``new``'s were.
    """
    if old is new:
        return old
    if type(new) in DICTS and type(old) in DICTS:
        if old == new and _ENCODE(old) == _ENCODE(new):
            return old
        shared_dict: dict[str, Any] | None = None
        for key, value in new.items():
            before = old.get(key, _ABSENT)
            if before is value or before is _ABSENT:
                continue
            kept = share(before, value)
            if kept is not value:
                if shared_dict is None:
                    shared_dict = dict(new) if type(new) is dict else FrozenDict(new)
                dict.__setitem__(shared_dict, key, kept)
        return shared_dict if shared_dict is not None else new
    if type(new) in LISTS and type(old) in LISTS:
        if old == new and _ENCODE(old) == _ENCODE(new):
            return old
        shared_list: list[Any] | None = None
        for index, (before, value) in enumerate(zip(old, new, strict=False)):
            if before is value:
                continue
            kept = share(before, value)
            if kept is not value:
                if shared_list is None:
                    shared_list = list(new) if type(new) is list else FrozenList(new)
                list.__setitem__(shared_list, index, kept)
        return shared_list if shared_list is not None else new
    return new


_ABSENT = object()


_RAW_OBJECT = msgspec.json.Decoder(dict[str, msgspec.Raw])
_RAW_ARRAY = msgspec.json.Decoder(list[msgspec.Raw])
#: Changed paths past which :func:`share_text` stops listing them and decodes whole.
_MAX_TEXT_PATHS = 64


def share_text(
    old: JSON,
    old_text: bytes | msgspec.Raw,
    new_text: bytes | msgspec.Raw,
    decode: Callable[[bytes | msgspec.Raw], JSON],
) -> tuple[JSON, tuple[tuple[str, ...], ...] | None]:
    """Decode ``new_text``, reusing every subtree of ``old`` whose JSON text is unchanged.

    The texts lead the way: a re-sent value is compared with the previous one as bytes,
    one level at a time, each level split into its members' undecoded texts by
    msgspec, so equal subtrees are found at C speed and never decoded or walked; only
    the members whose texts differ are looked into, and only what is new is decoded.
    Unlike :func:`share`, it also says where the values differ.

    Args:
        old: the previous value, as decoded from ``old_text`` (or sharing with it).
        old_text: the JSON text ``old`` was decoded from.
        new_text: the JSON text of the new value.
        decode: decodes one JSON text as ``old``'s was decoded.

    Returns:
        The new value, frozen, holding ``old``'s subtrees wherever their texts are the
        same; and the paths (as reference tokens) where the texts differ, or ``None`` past
        :data:`_MAX_TEXT_PATHS` of them. Equal values written differently (``1.0`` and
        ``1``, other spacing) count as changed, which only costs sharing. Past that many
        changes the value is decoded whole: when nearly every value changed (a live
        dashboard), decoding each one apart costs more than decoding them all at once.

    Raises:
        msgspec.DecodeError: ``new_text`` is not JSON, or ``decode`` refused part of it.
    """
    sharing = _TextSharing(decode)
    try:
        shared = sharing.value(old, old_text, new_text, ())
    except _TooManyChanges:
        return freeze(decode(new_text)), None
    paths = sharing.paths
    return shared, tuple(paths) if len(paths) <= _MAX_TEXT_PATHS else None


class _TooManyChanges(Exception):  # noqa: N818 - a signal inside share_text, never raised out
    """More texts differ than sharing is worth."""


_Text: TypeAlias = "bytes | msgspec.Raw"
_OBJECT_START, _ARRAY_START = ord("{"), ord("[")


class _TextSharing:
    """One :func:`share_text` call: the decoder it uses and the paths found changed."""

    __slots__ = ("decode", "paths")

    def __init__(self, decode: Callable[[_Text], JSON]) -> None:
        self.decode = decode
        self.paths: list[tuple[str, ...]] = []

    def value(self, old: JSON, old_text: _Text, new_text: _Text, path: tuple[str, ...]) -> JSON:
        if old_text == new_text:
            return old
        kind = type(old)
        lead = memoryview(new_text)[0]  # a value's text starts at its first byte
        if kind in DICTS and lead == _OBJECT_START:
            return self.members(old, old_text, new_text, path)
        if kind in LISTS and lead == _ARRAY_START:
            return self.items(old, old_text, new_text, path)
        return self.changed(new_text, path)

    def changed(self, new_text: _Text, path: tuple[str, ...]) -> JSON:
        self.paths.append(path)
        if len(self.paths) > _MAX_TEXT_PATHS:
            raise _TooManyChanges
        return self.fresh(new_text)

    def fresh(self, text: _Text) -> JSON:
        """A new part decoded, and frozen as the rest of the value is."""
        return freeze(self.decode(text))

    def members(
        self, old: dict[str, JSON], old_text: _Text, new_text: _Text, path: tuple[str, ...]
    ) -> JSON:
        old_parts, new_parts = _RAW_OBJECT.decode(old_text), _RAW_OBJECT.decode(new_text)
        if list(old_parts) != list(old):
            return self.changed(new_text, path)  # the old text does not hold the old value
        keys = list(new_parts)
        if keys == list(old):  # the common case: the same members, found changed in C
            out = FrozenDict(old)
            changed = compress(keys, map(ne, old_parts.values(), new_parts.values()))
        else:
            common = [key for key in keys if key in old]
            if common != [key for key in old if key in new_parts]:
                return self.changed(new_text, path)  # members moved: order is part of the value
            fresh = self.fresh
            out = FrozenDict(
                {key: old[key] if key in old else fresh(new_parts[key]) for key in keys}
            )
            self.paths.extend((*path, key) for key in sorted(old.keys() ^ new_parts.keys()))
            changed = compress(
                common, map(ne, map(old_parts.get, common), map(new_parts.get, common))
            )
        for key in changed:
            value = self.value(old[key], old_parts[key], new_parts[key], (*path, key))
            dict.__setitem__(out, key, value)
        return out

    def items(
        self, old: list[JSON], old_text: _Text, new_text: _Text, path: tuple[str, ...]
    ) -> JSON:
        old_parts, new_parts = _RAW_ARRAY.decode(old_text), _RAW_ARRAY.decode(new_text)
        if len(old_parts) != len(old):
            return self.changed(new_text, path)
        shorter = min(len(old), len(new_parts))
        # The items whose texts match are taken in C; only the rest are decoded.
        out = FrozenList(old[:shorter])
        list.extend(out, map(self.fresh, new_parts[shorter:]))
        for index in compress(range(shorter), map(ne, old_parts, new_parts)):
            value = self.value(old[index], old_parts[index], new_parts[index], (*path, str(index)))
            list.__setitem__(out, index, value)
        longer = max(len(old), len(new_parts))
        self.paths.extend((*path, str(index)) for index in range(shorter, longer))
        return out
