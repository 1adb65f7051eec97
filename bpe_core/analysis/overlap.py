"""Vocabulary overlap of two tokenizers: shared tokens, Jaccard, tokens only in one, by script and by length.

Tokens are compared by their **bytes** (``token_bytes``), never by how a file spells them: GPT-2's byte
alphabet (``Ġ`` for a space, ``Ċ`` for a newline) is undone, SentencePiece's ``▁`` is a space and its
``<0x41>`` byte pieces are their byte, so ``" the"`` of GPT-2 and of cl100k_base are the same token. Special
tokens (and a classic or SentencePiece tokenizer's ``<unk>``) stand for no text: they are listed apart,
by name, and not counted in the sets. A vocabulary that gives the same bytes to several ids counts them once.

Scripts (:data:`SCRIPTS`, :func:`token_script`): a token is the script of its letters (combining marks and
letters of the Common script, like ``ー``, belong to none); letters of two scripts make it ``mixed``; without
letters it is ``digits`` when it holds a digit, else ``punctuation`` (punctuation, whitespace, symbols and emoji); bytes
that are not valid UTF-8 on their own (a piece of a character) are ``bytes``.

>>> import bpe_core
>>> a = bpe_core.train("the cat sat on the mat", 262).tokenizer
>>> b = bpe_core.train("the dog sat on the log", 262).tokenizer
>>> overlap = vocabulary_overlap(a, b)
>>> overlap.size_a, overlap.size_b, len(overlap.shared), round(overlap.jaccard, 3)
(262, 262, 260, 0.985)
>>> sorted(overlap.only_a), sorted(overlap.only_b)
([b'at', b'mat'], [b'og', b'sa'])
>>> overlap.specials_a, [row for row in overlap.by_script if row.name == "latin"]
((), [Counts(name='latin', shared=56, only_a=2, only_b=2)])
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import regex

__all__ = [
    "LENGTH_BINS",
    "LISTS",
    "SCRIPTS",
    "Counts",
    "Overlap",
    "length_bin",
    "token_script",
    "vocabulary_overlap",
]

BYTES = "bytes"
MIXED = "mixed"
DIGITS = "digits"
PUNCTUATION = "punctuation"
OTHER = "other"
_LETTER_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("latin", r"\p{Script=Latin}"),
    ("cyrillic", r"\p{Script=Cyrillic}"),
    ("greek", r"\p{Script=Greek}"),
    ("arabic", r"\p{Script=Arabic}"),
    ("hebrew", r"\p{Script=Hebrew}"),
    ("devanagari", r"\p{Script=Devanagari}"),
    ("thai", r"\p{Script=Thai}"),
    ("hangul", r"\p{Script=Hangul}"),
    ("kana", r"[\p{Script=Hiragana}\p{Script=Katakana}]"),
    ("han", r"\p{Script=Han}"),
)
SCRIPTS: tuple[str, ...] = (*(name for name, _ in _LETTER_SCRIPTS), OTHER, MIXED, DIGITS, PUNCTUATION, BYTES)
"""Every script a token may have, in the order tables show them: the letter scripts, ``other`` (letters of
another script), ``mixed`` (letters of two or more), ``digits``, ``punctuation`` (punctuation, symbols and
whitespace, no letter or digit) and ``bytes`` (not valid UTF-8 on its own)."""
LISTS = ("shared", "only_a", "only_b")
"""The three sets :meth:`Overlap.tokens` lists."""
LENGTH_BINS: tuple[tuple[int, int | None, str], ...] = (
    *((n, n, str(n)) for n in range(1, 9)),
    (9, 16, "9–16"),
    (17, 32, "17–32"),
    (33, None, "33+"),
)
"""Lengths in bytes as tables group them: (shortest, longest or None, label)."""

_SCRIPT_PATTERNS = tuple((name, regex.compile(pattern)) for name, pattern in _LETTER_SCRIPTS)
_NEUTRAL = regex.compile(r"[\p{Script=Common}\p{Script=Inherited}]")
_char_scripts: dict[str, str | None] = {}  # a character's script (None: no letter, or a neutral one), computed once


class Counts(NamedTuple):
    """One row of a breakdown: how many tokens of one script (or length) are in both, only in A, only in B."""

    name: str  # the script, or the length bin's label in ``by_length``
    shared: int
    only_a: int
    only_b: int


@dataclass(frozen=True)
class Overlap:
    """Two vocabularies compared by bytes (see the module's docstring); A and B in the order given."""

    ids_a: Mapping[bytes, int]  # each ordinary token of A (its bytes) -> its id (the lowest, if several)
    ids_b: Mapping[bytes, int]
    specials_a: tuple[str, ...]  # A's special tokens (and unknown token), by id
    specials_b: tuple[str, ...]
    shared: frozenset[bytes]
    only_a: frozenset[bytes]
    only_b: frozenset[bytes]
    scripts: Mapping[bytes, str]  # every token of either -> its script (:func:`token_script`)
    by_script: tuple[Counts, ...]  # one row per script in :data:`SCRIPTS` that has a token
    by_length: tuple[Counts, ...]  # one row per bin of :data:`LENGTH_BINS` that has a token
    ordered: Mapping[str, tuple[bytes, ...]]  # each of :data:`LISTS` in :meth:`tokens`'s order (sorted once)

    @property
    def size_a(self) -> int:
        """A's ordinary tokens (distinct byte strings)."""
        return len(self.ids_a)

    @property
    def size_b(self) -> int:
        return len(self.ids_b)

    @property
    def jaccard(self) -> float:
        """Shared tokens / tokens in either (1.0 for two empty vocabularies)."""
        union = len(self.shared) + len(self.only_a) + len(self.only_b)
        return len(self.shared) / union if union else 1.0

    @property
    def shared_specials(self) -> tuple[str, ...]:
        """Special tokens both have, in A's order."""
        in_b = set(self.specials_b)
        return tuple(token for token in self.specials_a if token in in_b)

    def tokens(self, which: str, script: str | None = None, contains: bytes = b"") -> list[bytes]:
        """The tokens of one set (:data:`LISTS`), of one script (None: all) and holding ``contains``, in id
        order (of A for ``shared`` and ``only_a``, of B for ``only_b``): for BPE, the earliest merges first.

        A bad ``which`` or ``script`` is a ValueError naming the allowed ones.
        """
        if which not in LISTS:
            raise ValueError(f"which must be one of {', '.join(LISTS)}, got {which!r}")
        if script is not None and script not in SCRIPTS:
            raise ValueError(f"script must be None or one of {', '.join(SCRIPTS)}, got {script!r}")
        return [
            token
            for token in self.ordered[which]
            if (script is None or self.scripts[token] == script) and (not contains or contains in token)
        ]


def vocabulary_overlap(a: Any, b: Any) -> Overlap:
    """Compare two tokenizers' vocabularies by bytes: any ``bpe_core`` tokenizer (trained, loaded or
    ``bpe_core.reference(name)``), or anything with ``vocab``, ``special_tokens`` and ``token_bytes``.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("hello hello", 258, special_tokens=["<|endoftext|>"]).tokenizer
    >>> same = vocabulary_overlap(tokenizer, tokenizer)
    >>> same.jaccard, len(same.only_a), same.shared_specials
    (1.0, 0, ('<|endoftext|>',))
    """
    ids_a, specials_a = _tokens_of(a, "a")
    ids_b, specials_b = _tokens_of(b, "b")
    keys_a, keys_b = ids_a.keys(), ids_b.keys()
    shared, only_a, only_b = frozenset(keys_a & keys_b), frozenset(keys_a - keys_b), frozenset(keys_b - keys_a)
    scripts = {token: token_script(token) for token in (*ids_a, *only_b)}
    by_script = _breakdown(SCRIPTS, scripts.__getitem__, shared, only_a, only_b)
    by_length = _breakdown([label for _, _, label in LENGTH_BINS], length_bin, shared, only_a, only_b)
    ordered = {  # ids_a and ids_b are in id order
        "shared": tuple(token for token in ids_a if token in shared),
        "only_a": tuple(token for token in ids_a if token in only_a),
        "only_b": tuple(token for token in ids_b if token in only_b),
    }
    return Overlap(ids_a, ids_b, specials_a, specials_b, shared, only_a, only_b, scripts, by_script, by_length, ordered)


def token_script(token: bytes) -> str:
    """The script of a token's bytes, one of :data:`SCRIPTS` (see the module's docstring).

    >>> [token_script(t) for t in (b" the", " мир".encode(), "中文".encode(), b"2024", b" (", "中".encode()[:2])]
    ['latin', 'cyrillic', 'han', 'digits', 'punctuation', 'bytes']
    >>> token_script("カタカナ".encode()), token_script("x中".encode()), token_script("ー".encode())
    ('kana', 'mixed', 'punctuation')
    """
    try:
        text = token.decode("utf-8")
    except UnicodeDecodeError:
        return BYTES
    found: set[str] = set()
    digit = False
    for char in text:
        if char not in _char_scripts:
            _char_scripts[char] = _script_of_char(char)
        script = _char_scripts[char]
        if script is not None:
            found.add(script)
        elif not digit and unicodedata.category(char).startswith("N"):
            digit = True
    if len(found) > 1:
        return MIXED
    if found:
        return found.pop()
    return DIGITS if digit else PUNCTUATION


def length_bin(token: bytes) -> str:
    """The label of the :data:`LENGTH_BINS` bin a token's length in bytes falls in.

    >>> length_bin(b"abc"), length_bin(b"x" * 12), length_bin(b"x" * 40)
    ('3', '9–16', '33+')
    """
    size = len(token)
    for shortest, longest, label in LENGTH_BINS:
        if size >= shortest and (longest is None or size <= longest):
            return label
    return LENGTH_BINS[0][2]  # unreachable: an empty token is never in a vocabulary's sets


def _script_of_char(char: str) -> str | None:
    if not unicodedata.category(char).startswith("L") or _NEUTRAL.match(char):
        return None
    return next((name for name, pattern in _SCRIPT_PATTERNS if pattern.match(char)), OTHER)


def _tokens_of(tokenizer: Any, which: str) -> tuple[dict[bytes, int], tuple[str, ...]]:
    """A tokenizer's ordinary tokens (bytes -> lowest id) and its special tokens' names, by id."""
    missing = [name for name in ("vocab", "special_tokens", "token_bytes") if not hasattr(tokenizer, name)]
    if missing:
        raise TypeError(
            f"{which} must be a tokenizer (bpe_core.train(...).tokenizer, bpe_core.load(path), "
            f"bpe_core.reference(name)); {type(tokenizer).__name__} has no {', '.join(missing)}"
        )
    specials: dict[int, str] = {identifier: name for name, identifier in tokenizer.special_tokens.items()}
    unknown = getattr(tokenizer, "unknown_id", None)
    if unknown is None and hasattr(tokenizer, "piece_type"):  # SentencePiece: its <unk> piece stands for no text
        unknown = next((i for i in tokenizer.vocab if tokenizer.piece_type(i).name == "UNKNOWN"), None)
    if unknown is not None and unknown not in specials:
        specials[unknown] = str(tokenizer.vocab.get(unknown, "<unk>"))
    ids: dict[bytes, int] = {}  # filled in id order: the lists keep it
    vocab = tokenizer.vocab
    for identifier in sorted(vocab):
        if identifier in specials:
            continue
        value = vocab[identifier]
        token = value if isinstance(value, bytes) else tokenizer.token_bytes(identifier)
        if token and token not in ids:
            ids[token] = identifier
    return ids, tuple(specials[identifier] for identifier in sorted(specials))


def _breakdown(
    names: Iterable[str], key: Any, shared: frozenset[bytes], only_a: frozenset[bytes], only_b: frozenset[bytes]
) -> tuple[Counts, ...]:
    counts: dict[str, list[int]] = {name: [0, 0, 0] for name in names}
    for column, tokens in enumerate((shared, only_a, only_b)):
        for token in tokens:
            counts[key(token)][column] += 1
    return tuple(Counts(name, *row) for name, row in counts.items() if any(row))
