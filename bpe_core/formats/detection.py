"""Which format a tokenizer file is in, judged by its content (or, in a directory, by its files' names)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ._common import FormatError, PathLike, is_id, parse_json, read_text, text_encoding
from .gpt2 import GPT2_MERGES_FILENAME, GPT2_MERGES_NAMES, GPT2_VOCAB_FILENAME, GPT2_VOCAB_NAMES, find_vocab_beside
from .huggingface import HF_FILENAME
from .native import JSON_FILENAME, JSON_FORMAT_TAG
from .sentencepiece import SENTENCEPIECE_FILENAME, looks_like_sentencepiece
from .tekken import looks_like_tekken
from .tiktoken_ranks import TIKTOKEN_FILENAME, looks_like_tiktoken

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
    if path.stat().st_size == 0:  # else judged by its name alone: an empty .model read as "a Unigram model"
        raise FormatError(path, "the file is empty (0 bytes): a tokenizer file holds at least its vocabulary")
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
        "not a tokenizer file this library recognises (bpe-playground, hf, gpt2, tiktoken, Tekken JSON or a "
        "SentencePiece .model)",
    )
