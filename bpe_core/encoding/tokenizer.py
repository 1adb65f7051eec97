"""Encoding and decoding with a byte-level BPE vocabulary, exactly as tiktoken does.

Inside each pre-token, repeatedly merge the adjacent pair whose concatenation has the lowest
merge rank (leftmost first on equal ranks). A pre-token that is itself a token is emitted whole.
The rule, readable: :mod:`.educational`; how it is done fast: :mod:`.fast` (many texts: ``encode_batch``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from ..pretokenize import (
    Normalization,
    check_normalization,
    compile_pattern,
    normalize,
    pattern_regex,
    pretokenize,
    replace_surrogates,
    split_on_special,
)
from .arguments import as_bytes, as_id, as_pair, checked_text, resolve_special_ids
from .decoding import Decoding
from .fast import BatchEncoding, PieceEncoder
from .lifetimes import Segmentation, text_segmentation
from .pre_tokenization import PreTokenization
from .ranks import derive_merges, merge_ranks_from_merges, merge_ranks_from_token_ranks
from .stream_encoding import StreamEncoding


class Tokenizer(Decoding, BatchEncoding, StreamEncoding):
    """A byte-level BPE tokenizer: 256 byte tokens, ordered merges, special tokens, a pattern.

    >>> tokenizer = Tokenizer({**{i: bytes([i]) for i in range(256)}, 256: b"ab"}, [(b"a", b"b")])
    >>> tokenizer.encode("abc")
    [256, 99]
    >>> tokenizer.decode([256, 99])
    'abc'
    """

    normalization: Normalization | None
    """Unicode normalization applied to every text before anything else (Qwen: NFC), or None."""
    pattern_source: str | None
    """Where a loaded tokenizer's pattern came from ("given", "recognised: Llama 3 ...", "stored in the file")."""

    def __init__(
        self,
        vocab: Mapping[int, bytes],
        merges: Iterable[tuple[bytes, bytes]],
        special_tokens: Mapping[str, int] | Iterable[str] | None = None,
        pattern: str | None = "gpt2",
        *,
        name: str | None = None,
        normalization: Normalization | None = None,
    ):
        if not isinstance(vocab, Mapping):
            raise TypeError(f"vocab must be a mapping of id -> token bytes, not {type(vocab).__name__}")
        if isinstance(merges, (str, bytes)) or not isinstance(merges, Iterable):
            raise TypeError(f"merges must be a list of (bytes, bytes) pairs, not {type(merges).__name__}")
        merges = [as_pair(merge) for merge in merges]
        vocab = {as_id(token_id): as_bytes(token, f"vocab[{token_id!r}]") for token_id, token in vocab.items()}
        special_ids = resolve_special_ids(vocab, special_tokens)
        for token, token_id in special_ids.items():
            vocab[token_id] = token.encode("utf-8")
        special_id_set = set(special_ids.values())
        id_of: dict[bytes, int] = {}  # a token listed twice keeps its lowest id
        for identifier in sorted(vocab):
            if identifier not in special_id_set:
                id_of.setdefault(vocab[identifier], identifier)
        self._setup(vocab, id_of, merge_ranks_from_merges(merges, id_of), special_ids, pattern, name, merges)
        self.normalization = check_normalization(normalization)

    @classmethod
    def from_ranks(
        cls,
        ranks: Mapping[bytes, int],
        special_tokens: Mapping[str, int] | None = None,
        pattern: str | None = "gpt2",
        *,
        name: str | None = None,
        normalization: Normalization | None = None,
    ) -> Tokenizer:
        """Build from tiktoken-style mergeable ranks (token bytes -> rank, which is also the id).

        The merges are derived only when asked for (``.merges``): encoding needs just the ranks.
        """
        id_of = {bytes(token): as_id(rank) for token, rank in ranks.items()}
        vocab = {rank: token for token, rank in id_of.items()}
        special_ids = resolve_special_ids(vocab, dict(special_tokens or {}))  # no empty token, no id twice
        for token, identifier in special_ids.items():
            if identifier in vocab:
                raise ValueError(f"special token {token!r} has id {identifier}, which a regular token already has")
        for token, identifier in special_ids.items():
            vocab[identifier] = token.encode("utf-8")
        tokenizer = cls.__new__(cls)
        tokenizer._setup(vocab, id_of, merge_ranks_from_token_ranks(id_of), special_ids, pattern, name, None)
        tokenizer.normalization = check_normalization(normalization)
        tokenizer.merges_derived = True
        return tokenizer

    def _setup(
        self,
        vocab: dict[int, bytes],
        token_id: dict[bytes, int],
        merge_rank: dict[bytes, int],
        special_ids: dict[str, int],
        pattern: str | None,
        name: str | None,
        merges: list[tuple[bytes, bytes]] | None,
    ) -> None:
        missing = [byte for byte in range(256) if bytes([byte]) not in token_id]
        if missing:
            raise ValueError(f"the vocab lacks {len(missing)} of the 256 single bytes (first: 0x{missing[0]:02X})")
        compile_pattern(pattern)
        self._vocab: dict[int, bytes] = vocab
        self._token_id: dict[bytes, int] = token_id
        self._merge_rank: dict[bytes, int] = merge_rank
        self._special_ids: dict[str, int] = special_ids
        self._merges: list[tuple[bytes, bytes]] | None = merges
        self.pattern = pattern
        self.name = name
        self.normalization = self.pattern_source = None  # set by the constructors that take them
        # True when built from ranks: .merges is then one derived split per token, and a format that lists
        # merges writes every split (bpe_core.encoding.ranks.all_split_merges) to encode as the ranks do.
        self.merges_derived = False
        self._pieces = PieceEncoder(token_id, merge_rank, vocab)

    # -- what it is (the shape every tokenizer has: :class:`~.shape.TokenizerShape`) ------------

    byte_level = True  # its tokens are bytes of the text (a char-level tokenizer's: symbols of characters)
    unknown_id: int | None = None  # every text encodes: no id stands for what training never saw
    end_of_word = ""  # BPE starts from a piece's bytes alone

    @property
    def vocab(self) -> dict[int, bytes]:
        """Every token's bytes by id, special tokens included."""
        return dict(self._vocab)

    @property
    def merges(self) -> list[tuple[bytes, bytes]]:
        """The merges in rank order."""
        if self._merges is None:
            self._merges = derive_merges(self._merge_rank)
        return list(self._merges)

    @property
    def special_tokens(self) -> dict[str, int]:
        """Each special token and its id."""
        return dict(self._special_ids)

    @property
    def mergeable_ranks(self) -> dict[bytes, int]:
        """Every regular (non-special) token's bytes and id: tiktoken's ``mergeable_ranks``."""
        return dict(self._token_id)

    @property
    def pre_tokenization(self) -> PreTokenization:
        """Its pattern (None: none) and, loaded from a file, where the pattern came from."""
        return PreTokenization(pattern=self.pattern, source=self.pattern_source)

    @property
    def pattern_regex(self) -> str | None:
        """The pre-tokenization regex (a named pattern's source), or None for no pre-tokenization."""
        return pattern_regex(self.pattern)

    @property
    def num_merges(self) -> int:
        """How many merges (distinct merged tokens) the vocabulary has."""
        return len(self._merge_rank)

    @property
    def merge_steps(self) -> int:
        """Its merges: one size each (see :class:`~.shape.TokenizerShape`)."""
        return self.num_merges

    def merge_rank(self, token: bytes) -> int | None:
        """The rank of the merge that creates ``token``, or None for single bytes and specials."""
        return self._merge_rank.get(token)

    @property
    def merge_ranks(self) -> dict[bytes, int]:
        """Every token a merge creates, and that merge's rank: what encoding ranks pairs by."""
        return dict(self._merge_rank)

    def token_id(self, token: bytes | str) -> int | None:
        """The id of a regular token (bytes as :meth:`segment` cuts them; a str as UTF-8), else None."""
        return self._token_id.get(token.encode("utf-8") if isinstance(token, str) else token)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        normalization = f", normalization={self.normalization!r}" if self.normalization else ""
        source = f" ({self.pattern_source})" if self.pattern_source else ""
        return (
            f"<Tokenizer {label}{self.num_merges} merges, {len(self._special_ids)} special tokens, "
            f"pattern={self.pattern!r}{source}{normalization}>"
        )

    def truncated(self, k: int) -> Tokenizer:
        """The same tokenizer with only its first k merges (ids unchanged)."""
        if not 0 <= k <= self.num_merges:
            raise ValueError(f"k must be between 0 and {self.num_merges}, got {k}")
        if k == self.num_merges:  # all of it: the tables are never changed after _setup, so they are shared
            vocab, token_id, kept_rank = self._vocab, self._token_id, self._merge_rank
        else:
            kept_rank = {token: rank for token, rank in self._merge_rank.items() if rank < k}
            special_id_set = set(self._special_ids.values())
            vocab = {
                identifier: token
                for identifier, token in self._vocab.items()
                if identifier in special_id_set or len(token) == 1 or token in kept_rank
            }
            token_id = {token: i for token, i in self._token_id.items() if len(token) == 1 or token in kept_rank}
        merges = self._merges[:k] if self._merges is not None else None
        truncated = Tokenizer.__new__(Tokenizer)
        truncated._setup(vocab, token_id, kept_rank, dict(self._special_ids), self.pattern, self.name, merges)
        truncated.normalization, truncated.pattern_source = self.normalization, self.pattern_source
        truncated.merges_derived = self.merges_derived
        return truncated

    def forget_encodings(self) -> None:
        """Let go of what encoding remembers between calls (up to 131,072 pre-tokens, the fast paths'
        tables): for a server keeping many tokenizers. The ids stay the same, a little slower at first."""
        self._pieces.forget()

    # -- encoding -----------------------------------------------------------------------------

    def encode(self, text: str) -> list[int]:
        """Encode text, turning every special token this tokenizer knows into its id.

        Where special tokens overlap, the longest wins. Surrogates are treated as tiktoken does
        (see :func:`~bpe_core.pretokenize.replace_surrogates`).

        >>> Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<s>"]).encode("a<s>\\udb1d")
        [97, 256, 239, 191, 189]
        """
        ids: list[int] = []
        for piece, is_special in self._split_on_special(text):
            if is_special:
                ids.append(self._special_ids[piece])
            else:
                ids.extend(self._pieces.encode_text(piece, self._pretokenize))
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode text, treating special tokens as ordinary text."""
        text = replace_surrogates(normalize(checked_text(text), self.normalization))
        return self._pieces.encode_text(text, self._pretokenize)

    def _pretokenize(self, text: str) -> list[str]:
        return pretokenize(text, self.pattern)

    def pretokenize(self, text: str) -> list[str]:
        """The pieces BPE runs on, each encoded alone: the pattern's pre-tokens of the (normalized) text
        between special tokens (those are left out: they are never merged).

        >>> Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<s>"]).pretokenize("hi you<s>!")
        ['hi', ' you', '!']
        """
        pieces = (piece for piece, special in self._split_on_special(text) if not special)
        return [word for piece in pieces for word in pretokenize(piece, self.pattern)]

    def count_pretoken_tokens(self, counts: Mapping[str, int]) -> int:
        """The tokens that ``counts``' pre-tokens make, each counted its times (``TrainResult.pretoken_counts``)."""
        return self._pieces.count_tokens(counts)

    # -- every vocab size at once -------------------------------------------------------------

    def segment(self, text: str) -> Segmentation:
        """Boundary lifetimes of ``text``: its segmentation with the first k merges, for every k.

        >>> from bpe_core import train
        >>> tokenizer = train("low low lower lowest", 260).tokenizer
        >>> segmentation = tokenizer.segment("lowest")
        >>> [segmentation.tokens_at(k) for k in (0, tokenizer.num_merges)]
        [[b'l', b'o', b'w', b'e', b's', b't'], [b'low', b'e', b's', b't']]
        """
        parts = (
            ([piece] if is_special else pretokenize(piece, self.pattern), is_special)
            for piece, is_special in self._split_on_special(text)
        )
        return text_segmentation(parts, self._merge_rank, self.num_merges)

    def segment_piece(self, piece: str) -> Segmentation:
        """:meth:`segment` of one pre-token, BPE on its bytes alone (not split or normalized again)."""
        return text_segmentation([([piece], False)], self._merge_rank, self.num_merges)

    def _split_on_special(self, text: str) -> Iterator[tuple[str, bool]]:
        text = replace_surrogates(normalize(checked_text(text), self.normalization))
        return split_on_special(text, self._special_ids)
