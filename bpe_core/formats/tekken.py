"""Mistral's Tekken JSON (``tekken_240718.json``, ``tekken_240911.json`` in ``mistral-common``): load only.

.. code-block:: text

    {
      "config": {"pattern": "<regex>", "num_vocab_tokens": 150000, "default_vocab_size": 131072,
                 "default_num_special_tokens": 1000, "version": "v3"},
      "vocab": [{"rank": 0, "token_bytes": "<base64>", "token_str": ...}, ...],   # rank = index
      "special_tokens": [{"rank": 0, "token_str": "<unk>", "is_control": true}, ...]  # optional (<= v7)
    }

As mistral-common's ``Tekkenizer`` reads it: the special tokens take ids 0 to
``default_num_special_tokens - 1`` (a file without a list has the ones Tekken used up to v7, the
rest of the ids are ``<SPECIAL_{id}>``); only the first ``default_vocab_size -
default_num_special_tokens`` ranks are used, and a rank's id is rank + the number of special tokens.

``Tekkenizer.encode(text, bos=False, eos=False)`` treats special tokens in the text as text: that
is :meth:`~bpe_core.Tokenizer.encode_ordinary` here (``encode`` finds them, as for every tokenizer
of this library). The image and audio settings do not change how text is encoded and are not read.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ..encoding.tokenizer import Tokenizer
from ..pretokenize import PATTERNS
from ._common import FormatError, PathLike, build_tokenizer, is_id, json_type_name, typed_field

TEKKEN_MARKER = b'"default_num_special_tokens"'
"""Seen in a Tekken file's first few KB (its config comes first), and in no other format's."""

# The special tokens of a Tekken file without a "special_tokens" list (versions up to v7), in id order.
LEGACY_SPECIAL_TOKENS = (
    *("<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]"),
    *("[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]"),
    *("[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"),
)
LAST_LEGACY_VERSION = 7


def looks_like_tekken(head: bytes) -> bool:
    """Whether the first few KB of a JSON file are a Tekken file's."""
    return TEKKEN_MARKER in head and b'"config"' in head


def parse_tekken(document: Any, *, source: PathLike, name: str | None = None) -> Tokenizer:
    """A Tekken JSON document (parsed) as a Tokenizer; ``source`` names the file in errors."""
    if not isinstance(document, dict):
        raise FormatError(source, f"must be a JSON object, not {json_type_name(document)}")
    config = typed_field(document, "config", dict, source)
    regex = typed_field(config, "pattern", str, source, "config.pattern")
    pattern = next((name for name, source_regex in PATTERNS.items() if source_regex == regex), regex)
    version = _version(config, source)
    vocab_size, n_special = (
        _count(config, key, source) for key in ("default_vocab_size", "default_num_special_tokens")
    )
    entries = typed_field(document, "vocab", list, source)
    n_ranks = vocab_size - n_special
    if not 256 <= n_ranks <= len(entries):
        raise FormatError(
            source,
            f"default_vocab_size {vocab_size:,} - default_num_special_tokens {n_special:,} = {n_ranks:,} ranks, "
            f"which must be at least 256 and at most the {len(entries):,} in vocab",
            field="config",
        )
    ranks: dict[bytes, int] = {}
    for rank, entry in enumerate(entries[:n_ranks]):
        token = _token_bytes(entry, rank, source)
        if (rank < 256 and token != bytes([rank])) or token in ranks:
            why = f"must be byte {rank}" if rank < 256 else f"repeats rank {ranks.get(token)}"
            raise FormatError(source, f"token {token!r} {why}", field=f"vocab[{rank}]")
        ranks[token] = rank + n_special
    specials = _special_tokens(document, version, n_special, source)
    tokenizer = build_tokenizer(source, lambda: Tokenizer.from_ranks(ranks, specials, pattern, name=name))
    tokenizer.pattern_source = "stored in the file"
    return tokenizer


def _version(config: dict, source: PathLike) -> int:
    version = config.get("version")
    if not isinstance(version, str) or not version.startswith("v") or not version[1:].isdigit():
        raise FormatError(source, f"must be a version such as 'v3', not {version!r}", field="config.version")
    return int(version[1:])


def _count(config: dict, key: str, source: PathLike) -> int:
    value = config.get(key)
    if not isinstance(value, int) or not is_id(value):
        raise FormatError(source, f"must be a non-negative integer, not {value!r}", field=f"config.{key}")
    return value


def _token_bytes(entry: Any, rank: int, source: PathLike) -> bytes:
    where = f"vocab[{rank}]"
    if not isinstance(entry, dict) or entry.get("rank") != rank or not isinstance(entry.get("token_bytes"), str):
        raise FormatError(source, f"must be {{'rank': {rank}, 'token_bytes': <base64>, ...}}", field=where)
    try:
        token = base64.b64decode(entry["token_bytes"], validate=True)
    except (binascii.Error, ValueError):
        raise FormatError(source, "token_bytes is not valid base64", field=where) from None
    if not token:
        raise FormatError(source, "the token is empty", field=where)
    return token


def _special_tokens(document: dict, version: int, n_special: int, source: PathLike) -> dict[str, int]:
    listed = document.get("special_tokens")
    if listed is None:
        if version > LAST_LEGACY_VERSION:
            raise FormatError(source, f"a v{version} Tekken file must list its special tokens", field="special_tokens")
        listed = [{"rank": rank, "token_str": text} for rank, text in enumerate(LEGACY_SPECIAL_TOKENS)]
    if not isinstance(listed, list) or len(listed) > n_special:
        raise FormatError(source, f"must be a list of at most {n_special} special tokens", field="special_tokens")
    specials: dict[str, int] = {}
    for index, entry in enumerate(listed):
        text = entry.get("token_str") if isinstance(entry, dict) else None
        if not isinstance(text, str) or not text or entry.get("rank") != index or text in specials:
            raise FormatError(
                source, f"must be {{'rank': {index}, 'token_str': <a new text>}}", field=f"special_tokens[{index}]"
            )
        specials[text] = index
    for identifier in range(len(listed), n_special):
        text = f"<SPECIAL_{identifier}>"
        if text in specials:
            raise FormatError(
                source, f"{text!r} is listed but is also id {identifier}'s filler", field="special_tokens"
            )
        specials[text] = identifier
    return specials
