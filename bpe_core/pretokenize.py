"""Pre-tokenization: split text on special tokens, then into pre-tokens with a regex.

BPE never merges across a pre-token boundary, so the pattern decides which merges are possible
at all. The named patterns are the ones tiktoken uses for its encodings, copied verbatim.

Speed: on ASCII text the standard library's ``re`` runs a pattern about twice as fast as
``regex`` does, so each named pattern also has an ASCII twin for ``re`` (see ``_ascii_twin``),
and mostly-ASCII text is cut into ASCII and non-ASCII stretches at places where no pre-token can
cross, each split by the faster engine that is exact for it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

import regex

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# Sennrich et al. split on whitespace and drop it; as a byte-level pattern we keep each run of
# whitespace as its own pre-token so that decoding still gives back the exact text.
WHITESPACE_PATTERN = r"""\S+|\s+"""

PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "whitespace": WHITESPACE_PATTERN,
}
"""Named pre-tokenization patterns. ``None`` (no pre-tokenization) is accepted wherever a name is."""

# Every named pattern ends a pre-token at a letter followed by a newline, so the text can be cut
# there (to stream it, or to split it across processes) without changing its pre-tokens.
_SAFE_CUT = regex.compile(r"(?<=\p{L})(?=\n)")

# Big texts are pre-tokenized in pieces of about this many characters, so progress can be
# reported (and training cancelled) while the regex runs.
CHUNK_CHARS = 1 << 16


def pattern_regex(pattern: str | None) -> str | None:
    """The regex for a pattern name, or the pattern itself if it is a regex string.

    >>> pattern_regex("gpt2") == GPT2_PATTERN
    True
    >>> pattern_regex(None) is None
    True
    """
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a name, a regex string or None, not {type(pattern).__name__}")
    return PATTERNS.get(pattern, pattern)


@lru_cache(maxsize=32)
def compile_pattern(pattern: str | None) -> regex.Pattern | None:
    """Compile a pattern name or regex; a broken regex raises ValueError naming the problem."""
    source = pattern_regex(pattern)
    if source is None:
        return None
    if source == "":
        raise ValueError("the pre-tokenization pattern is empty")
    try:
        compiled = regex.compile(source)
    except regex.error as error:
        raise ValueError(f"invalid pre-tokenization pattern {source!r}: {error}") from None
    if compiled.match("") is not None and compiled.fullmatch("") is not None and compiled.search("a") is None:
        raise ValueError(f"pre-tokenization pattern {source!r} matches only empty strings")
    return compiled


@lru_cache(maxsize=32)
def _special_regex(special_tokens: tuple[str, ...]) -> regex.Pattern | None:
    if not special_tokens:
        return None
    # Longest first, so that of two overlapping special tokens the longer one wins.
    ordered = sorted(set(special_tokens), key=lambda token: (-len(token), token))
    return regex.compile("|".join(regex.escape(token) for token in ordered))


def split_on_special(text: str, special_tokens: Iterable[str] = ()) -> Iterator[tuple[str, bool]]:
    """Yield ``(piece, is_special)`` in order; special tokens come out whole, longest match first.

    >>> list(split_on_special("a<|x|>b", ["<|x|>"]))
    [('a', False), ('<|x|>', True), ('b', False)]
    """
    special = _special_regex(tuple(special_tokens))
    if special is None:
        if text:
            yield text, False
        return
    start = 0
    for match in special.finditer(text):
        if match.start() > start:
            yield text[start : match.start()], False
        yield match.group(), True
        start = match.end()
    if start < len(text):
        yield text[start:], False


def pretokenize(text: str, pattern: str | None = "gpt2") -> list[str]:
    """Split text (containing no special tokens) into pre-tokens.

    >>> pretokenize("Hello world's end!")
    ['Hello', ' world', "'s", ' end', '!']
    >>> pretokenize("no split here", None)
    ['no split here']
    """
    compiled = compile_pattern(pattern)
    if compiled is None:
        return [text] if text else []
    ascii_findall = _ascii_findall(pattern_regex(pattern))
    if ascii_findall is not None:
        return _split_mostly_ascii(text, ascii_findall, compiled.findall)
    if compiled.groups:
        # findall would return the groups' text, not the whole match, for a custom regex with groups
        pieces = [match.group() for match in compiled.finditer(text)]
    else:
        pieces = compiled.findall(text)
    if sum(map(len, pieces)) != len(text):
        # A custom regex that skips characters would silently lose text on decode.
        raise ValueError(
            f"pre-tokenization pattern {pattern_regex(pattern)!r} does not cover the whole text; "
            "add an alternative such as |\\s+|. so that every character is matched"
        )
    return pieces


# -- the ASCII fast path ----------------------------------------------------------------------

# A space with printable ASCII on both sides: no named pattern puts a space anywhere but at the
# start of a pre-token, so a pre-token starts there; and as the text before it ends in a
# non-space, no lookahead or `$` before the cut depends on what follows it.
_ASCII_CUT = re.compile(r"(?<=[!-~]) (?=[!-~])")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_LONG_ASCII_AFTER = re.compile(r"[^\x00-\x7f][\x00-\x7f]{256}")  # a non-ASCII character, then 256 ASCII
_CLASS_OR_ESCAPE = regex.compile(r"\[(?:\\.|[^\]\\])*\]|\\p\{\w+\}|\\[sS]")
_POSSESSIVE = regex.compile(r"(?<=[+*?}])\+")


@lru_cache(maxsize=8)
def _ascii_findall(source: str | None) -> Callable[[str], list[str]] | None:
    """``findall`` of a named pattern's ASCII twin, or None for other patterns."""
    if source not in PATTERNS.values():
        return None
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


