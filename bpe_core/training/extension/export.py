"""An extended tokenizer written in its base's own format.

A Hugging Face ``tokenizer.json`` is written as its base file with the new tokens appended to
``model.vocab`` (ids after the highest in use) and the new merges to ``model.merges``, in the
file's own spelling of merges (``"a b"`` strings or ``["a", "b"]`` pairs); everything else (the
normalizer, the pre-tokenizer, the post-processor, the added tokens) is kept as it was. The other
formats are written by :func:`bpe_core.formats.save` from the tokenizer (tiktoken ranks: a line per
token, rank = id, the new ones last; GPT-2: ``vocab.json`` + ``merges.txt``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...formats import FormatError, parse_json, read_text, save
from ...formats._common import PathLike, target_file, write_text
from ...formats.detection import FormatName
from ...formats.gpt2 import to_gpt2_text
from .core import ExtendResult


def save_extension(
    result: ExtendResult, path_or_dir: PathLike, fmt: FormatName = "hf", *, source: PathLike | None = None
) -> list[Path]:
    """Write ``result``'s tokenizer in ``fmt``; for ``"hf"`` with the base's ``tokenizer.json`` as
    ``source``, that file with the new tokens and merges appended (else a new one of ours).

    >>> import tempfile, tokenizers, bpe_core
    >>> folder = tempfile.mkdtemp()
    >>> base_file, = bpe_core.save(bpe_core.train("low lower lowest " * 9, 262).tokenizer, folder, "hf")
    >>> result = bpe_core.extend(bpe_core.load(base_file), "newer newest " * 9, 265)
    >>> path, = save_extension(result, folder + "/extended", "hf", source=base_file)
    >>> tokenizers.Tokenizer.from_file(str(path)).encode(" newest").ids == result.tokenizer.encode(" newest")
    True
    """
    if fmt != "hf" or source is None:
        return save(result.tokenizer, path_or_dir, fmt)
    spec = parse_json(read_text(Path(source)), source)
    text = json.dumps(appended_hf(spec, result, source), ensure_ascii=False, indent=1)
    return [write_text(target_file(path_or_dir, "tokenizer.json"), text + "\n")]


def appended_hf(spec: Any, result: ExtendResult, source: PathLike) -> dict[str, Any]:
    """The ``tokenizer.json`` content ``spec`` with ``result``'s new tokens and merges appended."""
    model = spec.get("model") if isinstance(spec, dict) else None
    if not isinstance(model, dict) or model.get("type", "BPE") != "BPE":
        raise FormatError(source, "is not a BPE tokenizer.json", field="model")
    vocab, merges = model.get("vocab"), model.get("merges")
    if not isinstance(vocab, dict) or not isinstance(merges, list):
        raise FormatError(source, "has no vocab object and merges list", field="model")
    as_pairs = bool(merges) and isinstance(merges[0], list)
    for identifier, token in result.new_tokens.items():
        spelling = to_gpt2_text(token)
        if spelling in vocab:
            raise FormatError(
                source, f"already has {spelling!r}, the spelling of new token {identifier}", field="model"
            )
        vocab[spelling] = identifier
    for left, right in result.merges:
        spelled = [to_gpt2_text(left), to_gpt2_text(right)]
        merges.append(spelled if as_pairs else " ".join(spelled))
    return spec
