"""JSON numbers read and printed as JavaScript reads and prints them.

Owns the one rule that keeps our output byte-identical to a JavaScript client's:
JavaScript has a single number type, the double, so ``2.0`` in the input is the number
2 and prints as ``2``, ``-0`` prints as ``0``, ``1e21`` as ``1e+21`` and
``9007199254740993`` is the double ``9007199254740992``.

The rule is applied where numbers are read, so printing them costs nothing. Decoders of
free-form JSON (A2UI props and data, activity content) pass :func:`js_number` as
msgspec's ``float_hook``: integral values below ``1e21`` become ``int`` (msgspec prints
an int's digits, as JavaScript prints the double), and the few doubles msgspec prints
otherwise than JavaScript (``-0.0``, magnitudes from ``1e-6`` below ``1e-5``, and from
``1e21`` up) become :class:`JsFloat`, a ``float`` that only says so. msgspec hands a
float subclass to its ``enc_hook``: :func:`js_text` writes it as JavaScript does, and
every other number is msgspec's own. Encoders whose JSON is read back rather than shown
(sizes, equality, events re-encoded) pass :func:`keep_double` instead.

An integer written without a fraction reaches no hook (msgspec has none for integers)
and stays Python's exact ``int``; :func:`number_text` (``String()``), :func:`as_double`
and ``formatNumber`` read one past ``2**53`` as the double JavaScript would hold, and
:class:`JsonEncoder` (``JSON.stringify``) prints it so: such an integer has 16 digits or
more, which one translation and one literal search find.

Must not import anything from the package.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import msgspec

__all__ = [
    "MAX_SAFE_INTEGER",
    "JsFloat",
    "JsonEncoder",
    "as_double",
    "encode_json",
    "js_number",
    "js_text",
    "keep_double",
    "number_text",
]

#: Largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
#: Beyond it JavaScript prints shortest round-trip digits, not the exact value, so an
#: exact ``int`` is read as its double (:func:`as_double`).
MAX_SAFE_INTEGER = 2**53 - 1


class JsFloat(float):
    """A double whose JSON text in msgspec is not JavaScript's: ``-0.0``, ``1.5e-6``, ``1e21``.

    It is the float it holds, nothing more: it compares, hashes and computes as that
    float (arithmetic gives plain floats). It exists so that msgspec, which hands a
    float subclass to its ``enc_hook``, lets :func:`js_text` print it as JavaScript
    does; msgspec encodes it only with such a hook (``enc_hook=float`` gives msgspec's
    own text).
    """

    __slots__ = ()


def js_number(text: str) -> int | float:
    """Decode a JSON number written with a fraction or exponent.

    Args:
        text: the number's JSON text, as msgspec hands it to a ``float_hook``.

    Returns:
        An ``int`` when the value is integral and below ``1e21``, exactly the double
        (``2.0`` is ``2``, ``1e16`` is ``10000000000000000``), so msgspec prints digits
        as JavaScript does (past ``2**53`` :class:`JsonEncoder` prints the digits
        JavaScript picks); a :class:`JsFloat` where msgspec's text is not JavaScript's:
        ``-0.0`` (it prints as ``0`` but keeps its sign for ``formatNumber``, as
        ``Intl.NumberFormat`` shows ``-0``), magnitudes from ``1e-6`` below ``1e-5``
        (JavaScript writes ``0.0000015``, msgspec ``1.5e-6``) and from ``1e21`` up
        (``1e+21``, msgspec ``1e21``); otherwise the ``float``.

    Raises:
        ValueError: the number is out of a double's range (``1e400``), as msgspec itself
            reports it; msgspec turns this into a ``ValidationError`` with the JSON path.
    """
    value = float(text)
    if value.is_integer():
        if -1e21 < value < 1e21:
            if value or text[0] != "-":
                return int(value)  # exactly the double
            return _NEGATIVE_ZERO
        return JsFloat(value)
    # Literals, not named constants: this runs for every fraction read.
    if -1e-5 < value < 1e-5:
        if value >= 1e-6 or value <= -1e-6:
            return JsFloat(value)
    elif value in _INFINITIES:  # not integral to Python
        raise ValueError("number out of range")
    return value


_INFINITIES = (float("inf"), float("-inf"))
_NEGATIVE_ZERO = JsFloat(-0.0)


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


def js_text(value: Any) -> msgspec.Raw:
    """The msgspec ``enc_hook`` for JSON that is shown: a :class:`JsFloat` as JavaScript prints it.

    Args:
        value: what msgspec cannot encode itself.

    Returns:
        The number's JSON text, as ``JSON.stringify`` writes it.

    Raises:
        TypeError: ``value`` is not a :class:`JsFloat`, with msgspec's own message.
    """
    if type(value) is not JsFloat:
        raise TypeError(_unsupported(value))
    return msgspec.Raw(number_text(value).encode())


def keep_double(value: Any) -> float:
    """The msgspec ``enc_hook`` for JSON that is read back: a :class:`JsFloat` as its float.

    The text is msgspec's own (``-0.0`` keeps its sign), which :func:`js_number` reads
    back as the same value.

    Args:
        value: what msgspec cannot encode itself.

    Returns:
        The plain float.

    Raises:
        TypeError: ``value`` is not a :class:`JsFloat`, with msgspec's own message.
    """
    if type(value) is not JsFloat:
        raise TypeError(_unsupported(value))
    return float(value)


def _unsupported(value: Any) -> str:
    return f"Encoding objects of type {type(value).__name__} is unsupported"  # msgspec's words


class JsonEncoder:
    """Compact JSON as JavaScript's ``JSON.stringify`` writes it, numbers included.

    msgspec writes the JSON, with :func:`js_text` for each :class:`JsFloat`; every
    number :func:`js_number` reads is then written as JavaScript writes it. What is
    left is an exact integer past ``2**53`` (no hook sees integers), where JavaScript
    prints its double's digits (``null`` past a double's range): it has 16 digits in a
    row, so each output is searched for such a run (a translation and a literal search,
    in C, a fraction of msgspec's own time) and rewritten, integer by integer, only
    where one really is. Strings, key order and everything else are msgspec's, which
    writes them as ``JSON.stringify`` does.
    """

    __slots__ = ("_encoder",)

    def __init__(self) -> None:
        """Make an encoder; reuse it for every value, as msgspec's own."""
        self._encoder = msgspec.json.Encoder(enc_hook=js_text)

    def encode(self, value: Any) -> bytes:
        """Encode a value.

        Args:
            value: anything msgspec encodes, numbers as :func:`js_number` reads them.

        Returns:
            Its compact JSON.

        Raises:
            TypeError: the value holds something msgspec cannot encode.
        """
        out = self._encoder.encode(value)
        return _rewrite(out) if _has_long_integer(out) else out

    def encode_into(self, value: Any, buffer: bytearray, offset: int = 0) -> None:
        """Encode a value into ``buffer`` from ``offset`` on, as msgspec's ``encode_into``.

        Args:
            value: anything msgspec encodes, numbers as :func:`js_number` reads them.
            buffer: the buffer; it ends where the value's JSON ends.
            offset: where the JSON starts.

        Raises:
            TypeError: the value holds something msgspec cannot encode.
        """
        self._encoder.encode_into(value, buffer, offset)
        written = buffer[offset:]
        if _has_long_integer(written):
            buffer[offset:] = _rewrite(written)


#: Digits folded into ``0``, so a run of 16 can be searched for as a literal.
_FOLD_DIGITS = bytes.maketrans(b"123456789", b"000000000")
_LONG = b"0" * 16
_MINUS = ord("-")
#: What precedes a number in msgspec's compact JSON (or nothing: a bare number).
_NUMBER_BEFORE = frozenset(b":,[")
_INTEGER = re.compile(rb"-?[0-9]+(?=[,\]}]|$)")
#: One integer with everything before it since the last: strings (skipped whole, so no
#: digit inside one is touched), punctuation and numbers with a fraction or exponent
#: (written as JavaScript writes them already); the integer is missing only at the end.
_INTEGER_AFTER = re.compile(
    rb'((?:"[^"\\]*(?:\\.[^"\\]*)*"|[^"0-9-]+|-?[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]+'
    rb"|-?[0-9]+\.[0-9]+)*+)(-?[0-9]+)?"
)
#: Digits past which an integer is beyond a double's range whatever they are (``1e309``
#: has 310), so it is ``Infinity`` to JavaScript without converting it.
_INFINITE_DIGITS = 330


def _has_long_integer(out: bytes | bytearray) -> bool:
    """Whether msgspec's JSON ``out`` holds an integer JavaScript prints otherwise.

    Found as 16 digits in a row that start a number (after ``:``, ``,``, ``[`` or at
    the start, a sign allowed); past ``2**53`` JavaScript prints the double's shortest
    digits, padded with zeros, which an integer of Python's may not be.
    """
    folded = out.translate(_FOLD_DIGITS)
    at = folded.find(_LONG)
    while at >= 0:
        start = at - 1 if at and out[at - 1] == _MINUS else at
        if not start or out[start - 1] in _NUMBER_BEFORE:
            match = _INTEGER.match(out, start)
            if match is not None and _integer_json(match[0]) != match[0]:
                return True
        at = folded.find(_LONG, at + 16)  # nothing inside the run starts a number
    return False


def _rewrite(out: bytes | bytearray) -> bytes:
    """Rewrite msgspec's JSON with each integer as ``JSON.stringify`` writes it."""
    return _INTEGER_AFTER.sub(_rewrite_one, out)


def _rewrite_one(match: re.Match[bytes]) -> bytes:
    before, number = match.group(1, 2)
    return before if number is None else before + _integer_json(number)


def _integer_json(token: bytes) -> bytes:
    """One integer's JSON text as ``JSON.stringify`` writes it (``null`` when not finite)."""
    if len(token) > _INFINITE_DIGITS:
        return b"null"
    text = number_text(int(token))
    return b"null" if text.endswith("Infinity") else text.encode()


#: :meth:`JsonEncoder.encode` of one shared encoder, for one-off values.
encode_json = JsonEncoder().encode
