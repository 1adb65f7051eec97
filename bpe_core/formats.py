"""Save and load tokenizers losslessly in four file formats.

=================  =======================================  ===================================
format name        files                                    keeps
=================  =======================================  ===================================
``bpe-playground`` ``bpe-playground.json`` (this project)   everything, plus training metadata
``gpt2``           ``vocab.json`` + ``merges.txt``           tokens, ids, merges, special tokens
``tiktoken``       ``tokenizer.tiktoken``                    tokens and ids (ranks) only
``hf``             ``tokenizer.json`` (Hugging Face)         tokens, ids, merges, specials, pattern
=================  =======================================  ===================================

>>> import tempfile, bpe_core
>>> from bpe_core import formats
>>> tokenizer = bpe_core.train("low lower lowest " * 20, 270, special_tokens=["<|eot|>"]).tokenizer
>>> directory = tempfile.mkdtemp()
>>> [path.name for path in formats.save(tokenizer, directory, "gpt2")]
['vocab.json', 'merges.txt']
>>> formats.load(directory).encode("lowest<|eot|>") == tokenizer.encode("lowest<|eot|>")
True

Every loader raises :class:`FormatError` (a ``ValueError``) on malformed input, naming the file
and the line (text formats) or the field (JSON formats) at fault.

The project's own JSON format (``"format": "bpe-playground"``, ``"version": 1``)
--------------------------------------------------------------------------------

Token bytes are written as **lowercase hex** strings (``b" the"`` is ``"20746865"``): lossless
for any bytes, unambiguous, and readable enough to spot spaces (``20``) and newlines (``0a``).

.. code-block:: text

    {
      "format": "bpe-playground",
      "version": 1,
      "name": "my-tokenizer" | null,
      "pattern": "gpt2" | "<a regex>" | null,       # a name from bpe_core.PATTERNS, a regex, or none
      "special_tokens": {"<|endoftext|>": 300},     # text -> id
      "merges": [["6c", "6f"], ["6c6f", "77"], ...],# [left, right] in rank order (rank = index)
      "byte_ids": null | [256 ints],                # id of byte b; null means byte b has id b
      "merge_ids": null | [ints],                   # id of merges[r]; null means 256 + r
      "training": {...} | null                      # free-form metadata (settings, timings, source)
    }

A merge's parts must each be a single byte or the result of an earlier merge. ``byte_ids`` and
``merge_ids`` are written only for tokenizers whose ids are not the usual ones (GPT-2's and
tiktoken's encodings order the single bytes differently, and cl100k/o200k have unused ids).

GPT-2 files
-----------

``vocab.json`` maps each token, written in GPT-2's printable byte alphabet
(:func:`bytes_to_unicode`: ``" "`` is ``"Ġ"``, ``"\\n"`` is ``"Ċ"``), to its id. ``merges.txt``
starts with ``#version: 0.2`` and lists one merge per line, ``left right``, in the same
alphabet. Special tokens are stored in ``vocab.json`` as their literal text, as GPT-2 stores
``<|endoftext|>``; on load, an entry that is neither a single byte nor made by a merge is a
special token. The pattern is not stored (GPT-2's own is assumed; pass ``pattern=``).

tiktoken files
--------------

One ``base64(token) rank`` line per regular token, rank = id. Special tokens and the pattern are
not part of the format: :func:`load_tiktoken` takes them as arguments.

Hugging Face ``tokenizer.json``
-------------------------------

A ``Sequence`` pre-tokenizer (``Split`` with our pattern, behaviour ``Isolated``, then
``ByteLevel`` with ``use_regex: false``), a ``BPE`` model with ``ignore_merges: true`` (a
pre-token that is itself a token is emitted whole, as tiktoken and :class:`Tokenizer` do), a
``ByteLevel`` decoder, and the special tokens as ``added_tokens`` with ``special: true``. The
``tokenizers`` library gives the same ids as :meth:`Tokenizer.encode` for it. Our regexes use
Python ``regex`` syntax and Hugging Face runs Oniguruma, so the pattern is translated (see
:func:`to_oniguruma`); the one change the named patterns need is for ``\\p{N}{1,3}+``, which
Oniguruma would read as "one or more runs of 1-3 digits", not as a possessive ``{1,3}``.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from .pretokenize import PATTERNS, compile_pattern
from .tokenizer import Tokenizer

__all__ = [
    "FORMATS",
    "FormatError",
    "FormatName",
    "bytes_to_unicode",
    "detect_format",
    "from_oniguruma",
    "load",
    "load_gpt2",
    "load_hf",
    "load_json",
    "load_tiktoken",
    "read_training_metadata",
    "save",
    "save_gpt2",
    "save_hf",
    "save_json",
    "save_tiktoken",
    "to_oniguruma",
    "unicode_to_bytes",
]

FormatName = Literal["bpe-playground", "gpt2", "tiktoken", "hf"]
FORMATS: tuple[FormatName, ...] = ("bpe-playground", "gpt2", "tiktoken", "hf")

JSON_FORMAT_TAG = "bpe-playground"
JSON_FORMAT_VERSION = 1

# The file names save() picks when given a directory (and load() looks for in one).
JSON_FILENAME = "bpe-playground.json"
GPT2_VOCAB_FILENAME = "vocab.json"
GPT2_MERGES_FILENAME = "merges.txt"
TIKTOKEN_FILENAME = "tokenizer.tiktoken"
HF_FILENAME = "tokenizer.json"

# Other names GPT-2-style pairs go by: OpenAI's original release calls them encoder.json and vocab.bpe.
_GPT2_VOCAB_NAMES = (GPT2_VOCAB_FILENAME, "encoder.json")
_GPT2_MERGES_NAMES = (GPT2_MERGES_FILENAME, "vocab.bpe")
_GPT2_MERGES_HEADER = "#version: 0.2"

PathLike = str | os.PathLike


class FormatError(ValueError):
    """A tokenizer file is malformed. The message names the file and the line or field at fault.

    >>> str(FormatError("merges.txt", "expected two tokens", line=3))
    'merges.txt, line 3: expected two tokens'
    >>> str(FormatError("t.json", "must be a list", field="merges"))
    't.json, field merges: must be a list'
    """

    def __init__(self, source: PathLike, message: str, *, line: int | None = None, field: str | None = None):
        self.source = str(source)
        self.line = line
        self.field = field
        self.reason = message
        where = self.source
        if line is not None:
            where += f", line {line}"
        if field is not None:
            where += f", field {field}"
        super().__init__(f"{where}: {message}")


# -- GPT-2's byte <-> printable character mapping -----------------------------------------------


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


def _to_gpt2_text(token: bytes) -> str:
    chars = _byte_to_char()
    return "".join(chars[byte] for byte in token)


def _from_gpt2_text(text: str) -> bytes | None:
    """The bytes a GPT-2 alphabet string stands for, or None if it has a character outside it."""
    table = _char_to_byte()
    try:
        return bytes(table[char] for char in text)
    except KeyError:
        return None


# -- what every format needs from a tokenizer -----------------------------------------------------


def _regular_tokens(tokenizer: Tokenizer) -> list[tuple[int, bytes]]:
    """(id, bytes) of every non-special token, by id."""
    return sorted((identifier, token) for token, identifier in tokenizer.mergeable_ranks.items())


def _check_specials_storable(tokenizer: Tokenizer, as_text: Mapping[bytes, str], fmt: str) -> None:
    """Formats that keep specials in the same table as byte-level strings need them distinct."""
    regular_strings = set(as_text.values())
    for special in tokenizer.special_tokens:
        if special in regular_strings:
            raise ValueError(
                f"special token {special!r} cannot be saved in {fmt} format: its text is also the "
                "byte-level spelling of a regular token, so the two would collide"
            )


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    return _decode_utf8(data, path)


def _decode_utf8(data: bytes, source: PathLike) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FormatError(source, f"not valid UTF-8 (byte 0x{data[error.start]:02X})", line=line) from None


def _parse_json(text: str, source: PathLike) -> Any:
    def refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # json.loads would silently keep the last of two equal keys: a token listed twice.
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise FormatError(source, "the key appears twice in one object", field=repr(key))
            result[key] = value
        return result

    try:
        return json.loads(text, object_pairs_hook=refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise FormatError(source, f"invalid JSON: {error.msg} (column {error.colno})", line=error.lineno) from None


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # newline="" so Windows does not turn "\n" into "\r\n" inside files other tools parse.
    with open(path, "w", encoding="utf-8", newline="") as file:
        file.write(text)
    return path


def _target(path_or_dir: PathLike, default_name: str) -> Path:
    """The file to write: ``path_or_dir`` itself, or ``default_name`` inside it if it is a directory.

    A path that does not exist yet and has no suffix (``out/my_tok``) is taken as a directory to create.
    """
    path = Path(path_or_dir)
    if path.is_dir() or (not path.exists() and not path.suffix):
        return path / default_name
    return path


# -- GPT-2: vocab.json + merges.txt ----------------------------------------------------------------


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
    directory = Path(directory)
    regular = _regular_tokens(tokenizer)
    as_text = {token: _to_gpt2_text(token) for _, token in regular}
    _check_specials_storable(tokenizer, as_text, "gpt2")
    entries = [(identifier, as_text[token]) for identifier, token in regular]
    entries += [(identifier, special) for special, identifier in tokenizer.special_tokens.items()]
    vocab = {text: identifier for identifier, text in sorted(entries)}
    lines = [_GPT2_MERGES_HEADER] + [
        f"{_to_gpt2_text(left)} {_to_gpt2_text(right)}" for left, right in tokenizer.merges
    ]
    return [
        _write(directory / vocab_name, json.dumps(vocab, ensure_ascii=False, indent=0) + "\n"),
        _write(directory / merges_name, "\n".join(lines) + "\n"),
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
        merges_path = _find_sibling(vocab_path, _GPT2_MERGES_NAMES, "merges file (merges.txt or vocab.bpe)")
    merges_path = Path(merges_path)
    return parse_gpt2(
        _read_text(vocab_path),
        _read_text(merges_path),
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
    raw_vocab = _parse_json(vocab_text, vocab_source)
    if not isinstance(raw_vocab, dict):
        raise FormatError(vocab_source, f"must be a JSON object of token -> id, not {_json_type(raw_vocab)}")
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
            token = _from_gpt2_text(part)
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
        token = _from_gpt2_text(text)
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
    return _build(vocab_source, lambda: Tokenizer(vocab, merges, special_tokens, pattern, name=name))


def _find_sibling(path: Path, names: Iterable[str], what: str) -> Path:
    for candidate in names:
        sibling = path.with_name(candidate)
        if sibling.is_file():
            return sibling
    raise FileNotFoundError(f"{path}: no {what} next to it")


def _build(source: PathLike, make) -> Tokenizer:
    """Run a Tokenizer constructor, reporting its complaints as a FormatError about ``source``."""
    try:
        return make()
    except FormatError:
        raise
    except ValueError as error:
        raise FormatError(source, str(error)) from None


# -- tiktoken: base64(token) rank ------------------------------------------------------------------


def save_tiktoken(tokenizer: Tokenizer, path: PathLike) -> list[Path]:
    """Write a tiktoken ranks file (a directory gets ``tokenizer.tiktoken``).

    Special tokens and the pattern are not part of the format: pass them to :func:`load_tiktoken`.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> path, = save_tiktoken(tokenizer, tempfile.mkdtemp())
    >>> path.read_text().splitlines()[256:]
    ['YWE= 256', 'YWFh 257', 'YWFhYg== 258']
    """
    lines = [
        f"{base64.b64encode(token).decode('ascii')} {identifier}\n" for identifier, token in _regular_tokens(tokenizer)
    ]
    return [_write(_target(path, TIKTOKEN_FILENAME), "".join(lines))]


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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
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
    return _build(source, lambda: Tokenizer.from_ranks(ranks, dict(special_tokens or {}), pattern, name=name))


def _show(raw: bytes) -> str:
    return repr(raw.decode("utf-8", errors="replace")[:60])


# -- Hugging Face tokenizer.json ----------------------------------------------------------------


def to_oniguruma(python_regex: str) -> str:
    """Translate a Python ``regex`` pattern into an Oniguruma one that splits text the same way.

    Hugging Face ``tokenizers`` compiles ``Split`` patterns with Oniguruma (Ruby syntax), which
    differs from Python's ``regex`` in a few places this rewrites:

    * ``X{n,m}+`` is possessive in Python but means ``(X{n,m})+`` in Oniguruma -> ``(?>X{n,m})``;
    * ``$`` is end-of-text (or before a final newline) in Python but end-of-line in Oniguruma
      -> ``(?=\\n?\\z)``; ``^`` likewise -> ``\\A``; ``\\Z`` (end of text) -> ``\\z``;
    * the inline flag ``s`` (dot matches newline) is Oniguruma's ``m``; Python's ``m`` is
      Oniguruma's default;
    * ``(?P<name>`` -> ``(?<name>``.

    Constructs with no equivalent (``\\N{...}``, ``(?P=name)``, flags ``a``/``L``/``u``) raise ValueError.

    >>> to_oniguruma(r"\\p{N}{1,3}+|\\s+$")
    '(?>\\\\p{N}{1,3})|\\\\s+(?=\\\\n?\\\\z)'
    """
    out: list[str] = []  # one entry per atom or operator, so a quantifier can wrap the last atom
    i, n = 0, len(python_regex)
    multiline = _has_global_flag(python_regex, "m")
    while i < n:
        char = python_regex[i]
        if char == "\\":
            escape = _escape_at(python_regex, i)
            i += len(escape)
            if escape.startswith("\\N{"):
                raise ValueError(
                    f"{escape} (a named character) has no Oniguruma equivalent; write the character itself"
                )
            if escape == "\\Z":
                escape = "\\z"
            elif escape.startswith("\\U") and len(escape) == 10:
                escape = "\\x{" + escape[2:] + "}"
            out.append(escape)
        elif char == "[":
            end = _class_end(python_regex, i, nested=False)
            out.append(_translate_class(python_regex[i:end]))
            i = end
        elif char == "(":
            head = python_regex[i : i + 4]
            if head.startswith("(?P="):
                raise ValueError("back-references (?P=name) have no place in a pre-tokenization pattern")
            if head.startswith("(?P<"):
                out.append("(?<")
                i += 4
                continue
            flags = _inline_flags_at(python_regex, i)
            if flags is not None:
                text, length = flags
                out.append(text)
                i += length
                continue
            out.append("(")
            i += 1
        elif char == "{" and out:
            quantifier = _counted_quantifier_at(python_regex, i)
            if quantifier is None:
                out.append("\\{")
                i += 1
                continue
            i += len(quantifier)
            if i < n and python_regex[i] == "+":
                # Possessive counted repeat: Oniguruma has the atomic group, not the syntax.
                atom_start = _last_atom_start(out)
                atom = "".join(out[atom_start:])
                del out[atom_start:]
                out.append(f"(?>{atom}{quantifier})")
                i += 1
            else:
                out.append(quantifier)
        elif char == "$" and not multiline:
            out.append("(?=\\n?\\z)")
            i += 1
        elif char == "^" and not multiline:
            out.append("\\A")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def from_oniguruma(oniguruma_regex: str) -> str:
    """The pattern to use in Python for a Split regex read from a ``tokenizer.json``.

    A translation of one of our named patterns gives back its name; otherwise the few Oniguruma
    spellings :func:`to_oniguruma` introduces that Python reads differently are turned back
    (atomic groups need nothing: they mean the same in both).

    >>> from_oniguruma(to_oniguruma(PATTERNS["cl100k"]))
    'cl100k'
    """
    for pattern_name, regex_source in PATTERNS.items():
        if to_oniguruma(regex_source) == oniguruma_regex:
            return pattern_name
    return _python_from_oniguruma(oniguruma_regex)


def _python_from_oniguruma(source: str) -> str:
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        char = source[i]
        if char == "\\":
            escape = _escape_at(source, i)
            i += len(escape)
            if escape == "\\z":
                escape = "\\Z"
            out.append(escape)
        elif char == "[":
            end = _class_end(source, i, nested=True)
            out.append(source[i:end])
            i = end
        elif char == "(" and source.startswith("(?<", i) and not source.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
        elif char == "(":
            flags = _inline_flags_at(source, i, reverse=True)
            if flags is not None:
                out.append(flags[0])
                i += flags[1]
            else:
                out.append("(")
                i += 1
        elif char in "^$":
            # Oniguruma anchors are always per line: Python's multiline mode.
            out.append("(?m:^)" if char == "^" else "(?m:$)")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _escape_at(source: str, i: int) -> str:
    """The whole escape sequence starting at the backslash at ``i``."""
    if i + 1 >= len(source):
        raise ValueError("the pattern ends with a lone backslash")
    letter = source[i + 1]
    if letter in "pPNx" and source.startswith("{", i + 2):
        end = source.find("}", i + 2)
        if end < 0:
            raise ValueError(f"unterminated \\{letter}{{...}} in the pattern")
        return source[i : end + 1]
    if letter == "x":
        return source[i : i + 4]
    if letter == "u":
        return source[i : i + 6]
    if letter == "U":
        return source[i : i + 10]
    return source[i : i + 2]


def _class_end(source: str, start: int, *, nested: bool) -> int:
    """Index just past the character class opening at ``start``.

    Oniguruma nests classes (``[a[bc]]``); Python's ``regex`` (version 0) reads an inner ``[`` as
    a literal, except in a POSIX class such as ``[:alpha:]``, which both understand.
    """
    i = start + 1
    if i < len(source) and source[i] == "^":
        i += 1
    if i < len(source) and source[i] == "]":  # a leading ] is a literal
        i += 1
    depth = 1
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += len(_escape_at(source, i))
            continue
        if char == "[" and source.startswith("[:", i):
            close = source.find(":]", i + 2)
            if close > 0:
                i = close + 2
                continue
        if char == "[" and nested:
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated character class in the pattern")


def _translate_class(text: str) -> str:
    """A Python character class, spelled so that Oniguruma reads the same set."""
    out = [text[0]]
    i = 1
    while i < len(text):
        if text[i] == "\\":
            escape = _escape_at(text, i)
            out.append(escape)
            i += len(escape)
        elif text.startswith("[:", i) and text.find(":]", i + 2) > 0:
            close = text.find(":]", i + 2) + 2
            out.append(text[i:close])
            i = close
        elif text[i] == "[":
            out.append("\\[")  # a literal in Python, a nested class in Oniguruma
            i += 1
        elif text.startswith("&&", i):
            out.append("&\\&")  # a literal in Python, intersection in Oniguruma
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _counted_quantifier_at(source: str, i: int) -> str | None:
    end = source.find("}", i)
    if end < 0:
        return None
    body = source[i + 1 : end]
    low, comma, high = body.partition(",")
    if not low.isdigit() or (high and not high.isdigit()) or (not comma and high):
        return None
    quantifier = source[i : end + 1]
    if end + 1 < len(source) and source[end + 1] == "?":
        quantifier += "?"
    return quantifier


def _last_atom_start(out: list[str]) -> int:
    """Index in ``out`` where the last atom begins (a group spans from its "(" to its ")")."""
    index = len(out) - 1
    if out[index] != ")":
        return index
    depth = 0
    while index >= 0:
        item = out[index]
        if item == ")":
            depth += 1
        elif item.startswith("(") and not item.startswith("(?>") or item == "(?<":
            depth -= 1
            if depth == 0:
                return index
        index -= 1
    raise ValueError("unbalanced parentheses in the pattern")


_PYTHON_FLAGS_TO_ONIGURUMA = {"i": "i", "x": "x", "s": "m", "m": ""}
_ONIGURUMA_FLAGS_TO_PYTHON = {"i": "i", "x": "x", "m": "s"}


def _inline_flags_at(source: str, i: int, *, reverse: bool = False) -> tuple[str, int] | None:
    """Translate an inline flag group ``(?flags)`` / ``(?flags:`` / ``(?on-off:`` at ``i``."""
    if not source.startswith("(?", i):
        return None
    j = i + 2
    while j < len(source) and (source[j].isalpha() or source[j] == "-"):
        j += 1
    if j == i + 2 or j >= len(source) or source[j] not in ":)":
        return None
    table = _ONIGURUMA_FLAGS_TO_PYTHON if reverse else _PYTHON_FLAGS_TO_ONIGURUMA
    translated = []
    for flag in source[i + 2 : j]:
        if flag == "-":
            translated.append("-")
        elif flag in table:
            translated.append(table[flag])
        else:
            raise ValueError(f"inline flag {flag!r} has no equivalent in the other regex dialect")
    flags = "".join(translated).rstrip("-")
    if not flags.replace("-", ""):
        # Only flags that need no translation: a plain group or nothing at all.
        return ("(?:" if source[j] == ":" else "", j - i + 1)
    return (f"(?{flags}{source[j]}", j - i + 1)


def _has_global_flag(source: str, flag: str) -> bool:
    flags = _inline_flags_prefix(source)
    return flag in flags


def _inline_flags_prefix(source: str) -> str:
    if source.startswith("(?"):
        end = source.find(")")
        body = source[2:end] if end > 0 else ""
        if body.isalpha():
            return body
    return ""


def hf_tokenizer_json(tokenizer: Tokenizer) -> dict[str, Any]:
    """The Hugging Face ``tokenizer.json`` content for ``tokenizer``, as a dict.

    >>> import bpe_core
    >>> spec = hf_tokenizer_json(bpe_core.train("aaabdaaabac", 258).tokenizer)
    >>> spec["model"]["merges"]
    ['a a', 'aa a']
    """
    regular = _regular_tokens(tokenizer)
    as_text = {token: _to_gpt2_text(token) for _, token in regular}
    _check_specials_storable(tokenizer, as_text, "hf")
    vocab = {as_text[token]: identifier for identifier, token in regular}
    # Specials go in the model vocab too: tokenizers only honours an added token's id if the model has it.
    vocab.update(tokenizer.special_tokens)
    vocab = dict(sorted(vocab.items(), key=lambda item: item[1]))
    pre_tokenizers: list[dict[str, Any]] = []
    regex_source = tokenizer.pattern_regex
    if regex_source is not None:
        pre_tokenizers.append(
            {"type": "Split", "pattern": {"Regex": to_oniguruma(regex_source)}, "behavior": "Isolated", "invert": False}
        )
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    pre_tokenizers.append(byte_level)
    added = [
        {
            "id": identifier,
            "content": special,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for special, identifier in sorted(tokenizer.special_tokens.items(), key=lambda item: item[1])
    ]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": pre_tokenizers},
        "post_processor": None,
        "decoder": dict(byte_level),
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            # tiktoken (and Tokenizer) emit a pre-token that is itself a token whole.
            "ignore_merges": True,
            "vocab": vocab,
            # GPT-2-alphabet strings never contain a space, so "left right" is unambiguous.
            "merges": [f"{as_text[left]} {as_text[right]}" for left, right in tokenizer.merges],
        },
    }


def save_hf(tokenizer: Tokenizer, path: PathLike) -> list[Path]:
    """Write a Hugging Face ``tokenizer.json`` (a directory gets ``tokenizer.json``).

    >>> import tempfile, bpe_core, tokenizers
    >>> tokenizer = bpe_core.train("hello hello world", 262).tokenizer
    >>> path, = save_hf(tokenizer, tempfile.mkdtemp())
    >>> tokenizers.Tokenizer.from_file(str(path)).encode("hello world").ids == tokenizer.encode("hello world")
    True
    """
    text = json.dumps(hf_tokenizer_json(tokenizer), ensure_ascii=False, indent=1)
    return [_write(_target(path, HF_FILENAME), text + "\n")]


def load_hf(path: PathLike, *, name: str | None = None) -> Tokenizer:
    """Load a byte-level BPE Hugging Face ``tokenizer.json`` (ours, GPT-2's, and the like).

    The pattern comes from the ``Split`` pre-tokenizer (a ``ByteLevel`` with ``use_regex: true``
    means GPT-2's); ``added_tokens`` are the special tokens. Models that are not byte-level BPE,
    normalizers and prefix spaces are refused with a FormatError, since this library could not
    reproduce them.
    """
    path = Path(path)
    spec = _parse_json(_read_text(path), path)
    return parse_hf(spec, source=path, name=name)


def parse_hf(spec: Any, *, source: PathLike = HF_FILENAME, name: str | None = None) -> Tokenizer:
    """:func:`load_hf` on the parsed JSON; ``source`` names the file in errors."""
    if not isinstance(spec, dict):
        raise FormatError(source, f"must be a JSON object, not {_json_type(spec)}")
    model = _field(spec, "model", dict, source)
    if model.get("type", "BPE") != "BPE":
        raise FormatError(source, f"only BPE models can be loaded, not {model.get('type')!r}", field="model.type")
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key):
            raise FormatError(source, f"{model[key]!r} is not supported (byte-level BPE only)", field=f"model.{key}")
    if spec.get("normalizer") is not None:
        raise FormatError(source, "normalizers are not supported; it must be null", field="normalizer")
    pattern = _hf_pattern(spec.get("pre_tokenizer"), source)

    raw_vocab = _field(model, "vocab", dict, source, "model.vocab")
    specials: dict[str, int] = {}
    for index, added in enumerate(_field(spec, "added_tokens", list, source, default=[])):
        where = f"added_tokens[{index}]"
        if not isinstance(added, dict) or not isinstance(added.get("content"), str) or not _is_id(added.get("id")):
            raise FormatError(source, "must be an object with a string 'content' and an integer 'id'", field=where)
        specials[added["content"]] = added["id"]

    merges: list[tuple[bytes, bytes]] = []
    merged_texts: set[str] = set()
    for index, merge in enumerate(_field(model, "merges", list, source, "model.merges")):
        where = f"model.merges[{index}]"
        if isinstance(merge, str):
            parts = merge.split(" ")
        elif isinstance(merge, list) and all(isinstance(part, str) for part in merge):
            parts = merge
        else:
            raise FormatError(source, f"must be 'left right' or [left, right], not {merge!r}", field=where)
        if len(parts) != 2:
            raise FormatError(source, f"must have two tokens, not {len(parts)}", field=where)
        pair = []
        for part in parts:
            token = _from_gpt2_text(part)
            if token is None or not token:
                raise FormatError(source, f"token {part!r} is not in GPT-2's byte alphabet", field=where)
            if part not in raw_vocab:
                raise FormatError(source, f"token {part!r} is not in model.vocab", field=where)
            pair.append(token)
        if parts[0] + parts[1] not in raw_vocab:
            raise FormatError(
                source, f"the merge makes {parts[0] + parts[1]!r}, which is not in model.vocab", field=where
            )
        merges.append((pair[0], pair[1]))
        merged_texts.add(parts[0] + parts[1])

    vocab: dict[int, bytes] = {}
    for text, identifier in raw_vocab.items():
        where = f"model.vocab[{text!r}]"
        if not _is_id(identifier):
            raise FormatError(source, f"id must be a non-negative integer, not {identifier!r}", field=where)
        if text in specials:
            if specials[text] != identifier:
                raise FormatError(
                    source, f"id {identifier} differs from the added token's id {specials[text]}", field=where
                )
            continue
        token = _from_gpt2_text(text)
        if token is None or not (len(token) == 1 or text in merged_texts):
            raise FormatError(source, "neither a single byte, a merge result nor an added token", field=where)
        if identifier in vocab:
            raise FormatError(source, f"id {identifier} is used twice", field=where)
        vocab[identifier] = token
    if len(vocab) < 256:
        raise FormatError(
            source, f"has {len(vocab)} single-byte and merged tokens; all 256 bytes are needed", field="model.vocab"
        )
    return _build(source, lambda: Tokenizer(vocab, merges, specials, pattern, name=name))


def _hf_pattern(pre_tokenizer: Any, source: PathLike) -> str | None:
    if pre_tokenizer is None:
        raise FormatError(source, "a ByteLevel pre-tokenizer is required", field="pre_tokenizer")
    steps = pre_tokenizer.get("pretokenizers") if pre_tokenizer.get("type") == "Sequence" else [pre_tokenizer]
    if not isinstance(steps, list) or not steps:
        raise FormatError(source, "expected a list of pre-tokenizers", field="pre_tokenizer")
    *splits, byte_level = steps
    if not isinstance(byte_level, dict) or byte_level.get("type") != "ByteLevel":
        raise FormatError(source, "the last pre-tokenizer must be ByteLevel", field="pre_tokenizer")
    if byte_level.get("add_prefix_space"):
        raise FormatError(source, "add_prefix_space is not supported", field="pre_tokenizer.add_prefix_space")
    uses_regex = byte_level.get("use_regex", True)
    if len(splits) > 1 or (splits and uses_regex):
        raise FormatError(
            source, "expected at most one Split before a ByteLevel without use_regex", field="pre_tokenizer"
        )
    if not splits:
        # ByteLevel's built-in regex is GPT-2's original pattern (tiktoken's r50k is equivalent).
        return "gpt2" if uses_regex else None
    split = splits[0]
    regex_source = split.get("pattern", {}).get("Regex") if isinstance(split, dict) else None
    if split.get("type") != "Split" or not isinstance(regex_source, str):
        raise FormatError(source, "expected a Split pre-tokenizer with a Regex pattern", field="pre_tokenizer")
    if split.get("behavior") != "Isolated" or split.get("invert"):
        raise FormatError(source, "the Split must have behavior Isolated and invert false", field="pre_tokenizer")
    try:
        pattern = from_oniguruma(regex_source)
        compile_pattern(pattern)
    except ValueError as error:
        raise FormatError(source, str(error), field="pre_tokenizer.pattern") from None
    return pattern


def _field(
    container: dict, key: str, kind: type, source: PathLike, where: str | None = None, default: Any = None
) -> Any:
    value = container.get(key, default)
    if not isinstance(value, kind):
        expected = {dict: "an object", list: "a list", str: "a string"}[kind]
        raise FormatError(source, f"must be {expected}, not {_json_type(value)}", field=where or key)
    return value


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


# -- the project's own JSON ------------------------------------------------------------------------


def tokenizer_to_json(tokenizer: Tokenizer, training: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``bpe-playground`` JSON document for ``tokenizer`` (see the module docstring).

    >>> import bpe_core
    >>> document = tokenizer_to_json(bpe_core.train("aaabdaaabac", 258).tokenizer)
    >>> document["merges"], document["byte_ids"], document["pattern"]
    ([['61', '61'], ['6161', '61']], None, 'gpt2')
    """
    ranks = tokenizer.mergeable_ranks
    merges = tokenizer.merges
    byte_ids = [ranks[bytes([byte])] for byte in range(256)]
    merge_ids = [ranks[left + right] for left, right in merges]
    return {
        "format": JSON_FORMAT_TAG,
        "version": JSON_FORMAT_VERSION,
        "name": tokenizer.name,
        "pattern": tokenizer.pattern,
        "special_tokens": dict(sorted(tokenizer.special_tokens.items(), key=lambda item: item[1])),
        "merges": [[left.hex(), right.hex()] for left, right in merges],
        "byte_ids": None if byte_ids == list(range(256)) else byte_ids,
        "merge_ids": None if merge_ids == list(range(256, 256 + len(merges))) else merge_ids,
        "training": dict(training) if training is not None else None,
    }


def save_json(tokenizer: Tokenizer, path: PathLike, *, training: Mapping[str, Any] | None = None) -> list[Path]:
    """Write the project's own JSON (a directory gets ``bpe-playground.json``).

    ``training`` is free-form metadata kept alongside (settings, timings, the corpus name...).

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> path, = save_json(tokenizer, tempfile.mkdtemp(), training={"corpus": "demo"})
    >>> load_json(path).merges == tokenizer.merges, read_training_metadata(path)
    (True, {'corpus': 'demo'})
    """
    document = tokenizer_to_json(tokenizer, training)
    # One merge per line: diffable and still compact.
    merges = ",\n    ".join(json.dumps(merge) for merge in document.pop("merges"))
    head = json.dumps(document, ensure_ascii=False, indent=2)
    text = (
        head[:-2] + ',\n  "merges": [\n    ' + merges + "\n  ]\n}\n" if merges else head[:-2] + ',\n  "merges": []\n}\n'
    )
    return [_write(_target(path, JSON_FILENAME), text)]


def load_json(path: PathLike) -> Tokenizer:
    """Load the project's own JSON format (see the module docstring)."""
    path = Path(path)
    return tokenizer_from_json(_parse_json(_read_text(path), path), source=path)


def read_training_metadata(path: PathLike) -> dict[str, Any] | None:
    """The ``training`` metadata of a ``bpe-playground`` JSON file (a file or its directory)."""
    path = _target(path, JSON_FILENAME)
    document = _parse_json(_read_text(path), path)
    _check_json_header(document, path)
    training = document.get("training")
    if training is not None and not isinstance(training, dict):
        raise FormatError(path, f"must be an object or null, not {_json_type(training)}", field="training")
    return training


def _check_json_header(document: Any, source: PathLike) -> None:
    if not isinstance(document, dict):
        raise FormatError(source, f"must be a JSON object, not {_json_type(document)}")
    if document.get("format") != JSON_FORMAT_TAG:
        raise FormatError(source, f"must be {JSON_FORMAT_TAG!r}, not {document.get('format')!r}", field="format")
    if document.get("version") != JSON_FORMAT_VERSION:
        raise FormatError(
            source,
            f"version {document.get('version')!r} is not supported (this library reads {JSON_FORMAT_VERSION})",
            field="version",
        )


def tokenizer_from_json(document: Any, *, source: PathLike = JSON_FILENAME) -> Tokenizer:
    """Build a tokenizer from a parsed ``bpe-playground`` document; ``source`` names it in errors."""
    _check_json_header(document, source)
    name = document.get("name")
    if name is not None and not isinstance(name, str):
        raise FormatError(source, f"must be a string or null, not {_json_type(name)}", field="name")
    pattern = document.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        raise FormatError(
            source, f"must be a pattern name, a regex or null, not {_json_type(pattern)}", field="pattern"
        )
    try:
        compile_pattern(pattern)
    except ValueError as error:
        raise FormatError(source, str(error), field="pattern") from None

    specials = _field(document, "special_tokens", dict, source, default={})
    for text, identifier in specials.items():
        if not _is_id(identifier):
            raise FormatError(
                source, f"id must be a non-negative integer, not {identifier!r}", field=f"special_tokens[{text!r}]"
            )

    known: set[bytes] = {bytes([byte]) for byte in range(256)}
    merges: list[tuple[bytes, bytes]] = []
    for rank, merge in enumerate(_field(document, "merges", list, source)):
        where = f"merges[{rank}]"
        if not isinstance(merge, list) or len(merge) != 2:
            raise FormatError(source, f"must be a [left, right] pair of hex strings, not {merge!r}", field=where)
        pair = []
        for side, value in zip(("left", "right"), merge, strict=True):
            if not isinstance(value, str):
                raise FormatError(source, f"{side} must be a hex string, not {_json_type(value)}", field=where)
            try:
                token = bytes.fromhex(value)
            except ValueError:
                raise FormatError(source, f"{side} {value!r} is not valid hex", field=where) from None
            if token not in known:
                raise FormatError(
                    source, f"{side} {value!r} is neither a single byte nor made by an earlier merge", field=where
                )
            pair.append(token)
        merged = pair[0] + pair[1]
        if merged in known:
            raise FormatError(source, f"makes {merged.hex()!r}, which an earlier merge or byte already is", field=where)
        known.add(merged)
        merges.append((pair[0], pair[1]))

    byte_ids = _id_list(document, "byte_ids", 256, range(256), source)
    merge_ids = _id_list(document, "merge_ids", len(merges), range(256, 256 + len(merges)), source)
    vocab: dict[int, bytes] = {}
    owners = [*((identifier, f"byte_ids[{byte}]") for byte, identifier in enumerate(byte_ids))]
    owners += [(identifier, f"merge_ids[{rank}]") for rank, identifier in enumerate(merge_ids)]
    owners += [(identifier, f"special_tokens[{text!r}]") for text, identifier in specials.items()]
    seen: dict[int, str] = {}
    for identifier, where in owners:
        if identifier in seen:
            raise FormatError(source, f"id {identifier} is already used by {seen[identifier]}", field=where)
        seen[identifier] = where
    for byte, identifier in enumerate(byte_ids):
        vocab[identifier] = bytes([byte])
    for (left, right), identifier in zip(merges, merge_ids, strict=True):
        vocab[identifier] = left + right
    return _build(source, lambda: Tokenizer(vocab, merges, dict(specials), pattern, name=name))


def _id_list(document: dict, key: str, length: int, default: range, source: PathLike) -> list[int]:
    value = document.get(key)
    if value is None:
        return list(default)
    if not isinstance(value, list) or len(value) != length:
        raise FormatError(source, f"must be null or a list of {length} ids", field=key)
    for index, identifier in enumerate(value):
        if not _is_id(identifier):
            raise FormatError(source, f"must be a non-negative integer, not {identifier!r}", field=f"{key}[{index}]")
    return value


# -- one entry point for all formats ---------------------------------------------------------------


def save(
    tokenizer: Tokenizer,
    path_or_dir: PathLike,
    fmt: FormatName = "bpe-playground",
    *,
    training: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Save in one format; return the files written.

    ``gpt2`` writes two files and so wants a directory; the others take a file path or a
    directory (which then gets the format's usual file name; a path that does not exist yet and
    has no suffix is a directory to create). ``training`` metadata is kept by
    the ``bpe-playground`` format only.

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> directory = tempfile.mkdtemp()
    >>> sorted(path.name for fmt in FORMATS for path in save(tokenizer, directory, fmt))
    ['bpe-playground.json', 'merges.txt', 'tokenizer.json', 'tokenizer.tiktoken', 'vocab.json']
    """
    if fmt == "bpe-playground":
        return save_json(tokenizer, path_or_dir, training=training)
    if fmt == "gpt2":
        return save_gpt2(tokenizer, path_or_dir)
    if fmt == "tiktoken":
        return save_tiktoken(tokenizer, path_or_dir)
    if fmt == "hf":
        return save_hf(tokenizer, path_or_dir)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def detect_format(path: PathLike) -> tuple[FormatName, Path]:
    """Which format a file (or the best file in a directory) is in, and that file.

    In a directory the preference is bpe-playground, hf, gpt2, tiktoken. A file is judged by its
    content: a tiktoken file is lines of ``base64 rank``, the JSON formats by their keys.
    """
    path = Path(path)
    if path.is_dir():
        for fmt, names in (
            ("bpe-playground", (JSON_FILENAME,)),
            ("hf", (HF_FILENAME,)),
            ("gpt2", _GPT2_VOCAB_NAMES),
            ("tiktoken", (TIKTOKEN_FILENAME,)),
        ):
            for file_name in names:
                if (path / file_name).is_file():
                    return fmt, path / file_name  # type: ignore[return-value]
        tiktoken_files = sorted(path.glob("*.tiktoken"))
        if tiktoken_files:
            return "tiktoken", tiktoken_files[0]
        raise FileNotFoundError(
            f"{path}: no tokenizer file in this directory "
            f"(looked for {JSON_FILENAME}, {HF_FILENAME}, {GPT2_VOCAB_FILENAME} + {GPT2_MERGES_FILENAME}, *.tiktoken)"
        )
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file or directory")
    if path.name in _GPT2_MERGES_NAMES:
        return "gpt2", _find_sibling(path, _GPT2_VOCAB_NAMES, "vocab file (vocab.json or encoder.json)")
    if path.name in _GPT2_VOCAB_NAMES:
        return "gpt2", path
    with open(path, "rb") as file:
        head = file.read(4096).lstrip()
    if head.startswith(b"{"):
        # A cheap look at the first 4 KB first; the loader validates properly.
        if b'"format"' in head and JSON_FORMAT_TAG.encode() in head:
            return "bpe-playground", path
        if b'"model"' in head or b'"added_tokens"' in head:
            return "hf", path
        document = _parse_json(_read_text(path), path)
        if isinstance(document, dict):
            if document.get("format") == JSON_FORMAT_TAG:
                return "bpe-playground", path
            if "model" in document:
                return "hf", path
            if document and all(_is_id(value) for value in document.values()):
                return "gpt2", path
        raise FormatError(
            path, "a JSON file that is neither bpe-playground, a Hugging Face tokenizer.json nor a GPT-2 vocab"
        )
    if path.suffix == ".tiktoken" or _looks_like_tiktoken(head):
        return "tiktoken", path
    raise FormatError(path, "not a tokenizer file this library recognises (bpe-playground, hf, gpt2 or tiktoken)")


def _looks_like_tiktoken(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0].split()
    return len(first) == 2 and first[1].isdigit()


def load(
    path: PathLike,
    fmt: FormatName | None = None,
    *,
    special_tokens: Mapping[str, int] | None = None,
    pattern: str | None = "gpt2",
    name: str | None = None,
) -> Tokenizer:
    """Load a tokenizer from a file or a directory, detecting the format unless ``fmt`` is given.

    ``special_tokens`` and ``pattern`` are used only where the format does not store them
    (``pattern`` for gpt2 and tiktoken, ``special_tokens`` for tiktoken).

    >>> import tempfile, bpe_core
    >>> tokenizer = bpe_core.train("hello hello world", 260).tokenizer
    >>> directory = tempfile.mkdtemp()
    >>> _ = save(tokenizer, directory, "hf")
    >>> load(directory).merges == tokenizer.merges
    True
    """
    path = Path(path)
    if fmt is None:
        fmt, path = detect_format(path)
    elif fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    elif path.is_dir():
        names = {
            "bpe-playground": (JSON_FILENAME,),
            "gpt2": _GPT2_VOCAB_NAMES,
            "tiktoken": (TIKTOKEN_FILENAME,),
            "hf": (HF_FILENAME,),
        }[fmt]
        path = next((path / file_name for file_name in names if (path / file_name).is_file()), path / names[0])
    if fmt == "bpe-playground":
        tokenizer = load_json(path)
        if name is not None:
            tokenizer.name = name
        return tokenizer
    if fmt == "hf":
        return load_hf(path, name=name)
    if fmt == "gpt2":
        if path.name in _GPT2_MERGES_NAMES:
            path = _find_sibling(path, _GPT2_VOCAB_NAMES, "vocab file (vocab.json or encoder.json)")
        return load_gpt2(path, pattern=pattern, name=name)
    return load_tiktoken(path, special_tokens=special_tokens, pattern=pattern, name=name)
