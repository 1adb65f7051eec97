"""Choose a vocab size for a continued tokenizer (``playground.bases``: a base + N new merges): the sizes are the
base's own (no new merge) to base + N, never a cut into the base itself, and the answer is "keep k of the N new
merges". The curve of every size is the whole tokenizer's (``bpe_core.analysis.choose.size_curve``) cut at the
base's last merge; a typed size outside the range is dropped, and said so."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bpe_core import analysis
from bpe_core.analysis.choose import SizeCurve, SizeRow, Suggestion
from playground.bases import base_offset
from playground.i18n import listed, t
from playground.text import plain
from ui.compare.common import Subject


@dataclass(frozen=True)
class Span:
    """The sizes of a continued tokenizer: from its base's (``offset`` merges: none of the new ones) to all."""

    base_label: str
    offset: int  # the base's merges: k of the whole tokenizer's curve where the new merges start
    new: int  # the new merges
    low: int  # the base's vocab size
    high: int  # the continued tokenizer's


def span_of(subject: Subject) -> Span | None:
    """The span of a continued tokenizer (None for one trained from bytes, or loaded from files)."""
    trained = subject.trained
    if trained is None or not trained.request.base:
        return None
    new = trained.num_merges
    offset = base_offset(subject.tokenizer, new)
    low = analysis.vocab_size_of(subject.tokenizer, offset)
    return Span(trained.request.base_label, offset, new, low, low + new)


def default_sizes(span: Span) -> list[int]:
    """The base, half the new merges, all of them.

    >>> default_sizes(Span("Llama 3", 127_744, 8_000, 128_256, 136_256))
    [128256, 132256, 136256]
    """
    return sorted({span.low, span.low + span.new // 2, span.high})


def kept_sizes(sizes: Sequence[int], span: Span) -> tuple[list[int], list[int]]:
    """The sizes inside the span, and those dropped."""
    inside = [size for size in sizes if span.low <= size <= span.high]
    return inside, [size for size in sizes if size not in inside]


def dropped_note(dropped: Sequence[int], span: Span) -> str:
    return t(
        "Vocab sizes {sizes} were dropped: {base} + {n:,} new merges has sizes from {low:,} ({base} itself) to "
        "{high:,}.",
        sizes=listed([f"{size:,}" for size in dropped]),
        base=plain(span.base_label),
        n=span.new,
        low=span.low,
        high=span.high,
    )


def cut(found: SizeCurve, span: Span) -> SizeCurve:
    """The curve from the base's size on (index k: the first k new merges)."""
    start = span.offset
    rare = found.rare_tokens[start:] if found.rare_tokens is not None else None
    return replace(
        found, vocab_sizes=found.vocab_sizes[start:], token_counts=found.token_counts[start:], rare_tokens=rare
    )


def relative(rows: Sequence[SizeRow], span: Span) -> list[SizeRow]:
    """Rows measured on the whole tokenizer, their merges counted from the base (as the cut curve's index)."""
    return [replace(row, merges=row.merges - span.offset) for row in rows]


def keep_text(span: Span, suggestion: Suggestion) -> str:
    """The suggestion as a continued tokenizer's answer: how many of the new merges to keep."""
    return t(
        "Keep **{k:,} of the {n:,} new merges** (vocab size {size:,}: {base}'s {low:,} tokens + {k:,}).",
        k=suggestion.merges,
        n=span.new,
        size=suggestion.vocab_size,
        base=plain(span.base_label),
        low=span.low,
    )
