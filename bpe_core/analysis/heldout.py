"""Held-out text: the part of a corpus kept from training, and how much of a text a training text already has.

A number measured on text the tokenizer was trained on flatters it: its merges were chosen for that
very text. So a held-out text must share no text with the training text. Two tools:

- :func:`hold_out` cuts a corpus into the part to train on and the part held out: the last share of
  its lines, so the held-out part is exactly what training never sees;
- :func:`line_overlap` measures how much of a text is in another: the share of its lines (of at least
  :data:`MIN_LINE_BYTES` bytes, stripped) that occur as lines of the training text. Short lines
  (``else:``, ``}``, ``Example:``) recur in any text of a kind and say nothing about leakage;
  :func:`without_lines_of` drops the overlapping lines, so a held-out text made with it measures 0.

>>> train, held = hold_out("one\\ntwo\\nthree\\nfour\\n", 0.25)
>>> train, held
('one\\ntwo\\nthree\\n', 'four\\n')
>>> line_overlap("the same long line of text\\nanother line that is new\\n", "the same long line of text\\n").share
0.5
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MIN_LINE_BYTES",
    "LineOverlap",
    "Part",
    "PartCount",
    "count_parts",
    "count_tokens",
    "hold_out",
    "line_overlap",
    "premiums",
    "sample_parts",
    "split_sections",
    "without_lines_of",
]

MIN_LINE_BYTES = 20
"""Lines shorter than this (UTF-8 bytes, stripped) are not compared: they recur in any text of a kind."""


def hold_out(text: str, share: float) -> tuple[str, str]:
    """``(train, heldout)``: the text without its last ``share`` of lines, and those lines (``train +
    heldout == text``). At least one line goes to each side; a text of fewer than two lines, or a
    share outside (0, 1), is a ValueError.

    >>> hold_out("a\\nb\\nc", 0.1)
    ('a\\nb\\n', 'c')
    """
    if not isinstance(text, str):
        raise TypeError(f"the text must be str, not {type(text).__name__}")
    if not 0 < share < 1:
        raise ValueError(f"the share held out must be between 0 and 1, not {share}")
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        raise ValueError("the text has fewer than two lines: there is nothing to hold out")
    held = min(len(lines) - 1, max(1, round(len(lines) * share)))
    cut = len(text) - sum(map(len, lines[-held:]))
    return text[:cut], text[cut:]


def _compared(text: str, min_bytes: int) -> list[str]:
    """The lines of ``text`` that are compared: stripped, at least ``min_bytes`` bytes."""
    stripped = (line.strip() for line in text.splitlines())
    return [line for line in stripped if len(line.encode("utf-8", errors="surrogatepass")) >= min_bytes]


@dataclass(frozen=True)
class LineOverlap:
    """How many of a text's compared lines occur in another text."""

    shared: int  # compared lines of the text found among the other's lines
    lines: int  # compared lines of the text
    min_bytes: int

    @property
    def share(self) -> float:
        """``shared / lines`` (0.0 for a text with no compared line)."""
        return self.shared / self.lines if self.lines else 0.0


def line_overlap(text: str, training: str, *, min_bytes: int = MIN_LINE_BYTES) -> LineOverlap:
    """How much of ``text`` is in ``training``: its lines (stripped, at least ``min_bytes`` bytes)
    that are also lines of ``training``, counted with repeats.

    >>> line_overlap("short\\n", "short\\n")
    LineOverlap(shared=0, lines=0, min_bytes=20)
    """
    seen = set(_compared(training, min_bytes))
    lines = _compared(text, min_bytes)
    return LineOverlap(sum(line in seen for line in lines), len(lines), min_bytes)


def without_lines_of(text: str, training: str, *, min_bytes: int = MIN_LINE_BYTES) -> str:
    """``text`` without the lines :func:`line_overlap` would find in ``training`` (line ends kept), so
    that ``line_overlap(result, training).shared == 0``.

    >>> without_lines_of("kept\\nthis line is also in the other text\\nend", "this line is also in the other text")
    'kept\\nend'
    """
    seen = set(_compared(training, min_bytes))
    kept = [line for line in text.splitlines(keepends=True) if line.strip() not in seen]
    return "".join(kept)


# -- a held-out text by part: code, prose, Chinese... ------------------------------------------------

SECTION_HEADING = re.compile(r"^### +(\S[^\n]*?)[ \t]*$", re.MULTILINE)
"""A line ``### name`` opens a part named ``name`` (a fixed pattern: no text of a user's is compiled)."""
MAX_PART_NAME = 80
"""Characters of a part's name kept (a heading is a stranger's text)."""


@dataclass(frozen=True)
class Part:
    """One part of a held-out text (a file, or a section opened by a ``### name`` line)."""

    name: str
    text: str

    @property
    def n_bytes(self) -> int:
        return len(self.text.encode("utf-8", errors="surrogatepass"))


