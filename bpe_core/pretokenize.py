"""Pre-tokenization: split text on special tokens, then into pre-tokens with a regex.

BPE never merges across a pre-token boundary, so the pattern decides which merges are possible
at all. The named patterns are the ones tiktoken uses for its encodings, copied verbatim.

Speed: the named patterns run on ASCII stretches through exact twins for the standard library's
``re`` (see :mod:`bpe_core.ascii_split`).

Bounded work: the named patterns are linear-time, but a custom regex can backtrack
catastrophically (``([\\w ]|[\\w ])+!|[\\s\\S]`` on a few KB of text would run for ages).
Every custom pattern therefore runs with a time budget of :data:`REGEX_TIMEOUT_SECONDS` per
:data:`CHUNK_CHARS` characters of text (at least one budget per call); past it,
:class:`PatternTimeout` is raised. The budget is read from the environment variable
``BPE_REGEX_TIMEOUT`` (seconds) at each call, unless the module constant is set.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

import regex

from .ascii_split import ascii_findall, split_mostly_ascii

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


REGEX_TIMEOUT_SECONDS: float | None = None
"""Seconds a custom pattern may run per CHUNK_CHARS characters; None reads the environment variable
BPE_REGEX_TIMEOUT at each call (default 1). A sane pattern splits 64K characters in about 20 ms,
so the default leaves a wide margin for a busy machine while stopping a runaway pattern in seconds."""


def regex_timeout_seconds() -> float:
    """The time budget per CHUNK_CHARS characters (see REGEX_TIMEOUT_SECONDS)."""
    if REGEX_TIMEOUT_SECONDS is not None:
        return REGEX_TIMEOUT_SECONDS
    value = os.environ.get("BPE_REGEX_TIMEOUT", "1")
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ValueError(
            f"the environment variable BPE_REGEX_TIMEOUT must be a positive number of seconds, not {value!r}"
        )
    return seconds


class PatternTimeout(ValueError):
    """A custom pre-tokenization pattern ran past its time budget (catastrophic backtracking).

    >>> issubclass(PatternTimeout, ValueError)
    True
    """


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


_PROBE_TEXT = "Ab1 !\n\t\u00e9\u4e2d\U0001f600"


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
        raise ValueError(f"invalid pre-tokenization pattern {shown_pattern(source)}: {error}") from None
    # A pattern whose every match is empty would give no pre-tokens; catch it before any work.
    probe = _findall_within_budget(compiled, _PROBE_TEXT)
    if probe and not any(probe):
        raise ValueError(f"pre-tokenization pattern {shown_pattern(source)} matches only empty strings")
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
    source = pattern_regex(pattern)
    if source in _NAMED_SOURCES:
        # Linear-time patterns: no time budget, whose bookkeeping would cost a third of the speed.
        return split_mostly_ascii(text, ascii_findall(source), compiled.findall)
    pieces = _findall_within_budget(compiled, text)
    if sum(map(len, pieces)) != len(text):
        # A custom regex that skips characters would silently lose text on decode.
        raise ValueError(
            f"pre-tokenization pattern {shown_pattern(source)} does not cover the whole text; "
            "add an alternative such as |\\s+|. so that every character is matched"
        )
    return pieces


_NAMED_SOURCES = frozenset(PATTERNS.values())


def _findall_within_budget(compiled: regex.Pattern, text: str) -> list[str]:
    """Every match of a custom pattern, or PatternTimeout once it runs past its budget."""
    per_chunk = regex_timeout_seconds()
    budget = per_chunk * max(1.0, len(text) / CHUNK_CHARS)
    try:
        if compiled.groups:
            # findall would return the groups' text, not the whole match, for a regex with groups
            return [match.group() for match in compiled.finditer(text, timeout=budget)]
        return compiled.findall(text, timeout=budget)
    except TimeoutError:
        raise PatternTimeout(
            f"pre-tokenization pattern {shown_pattern(compiled.pattern)} took more than {budget:.3g} s on "
            f"{len(text):,} characters: it backtracks catastrophically (typically a repeated group whose "
            "alternatives overlap, like ([\\w ]|[\\w ])+). Make the alternatives disjoint or use possessive "
            "quantifiers (++, *+) or atomic groups (?>...); or raise the budget with the environment "
            f"variable BPE_REGEX_TIMEOUT (now {per_chunk:g} s per {CHUNK_CHARS:,} characters)"
        ) from None


def shown_pattern(source: str, limit: int = 120) -> str:
    r"""A pattern for an error message, as typed (one backslash stays one), in quotes; characters that
    do not print are escaped, and a huge pattern is cut short.

    >>> print(shown_pattern(r"\p{Foo}+" + "\t"))
    '\p{Foo}+\t'
    """
    cut = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in source[:limit])
    return f"'{cut}'" if len(source) <= limit else f"'{cut}...' ({len(source):,} characters)"


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
