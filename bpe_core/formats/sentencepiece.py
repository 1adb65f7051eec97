"""SentencePiece ``.model`` files (``tokenizer.model`` of Llama 2, Mistral): a serialized ``ModelProto``.

The file is one protobuf message (read by :mod:`.protobuf`, without the ``protobuf`` package):

- field 1, repeated ``SentencePiece``: ``piece`` (1, string), ``score`` (2, float), ``type`` (3:
  NORMAL 1, UNKNOWN 2, CONTROL 3, USER_DEFINED 4, UNUSED 5, BYTE 6); the id is the position;
- field 2, ``TrainerSpec``: ``model_type`` (3; Unigram unless said), ``byte_fallback`` (35),
  ``treat_whitespace_as_suffix`` (24), ``unk_surface`` (44) and the training settings;
- field 3, ``NormalizerSpec``: ``name`` (1), ``precompiled_charsmap`` (2), ``add_dummy_prefix`` (3),
  ``remove_extra_whitespaces`` (4), ``escape_whitespaces`` (5); field 5, the denormalizer's.

Only BPE models are read: a Unigram, word or char model is a :class:`FormatError` naming its type,
as is a denormalizer (its rules would be needed to decode). Encoding follows SentencePiece's
(:mod:`bpe_core.encoding.sentencepiece`). A file is bounded at 256 MB and 4 M pieces; a length
larger than what is left of the file is an error, never a hang.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "t.model"
>>> _ = path.write_bytes(b"\\x0a\\x09\\x0a\\x05<unk>\\x18\\x02" + b"\\x12\\x02\\x18\\x01")
>>> try:
...     load_sentencepiece(path)
... except FormatError as error:
...     print(error.reason)
a SentencePiece Unigram model; only BPE models (model_type BPE) are read
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from ..encoding.sentencepiece import NormalizerSpec, Piece, PieceType, SentencePieceModel, SentencePieceTokenizer
from ..encoding.sentencepiece.model import TrainerSpec
from ._common import FormatError, PathLike
from .protobuf import (
    FIXED32,
    LENGTH_DELIMITED,
    VARINT,
    Field,
    ProtobufError,
    as_float,
    as_int32,
    read_message,
    read_varint,
    wire_type_name,
)

SENTENCEPIECE_FILENAME = "tokenizer.model"
MAX_FILE_BYTES = 256 << 20
MAX_PIECES = 1 << 22

# field number -> (attribute, kind) for the specs' fields encoding reads; the others are skipped.
_TRAINER_FIELDS: dict[int, tuple[str, str]] = {
    3: ("model_type", "int32"),
    4: ("vocab_size", "int32"),
    20: ("max_sentencepiece_length", "int32"),
    21: ("split_by_unicode_script", "bool"),
    22: ("split_by_whitespace", "bool"),
    23: ("split_by_number", "bool"),
    24: ("treat_whitespace_as_suffix", "bool"),
    25: ("split_digits", "bool"),
    26: ("allow_whitespace_only_pieces", "bool"),
    30: ("control_symbols", "strings"),
    31: ("user_defined_symbols", "strings"),
    35: ("byte_fallback", "bool"),
    44: ("unk_surface", "string"),
}
_NORMALIZER_FIELDS: dict[int, tuple[str, str]] = {
    1: ("name", "string"),
    2: ("precompiled_charsmap", "bytes"),
    3: ("add_dummy_prefix", "bool"),
    4: ("remove_extra_whitespaces", "bool"),
    5: ("escape_whitespaces", "bool"),
}
_WIRE_TYPES = {
    "int32": VARINT,
    "bool": VARINT,
    "string": LENGTH_DELIMITED,
    "strings": LENGTH_DELIMITED,
    "bytes": LENGTH_DELIMITED,
}


def looks_like_sentencepiece(head: bytes) -> bool:
    """Whether a file's first bytes are a ``ModelProto``: a first piece (field 1) that parses as one.

    >>> looks_like_sentencepiece(b"\\x0a\\x09\\x0a\\x05<unk>\\x18\\x02\\x0a"), looks_like_sentencepiece(b'{"model"')
    (True, False)
    """
    if head[:1] != b"\x0a":
        return False
    try:
        length, offset = read_varint(head, 1, len(head))
        if not 0 < length <= len(head) - offset:  # a piece is short: the first fits in the first 4 KB
            return False
        inner = read_message(head, offset, offset + length)
    except ProtobufError:
        return False
    allowed = {1: LENGTH_DELIMITED, 2: FIXED32, 3: VARINT}
    return inner[0].number == 1 and all(allowed.get(found.number) == found.wire_type for found in inner)


def load_sentencepiece(path: PathLike, *, name: str | None = None) -> SentencePieceTokenizer:
    """Load a SentencePiece BPE ``.model`` file; anything it cannot honour exactly is a FormatError."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    if size > MAX_FILE_BYTES:
        raise FormatError(
            path, f"{size:,} bytes, more than the {MAX_FILE_BYTES >> 20} MB a SentencePiece model may have here"
        )
    return parse_sentencepiece(path.read_bytes(), source=path, name=name)


def parse_sentencepiece(
    data: bytes, *, source: PathLike = "<bytes>", name: str | None = None
) -> SentencePieceTokenizer:
    """A :class:`SentencePieceTokenizer` from a ``.model`` file's bytes."""
    model = read_model(data, source)
    try:
        return SentencePieceTokenizer(model, name=name)
    except ValueError as error:  # what the model holds that SentencePiece or this library refuses
        raise FormatError(source, str(error)) from None


