"""The project's own JSON format (``"format": "bpe-playground"``, ``"version": 1``): keeps everything.

Token bytes are written as **lowercase hex** strings (``b" the"`` is ``"20746865"``): lossless
for any bytes, unambiguous, and readable enough to spot spaces (``20``) and newlines (``0a``).

.. code-block:: text

    {
      "format": "bpe-playground",
      "version": 1,
      "name": "my-tokenizer" | null,
      "pattern": "gpt2" | "<a regex>" | null,       # a name from bpe_core.PATTERNS, a regex, or none
      "normalization": "NFC" | ...,                 # only when the text is normalized first (Qwen: NFC)
      "special_tokens": {"<|endoftext|>": 300},     # text -> id
      "merges": [["6c", "6f"], ["6c6f", "77"], ...],# [left, right] in rank order (rank = index)
      "byte_ids": null | [256 ints],                # id of byte b; null means byte b has id b
      "merge_ids": null | [ints],                   # id of merges[r]; null means 256 + r
      "training": {...} | null                      # free-form metadata (settings, timings, source)
    }

A merge's parts must each be a single byte or the result of an earlier merge. ``byte_ids`` and
``merge_ids`` are written only for tokenizers whose ids are not the usual ones (GPT-2's and
tiktoken's encodings order the single bytes differently, and cl100k/o200k have unused ids).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..encoding.tokenizer import Tokenizer
from ..pretokenize import check_normalization, compile_pattern
from ._common import (
    FormatError,
    PathLike,
    build_tokenizer,
    checked_merges,
    is_id,
    json_type_name,
    parse_json,
    read_text,
    target_file,
    typed_field,
    write_text,
)

JSON_FORMAT_TAG = "bpe-playground"
JSON_FORMAT_VERSION = 1
JSON_FILENAME = "bpe-playground.json"


def tokenizer_to_json(tokenizer: Tokenizer, training: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``bpe-playground`` JSON document for ``tokenizer`` (see the module docstring).

    >>> import bpe_core
    >>> document = tokenizer_to_json(bpe_core.train("aaabdaaabac", 258).tokenizer)
    >>> document["merges"], document["byte_ids"], document["pattern"]
    ([['61', '61'], ['6161', '61']], None, 'gpt2')
    """
    ranks = tokenizer.mergeable_ranks
    merges = checked_merges(tokenizer, "bpe-playground")
    byte_ids = [ranks[bytes([byte])] for byte in range(256)]
    merge_ids = [ranks[left + right] for left, right in merges]
    normalization = {"normalization": tokenizer.normalization} if tokenizer.normalization else {}
    return {
        "format": JSON_FORMAT_TAG,
        "version": JSON_FORMAT_VERSION,
        "name": tokenizer.name,
        "pattern": tokenizer.pattern,
        **normalization,  # written only when set: older readers and files stay as they were
        "special_tokens": dict(sorted(tokenizer.special_tokens.items(), key=lambda item: item[1])),
        "merges": [[left.hex(), right.hex()] for left, right in merges],
        "byte_ids": None if byte_ids == list(range(256)) else byte_ids,
        "merge_ids": None if merge_ids == list(range(256, 256 + len(merges))) else merge_ids,
        "training": dict(training) if training is not None else None,
    }


def save_json(tokenizer: Tokenizer, path: PathLike, *, training: Mapping[str, Any] | None = None) -> list[Path]:
    """Write the project's own JSON (a directory gets ``bpe-playground.json``).

    ``training`` is free-form metadata kept alongside (settings, timings, the corpus name...).

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> path, = save_json(tokenizer, tempfile.mkdtemp(), training={"corpus": "demo"})
    >>> load_json(path).merges == tokenizer.merges, read_training_metadata(path)
    (True, {'corpus': 'demo'})
    """
    document = tokenizer_to_json(tokenizer, training)
    # One merge per line: diffable and still compact.
    merges = ",\n    ".join(json.dumps(merge) for merge in document.pop("merges"))
    head = json.dumps(document, ensure_ascii=False, indent=2)
    text = (
        head[:-2] + ',\n  "merges": [\n    ' + merges + "\n  ]\n}\n" if merges else head[:-2] + ',\n  "merges": []\n}\n'
    )
    return [write_text(target_file(path, JSON_FILENAME), text)]


def load_json(path: PathLike) -> Tokenizer:
    """Load the project's own JSON format (see the module docstring)."""
    path = Path(path)
    return tokenizer_from_json(parse_json(read_text(path), path), source=path)


