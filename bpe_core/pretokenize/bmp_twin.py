r"""A second twin of each named pattern for the standard library's ``re``, exact on text of the Basic Multilingual
Plane (no character past U+FFFF): the non-ASCII stretches of mostly-ASCII splitting (:mod:`.ascii_split`).

``regex`` tests ``\p{..}`` classes character by character through its Unicode tables; ``re`` compiles a class of
BMP characters into a two-level bitmap (its ``BIGCHARSET``), one lookup a character. So each class and
``\p{..}``/``\s``/``\S`` of the pattern becomes the explicit ranges of the BMP characters that ``regex`` itself
matches with it (read once, from ``regex``'s own answers on all 65,536 code points): on BMP text every class
matches the same characters, so the twin finds the same pre-tokens. Measured on the non-ASCII stretches of
bench/encode.py's mixed text (21 languages): o200k 27 -> 11 ms, Llama 3 18 -> 8 ms. A class with characters past
U+FFFF would fall out of ``re``'s bitmap into a list of ranges scanned per character (7x slower than ``regex``,
measured), so the characters past U+FFFF (emoji) stay with ``regex``: a stretch holding some is cut at the safe cuts
of :mod:`.ascii_split` (a space between printable ASCII) nearest each run of them, and only those windows go to
``regex`` (bench/encode.py's mixed text sent 100,000 of its 266,000 non-ASCII stretch characters to ``regex`` for a
few emoji; o200k 25 -> 14 ms).

Building a twin costs ~50 ms (o200k: its classes ~20 ms, ``re.compile`` ~30 ms) against ~0.1 us saved a
character, so a process builds it only after :data:`TWIN_AFTER_CHARS` characters of BMP stretches went to
``regex`` with that pattern; a short text's first encode never pays it.

Case-insensitive letters (``(?i:'s|'t|..)``) are the one other thing the engines could read apart (``ſ`` is an
``s`` to both); the twin is used only if both give the same BMP characters for every such group.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

import regex

from .ascii_split import _ASCII_CUT, _CLASS_OR_ESCAPE, _V1_FLAG, _last_ascii_cut

TWIN_AFTER_CHARS = 1 << 19
"""Characters of BMP stretches a process splits with ``regex`` per pattern before it builds the twin (break-even:
~50 ms to build against ~0.1 us a character)."""
_BEYOND_BMP = "\U00010000"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]+")
_CASELESS = regex.compile(r"\(\?i:([^()]*)\)")
_ATOM = regex.compile(r"\[(?:\\.|[^\]\\])*\]|\\.|.", regex.DOTALL)


class BmpSplit:
    """``findall`` for the non-ASCII stretches of one named pattern: ``regex``'s, or the BMP twin's once built
    (see the module docstring).

    >>> from .named import PATTERNS
    >>> split = BmpSplit(PATTERNS["o200k"], regex.compile(PATTERNS["o200k"]).findall, after_chars=0)
    >>> split("🙂 Ünïcode"), split.twin is not None  # past U+FFFF: regex, and no twin built
    (['🙂', ' Ünïcode'], False)
    >>> split("Привет, мир! Ünïcode"), split.twin is not None
    (['Привет', ',', ' мир', '!', ' Ünïcode'], True)
    >>> split("Ünïcode 🙂! Привет")  # the twin built: regex only from the cut before the emoji to the one after
    ['Ünïcode', ' 🙂!', ' Привет']
    """

    def __init__(self, source: str, unicode_findall: Callable[[str], list[str]], after_chars: int = TWIN_AFTER_CHARS):
        self._source = source
        self._unicode_findall = unicode_findall
        self._left = after_chars  # BMP characters until the twin is built
        self.twin: Callable[[str], list[str]] | None = None

    def build(self) -> Callable[[str], list[str]]:
        """Build the twin now (a benchmark's warm start, a server that knows it will see much non-ASCII text)."""
        if self.twin is None:
            self.twin = bmp_twin_findall(self._source) or self._unicode_findall
        return self.twin

    def __call__(self, stretch: str) -> list[str]:
        if stretch and max(stretch) < _BEYOND_BMP:
            if self.twin is not None:
                return self.twin(stretch)
            self._left -= len(stretch)
            if self._left <= 0:
                return self.build()(stretch)
        elif stretch and self.twin is not None:
            return self._around_astral(stretch, self.twin)
        return self._unicode_findall(stretch)

    def _around_astral(self, stretch: str, twin: Callable[[str], list[str]]) -> list[str]:
        """A stretch with characters past U+FFFF: from the safe cut before each run of them to the one after by
        ``regex``, the rest by the twin (no pre-token crosses a safe cut, so each side splits alike alone)."""
        pieces: list[str] = []
        start = 0
        while (astral := _ASTRAL.search(stretch, start)) is not None:
            left = _last_ascii_cut(stretch, start, astral.start())
            after = _ASCII_CUT.search(stretch, astral.end())
            right = after.start() if after else len(stretch)
            if left > start:
                pieces += twin(stretch[start:left])
            pieces += self._unicode_findall(stretch[left:right])
            start = right
        if start < len(stretch):
            pieces += twin(stretch[start:])
        return pieces


@cache  # made when a twin is first built, not on import (128 KB)
def _bmp() -> str:
    """Every code point of the BMP, in order (surrogates too: a text may hold a lone one)."""
    return "".join(map(chr, range(0x10000)))


@lru_cache(maxsize=8)
def bmp_twin_findall(source: str) -> Callable[[str], list[str]] | None:
    """``findall`` of the BMP twin of a named pattern's regex, or None where ``re`` would read it otherwise."""
    twin = bmp_twin(source)
    if not _same_case_folding(source, twin):
        return None
    return re.compile(twin).findall


def _same_case_folding(source: str, twin: str) -> bool:
    """Whether ``re`` reads each atom of the twin's ``(?i:..)`` groups (a letter, a class) as ``regex`` reads the
    source's, on every BMP character; a group of anything but atoms and ``|`` is not vouched for."""
    version = regex.V1 if source.startswith(_V1_FLAG) else regex.V0
    groups = zip(_CASELESS.findall(source.removeprefix(_V1_FLAG)), _CASELESS.findall(twin), strict=True)
    for source_group, twin_group in groups:
        pairs = zip(_ATOM.findall(source_group), _ATOM.findall(twin_group), strict=True)
        for source_atom, twin_atom in pairs:
            if source_atom == "|":
                continue
            if source_atom in "?*+{}().^$" or source_atom.startswith("\\"):
                return False
            theirs = [match.start() for match in regex.finditer(f"(?i:{source_atom})", _bmp(), flags=version)]
            if [match.start() for match in re.finditer(f"(?i:{twin_atom})", _bmp())] != theirs:
                return False
    return True


def bmp_twin(source: str) -> str:
    r"""The pattern for ``re``, exact on BMP text: every class and ``\p{..}``/``\s``/``\S`` the explicit ranges of
    the BMP characters ``regex`` matches with it (a class with none: one that matches nothing).

    >>> print(bmp_twin(r"\p{Nd}{1,3}|[^\s\p{L}]").split("|")[0][:24])
    [\u0030-\u0039\u0660-\u0
    """
    version = regex.V1 if source.startswith(_V1_FLAG) else regex.V0
    source = source.removeprefix(_V1_FLAG)

    @cache  # o200k repeats its classes
    def explicit(cls: str) -> str:
        ranges = [(match.start(), match.end() - 1) for match in regex.finditer(f"{cls}+", _bmp(), flags=version)]
        if not ranges:
            return r"[^\x00-\U0010ffff]"
        return "[" + "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges) + "]"

    return _CLASS_OR_ESCAPE.sub(lambda match: explicit(match.group()), source)
