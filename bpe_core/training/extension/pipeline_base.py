"""Extending a Hugging Face pipeline (:class:`~bpe_core.pipeline.PipelineTokenizer`, DeepSeek V4's
``tokenizer.json`` say) whose model is a byte-level BPE.

The corpus goes through the pipeline's own stages: its added tokens (and the new special tokens) are
split out and never merged, the rest normalized and pre-tokenized by its normalizer and pre-tokenizer;
each distinct piece, spelled in GPT-2's byte alphabet as the model sees it, is encoded by the model
exactly as the pipeline encodes it (``ignore_merges`` included). The new tokens are spelled in that
alphabet too and appended to the model's vocabulary and merges; everything else (stages, decoder,
added tokens) is the base's. A merge ranked after all of the base's only joins tokens it made itself,
so the base's merges all apply first, as ``tokenizers`` applies them, then the new in order.

Refused, with the feature named: a model with ``continuing_subword_prefix`` or ``end_of_word_suffix``
(its tokens are not bytes), a pipeline with no ``ByteLevel`` pre-tokenizer, or a model vocabulary
that lacks one of the 256 byte tokens. (``dropout`` is refused when the file is loaded.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from ...pipeline import BPE, AddedToken, AddedTokens, PipelineTokenizer
from ...pipeline.pre_tokenizers import BYTE_TO_CHAR
from ...pipeline.pre_tokenizers import ByteLevel as ByteLevelStep
from ..shape import MergeRecord
from .hf_json import appended_hf_text


def check_pipeline(base: PipelineTokenizer) -> None:
    """Nothing when ``base`` is a byte-level BPE pipeline; else a ValueError naming what is not."""
    model, name = base.model, base.name or "this tokenizer.json"
    for option, value in (("continuing_subword_prefix", model.prefix), ("end_of_word_suffix", model.suffix)):
        if value:
            raise ValueError(
                f"{name} cannot be extended: its model has {option} {value!r}, so its tokens are not bytes "
                "(extend takes byte-level BPE: a ByteLevel pre-tokenizer, no prefix or suffix, no dropout)"
            )
    if getattr(model, "dropout", None):
        raise ValueError(f"{name} cannot be extended: its model has dropout (random merges)")
    if not _has_byte_level(base.pre_tokenizer):
        raise ValueError(
            f"{name} cannot be extended: its pre-tokenizer has no ByteLevel step, so the model's pieces are "
            "not bytes (extend takes byte-level BPE pipelines, such as DeepSeek V4's)"
        )
    missing = [byte for byte, char in BYTE_TO_CHAR.items() if char not in model.vocab]
    if missing:
        raise ValueError(
            f"{name} cannot be extended: its model vocabulary lacks {len(missing)} of the 256 byte tokens "
            f"(byte {missing[0]:#04x} first), so it is not byte-level BPE"
        )


def _has_byte_level(stage: object) -> bool:
    return isinstance(stage, ByteLevelStep) or any(_has_byte_level(step) for step in getattr(stage, "steps", []))


def with_specials(base: PipelineTokenizer, specials: Mapping[str, int]) -> AddedTokens:
    """The base's added tokens, spelled as before, and the new special tokens (matched in the raw text)."""
    old = base.added
    spelling = {token.content: old.spelling[token.id] for token in old.tokens}
    tokens = old.tokens + [AddedToken(text, identifier, special=True) for text, identifier in specials.items()]
    return AddedTokens(
        tokens,
        lambda text: spelling.get(text, text),
        once_normalized={token.id for token in old.tokens},
        special_texts=old.special_texts | set(specials),
    )


def counting_pipeline(base: PipelineTokenizer, specials: Mapping[str, int]) -> PipelineTokenizer:
    """The base, or (with new special tokens) a copy that splits the text on them too."""
    if not specials:
        return base
    return _pipeline(base, base.model, with_specials(base, specials))


def extended_pipeline(
    base: PipelineTokenizer, trace: list[MergeRecord], specials: Mapping[str, int]
) -> PipelineTokenizer:
    """The base with the new special tokens, tokens and merges; its ``source_json`` (when the base has one)
    is the base's file with them appended (:mod:`.hf_json`), what ``save`` writes for it."""
    model = base.model
    spell = lambda token: "".join(BYTE_TO_CHAR[byte] for byte in token)  # noqa: E731
    vocab = dict(model.vocab)
    used = set(vocab.values())
    if trace or specials:  # as hf_json writes them: every added token in the model's vocabulary
        vocab.update(
            (text, i) for text, i in base.special_tokens.items() if text and text not in vocab and i not in used
        )
    vocab.update(specials)
    vocab.update((spell(record.token), record.new_id) for record in trace)
    names = model.vocab_r
    ranked = sorted(model.merges.items(), key=lambda item: item[1][0])
    merges = [(names[left], names[right]) for (left, right), _ in ranked]
    merges += [(spell(record.left), spell(record.right)) for record in trace]
    unknown = model.vocab_r[model.unk_id] if model.unk_id is not None else None
    grown = BPE(
        vocab,
        merges,
        unk_token=unknown,
        fuse_unk=model.fuse_unk,
        byte_fallback=model.byte_fallback,
        ignore_merges=model.ignore_merges,
    )
    added = with_specials(base, specials) if specials else base.added
    tokenizer = ExtendedPipeline(
        base.normalizer, base.pre_tokenizer, grown, base.decoder, added, name=base.name, space_mark=base.space_mark
    )
    if base.source_json is not None:
        new = {record.new_id: record.token for record in trace}
        pairs = [(record.left, record.right) for record in trace]
        # A partial of a module function, not a lambda: the result may be pickled (to or from a worker).
        tokenizer.make_json = partial(
            appended_hf_text, base.source_json, new, pairs, dict(specials), base.special_tokens, "tokenizer.json"
        )
    return tokenizer


class ExtendedPipeline(PipelineTokenizer):
    """An extended pipeline whose ``tokenizer.json`` (its base's, appended to) is written out when first asked
    for: DeepSeek's takes a second or two to parse and write again, and most extensions are looked at first."""

    make_json: Callable[[], str] | None = None
    _json: str | None = None

    @property
    def source_json(self) -> str | None:
        if self._json is None and self.make_json is not None:
            self._json, self.make_json = self.make_json(), None
        return self._json

    @source_json.setter
    def source_json(self, text: str | None) -> None:
        self._json, self.make_json = text, None


def _pipeline(base: PipelineTokenizer, model: BPE, added: AddedTokens) -> PipelineTokenizer:
    return PipelineTokenizer(
        base.normalizer, base.pre_tokenizer, model, base.decoder, added, name=base.name, space_mark=base.space_mark
    )
