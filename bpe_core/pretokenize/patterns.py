"""What a pre-tokenization pattern is, and splitting with one: text on special tokens, then into
pre-tokens with the pattern's regex.

BPE never merges across a pre-token boundary, so the pattern decides which merges are possible
at all. The named patterns (:mod:`.named`) are the ones tiktoken uses for its encodings and those of the
open models (Llama 3, Qwen, Mistral's Tekken, DeepSeek V4), copied from the packages that ship them. A
regex equal to a named pattern's is that pattern (:func:`is_named_pattern`), fast path and safe cuts included.

Speed: the named patterns run on ASCII stretches through exact twins for the standard library's
``re`` (see :mod:`bpe_core.pretokenize.ascii_split`).

Bounded work: the named patterns are linear-time, but a custom regex can backtrack
catastrophically (``([\\w ]|[\\w ])+!|[\\s\\S]`` on a few KB of text would run for ages).
Every custom pattern therefore runs with a budget of :data:`REGEX_TIMEOUT_SECONDS` of CPU time (its
own thread's: a busy machine or busy threads beside it do not spend it) per :data:`CHUNK_CHARS`
characters of text (at least one budget per call); past it,
:class:`PatternTimeout` is raised. The budget is read from the environment variable
``BPE_REGEX_TIMEOUT`` (seconds) at each call, unless this module's constant is set. A named
pattern never runs under a budget, neither when split with nor when first compiled (its probe):
a budget cannot stop a linear pattern, only fail it on a busy machine.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

import regex

from .ascii_split import ascii_findall, split_mostly_ascii
from .bmp_twin import BmpSplit
from .named import PATTERNS
from .recursion import subroutine_call

_NAMED_SOURCES = frozenset(PATTERNS.values())

CHUNK_CHARS = 1 << 16
"""The unit of a custom pattern's time budget; big texts are also counted in pieces of about this
many characters (:func:`~bpe_core.pretokenize.counts.count_pretokens`), so that progress is
reported (and training can be cancelled) while the regex runs."""


REGEX_TIMEOUT_SECONDS: float | None = None
"""Seconds of CPU time a custom pattern may use per CHUNK_CHARS characters; None reads the environment variable
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


def is_named_pattern(pattern: str | None) -> bool:
    r"""Whether a pattern is a named one, by its name or its regex (a loaded tokenizer carries the regex): named
    patterns are linear, safe to cut (:mod:`.cuts`) and have an ASCII fast path.

    >>> is_named_pattern("llama3"), is_named_pattern(PATTERNS["llama3"]), is_named_pattern(r"\w+|\W")
    (True, True, False)
    """
    return isinstance(pattern, str) and (pattern in PATTERNS or pattern in _NAMED_SOURCES)


def pattern_regex(pattern: str | None) -> str | None:
    """The regex for a pattern name, or the pattern itself if it is a regex string.

    >>> pattern_regex("gpt2") == PATTERNS["gpt2"]
    True
    >>> pattern_regex(None) is None
    True
    """
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a name, a regex string or None, not {type(pattern).__name__}")
    return PATTERNS.get(pattern, pattern)


# Every printable ASCII character twice, a letter, an ideograph and an emoji beyond it, each pair on its own line (short
# runs: a backtracking pattern stays quick here). A pattern that matches only empty strings here (a lookaround, an
# anchor, ``(?:)``) gives no pre-tokens from any text; one that matches some character at all (``a*``) is a pattern,
# however odd, not a mistake.
_PROBE_TEXT = "\n".join(char * 2 for char in [*map(chr, range(32, 127)), "\t", "\u00e9", "\u4e2d", "\U0001f600"])


def compile_pattern(pattern: str | None) -> regex.Pattern | None:
    """Compile a pattern name or regex; a broken regex raises ValueError naming the problem.

    A named pattern (or a regex equal to one) is compiled once per process and never runs under a
    time budget, not even its first time: it is linear, so a budget could only fail it on a busy
    machine or under a small setting, never stop a runaway.

    >>> compile_pattern("gpt2") is compile_pattern(PATTERNS["gpt2"])
    True
    """
    source = pattern_regex(pattern)
    if source is None:
        return None
    if source in _NAMED_SOURCES:
        return _compile_named(source)
    return _compile_custom(source)


@cache  # at most len(PATTERNS) entries; custom patterns cannot evict them
def _compile_named(source: str) -> regex.Pattern:
    return regex.compile(source)


