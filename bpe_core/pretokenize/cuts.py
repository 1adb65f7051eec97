"""Where a text may be cut without changing its pre-tokens (or the special tokens it holds).

Every named pattern ends a pre-token at a letter followed by a newline, so a text cut there
splits into exactly the pre-tokens of the whole: counting can take a big text in pieces (for
progress, across processes, block by block from files) and the counts add up. After a special
token is a safe cut for any pattern: nothing merges across a special token.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

from .patterns import CHUNK_CHARS, is_named_pattern, split_on_special

_SAFE_CUT = regex.compile(r"(?<=\p{L})(?=\n)")
_LAST_SAFE_CUT = regex.compile(r"(?r)(?<=\p{L})(?=\n)")  # the same cut, searched backwards


def safe_chunks(text: str, pattern: str | None, chunk_chars: int = CHUNK_CHARS) -> list[str]:
    """Cut text into pieces of roughly chunk_chars whose pre-tokens are those of the whole text.

    Only the named patterns are known to be safe to cut; custom regexes and ``None`` are not cut.

    >>> safe_chunks("one\\ntwo\\nthree", "gpt2", chunk_chars=3)
    ['one', '\\ntwo', '\\nthree']
    """
    if len(text) <= chunk_chars or not is_named_pattern(pattern):
        return [text] if text else []
    chunks = []
    start = 0
    while len(text) - start > chunk_chars:
        cut = _SAFE_CUT.search(text, start + chunk_chars)
        if cut is None:
            break
        chunks.append(text[start : cut.start()])
        start = cut.start()
    chunks.append(text[start:])
    return chunks


def last_safe_cut(text: str, pattern: str | None, special_tokens: Iterable[str] = ()) -> int:
    """The last offset where ``text`` may be cut so that both sides count like the whole, or 0.

    A cut may go after a special token, or, for the named patterns, between a letter and a
    newline. The last ``len(longest special token)`` characters are never cut: a special token
    there may be only partly read, and so may change which special tokens the text holds before.

    >>> last_safe_cut("one\\ntwo\\nthr", "gpt2")
    7
    >>> last_safe_cut("one<|e|>two three", None, ["<|e|>"])
    8
    """
    specials = list(special_tokens)
    limit = len(text) - max(map(len, specials), default=0)
    spans = []
    offset = 0
    for piece, is_special in split_on_special(text, specials):
        if is_special:
            spans.append((offset, offset + len(piece)))
        offset += len(piece)
    cut = max((end for _, end in spans if end <= limit), default=0)
    if is_named_pattern(pattern):
        for match in _LAST_SAFE_CUT.finditer(text, cut + 1, max(cut, limit)):
            if not any(start < match.start() < end for start, end in spans):
                return match.start()
    return cut
