"""tiktoken files: one ``base64(token) rank`` line per regular token, rank = id.

Special tokens and the pattern are not part of the format: :func:`load_tiktoken` takes them as arguments.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from pathlib import Path

from ..encoding.tokenizer import Tokenizer
from ..pretokenize.superword import refuse_superword
from ._common import (
    FormatError,
    PathLike,
    build_tokenizer,
    decode_text,
    read_bytes,
    regular_tokens,
    target_file,
    text_encoding,
    write_text,
)

TIKTOKEN_FILENAME = "tokenizer.tiktoken"


def save_tiktoken(tokenizer: Tokenizer, path: PathLike) -> list[Path]:
    """Write a tiktoken ranks file (a directory gets ``tokenizer.tiktoken``).

    Special tokens and the pattern are not part of the format: pass them to :func:`load_tiktoken`.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> path, = save_tiktoken(tokenizer, tempfile.mkdtemp())
    >>> path.read_text().splitlines()[256:]
    ['YWE= 256', 'YWFh 257', 'YWFhYg== 258']
    """
    refuse_superword(tokenizer, "tiktoken")
    lines = [
        f"{base64.b64encode(token).decode('ascii')} {identifier}\n" for identifier, token in regular_tokens(tokenizer)
    ]
    return [write_text(target_file(path, TIKTOKEN_FILENAME), "".join(lines))]


def load_tiktoken(
    path: PathLike,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: str | None = "gpt2",
    name: str | None = None,
) -> Tokenizer:
    """Load a tiktoken ranks file; the format has no special tokens or pattern, so pass them.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> path, = save_tiktoken(tokenizer, tempfile.mkdtemp())
    >>> load_tiktoken(path, special_tokens={"<|end|>": 259}).encode("aaab<|end|>")
    [258, 259]
    """
    path = Path(path)
    data = read_bytes(path)
    if text_encoding(data[:4]) != "utf-8":  # a byte order mark: UTF-16/32 text, or UTF-8 with a BOM
        data = decode_text(data, path).encode("utf-8")
    return parse_tiktoken(data, special_tokens=special_tokens, pattern=pattern, name=name, source=path)


def parse_tiktoken(
    data: bytes,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: str | None = "gpt2",
    name: str | None = None,
    source: PathLike = TIKTOKEN_FILENAME,
) -> Tokenizer:
    """:func:`load_tiktoken` on the file's bytes; ``source`` names it in errors."""
    ranks: dict[bytes, int] = {}
    line_of_rank: dict[int, int] = {}
    line_of_token: dict[bytes, int] = {}
    for line_number, line in enumerate(data.split(b"\n"), 1):
        line = line.rstrip(b"\r")
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(source, f"expected 'base64 rank', got {_show(line)}", line=line_number)
        encoded, rank_text = parts
        try:
            token = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(source, f"{_show(encoded)} is not valid base64", line=line_number) from None
        if not token:
            raise FormatError(source, "the token is empty", line=line_number)
        if not rank_text.isdigit():
            raise FormatError(source, f"rank {_show(rank_text)} is not a non-negative integer", line=line_number)
        rank = int(rank_text)
        if rank in line_of_rank:
            raise FormatError(source, f"rank {rank} was already given on line {line_of_rank[rank]}", line=line_number)
        if token in line_of_token:
            raise FormatError(
                source, f"token {token!r} was already given on line {line_of_token[token]}", line=line_number
            )
        line_of_rank[rank] = line_of_token[token] = line_number
        ranks[token] = rank
    missing = [byte for byte in range(256) if bytes([byte]) not in ranks]
    if missing:
        raise FormatError(
            source, f"lacks {len(missing)} of the 256 single-byte tokens (first: byte 0x{missing[0]:02X})"
        )
    return build_tokenizer(source, lambda: Tokenizer.from_ranks(ranks, dict(special_tokens or {}), pattern, name=name))


def _show(raw: bytes) -> str:
    return repr(raw.decode("utf-8", errors="replace")[:60])


def looks_like_tiktoken(head: bytes) -> bool:
    """Whether the start of a file reads as a ``base64 rank`` line."""
    first = head.split(b"\n", 1)[0].split()
    return len(first) == 2 and first[1].isdigit()
