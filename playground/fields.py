"""A session value's declaration: :class:`Field`, with its URL form (parameter name, parser, dump, and
when a link carries it), and the parsers that turn a query parameter's text into a value or raise
:class:`LinkValueError` saying what is allowed. ``playground.session`` declares the fields; ``playground.links`` reads
and writes links from these declarations alone. Messages are ``playground.i18n.later`` sentences: translated
where they are shown, English as ``str``.

>>> whole_number(1, 10)("7"), number_list(1, 500, 4)("300, 400")
(7, [300, 400])
>>> whole_number(1, 10)("²")
Traceback (most recent call last):
...
playground.fields.LinkValueError: a whole number from 1 to 10
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar, overload

from playground.i18n import Later, later

T = TypeVar("T")


class LinkValueError(ValueError):
    """A link's value that cannot be used; ``allowed`` (its message) says what is allowed."""

    def __init__(self, allowed: Later):
        super().__init__(str(allowed))
        self.allowed = allowed


class State(Protocol):
    """What a session's values live in, as a :class:`Field` uses it: a dict in the tests and doctests,
    ``st.session_state`` in the app (a mapping whose keys may also be ints, so not a ``MutableMapping[str, Any]``)."""

    def __contains__(self, key: object, /) -> bool: ...
    def __getitem__(self, key: str, /) -> Any: ...
    def __setitem__(self, key: str, value: Any, /) -> None: ...
    def get(self, key: str, /) -> Any: ...


class HasState:
    """What a :class:`Field` lives on: an object with a ``state`` mapping (``playground.session.Session``)."""

    state: State


class Field(Generic[T]):
    """One value a session keeps. On a :class:`HasState` class it is a typed attribute; ``Owner.x.key`` is
    the ``st.session_state`` key (and the key of the widget that edits it).

    Its URL form, if it has one: the parameter ``url``, ``parse`` (text -> value, or LinkValueError),
    ``dump`` (value -> text) and ``carried(value, owner)``, whether a link carries the value (None never
    travels). ``saved``: whether a reload brings the value back (False for what belongs to one run or one
    page load). ``uploader``: a file uploader's value, which Streamlit alone may set: no default, never saved.
    """

    def __init__(
        self,
        default: T | Callable[[], T],
        *,
        url: str | None = None,
        parse: Callable[[str], T] | None = None,
        dump: Callable[[T], str] = str,
        carried: Callable[[T, Any], bool] | None = None,
        saved: bool = True,
        uploader: bool = False,
    ):
        self.default, self.url, self.parse, self.dump, self.carried = default, url, parse, dump, carried
        self.saved = saved and not uploader
        self.uploader = uploader
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @property
    def key(self) -> str:
        return f"bpe.{self.name}"

    def initial(self) -> T:
        return self.default() if callable(self.default) else self.default

    @property
    def max_chars(self) -> int | None:
        """The most characters its link parser takes (a text field's), for the widget that edits it."""
        return self.parse.limit if isinstance(self.parse, short_text) else None

    def from_text(self, text: str) -> T:
        """The value a link's ``text`` stands for (:class:`LinkValueError` when it is not allowed); only a field
        with a URL form (``parse``) reads text.

        >>> from playground.session import Session
        >>> Session.vocab.from_text("300")
        300
        >>> Session.page.from_text("train")
        Traceback (most recent call last):
        ...
        TypeError: the session field 'page' has no URL form: it reads no text
        """
        if self.parse is None:
            raise TypeError(f"the session field {self.name!r} has no URL form: it reads no text")
        return self.parse(text)

    def carries(self, value: T | None, owner: Any) -> bool:
        """Whether a link carries ``value`` (this field's value on ``owner``)."""
        return self.url is not None and value is not None and (self.carried is None or self.carried(value, owner))

    @overload
    def __get__(self, obj: None, owner: type) -> Field[T]: ...
    @overload
    def __get__(self, obj: HasState, owner: type) -> T: ...
    def __get__(self, obj, owner):
        if obj is None:
            return self
        if self.uploader:
            return obj.state.get(self.key)
        if self.key not in obj.state:
            obj.state[self.key] = self.initial()
        return obj.state[self.key]

    def __set__(self, obj: HasState, value: T) -> None:
        obj.state[self.key] = value


