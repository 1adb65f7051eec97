"""Encoding a stream of text (a file's lines, say) lazily, in bounded memory, with the ids ``encode`` gives."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..pretokenize import Normalization, normalize_stream, stream_pretokens
from .fast import PieceEncoder


class StreamEncoding:
    """``encode_iterable`` and ``encode_iterable_batches`` for :class:`~bpe_core.encoding.tokenizer.Tokenizer`, from its
    special tokens, normalization, pattern and piece encoder."""

    _special_ids: dict[str, int]
    _pieces: PieceEncoder
    normalization: Normalization | None
    pattern: str | None

    def encode_iterable(self, texts: Iterable[str]) -> Iterator[int]:
        """Encode a stream of text (e.g. a file's lines) lazily, giving the ids ``encode`` would.

        Linear time and bounded memory on any text for the named patterns (see
        :mod:`bpe_core.pretokenize.streaming` for why it is exact, and for custom patterns). With no
        pre-tokenization (pattern None) the text between special tokens is one pre-token and is
        held whole until it ends.

        >>> from bpe_core import Tokenizer
        >>> tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<s>"])
        >>> list(tokenizer.encode_iterable(["a<", "s>b"]))
        [97, 256, 98]
        """
        for ids in self.encode_iterable_batches(texts):
            yield from ids

    def encode_iterable_batches(self, texts: Iterable[str]) -> Iterator[list[int]]:
        """:meth:`encode_iterable`'s ids, a list at a time (about one per 64K characters read): for
        a caller that writes them out, a Python step per id would cost more than encoding them."""
        special_ids = self._special_ids
        if self.normalization is not None:
            texts = normalize_stream(texts, self.normalization)
        for pieces, special in stream_pretokens(texts, self.pattern, special_ids):
            ids = self._pieces.encode_pieces(pieces)
            if special is not None:
                ids.append(special_ids[special])
            yield ids
