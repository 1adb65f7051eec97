"""A training trace kept compact: columns of integers instead of a list of objects.

A ``bpe_core.MergeRecord`` with its five runner-ups is about 1 KB of Python objects; a room of 30 people at
vocab 32,000 would hold a gigabyte of them. :class:`PackedTrace` keeps each merge as four integers plus three
per runner-up (about 90 bytes) and makes a record only when one is read (``trace[k]``, iteration), so pages
read records as they always did. The same columns travel back from the job process that trained, and are
what the workspace store keeps on disk (:meth:`PackedTrace.to_bytes`).

Symbols are named by id: the merge of rank ``k`` makes symbol ``base + k`` out of two earlier symbols, and
``symbols[i]`` gives the bytes of symbol ``i`` (byte-level: the tokenizer's vocabulary; classic: its
characters and merged symbols as UTF-8, ``</w>`` included).

>>> import bpe_core
>>> result = bpe_core.train("aaabdaaabac", 259)
>>> packed = PackedTrace.from_records(result.trace, [result.vocab[i] for i in range(259)])
>>> list(packed) == result.trace, packed[-1].token
(True, b'aaab')
>>> list(PackedTrace.from_bytes(packed.to_bytes(), packed.symbols)) == result.trace
True
"""

from __future__ import annotations

import json
import struct
from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload

from bpe_core import Candidate, MergeRecord

_COLUMNS = ("left", "right", "count", "replaced", "runner_ups", "runner_left", "runner_right", "runner_count")
_HEADER = struct.Struct("<I")


def _counts(values: list[int]) -> array:
    """Counts as 4-byte integers, or 8-byte ones when a corpus is big enough to need them."""
    return array("I" if max(values, default=0) < 2**32 else "Q", values)


class PackedTrace(Sequence[MergeRecord]):
    """The records of one training run, as columns (see the module docstring)."""

    def __init__(self, base: int, columns: dict[str, array], symbols: Sequence[bytes]):
        self.base = base
        self.columns = columns
        self.symbols = symbols
        self._starts = array("Q", accumulate(columns["runner_ups"], initial=0))  # each record's first runner-up

    @classmethod
    def from_records(cls, records: Sequence[MergeRecord], symbols: Sequence[bytes]) -> PackedTrace:
        """The columns of ``records`` (merge k must make symbol ``base + k``, as every trainer here does)."""
        base = records[0].new_id if records else len(symbols)
        if any(record.new_id != base + rank for rank, record in enumerate(records)):
            raise ValueError("the records do not make symbols base, base + 1, ... in order")
        first_id: dict[bytes, int] = {}
        for identifier, symbol in enumerate(symbols):
            first_id.setdefault(symbol, identifier)  # two merges may make the same bytes: either id names them
        runners = [candidate for record in records for candidate in record.candidates]
        columns = {
            "left": array("I", (record.left_id for record in records)),
            "right": array("I", (record.right_id for record in records)),
            "count": _counts([record.count for record in records]),
            "replaced": _counts([record.replaced for record in records]),
            "runner_ups": array("B", (len(record.candidates) for record in records)),
            "runner_left": array("I", (first_id[candidate.left] for candidate in runners)),
            "runner_right": array("I", (first_id[candidate.right] for candidate in runners)),
            "runner_count": _counts([candidate.count for candidate in runners]),
        }
        return cls(base, columns, symbols)

    def __len__(self) -> int:
        return len(self.columns["left"])

    @overload
    def __getitem__(self, index: int) -> MergeRecord: ...
    @overload
    def __getitem__(self, index: slice) -> list[MergeRecord]: ...
    def __getitem__(self, index: int | slice) -> MergeRecord | list[MergeRecord]:
        if isinstance(index, slice):
            return [self._record(rank) for rank in range(*index.indices(len(self)))]
        rank = index + len(self) if index < 0 else index
        if not 0 <= rank < len(self):
            raise IndexError(f"merge {index} of {len(self)}")
        return self._record(rank)

    def __iter__(self) -> Iterator[MergeRecord]:
        return map(self._record, range(len(self)))

    def _record(self, rank: int) -> MergeRecord:
        columns, symbols = self.columns, self.symbols
        left, right = columns["left"][rank], columns["right"][rank]
        first = self._starts[rank]
        runners = range(first, first + columns["runner_ups"][rank])
        return MergeRecord(
            rank=rank,
            new_id=self.base + rank,
            left_id=left,
            right_id=right,
            left=symbols[left],
            right=symbols[right],
            count=columns["count"][rank],
            replaced=columns["replaced"][rank],
            candidates=tuple(
                Candidate(
                    symbols[columns["runner_left"][i]], symbols[columns["runner_right"][i]], columns["runner_count"][i]
                )
                for i in runners
            ),
        )

    @property
    def counts(self) -> Sequence[int]:
        """Each merge's pair count, without making records (the Merges page's chart)."""
        return self.columns["count"]

    def merges(self) -> list[tuple[int, int]]:
        """(left id, right id) of each merge: with the base symbols, they rebuild every symbol."""
        return list(zip(self.columns["left"], self.columns["right"]))

    # -- on disk ------------------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The columns as bytes (little-endian), behind a short JSON header; symbols are not included."""
        header = json.dumps(
            {
                "base": self.base,
                "columns": [[name, self.columns[name].typecode, len(self.columns[name])] for name in _COLUMNS],
            }
        )
        parts = [_HEADER.pack(len(header)), header.encode()]
        for name in _COLUMNS:
            column = array(self.columns[name].typecode, self.columns[name])
            if struct.pack("=I", 1) != struct.pack("<I", 1):  # a big-endian machine writes little-endian too
                column.byteswap()
            parts.append(column.tobytes())
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes, symbols: Sequence[bytes] | None = None) -> PackedTrace:
        """The trace :meth:`to_bytes` wrote; ``symbols`` may be given later (:meth:`with_symbols`)."""
        (size,) = _HEADER.unpack_from(data)
        header = json.loads(data[_HEADER.size : _HEADER.size + size])
        offset, columns = _HEADER.size + size, {}
        for name, typecode, length in header["columns"]:
            column = array(typecode)
            end = offset + length * column.itemsize
            column.frombytes(data[offset:end])
            if struct.pack("=I", 1) != struct.pack("<I", 1):
                column.byteswap()
            columns[name], offset = column, end
        # A stored trace cut short or edited would read back as fewer records and fail later, in the player.
        records, runners = len(columns.get("left", ())), sum(columns.get("runner_ups", ()))
        lengths = {name: len(columns.get(name, ())) for name in _COLUMNS}
        per_runner = ("runner_left", "runner_right", "runner_count")
        expected = {name: runners if name in per_runner else records for name in _COLUMNS}
        if offset != len(data) or lengths != expected or not isinstance(header["base"], int):
            raise ValueError("the stored merge trace is damaged: its columns do not agree with its header")
        return cls(header["base"], columns, symbols or [])

    def with_symbols(self, symbols: Sequence[bytes]) -> PackedTrace:
        return PackedTrace(self.base, self.columns, symbols)

    def __reduce__(self) -> tuple:
        # Pickled (from the job process that trained) as its bytes and symbols: a fraction of the records' size.
        return (PackedTrace.from_bytes, (self.to_bytes(), list(self.symbols)))
