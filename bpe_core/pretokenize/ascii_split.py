"""The ASCII fast path of pre-tokenization for the named patterns.

On ASCII text the standard library's ``re`` runs a pattern about twice as fast as ``regex``
does, so each named pattern also has an ASCII twin for ``re`` (see ``_ascii_twin``), and
mostly-ASCII text is cut into ASCII and non-ASCII stretches at places where no pre-token can
cross, each split by the faster engine that is exact for it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import lru_cache

import regex

from .rewrites import possessive, without_dead_alternatives

# A space with printable ASCII on both sides: no named pattern puts a space anywhere but at the
# start of a pre-token, so a pre-token starts there; and as the text before it ends in a
# non-space, no lookahead or `$` before the cut depends on what follows it.
_ASCII_CUT = re.compile(r"(?<=[!-~]) (?=[!-~])")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_MIN_ASCII_STRETCH = 256  # ASCII characters between two non-ASCII ones that are worth ``re``
_SCAN_BLOCK = 512
_SET = r"\[(?:\\.|[^\]\\])*\]"
# A class, a V1 difference or intersection of two classes ([[..]--[..]], [[..]&&[..]]: DeepSeek's), a property
# or \s, \S.
_CLASS_OR_ESCAPE = regex.compile(rf"\[{_SET}(?:--|&&){_SET}\]|{_SET}|\\p\{{\w+\}}|\\[sS]")
_V1_FLAG = "(?V1)"  # regex's version 1 (set operations); ``re`` has no such flag and needs none for the twin
_POSSESSIVE = regex.compile(r"(?<=[+*?}])\+")
# ``re`` has possessive quantifiers from Python 3.11; they save it the backtracking bookkeeping of
# each repeat (about a tenth of splitting English with cl100k's pattern, measured).
_RE_HAS_POSSESSIVE = sys.version_info >= (3, 11)
# A block for ``regex``: non-ASCII runs joined across the ASCII between them while it is shorter than
# _MIN_ASCII_STRETCH, found by one match (a Python loop per run cost ~20 ms on 0.65 MB of 21 languages, where
# every word of Russian or Hindi is a run). The gap's repeat is possessive: giving an ASCII character back
# would leave an ASCII character where the next non-ASCII one must match, so it never helps.
_GAP = f"[\\x00-\\x7f]{{0,{_MIN_ASCII_STRETCH - 1}}}"
_NON_ASCII_BLOCK = re.compile(f"[^\\x00-\\x7f]+(?:{_GAP}{'+' if _RE_HAS_POSSESSIVE else ''}[^\\x00-\\x7f]+)*")


@lru_cache(maxsize=8)
def ascii_findall(source: str) -> Callable[[str], list[str]]:
    """``findall`` of the ASCII twin of a named pattern's regex (only the named patterns are linear
    and possessive in the way ``_ascii_twin`` relies on)."""
    return re.compile(_ascii_twin(source)).findall


def _ascii_twin(source: str, *, rewrite: bool = True) -> str:
    r"""The pattern for ``re``, exact on ASCII text: every class and ``\p{..}``/``\s``/``\S`` becomes
    the explicit set of ASCII characters that ``regex`` itself matches with it (``re``'s own
    ``\s`` differs: it also matches U+001C..U+001F); a class with no ASCII member becomes one of
    non-ASCII characters, which never matches where the twin runs. With ``rewrite``, alternatives
    that cannot match ASCII are dropped and repeats that could never be given back are made
    possessive (:mod:`.rewrites`). Before Python 3.11, whose ``re`` lacks them, possessive
    quantifiers become plain ones (nothing follows them inside their alternative, so they never
    backtrack anyway).

    >>> print(_ascii_twin(r"\p{N}{1,3}|\s+(?!\S)"))
    [0-9]{1,3}+|[\x09-\x0d\x20]+(?![\x00-\x08\x0e-\x1f\x21-\x7f])
    """
    ascii_chars = [chr(code) for code in range(128)]
    version = regex.V1 if source.startswith(_V1_FLAG) else regex.V0
    source = source.removeprefix(_V1_FLAG)

    def explicit(match: regex.Match) -> str:
        members = [c for c in ascii_chars if regex.fullmatch(match.group(), c, flags=version)]
        return _char_class(members)

    twin = _CLASS_OR_ESCAPE.sub(explicit, source)
    twin = possessive(without_dead_alternatives(twin)) if rewrite else twin
    return twin if _RE_HAS_POSSESSIVE else _POSSESSIVE.sub("", twin)


def _char_class(members: list[str]) -> str:
    r"""``[...]`` for these characters, with runs as ranges and everything but letters and digits as
    ``\xNN``, so the class reads the same whatever the characters are."""
    if not members:
        return "[^\\x00-\\x7f]"

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
        found = _next_non_ascii(text, start)
        if found is None:
            pieces += ascii_findall(text[start:])
            break
        left = _last_ascii_cut(text, start, found)
        # Short ASCII stretches between non-ASCII characters (French, say) stay in the block:
        # switching engines for each would cost more than it saves.
        block = _NON_ASCII_BLOCK.match(text, found)
        assert block is not None  # text[found] is not ASCII
        after = _ASCII_CUT.search(text, block.end())
        right = after.start() if after else len(text)
        if left > start:
            pieces += ascii_findall(text[start:left])
        pieces += unicode_findall(text[left:right])
        start = right
    return pieces


def _next_non_ascii(text: str, start: int) -> int | None:
    """Where the next non-ASCII character at or after start is.

    ``re`` scans a character at a time; ``str.isascii`` of a slice checks many bytes at once, so
    ASCII text is skipped a block at a time and only the block with the character is searched.
    """
    while start < len(text):
        end = start + _SCAN_BLOCK
        if not text[start:end].isascii():
            found = _NON_ASCII.search(text, start)
            assert found is not None  # the block holds one
            return found.start()
        start = end
    return None


def _last_ascii_cut(text: str, low: int, high: int) -> int:
    """The last safe cut in text[low:high] (see _ASCII_CUT), or low."""
    space = text.rfind(" ", low + 1, high)
    while space > low:
        if "!" <= text[space - 1] <= "~" and "!" <= text[space + 1] <= "~":
            return space
        space = text.rfind(" ", low + 1, space)
    return low
