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

from dataclasses import dataclass

__all__ = ["MIN_LINE_BYTES", "LineOverlap", "hold_out", "line_overlap", "without_lines_of"]

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
