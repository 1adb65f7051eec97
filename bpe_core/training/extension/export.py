"""An extended tokenizer written in its base's own format.

A Hugging Face ``tokenizer.json`` is written as its base file with the extension appended (see
:mod:`.hf_json`: the new tokens to ``model.vocab``, ids after the highest in use; the new merges to
``model.merges`` in the file's own spelling; new special tokens to ``added_tokens``); everything else
(the normalizer, the pre-tokenizer, the post-processor, the added tokens) is kept as it was. An extended
pipeline (DeepSeek V4's) carries that file with it, so it needs no ``source``. The other formats are
written by :func:`bpe_core.formats.save` from the tokenizer (tiktoken ranks: a line per token, rank = id,
the new ones last; GPT-2: ``vocab.json`` + ``merges.txt``). A tiktoken ranks file holds no special
tokens, so new ones are refused there (tiktoken takes them as ``Encoding(special_tokens=...)``).
"""

from __future__ import annotations

from pathlib import Path

from ...formats import read_text, save
from ...formats._common import PathLike, target_file, write_text
from ...formats.detection import FormatName
from ...pipeline import PipelineTokenizer
from .core import ExtendResult
from .hf_json import appended_hf_text


def save_extension(
    result: ExtendResult, path_or_dir: PathLike, fmt: FormatName = "hf", *, source: PathLike | None = None
) -> list[Path]:
    """Write ``result``'s tokenizer in ``fmt``; for ``"hf"`` with the base's ``tokenizer.json`` as
    ``source``, that file with the new tokens and merges appended (else a new one of ours, or, for an
    extended pipeline, its base's file appended to).

    >>> import tempfile, tokenizers, bpe_core
    >>> folder = tempfile.mkdtemp()
    >>> base_file, = bpe_core.save(bpe_core.train("low lower lowest " * 9, 262).tokenizer, folder, "hf")
    >>> result = bpe_core.extend(bpe_core.load(base_file), "newer newest " * 9, 265)
    >>> path, = save_extension(result, folder + "/extended", "hf", source=base_file)
    >>> tokenizers.Tokenizer.from_file(str(path)).encode(" newest").ids == result.tokenizer.encode(" newest")
    True
    """
    if fmt == "tiktoken" and result.new_special_tokens:
        raise ValueError(
            f"a tiktoken ranks file holds no special tokens, so the new ones ({result.new_special_tokens}) cannot be "
            "written in it: pass them to tiktoken.Encoding(special_tokens=...) yourself, or save as 'hf', "
            "'gpt2' or 'bpe-playground', which keep them"
        )
    if fmt != "hf" or (source is None and not isinstance(result.tokenizer, PipelineTokenizer)):
        return save(result.tokenizer, path_or_dir, fmt)
    if source is None:
        return save(result.tokenizer, path_or_dir, "hf")  # the pipeline's source_json: its base's, appended to
    held = dict(result.base.special_tokens)  # a pipeline's: every added token
    text = read_text(Path(source))
    text = appended_hf_text(text, result.new_tokens, result.merges, result.new_special_tokens, held, source)
    return [write_text(target_file(path_or_dir, "tokenizer.json"), text)]
