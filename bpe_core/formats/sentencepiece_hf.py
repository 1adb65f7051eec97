"""A SentencePiece BPE model as a Hugging Face ``tokenizer.json``, built as ``transformers``' converter builds
Llama's and Mistral's (``LlamaConverter``): the pieces as the vocabulary, merges derived from the scores
(:attr:`SentencePieceTokenizer.merges`), ``<0xXX>`` byte fallback, the space as ▁ by a normalizer (``Prepend``
for the dummy prefix, ``Replace``), no pre-tokenizer, and the decoder that undoes it.

``tokenizers`` then gives ``sentencepiece``'s ids on text, except where the two libraries differ by design:
control pieces (``<s>``, ``[INST]``...) are added tokens, so their text in the input is read as the token, which
SentencePiece never does. What the file cannot hold is refused (a ValueError saying what): a normalization rule
other than identity (a precompiled character map), removing extra whitespace, whitespace as a suffix, UNUSED
pieces (SentencePiece splits them back after merging; ``tokenizers`` cannot).
"""

from __future__ import annotations

from typing import Any

from ..encoding.sentencepiece import PieceType, SentencePieceTokenizer
from ..encoding.sentencepiece.model import SPACE_SYMBOL


def sentencepiece_json(tokenizer: SentencePieceTokenizer) -> dict[str, Any]:
    """The ``tokenizer.json`` content for a SentencePiece model (see the module's docstring)."""
    refuse_what_json_cannot_hold(tokenizer)
    model = tokenizer.model
    spec = model.normalizer
    pieces = [entry.piece for entry in model.pieces]
    vocab = {piece: identifier for identifier, piece in reversed(list(enumerate(pieces)))}  # a name twice: first id
    unk = next(entry.piece for entry in model.pieces if entry.type == PieceType.UNKNOWN)
    added_types = {PieceType.CONTROL: True, PieceType.UNKNOWN: True, PieceType.USER_DEFINED: False}
    added = [
        {
            "id": identifier,
            "content": entry.piece,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            # user-defined symbols are found in the normalized text, as SentencePiece finds them
            "normalized": entry.type == PieceType.USER_DEFINED,
            "special": added_types[entry.type],
        }
        for identifier, entry in enumerate(model.pieces)
        if entry.type in added_types
    ]
    steps: list[dict[str, Any]] = []
    if spec.add_dummy_prefix:
        steps.append({"type": "Prepend", "prepend": SPACE_SYMBOL})
    if spec.escape_whitespaces:
        steps.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE_SYMBOL})
    decoder: list[dict[str, Any]] = [{"type": "Replace", "pattern": {"String": SPACE_SYMBOL}, "content": " "}]
    decoder += [{"type": "ByteFallback"}, {"type": "Fuse"}]
    if spec.add_dummy_prefix:
        decoder.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": steps} if steps else None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": {"type": "Sequence", "decoders": decoder},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": unk,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": True,
            "byte_fallback": bool(model.trainer.byte_fallback),
            "ignore_merges": False,
            "vocab": vocab,
            "merges": [[left, right] for left, right in tokenizer.merges],
        },
    }


def refuse_what_json_cannot_hold(tokenizer: SentencePieceTokenizer) -> None:
    """A ValueError naming what of this model a ``tokenizer.json`` has no exact place for, if anything."""
    model = tokenizer.model
    spec = model.normalizer
    problems = []
    if spec.precompiled_charsmap or (spec.name and spec.name != "identity"):
        problems.append(f"its normalization rule {spec.name or 'precompiled'!r} (a precompiled character map)")
    if spec.remove_extra_whitespaces:
        problems.append("removing extra whitespace")
    if model.trainer.treat_whitespace_as_suffix:
        problems.append("whitespace as a suffix")
    if any(entry.type == PieceType.UNUSED for entry in model.pieces):
        problems.append("UNUSED pieces (split back after merging)")
    if problems:
        raise ValueError(
            "this SentencePiece model cannot be saved as a Hugging Face tokenizer.json that encodes as it does: "
            f"{', '.join(problems)} have no exact place there"
        )
