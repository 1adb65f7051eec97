"""The health view's reasons in the reader's language. The library writes each reason as one English sentence
(``bpe_core.analysis.health``, ``reachability``); the few shapes it writes are matched here and said again
through the catalog, the numbers, bytes and pre-tokens carried over as they are. A reason of another shape is
shown as the library wrote it."""

from __future__ import annotations

import re
from functools import partial

from playground.i18n import N_, t

_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"never emitted \(inside bigger tokens (?P<n>[\d,]+) times\)"),
        N_("never emitted (inside bigger tokens {n} times)"),
    ),
    (
        re.compile(r"never emitted \(not even inside a bigger token\)"),
        N_("never emitted (not even inside a bigger token)"),
    ),
    (
        re.compile(
            r"emitted (?P<alone>[\d,]+) times alone, (?P<within>[\d,]+) inside bigger tokens: (?P<share>.+?)(?=; |$)"
        ),
        N_("emitted {alone} times alone, {within} inside bigger tokens: {share}"),
    ),
    (
        re.compile(r"; and merging them never builds it, so no text at all gives it"),
        N_("; and merging them never builds it, so no text at all gives it"),
    ),
    (
        re.compile(r"bytes (?P<hex>[0-9A-F ]+): (?P<error>[a-z ]+) at byte (?P<at>\d+)"),
        N_("bytes {hex}: {error} at byte {at}"),
    ),
    (re.compile(r"its text is cut into (?P<n>\d+) pre-tokens?: "), N_("its text is cut into {n} pre-tokens: ")),
    (re.compile(r"merging its bytes by rank gives "), N_("merging its bytes by rank gives ")),
    (
        re.compile(r"merging its own symbols by the tokenizer's rule never joins them into it"),
        N_("merging its own symbols by the tokenizer's rule never joins them into it"),
    ),
)
_DECODE_ERRORS = {
    "invalid start byte": N_("invalid start byte"),
    "invalid continuation byte": N_("invalid continuation byte"),
    "unexpected end of data": N_("unexpected end of data"),
}


def reason_text(reason: str) -> str:
    """``reason`` in the session's language.

    >>> reason_text("never emitted (inside bigger tokens 1,204 times)")
    'never emitted (inside bigger tokens 1,204 times)'
    >>> reason_text("a sentence of another shape")
    'a sentence of another shape'
    >>> from playground.i18n import t
    >>> t("; ", lang="zh")  # what joins two reasons in Chinese
    '；'
    """
    for pattern, template in _SHAPES:
        reason = pattern.sub(partial(_said, template), reason)
    return reason.replace("; ", t("; "))  # the library's sentences joined as the language joins them (；)


def _said(template: str, found: re.Match[str]) -> str:
    values = found.groupdict()
    if "error" in values:
        values = {
            **values,
            "error": t(_DECODE_ERRORS[values["error"]]) if values["error"] in _DECODE_ERRORS else values["error"],
        }
    return t(template, **values)


def unreachable_said(tokenizer: str, parts: str, tokens: list[bytes]) -> str:
    """Why ``tokens`` never come out of encoding their own text, in the reader's language: single bytes were never
    learned (the alphabet training starts from, or SentencePiece's byte fallback); the others were, and are the
    under-trained "glitch tokens". ``tokenizer`` and ``parts`` are Markdown-safe already."""
    single = sum(len(token) == 1 for token in tokens)
    said = [
        t(
            "**{n:,} tokens of {tokenizer} never come out of encoding their own text** ({parts}).",
            n=len(tokens),
            tokenizer=tokenizer,
            parts=parts,
        )
    ]
    if single:
        said.append(
            t(
                "{n:,} of them are single bytes, which BPE did not learn: they are the alphabet it starts from (or the "
                "byte fallback), there so that any text can be encoded, and a byte above 127 alone is not a character.",
                n=single,
            )
        )
    if single < len(tokens):
        said.append(
            t(
                "BPE learned the other {n:,} because their bytes were frequent inside longer text; a model meets them "
                "only there, or never, so it learns them poorly: this is how under-trained “glitch tokens” come about.",
                n=len(tokens) - single,
            )
        )
    return " ".join(said)
