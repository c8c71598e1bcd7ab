"""JSON numbers read as JavaScript reads them.

Owns the one rule that keeps our output byte-identical to a JavaScript client's:
JavaScript has a single number type, so ``2.0`` in the input is the number 2 and prints
as ``2``, and ``-0`` prints as ``0``. Python keeps ``2.0`` a float and would print
``2.0``; decoders of free-form JSON (A2UI props and data, activity content) pass
:func:`js_number` as msgspec's ``float_hook`` so integral values become ``int``.

Must not import anything from the package.
"""

from __future__ import annotations

__all__ = ["MAX_SAFE_INTEGER", "js_number"]

#: Largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
#: Beyond it JavaScript prints shortest round-trip digits, not the exact value, so a
#: float is kept and printed as msgspec prints it.
MAX_SAFE_INTEGER = 2**53 - 1


def js_number(text: str) -> int | float:
    """Decode a JSON number written with a fraction or exponent.

    Args:
        text: the number's JSON text, as msgspec hands it to a ``float_hook``.

    Returns:
        An ``int`` when the value is integral and safe (so ``2.0`` is ``2`` and ``-0.0``
        is ``0``), otherwise the ``float``.

    Raises:
        ValueError: the number is out of a double's range (``1e400``), as msgspec itself
            reports it; msgspec turns this into a ``ValidationError`` with the JSON path.
    """
    value = float(text)
    if value.is_integer() and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return int(value)
    if value in _INFINITIES:
        raise ValueError("number out of range")
    return value


_INFINITIES = (float("inf"), float("-inf"))
