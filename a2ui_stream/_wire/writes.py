"""Data writes read lazily: an ``updateDataModel`` message with its value left as text.

Owns the two readings a caller needs to build a re-sent value more cheaply than by
decoding it: the undecoded text of a message's ``value`` (:func:`data_value_text`),
and the operation of a plain data write decoded all but its value
(:func:`decode_data_write`), which is the operation :func:`~a2ui_stream.a2ui.decode_operation`
gives once the value is filled in.

Must not import: state, conversion, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

import msgspec

from a2ui_stream._wire.a2ui import UpdateDataModel
from a2ui_stream._wire.envelope import data_path, open_data_write

__all__ = ["data_value_text", "decode_data_write"]

_NULL = b"null"


def decode_data_write(raw: bytes | msgspec.Raw) -> tuple[UpdateDataModel, msgspec.Raw] | None:
    """Decode a plain ``updateDataModel`` message, all but its value.

    For a caller that can build the value more cheaply than decoding it (sharing it
    with a value it already has, text against text): the operation comes back with
    ``value`` unset, beside the value's text. Plain means what
    :func:`~a2ui_stream._wire.envelope.open_data_write` says, and a value that is not
    ``null``; such a message decodes with no warning, and for every other message the
    answer is ``None``.

    Args:
        raw: the JSON text of one message.

    Returns:
        The operation (value unset) and the value's text, or ``None``. With the text
        decoded as :func:`~a2ui_stream.a2ui.decode_operation` decodes values, the
        operation is the one it gives.
    """
    opened = open_data_write(raw)
    if opened is None:
        return None
    _family, surface_id, wire_path, value = opened
    path = data_path(wire_path, v08=False)
    if path is None or memoryview(value) == _NULL:
        return None
    return UpdateDataModel(surface_id=surface_id, path=path), value


_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])


def data_value_text(raw: bytes | msgspec.Raw) -> msgspec.Raw | None:
    """The undecoded ``value`` of an ``updateDataModel`` message (v0.9, v1.0).

    Args:
        raw: the JSON text of one message.

    Returns:
        The text of ``updateDataModel.value``, from which
        :func:`~a2ui_stream.a2ui.decode_operation` decodes the operation's value; ``None``
        for any other message, or one whose value is absent.
    """
    try:
        write = _MEMBERS.decode(raw).get("updateDataModel")
        return None if write is None else _MEMBERS.decode(write).get("value")
    except (msgspec.DecodeError, RecursionError):
        return None
