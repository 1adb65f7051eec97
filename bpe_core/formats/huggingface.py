"""Hugging Face ``tokenizer.json``, for byte-level BPE.

What is written: a ``Sequence`` pre-tokenizer (``Split`` with our pattern, behaviour ``Isolated``,
then ``ByteLevel`` with ``use_regex: false``), a ``BPE`` model with ``ignore_merges: true`` (a
pre-token that is itself a token is emitted whole, as tiktoken and :class:`Tokenizer` do), a
``ByteLevel`` decoder, and the special tokens as ``added_tokens`` with ``special: true``. The
``tokenizers`` library gives the same ids as :meth:`Tokenizer.encode` for it. Our regexes use
Python ``regex`` syntax and Hugging Face runs Oniguruma, so the pattern is translated (see
:func:`to_oniguruma`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..encoding.tokenizer import Tokenizer
from ..pretokenize import compile_pattern
from ._common import (
    FormatError,
    PathLike,
    build_tokenizer,
    is_id,
    json_type_name,
    parse_json,
    read_text,
    target_file,
    typed_field,
    write_text,
)
from .gpt2 import byte_level_spellings, from_gpt2_text
from .oniguruma import to_oniguruma
from .oniguruma_to_python import from_oniguruma

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
        "normalizer": None,
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
            "merges": [f"{as_text[left]} {as_text[right]}" for left, right in tokenizer.merges],
        },
    }


def save_hf(tokenizer: Tokenizer, path: PathLike) -> list[Path]:
    """Write a Hugging Face ``tokenizer.json`` (a directory gets ``tokenizer.json``).

    >>> import tempfile, bpe_core, tokenizers
    >>> tokenizer = bpe_core.train("hello hello world", 262).tokenizer
    >>> path, = save_hf(tokenizer, tempfile.mkdtemp())
    >>> tokenizers.Tokenizer.from_file(str(path)).encode("hello world").ids == tokenizer.encode("hello world")
    True
    """
    text = json.dumps(hf_tokenizer_json(tokenizer), ensure_ascii=False, indent=1)
    return [write_text(target_file(path, HF_FILENAME), text + "\n")]


def load_hf(path: PathLike, *, name: str | None = None) -> Tokenizer:
    """Load a byte-level BPE Hugging Face ``tokenizer.json`` (ours, GPT-2's, and the like).

    The pattern comes from the ``Split`` pre-tokenizer (a ``ByteLevel`` with ``use_regex: true``
    means GPT-2's); ``added_tokens`` are the special tokens. Models that are not byte-level BPE,
    normalizers and prefix spaces are refused with a FormatError, since this library could not
    reproduce them.
    """
    path = Path(path)
    spec = parse_json(read_text(path), path)
    return parse_hf(spec, source=path, name=name)


def parse_hf(spec: Any, *, source: PathLike = HF_FILENAME, name: str | None = None) -> Tokenizer:
    """:func:`load_hf` on the parsed JSON; ``source`` names the file in errors."""
    if not isinstance(spec, dict):
        raise FormatError(source, f"must be a JSON object, not {json_type_name(spec)}")
    model = typed_field(spec, "model", dict, source)
    if model.get("type", "BPE") != "BPE":
        raise FormatError(source, f"only BPE models can be loaded, not {model.get('type')!r}", field="model.type")
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key):
            raise FormatError(source, f"{model[key]!r} is not supported (byte-level BPE only)", field=f"model.{key}")
    if spec.get("normalizer") is not None:
        raise FormatError(source, "normalizers are not supported; it must be null", field="normalizer")
    pattern = _hf_pattern(spec.get("pre_tokenizer"), source)

    raw_vocab = typed_field(model, "vocab", dict, source, "model.vocab")
    specials: dict[str, int] = {}
    for index, added in enumerate(typed_field(spec, "added_tokens", list, source, default=[])):
        where = f"added_tokens[{index}]"
        if not isinstance(added, dict) or not isinstance(added.get("content"), str) or not is_id(added.get("id")):
            raise FormatError(source, "must be an object with a string 'content' and an integer 'id'", field=where)
        specials[added["content"]] = added["id"]

    merges: list[tuple[bytes, bytes]] = []
    merged_texts: set[str] = set()
    for index, merge in enumerate(typed_field(model, "merges", list, source, "model.merges")):
        where = f"model.merges[{index}]"
        if isinstance(merge, str):
            parts = merge.split(" ")
        elif isinstance(merge, list) and all(isinstance(part, str) for part in merge):
            parts = merge
        else:
            raise FormatError(source, f"must be 'left right' or [left, right], not {merge!r}", field=where)
        if len(parts) != 2:
            raise FormatError(source, f"must have two tokens, not {len(parts)}", field=where)
        pair = []
        for part in parts:
            token = from_gpt2_text(part)
            if token is None or not token:
                raise FormatError(source, f"token {part!r} is not in GPT-2's byte alphabet", field=where)
            if part not in raw_vocab:
                raise FormatError(source, f"token {part!r} is not in model.vocab", field=where)
            pair.append(token)
        if parts[0] + parts[1] not in raw_vocab:
            raise FormatError(
                source, f"the merge makes {parts[0] + parts[1]!r}, which is not in model.vocab", field=where
            )
        merges.append((pair[0], pair[1]))
        merged_texts.add(parts[0] + parts[1])

    vocab: dict[int, bytes] = {}
    for text, identifier in raw_vocab.items():
        where = f"model.vocab[{text!r}]"
        if not is_id(identifier):
            raise FormatError(source, f"id must be a non-negative integer, not {identifier!r}", field=where)
        if text in specials:
            if specials[text] != identifier:
                raise FormatError(
                    source, f"id {identifier} differs from the added token's id {specials[text]}", field=where
                )
            continue
        token = from_gpt2_text(text)
        if token is None or not (len(token) == 1 or text in merged_texts):
            raise FormatError(source, "neither a single byte, a merge result nor an added token", field=where)
        if identifier in vocab:
            raise FormatError(source, f"id {identifier} is used twice", field=where)
        vocab[identifier] = token
    if len(vocab) < 256:
        raise FormatError(
            source, f"has {len(vocab)} single-byte and merged tokens; all 256 bytes are needed", field="model.vocab"
        )
    return build_tokenizer(source, lambda: Tokenizer(vocab, merges, specials, pattern, name=name))


def _hf_pattern(pre_tokenizer: Any, source: PathLike) -> str | None:
    """Our pattern for a pre-tokenizer we can reproduce exactly: [Split(Regex, Isolated)] then ByteLevel."""
    where = "pre_tokenizer"
    if not isinstance(pre_tokenizer, dict):
        raise FormatError(
            source, f"must be a ByteLevel pre-tokenizer or a Sequence, not {json_type_name(pre_tokenizer)}", field=where
        )
    if pre_tokenizer.get("type") == "Sequence":
        steps = pre_tokenizer.get("pretokenizers")
        where = "pre_tokenizer.pretokenizers"
        if not isinstance(steps, list) or not steps:
            raise FormatError(source, "must be a non-empty list of pre-tokenizers", field=where)
    else:
        steps = [pre_tokenizer]
    for index, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("type"), str):
            raise FormatError(source, "must be an object with a string 'type'", field=f"{where}[{index}]")
    *splits, byte_level = steps
    if byte_level["type"] != "ByteLevel":
        raise FormatError(source, f"the last pre-tokenizer must be ByteLevel, not {byte_level['type']}", field=where)
    if byte_level.get("add_prefix_space"):
        raise FormatError(source, "add_prefix_space is not supported", field=f"{where}.add_prefix_space")
    uses_regex = byte_level.get("use_regex", True)
    if len(splits) > 1 or (splits and uses_regex):
        raise FormatError(
            source,
            "only one Split before a ByteLevel without use_regex can be reproduced, not "
            + " + ".join(step["type"] for step in steps),
            field=where,
        )
    if not splits:
        # ByteLevel's built-in regex is GPT-2's original pattern (tiktoken's r50k is equivalent).
        return "gpt2" if uses_regex else None
    split, where = splits[0], f"{where}[0]" if where.endswith("pretokenizers") else where
    pattern_spec = split.get("pattern")
    regex_source = pattern_spec.get("Regex") if isinstance(pattern_spec, dict) else None
    if split["type"] != "Split" or not isinstance(regex_source, str):
        raise FormatError(source, "expected a Split pre-tokenizer with a Regex pattern", field=where)
    if split.get("behavior") != "Isolated" or split.get("invert"):
        raise FormatError(source, "the Split must have behavior Isolated and invert false", field=where)
    try:
        pattern = from_oniguruma(regex_source)
        compile_pattern(pattern)
    except ValueError as error:
        raise FormatError(source, str(error), field=f"{where}.pattern") from None
    return pattern
