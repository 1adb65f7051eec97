"""The ASCII fast path of pre-tokenization for the named patterns.

On ASCII text the standard library's ``re`` runs a pattern about twice as fast as ``regex``
does, so each named pattern also has an ASCII twin for ``re`` (see ``_ascii_twin``), and
mostly-ASCII text is cut into ASCII and non-ASCII stretches at places where no pre-token can
cross, each split by the faster engine that is exact for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import regex

# A space with printable ASCII on both sides: no named pattern puts a space anywhere but at the
# start of a pre-token, so a pre-token starts there; and as the text before it ends in a
# non-space, no lookahead or `$` before the cut depends on what follows it.
_ASCII_CUT = re.compile(r"(?<=[!-~]) (?=[!-~])")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_LONG_ASCII_AFTER = re.compile(r"[^\x00-\x7f][\x00-\x7f]{256}")  # a non-ASCII character, then 256 ASCII
_CLASS_OR_ESCAPE = regex.compile(r"\[(?:\\.|[^\]\\])*\]|\\p\{\w+\}|\\[sS]")
_POSSESSIVE = regex.compile(r"(?<=[+*?}])\+")


@lru_cache(maxsize=8)
def ascii_findall(source: str) -> Callable[[str], list[str]]:
    """``findall`` of the ASCII twin of a named pattern's regex (only the named patterns are linear
    and possessive in the way ``_ascii_twin`` relies on)."""
    return re.compile(_ascii_twin(source)).findall


def _ascii_twin(source: str) -> str:
    r"""The pattern for ``re``, exact on ASCII text: every class and ``\p{..}``/``\s``/``\S`` becomes
    the explicit set of ASCII characters that ``regex`` itself matches with it (``re``'s own
    ``\s`` differs: it also matches U+001C..U+001F), and possessive quantifiers become plain
    ones (nothing follows them inside their alternative, so they never backtrack anyway).

    >>> print(_ascii_twin(r"\p{N}{1,3}+|\s+(?!\S)"))
    [0-9]{1,3}|[\x09-\x0d\x20]+(?![\x00-\x08\x0e-\x1f\x21-\x7f])
    """
    ascii_chars = [chr(code) for code in range(128)]

    def explicit(match: regex.Match) -> str:
        members = [c for c in ascii_chars if regex.fullmatch(match.group(), c)]
        return _char_class(members)

    return _POSSESSIVE.sub("", _CLASS_OR_ESCAPE.sub(explicit, source))


def _char_class(members: list[str]) -> str:
    r"""``[...]`` for these characters, with runs as ranges and everything but letters and digits as
    ``\xNN``, so the class reads the same whatever the characters are."""
    if not members:
        return "(?!)"

    def escape(character: str) -> str:
        return character if character.isalnum() else f"\\x{ord(character):02x}"

    parts, start = [], 0
    for end in range(1, len(members) + 1):
        if end == len(members) or ord(members[end]) != ord(members[end - 1]) + 1:
            run = members[start:end]
            parts.append(f"{escape(run[0])}-{escape(run[-1])}" if len(run) > 2 else "".join(map(escape, run)))
            start = end
    return "[" + "".join(parts) + "]"


def split_mostly_ascii(
    text: str, ascii_findall: Callable[[str], list[str]], unicode_findall: Callable[[str], list[str]]
) -> list[str]:
    """Pre-tokens of text: ASCII stretches by ``re``, the rest (widened to safe cuts) by ``regex``."""
    if text.isascii():
        return ascii_findall(text)
    pieces: list[str] = []
    start = 0
    while start < len(text):
        found = _NON_ASCII.search(text, start)
        if found is None:
            pieces += ascii_findall(text[start:])
            break
        left = _last_ascii_cut(text, start, found.start())
        # Short ASCII stretches between non-ASCII characters (French, say) stay in the block:
        # switching engines for each would cost more than it saves.
        ascii_stretch = _LONG_ASCII_AFTER.search(text, found.end() - 1)
        after = _ASCII_CUT.search(text, ascii_stretch.start() + 1) if ascii_stretch else None
        right = after.start() if after else len(text)
        if left > start:
            pieces += ascii_findall(text[start:left])
        pieces += unicode_findall(text[left:right])
        start = right
    return pieces


def _last_ascii_cut(text: str, low: int, high: int) -> int:
    """The last safe cut in text[low:high] (see _ASCII_CUT), or low."""
    space = text.rfind(" ", low + 1, high)
    while space > low:
        if "!" <= text[space - 1] <= "~" and "!" <= text[space + 1] <= "~":
            return space
        space = text.rfind(" ", low + 1, space)
    return low
