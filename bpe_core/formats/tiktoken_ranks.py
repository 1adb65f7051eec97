"""tiktoken files: one ``base64(token) rank`` line per regular token, rank = id.

Special tokens and the pattern are not part of the format. A file that is a known model's (by the
SHA-256 of its content, :mod:`.known_ranks`: Llama 3 and 4, Qwen 2.5 and 3.6, cl100k, o200k) loads with
that model's pattern, special tokens and normalization; any other needs ``pattern=`` (a name in
``bpe_core.PATTERNS`` or a regex), and a missing one is a :class:`PatternRequired` error, never a guess.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from ..encoding.tokenizer import Tokenizer
from ..pretokenize import PATTERNS
from ..pretokenize.superword import refuse_superword
from ._common import (
    NOT_GIVEN,
    FormatError,
    PathLike,
    PatternArgument,
    build_tokenizer,
    decode_text,
    read_bytes,
    refuse_normalization,
    regular_tokens,
    target_file,
    text_encoding,
    write_text,
)
from .known_ranks import KNOWN_RANKS

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
    refuse_normalization(tokenizer, "tiktoken")
    _refuse_ids_out_of_merge_order(tokenizer)
    lines = [
        f"{base64.b64encode(token).decode('ascii')} {identifier}\n" for identifier, token in regular_tokens(tokenizer)
    ]
    return [write_text(target_file(path, TIKTOKEN_FILENAME), "".join(lines))]


def _refuse_ids_out_of_merge_order(tokenizer: Tokenizer) -> None:
    # tiktoken merges by rank and its rank is the id: ids in another order than the merges would encode otherwise.
    ids = tokenizer.mergeable_ranks
    ordered = sorted(tokenizer.merge_ranks.items(), key=lambda item: item[1])
    for (before, _), (after, _) in zip(ordered, ordered[1:]):
        if ids[before] > ids[after]:
            raise ValueError(
                f"tiktoken files rank merges by id, and this tokenizer merges {before!r} (id {ids[before]}) before "
                f"{after!r} (id {ids[after]}): its ids are not in the order of its merges; save it as gpt2, hf or "
                "bpe-playground"
            )


class PatternRequired(FormatError):
    """A tiktoken file that is no known model's was loaded without ``pattern=``."""

    ASK = "pass pattern=... ,"
    """How its message asks for the pattern (the command line says its option instead)."""


def load_tiktoken(
    path: PathLike,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: PatternArgument = NOT_GIVEN,
    name: str | None = None,
) -> Tokenizer:
    """Load a tiktoken ranks file; the format has no special tokens or pattern, so pass them
    (a known model's file has its own: see the module docstring).

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> path, = save_tiktoken(tokenizer, tempfile.mkdtemp())
    >>> load_tiktoken(path, special_tokens={"<|end|>": 259}, pattern="gpt2").encode("aaab<|end|>")
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
    pattern: PatternArgument = NOT_GIVEN,
    name: str | None = None,
    source: PathLike = TIKTOKEN_FILENAME,
) -> Tokenizer:
    """:func:`load_tiktoken` on the file's bytes; ``source`` names it in errors."""
    ranks = _parse_ranks(data, source)
    digest = hashlib.sha256(data).hexdigest()
    known = KNOWN_RANKS.get(digest)
    if isinstance(pattern, str) or pattern is None:
        chosen, pattern_source = pattern, "given"
    elif known is not None:
        chosen, pattern_source = known.pattern, f"recognised: {known.display}'s file, by its SHA-256"
    else:
        raise PatternRequired(
            source,
            f"a tiktoken file holds no pre-tokenization pattern, and this one is no known model's (SHA-256 "
            f"{digest[:16]}...): {PatternRequired.ASK} a regex or one of the names {', '.join(PATTERNS)} "
            "(the pattern of the tokenizer that wrote it; this library's exports: the pattern it was trained with)",
        )
    if special_tokens is None and known is not None:
        special_tokens = known.special_tokens(len(ranks))
    normalization = known.normalization if known is not None else None
    label = name if name is not None or known is None else known.model
    specials = dict(special_tokens or {})
    tokenizer = build_tokenizer(
        source, lambda: Tokenizer.from_ranks(ranks, specials, chosen, name=label, normalization=normalization)
    )
    tokenizer.pattern_source = pattern_source
    return tokenizer


# A file of nothing but "base64 rank" lines: parsed at C speed, checked as a whole (the line-by-line
# reading below finds and names whatever is wrong). 2.2 s for Llama 4's file became 0.3 s (measured).
_WELL_FORMED = re.compile(rb"(?:[A-Za-z0-9+/]+={0,2} [0-9]+\r?\n)*(?:[A-Za-z0-9+/]+={0,2} [0-9]+\r?)?")


def _parse_ranks(data: bytes, source: PathLike) -> dict[bytes, int]:
    """The ``{token: rank}`` of a tiktoken file's lines (each checked, a bad one named)."""
    if _WELL_FORMED.fullmatch(data):
        lines = data.splitlines()
        try:
            ranks = {binascii.a2b_base64(encoded): int(rank) for encoded, rank in map(bytes.split, lines)}
        except (binascii.Error, ValueError):
            ranks = {}
        if len(ranks) == len(lines) == len(set(ranks.values())) and b"" not in ranks and _has_every_byte(ranks):
            return ranks
    return _parse_ranks_line_by_line(data, source)


def _has_every_byte(ranks: dict[bytes, int]) -> bool:
    return all(bytes([byte]) in ranks for byte in range(256))


def _parse_ranks_line_by_line(data: bytes, source: PathLike) -> dict[bytes, int]:
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
    return ranks


def _show(raw: bytes) -> str:
    r"""A bad line as a message quotes it: its text cut short, or, when it is not UTF-8 (a binary file), its first
    bytes escaped (its text would be a run of U+FFFD and control characters).

    >>> _show(b"abc 1 2"), _show(bytes([0x14, 0xE3, 0x23, 0xFF]))
    ("'abc 1 2'", "binary data, not text: b'\\x14\\xe3#\\xff'")
    """
    try:
        return repr(raw.decode("utf-8")[:60])
    except UnicodeDecodeError:
        return f"binary data, not text: {raw[:24]!r}" + ("…" if len(raw) > 24 else "")


def looks_like_tiktoken(head: bytes) -> bool:
    """Whether the start of a file reads as a ``base64 rank`` line."""
    first = head.split(b"\n", 1)[0].split()
    return len(first) == 2 and first[1].isdigit()
