"""What a SentencePiece model holds, as plain data: its pieces and the two specs encoding reads.

A file reader (:mod:`bpe_core.formats.sentencepiece`) fills these from a ``.model`` file;
:func:`check_model` then refuses, as SentencePiece does when it loads a model, what SentencePiece
itself would refuse (no ``<unk>``, a piece listed twice, byte pieces missing while byte fallback is
on), and what this library cannot honour exactly (a model type other than BPE, a denormalizer).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

SPACE_SYMBOL = "\u2581"  # ▁, what SentencePiece writes a space as inside pieces


class PieceType(enum.IntEnum):
    """A piece's type, numbered as in ``sentencepiece_model.proto``."""

    NORMAL = 1
    UNKNOWN = 2
    CONTROL = 3
    USER_DEFINED = 4
    UNUSED = 5
    BYTE = 6


# The types encoding may merge into (SentencePiece's ``pieces_``); the others are looked up only by name.
MERGEABLE_TYPES = frozenset({PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED})


@dataclass(frozen=True)
class Piece:
    """One vocabulary entry: its text (spaces as ▁), score (higher merges first) and type."""

    piece: str
    score: float = 0.0
    type: PieceType = PieceType.NORMAL


@dataclass(frozen=True)
class NormalizerSpec:
    """How text is normalized before encoding (defaults as in ``sentencepiece_model.proto``)."""

    name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True


@dataclass(frozen=True)
class TrainerSpec:
    """The training settings; encoding reads only a few of them (model type, byte fallback, whitespace side)."""

    model_type: int = 1  # 1 unigram (the proto's default), 2 BPE, 3 word, 4 char
    vocab_size: int = 8000
    byte_fallback: bool = False
    split_digits: bool = False
    split_by_whitespace: bool = True
    split_by_number: bool = True
    split_by_unicode_script: bool = True
    treat_whitespace_as_suffix: bool = False
    allow_whitespace_only_pieces: bool = False
    max_sentencepiece_length: int = 16
    unk_surface: str = " \u2047 "  # " ⁇ ", what decoding writes for <unk>
    user_defined_symbols: tuple[str, ...] = ()
    control_symbols: tuple[str, ...] = ()


MODEL_TYPE_NAMES = {1: "Unigram", 2: "BPE", 3: "word", 4: "char"}


@dataclass(frozen=True)
class SentencePieceModel:
    """A whole model: pieces in id order, the trainer and normalizer specs, and the denormalizer's if any."""

    pieces: tuple[Piece, ...]
    trainer: TrainerSpec = field(default_factory=TrainerSpec)
    normalizer: NormalizerSpec = field(default_factory=NormalizerSpec)
    denormalizer: NormalizerSpec | None = None


def byte_of_piece(piece: str) -> int | None:
    """The byte a ``<0xXX>`` piece stands for, or None if the piece is not written that way.

    >>> byte_of_piece("<0x0A>"), byte_of_piece("<0x0a>"), byte_of_piece("a")
    (10, None, None)
    """
    if len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
        digits = piece[3:5]
        if all(c in "0123456789ABCDEF" for c in digits):
            return int(digits, 16)
    return None


def check_model(model: SentencePieceModel) -> None:
    """Refuse (ValueError, saying what and what is allowed) a model this library cannot encode exactly.

    >>> check_model(SentencePieceModel((Piece("a"), Piece("a")), TrainerSpec(model_type=2)))
    Traceback (most recent call last):
    ...
    ValueError: piece 1 ('a') is listed twice; SentencePiece refuses that too
    """
    kind = MODEL_TYPE_NAMES.get(model.trainer.model_type, f"type {model.trainer.model_type}")
    if model.trainer.model_type != 2:
        raise ValueError(f"a SentencePiece {kind} model; only BPE models (model_type BPE) are read")
    if model.denormalizer is not None and model.denormalizer.precompiled_charsmap:
        name = model.denormalizer.name or "unnamed"
        raise ValueError(f"the model has a denormalizer ({name!r}), which decoding would need and this library lacks")
    names: set[str] = set()
    unknown = 0
    bytes_found: set[int] = set()
    for identifier, entry in enumerate(model.pieces):
        if not entry.piece:
            raise ValueError(f"piece {identifier} is empty; SentencePiece refuses empty pieces")
        if entry.piece in names:  # of any two types (a CONTROL "a" and a NORMAL "a"): "a is already defined"
            raise ValueError(f"piece {identifier} ({entry.piece!r}) is listed twice; SentencePiece refuses that too")
        names.add(entry.piece)
        if entry.score != entry.score:  # NaN: no order among the merges; SentencePiece's queue gives no defined one
            raise ValueError(f"piece {identifier} ({entry.piece!r}) has no score (NaN): merges cannot be ordered")
        unknown += entry.type == PieceType.UNKNOWN
        if entry.type == PieceType.BYTE:
            byte = byte_of_piece(entry.piece)
            if not model.trainer.byte_fallback:
                raise ValueError(f"byte piece {entry.piece!r} although byte_fallback is off")
            if byte is None:
                raise ValueError(f"piece {identifier} ({entry.piece!r}) is of type BYTE but not written <0xXX>")
            bytes_found.add(byte)
    if unknown != 1:
        if unknown == 0:
            raise ValueError(
                "the model has no <unk> piece (a piece of type UNKNOWN), which this library needs"
                + ("" if model.trainer.byte_fallback else "; SentencePiece refuses such a model too")
            )
        raise ValueError(f"the model has {unknown} pieces of type UNKNOWN; SentencePiece allows one")
    if model.trainer.byte_fallback and len(bytes_found) != 256:
        raise ValueError(f"byte_fallback is on but only {len(bytes_found)} of the 256 byte pieces <0x00>..<0xFF> exist")
