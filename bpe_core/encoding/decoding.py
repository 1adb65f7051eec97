"""Decoding: ids back to bytes and text, the part of a tokenizer that needs only its vocabulary."""

from __future__ import annotations

from collections.abc import Iterable


class Decoding:
    """What :class:`~bpe_core.encoding.tokenizer.Tokenizer` decodes with: ``_vocab``, every token's bytes by id."""

    _vocab: dict[int, bytes]

    @property
    def n_vocab(self) -> int:
        """One more than the highest id (tiktoken's ``n_vocab``; ids may have gaps)."""
        return max(self._vocab) + 1

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of one token; an id that is not an integer or not in the vocab is a ValueError.

        >>> from bpe_core import Tokenizer
        >>> Tokenizer({i: bytes([i]) for i in range(256)}, []).token_bytes(2**53)
        Traceback (most recent call last):
        ...
        ValueError: token id 9007199254740992 is not in this tokenizer (its ids run from 0 to 255)
        """
        if type(token_id) is not int:
            if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
                raise ValueError(f"token id {token_id!r} is not an integer ({type(token_id).__name__})")
            token_id = token_id.__index__()  # numpy integers and the like
        token = self._vocab.get(token_id)
        if token is None:
            raise ValueError(f"token id {token_id} is not in this tokenizer (its ids run from 0 to {self.n_vocab - 1})")
        return token

    def token_text(self, token_id: int) -> str:
        """A token as text to show: its UTF-8, a byte that is not valid there as ``\\xNN``.

        >>> from bpe_core import Tokenizer
        >>> Tokenizer({i: bytes([i]) for i in range(256)}, []).token_text(0xE4)
        '\\\\xe4'
        """
        return self.token_bytes(token_id).decode("utf-8", errors="backslashreplace")

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        """The bytes of each token (see :meth:`token_bytes` for the ids refused)."""
        if isinstance(ids, (str, bytes)):
            raise TypeError(f"ids must be an iterable of integers, not {type(ids).__name__}")
        ids = list(ids)
        vocab = self._vocab
        if all(type(token_id) is int for token_id in ids):
            try:
                return [vocab[token_id] for token_id in ids]  # the common case, at C speed
            except KeyError:
                pass  # the slow path below names the bad id
        return [self.token_bytes(token_id) for token_id in ids]

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The tokens' bytes joined (see :meth:`token_bytes` for the ids refused)."""
        return b"".join(self.decode_tokens_bytes(ids))

    def decode(self, ids: Iterable[int]) -> str:
        """Decode ids to text; bytes that are not valid UTF-8 become U+FFFD.

        >>> from bpe_core import Tokenizer
        >>> Tokenizer({i: bytes([i]) for i in range(256)}, []).decode([0xE4, 0xBD])
        '�'
        """
        return self.decode_bytes(ids).decode("utf-8", errors="replace")
