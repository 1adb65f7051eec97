"""Splitting a piece of text the way Hugging Face ``tokenizers`` does: matches and the gaps between
them, then one of five behaviours for the matches (``SplitDelimiterBehavior``).

A piece is ``(text, at_start)``: ``at_start`` counts the piece's leading characters that stand at
offset 0 of the original text (0 for a piece further in). Only Metaspace's ``prepend_scheme:
"first"`` reads it, but every step keeps it so that it stays exact.

>>> spans = regex_spans(regex.compile(r"-"), "a-b--c")
>>> [text for text, _ in split_spans(("a-b--c", 1), spans, "MergedWithPrevious")]
['a-', 'b-', '-', 'c']
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from ..pretokenize import CHUNK_CHARS, PatternTimeout, regex_timeout_seconds, shown_pattern

Piece = tuple[str, int]
Span = tuple[int, int, bool]  # start, end (characters), is it a match

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

# Rust's ``regex`` crate (Hugging Face's \w and \s outside Oniguruma) reads these as Unicode properties.
RUST_WORD = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]"
RUST_SPACE = r"\p{White_Space}"


def regex_spans(compiled: regex.Pattern, text: str, invert: bool = False) -> list[Span]:
    """Every match of ``compiled`` in ``text`` and the gaps between them, in order: empty matches
    kept, except one right where the previous match ended (Oniguruma's iteration, not Python's).

    A custom regex runs within the project's time budget (see :mod:`bpe_core.pretokenize.patterns`).
    """
    if not text:
        return [(0, 0, invert)]
    budget = budget_for(text)
    spans: list[Span] = []
    previous = 0
    matched = False
    try:
        for match in compiled.finditer(text, timeout=budget):
            start, end = match.span()
            if start == end == previous and matched:
                continue  # Oniguruma (like Rust's regex) skips an empty match right after a match
            matched = True
            if start != previous:
                spans.append((previous, start, invert))
            spans.append((start, end, not invert))
            previous = end
    except TimeoutError:
        raise timed_out(compiled, budget, text) from None
    if previous != len(text):
        spans.append((previous, len(text), invert))
    return spans


def budget_for(text: str) -> float:
    """Seconds a file's regex may run on ``text`` (the project's budget per CHUNK_CHARS characters)."""
    return regex_timeout_seconds() * max(1.0, len(text) / CHUNK_CHARS)


def timed_out(compiled: regex.Pattern, budget: float, text: str) -> PatternTimeout:
    return PatternTimeout(
        f"the regex {shown_pattern(compiled.pattern)} took more than {budget:.3g} s on {len(text):,} "
        "characters: it backtracks catastrophically"
    )


def split_spans(piece: Piece, spans: list[Span], behavior: str) -> list[Piece]:
    """The pieces ``behavior`` makes of ``piece`` given its spans; empty pieces are dropped."""
    kept: list[list[int]] = []  # [start, end], merged as the behaviour says
    if behavior == "Isolated":
        kept = [[start, end] for start, end, _ in spans]
    elif behavior == "Removed":
        kept = [[start, end] for start, end, is_match in spans if not is_match]
    elif behavior == "Contiguous":
        previous = False
        for start, end, is_match in spans:
            if is_match == previous and kept:
                kept[-1][1] = end
            else:
                kept.append([start, end])
            previous = is_match
    elif behavior == "MergedWithPrevious":
        previous = False
        for start, end, is_match in spans:
            if is_match and not previous and kept:
                kept[-1][1] = end
            else:
                kept.append([start, end])
            previous = is_match
    elif behavior == "MergedWithNext":
        previous = False
        for start, end, is_match in reversed(spans):
            if is_match and not previous and kept:
                kept[-1][0] = start
            else:
                kept.append([start, end])
            previous = is_match
        kept.reverse()
    else:
        raise ValueError(f"unknown split behavior {behavior!r}; allowed: {', '.join(BEHAVIORS)}")
    text, at_start = piece
    return [(text[start:end], max(0, at_start - start)) for start, end in kept if end > start]


def split_each(pieces: list[Piece], splitter: Callable[[Piece], list[Piece]]) -> list[Piece]:
    """``splitter`` applied to every piece, the results in order."""
    out: list[Piece] = []
    for piece in pieces:
        out.extend(splitter(piece))
    return out
