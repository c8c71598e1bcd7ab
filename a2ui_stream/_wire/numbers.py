"""JSON numbers read and printed as JavaScript reads and prints them.

Owns the one rule that keeps our output byte-identical to a JavaScript client's:
JavaScript has a single number type, the double, so ``2.0`` in the input is the number
2 and prints as ``2``, ``-0`` prints as ``0``, ``1e21`` as ``1e+21`` and
``9007199254740993`` is the double ``9007199254740992``. Python keeps ``2.0`` a float
and would print ``2.0``; decoders of free-form JSON (A2UI props and data, activity
content) pass :func:`js_number` as msgspec's ``float_hook`` so integral values below
``1e21`` become ``int``. An integer written without a fraction stays Python's exact
``int``; :func:`number_text` (``String()``), :func:`as_double`, ``formatNumber`` and
:class:`JsonEncoder` (``JSON.stringify``) read one past ``2**53`` as the double
JavaScript would hold.

Must not import anything from the package.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Final

import msgspec

__all__ = [
    "MAX_SAFE_INTEGER",
    "JsDecoder",
    "JsonEncoder",
    "as_double",
    "encode_json",
    "js_number",
    "js_string",
    "number_text",
    "past_python_ints",
    "too_long_for_python",
]

#: Largest integer a JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
#: Beyond it JavaScript prints shortest round-trip digits, not the exact value, so an
#: exact ``int`` is read as its double (:func:`as_double`).
MAX_SAFE_INTEGER = 2**53 - 1


def js_number(text: str) -> int | float:
    """Decode a JSON number written with a fraction or exponent.

    Args:
        text: the number's JSON text, as msgspec hands it to a ``float_hook``.

    Returns:
        An ``int`` when the value is integral and below ``1e21``, exactly the double
        (``2.0`` is ``2``, ``1e16`` is ``10000000000000000``), so msgspec prints digits
        as JavaScript does (past ``2**53`` :class:`JsonEncoder` prints the digits
        JavaScript picks); otherwise the ``float``, ``-0.0`` included (it prints as ``0``
        but keeps its sign for ``formatNumber``, as ``Intl.NumberFormat`` shows ``-0``).
        A number past a double's range (``1e400``) is the infinity ``JSON.parse`` reads
        (it prints as ``null``), as an integer written without a fraction is: refusing
        it would drop the whole operation a JavaScript client draws.
    """
    value = float(text)
    if value.is_integer() and -1e21 < value < 1e21 and (value or text[0] != "-"):
        return int(value)  # exactly the double
    return value


#: How msgspec refuses an integer longer than Python converts (``sys.int_info``: 4,300
#: digits; converting one costs the square of its length, which is why Python refuses).
_TOO_LONG: Final = "Integer value out of range"
#: A JSON string (skipped whole), or an integer literal of 310 digits or more: at least
#: 1e309, past a double's range whatever Python's own limit is set to; not a fraction's
#: or an exponent's digits, and not followed by a fraction or an exponent.
_LONG_INTEGER: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|(?<![0-9.eE+\-])(-?)[0-9]{310,}(?![0-9.eE])')


def past_python_ints(data: bytes) -> bytes:
    """``data`` with each integer literal past a double's range written as ``1e400``.

    Such an integer (310 digits or more; Python refuses to convert more than 4,300 by
    default) is the infinity ``JSON.parse`` reads, as ``1e400`` is (:func:`js_number`);
    written so, it decodes in time linear in its length. Called only after msgspec
    refused a document, so the integers it would read exactly are rewritten only then.
    """
    return _LONG_INTEGER.sub(_as_infinity, data)


def _as_infinity(found: re.Match[bytes]) -> bytes:
    text = found.group(0)
    return text if text[:1] == b'"' else found.group(1) + b"1e400"


def too_long_for_python(error: msgspec.ValidationError) -> bool:
    """Whether msgspec refused a document for an integer longer than Python converts."""
    return str(error).startswith(_TOO_LONG)


class JsDecoder:
    """A decoder of free-form JSON that reads numbers as JavaScript does.

    :func:`js_number` reads fractions and exponents; an integer too long for Python is
    read as the infinity it is (:func:`past_python_ints`), where msgspec alone refuses
    the whole document ("Integer value out of range"): an operation, a patch or a
    history that a JavaScript client applies would be dropped. The common case costs
    one call more than msgspec's decoder; the rewrite only follows a refusal.

    Args:
        type: what to decode into, as for ``msgspec.json.Decoder``.
    """

    __slots__ = ("_decode",)

    def __init__(self, type: Any = Any) -> None:  # noqa: A002 - msgspec's own name
        self._decode = msgspec.json.Decoder(type, float_hook=js_number).decode

    def decode(self, data: bytes | bytearray | memoryview | str) -> Any:
        """Decode ``data`` (as ``msgspec.json.Decoder.decode``; ``msgspec.Raw`` too)."""
        try:
            return self._decode(data)
        except msgspec.ValidationError as refused:
            if not too_long_for_python(refused):
                raise
            error = refused
        text = data.encode() if isinstance(data, str) else bytes(data)
        rewritten = past_python_ints(text)
        if rewritten == text:  # the integer was not found where the rewrite looks
            raise error
        return self._decode(rewritten)


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


class JsonEncoder:
    """Compact JSON as JavaScript's ``JSON.stringify`` writes it, numbers included.

    msgspec writes the JSON; its text for a number differs from ``JSON.stringify``'s in
    a few shapes only (``1e21`` for ``1e+21``, ``1.5e-6`` for ``0.0000015``, ``2.0``
    and ``-0.0`` for ``2`` and ``0``, and an exact integer past ``2**53`` where
    JavaScript prints its double, ``null`` past a double's range). Values decoded with
    :func:`js_number` rarely hold one, so each output is first scanned for those shapes
    (a translation and a few literal searches, in C); only an output that holds one is
    rewritten, number by number, through :func:`number_text`. Strings, key order and
    everything else are msgspec's, which writes them as ``JSON.stringify`` does.
    """

    __slots__ = ("_encoder",)

    def __init__(self) -> None:
        """Make an encoder; reuse it for every value, as msgspec's own."""
        self._encoder = msgspec.json.Encoder()

    def encode(self, value: Any) -> bytes:
        """Encode a value.

        Args:
            value: anything msgspec encodes.

        Returns:
            Its compact JSON.

        Raises:
            TypeError: the value holds something msgspec cannot encode.
        """
        out = self._encoder.encode(value)
        return _rewrite(out) if _needs_rewrite(out) else out

    def encode_into(self, value: Any, buffer: bytearray, offset: int = 0) -> None:
        """Encode a value into ``buffer`` from ``offset`` on, as msgspec's ``encode_into``.

        Args:
            value: anything msgspec encodes.
            buffer: the buffer; it ends where the value's JSON ends.
            offset: where the JSON starts.

        Raises:
            TypeError: the value holds something msgspec cannot encode.
        """
        self._encoder.encode_into(value, buffer, offset)
        written = buffer[offset:]
        if _needs_rewrite(written):
            buffer[offset:] = _rewrite(written)


#: Digits folded into ``0``, so a number's shape can be searched for as a literal.
_FOLD_DIGITS = bytes.maketrans(b"123456789", b"000000000")
# Numbers as msgspec writes them that JavaScript writes otherwise, in msgspec's compact
# output (a number follows ``:``, ``[`` or ``,``): a positive exponent or one of -6
# (JavaScript writes 1e-6 up in fixed notation, msgspec 1e-5 up), an integral float,
# and an integer of 16 digits or more whose double prints otherwise.
_EXPONENT_NUMBER = re.compile(rb"[:,\[]-?[0-9]+(?:\.[0-9]+)?e(?:[0-9]|-6[,\]}])")
_INTEGRAL_NUMBER = re.compile(rb"[:,\[]-?[0-9]+\.0[,\]}]")
_INTEGER = re.compile(rb"-?[0-9]+(?=[,\]}])")
_EXPONENT = re.compile(rb"0e")  # sre's prefix search beats bytes.find for short needles
_INTEGRAL = re.compile(rb"\.0[,\]}]")
_LONG = b"0" * 16


def _find_exponent(folded: bytes | bytearray, out: bytes | bytearray, at: int) -> int:
    """Where a number in exponent form needs rewriting; -1 when nowhere from ``at`` on.

    Found as a digit before an ``e`` (hexadecimal ids too); the number it ends starts at
    most 20 bytes before it: 17 digits, a point, a sign, a delimiter.
    """
    while (match := _EXPONENT.search(folded, at)) is not None:
        at = match.start()
        if _EXPONENT_NUMBER.search(out, max(at - 20, 0), at + 5) is not None:
            return at
        at += 2
    return -1


def _find_integral(_folded: bytes | bytearray, out: bytes | bytearray, at: int) -> int:
    """Where an integral float is (``2.0``, ``-0.0``); -1 when nowhere from ``at`` on.

    Found as ``.0`` before a delimiter, after at most 16 digits, a sign and a delimiter.
    """
    while (match := _INTEGRAL.search(out, at)) is not None:
        at = match.start()
        if _INTEGRAL_NUMBER.search(out, max(at - 18, 0), at + 3) is not None:
            return at
        at += 3
    return -1


def _find_long(folded: bytes | bytearray, out: bytes | bytearray, at: int) -> int:
    """Where an integer JavaScript prints otherwise is; -1 when nowhere from ``at`` on.

    Found as 16 digits in a row; past ``2**53`` JavaScript prints the double's shortest
    digits, padded with zeros, which an integer of Python's may not be.
    """
    while (at := folded.find(_LONG, at)) >= 0:
        start = at - 1 if at and out[at - 1] == _MINUS else at
        if start and out[start - 1] in _NUMBER_BEFORE:
            match = _INTEGER.match(out, start)
            if match is not None and _number_json(match[0]) != match[0]:
                return at
        at += 16  # nothing inside the run starts a number
    return -1


_MINUS = ord("-")
_NUMBER_BEFORE = frozenset(b":,[")
_CANDIDATES = (_find_exponent, _find_integral, _find_long)
#: One number with everything before it since the last: strings (skipped whole, so no
#: digit inside one is touched) and punctuation; the number is missing only at the end.
_NUMBER_AFTER = re.compile(
    rb'((?:"[^"\\]*(?:\\.[^"\\]*)*"|[^"0-9-]+)*+)(-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)?'
)
_BARE_NUMBER_START = frozenset(b"-0123456789")
_NOT_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})
#: Digits past which an integer is beyond a double's range whatever they are (``1e309``
#: has 310), so it is ``Infinity`` to JavaScript without converting it.
_INFINITE_DIGITS = 330


