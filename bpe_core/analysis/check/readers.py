"""A learner's merges, read from the files their trainer wrote (or lines they pasted), as pairs of bytes.

Read by content, not by name:

- a Hugging Face ``tokenizer.json`` (``model.merges``; byte-level tokens when its pre-tokenizer or decoder
  is ByteLevel; its special tokens come along);
- a minbpe ``.model`` file (``minbpe v1``, the pattern, the special tokens, then two ids a line; ids
  256 and up are the merges in order; its pattern and special tokens come along);
- lines of two tokens: GPT-2's ``merges.txt`` and CS336's (tokens in GPT-2's byte-to-unicode alphabet,
  ``#version`` line allowed), Python bytes literals (``b' t' b'he'`` or ``(b' t', b'he')``), or plain
  pasted text (``t h``, ``th e``, classic ``est </w>``). A file whose tokens all read in GPT-2's
  alphabet and that holds one of its marks (``Ġ`` for a space, ``Ċ`` for a newline) is read in it;
  ``alphabet="gpt2"`` or ``"utf-8"`` says which.

A vocabulary beside the merges (``vocab.json``: GPT-2's ``{token: id}``, CS336's ``{id: token}`` with
tokens in GPT-2's alphabet or as bytes literals, or a Python ``str(vocab)``) is checked against them:
every merge must make a token it holds. Each refusal is a ``FormatError`` naming the file, the line
and what was expected.

>>> read_merges_text("t h\\nth e\\n").merges
[(b't', b'h'), (b'th', b'e')]
>>> read_merges_text("#version: 0.2\\nĠ t\\nĠt he\\n").merges
[(b' ', b't'), (b' t', b'he')]
>>> read_merges_text("b' t' b'he'\\n").merges
[(b' t', b'he')]
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...formats import FormatError
from ...formats._common import decode_text, parse_json, read_bytes
from ...formats.gpt2 import from_gpt2_text

MAX_BYTES = 64 << 20
"""A merges or vocab file larger than this is refused (32,000 merges take ~300 KB)."""
GPT2_MARKS = frozenset("ĠĊ")
"""Characters that show a file is in GPT-2's alphabet (a space, a newline): plain text hardly has them."""


@dataclass
class LearnerMerges:
    """Merges read from a learner's file, and what the file says besides."""

    merges: list[tuple[bytes, bytes]]
    format: str
    """``hf``, ``minbpe``, ``gpt2`` (lines in GPT-2's alphabet), ``bytes`` (bytes literals) or ``text``."""
    special_tokens: list[str] = field(default_factory=list)
    pattern: str | None = None
    """The pre-tokenization pattern the file names (minbpe), or None when it names none."""


def read_merges(path: str | Path, vocab: str | Path | None = None, *, alphabet: str = "auto") -> LearnerMerges:
    """Read a learner's merges from a file (see the module docstring); ``vocab`` is checked against them."""
    path = Path(path)
    data = read_bytes(path)
    if len(data) > MAX_BYTES:
        raise FormatError(path, f"is {len(data):,} bytes; merges files up to {MAX_BYTES:,} bytes are read")
    learner = read_merges_text(decode_text(data, path), source=str(path), alphabet=alphabet)
    if vocab is not None:
        check_vocab(learner, Path(vocab))
    return learner


def read_merges_text(text: str, *, source: str = "pasted merges", alphabet: str = "auto") -> LearnerMerges:
    """Read merges from a file's text or pasted lines (see the module docstring)."""
    if alphabet not in ("auto", "gpt2", "utf-8"):
        raise ValueError(f"alphabet must be 'auto', 'gpt2' or 'utf-8', not {alphabet!r}")
    stripped = text.lstrip("\ufeff").lstrip()
    if stripped.startswith("{"):
        return _from_hf(parse_json(stripped, source), source, alphabet)
    if stripped.startswith("minbpe v1"):
        return _from_minbpe(stripped, source)
    return _from_lines(text, source, alphabet)


_LITERAL_START = re.compile(r"""(?<![^\s(,])[bB]['"]""")  # b' or b" beginning a word: a bytes literal meant


