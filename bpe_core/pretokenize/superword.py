"""Superword chunks (SuperBPE's stage 2, :mod:`bpe_core.training.superword`): the pre-tokenization that lets
tokens span words, and the formats that cannot express it.

A superword tokenizer is an ordinary tokenizer whose pattern is :data:`SUPERWORD_PATTERN`; only a format that
stores the pattern can hold it (``bpe-playground``, ``hf``): saved as GPT-2 or tiktoken files and loaded back, it
would cut text into GPT-2 pre-tokens and never use its superwords.

>>> import regex
>>> regex.findall(SUPERWORD_PATTERN, "by the way, 2026 -- ok")
['by the way,', ' 2026', ' --', ' ok']
"""

from __future__ import annotations

from typing import Protocol

SUPERWORD_SPLIT = r" ?\p{N}++| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"
"""What stage 2 never merges with anything else: numbers, punctuation runs, spaces before whitespace."""
SUPERWORD_PATTERN = f"{SUPERWORD_SPLIT}|(?:(?!{SUPERWORD_SPLIT})[\\s\\S])+"
"""Stage 2's chunks as a findall pattern: the split's matches, and each stretch between them
(SuperBPE gives the split to Hugging Face's ``Split(behavior="isolated")``, which keeps both)."""


class HasPattern(Protocol):
    @property
    def pattern_regex(self) -> str | None: ...


def is_superword(tokenizer: HasPattern) -> bool:
    """Whether the tokenizer cuts text into superword chunks (its pattern is :data:`SUPERWORD_PATTERN`).

    Saved and loaded back in the ``bpe-playground`` or ``hf`` format, it still is.
    """
    return tokenizer.pattern_regex == SUPERWORD_PATTERN


def refuse_superword(tokenizer: HasPattern, fmt: str) -> None:
    """A ValueError for formats that do not store the pattern (``gpt2``, ``tiktoken``): loaded back,
    a superword tokenizer would cut text into GPT-2 pre-tokens and never use its superwords."""
    if is_superword(tokenizer):
        raise ValueError(
            f"a superword tokenizer cannot be saved in {fmt} format: {fmt} files do not store the "
            "pre-tokenization pattern, and its tokens span words only with its own pattern; "
            "save it as bpe-playground or hf"
        )
