"""JSON numbers read and printed as JavaScript reads and prints them.

Owns the one rule that keeps our output byte-identical to a JavaScript client's:
JavaScript has a single number type, the double, so ``2.0`` in the input is the number
2 and prints as ``2``, ``-0`` prints as ``0``, and ``9007199254740993`` is the double
``9007199254740992``. Python keeps ``2.0`` a float and would print ``2.0``; decoders
of free-form JSON (A2UI props and data, activity content) pass :func:`js_number` as
msgspec's ``float_hook`` so integral values become ``int``. An integer written without
a fraction stays Python's exact ``int``; :func:`number_text` (``String()``) and
:func:`as_double` read one past ``2**53`` as the double JavaScript would hold.

Must not import anything from the package.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["MAX_SAFE_INTEGER", "as_double", "js_number", "number_text"]

#: Largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
#: Beyond it JavaScript prints shortest round-trip digits, not the exact value, so a
#: float is kept (and an exact ``int`` read as its double, :func:`as_double`).
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


def number_text(value: float) -> str:
    """A number as JavaScript's ``String()`` prints it (ECMA-262 Number::toString).

    JavaScript has only doubles: an integer past ``2**53`` prints as the double it
    rounds to (``9007199254740993`` as ``9007199254740992``), one too large for a
    double as ``Infinity``; values from ``1e21`` up, and below ``1e-6``, print in
    exponent form with an explicit sign (``1.2345678901234568e+29``), the rest in
    fixed form with the shortest digits that read back.

    Args:
        value: an ``int`` or ``float`` (not a ``bool``).

    Returns:
        The text ``String(value)`` gives.
    """
    # Literals, not the named constants: this runs for every number put into text.
    if type(value) is int:
        if -9007199254740991 <= value <= 9007199254740991:  # MAX_SAFE_INTEGER: exact
            return str(value)
        value = as_double(value)
    if value != value:  # noqa: PLR0124 (NaN test)
        return "NaN"
    if value in _INFINITIES:
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and -1e16 < value < 1e16:  # exact below 1e16, as JavaScript prints
        return str(int(value))
    text = repr(value)  # the shortest digits that read back, as JavaScript picks them
    if "e" not in text:  # Python's fixed range (1e-4 to 1e16) lies inside JavaScript's
        return text
    if 1e-6 <= abs(value) < 1e21:  # JavaScript: fixed notation from 1e-6 up to 1e21
        return format(Decimal(text), "f")
    mantissa, _, exponent = text.partition("e")
    sign = "-" if exponent.startswith("-") else "+"
    return f"{mantissa}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"


def as_double(value: int) -> float:
    """The double an integer is in JavaScript: rounded to nearest, or an infinity."""
    try:
        return float(value)
    except OverflowError:
        return _INFINITIES[0] if value > 0 else _INFINITIES[1]
