"""Save and load tokenizers losslessly in four file formats.

=================  =======================================  ===================================
format name        files                                    keeps
=================  =======================================  ===================================
``bpe-playground`` ``bpe-playground.json`` (this project)   everything, plus training metadata
``gpt2``           ``vocab.json`` + ``merges.txt``           tokens, ids, merges, special tokens
``tiktoken``       ``tokenizer.tiktoken``                    tokens and ids (ranks) only
``hf``             ``tokenizer.json`` (Hugging Face)         tokens, ids, merges, specials, pattern
``tekken``         Mistral's ``tekken_*.json`` (load only)   tokens, ids, specials, pattern
=================  =======================================  ===================================

A tiktoken file is recognised by its content when it is a known model's (Llama 3 and 4, Qwen 2.5 and
3.6, cl100k, o200k: :mod:`.known_ranks`) and then loads with that model's pattern, special tokens and
normalization; any other tiktoken file needs ``pattern=`` (:class:`PatternRequired` otherwise).

>>> import tempfile, bpe_core
>>> from bpe_core import formats
>>> tokenizer = bpe_core.train("low lower lowest " * 20, 270, special_tokens=["<|eot|>"]).tokenizer
>>> directory = tempfile.mkdtemp()
>>> [path.name for path in formats.save(tokenizer, directory, "gpt2")]
['vocab.json', 'merges.txt']
>>> formats.load(directory).encode("lowest<|eot|>") == tokenizer.encode("lowest<|eot|>")
True

Every loader raises :class:`FormatError` (a ``ValueError``) on malformed input, naming the file
and the line (text formats) or the field (JSON formats) at fault.

Each format has its own module, whose docstring describes the files in detail: :mod:`.native`
(``bpe-playground``), :mod:`.gpt2`, :mod:`.tiktoken_ranks` and :mod:`.huggingface` (with
:mod:`.oniguruma` for the pattern's regex dialect). :mod:`.detection` tells the format; this module loads and saves.

Any BPE ``tokenizer.json`` loads with ``tokenizers``' exact ids: as a plain Tokenizer when it is
one (ours, GPT-2's), else as a :class:`~bpe_core.pipeline.PipelineTokenizer` running its
normalizer, pre-tokenizer, model and decoder (:mod:`.hf_plain`, :mod:`.hf_stages`, :mod:`.hf_model`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..encoding.sentencepiece import SentencePieceTokenizer
from ..encoding.tokenizer import Tokenizer
from ..pipeline import PipelineTokenizer
from ._common import (
    NOT_GIVEN,
    FormatError,
    PathLike,
    PatternArgument,
    checked_ids,
    decode_text,
    parse_json,
    read_bytes,
    read_text,
    text_encoding,
)
from .archive import ZIP_MAGIC, read_zip
from .detection import _FILE_NAMES, FORMATS, FormatName, detect_format
from .gpt2 import (
    GPT2_MERGES_NAMES,
    GPT2_VOCAB_NAMES,
    bytes_to_unicode,
    find_vocab_beside,
    load_gpt2,
    parse_gpt2,
    save_gpt2,
    unicode_to_bytes,
)
from .huggingface import HF_FILENAME, load_hf, parse_hf, save_hf
from .native import JSON_FILENAME, load_json, read_training_metadata, save_json, tokenizer_from_json
from .oniguruma import to_oniguruma
from .oniguruma_to_python import from_oniguruma
from .sentencepiece import load_sentencepiece
from .tekken import parse_tekken
from .tiktoken_ranks import (
    PatternRequired,
    load_tiktoken,
    parse_tiktoken,
    save_tiktoken,
)

__all__ = [
    "FORMATS",
    "JSON_FILENAME",
    "NOT_GIVEN",
    "FormatError",
    "FormatName",
    "bytes_to_unicode",
    "detect_format",
    "from_oniguruma",
    "load",
    "load_gpt2",
    "load_hf",
    "load_json",
    "load_tiktoken",
    "load_zip",
    "PatternRequired",
    "parse_gpt2",
    "parse_tekken",
    "parse_tiktoken",
    "read_training_metadata",
    "read_zip",
    "save",
    "save_gpt2",
    "save_hf",
    "save_json",
    "save_tiktoken",
    "text_encoding",
    "to_oniguruma",
    "unicode_to_bytes",
]


def save(
    tokenizer: Tokenizer | PipelineTokenizer | SentencePieceTokenizer,
    path_or_dir: PathLike,
    fmt: FormatName = "bpe-playground",
    *,
    training: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Save in one format; return the files written.

    ``gpt2`` writes two files and so wants a directory; the others take a file path or a
    directory (which then gets the format's usual file name; a path that does not exist yet and
    has no suffix is a directory to create). ``training`` metadata is kept by
    the ``bpe-playground`` format only. A Hugging Face pipeline or a SentencePiece model saves as ``hf``
    only; a format that cannot hold a tokenizer raises a ValueError saying what it cannot hold, and why.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> directory = tempfile.mkdtemp()
    >>> sorted(path.name for fmt in FORMATS for path in save(tokenizer, directory, fmt))
    ['bpe-playground.json', 'merges.txt', 'tokenizer.json', 'tokenizer.tiktoken', 'vocab.json']
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if isinstance(tokenizer, (PipelineTokenizer, SentencePieceTokenizer)):
        if fmt != "hf":
            raise ValueError(not_byte_level_bpe(tokenizer, fmt))
        return save_hf(tokenizer, path_or_dir)
    if not isinstance(tokenizer, Tokenizer):  # e.g. a ClassicTokenizer: its symbols are characters and </w>
        kind = type(tokenizer).__name__
        raise TypeError(f"only byte-level tokenizers (bpe_core.Tokenizer) can be saved in {fmt} format, not a {kind}")
    if fmt == "bpe-playground":
        return save_json(tokenizer, path_or_dir, training=training)
    if fmt == "gpt2":
        return save_gpt2(tokenizer, path_or_dir)
    if fmt == "tiktoken":
        return save_tiktoken(tokenizer, path_or_dir)
    return save_hf(tokenizer, path_or_dir)


def not_byte_level_bpe(tokenizer: PipelineTokenizer | SentencePieceTokenizer, fmt: str) -> str:
    """Why ``fmt`` (gpt2, tiktoken, bpe-playground: byte-level BPE after one regex) cannot hold ``tokenizer``."""
    if isinstance(tokenizer, SentencePieceTokenizer):
        what = "a SentencePiece model merges characters by piece score, spells a space as ▁ and falls back to bytes"
    else:
        lines = [
            line
            for line in tokenizer.describe().splitlines()
            if line.startswith(("normalizer", "pre-tokenizer", "model")) and not line.endswith((": none", ": nothing"))
        ]
        stages = [line if len(line) <= 70 else line[:69] + "…" for line in lines]
        what = f"a Hugging Face pipeline runs stages a plain byte-level BPE has no place for ({'; '.join(stages)})"
    return (
        f"{what}; {fmt} files hold only byte-level BPE (byte tokens, tiktoken's merge rule, one regex), so it "
        "cannot be saved in that format: save it as hf"
    )


def load(
    path: PathLike,
    fmt: FormatName | None = None,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: PatternArgument = NOT_GIVEN,
    name: str | None = None,
) -> Tokenizer | PipelineTokenizer | SentencePieceTokenizer:
    """Load a tokenizer from a file or a directory, detecting the format unless ``fmt`` is given.

    A Hugging Face ``tokenizer.json`` that a plain Tokenizer cannot reproduce comes back as a
    :class:`~bpe_core.pipeline.PipelineTokenizer` (see :func:`load_hf`).
    ``special_tokens`` and ``pattern`` (a name in ``bpe_core.PATTERNS``, a regex, or None for no
    pre-tokenization) are used only where the format does not store them: ``pattern`` for gpt2
    (default ``"gpt2"``) and tiktoken (a known model's file has its own; any other needs it),
    ``special_tokens`` for tiktoken. A zip (the GPT-2 pair zipped together, say) is read with :func:`load_zip`.
    A SentencePiece BPE ``.model`` is detected by its content and gives a
    :class:`~bpe_core.encoding.sentencepiece.SentencePieceTokenizer`.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> directory = tempfile.mkdtemp()
    >>> _ = save(tokenizer, directory, "hf")
    >>> load(directory).merges == tokenizer.merges
    True
    """
    path = Path(path)
    if path.is_file() and path.read_bytes()[:4] == ZIP_MAGIC:
        return load_zip(path, special_tokens=special_tokens, pattern=pattern, name=name)
    return checked_ids(_load(path, fmt, special_tokens=special_tokens, pattern=pattern, name=name), path)


def _load(path: Path, fmt: FormatName | None, **options: Any) -> Tokenizer | PipelineTokenizer | SentencePieceTokenizer:
    special_tokens, pattern, name = options["special_tokens"], options["pattern"], options["name"]
    if fmt is None:
        detected, path = detect_format(path)
        if detected == "sentencepiece":
            return load_sentencepiece(path, name=name)
        fmt = detected
    elif fmt not in (*FORMATS, "tekken"):
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}, tekken")
    elif path.is_dir():
        names = _FILE_NAMES[fmt]
        path = next((path / file_name for file_name in names if (path / file_name).is_file()), path / names[0])
    if fmt == "bpe-playground":
        tokenizer = load_json(path)
        if name is not None:
            tokenizer.name = name
        return tokenizer
    if fmt == "hf":
        return load_hf(path, name=name)
    if fmt == "tekken":
        return parse_tekken(parse_json(read_text(path), path), source=path, name=name)
    if fmt == "gpt2":
        if path.name in GPT2_MERGES_NAMES:
            path = find_vocab_beside(path)
        return _with_gpt2_source(load_gpt2(path, pattern=_gpt2_pattern(pattern), name=name), pattern)
    return load_tiktoken(path, special_tokens=special_tokens, pattern=pattern, name=name)


def load_zip(
    path: PathLike,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: PatternArgument = NOT_GIVEN,
    name: str | None = None,
) -> Tokenizer | PipelineTokenizer:
    """Load the tokenizer in a zip: any one format's files, unpacked within limits (see :mod:`.archive`).

    >>> import io, tempfile, zipfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> paths = save(tokenizer, tempfile.mkdtemp(), "gpt2")
    >>> zipped = Path(tempfile.mkdtemp()) / "tokenizer-gpt2.zip"
    >>> with zipfile.ZipFile(zipped, "w") as archive:
    ...     for file in paths: archive.write(file, file.name)
    >>> load_zip(zipped).merges == tokenizer.merges
    True
    """
    path = Path(path)
    files = read_zip(read_bytes(path), path)

    def text(member: str) -> str:
        return decode_text(files[member], f"{path}:{member}")

    if JSON_FILENAME in files:
        tokenizer = tokenizer_from_json(parse_json(text(JSON_FILENAME), path), source=f"{path}:{JSON_FILENAME}")
        tokenizer.name = name if name is not None else tokenizer.name
        return tokenizer
    if HF_FILENAME in files:
        source = f"{path}:{HF_FILENAME}"
        content = text(HF_FILENAME)
        return parse_hf(parse_json(content, source), source=source, name=name, text=content)
    vocab = next((member for member in GPT2_VOCAB_NAMES if member in files), None)
    merges = next((member for member in GPT2_MERGES_NAMES if member in files), None)
    if vocab and merges:
        tokenizer = parse_gpt2(
            text(vocab),
            text(merges),
            pattern=_gpt2_pattern(pattern),
            name=name,
            vocab_source=f"{path}:{vocab}",
            merges_source=f"{path}:{merges}",
        )
        return _with_gpt2_source(tokenizer, pattern)
    ranks = sorted(member for member in files if member.endswith(".tiktoken"))
    if ranks:
        data, source = text(ranks[0]).encode("utf-8"), f"{path}:{ranks[0]}"
        return parse_tiktoken(data, special_tokens=special_tokens, pattern=pattern, name=name, source=source)
    raise FormatError(path, f"no tokenizer files in the zip (it holds {', '.join(sorted(files)) or 'nothing'})")


GPT2_ASSUMED = "assumed: GPT-2 files store no pattern, GPT-2's is their default"
"""A GPT-2 pair's ``pattern_source`` when no pattern was given: the files could have been written by a tokenizer
trained with another one (they would then encode differently), so nothing says the pattern was read from them."""


def _gpt2_pattern(pattern: PatternArgument) -> str | None:
    return "gpt2" if pattern is NOT_GIVEN else pattern


def _with_gpt2_source(tokenizer: Tokenizer, pattern: PatternArgument) -> Tokenizer:
    tokenizer.pattern_source = GPT2_ASSUMED if pattern is NOT_GIVEN else "given"
    return tokenizer