def read_training_metadata(path: PathLike) -> dict[str, Any] | None:
    """The ``training`` metadata of a ``bpe-playground`` JSON file (a file or its directory)."""
    path = target_file(path, JSON_FILENAME)
    document = parse_json(read_text(path), path)
    _check_json_header(document, path)
    training = document.get("training")
    if training is not None and not isinstance(training, dict):
        raise FormatError(path, f"must be an object or null, not {json_type_name(training)}", field="training")
    return training


def _check_json_header(document: Any, source: PathLike) -> None:
    if not isinstance(document, dict):
        raise FormatError(source, f"must be a JSON object, not {json_type_name(document)}")
    if document.get("format") != JSON_FORMAT_TAG:
        raise FormatError(source, f"must be {JSON_FORMAT_TAG!r}, not {document.get('format')!r}", field="format")
    if document.get("version") != JSON_FORMAT_VERSION:
        raise FormatError(
            source,
            f"version {document.get('version')!r} is not supported (this library reads {JSON_FORMAT_VERSION})",
            field="version",
        )


def tokenizer_from_json(document: Any, *, source: PathLike = JSON_FILENAME) -> Tokenizer:
    """Build a tokenizer from a parsed ``bpe-playground`` document; ``source`` names it in errors."""
    _check_json_header(document, source)
    name = document.get("name")
    if name is not None and not isinstance(name, str):
        raise FormatError(source, f"must be a string or null, not {json_type_name(name)}", field="name")
    pattern = document.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        raise FormatError(
            source, f"must be a pattern name, a regex or null, not {json_type_name(pattern)}", field="pattern"
        )
    try:
        compile_pattern(pattern)
    except ValueError as error:
        raise FormatError(source, str(error), field="pattern") from None
    try:
        normalization = check_normalization(document.get("normalization"))
    except ValueError as error:
        raise FormatError(source, str(error), field="normalization") from None

    specials = typed_field(document, "special_tokens", dict, source, default={})
    for text, identifier in specials.items():
        if not is_id(identifier):
            raise FormatError(
                source, f"id must be a non-negative integer, not {identifier!r}", field=f"special_tokens[{text!r}]"
            )

    known: set[bytes] = {bytes([byte]) for byte in range(256)}
    merges: list[tuple[bytes, bytes]] = []
    for rank, merge in enumerate(typed_field(document, "merges", list, source)):
        where = f"merges[{rank}]"
        if not isinstance(merge, list) or len(merge) != 2:
            raise FormatError(source, f"must be a [left, right] pair of hex strings, not {merge!r}", field=where)
        pair = []
        for side, value in zip(("left", "right"), merge, strict=True):
            if not isinstance(value, str):
                raise FormatError(source, f"{side} must be a hex string, not {json_type_name(value)}", field=where)
            try:
                token = bytes.fromhex(value)
            except ValueError:
                raise FormatError(source, f"{side} {value!r} is not valid hex", field=where) from None
            if token not in known:
                raise FormatError(
                    source, f"{side} {value!r} is neither a single byte nor made by an earlier merge", field=where
                )
            pair.append(token)
        merged = pair[0] + pair[1]
        if merged in known:
            raise FormatError(source, f"makes {merged.hex()!r}, which an earlier merge or byte already is", field=where)
        known.add(merged)
        merges.append((pair[0], pair[1]))

    byte_ids = _id_list(document, "byte_ids", 256, range(256), source)
    merge_ids = _id_list(document, "merge_ids", len(merges), range(256, 256 + len(merges)), source)
    vocab: dict[int, bytes] = {}
    owners = [*((identifier, f"byte_ids[{byte}]") for byte, identifier in enumerate(byte_ids))]
    owners += [(identifier, f"merge_ids[{rank}]") for rank, identifier in enumerate(merge_ids)]
    owners += [(identifier, f"special_tokens[{text!r}]") for text, identifier in specials.items()]
    seen: dict[int, str] = {}
    for identifier, where in owners:
        if identifier in seen:
            raise FormatError(source, f"id {identifier} is already used by {seen[identifier]}", field=where)
        seen[identifier] = where
    for byte, identifier in enumerate(byte_ids):
        vocab[identifier] = bytes([byte])
    for (left, right), identifier in zip(merges, merge_ids, strict=True):
        vocab[identifier] = left + right
    return build_tokenizer(
        source, lambda: Tokenizer(vocab, merges, dict(specials), pattern, name=name, normalization=normalization)
    )


def _id_list(document: dict, key: str, length: int, default: range, source: PathLike) -> list[int]:
    value = document.get(key)
    if value is None:
        return list(default)
    if not isinstance(value, list) or len(value) != length:
        raise FormatError(source, f"must be null or a list of {length} ids", field=key)
    for index, identifier in enumerate(value):
        if not is_id(identifier):
            raise FormatError(source, f"must be a non-negative integer, not {identifier!r}", field=f"{key}[{index}]")
    return value
