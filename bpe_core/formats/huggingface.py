"""Hugging Face ``tokenizer.json``: writing ours, and loading the BPE ones of the wild.

Loading: every BPE ``tokenizer.json`` whose stages :mod:`bpe_core.pipeline` reproduces loads with
exactly ``tokenizers``' ids (``encode(text, add_special_tokens=False)``); see :func:`load_hf`. The
stages are read by :mod:`.hf_stages` and :mod:`.hf_model`; :mod:`.hf_plain` says when a file is a
plain :class:`Tokenizer`.

What is written: a ``Sequence`` pre-tokenizer (``Split`` with our pattern, behaviour ``Isolated``,
then ``ByteLevel`` with ``use_regex: false``), a ``BPE`` model with ``ignore_merges: true`` (a
pre-token that is itself a token is emitted whole, as tiktoken and :class:`Tokenizer` do), its merges
(a tokenizer built from ranks, whose file lists none: every split of every token, as Hugging Face's own
converter writes them, :func:`~bpe_core.encoding.ranks.all_split_merges`), a
``ByteLevel`` decoder, and the special tokens as ``added_tokens`` with ``special: true``. The
``tokenizers`` library gives the same ids as :meth:`Tokenizer.encode` for it. Our regexes use
Python ``regex`` syntax and Hugging Face runs Oniguruma, so the pattern is translated (see
:func:`to_oniguruma`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..encoding.ranks import all_split_merges
from ..encoding.sentencepiece import SentencePieceTokenizer
from ..encoding.tokenizer import Tokenizer
from ..pipeline import AddedTokens, PipelineTokenizer
from ..pipeline.normalizers import Replace
from ..pipeline.pre_tokenizers import ByteLevel, Metaspace
from ._common import FormatError, PathLike, json_type_name, parse_json, read_text, target_file, write_text
from .gpt2 import byte_level_spellings
from .hf_model import read_added_tokens, read_model
from .hf_plain import plain_tokenizer
from .hf_stages import Reader, read_decoder, read_normalizer, read_pre_tokenizer
from .oniguruma import to_oniguruma
from .sentencepiece_hf import sentencepiece_json

HF_FILENAME = "tokenizer.json"


def hf_tokenizer_json(tokenizer: Tokenizer) -> dict[str, Any]:
    """The Hugging Face ``tokenizer.json`` content for ``tokenizer``, as a dict.

    >>> import bpe_core
    >>> spec = hf_tokenizer_json(bpe_core.train("aaabdaaabac", 258).tokenizer)
    >>> spec["model"]["merges"]
    ['a a', 'aa a']
    """
    regular, as_text = byte_level_spellings(tokenizer, "hf")
    vocab = {as_text[token]: identifier for identifier, token in regular}
    # Specials go in the model vocab too: tokenizers only honours an added token's id if the model has it.
    vocab.update(tokenizer.special_tokens)
    vocab = dict(sorted(vocab.items(), key=lambda item: item[1]))
    pre_tokenizers: list[dict[str, Any]] = []
    regex_source = tokenizer.pattern_regex
    if regex_source is not None:
        try:
            oniguruma = to_oniguruma(regex_source)
        except ValueError as error:
            raise FormatError(
                HF_FILENAME,
                f"the pattern cannot be written for Hugging Face tokenizers, whose regex engine (Oniguruma) "
                f"reads it differently: {error}",
                field="pre_tokenizer",
            ) from None
        pre_tokenizers.append(
            {"type": "Split", "pattern": {"Regex": oniguruma}, "behavior": "Isolated", "invert": False}
        )
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    pre_tokenizers.append(byte_level)
    added = [
        {
            "id": identifier,
            "content": special,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for special, identifier in sorted(tokenizer.special_tokens.items(), key=lambda item: item[1])
    ]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": tokenizer.normalization} if tokenizer.normalization else None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": pre_tokenizers},
        "post_processor": None,
        "decoder": dict(byte_level),
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            # tiktoken (and Tokenizer) emit a pre-token that is itself a token whole.
            "ignore_merges": True,
            "vocab": vocab,
            # GPT-2-alphabet strings never contain a space, so "left right" is unambiguous.
            "merges": [f"{as_text[left]} {as_text[right]}" for left, right in _listed_merges(tokenizer)],
        },
    }


def _listed_merges(tokenizer: Tokenizer) -> list[tuple[bytes, bytes]]:
    # Ranks alone say only which token merges first; tokenizers merges listed pairs, so a pair tiktoken would
    # join (any two neighbours that make a token) must be listed: every split, as the converter does.
    if tokenizer.merges_derived:
        return all_split_merges(tokenizer.merge_ranks, tokenizer.mergeable_ranks)
    return tokenizer.merges


def save_hf(tokenizer: Tokenizer | PipelineTokenizer | SentencePieceTokenizer, path: PathLike) -> list[Path]:
    """Write a Hugging Face ``tokenizer.json`` (a directory gets ``tokenizer.json``): a Tokenizer's
    (:func:`hf_tokenizer_json`), a pipeline's own file as it was loaded, a SentencePiece model's as Hugging
    Face's converter builds it (:mod:`.sentencepiece_hf`, which refuses what it cannot hold).

    >>> import tempfile, bpe_core, tokenizers
    >>> tokenizer = bpe_core.train("hello hello world", 262).tokenizer
    >>> path, = save_hf(tokenizer, tempfile.mkdtemp())
    >>> tokenizers.Tokenizer.from_file(str(path)).encode("hello world").ids == tokenizer.encode("hello world")
    True
    """
    if isinstance(tokenizer, PipelineTokenizer):
        if tokenizer.source_json is None:
            raise ValueError("this pipeline was built in code, not loaded from a tokenizer.json: no file to write")
        text = tokenizer.source_json.rstrip("\n")
    else:
        spec = hf_tokenizer_json(tokenizer) if isinstance(tokenizer, Tokenizer) else sentencepiece_json(tokenizer)
        text = json.dumps(spec, ensure_ascii=False, indent=1)
    return [write_text(target_file(path, HF_FILENAME), text + "\n")]


def load_hf(path: PathLike, *, name: str | None = None) -> Tokenizer | PipelineTokenizer:
    """Load a Hugging Face ``tokenizer.json`` with a BPE model: ids exactly as ``tokenizers`` gives them.

    A plain :class:`Tokenizer` when the file is one (ours, GPT-2's, and the like: see
    :mod:`.hf_plain`), else a :class:`~bpe_core.pipeline.PipelineTokenizer` running its stages.
    What neither can reproduce (another model, dropout, an unsupported normalizer, pre-tokenizer
    or decoder) is refused with a FormatError naming the field.
    """
    path = Path(path)
    text = read_text(path)
    return parse_hf(parse_json(text, path), source=path, name=name, text=text)


def parse_hf(
    spec: Any, *, source: PathLike = HF_FILENAME, name: str | None = None, text: str | None = None
) -> Tokenizer | PipelineTokenizer:
    """:func:`load_hf` on the parsed JSON; ``source`` names the file in errors. A pipeline keeps the file's
    ``text`` (or the JSON written again) as ``source_json``: what :func:`save_hf` writes for it."""
    if not isinstance(spec, dict):
        raise FormatError(source, f"must be a JSON object, not {json_type_name(spec)}")
    read = Reader(source)
    if spec.get("version", "1.0") != "1.0":
        raise read.fail("version", f"{spec.get('version')!r} is not a version this loader knows (1.0)")
    model = read_model(spec, read)
    added, once_normalized, special_texts = read_added_tokens(spec, read, model)
    normalizer = read_normalizer(spec["normalizer"], read) if spec.get("normalizer") is not None else None
    pre_tokenizer = read_pre_tokenizer(spec["pre_tokenizer"], read) if spec.get("pre_tokenizer") is not None else None
    decoder = read_decoder(spec.get("decoder"), read)
    if any(isinstance(stage, ByteLevel) for stage in _stages(pre_tokenizer)) and any(
        isinstance(stage, Replace) and _matches_empty(stage) for stage in _stages(normalizer)
    ):
        # tokenizers leaves what such a Replace inserts out of ByteLevel's byte mapping (a fuzz found it).
        raise read.fail(
            "normalizer",
            "a Replace whose regex can match empty text, before a ByteLevel pre-tokenizer: "
            "tokenizers then leaves the inserted text unmapped, which this library does not do",
        )
    plain = plain_tokenizer(normalizer, pre_tokenizer, model, added, decoder, name)
    if plain is not None:
        return plain
    spell = (lambda text: normalizer.normalize(text, 1)[0]) if normalizer is not None else None
    try:
        added_tokens = AddedTokens(added, spell, once_normalized=once_normalized, special_texts=special_texts)
    except ValueError as error:
        raise read.fail("added_tokens", str(error)) from None
    pipeline = PipelineTokenizer(
        normalizer,
        pre_tokenizer,
        model,
        decoder,
        added_tokens,
        name=name,
        space_mark=_space_mark(normalizer, pre_tokenizer),
    )
    pipeline.source_json = text if text is not None else json.dumps(spec, ensure_ascii=False)
    return pipeline


def _space_mark(normalizer: Any, pre_tokenizer: Any) -> str | None:
    """How tokens spell a space: Metaspace's replacement, or what a Replace normalizer puts for " "."""
    for stage in _stages(pre_tokenizer):
        if isinstance(stage, Metaspace):
            return stage.replacement
    for stage in _stages(normalizer):
        if isinstance(stage, Replace) and stage.shown == " " and stage.content:
            return stage.content
    return None


def _stages(stage: Any) -> list[Any]:
    steps = getattr(stage, "steps", None)
    return [stage] if steps is None else [inner for step in steps for inner in _stages(step)]


def _matches_empty(stage: Replace) -> bool:
    """Whether a Replace's regex matches empty text somewhere in a few probes (``x*``, ``^``, ``(?=a)``)."""
    return any(
        match.start() == match.end() for probe in ("", "a", "a b\n1", "\t") for match in stage.compiled.finditer(probe)
    )
