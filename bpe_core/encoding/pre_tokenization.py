"""How a tokenizer cuts text into pieces before BPE, as data: part of :class:`~.shape.TokenizerShape`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PreTokenization:
    """How a tokenizer cuts text into the pieces BPE runs on, as data (a view words it in its own language).

    At most one way is set: ``pattern`` (a regex, by name or source), ``stages`` (a Hugging Face pipeline's
    pre-tokenizers, described; ``""`` when its file has none), ``whole_text`` (SentencePiece: the whole normalized
    text, spaces as ▁) or ``whitespace`` (classic BPE: the whitespace-separated words); none of them: the text between
    special tokens is one piece. ``source``: where a loaded file's pattern came from (``"stored in the file"``,
    ``"given"``, ``"recognised: …"``, GPT-2's assumed one), None otherwise.

    >>> from bpe_core import train, train_classic
    >>> train("low lower", 258).tokenizer.pre_tokenization
    PreTokenization(pattern='gpt2', source=None, stages=None, whole_text=False, whitespace=False)
    >>> train_classic("low lower", 9).tokenizer.pre_tokenization.whitespace
    True
    """

    pattern: str | None = None
    source: str | None = None
    stages: str | None = None
    whole_text: bool = False
    whitespace: bool = False
