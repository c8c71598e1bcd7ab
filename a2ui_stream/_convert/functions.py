r"""Basic-catalog functions: ``formatString`` and the formatting functions it can nest.

Owns the A2UI basic catalog's value functions that a converter can evaluate without a
browser (A2UI protocol reference, "Functions"): ``formatString`` with its ``${path}``,
``${fn(k: v)}`` and ``\${`` escape syntax, ``formatNumber``, ``formatCurrency``,
``formatDate`` and ``pluralize``; and :func:`to_text`, how a value reads when
interpolated into text (JavaScript's ``String(value)``).

Each function takes its resolved args and an :class:`Env` (reading data, reporting an
unsupported nested call) and returns a value, ``MISSING``, or raises ``ValueError`` /
``TypeError`` / ``ArithmeticError``, which the caller reports as a diagnostic.

Must not import: the converter's traversal, element or reuse modules, the reducer,
request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias

from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._tree.order import js_ordered
from a2ui_stream._wire.frozen import CONTAINERS
from a2ui_stream._wire.numbers import MAX_SAFE_INTEGER, as_double, encode_json, number_text

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["FUNCTIONS", "MAX_NESTING", "Env", "Function", "to_text"]


class Env(Protocol):
    """What a function may ask of the conversion evaluating it."""

    @property
    def max_string(self) -> int:
        """The longest text worth building: a prop keeps no more (``max_string_length``)."""

    def read(self, pointer: str) -> Any:
        """The data at ``pointer`` in the current scope, or ``MISSING``."""

    def unsupported(self, name: str) -> None:
        """Report a nested call to a function that is not in :data:`FUNCTIONS`."""


Function: TypeAlias = "Callable[[dict[str, Any], Env], Any]"
"""A basic-catalog function: resolved args and the environment to its value."""


def to_text(value: Any) -> str | None:
    """How a value reads when interpolated into text, as ``formatString`` does it.

    Args:
        value: a resolved value.

    Returns:
        Strings as they are, booleans and numbers as JavaScript prints them, ``null``
        and ``MISSING`` as ``""``, arrays and objects as compact JSON; ``None`` for
        anything else.
    """
    kind = type(value)
    if kind is str:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is float:
        return number_text(value)
    if value is None or value is MISSING:
        return ""
    if kind in CONTAINERS:
        return encode_json(js_ordered(value)).decode()  # printed as JSON.stringify prints it
    return None


def _format_string(args: dict[str, Any], env: Env) -> Any:
    """``formatString``: interpolate ``${path}`` and ``${fn(arg: value)}``."""
    value = args.get("value")
    if type(value) is not str:
        raise TypeError("value must be a string")
    if type(env) is _Nested:  # called from inside another formatString: it counts on
        return _Interpolator(env.outer, value, env.level).run()
    return _Interpolator(env, value).run()


def _format_number_fn(args: dict[str, Any], _env: Env) -> Any:
    """``formatNumber``: grouped digits, ``decimals`` fraction digits (default up to 3)."""
    return _format_number(args.get("value"), args.get("decimals"), args.get("grouping"))


#: What ``Intl.NumberFormat("en-US", {style: "currency"})`` writes before an amount
#: where it is not the code and a no-break space (CLDR, as node 20 has it).
_CURRENCY_SYMBOLS: Final = {
    "AUD": "A$",
    "BRL": "R$",
    "CAD": "CA$",
    "CNY": "CN\u00a5",
    "EUR": "\u20ac",
    "GBP": "\u00a3",
    "HKD": "HK$",
    "ILS": "\u20aa",
    "INR": "\u20b9",
    "JPY": "\u00a5",
    "KRW": "\u20a9",
    "MXN": "MX$",
    "NZD": "NZ$",
    "PHP": "\u20b1",
    "TWD": "NT$",
    "USD": "$",
    "VND": "\u20ab",
    "XAF": "FCFA\u00a0",
    "XCD": "EC$",
    "XCG": "Cg.\u00a0",
    "XOF": "F\u202fCFA\u00a0",
    "XPF": "CFPF\u00a0",
}
#: Fraction digits of the currencies that do not show two, from the same source.
_CURRENCY_DIGITS: Final = {
    **dict.fromkeys(("BHD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
    **dict.fromkeys(
        (
            "AFN", "ALL", "BIF", "CLP", "COP", "DJF", "GNF", "HUF", "IDR", "IQD", "IRR",
            "ISK", "JPY", "KMF", "KPW", "KRW", "LAK", "LBP", "MGA", "MMK", "PKR", "PYG",
            "RWF", "SLL", "SOS", "SYP", "UGX", "VND", "VUV", "XAF", "XOF", "XPF", "YER",
        ),
        0,
    ),
}  # fmt: skip
#: A well-formed currency code, as ``Intl`` checks it: three ASCII letters, any case.
_CURRENCY_CODE: Final = re.compile("[A-Za-z]{3}")


def _format_currency(args: dict[str, Any], _env: Env) -> Any:
    """``formatCurrency``: as ``Intl.NumberFormat``'s currency style writes it in en-US.

    The currency's symbol (else its code and a no-break space) and, unless ``decimals``
    says otherwise, its own fraction digits (two, none for JPY, three for KWD).
    """
    currency = args.get("currency")
    if type(currency) is not str or _CURRENCY_CODE.fullmatch(currency) is None:
        raise ValueError("currency must be a three-letter ISO 4217 code")
    code = currency.upper()
    decimals = args.get("decimals", _CURRENCY_DIGITS.get(code, 2))
    amount = _format_number(args.get("value"), decimals, args.get("grouping"))
    symbol = _CURRENCY_SYMBOLS.get(code, f"{code}\u00a0")
    if amount.startswith("-"):
        return f"-{symbol}{amount[1:]}"
    return f"{symbol}{amount}"


def _format_date_fn(args: dict[str, Any], _env: Env) -> Any:
    """``formatDate``: an ISO 8601 value through a Unicode date pattern."""
    value, pattern = args.get("value"), args.get("format")
    if type(value) is not str or type(pattern) is not str:
        raise TypeError("value and format must be strings")
    return _format_date(dt.datetime.fromisoformat(value), pattern)


def _pluralize(args: dict[str, Any], _env: Env) -> Any:
    """``pluralize``: English plural categories (zero, one, other)."""
    value = args.get("value")
    if type(value) not in {int, float}:
        raise TypeError("value must be a number")
    if value == 0 and "zero" in args:
        return args["zero"]
    if value == 1 and "one" in args:
        return args["one"]
    return args.get("other", MISSING)


#: The functions evaluated, by their catalog name; any other call is dropped with a warning.
FUNCTIONS: Final[dict[str, Function]] = {
    "formatString": _format_string,
    "formatNumber": _format_number_fn,
    "formatCurrency": _format_currency,
    "formatDate": _format_date_fn,
    "pluralize": _pluralize,
}

_MONTHS: Final = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS: Final = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_DATE_TOKEN = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|.", re.DOTALL)


#: Intl.NumberFormat rounds the shortest decimal that reads back as the double, half
#: away from zero (``halfExpand``): 1.005 to two places is 1.01, though the double is
#: a little below 1.005. Enough precision for a double's 309 integer digits and 20 places.
_INTL: Final = Context(prec=400, rounding=ROUND_HALF_UP)
#: The most fraction digits ``Intl.NumberFormat`` takes (node 20); more is a RangeError.
_MAX_DECIMALS: Final = 20
_PLACES: Final = tuple(Decimal(1).scaleb(-places) for places in range(_MAX_DECIMALS + 1))


def _format_number(value: Any, decimals: Any, grouping: Any) -> str:
    """``Intl.NumberFormat("en-US")`` with ``decimals`` fraction digits (default: up to 3)."""
    kind = type(value)
    if kind is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        exact = Decimal(value)
    elif kind is int or kind is float:
        # Past 2**53 an integer is a JavaScript double; a double is formatted from its
        # shortest digits, not from the binary expansion Python would round.
        double = as_double(value) if kind is int else value
        if math.isinf(double):
            return "-∞" if double < 0 else "∞"
        exact = Decimal(repr(double))  # -0.0 keeps its sign: Intl shows "-0"
    else:
        raise TypeError("value must be a number")
    fixed = type(decimals) is int
    if fixed and not 0 <= decimals <= _MAX_DECIMALS:
        # Intl throws a RangeError: a renderer shows no number, and neither does this.
        raise ValueError(f"decimals must be 0 to {_MAX_DECIMALS}, as Intl.NumberFormat allows")
    rounded = exact.quantize(_PLACES[decimals if fixed else 3], context=_INTL)
    text = f"{rounded:,f}" if grouping is not False else f"{rounded:f}"
    return text if fixed or "." not in text else text.rstrip("0").rstrip(".")


def _format_date(when: dt.datetime, pattern: str) -> str:
    out = []
    for match in _DATE_TOKEN.finditer(pattern):
        token = match.group(0)
        if token.startswith("'"):
            quoted = token[1:-1].replace("''", "'")
            out.append(quoted or "'")
            continue
        letter, width = token[0], len(token)
        out.append(_date_field(when, letter, width) if match.group(1) else token)
    return "".join(out)


def _date_field(when: dt.datetime, letter: str, width: int) -> str:
    month, day_name = _MONTHS[when.month - 1], _DAYS[when.weekday()]
    hour12 = when.hour % 12 or 12
    fields: dict[str, Callable[[], str]] = {
        "y": lambda: f"{when.year % 100:02d}" if width == 2 else f"{when.year:0{width}d}",
        "M": lambda: (
            month if width >= 4 else month[:3] if width == 3 else f"{when.month:0{width}d}"
        ),
        "d": lambda: f"{when.day:0{width}d}",
        "E": lambda: day_name if width >= 4 else day_name[:3],
        "h": lambda: f"{hour12:0{width}d}",
        "H": lambda: f"{when.hour:0{width}d}",
        "m": lambda: f"{when.minute:0{width}d}",
        "s": lambda: f"{when.second:0{width}d}",
        "a": lambda: "AM" if when.hour < 12 else "PM",
    }
    fields["Y"] = fields["y"]
    fields["L"] = fields["M"]
    fields["c"] = fields["E"]
    field = fields.get(letter)
    return field() if field is not None else letter * width


#: Expressions nested in one ``formatString`` (``${`` inside ``${``, a call's arguments,
#: and a formatString called from one, whose text may come from data that names itself):
#: beyond it the call fails with a warning. Templates nest a call or two; the bound
#: keeps the parser's recursion short whatever the text.
MAX_NESTING: Final = 16


class _Nested:
    """The :class:`Env` of a function called from inside a ``formatString``.

    The same reads, and how deeply the call is nested, so that a ``formatString``
    called there counts on from it.
    """

    __slots__ = ("level", "outer")

    def __init__(self, outer: Env, level: int) -> None:
        self.outer = outer
        self.level = level

    @property
    def max_string(self) -> int:
        return self.outer.max_string

    def read(self, pointer: str) -> Any:
        return self.outer.read(pointer)

    def unsupported(self, name: str) -> None:
        self.outer.unsupported(name)


class _Interpolator:
    r"""``formatString``'s template language: ``${path}``, ``${fn(k: v)}``, ``\\${`` escapes."""

    def __init__(self, env: Env, text: str, level: int = 0) -> None:
        self.env = env
        self.text = text
        self.pos = 0
        self.level = level

    def run(self) -> str:
        text, out = self.text, []
        # Once the text is longer than any prop keeps, the rest would be cut: stop, and
        # leave the rest of the template unread (an error in it goes unseen). A thousand
        # ``${/list}`` in 6 KB would otherwise encode the list a thousand times. What is
        # returned still runs past the limit, so the prop is cut, and says so, as before.
        room, length = self.env.max_string, 0
        while length <= room:
            start = text.find("${", self.pos)
            if start < 0:
                out.append(text[self.pos :])
                break
            literal = text[self.pos : start]
            if literal.endswith("\\"):  # an escaped ``${`` is literal
                out.append(literal[:-1])
                out.append("${")
                length += len(literal) + 1
                self.pos = start + 2
                continue
            out.append(literal)
            self.pos = start + 2
            piece = to_text(self.expression("}")) or ""
            out.append(piece)
            length += len(literal) + len(piece)
            self.pos += 1
        return "".join(out)

    def expression(self, stop: str) -> Any:
        """Parse one expression up to ``stop`` (not consumed) and evaluate it."""
        if self.level >= MAX_NESTING:
            raise ValueError(f"formatString nests expressions more than {MAX_NESTING} deep")
        self.level += 1
        value = self.evaluate(stop)
        self.level -= 1
        return value

    def evaluate(self, stop: str) -> Any:
        """The body of :meth:`expression`, one nesting level down."""
        text = self.text
        self.skip_space()
        if text.startswith("${", self.pos):
            self.pos += 2
            value = self.expression("}")
            self.pos += 1
            self.skip_space()
            return value
        if self.pos < len(text) and text[self.pos] in "'\"":
            quote = text[self.pos]
            end = text.find(quote, self.pos + 1)
            if end < 0:
                raise ValueError("unterminated string in formatString")
            value = text[self.pos + 1 : end]
            self.pos = end + 1
            self.skip_space()
            return value
        start = self.pos
        while self.pos < len(text) and text[self.pos] not in stop + "(":
            self.pos += 1
        word = text[start : self.pos].strip()
        if self.pos < len(text) and text[self.pos] == "(":
            return self.call(word)
        if self.pos >= len(text):
            raise ValueError("unterminated expression in formatString")
        return _literal(word, self.env)

    def call(self, name: str) -> Any:
        """Parse ``(k: v, ...)`` after a function name and evaluate the call."""
        text = self.text
        self.pos += 1
        args: dict[str, Any] = {}
        while True:
            self.skip_space()
            if text.startswith(")", self.pos):
                self.pos += 1
                break
            colon = text.find(":", self.pos)
            if colon < 0:
                raise ValueError("malformed function arguments in formatString")
            key = text[self.pos : colon].strip()
            self.pos = colon + 1
            args[key] = self.expression(",)")
            if text.startswith(",", self.pos):
                self.pos += 1
        self.skip_space()
        function = FUNCTIONS.get(name)
        if function is None:
            self.env.unsupported(name)
            return MISSING
        return function(args, _Nested(self.env, self.level))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1


_LITERALS: Final = {"true": True, "false": False, "null": None}


def _literal(word: str, env: Env) -> Any:
    """A bare word in ``formatString``: a JSON literal or number, else a data path."""
    if word in _LITERALS:
        return _LITERALS[word]
    try:
        return int(word)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return env.read(word)