def _needs_rewrite(out: bytes | bytearray) -> bool:
    """Whether msgspec's JSON ``out`` holds a number JavaScript writes differently."""
    if out[0] in _BARE_NUMBER_START:  # a bare number: nothing to search, just rewrite it
        return True
    folded = out.translate(_FOLD_DIGITS)
    return any(find(folded, out, 0) >= 0 for find in _CANDIDATES)


def _rewrite(out: bytes | bytearray) -> bytes:
    """Rewrite msgspec's JSON with each number as ``JSON.stringify`` writes it."""
    return _NUMBER_AFTER.sub(_rewrite_one, out)


def _rewrite_one(match: re.Match[bytes]) -> bytes:
    before, number = match.group(1, 2)
    return before if number is None else before + _number_json(number)


def _number_json(token: bytes) -> bytes:
    """One number's JSON text as ``JSON.stringify`` writes it (``null`` when not finite)."""
    if b"." in token or b"e" in token:
        value: float = float(token)
    elif len(token) > _INFINITE_DIGITS:
        return b"null"
    else:
        value = int(token)
    text = number_text(value)
    return b"null" if text in _NOT_FINITE else text.encode()


#: :meth:`JsonEncoder.encode` of one shared encoder, for one-off values.
encode_json = JsonEncoder().encode


def js_string(value: Any) -> str:
    """``String(value)`` for the JSON values a surfaceId could be.

    An array joins its items' strings with commas, ``null`` items as ``""`` and nested
    arrays alike; they are walked from a stack, since how deep they nest is the input's.
    """
    if not isinstance(value, list):
        return _js_scalar(value)
    parts: list[str] = []
    stack = [iter(value)]
    first = [True]
    while stack:
        item = next(stack[-1], _END_OF_LIST)
        if item is _END_OF_LIST:
            stack.pop()
            first.pop()
            continue
        if first[-1]:
            first[-1] = False
        else:
            parts.append(",")
        if isinstance(item, list):
            stack.append(iter(item))
            first.append(True)
        elif item is not None:
            parts.append(_js_scalar(item))
    return "".join(parts)


_END_OF_LIST: Final = object()  # what `next` returns when a list is done


def _js_scalar(value: Any) -> str:
    """``String(value)`` for a JSON value that is not an array."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, int | float):
        return number_text(value)
    return msgspec.json.encode(value).decode()