def split_sections(text: str, first: str = "") -> list[Part]:
    """``text`` cut at its ``### name`` lines, each heading line starting its own part, so the parts joined are
    ``text``; what comes before the first heading is a part named ``first`` (left out when empty). A text without
    headings is one part.

    >>> [(part.name, part.text) for part in split_sections("intro\\n### code\\nx = 1\\n### 中文\\n你好\\n", "start")]
    [('start', 'intro\\n'), ('code', '### code\\nx = 1\\n'), ('中文', '### 中文\\n你好\\n')]
    """
    starts = [(match.start(), match.group(1)[:MAX_PART_NAME]) for match in SECTION_HEADING.finditer(text)]
    parts = [Part(first, text[: starts[0][0]] if starts else text)]
    for (start, name), (end, _) in zip(starts, [*starts[1:], (len(text), "")]):
        parts.append(Part(name, text[start:end]))
    return [part for i, part in enumerate(parts) if part.text or (i == 0 and not starts)]


def sample_parts(parts: list[Part], limit: int) -> list[Part]:
    """At most about ``limit`` characters of ``parts`` in all, every part kept: each its start, a share of ``limit``
    as large as its share of the text (at least one line), cut at a line end. Parts within the limit come back as
    they are.

    >>> [part.text for part in sample_parts([Part("a", "1\\n2\\n3\\n4\\n"), Part("b", "x\\ny\\n")], 6)]
    ['1\\n2\\n', 'x\\n']
    """
    total = sum(len(part.text) for part in parts)
    if total <= limit:
        return list(parts)
    kept = []
    for part in parts:
        share = max(1, limit * len(part.text) // total)
        end = part.text.rfind("\n", 0, share) + 1 or part.text.find("\n", share) + 1 or len(part.text)
        kept.append(Part(part.name, part.text[:end]))
    return kept


@dataclass(frozen=True)
class PartCount:
    """One part's size and its tokens with one tokenizer."""

    name: str
    n_bytes: int
    tokens: int

    @property
    def bytes_per_token(self) -> float:
        return self.n_bytes / self.tokens if self.tokens else 0.0


CHUNK_CHARS = 1 << 20
"""Characters handed to the encoder at a time, so a caller hears of progress (and can stop) between chunks."""


def count_tokens(tokenizer: Any, text: str, on_chunk: Callable[[int], None] | None = None) -> int:
    """The tokens ``tokenizer.encode(text)`` gives, counted in chunks of :data:`CHUNK_CHARS` characters with the
    tokenizer's streaming encoder when it has one (``encode_iterable_batches``: exact across chunk ends), calling
    ``on_chunk(characters)`` after each chunk; memory stays bounded by a chunk's ids.

    >>> import bpe_core
    >>> count_tokens(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac")
    5
    """
    batches = getattr(tokenizer, "encode_iterable_batches", None)
    if batches is None or len(text) <= CHUNK_CHARS:
        tokens = len(tokenizer.encode(text))
        if on_chunk is not None:
            on_chunk(len(text))
        return tokens

    def chunks() -> Iterator[str]:
        for start in range(0, len(text), CHUNK_CHARS):
            chunk = text[start : start + CHUNK_CHARS]
            yield chunk
            if on_chunk is not None:  # the encoder asks for the next chunk: this one is read
                on_chunk(len(chunk))

    return sum(len(ids) for ids in batches(chunks()))


def count_parts(tokenizer: Any, parts: list[Part], on_chunk: Callable[[int], None] | None = None) -> list[PartCount]:
    """Each part's bytes and tokens with ``tokenizer`` (any ``bpe_core.TokenizerShape``), the whole of every part
    (:func:`count_tokens`).

    >>> import bpe_core
    >>> parts = split_sections("### en\\nhello\\n### zh\\n你好\\n")
    >>> [(c.name, c.n_bytes, c.tokens) for c in count_parts(bpe_core.reference("gpt2"), parts)]
    [('en', 13, 5), ('zh', 14, 9)]
    """
    return [PartCount(part.name, part.n_bytes, count_tokens(tokenizer, part.text, on_chunk)) for part in parts]


def premiums(counts: list[PartCount], baseline: int = 0) -> list[float]:
    """What each part pays per byte against part ``baseline`` (the first): its tokens per byte ÷ the baseline's (1.0
    for the baseline; 1.5: a byte of this part costs half as many tokens again). 0.0 for an empty part.

    >>> premiums([PartCount("en", 100, 25), PartCount("zh", 90, 45)])
    [1.0, 2.0]
    """
    base = counts[baseline].bytes_per_token if counts else 0.0
    return [base / count.bytes_per_token if count.bytes_per_token else 0.0 for count in counts]
