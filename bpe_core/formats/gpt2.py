r"""GPT-2 files: ``vocab.json`` + ``merges.txt``, and GPT-2's printable byte alphabet.

``vocab.json`` maps each token, written in GPT-2's printable byte alphabet
(:func:`bytes_to_unicode`: ``" "`` is ``"Ġ"``, ``"\n"`` is ``"Ċ"``), to its id. ``merges.txt``
starts with ``#version: 0.2`` and lists one merge per line, ``left right``, in the same
alphabet. Special tokens are stored in ``vocab.json`` as their literal text, as GPT-2 stores
``<|endoftext|>``; on load, an entry that is neither a single byte nor made by a merge is a
special token. The pattern is not stored (GPT-2's own is assumed; pass ``pattern=``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from ..encoding.tokenizer import Tokenizer
from ..pretokenize.superword import refuse_superword
from ._common import (
    FormatError,
    PathLike,
    build_tokenizer,
    checked_merges,
    json_type_name,
    parse_json,
    read_text,
    refuse_normalization,
    regular_tokens,
    write_text,
)

GPT2_VOCAB_FILENAME = "vocab.json"
GPT2_MERGES_FILENAME = "merges.txt"
# Other names GPT-2-style pairs go by: OpenAI's original release calls them encoder.json and vocab.bpe.
GPT2_VOCAB_NAMES = (GPT2_VOCAB_FILENAME, "encoder.json")
GPT2_MERGES_NAMES = (GPT2_MERGES_FILENAME, "vocab.bpe")
_MERGES_HEADER = "#version: 0.2"


@lru_cache(maxsize=1)
def _byte_to_char() -> tuple[str, ...]:
    # Printable Latin-1 bytes stand for themselves; the other 68 bytes (controls, space, 0x7F-0xA0,
    # 0xAD) are shifted to U+0100 onwards, in byte order. This is GPT-2's encoder.py verbatim.
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = [""] * 256
    shifted = 0
    for byte in range(256):
        if byte in printable:
            chars[byte] = chr(byte)
        else:
            chars[byte] = chr(256 + shifted)
            shifted += 1
    return tuple(chars)


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's mapping from each byte to a printable character.

    >>> mapping = bytes_to_unicode()
    >>> mapping[ord("a")], mapping[ord(" ")], mapping[ord("\\n")]
    ('a', 'Ġ', 'Ċ')
    """
    return dict(enumerate(_byte_to_char()))


@lru_cache(maxsize=1)
def _char_to_byte() -> dict[str, int]:
    return {char: byte for byte, char in enumerate(_byte_to_char())}


def unicode_to_bytes() -> dict[str, int]:
    """The inverse of :func:`bytes_to_unicode`.

    >>> unicode_to_bytes()["Ġ"]
    32
    """
    return dict(_char_to_byte())


def to_gpt2_text(token: bytes) -> str:
    chars = _byte_to_char()
    return "".join(chars[byte] for byte in token)


@lru_cache(maxsize=1)
def _to_latin1() -> dict[int, int]:
    # str.translate's table: each alphabet character to the Latin-1 character of its byte, and every other character
    # below U+0100 (which Latin-1 would encode as itself) to one that Latin-1 cannot encode.
    return dict.fromkeys(range(256), 0xFFFF) | {ord(char): byte for char, byte in _char_to_byte().items()}


def from_gpt2_text(text: str) -> bytes | None:
    """The bytes a GPT-2 alphabet string stands for, or None if it has a character outside it.

    >>> from_gpt2_text("Ġhello"), from_gpt2_text("a b")
    (b' hello', None)
    """
    # Done in C (translate, then encode): a vocab.json + merges.txt holds ~150,000 of these strings.
    try:
        return text.translate(_to_latin1()).encode("latin-1")
    except UnicodeEncodeError:
        return None


def byte_level_spellings(tokenizer: Tokenizer, fmt: str) -> tuple[list[tuple[int, bytes]], dict[bytes, str]]:
    """The regular tokens as (id, bytes) by id, and each one's spelling in GPT-2's alphabet.

    Formats that keep specials in the same table as these spellings need the two distinct, so a
    special token whose text is also a regular token's spelling is refused with a ValueError.
    """
    regular = regular_tokens(tokenizer)
    as_text = {token: to_gpt2_text(token) for _, token in regular}
    regular_strings = set(as_text.values())
    for special in tokenizer.special_tokens:
        if special in regular_strings:
            raise ValueError(
                f"special token {special!r} cannot be saved in {fmt} format: its text is also the "
                "byte-level spelling of a regular token, so the two would collide"
            )
    return regular, as_text


def save_gpt2(
    tokenizer: Tokenizer,
    directory: PathLike,
    *,
    vocab_name: str = GPT2_VOCAB_FILENAME,
    merges_name: str = GPT2_MERGES_FILENAME,
) -> list[Path]:
    """Write ``vocab.json`` and ``merges.txt`` into ``directory`` (created if missing).

    The pattern is not stored; load with ``pattern=`` if it is not GPT-2's.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> [p.name for p in save_gpt2(tokenizer, tempfile.mkdtemp())]
    ['vocab.json', 'merges.txt']
    """
    refuse_superword(tokenizer, "gpt2")
    refuse_normalization(tokenizer, "gpt2")
    directory = Path(directory)
    regular, as_text = byte_level_spellings(tokenizer, "gpt2")
    entries = [(identifier, as_text[token]) for identifier, token in regular]
    entries += [(identifier, special) for special, identifier in tokenizer.special_tokens.items()]
    vocab = {text: identifier for identifier, text in sorted(entries)}
    lines = [_MERGES_HEADER] + [
        f"{to_gpt2_text(left)} {to_gpt2_text(right)}" for left, right in checked_merges(tokenizer, "gpt2")
    ]
    return [
        write_text(directory / vocab_name, json.dumps(vocab, ensure_ascii=False, indent=0) + "\n"),
        write_text(directory / merges_name, "\n".join(lines) + "\n"),
    ]


