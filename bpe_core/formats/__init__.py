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
:mod:`.oniguruma` for the pattern's regex dialect). This module picks the format and the file.

Any BPE ``tokenizer.json`` loads with ``tokenizers``' exact ids: as a plain Tokenizer when it is
one (ours, GPT-2's), else as a :class:`~bpe_core.pipeline.PipelineTokenizer` running its
normalizer, pre-tokenizer, model and decoder (:mod:`.hf_plain`, :mod:`.hf_stages`, :mod:`.hf_model`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from ..encoding.sentencepiece import SentencePieceTokenizer
from ..encoding.tokenizer import Tokenizer
from ..pipeline import PipelineTokenizer
from ._common import (
    NOT_GIVEN,
    FormatError,
    PathLike,
    PatternArgument,
    decode_text,
    is_id,
    parse_json,
    read_bytes,
    read_text,
    text_encoding,
)
from .archive import ZIP_MAGIC, read_zip
from .gpt2 import (
    GPT2_MERGES_FILENAME,
    GPT2_MERGES_NAMES,
    GPT2_VOCAB_FILENAME,
    GPT2_VOCAB_NAMES,
    bytes_to_unicode,
    find_vocab_beside,
    load_gpt2,
    parse_gpt2,
    save_gpt2,
    unicode_to_bytes,
)
from .huggingface import HF_FILENAME, load_hf, parse_hf, save_hf
from .native import JSON_FILENAME, JSON_FORMAT_TAG, load_json, read_training_metadata, save_json, tokenizer_from_json
from .oniguruma import to_oniguruma
from .oniguruma_to_python import from_oniguruma
from .sentencepiece import SENTENCEPIECE_FILENAME, load_sentencepiece, looks_like_sentencepiece
from .tekken import looks_like_tekken, parse_tekken
from .tiktoken_ranks import (
    TIKTOKEN_FILENAME,
    PatternRequired,
    load_tiktoken,
    looks_like_tiktoken,
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

FormatName = Literal["bpe-playground", "gpt2", "tiktoken", "hf", "tekken"]
FORMATS: tuple[FormatName, ...] = ("bpe-playground", "gpt2", "tiktoken", "hf")
"""The formats :func:`save` writes; :func:`load` also reads ``tekken`` (Mistral's) and SentencePiece models."""
# Formats that are read, never written: a SentencePiece model (see .sentencepiece).
DetectedFormat = FormatName | Literal["sentencepiece"]

# The files each format is looked for as in a directory, in the order detect_format() prefers them.
_FILE_NAMES: dict[FormatName, tuple[str, ...]] = {
    "bpe-playground": (JSON_FILENAME,),
    "hf": (HF_FILENAME,),
    "gpt2": GPT2_VOCAB_NAMES,
    "tiktoken": (TIKTOKEN_FILENAME,),
    "tekken": ("tekken.json",),
}


def save(
    tokenizer: Tokenizer,
    path_or_dir: PathLike,
    fmt: FormatName = "bpe-playground",
    *,
    training: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Save in one format; return the files written.

    ``gpt2`` writes two files and so wants a directory; the others take a file path or a
    directory (which then gets the format's usual file name; a path that does not exist yet and
    has no suffix is a directory to create). ``training`` metadata is kept by
    the ``bpe-playground`` format only.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> directory = tempfile.mkdtemp()
    >>> sorted(path.name for fmt in FORMATS for path in save(tokenizer, directory, fmt))
    ['bpe-playground.json', 'merges.txt', 'tokenizer.json', 'tokenizer.tiktoken', 'vocab.json']
    """
    if fmt == "bpe-playground":
        return save_json(tokenizer, path_or_dir, training=training)
    if fmt == "gpt2":
        return save_gpt2(tokenizer, path_or_dir)
    if fmt == "tiktoken":
        return save_tiktoken(tokenizer, path_or_dir)
    if fmt == "hf":
        return save_hf(tokenizer, path_or_dir)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def detect_format(path: PathLike) -> tuple[DetectedFormat, Path]:
    """Which format a file (or the best file in a directory) is in, and that file.

    In a directory the preference is bpe-playground, hf, gpt2, tiktoken, sentencepiece. A file is
    judged by its content: a tiktoken file is lines of ``base64 rank``, the JSON formats by their
    keys, a SentencePiece model by its protobuf (or a ``.model`` name).
    """
    path = Path(path)
    if path.is_dir():
        for fmt, names in _FILE_NAMES.items():
            for file_name in names:
                if (path / file_name).is_file():
                    return fmt, path / file_name
        tiktoken_files = sorted(path.glob("*.tiktoken"))
        if tiktoken_files:
            return "tiktoken", tiktoken_files[0]
        if (path / SENTENCEPIECE_FILENAME).is_file():
            return "sentencepiece", path / SENTENCEPIECE_FILENAME
        raise FileNotFoundError(
            f"{path}: no tokenizer file in this directory (looked for {JSON_FILENAME}, {HF_FILENAME}, "
            f"{GPT2_VOCAB_FILENAME} + {GPT2_MERGES_FILENAME}, *.tiktoken, {SENTENCEPIECE_FILENAME})"
        )
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file or directory")
    if path.name in GPT2_MERGES_NAMES:
        return "gpt2", find_vocab_beside(path)
    if path.name in GPT2_VOCAB_NAMES:
        return "gpt2", path
    with open(path, "rb") as file:
        raw_head = file.read(4096)
    # Llama 3's and 4's tokenizer.model are tiktoken ranks: a .model name is SentencePiece only if it is not that
    if looks_like_sentencepiece(raw_head) or (path.suffix == ".model" and not looks_like_tiktoken(raw_head)):
        return "sentencepiece", path
    # A byte order mark (UTF-16/32) is read past: the checks below look at the text.
    head = raw_head.decode(text_encoding(raw_head), errors="ignore").lstrip().encode("utf-8")
    if head.startswith(b"{"):
        # A cheap look at the first 4 KB first; the loader validates properly.
        if b'"format"' in head and JSON_FORMAT_TAG.encode() in head:
            return "bpe-playground", path
        if looks_like_tekken(head):
            return "tekken", path
        if b'"model"' in head or b'"added_tokens"' in head:
            return "hf", path
        document = parse_json(read_text(path), path)
        if isinstance(document, dict):
            if document.get("format") == JSON_FORMAT_TAG:
                return "bpe-playground", path
            if "model" in document:
                return "hf", path
            if document and all(is_id(value) for value in document.values()):
                return "gpt2", path
        raise FormatError(
            path, "a JSON file that is neither bpe-playground, a Hugging Face tokenizer.json nor a GPT-2 vocab"
        )
    if path.suffix == ".tiktoken" or looks_like_tiktoken(head):
        return "tiktoken", path
    raise FormatError(
        path,
        "not a tokenizer file this library recognises (bpe-playground, hf, gpt2, tiktoken or a SentencePiece .model)",
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
        return load_gpt2(path, pattern="gpt2" if pattern is NOT_GIVEN else pattern, name=name)
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
        return parse_hf(parse_json(text(HF_FILENAME), source), source=source, name=name)
    vocab = next((member for member in GPT2_VOCAB_NAMES if member in files), None)
    merges = next((member for member in GPT2_MERGES_NAMES if member in files), None)
    if vocab and merges:
        return parse_gpt2(
            text(vocab), text(merges), pattern="gpt2" if pattern is NOT_GIVEN else pattern, name=name,
            vocab_source=f"{path}:{vocab}", merges_source=f"{path}:{merges}",
        )  # fmt: skip
    ranks = sorted(member for member in files if member.endswith(".tiktoken"))
    if ranks:
        data, source = text(ranks[0]).encode("utf-8"), f"{path}:{ranks[0]}"
        return parse_tiktoken(data, special_tokens=special_tokens, pattern=pattern, name=name, source=source)
    raise FormatError(path, f"no tokenizer files in the zip (it holds {', '.join(sorted(files)) or 'nothing'})")