def read_model(data: bytes, source: PathLike = "<bytes>") -> SentencePieceModel:
    """The ``ModelProto`` in ``data`` as plain data (nothing checked beyond the file's structure)."""
    top = _read(data, source, "the file")
    pieces: list[Piece] = []
    specs: dict[int, list[bytes]] = {2: [], 3: [], 5: []}
    for found in top:
        if found.number == 1 or found.number in specs:
            value = _bytes_field(found, source, "ModelProto")
            if found.number == 1:
                if len(pieces) >= MAX_PIECES:
                    raise FormatError(source, f"more than {MAX_PIECES:,} pieces", field="pieces")
                pieces.append(_piece(value, source, len(pieces)))
            else:
                specs[found.number].append(value)  # a message given twice is merged, as protobuf does
    trainer = TrainerSpec(**_spec(b"".join(specs[2]), _TRAINER_FIELDS, source, "trainer_spec"))
    normalizer = NormalizerSpec(**_spec(b"".join(specs[3]), _NORMALIZER_FIELDS, source, "normalizer_spec"))
    denormalizer = None
    if specs[5]:
        denormalizer = NormalizerSpec(**_spec(b"".join(specs[5]), _NORMALIZER_FIELDS, source, "denormalizer_spec"))
    return SentencePieceModel(tuple(pieces), trainer, normalizer, denormalizer)


def _read(data: bytes, source: PathLike, what: str) -> list[Field]:
    try:
        return read_message(data)
    except ProtobufError as error:
        # What went wrong comes first in plain words; where in the bytes, for whoever debugs a writer, after it.
        raise FormatError(
            source, f"not a SentencePiece model: its bytes do not read as one ({what}, at {error})"
        ) from None


def _bytes_field(found: Field, source: PathLike, message: str) -> bytes:
    if not isinstance(found.value, bytes) or found.wire_type != LENGTH_DELIMITED:
        kind = wire_type_name(found.wire_type)
        raise FormatError(source, f"holds {kind} where a message or string belongs", field=f"{message}.{found.number}")
    return found.value


_PIECE_TYPES = {int(kind): kind for kind in PieceType}
_FLOAT = struct.Struct("<f")


def _piece(data: bytes, source: PathLike, index: int) -> Piece:
    # The layout every writer uses (piece, score, type; short piece, one-byte type) read directly.
    size = len(data)
    if size >= 2 and data[0] == 0x0A and data[1] < 0x80 and 2 + data[1] <= size:
        end = 2 + data[1]
        score, kind = 0.0, 1
        if end + 5 <= size and data[end] == 0x15:
            score = _FLOAT.unpack_from(data, end + 1)[0]
            end += 5
        if end + 2 <= size and data[end] == 0x18 and data[end + 1] < 0x80:
            kind = data[end + 1]
            end += 2
        if end == size and kind in _PIECE_TYPES:
            try:
                return Piece(data[2 : 2 + data[1]].decode("utf-8"), score, _PIECE_TYPES[kind])
            except UnicodeDecodeError:
                pass  # the general reader below names the field
    return _any_piece(data, source, index)


def _any_piece(data: bytes, source: PathLike, index: int) -> Piece:
    where = f"pieces[{index}]"
    text, score, kind = "", 0.0, int(PieceType.NORMAL)
    for found in _read(data, source, where):
        if found.number == 1:
            text = _text(_bytes_field(found, source, where), source, f"{where}.piece")
        elif found.number == 2:
            if found.wire_type != FIXED32 or not isinstance(found.value, bytes):
                raise FormatError(
                    source, f"holds {wire_type_name(found.wire_type)}, not a float", field=f"{where}.score"
                )
            score = as_float(found.value)
        elif found.number == 3:
            kind = _varint(found, source, f"{where}.type")
    if kind not in _PIECE_TYPES:
        kinds = "NORMAL 1, UNKNOWN 2, CONTROL 3, USER_DEFINED 4, UNUSED 5, BYTE 6"
        raise FormatError(source, f"type {kind} is none of {kinds}", field=f"{where}.type")
    return Piece(text, score, _PIECE_TYPES[kind])


def _spec(data: bytes, known: dict[int, tuple[str, str]], source: PathLike, message: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for found in _read(data, source, message):
        entry = known.get(found.number)
        if entry is None:
            continue
        attribute, kind = entry
        where = f"{message}.{attribute}"
        if found.wire_type != _WIRE_TYPES[kind]:
            raise FormatError(source, f"holds {wire_type_name(found.wire_type)}, not a {kind}", field=where)
        if kind == "int32":
            values[attribute] = as_int32(_varint(found, source, where))
        elif kind == "bool":
            values[attribute] = _varint(found, source, where) != 0
        elif kind == "bytes":
            values[attribute] = _bytes_field(found, source, message)
        else:
            text = _text(_bytes_field(found, source, message), source, where)
            if kind == "strings":
                values[attribute] = (*values.get(attribute, ()), text)
            else:
                values[attribute] = text
    return values


def _varint(found: Field, source: PathLike, where: str) -> int:
    if found.wire_type != VARINT or not isinstance(found.value, int):
        raise FormatError(source, f"holds {wire_type_name(found.wire_type)}, not a number", field=where)
    return found.value


def _text(data: bytes, source: PathLike, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(source, f"not valid UTF-8 (byte {error.start})", field=where) from None
