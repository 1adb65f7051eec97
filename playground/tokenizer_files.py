"""Tokenizer files a person uploads, and loading them: one file, vocab.json + merges.txt together, or the GPT-2 zip.

A tokenizer loaded here remembers the files it came from (:func:`loaded_from`), so a tab's work keeps it as those
files and a reload loads them again (``playground.workspace``): every family comes back, exactly, and keeping it
never converts it (deriving a 200,000-token vocabulary's merges from its ranks takes seconds).

>>> tokenizer, fmt = load_files([File("mine.json", b"{}")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: Could not load a tokenizer from mine.json: ...
"""

from __future__ import annotations

import hashlib
import inspect
import re
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bpe_core import TokenizerShape, formats
from bpe_core.formats import NOT_GIVEN, PatternRequired
from bpe_core.formats.archive import read_zip
from playground import caches
from playground.i18n import t

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class File:
    name: str
    data: bytes


def unpack(name: str, data: bytes) -> list[File]:
    """An uploaded file, or the members of an uploaded zip (the GPT-2 download), within bpe_core's limits."""
    if not name.lower().endswith(".zip"):
        return [File(name, data)]
    return [File(member, content) for member, content in read_zip(data, name).items()]


def load_files(files: list[File], pattern: Any = NOT_GIVEN) -> tuple[Any, str]:
    """A tokenizer from one file, or vocab.json + merges.txt together, and its format (``"hf"``, ``"tiktoken"``…);
    ValueError says what is wrong. ``pattern`` is for files that hold none (a tiktoken file of no known model,
    GPT-2's pair)."""
    if not files:
        raise ValueError(t("Choose a tokenizer file first."))
    with tempfile.TemporaryDirectory(prefix="bpe-upload-") as tmp:
        names = []
        for file in files:
            safe = _SAFE_NAME.sub("_", Path(file.name).name).lstrip(".") or "tokenizer"
            (Path(tmp) / safe).write_bytes(file.data)
            names.append(safe)
        target = Path(tmp) if len(files) > 1 else Path(tmp) / names[0]
        try:
            fmt = formats.detect_format(target)[0]
            tokenizer = formats.load(target, pattern=pattern)
            if not fills_shape(tokenizer):  # a SentencePiece model: not yet the shape the views ask
                what = (
                    "a SentencePiece model"
                    if fmt == "sentencepiece"
                    else (f"a {type(tokenizer).__name__} (a Hugging Face pipeline)")
                )
                reason = f"{what}; bpe_core.load reads it, the app cannot show it yet"
                raise formats.FormatError(names[0], reason)
        except PatternRequired:
            message = t(
                "{files} is a tiktoken file of no known model: it holds no pre-tokenization pattern. Choose the "
                "pattern it was made with under “Pattern” and click “Load tokenizer” again "
                "(the file stays in the box).",
                files=", ".join(names),
            )
            raise PatternNeeded(message) from None
        except (ValueError, FileNotFoundError, KeyError, UnicodeDecodeError) as error:
            message = str(error).replace(tmp + "/", "").replace(tmp, "upload")
            message = message.removeprefix(f"{names[0]}: ")  # the sentence names the files already
            raise ValueError(
                t("Could not load a tokenizer from {files}: {error}", files=", ".join(names), error=message)
            ) from None
    digests = tuple(hashlib.sha256(file.data).hexdigest() for file in files)
    _sources[tokenizer] = LoadedFrom(tuple(files), digests, None if pattern is NOT_GIVEN else pattern)
    return tokenizer, fmt


class PatternNeeded(ValueError):
    """The files are fine but hold no pattern: the same files load once a pattern is chosen (the box keeps them)."""


SHAPE_NAMES = tuple(name for name in vars(TokenizerShape) if not name.startswith("_"))


def fills_shape(tokenizer: Any) -> bool:
    """Whether ``tokenizer`` has every name of ``bpe_core.TokenizerShape``, looked up without running anything:
    ``isinstance`` on the protocol reads each property on Python 3.11, and Llama 3's ``merges`` cannot all be
    derived from its ranks (a ValueError), though it encodes exactly."""
    missing = object()
    return all(inspect.getattr_static(tokenizer, name, missing) is not missing for name in SHAPE_NAMES)


def check_one_set(names: list[str]) -> None:
    """Several files load together only as the GPT-2 pair; anything else is one file at a time, so a
    stray file is named instead of being silently ignored next to a good one.

    >>> check_one_set(["vocab.json", "merges.txt"])
    >>> check_one_set(["tokenizer.json", "notes.txt"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: Load one tokenizer at a time: tokenizer.json, notes.txt are 2 files; ...
    """
    if len(names) <= 1:
        return
    vocab = [name for name in names if Path(name).name in formats.GPT2_VOCAB_NAMES]
    merges = [name for name in names if Path(name).name in formats.GPT2_MERGES_NAMES]
    if len(names) != 2 or len(vocab) != 1 or len(merges) != 1:
        raise ValueError(
            t(
                "Load one tokenizer at a time: {files} are {n} files; only vocab.json + merges.txt "
                "(or encoder.json + vocab.bpe) go together. Remove the others from the box.",
                files=", ".join(names),
                n=len(names),
            )
        )


@dataclass(frozen=True)
class LoadedFrom:
    """The files a tokenizer was loaded from, their SHA-256 digests, and the pattern asked for (None: the file's
    own)."""

    files: tuple[File, ...]
    digests: tuple[str, ...]
    pattern: str | None


_sources: weakref.WeakKeyDictionary = caches.LOADED_SOURCES


def loaded_from(tokenizer: Any) -> LoadedFrom | None:
    """Where :func:`load_files` loaded ``tokenizer`` from (None: it did not load it)."""
    found: LoadedFrom | None = _sources.get(tokenizer)
    return found
