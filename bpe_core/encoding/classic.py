"""Classic BPE's tokenizer, as in Sennrich, Haddow and Birch (2016): characters, words and an
end-of-word mark (its trainer: :mod:`bpe_core.training.classic`).

The text is split on whitespace; each word becomes its characters followed by ``</w>``, so
``low`` at the end of a word and ``low`` inside ``lower`` become different symbols. The
vocabulary is the characters seen in training, ``</w>``, and the merges.

A character never seen in training cannot be merged with anything: it stays a symbol of its own,
and ``encode`` gives it the id of ``<unk>``, the last id of the vocabulary. Whitespace is not
kept, so ``decode`` joins words with single spaces.
"""

from __future__ import annotations

from collections.abc import Iterable

from .arguments import checked_text
from .lifetimes import PERMANENT, Segmentation, merge_lifetimes
from .pre_tokenization import PreTokenization

END_OF_WORD = "</w>"
UNKNOWN = "<unk>"


Atoms = tuple[str, ...]
"""A symbol as the atoms it is made of: characters, and ``END`` for the end-of-word mark."""
END = ""
"""The end-of-word atom. No character is empty, so it is never confused with text, not even a
literal ``</w>`` in the corpus; it is shown as ``</w>``."""


def display(atoms: Atoms) -> str:
    """A symbol as text, the end-of-word atom shown as ``</w>``.

    >>> display(("l", "o", END)), display(tuple("</w>"))
    ('lo</w>', '</w>')
    """
    return "".join(END_OF_WORD if atom == END else atom for atom in atoms)


def _atoms_of(symbol: str) -> Atoms:
    # Display strings are ambiguous for a literal </w>; a trailing one is read as the mark.
    if symbol.endswith(END_OF_WORD):
        return (*symbol[: -len(END_OF_WORD)], END)
    return tuple(symbol)