def _split_mostly_ascii(
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


def safe_chunks(text: str, pattern: str | None, chunk_chars: int = CHUNK_CHARS) -> list[str]:
    """Cut text into pieces of roughly chunk_chars whose pre-tokens are those of the whole text.

    Only the named patterns are known to be safe to cut; custom regexes and ``None`` are not cut.
    """
    if len(text) <= chunk_chars or pattern not in PATTERNS:
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


def count_pretokens(
    text: str,
    pattern: str | None = "gpt2",
    special_tokens: Iterable[str] = (),
    *,
    on_chunk: Callable[[int, int], None] | None = None,
    counts: Counter[str] | None = None,
) -> Counter[str]:
    """Count the pre-tokens of a text: the input to training.

    Special tokens are removed (nothing may merge with them or across them). The text is counted
    in pieces of about ``CHUNK_CHARS``, in this process: on this workload a process pool costs
    more than it gains (measured: 2 spawned workers took 1.3-2.2x the time of one on a 10 MB
    text), and spawning re-imports the caller's ``__main__``. For many cores or machines see
    ``bpe_core.distributed``. ``on_chunk(done, total)`` is called after each piece; an exception
    from it stops counting. With ``counts`` given, the text's counts are added to it and it is
    returned: adding pre-tokens one list at a time runs in C, adding one Counter to another does not.

    >>> sorted(count_pretokens("low low lower low").items())
    [(' low', 2), (' lower', 1), ('low', 1)]
    """
    compile_pattern(pattern)  # a broken pattern fails here, before any work starts
    pieces = [piece for piece, is_special in split_on_special(text, special_tokens) if not is_special]
    # Chunks are cut lazily, one piece at a time; the total for progress is estimated from sizes.
    total = sum(-(-len(piece) // CHUNK_CHARS) for piece in pieces)
    counts = Counter() if counts is None else counts
    done = 0
    for piece in pieces:
        for chunk in safe_chunks(piece, pattern):
            counts.update(pretokenize(chunk, pattern))
            done += 1
            if on_chunk:
                on_chunk(min(done, total), total)
    return counts