# -- parsers: text from a link -> a value, or LinkValueError saying what is allowed ----------------

_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)  # ASCII only: "²" and "٣" are digits to str.isdigit


N = TypeVar("N", int, float)


def _number(written: re.Pattern[str], kind: Callable[[str], N], low: N, high: N, allowed: Later) -> Callable[[str], N]:
    """A parser of numbers written as ``written`` matches, from ``low`` to ``high``."""

    def parse(text: str) -> N:
        if not written.fullmatch(text) or not low <= kind(text) <= high:
            raise LinkValueError(allowed)
        return kind(text)

    return parse


def whole_number(low: int, high: int) -> Callable[[str], int]:
    return _number(_DIGITS, int, low, high, later("a whole number from {low:,} to {high:,}", low=low, high=high))


def decimal_number(low: float, high: float, places: int = 3) -> Callable[[str], float]:
    """``"0.5"`` -> ``0.5``: ASCII digits with up to ``places`` decimals, from ``low`` to ``high``.

    >>> decimal_number(0, 100)("0.25"), decimal_number(0, 100)("7")
    (0.25, 7.0)
    """
    written = re.compile(rf"[0-9]{{1,6}}(?:\.[0-9]{{1,{places}}})?", re.ASCII)
    allowed = later(
        "a number from {low:g} to {high:g} (digits, up to {places} decimals)", low=low, high=high, places=places
    )
    return _number(written, float, low, high, allowed)


def one_of(choices: Sequence[str]) -> Callable[[str], str]:
    allowed = later("one of {names}", names=", ".join(choices))

    def parse(text: str) -> str:
        if text not in choices:
            raise LinkValueError(allowed)
        return text

    return parse


class short_text:  # noqa: N801 (a parser made like the others here, by a lower-case call)
    """Text of at most ``limit`` characters; the widget that edits it takes ``max_chars=field.max_chars``, so that
    nothing typed makes a link its own parser refuses."""

    def __init__(self, limit: int):
        self.limit = limit

    def __call__(self, text: str) -> str:
        if len(text) > self.limit:
            raise LinkValueError(later("text of at most {limit:,} characters", limit=self.limit))
        return text


def number_list(low: int, high: int, most: int) -> Callable[[str], list[int]]:
    """``"300,400"`` -> ``[300, 400]``: up to ``most`` distinct whole numbers, comma-separated."""
    allowed = later(
        "up to {most} whole numbers from {low:,} to {high:,}, separated by commas", most=most, low=low, high=high
    )

    def parse(text: str) -> list[int]:
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        if len(parts) > most or not all(_DIGITS.fullmatch(part) and low <= int(part) <= high for part in parts):
            raise LinkValueError(allowed)
        return list(dict.fromkeys(int(part) for part in parts))

    return parse


def name_list(choices: Sequence[str], most: int | None = None) -> Callable[[str], list[str]]:
    """``"a,b"`` -> ``["a", "b"]``: names among ``choices``, each once, at most ``most`` of them."""
    if most is None:
        allowed = later("a comma-separated list of {names} (or nothing)", names=", ".join(choices))
    else:
        allowed = later("a comma-separated list of up to {most} of {names}", most=most, names=", ".join(choices))

    def parse(text: str) -> list[str]:
        names = list(dict.fromkeys(name for name in text.split(",") if name))
        if not all(name in choices for name in names) or (most is not None and len(names) > most):
            raise LinkValueError(allowed)
        return names

    return parse


def comma_joined(values: Sequence[Any]) -> str:
    return ",".join(map(str, values))


def on_off(text: str) -> bool:
    """A link's switch: ``"1"`` is on, ``"0"`` off (a field's ``parse``; :func:`dump_on_off` is its ``dump``).

    >>> on_off("1"), dump_on_off(False)
    (True, '0')
    """
    return one_of(("0", "1"))(text) == "1"


def dump_on_off(on: bool) -> str:
    return "1" if on else "0"
