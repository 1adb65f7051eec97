"""Ids back to text, as SentencePiece's ``Decode`` does.

- A CONTROL piece (``<s>``, ``</s>``, ``[INST]``...) decodes to nothing; ``<unk>`` to the model's
  ``unk_surface`` (`` ⁇ `` by default).
- A run of ``<0xXX>`` byte pieces is read as UTF-8, each byte that does not start a valid character
  becoming one U+FFFD (so two bytes of a three-byte character give two U+FFFD: SentencePiece's
  rule, not Python's ``errors="replace"``, which gives one).
- Every other piece is its text with ▁ as a space, except that the first piece's leading ▁ (the
  dummy prefix) is dropped when the model adds a dummy prefix or removes extra whitespace; with
  ``remove_extra_whitespaces`` every piece's leading ▁ is dropped until some text has come out.

>>> import codecs
>>> _sentencepiece_utf8(b"a\\xe4\\xbd")
'a\\ufffd\\ufffd'
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from .model import SPACE_SYMBOL, Piece, PieceType, SentencePieceModel, byte_of_piece

_ERRORS = "bpe_core.sentencepiece"


def _one_replacement_per_byte(error: UnicodeError) -> tuple[str, int]:
    # SentencePiece replaces the first byte of an invalid sequence and tries again at the next byte.
    assert isinstance(error, UnicodeDecodeError)
    return "\ufffd", error.start + 1


codecs.register_error(_ERRORS, _one_replacement_per_byte)


def _sentencepiece_utf8(data: bytes) -> str:
    return data.decode("utf-8", errors=_ERRORS)


class Decoder:
    """Decodes ids of one model; ``ids`` are checked by the caller."""

    def __init__(self, model: SentencePieceModel, effective_types: Sequence[PieceType]):
        self._pieces: list[Piece] = list(model.pieces)
        self._types = effective_types
        self._unk_surface = model.trainer.unk_surface
        spec = model.normalizer
        self._strip_first = spec.add_dummy_prefix or spec.remove_extra_whitespaces
        self._strip_until_text = spec.remove_extra_whitespaces
        self._byte: list[int] = [
            byte if (byte := byte_of_piece(entry.piece)) is not None else -1 for entry in model.pieces
        ]

    def parts(self, ids: Sequence[int]) -> list[str | bytes]:
        """The decoded text in order: strings, and ``bytes`` for each run of byte pieces."""
        out: list[str | bytes] = []
        run = bytearray()
        is_bos_ws = True
        bos_ws_seen = False
        have_text = False
        types = self._types
        for identifier in ids:
            kind = types[identifier]
            if kind == PieceType.BYTE:
                run.append(self._byte[identifier])
                continue
            if run:
                out.append(bytes(run))
                run.clear()
                have_text = True
            if bos_ws_seen or have_text:
                is_bos_ws = False
            if kind == PieceType.CONTROL:
                text, bos_ws_seen = "", False
            elif kind == PieceType.UNKNOWN:
                text, bos_ws_seen = self._unk_surface, False
            else:
                text, bos_ws_seen = self._piece_text(self._pieces[identifier].piece, is_bos_ws)
            if text:
                out.append(text)
                have_text = True
        if run:
            out.append(bytes(run))
        return out

    def _piece_text(self, piece: str, is_bos_ws: bool) -> tuple[str, bool]:
        has_bos_ws = False
        if is_bos_ws and self._strip_first and piece.startswith(SPACE_SYMBOL):
            piece = piece[1:]
            has_bos_ws = not self._strip_until_text
        return piece.replace(SPACE_SYMBOL, " "), has_bos_ws

    def decode(self, ids: Sequence[int]) -> str:
        """The text, byte runs read as SentencePiece reads them."""
        return "".join(part if isinstance(part, str) else _sentencepiece_utf8(part) for part in self.parts(ids))

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The text's UTF-8 bytes, byte pieces' bytes as they are (no U+FFFD)."""
        return b"".join(part.encode("utf-8") if isinstance(part, str) else part for part in self.parts(ids))
