""":class:`SentencePieceTokenizer`: a SentencePiece BPE model, encoding and decoding as ``sentencepiece`` does."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..arguments import checked_text
from ..lifetimes import Segmentation, merge_lifetimes
from ..pre_tokenization import PreTokenization
from .decoding import Decoder
from .merging import MergeEncoder
from .model import SPACE_SYMBOL, PieceType, SentencePieceModel, byte_of_piece, check_model
from .normalizer import Normalizer
from .segmenting import score_ranks, segmentation
from .sizes import first_k, merges_from_scores

if TYPE_CHECKING:
    from ..shape import TokenizerShape


class SentencePieceTokenizer:
    """SentencePiece's character-level BPE with byte fallback: Llama 2's and Mistral's ``tokenizer.model``.

    The modern cousin of Sennrich's classic BPE: symbols are characters, not bytes; a space is the
    ▁ that starts a word's first piece instead of an end-of-word mark; merges are ranked by the
    pieces' scores; a character no piece covers falls back to its UTF-8 bytes (``<0x41>``) or to
    ``<unk>``. :meth:`encode` gives ``sentencepiece``'s ``encode(text)`` ids (no BOS/EOS),
    :meth:`decode` its ``decode(ids)``.

    >>> from .model import Piece, TrainerSpec
    >>> pieces = [Piece("<unk>", 0, PieceType.UNKNOWN), Piece("▁"), Piece("l"), Piece("o"), Piece("w"),
    ...           Piece("▁l", -1), Piece("▁lo", -2), Piece("▁low", -3)]
    >>> tokenizer = SentencePieceTokenizer(SentencePieceModel(tuple(pieces), TrainerSpec(model_type=2)))
    >>> [tokenizer.piece(i) for i in tokenizer.encode("low lowx")]
    ['▁low', '▁low', '<unk>']
    >>> tokenizer.decode(tokenizer.encode("low low"))
    'low low'
    """

    def __init__(self, model: SentencePieceModel, *, name: str | None = None, steps: int | None = None):
        """``steps``: keep only the pieces of the ``steps`` best score ranks (see :meth:`truncated`)."""
        check_model(model)
        self.model = model
        self.name = name
        self._pieces = [entry.piece for entry in model.pieces]
        self._normalizer = Normalizer(
            model.normalizer,
            whitespace_as_suffix=model.trainer.treat_whitespace_as_suffix,
            user_defined_symbols=[entry.piece for entry in model.pieces if entry.type == PieceType.USER_DEFINED],
        )
        space = SPACE_SYMBOL if model.normalizer.escape_whitespaces else " "
        ranks = score_ranks(model)
        levels = max(ranks.values(), default=-1) + 1
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= levels):
            raise ValueError(f"k must be a whole number of merges from 0 to {levels:,}, not {steps!r}")
        self._steps = levels if steps is None else steps
        self._ranks = {piece: rank for piece, rank in ranks.items() if rank < self._steps}
        dropped = frozenset(ranks) - frozenset(self._ranks)
        self._dropped_ids = frozenset(i for i, piece in enumerate(self._pieces) if piece in dropped)
        self._encoder = MergeEncoder(model, space, dropped)
        # What decoding treats each id as: SentencePiece looks a piece's id up by its name again.
        types = [model.pieces[self._encoder.id_of(piece)].type for piece in self._pieces]
        self._decoder = Decoder(model, types)
        self._merges: list[tuple[str, str]] | None = None
        self._byte_piece = {
            bytes([byte]): identifier
            for identifier, entry in enumerate(model.pieces)
            if entry.type == PieceType.BYTE and (byte := byte_of_piece(entry.piece)) is not None
        }

    # -- what it is ---------------------------------------------------------------------------

    @property
    def n_vocab(self) -> int:
        """How many pieces (ids run from 0 to n_vocab - 1)."""
        return len(self._pieces)

    @property
    def vocab(self) -> dict[int, str]:
        """Every piece by id, as SentencePiece writes it (▁ for a space, ``<0x41>`` for a byte)."""
        return {i: piece for i, piece in enumerate(self._pieces) if i not in self._dropped_ids}

    @property
    def special_tokens(self) -> dict[str, int]:
        """The control pieces (``<s>``, ``</s>``...) and user-defined symbols, with their ids.

        User-defined symbols are found in text and kept whole; control pieces never come from text.
        """
        kinds = (PieceType.CONTROL, PieceType.USER_DEFINED)
        return {entry.piece: i for i, entry in enumerate(self.model.pieces) if entry.type in kinds}

    @property
    def merges(self) -> list[tuple[str, str]]:
        """Pairs of pieces whose concatenation is a piece, in the order the scores give.

        SentencePiece stores no merges, only scores; these are derived as Hugging Face's converter
        (``SentencePieceExtractor``/``generate_merges``) derives them: every split of every piece into
        two pieces, by the piece's score (highest first), then the longer left part, then the longer
        right part, ties kept in id order.
        """
        if self._merges is None:
            self._merges = merges_from_scores(self.model, {self._pieces[i] for i in self._dropped_ids})
        return list(self._merges)

    @property
    def num_merges(self) -> int:
        """How many merges :attr:`merges` lists."""
        return len(self.merges)

    end_of_word = ""  # BPE starts from a piece's characters alone

    @property
    def byte_level(self) -> bool:
        """True with byte fallback: every text encodes and each token stands for bytes of the normalized text
        (▁ as a space); without, tokens are pieces of characters and a character no piece covers is ``<unk>``."""
        return bool(self.model.trainer.byte_fallback)

    @property
    def unknown_id(self) -> int | None:
        """``<unk>``'s id without byte fallback (what a character no piece covers becomes), else None."""
        return None if self.byte_level else self._encoder.unk_id

    def token_text(self, token_id: int) -> str:
        """A token as text to show: its bytes as UTF-8 (``\\xNN`` for a byte not valid there), a control
        piece's name."""
        if self.piece_type(token_id) == PieceType.CONTROL:
            return self._pieces[token_id]
        return self.token_bytes(token_id).decode("utf-8", errors="backslashreplace")

    def token_id(self, token: bytes | str) -> int | None:
        """The id of a token as :meth:`segment` cuts it (bytes with byte fallback, a space as ▁; else the
        piece's characters), a lone byte no piece spells as its ``<0xXX>`` piece; None for no piece."""
        raw = token if isinstance(token, bytes) else None
        if raw is not None:
            try:
                token = raw.decode("utf-8").replace(" ", SPACE_SYMBOL)
            except UnicodeDecodeError:  # a byte of a character no piece covers
                return self._byte_piece.get(raw)
        found = self._encoder.id_of(token) if isinstance(token, str) else self._encoder.unk_id
        if found != self._encoder.unk_id or token == self._pieces[found]:
            return found
        return self._byte_piece.get(raw) if raw is not None else None

    def segment(self, text: str) -> Segmentation:
        """The normalized text's boundaries with their lifetimes: its pieces with the first k merges (the pieces
        of the k best scores), for every k; see :mod:`.segmenting`."""
        return self.segment_piece(self.normalize(text))

    def segment_piece(self, piece: str) -> Segmentation:
        """:meth:`segment` of a piece :meth:`pretokenize` gave, normalized already (normalized again, ``▁Token``
        would get a second ``▁``: the dummy prefix)."""
        return segmentation(piece, self._encoder, self._ranks, self._steps, self.byte_level)

    # -- every size (bpe_core.analysis.ladder): the pieces of the k best scores, k = 0 .. merge_steps -------

    @property
    def merge_steps(self) -> int:
        """How many sizes past the smallest :meth:`segment` counts: the score ranks of pieces merges make."""
        return self._steps

    def first_k(self) -> dict[int, int]:
        """Each regular piece's first size (0: the base); control pieces, ``<unk>`` and user-defined symbols are
        left out (see :mod:`.sizes`)."""
        return first_k(self.model, self._ranks, self._dropped_ids)

    def truncated(self, k: int) -> SentencePieceTokenizer:
        """The same model with only the pieces of the k best score ranks (ids unchanged; see :mod:`.sizes`)."""
        return SentencePieceTokenizer(self.model, name=self.name, steps=k)

    def own_lifetimes(self, token_id: int) -> list[int]:
        """A piece's own characters merged by score: the lifetimes between them (``PERMANENT``: never joined)."""
        piece = self._pieces[self._checked_id(token_id)]
        return merge_lifetimes(len(piece), lambda start, _middle, stop: self._ranks.get(piece[start:stop]))

    def piece(self, token_id: int) -> str:
        """The piece an id stands for (``▁the``, ``<0x0A>``, ``<s>``); a bad id is a ValueError."""
        return self._pieces[self._checked_id(token_id)]

    def piece_type(self, token_id: int) -> PieceType:
        """NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED or BYTE."""
        return self.model.pieces[self._checked_id(token_id)].type

    def piece_to_id(self, piece: str) -> int:
        """The id of a piece, as SentencePiece's ``piece_to_id`` (``<unk>``'s id for an unknown piece)."""
        return self._encoder.id_of(piece)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes one id stands for on its own: a byte piece's byte, a piece's text with ▁ as a
        space, nothing for a control piece, ``unk_surface`` for ``<unk>``."""
        entry = self.model.pieces[self._checked_id(token_id)]
        if entry.type == PieceType.BYTE:
            return bytes([byte_of_piece(entry.piece) or 0])
        if entry.type == PieceType.CONTROL:
            return b""
        if entry.type == PieceType.UNKNOWN:
            return self.model.trainer.unk_surface.encode("utf-8")
        return entry.piece.replace(SPACE_SYMBOL, " ").encode("utf-8")

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        fallback = "byte fallback" if self.model.trainer.byte_fallback else "no byte fallback (<unk>)"
        normalizer = self.model.normalizer.name or "identity"
        return (
            f"<SentencePieceTokenizer {label}SentencePiece char-level BPE with {fallback}, "
            f"{self.n_vocab} pieces, normalizer {normalizer!r}>"
        )

    def forget_encodings(self) -> None:
        """Let go of the parts encoding remembers between calls."""
        self._encoder.forget()

    # -- encoding -----------------------------------------------------------------------------

    def normalize(self, text: str) -> str:
        """The text as SentencePiece normalizes it before encoding (spaces as ▁, the dummy prefix)."""
        return self._normalizer.normalize(_utf8_text(text))

    @property
    def pre_tokenization(self) -> PreTokenization:
        """The whole normalized text, spaces as ▁ (cut only where no merge can cross: :meth:`pretokenize`)."""
        return PreTokenization(whole_text=True)

    def pretokenize(self, text: str) -> list[str]:
        """The normalized text cut where no merge can cross: user-defined symbols, and the parts
        between (words with their leading ▁, where the vocabulary allows cutting there).

        >>> from .model import Piece, TrainerSpec
        >>> model = SentencePieceModel((Piece("<unk>", 0, PieceType.UNKNOWN),), TrainerSpec(model_type=2))
        >>> SentencePieceTokenizer(model).pretokenize("Hello  world")  # extra spaces removed by default
        ['▁Hello', '▁world']
        """
        return [part for part, _ in self._encoder.split(self.normalize(text))]

    def encode(self, text: str) -> list[int]:
        """The ids ``sentencepiece``'s ``encode(text)`` gives (no BOS or EOS added)."""
        return self._encoder.encode(self.normalize(text))

    def encode_ordinary(self, text: str) -> list[int]:
        """The same as :meth:`encode`: SentencePiece never reads control pieces from text."""
        return self.encode(text)

    def encode_iterable_batches(self, texts: Iterable[str]) -> Iterator[list[int]]:
        """The ids of the texts joined, as one list: held whole (the normalizer and dummy prefix see all of it)."""
        yield self.encode("".join(texts))

    def encode_as_pieces(self, text: str) -> list[str]:
        """The pieces of :meth:`encode`'s ids."""
        return [self._pieces[i] for i in self.encode(text)]

    # -- decoding -----------------------------------------------------------------------------

    def decode(self, ids: Iterable[int]) -> str:
        """The text, as ``sentencepiece``'s ``decode(ids)``: the dummy prefix dropped, byte pieces
        read as UTF-8 with one U+FFFD for each byte that starts no valid character."""
        return self._decoder.decode(self._checked_ids(ids))

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """:meth:`decode`'s text as UTF-8, except that byte pieces give their bytes as they are."""
        return self._decoder.decode_bytes(self._checked_ids(ids))

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """Each id's :meth:`token_bytes`."""
        return [self.token_bytes(i) for i in self._checked_ids(ids)]

    def _checked_ids(self, ids: Iterable[int]) -> list[int]:
        if isinstance(ids, (str, bytes)):
            raise TypeError(f"ids must be an iterable of integers, not {type(ids).__name__}")
        return [self._checked_id(token_id) for token_id in ids]

    def _checked_id(self, token_id: int) -> int:
        if type(token_id) is not int:
            if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
                raise ValueError(f"token id {token_id!r} is not an integer ({type(token_id).__name__})")
            token_id = token_id.__index__()
        if not 0 <= token_id < len(self._pieces) or token_id in self._dropped_ids:
            cut = ", less the pieces cut off" if self._dropped_ids else ""
            last = self.n_vocab - 1
            raise ValueError(f"token id {token_id} is not in this tokenizer (its ids run from 0 to {last}{cut})")
        return token_id


def _utf8_text(text: str) -> str:
    # A lone surrogate cannot be encoded as UTF-8, so sentencepiece cannot take it either.
    text = checked_text(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(
            f"the text holds a lone surrogate (U+{ord(text[error.start]):04X} at {error.start}), which is not UTF-8"
        ) from None
    return text


if TYPE_CHECKING:  # mypy holds SentencePiece to the shape every tokenizer has (tests/test_types.py)

    def _fills_the_shape(tokenizer: SentencePieceTokenizer) -> TokenizerShape:
        return tokenizer