class ClassicTokenizer:
    """Applies classic BPE merges to whitespace-separated words.

    Symbols are kept as tuples of atoms (see ``Atoms``), so the end-of-word mark is never the
    same symbol as text that reads ``</w>``; ``symbols``, ``merges`` and ``encode_words`` show
    them as text.

    >>> from bpe_core import train_classic
    >>> tokenizer = train_classic("low low lower newest newest widest widest widest", 18).tokenizer
    >>> tokenizer.encode_words("lowest newer")
    [['l', 'ow', 'est</w>'], ['n', 'e', 'w', 'e', 'r', '</w>']]
    >>> tokenizer.encode("zz") == [tokenizer.unknown_id] * 2 + [tokenizer.symbols.index("</w>")]
    True
    """

    def __init__(self, symbols: list[str], merges: list[tuple[str, str]]):
        """From symbols and merges as text, a trailing ``</w>`` read as the mark (``train_classic``
        builds tokenizers from atoms, exact for any text)."""
        self._setup([_atoms_of(symbol) for symbol in symbols], [(_atoms_of(a), _atoms_of(b)) for a, b in merges])

    @classmethod
    def from_atoms(cls, symbols: list[Atoms], merges: list[tuple[Atoms, Atoms]]) -> ClassicTokenizer:
        """From symbols and merges as tuples of atoms (``END`` for the mark)."""
        tokenizer = cls.__new__(cls)
        tokenizer._setup(list(symbols), list(merges))
        return tokenizer

    def _setup(self, symbols: list[Atoms], merges: list[tuple[Atoms, Atoms]]) -> None:
        self._symbol_atoms = symbols
        self._merge_atoms = merges
        self.symbols = [display(symbol) for symbol in symbols]
        self.merges = [(display(left), display(right)) for left, right in merges]
        self._merge_rank: dict[tuple[Atoms, Atoms], int] = {}
        for rank, pair in enumerate(merges):
            self._merge_rank.setdefault(pair, rank)
        self._id = {symbol: identifier for identifier, symbol in enumerate(symbols)}
        self.unknown_id = len(symbols)
        self._cache: dict[str, list[Atoms]] = {}

    # -- what it is (the shape every tokenizer has: :class:`~.shape.TokenizerShape`) ------------

    byte_level = False  # its tokens are symbols of characters (and </w>), not bytes of the text
    end_of_word = END_OF_WORD  # each word's characters, then the mark (its own atom)

    @property
    def n_vocab(self) -> int:
        """How many ids it has: its symbols and ``<unk>``."""
        return self.unknown_id + 1

    @property
    def special_tokens(self) -> dict[str, int]:
        """None: classic BPE has no special tokens."""
        return {}

    def token_text(self, token_id: int) -> str:
        """A symbol as text, the end-of-word mark as ``</w>``; ``<unk>`` for :attr:`unknown_id`.

        >>> ClassicTokenizer(["l", "o", "</w>", "lo</w>"], [("l", "o</w>")]).token_text(3)
        'lo</w>'
        """
        if type(token_id) is not int or not 0 <= token_id <= self.unknown_id:
            ids_run = f"its ids run from 0 to {self.unknown_id}"
            raise ValueError(f"token id {token_id!r} is not in this tokenizer ({ids_run})")
        return self.symbols[token_id] if token_id < self.unknown_id else UNKNOWN

    def token_bytes(self, token_id: int) -> bytes:
        """:meth:`token_text` as UTF-8."""
        return self.token_text(token_id).encode("utf-8")

    def token_id(self, token: bytes | str) -> int | None:
        """The id of a symbol as :meth:`segment` shows it (a trailing ``</w>`` read as the mark; bytes as UTF-8),
        else None."""
        return self._id.get(_atoms_of(token.decode("utf-8", errors="replace") if isinstance(token, bytes) else token))

    @property
    def pre_tokenization(self) -> PreTokenization:
        """The whitespace-separated words (:meth:`pretokenize`)."""
        return PreTokenization(whitespace=True)

    def pretokenize(self, text: str) -> list[str]:
        """The pieces BPE runs on, each encoded alone: the whitespace-separated words. Each gets its end-of-word
        mark when encoded (its own atom, see :meth:`segment`): written into the word as ``</w>`` it would read as
        that text.

        >>> ClassicTokenizer([], []).pretokenize(" low\tlower ")
        ['low', 'lower']
        """
        return checked_text(text).split()

    @property
    def vocab(self) -> dict[int, str]:
        """Every symbol by id, ``<unk>`` last."""
        return {**dict(enumerate(self.symbols)), self.unknown_id: UNKNOWN}

    @property
    def num_merges(self) -> int:
        """How many merges the tokenizer has."""
        return len(self._merge_atoms)

    @property
    def merge_steps(self) -> int:
        """Its merges: one size each (see :class:`~.shape.TokenizerShape`)."""
        return self.num_merges

    def truncated(self, k: int) -> ClassicTokenizer:
        """The same tokenizer with only its first k merges (ids unchanged)."""
        if not 0 <= k <= self.num_merges:
            raise ValueError(f"k must be between 0 and {self.num_merges}, got {k}")
        base = len(self._symbol_atoms) - self.num_merges
        return ClassicTokenizer.from_atoms(self._symbol_atoms[: base + k], self._merge_atoms[:k])

    def _word_lifetimes(self, atoms: Atoms) -> list[int]:
        """Lifetimes of the boundaries between a word's atoms: lowest-ranked pair merged first."""
        merge_rank = self._merge_rank

        def rank_of(start: int, middle: int, stop: int) -> int | None:
            return merge_rank.get((atoms[start:middle], atoms[middle:stop]))

        return merge_lifetimes(len(atoms), rank_of)

    def _encode_word(self, word: str) -> list[Atoms]:
        cached = self._cache.get(word)
        if cached is None:
            atoms = (*word, END)
            parts, start = [], 0
            for index, lifetime in enumerate(self._word_lifetimes(atoms), 1):
                if lifetime >= self.num_merges:
                    parts.append(atoms[start:index])
                    start = index
            cached = self._cache[word] = [*parts, atoms[start:]]
        return cached

    def forget_encodings(self) -> None:
        """Let go of the words already encoded (as :meth:`bpe_core.Tokenizer.forget_encodings`)."""
        self._cache = {}

    def encode_word(self, word: str) -> list[str]:
        """The symbols of one word: lowest-ranked adjacent pair merged first, until none applies."""
        return [display(symbol) for symbol in self._encode_word(word)]

    def encode_words(self, text: str) -> list[list[str]]:
        """The symbols of each whitespace-separated word of ``text``."""
        return [self.encode_word(word) for word in checked_text(text).split()]

    def encode(self, text: str) -> list[int]:
        """Symbol ids; a symbol holding a character never seen in training gets ``unknown_id``."""
        symbol_id, unknown = self._id, self.unknown_id
        words = checked_text(text).split()
        return [symbol_id.get(symbol, unknown) for word in words for symbol in self._encode_word(word)]

    def segment(self, text: str) -> Segmentation:
        """The symbols of ``text``'s words and their boundaries' lifetimes, at every vocab size.

        Boundaries between words are never removed (``PERMANENT``).

        >>> from bpe_core import train_classic
        >>> tokenizer = train_classic("low low lower newest newest widest widest widest", 18).tokenizer
        >>> segmentation = tokenizer.segment("lowest newer")
        >>> segmentation.tokens_at(0)[:4], segmentation.tokens_at(tokenizer.num_merges)[:3]
        (['l', 'o', 'w', 'e'], ['l', 'ow', 'est</w>'])
        """
        shown: list[str] = []
        lifetimes: list[int] = []
        for word in checked_text(text).split():
            if shown:
                lifetimes.append(PERMANENT)
            shown.extend([*word, END_OF_WORD])
            lifetimes.extend(self._word_lifetimes((*word, END)))
        return Segmentation(shown, lifetimes, self.num_merges)

    def segment_piece(self, piece: str) -> Segmentation:
        """:meth:`segment` of one word :meth:`pretokenize` gave: its characters, then the mark."""
        return self.segment(piece)

    def decode(self, ids: Iterable[int]) -> str:
        """The words joined by single spaces (whitespace is not kept); unknown characters as ``<unk>``.

        >>> from bpe_core import train_classic
        >>> tokenizer = train_classic("a</w> a</w>", 12).tokenizer
        >>> tokenizer.decode(tokenizer.encode("a</w> a"))
        'a</w> a'
        """
        words = self._symbol_atoms
        text: list[str] = []
        for identifier in ids:
            if type(identifier) is not int or not 0 <= identifier <= self.unknown_id:
                ids_run = f"its ids run from 0 to {self.unknown_id}"
                raise ValueError(f"token id {identifier!r} is not in this tokenizer ({ids_run})")
            atoms = words[identifier] if identifier < self.unknown_id else (UNKNOWN,)
            text.extend(" " if atom == END else atom for atom in atoms)
        return "".join(text).rstrip(" ")
