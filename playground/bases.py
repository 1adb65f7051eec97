"""Where a training starts: from bytes (plain BPE), or from a byte-level tokenizer it continues (``bpe_core.extend``:
new merges learned on the corpus, appended after every existing id, merge and special token).

A base is one of the session's ``base`` values: :data:`BYTES`, the name of a built-in byte-level model
(``playground.references.BYTE_LEVEL_REFERENCES``: every one loads with merge ranks), or ``"file:" + label`` of a
tokenizer the person loaded from files (never in a link). A request keeps a built-in base by its name and a loaded
one by a digest of its content (:func:`content_digest`), so a 100,000-merge base is named, not copied, wherever
the request goes (the cache, the store).

>>> parse_base("llama3"), parse_base("bytes")
('llama3', 'bytes')
>>> parse_base("deepseek-v4")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
playground.fields.LinkValueError: bytes, or a byte-level built-in model with merge ranks ...
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import bpe_core
from bpe_core import Tokenizer
from bpe_core.reference import ReferenceDataError, build_reference, reference_spec
from bpe_core.training.extension.core import extended_tokenizer
from playground import caches
from playground.fields import LinkValueError
from playground.i18n import later
from playground.references import BYTE_LEVEL_REFERENCES, REFERENCES, short_name

BYTES = "bytes"
"""Plain training: from the 256 bytes."""
FILE = "file:"
"""A loaded tokenizer's base value starts with this (the label follows); the same prefix as the pages' file choices."""
EXTENDABLE: tuple[str, ...] = BYTE_LEVEL_REFERENCES
"""The built-in models training can continue: those that load as a byte-level ``bpe_core.Tokenizer``."""
MAX_NEW_MERGES = 100_000
"""The most merges the app appends to a base."""
MAX_EXTENDED_VOCAB = 400_000
"""The largest vocab size a link may ask for (Qwen 3.6's 248,077 tokens + new merges); from bytes the app trains at
most ``playground.kinds.MAX_VOCAB``."""


def parse_base(text: str) -> str:
    """A link's ``base``: bytes, or a built-in byte-level model; a model that is not byte-level BPE with merge
    ranks, or no model at all, is a LinkValueError saying which are."""
    if text == BYTES or text in EXTENDABLE:
        return text
    names = ", ".join(EXTENDABLE)
    if text in REFERENCES:
        raise LinkValueError(
            later(
                "bytes, or a byte-level built-in model with merge ranks ({names}): {model} is not byte-level BPE "
                "with merge ranks, so training cannot continue it. The tokenizer you have is kept",
                names=names,
                model=short_name(text),
            )
        )
    raise LinkValueError(
        later(
            "bytes, or a byte-level built-in model with merge ranks ({names}): there is no built-in model of that "
            "name. The tokenizer you have is kept",
            names=names,
        )
    )


def is_file(base: str) -> bool:
    return base.startswith(FILE)


def reference_base(name: str) -> Tokenizer:
    """A built-in base, built offline once and shared (the registered cache of the references)."""
    found: Tokenizer = caches.REFERENCES.get_or_compute(name, lambda: build_reference(name))
    return found


_digests = caches.BASE_DIGESTS


def content_digest(tokenizer: Tokenizer) -> str:
    """A digest of a tokenizer's tokens by id, special tokens, pattern and normalization (computed once per object):
    what a request keeps of a loaded base."""
    found = _digests.get(tokenizer)
    if found is None:
        digest = hashlib.sha256(
            repr((tokenizer.pattern, sorted(tokenizer.special_tokens.items()), tokenizer.normalization)).encode()
        )
        for identifier, token in sorted(tokenizer.vocab.items()):
            digest.update(b"%d:" % identifier + token.hex().encode() + b";")
        found = _digests[tokenizer] = digest.hexdigest()[:24]
    return found


def extendable_files(loaded: Mapping[str, Any]) -> list[str]:
    """The base values of the loaded tokenizers training can continue (byte-level ``bpe_core.Tokenizer`` s)."""
    return [FILE + label for label, tokenizer in loaded.items() if _extendable(tokenizer)]


def _extendable(tokenizer: Any) -> bool:
    return isinstance(tokenizer, Tokenizer) and tokenizer.byte_level


class BaseMissing(ValueError):
    """A session's base that is not here (a file loaded before a reload that could not be kept); ``message`` says
    so (a ``playground.i18n.later`` sentence)."""

    def __init__(self, message: Any):
        super().__init__(str(message))
        self.message = message


def base_tokenizer(base: str, loaded: Mapping[str, Any]) -> Tokenizer:
    """The tokenizer a session's ``base`` names (a built-in one is built once, shared); BaseMissing if it is gone."""
    if not is_file(base):
        try:
            return reference_base(base)
        except ReferenceDataError as error:  # its package is not installed here (a link from another server)
            raise BaseMissing(
                later(
                    "{model} cannot be continued on this server: its vocabulary files are not installed ({error}).",
                    model=short_name(base),
                    error=str(error)[:300],
                )
            ) from None
    tokenizer = loaded.get(base.removeprefix(FILE))
    if not _extendable(tokenizer):
        raise BaseMissing(
            later(
                "The tokenizer to continue, {label}, is not loaded in this session (files loaded before a reload are "
                "kept only when they can be written as merges): load it again on the Export page, or start from "
                "bytes.",
                label=base.removeprefix(FILE),
            )
        )
    assert isinstance(tokenizer, Tokenizer)  # (said for mypy: _extendable checked it)
    return tokenizer


def request_base(base: str, loaded: Mapping[str, Any]) -> tuple[str, str, int]:
    """What a request keeps of a session's base: its id (a built-in name, or ``file:`` + content digest), its label,
    and its size (every token, special ones too)."""
    tokenizer = base_tokenizer(base, loaded)
    if is_file(base):
        return FILE + content_digest(tokenizer), base.removeprefix(FILE), len(tokenizer.vocab)
    return base, short_name(base), len(tokenizer.vocab)


def found_base(request_base_id: str, loaded: Mapping[str, Any]) -> Tokenizer | None:
    """The loaded tokenizer whose content a request's ``file:`` base names (None when none is loaded)."""
    digest = request_base_id.removeprefix(FILE)
    for tokenizer in loaded.values():
        if _extendable(tokenizer) and content_digest(tokenizer) == digest:
            return tokenizer
    return None


def extend_text(
    text: str,
    base: Tokenizer,
    vocab_size: int,
    progress: Callable[[int, int], None] | None,
    min_frequency: int,
    max_token_length: int | None,
) -> tuple[bpe_core.TrainResult, list[bpe_core.MergeRecord]]:
    """``bpe_core.extend`` as a training result (its trace returned apart: the new merges only, ids after the base's
    highest)."""
    extended = bpe_core.extend(
        base,
        text,
        vocab_size,
        progress=progress,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
    )
    result = bpe_core.TrainResult(
        extended.tokenizer,
        [],
        {"base": base.name, "vocab_size": vocab_size, "first_new_id": extended.first_new_id},
        extended.seconds,
        sum(extended.pretoken_counts.values()),
        len(extended.pretoken_counts),
        extended.stopped_early,
        extended.stop_reason,
    )
    return result, extended.trace


def extended_again(base: Tokenizer, records: list[bpe_core.MergeRecord]) -> Tokenizer:
    """The extended tokenizer rebuilt from its base and new merges (the store keeps only those)."""
    return extended_tokenizer(base, records)


def own_format(base: str) -> str:
    """The export format a continued tokenizer is written in by default: its base's own (GPT-2 files, tiktoken ranks),
    else a Hugging Face ``tokenizer.json`` (a loaded file, Mistral's Tekken).

    >>> own_format("llama3"), own_format("gpt2"), own_format("file:0123")
    ('tiktoken', 'gpt2', 'hf')
    """
    if is_file(base) or base not in REFERENCES:
        return "hf"
    kind = reference_spec(base).kind
    return kind if kind in ("gpt2", "tiktoken") else "hf"


def base_offset(tokenizer: bpe_core.TokenizerShape, new_merges: int) -> int:
    """How many merges an extended tokenizer has before its new ones: its round 0 is the base's tokens (the merge of
    rank ``offset + r`` is new merge ``r``). 0 for a tokenizer trained from bytes."""
    return int(tokenizer.num_merges) - new_merges
