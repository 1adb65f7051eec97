"""A SentencePiece ``precompiled_charsmap``: normalization rules (``nmt_nfkc`` and the like) in a trie.

The blob is ``<trie size: uint32 little-endian><darts-clone double array><replacement strings>``.
The double array maps UTF-8 byte strings to an offset into the replacement strings (each ends at
a NUL byte). At each position SentencePiece takes the longest rule whose key is a prefix of what
is left of the text, and replaces that prefix by the rule's string; with no rule it keeps one
character. :meth:`Charsmap.longest_match` walks the array exactly as darts-clone's
``commonPrefixSearch`` does, so the rules applied are SentencePiece's own, read from the file.

A double-array unit is 32 bits: bit 8 says a key ends below it, bits 0-7 (with bit 31) are the
label a walk must find, and the offset to its children is ``(unit >> 10) << ((unit & 512) >> 6)``.
"""

from __future__ import annotations

import sys
from array import array

# A walk reads at most this many bytes: real rules are short (the longest key of nmt_nfkc, nfkc and their
# _cf variants is 12 bytes), and a stranger's trie must not make each position cost the rest of the text.
MAX_KEY_BYTES = 1024


class Charsmap:
    """Normalization rules read from a ``precompiled_charsmap`` blob; a malformed blob is a ValueError.

    >>> Charsmap(b"\\x00\\x00\\x00")
    Traceback (most recent call last):
    ...
    ValueError: the precompiled_charsmap is broken: 3 bytes, too short to hold its trie's size
    """

    def __init__(self, blob: bytes):
        if len(blob) <= 4:
            raise ValueError(
                f"the precompiled_charsmap is broken: {len(blob)} bytes, too short to hold its trie's size"
            )
        trie_size = int.from_bytes(blob[:4], "little")
        if trie_size >= len(blob) or trie_size % 4 or trie_size == 0:
            raise ValueError(
                f"the precompiled_charsmap is broken: its trie says {trie_size} bytes in a blob of {len(blob)}"
            )
        units = array("I")
        if units.itemsize != 4:  # pragma: no cover - no platform Python supports has another
            raise ValueError("this platform's unsigned int is not 32 bits")
        units.frombytes(blob[4 : 4 + trie_size])
        if sys.byteorder == "big":  # pragma: no cover - the blob is little-endian
            units.byteswap()
        self._units = units
        self._strings = blob[4 + trie_size :]
        self._replacements: dict[int, str] = {}

    def longest_match(self, data: bytes, start: int) -> tuple[int, str] | None:
        """The longest rule matching ``data`` at ``start``: (its length in bytes, its replacement), or None."""
        units = self._units
        size = len(units)
        node = units[0] >> 10 << ((units[0] & 512) >> 6)
        best: tuple[int, int] | None = None
        for index in range(start, min(len(data), start + MAX_KEY_BYTES)):
            byte = data[index]
            node ^= byte
            if node >= size:
                break
            unit = units[node]
            if unit & 0x800000FF != byte:
                break
            node ^= unit >> 10 << ((unit & 512) >> 6)
            if unit & 256:
                if node >= size:
                    break
                best = (index + 1 - start, units[node] & 0x7FFFFFFF)
        if best is None:
            return None
        if start + best[0] < len(data) and 0x80 <= data[start + best[0]] < 0xC0:
            raise ValueError("the precompiled_charsmap is broken: a rule's key ends inside a character")
        return best[0], self._replacement(best[1])

    def _replacement(self, offset: int) -> str:
        found = self._replacements.get(offset)
        if found is None:
            if offset >= len(self._strings):
                raise ValueError(f"the precompiled_charsmap is broken: a rule points past its strings ({offset})")
            end = self._strings.find(b"\0", offset)
            raw = self._strings[offset : end if end >= 0 else len(self._strings)]
            try:
                found = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"the precompiled_charsmap is broken: rule {offset} is not UTF-8") from None
            self._replacements[offset] = found
        return found

    def can_start(self, prefix: bytes) -> bool:
        """Whether some rule's key might start with ``prefix`` (the walk reads all of it without a miss)."""
        units = self._units
        size = len(units)
        node = units[0] >> 10 << ((units[0] & 512) >> 6)
        for byte in prefix:
            node ^= byte
            if node >= size or units[node] & 0x800000FF != byte:
                return False
            node ^= units[node] >> 10 << ((units[node] & 512) >> 6)
        return True

    def next_characters(self, prefix: bytes) -> set[str]:
        """Every character whose bytes a walk that has read ``prefix`` can read next (empty if none)."""
        units = self._units
        size = len(units)
        node = units[0] >> 10 << ((units[0] & 512) >> 6)
        for byte in prefix:
            node ^= byte
            if node >= size or units[node] & 0x800000FF != byte:
                return set()
            node ^= units[node] >> 10 << ((units[node] & 512) >> 6)
        found: set[str] = set()
        stack: list[tuple[int, bytes]] = [(node, b"")]
        while stack:
            node, read = stack.pop()
            if read and len(read) == _utf8_length(read[0]):
                found.update(read.decode("utf-8", errors="ignore"))
                continue
            for byte in range(0x80, 0xC0) if read else range(1, 0x100):
                child = node ^ byte
                if child < size and units[child] & 0x800000FF == byte:
                    stack.append((child ^ (units[child] >> 10 << ((units[child] & 512) >> 6)), read + bytes([byte])))
        return found


def _utf8_length(lead: int) -> int:
    return 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