def _from_lines(text: str, source: str, alphabet: str) -> LearnerMerges:
    rows: list[tuple[int, list[Any]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.rstrip("\r")
        if not line.strip() or (number == 1 and line.startswith("#version")):
            continue
        parts = line.rstrip(" ").split(" ")  # trailing spaces (a copy and paste's) end no token: one cannot be empty
        two_tokens = len(parts) == 2 and all(parts)
        if line.lstrip().startswith(("b'", 'b"', "(")):
            literals = _bytes_literals(line)
            if literals is not None:
                rows.append((number, literals))
                continue
            # Two tokens with no bytes literal in them are tokens: GPT-2's merges.txt has "( )" and "( '".
            if not two_tokens or _LITERAL_START.search(line):
                raise FormatError(
                    source, f"expected two bytes literals (like b' t' b'he'), got {line[:60]!r}", line=number
                )
        if not two_tokens:
            space = ": a space in a token is written Ġ, as GPT-2's merges.txt does ('Ġ t')" if "" in parts else ""
            raise FormatError(
                source,
                f"expected two tokens separated by one space (like 'th e'), got {line[:60]!r}{space}",
                line=number,
            )
        rows.append((number, parts))
    if not rows:
        raise FormatError(source, "holds no merges: expected lines of two tokens, like 'th e'")
    texts = [token for _, pair in rows for token in pair if isinstance(token, str)]
    gpt2 = _reads_as_gpt2(texts, alphabet)
    merges = [(_token(left, gpt2), _token(right, gpt2)) for _, (left, right) in rows]
    kinds = {type(token) for _, pair in rows for token in pair}
    name = "bytes" if kinds == {bytes} else "gpt2" if gpt2 else "text"
    return LearnerMerges(merges, name)


def _bytes_literals(line: str) -> list[Any] | None:
    """The two bytes literals on a line: ``b'a' b'b'``, ``(b'a', b'b')`` or ``b'a', b'b'``; None when it holds
    no such pair."""
    try:
        strings = [t.string for t in tokenize.generate_tokens(io.StringIO(line).readline) if t.type == tokenize.STRING]
        values = [ast.literal_eval(string) for string in strings]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    if len(values) != 2 or not all(isinstance(value, bytes) and value for value in values):
        return None
    return values


def _reads_as_gpt2(tokens: list[str], alphabet: str) -> bool:
    if alphabet != "auto":
        return alphabet == "gpt2"
    readable = all(from_gpt2_text(token) is not None for token in tokens)
    return readable and any(GPT2_MARKS.intersection(token) for token in tokens)


def _token(token: str | bytes, gpt2: bool) -> bytes:
    if isinstance(token, bytes):
        return token
    if gpt2:
        decoded = from_gpt2_text(token)
        if decoded is None:  # only with alphabet="gpt2" given
            raise ValueError(f"{token!r} has a character outside GPT-2's byte-to-unicode alphabet")
        return decoded
    return token.encode("utf-8")


def _from_minbpe(text: str, source: str) -> LearnerMerges:
    lines = text.splitlines()
    if len(lines) < 3 or not lines[2].strip().isdigit():
        raise FormatError(source, "a minbpe model has 'minbpe v1', its pattern, then the number of special tokens")
    pattern = lines[1]
    n_special = int(lines[2])
    specials = []
    for number in range(3, 3 + n_special):
        parts = lines[number].rsplit(" ", 1) if number < len(lines) else []
        if len(parts) != 2 or not parts[1].isdigit():
            raise FormatError(source, "expected a special token and its id", line=number + 1)
        specials.append(parts[0])
    symbols = [bytes([byte]) for byte in range(256)]
    merges = []
    for number, line in enumerate(lines[3 + n_special :], 4 + n_special):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not all(part.isdigit() for part in parts):
            raise FormatError(source, f"expected two token ids, got {line[:60]!r}", line=number)
        left, right = (int(part) for part in parts)
        if left >= len(symbols) or right >= len(symbols):
            raise FormatError(source, f"id {max(left, right)} is not a byte or an earlier merge", line=number)
        merges.append((symbols[left], symbols[right]))
        symbols.append(symbols[left] + symbols[right])
    return LearnerMerges(merges, "minbpe", specials, pattern or None)


def _from_hf(document: Any, source: str, alphabet: str) -> LearnerMerges:
    model = document.get("model") if isinstance(document, dict) else None
    if not isinstance(model, dict) or not isinstance(model.get("merges"), list):
        raise FormatError(
            source,
            "is JSON but not a Hugging Face tokenizer.json with model.merges "
            "(a vocab.json goes beside a merges file, as --vocab)",
        )
    pairs = []
    for rank, merge in enumerate(model["merges"]):
        pair = merge.split(" ") if isinstance(merge, str) else merge
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(t, str) and t for t in pair):
            raise FormatError(source, f"merge {rank} is not two tokens: {merge!r:.60}", field="model.merges")
        pairs.append(pair)
    byte_level = "ByteLevel" in repr([document.get("pre_tokenizer"), document.get("decoder")])
    gpt2 = byte_level if alphabet == "auto" else alphabet == "gpt2"
    merges = [(_token(left, gpt2), _token(right, gpt2)) for left, right in pairs]
    added = document.get("added_tokens") or []
    specials = [t["content"] for t in added if isinstance(t, dict) and t.get("special") and "content" in t]
    return LearnerMerges(merges, "hf", specials)


def check_vocab(learner: LearnerMerges, path: Path) -> None:
    """Refuse merges that make a token the vocabulary beside them does not hold."""
    data = read_bytes(path)
    if len(data) > MAX_BYTES:
        raise FormatError(path, f"is {len(data):,} bytes; vocab files up to {MAX_BYTES:,} bytes are read")
    text = decode_text(data, path).strip()
    try:
        document = parse_json(text, path)
    except FormatError:
        try:
            document = ast.literal_eval(text)  # a Python str(vocab): {0: b'\x00', ...}
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            raise FormatError(path, "is neither JSON nor a Python dict of tokens") from None
    if not isinstance(document, dict):
        raise FormatError(path, "must be an object of tokens and ids")
    tokens = _vocab_tokens(document, learner.format == "gpt2")
    for rank, (left, right) in enumerate(learner.merges):
        if left + right not in tokens:
            raise FormatError(
                path,
                f"does not hold {left + right!r}, the token merge {rank} makes: are these two files from one training?",
            )


def _vocab_tokens(document: dict, gpt2: bool) -> set[bytes]:
    """The tokens of a vocabulary: ``{token: id}`` (GPT-2) or ``{id: token}`` (CS336, ``str(vocab)``)."""
    tokens: set[bytes] = set()
    for key, value in document.items():
        token = value if not isinstance(value, int) else key
        if isinstance(token, bytes):
            tokens.add(token)
        elif isinstance(token, str) and token.startswith(("b'", 'b"')):
            try:
                literal = ast.literal_eval(token)
            except (SyntaxError, ValueError):
                literal = None
            tokens.add(literal if isinstance(literal, bytes) else token.encode("utf-8"))
        elif isinstance(token, str):
            decoded = from_gpt2_text(token) if gpt2 else None
            tokens.add(decoded if decoded is not None else token.encode("utf-8"))
    return tokens
