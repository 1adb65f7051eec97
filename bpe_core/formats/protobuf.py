"""A small reader of the protobuf wire format: enough to read a SentencePiece ``.model`` file.

A message is a sequence of fields, each a key (``field_number << 3 | wire_type``, a varint) and a
value: a varint (wire type 0), 8 bytes (1), a length-delimited run of bytes (2: strings, bytes and
embedded messages) or 4 bytes (5: ``float``). Groups (3, 4) are long deprecated and refused.

The bytes are a stranger's: every length is checked against what is left of its message before
anything is read, a varint is at most 10 bytes, and a truncated field is a :class:`ProtobufError`
saying where, never a hang or an ``IndexError``.

>>> [(f.number, f.value) for f in read_message(b"\\x0a\\x03abc\\x10\\x96\\x01")]
[(1, b'abc'), (2, 150)]
"""

from __future__ import annotations

import struct
from typing import NamedTuple

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
_WIRE_TYPE_NAMES = {
    VARINT: "a varint",
    FIXED64: "8 bytes",
    LENGTH_DELIMITED: "length-delimited bytes",
    FIXED32: "4 bytes",
}
_MAX_VARINT_BYTES = 10


class ProtobufError(ValueError):
    """The bytes are not a well-formed protobuf message; the message says at which offset."""


class Field(NamedTuple):
    """One field of a message: its number, wire type, value (an int, or bytes) and where it started."""

    number: int
    wire_type: int
    value: int | bytes
    offset: int


def read_varint(data: bytes, offset: int, end: int) -> tuple[int, int]:
    """The unsigned varint at ``offset`` and the offset after it.

    >>> read_varint(b"\\x96\\x01", 0, 2)
    (150, 2)
    >>> read_varint(b"\\x96", 0, 1)
    Traceback (most recent call last):
    ...
    bpe_core.formats.protobuf.ProtobufError: offset 0: a varint runs past the end of its message
    """
    result = shift = 0
    start = offset
    while True:
        if offset >= end:
            raise ProtobufError(f"offset {start}: a varint runs past the end of its message")
        if offset - start >= _MAX_VARINT_BYTES:
            raise ProtobufError(f"offset {start}: a varint longer than {_MAX_VARINT_BYTES} bytes")
        byte = data[offset]
        offset += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, offset
        shift += 7


def read_message(data: bytes, start: int = 0, end: int | None = None) -> list[Field]:
    """The fields of the message in ``data[start:end]``, in order (offsets are into ``data``)."""
    end = len(data) if end is None else end
    fields: list[Field] = []
    offset = start
    while offset < end:
        field_start = offset
        key = data[offset]
        if key < 0x80:  # the common one-byte key, read inline: a model has a hundred thousand fields
            offset += 1
        else:
            key, offset = read_varint(data, offset, end)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise ProtobufError(f"offset {field_start}: field number 0 (not a protobuf message)")
        value: int | bytes
        if wire_type == VARINT:
            value, offset = read_varint(data, offset, end)
        elif wire_type in (FIXED64, FIXED32):
            size = 8 if wire_type == FIXED64 else 4
            if offset + size > end:
                raise ProtobufError(f"offset {field_start}: field {number} needs {size} bytes, {end - offset} are left")
            value = data[offset : offset + size]
            offset += size
        elif wire_type == LENGTH_DELIMITED:
            if offset < end and data[offset] < 0x80:
                length = data[offset]
                offset += 1
            else:
                length, offset = read_varint(data, offset, end)
            if length > end - offset:
                raise ProtobufError(
                    f"offset {field_start}: field {number} says {length} bytes, only {end - offset} are left"
                )
            value = data[offset : offset + length]
            offset += length
        else:
            raise ProtobufError(
                f"offset {field_start}: field {number} of wire type {wire_type}, which SentencePiece never writes"
            )
        fields.append(Field(number, wire_type, value, field_start))
    return fields


def wire_type_name(wire_type: int) -> str:
    """What a wire type holds, for an error message."""
    return _WIRE_TYPE_NAMES.get(wire_type, f"wire type {wire_type}")


def as_int32(value: int) -> int:
    """A varint read as a protobuf ``int32`` (negative numbers are sent as 64-bit two's complement).

    >>> as_int32(2**64 - 1), as_int32(7)
    (-1, 7)
    """
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def as_float(value: bytes) -> float:
    """4 bytes read as a protobuf ``float`` (little-endian IEEE 754 single precision).

    >>> as_float(b"\\x00\\x00\\x80\\xbf")
    -1.0
    """
    return float(struct.unpack("<f", value)[0])
