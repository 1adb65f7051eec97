"""What a link's values may be: each parser turns the text of a query parameter into a value, or
raises :class:`LinkValueError` whose message says what is allowed (used by ``ui.session``'s fields).
Messages are ``ui.i18n.later`` sentences: translated where they are shown, English as ``str``.

>>> whole_number(1, 10)("7"), number_list(1, 500, 4)("300, 400")
(7, [300, 400])
>>> whole_number(1, 10)("²")
Traceback (most recent call last):
...
ui.link_values.LinkValueError: a whole number from 1 to 10
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ui.i18n import Later, later


class LinkValueError(ValueError):
    """A link's value that cannot be used; ``allowed`` (its message) says what is allowed."""

    def __init__(self, allowed: Later):
        super().__init__(str(allowed))
        self.allowed = allowed


@dataclass(frozen=True)
class LinkProblem:
    parameter: str
    message: Later  # shown with ui.i18n.t; str() gives the English sentence


# -- parsers: text from a link -> a value, or LinkValueError saying what is allowed ----------------

_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)  # ASCII only: "²" and "٣" are digits to str.isdigit


def whole_number(low: int, high: int) -> Callable[[str], int]:
    allowed = later("a whole number from {low:,} to {high:,}", low=low, high=high)

    def parse(text: str) -> int:
        if not _DIGITS.fullmatch(text) or not low <= int(text) <= high:
            raise LinkValueError(allowed)
        return int(text)

    return parse


def one_of(choices: Sequence[str]) -> Callable[[str], str]:
    allowed = later("one of {names}", names=", ".join(choices))

    def parse(text: str) -> str:
        if text not in choices:
            raise LinkValueError(allowed)
        return text

    return parse


def short_text(limit: int) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if len(text) > limit:
            raise LinkValueError(later("text of at most {limit:,} characters", limit=limit))
        return text

    return parse


def number_list(low: int, high: int, most: int) -> Callable[[str], list[int]]:
    """``"300,400"`` -> ``[300, 400]``: up to ``most`` distinct whole numbers, comma-separated."""
    allowed = later("up to {most} whole numbers from {low:,} to {high:,}, separated by commas", most=most, low=low,
                    high=high)

    def parse(text: str) -> list[int]:
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        if len(parts) > most or not all(_DIGITS.fullmatch(part) and low <= int(part) <= high for part in parts):
            raise LinkValueError(allowed)
        return list(dict.fromkeys(int(part) for part in parts))

    return parse


def name_list(choices: Sequence[str]) -> Callable[[str], list[str]]:
    allowed = later("a comma-separated list of {names} (or nothing)", names=", ".join(choices))

    def parse(text: str) -> list[str]:
        names = [name for name in text.split(",") if name]
        if not all(name in choices for name in names):
            raise LinkValueError(allowed)
        return list(dict.fromkeys(names))

    return parse


def comma_joined(values: Sequence[Any]) -> str:
    return ",".join(map(str, values))
