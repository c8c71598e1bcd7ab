"""How a Struct's fields are spelled on the wire, read off the class.

Owns :func:`wire_names`. ``msgspec.structs.fields`` says the same and more, but it
resolves every annotation of the class to say it, which made importing the package
spend a third of its time on tables of wire names (measured with cachegrind: see the
commit). A Struct class keeps its attribute names and their encoded names, in one
order, as ``__struct_fields__`` and ``__struct_encode_fields__``; reading those costs
nothing. Imports nothing of the package; does no I/O.
"""

from __future__ import annotations

from typing import Any

__all__ = ["wire_names"]


def wire_names(cls: type[Any]) -> dict[str, str]:
    """A Struct class's fields: each wire (encoded) name and the attribute it sets.

    Args:
        cls: a ``msgspec.Struct`` subclass.

    Returns:
        Wire name to attribute name, in the order the class declares its fields.
    """
    return dict(zip(cls.__struct_encode_fields__, cls.__struct_fields__, strict=True))
