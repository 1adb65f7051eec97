"""Tokenizer files in a zip (the GPT-2 pair is handed around as one), unpacked within limits.

A zip states each member's unpacked size in its directory, but a crafted one can lie, and a
small one can unpack to gigabytes (a zip bomb). So the directory is checked first (how many
members, how many bytes in all) and then the bytes actually read are counted and reading stops
at the stated size or the limit, whichever is smaller.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from ._common import FormatError, PathLike

MAX_MEMBERS = 16
MAX_UNPACKED_BYTES = 256 << 20
"""More than the largest tokenizer files (o200k's tokenizer.json is about 30 MB) need."""
_READ_BYTES = 1 << 20
ZIP_MAGIC = b"PK\x03\x04"


def read_zip(data: bytes, source: PathLike, *, limit: int | None = None) -> dict[str, bytes]:
    """The files in a zip, by their base name, refusing (FormatError) anything over the limits.

    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
    ...     archive.writestr("tok/merges.txt", "#version: 0.2\\n")
    >>> read_zip(buffer.getvalue(), "tok.zip")
    {'merges.txt': b'#version: 0.2\\n'}
    >>> read_zip(buffer.getvalue(), "tok.zip", limit=5)
    Traceback (most recent call last):
    ...
    bpe_core.formats._common.FormatError: tok.zip: unpacks to 14 bytes, more than the limit of 5 bytes
    """
    limit = MAX_UNPACKED_BYTES if limit is None else limit
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise FormatError(source, f"not a valid zip file ({error})") from None
    with archive:
        members = [info for info in archive.infolist() if not info.is_dir()]
        if len(members) > MAX_MEMBERS:
            raise FormatError(source, f"holds {len(members)} files; a tokenizer zip holds at most {MAX_MEMBERS}")
        stated = sum(info.file_size for info in members)
        if stated > limit:
            raise FormatError(source, f"unpacks to {stated:,} bytes, more than the limit of {limit:,} bytes")
        files: dict[str, bytes] = {}
        for info in members:
            name = PurePosixPath(info.filename).name
            if name in files:
                raise FormatError(source, f"holds two files named {name!r}")
            files[name] = _read_member(archive, info, source)
    return files


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: PathLike) -> bytes:
    chunks, total = [], 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_READ_BYTES):
                total += len(chunk)
                if total > info.file_size:  # the directory lied about the size
                    stated = f"the {info.file_size:,} bytes stated"
                    raise FormatError(source, f"{info.filename} unpacks to more than {stated}")
                chunks.append(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as error:
        # RuntimeError: an encrypted member; NotImplementedError: an unknown compression method
        raise FormatError(source, f"cannot unpack {info.filename} ({error})") from None
    return b"".join(chunks)
