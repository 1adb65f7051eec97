"""What a built-in tokenizer is built from, and what it is: its files, hashes, family, licence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

ReferenceKind = Literal["gpt2", "tiktoken", "tekken", "file"]
"""How the files are read: GPT-2's pair, tiktoken ranks, Mistral's Tekken JSON, or ``bpe_core.load`` on
the file (the formats whose loaders are written elsewhere: Hugging Face pipelines, SentencePiece)."""


class ReferenceDataError(RuntimeError):
    """A reference vocabulary file is missing, unreadable, not the file it should be, or not loadable yet."""


@dataclass(frozen=True)
class PackagedFile:
    """One vocabulary file inside an installed package and the SHA-256 of its content."""

    package: str  # import name
    distribution: str  # what to pip install
    resource: str  # path inside the package
    sha256: str  # of the (uncompressed) content
    gzipped: bool = False


@dataclass(frozen=True)
class Licence:
    """The licence a model's files come under, as the package says, and where its text is."""

    name: str
    text: str  # where to read it (a file in the package, or the address the package points to)


@dataclass(frozen=True)
class ReferenceSpec:
    """How to build one reference tokenizer, and what it is."""

    kind: ReferenceKind
    files: Mapping[str, PackagedFile]
    special_tokens: Mapping[str, int] | None  # None: what the file says (or, for tiktoken, its model's)
    pattern: str | None  # a name in bpe_core.PATTERNS; None: the file's own (or its model's, recognised)
    family: str = "OpenAI"
    display_name: str = ""
    vocab_size: int = 0  # one more than the highest id: tiktoken's n_vocab
    tokens: int = 0  # how many tokens, where ids are skipped (cl100k, o200k: fewer than n_vocab); 0: vocab_size
    licence: Licence = field(default_factory=lambda: Licence("MIT (the package's)", "the package's METADATA"))
    loader_note: str = ""  # for kind "file": whose loader reads it, said when it cannot yet
