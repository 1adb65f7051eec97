"""The one shape every tokenizer has, whatever its family: what views and tools ask of a tokenizer.

A tokenizer is a pipeline: split the text on special tokens, pre-tokenize the rest into pieces, run
BPE on each piece, give ids. Byte-level tokenizers (:class:`~.tokenizer.Tokenizer`: GPT-2, tiktoken)
run BPE on a piece's bytes; char-level ones (:class:`~.classic.ClassicTokenizer`: Sennrich's ``</w>``)
on its characters. That difference is data here (``byte_level``), never a type to test: code that
takes a :class:`TokenizerShape` works for every family, including the ones loaded from files later.

>>> from bpe_core import train, train_classic
>>> shapes = [train("low lower lowest", 260).tokenizer, train_classic("low lower lowest", 12).tokenizer]
>>> [isinstance(shape, TokenizerShape) for shape in shapes]
[True, True]
>>> [(shape.byte_level, shape.pretokenize("low lower")) for shape in shapes]
[(True, ['low', ' lower']), (False, ['low', 'lower'])]
>>> [shape.segment("lower").tokens_at(0)[:2] for shape in shapes]
[[b'l', b'o'], ['l', 'o']]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .lifetimes import Segmentation
from .pre_tokenization import PreTokenization

if TYPE_CHECKING:
    from .classic import ClassicTokenizer
    from .tokenizer import Tokenizer


@runtime_checkable
class TokenizerShape(Protocol):
    """What every tokenizer gives, read as data (``isinstance`` checks the names only; mypy the types)."""

    @property
    def byte_level(self) -> bool:
        """True: tokens are bytes of the text (every text encodes); False: symbols of characters (char-level)."""
        ...

    @property
    def unknown_id(self) -> int | None:
        """The id of a character training never saw (char-level), None when every text encodes."""
        ...

    @property
    def n_vocab(self) -> int:
        """One more than the highest id."""
        ...

    @property
    def num_merges(self) -> int:
        """How many merges it has."""
        ...

    @property
    def merge_steps(self) -> int:
        """How many sizes past the smallest :meth:`segment` counts: its merges (a SentencePiece model: its score
        ranks, where pieces of one score come in one step; a Hugging Face pipeline: its merge ranks)."""
        ...

    @property
    def special_tokens(self) -> Mapping[str, int]:
        """Each special token and its id (matched before pre-tokenizing, never merged)."""
        ...

    @property
    def vocab(self) -> Mapping[int, bytes] | Mapping[int, str]:
        """Every token by id: its bytes (byte-level) or its text (char-level)."""
        ...

    @property
    def merges(self) -> Sequence[tuple[bytes, bytes]] | Sequence[tuple[str, str]]:
        """The merges in rank order: pairs of token bytes (byte-level) or of symbols (char-level)."""
        ...

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``."""
        ...

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids`` (a bad id is a ValueError)."""
        ...

    def segment(self, text: str) -> Segmentation:
        """``text``'s boundaries with their lifetimes: its tokens at every number of merges."""
        ...

    def segment_piece(self, piece: str) -> Segmentation:
        """:meth:`segment` of one piece :meth:`pretokenize` gave, as BPE runs on it: not normalized or cut again
        (a second normalization would add a second ``▁`` to a SentencePiece piece)."""
        ...

    @property
    def end_of_word(self) -> str:
        """What BPE puts after each piece's first symbols (classic BPE: ``</w>``; a pipeline's end-of-word suffix),
        or ``""``."""
        ...

    @property
    def pre_tokenization(self) -> PreTokenization:
        """How :meth:`pretokenize` cuts a text (views say it from this, never from the tokenizer's type)."""
        ...

    def pretokenize(self, text: str) -> list[str]:
        """The pieces of ``text`` BPE runs on, each encoded alone, as the tokenizer splits them (special
        tokens left out)."""
        ...

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of a token (char-level: its text as UTF-8); a bad id is a ValueError."""
        ...

    def token_text(self, token_id: int) -> str:
        """A token as text to show; a bad id is a ValueError."""
        ...

    def token_id(self, token: bytes | str) -> int | None:
        """The id of a token as :meth:`segment` cuts it (bytes byte-level, symbols char-level), else None."""
        ...

    def forget_encodings(self) -> None:
        """Let go of what encoding remembers between calls (for a server keeping many tokenizers)."""
        ...


if TYPE_CHECKING:  # mypy holds every tokenizer type to the shape (tests/test_types.py runs it over bpe_core)

    def _fill_the_shape(byte_level: Tokenizer, classic: ClassicTokenizer) -> list[TokenizerShape]:
        return [byte_level, classic]