@cache  # as _compile_named
def _bmp_split(source: str) -> BmpSplit:
    """The non-ASCII stretches' splitter of a named pattern: ``regex``, or its BMP twin once it pays
    (:mod:`.bmp_twin`)."""
    return BmpSplit(source, _compile_named(source).findall)


@lru_cache(maxsize=32)
def compile_regex(source: str) -> regex.Pattern:
    """A regex for a stage other than pre-tokenization (a tokenizer.json's ``Replace``): compiled, a broken one a
    ValueError naming the problem. Unlike a pre-tokenization pattern it may match only empty text (``^`` inserts at
    each line's start); it runs within the same time budget (:func:`bpe_core.pipeline.splitting.regex_spans`).

    >>> compile_regex("^").pattern
    '^'
    """
    _refuse_calls(source, "regex")
    try:
        return regex.compile(source)
    except regex.error as error:
        raise ValueError(f"invalid regex {shown_pattern(source)}: {error}") from None


def _refuse_calls(source: str, what: str) -> None:
    call = subroutine_call(source)
    if call is not None:
        raise ValueError(
            f"{what} {shown_pattern(source)} calls a group ({call}): recursion and subroutine calls are not allowed "
            "(they can run out of memory, which no time budget stops)"
        )


@lru_cache(maxsize=32)
def _compile_custom(source: str) -> regex.Pattern:
    if source == "":
        raise ValueError("the pre-tokenization pattern is empty")
    _refuse_calls(source, "pre-tokenization pattern")
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
    source = compiled.pattern
    if source in _NAMED_SOURCES:
        # Linear-time patterns: no time budget, whose bookkeeping would cost a third of the speed (and which
        # a busy machine could exceed); compile_pattern did not probe them under one either.
        return split_mostly_ascii(text, ascii_findall(source), _bmp_split(source))
    pieces = _findall_within_budget(compiled, text)
    if sum(map(len, pieces)) != len(text):
        # A custom regex that skips characters would silently lose text on decode.
        named = (
            f" (a pattern's name? the names are {', '.join(PATTERNS)}; a reference's differs: cl100k_base's is cl100k)"
            if regex.fullmatch(r"[\w.-]+", source)
            else ""
        )
        raise ValueError(
            f"pre-tokenization pattern {shown_pattern(source)} does not cover the whole text; "
            f"add an alternative such as |\\s+|. so that every character is matched{named}"
        )
    return pieces


def _findall_within_budget(compiled: regex.Pattern, text: str) -> list[str]:
    """Every match of a custom pattern, or PatternTimeout once it runs past its budget."""
    per_chunk = regex_timeout_seconds()
    budget = per_chunk * max(1.0, len(text) / CHUNK_CHARS)
    # The regex module's timeout counts the CPU time of the whole process (measured: it fired at 0.5 s of process
    # time while this thread had used 0.26 s, beside a thread hashing without the GIL). So a budget spent by other
    # threads (a server's other sessions) is not this pattern's fault: run it again with twice the time, until a try
    # in which this thread itself used the budget. A runaway pattern is stopped within about twice its budget of its
    # own CPU time (each try gets twice the last one's).
    timeout = budget
    while True:
        started = time.thread_time()
        try:
            if compiled.groups:
                # findall would return the groups' text, not the whole match, for a regex with groups
                return [match.group() for match in compiled.finditer(text, timeout=timeout)]
            return compiled.findall(text, timeout=timeout)
        except TimeoutError:
            if time.thread_time() - started < budget:
                timeout *= 2
                continue
        raise PatternTimeout(
            f"pre-tokenization pattern {shown_pattern(compiled.pattern)} took more than {budget:.3g} s on "
            f"{len(text):,} characters: it backtracks catastrophically (typically a repeated group whose "
            "alternatives overlap, like ([\\w ]|[\\w ])+). Make the alternatives disjoint or use possessive "
            "quantifiers (++, *+) or atomic groups (?>...); or raise the budget with the environment "
            f"variable BPE_REGEX_TIMEOUT (now {per_chunk:g} s per {CHUNK_CHARS:,} characters)"
        )


def shown_pattern(source: str, limit: int = 120) -> str:
    r"""A pattern for an error message, as typed (one backslash stays one), in quotes; characters that
    do not print are escaped, and a huge pattern is cut short.

    >>> print(shown_pattern(r"\p{Foo}+" + "\t"))
    '\p{Foo}+\t'
    """
    cut = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in source[:limit])
    return f"'{cut}'" if len(source) <= limit else f"'{cut}...' ({len(source):,} characters)"
