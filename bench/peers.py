"""The peers bpe_core is measured against, set up the way their own users run them.

- Hugging Face ``tokenizers``: a byte-level BPE configured like ``bpe_core.train(..., pattern="gpt2")``
  (ByteLevel pre-tokenizer with its GPT-2 regex, the 256 byte symbols as initial alphabet, one
  special token counted in the vocabulary size), trained either with ``Tokenizer.train([path])``
  (it reads the file itself, in Rust, on all cores) or ``train_from_iterator`` over the documents.
- tiktoken: ``tiktoken.get_encoding(name)``, its own loader with its own hash checks. It cannot
  download here, so its cache directory is seeded with the files ``bpe_core.reference`` finds in
  installed packages, under the names tiktoken gives its cache entries (SHA-1 of the URL).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from bpe_core.reference import reference_files

SPECIAL = "<|endoftext|>"

_TIKTOKEN_URLS = {
    "gpt2": {
        "vocab.bpe": "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe",
        "encoder.json": "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/encoder.json",
    },
    "cl100k_base": {
        "cl100k_base.tiktoken": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    },
    "o200k_base": {"o200k_base.tiktoken": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"},
}


def _hf_setup(vocab_size: int, split: str | None = None):
    """A byte-level BPE and its trainer; ``split``: a split regex other than GPT-2's, as Llama 3's tokenizer.json
    gives its own (a Split pre-tokenizer, then ByteLevel without its built-in GPT-2 regex)."""
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    if split is None:
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    else:
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(split), behavior="isolated", invert=False),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=0,
        special_tokens=[SPECIAL],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    return tokenizer, trainer


def hf_train_file(path: Path, vocab_size: int, split: str | None = None) -> int:
    """Train HF tokenizers from a file, as its documentation shows; returns the vocabulary size."""
    tokenizer, trainer = _hf_setup(vocab_size, split)
    tokenizer.train([str(path)], trainer)
    return tokenizer.get_vocab_size()


def hf_train_iterator(documents: Iterable[str], vocab_size: int, split: str | None = None) -> int:
    """Train HF tokenizers from an iterator of documents; returns the vocabulary size."""
    tokenizer, trainer = _hf_setup(vocab_size, split)
    tokenizer.train_from_iterator(documents, trainer)
    return tokenizer.get_vocab_size()


def documents(text: str) -> Iterator[str]:
    """The documents of a corpus whose documents are separated by ``<|endoftext|>``, one at a time (a list of
    them all would copy the text once more).

    >>> list(documents("a<|endoftext|>b"))
    ['a', 'b']
    """
    start = 0
    while (end := text.find(SPECIAL, start)) >= 0:
        yield text[start:end]
        start = end + len(SPECIAL)
    yield text[start:]


def tiktoken_encoding(name: str):
    """``tiktoken.get_encoding(name)``, offline: its cache is seeded from the locally packaged files."""
    import tiktoken

    cache = Path(tempfile.gettempdir()) / "bpe-bench-tiktoken-cache"
    cache.mkdir(exist_ok=True)
    for key, path in reference_files(name).items():
        target = cache / hashlib.sha1(_TIKTOKEN_URLS[name][key].encode()).hexdigest()
        if not target.exists():
            data = path.read_bytes()
            target.write_bytes(gzip.decompress(data) if path.suffix == ".gz" else data)
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        return tiktoken.get_encoding(name)
    finally:
        if previous is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = previous