def load_gpt2(
    vocab_path: PathLike,
    merges_path: PathLike | None = None,
    *,
    pattern: str | None = "gpt2",
    name: str | None = None,
) -> Tokenizer:
    """Load a GPT-2-style ``vocab.json`` + ``merges.txt`` pair (or ``encoder.json`` + ``vocab.bpe``).

    ``merges_path`` defaults to ``merges.txt`` or ``vocab.bpe`` next to the vocab. A vocab entry
    that is neither a single byte nor the result of a merge is a special token.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260, special_tokens=["<s>"]).tokenizer
    >>> paths = save_gpt2(tokenizer, tempfile.mkdtemp())
    >>> load_gpt2(paths[0]).special_tokens
    {'<s>': 259}
    """
    vocab_path = Path(vocab_path)
    if merges_path is None:
        merges_path = _find_sibling(vocab_path, GPT2_MERGES_NAMES, "merges file (merges.txt or vocab.bpe)")
    merges_path = Path(merges_path)
    return parse_gpt2(
        read_text(vocab_path),
        read_text(merges_path),
        pattern=pattern,
        name=name,
        vocab_source=vocab_path,
        merges_source=merges_path,
    )


def parse_gpt2(
    vocab_text: str,
    merges_text: str,
    *,
    pattern: str | None = "gpt2",
    name: str | None = None,
    vocab_source: PathLike = GPT2_VOCAB_FILENAME,
    merges_source: PathLike = GPT2_MERGES_FILENAME,
) -> Tokenizer:
    """:func:`load_gpt2` on the files' contents; ``*_source`` name them in errors."""
    raw_vocab = parse_json(vocab_text, vocab_source)
    if not isinstance(raw_vocab, dict):
        raise FormatError(vocab_source, f"must be a JSON object of token -> id, not {json_type_name(raw_vocab)}")
    by_text: dict[str, int] = {}
    owner_of_id: dict[int, str] = {}
    for text, identifier in raw_vocab.items():
        if isinstance(identifier, bool) or not isinstance(identifier, int) or identifier < 0:
            raise FormatError(vocab_source, f"id must be a non-negative integer, not {identifier!r}", field=repr(text))
        if identifier in owner_of_id:
            raise FormatError(
                vocab_source,
                f"id {identifier} is given to both {owner_of_id[identifier]!r} and {text!r}",
                field=repr(text),
            )
        owner_of_id[identifier] = text
        by_text[text] = identifier

    merges: list[tuple[bytes, bytes]] = []
    merged_texts: set[str] = set()
    lines = merges_text.split("\n")
    for line_number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line or (line_number == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise FormatError(
                merges_source, f"expected two tokens separated by one space, got {line!r}", line=line_number
            )
        pair = []
        for part in parts:
            token = from_gpt2_text(part)
            if token is None:
                raise FormatError(
                    merges_source, f"token {part!r} has a character outside GPT-2's byte alphabet", line=line_number
                )
            if part not in by_text:
                raise FormatError(
                    merges_source, f"token {part!r} is not in {Path(vocab_source).name}", line=line_number
                )
            pair.append(token)
        merged = parts[0] + parts[1]
        if merged not in by_text:
            raise FormatError(
                merges_source,
                f"the merge makes {merged!r}, which is not in {Path(vocab_source).name}",
                line=line_number,
            )
        merges.append((pair[0], pair[1]))
        merged_texts.add(merged)

    vocab: dict[int, bytes] = {}
    special_tokens: dict[str, int] = {}
    for text, identifier in by_text.items():
        token = from_gpt2_text(text)
        if token is not None and (len(token) == 1 or text in merged_texts):
            vocab[identifier] = token
        else:
            special_tokens[text] = identifier
    missing = [byte for byte in range(256) if _byte_to_char()[byte] not in by_text]
    if missing:
        raise FormatError(
            vocab_source,
            f"lacks {len(missing)} of the 256 single-byte tokens "
            f"(first: {_byte_to_char()[missing[0]]!r} for byte 0x{missing[0]:02X})",
        )
    return build_tokenizer(vocab_source, lambda: Tokenizer(vocab, merges, special_tokens, pattern, name=name))


def find_vocab_beside(merges_path: Path) -> Path:
    """The ``vocab.json`` (or ``encoder.json``) next to a merges file."""
    return _find_sibling(merges_path, GPT2_VOCAB_NAMES, "vocab file (vocab.json or encoder.json)")


def _find_sibling(path: Path, names: Iterable[str], what: str) -> Path:
    for candidate in names:
        sibling = path.with_name(candidate)
        if sibling.is_file():
            return sibling
    raise FileNotFoundError(f"{path}: no {what} next to it")
