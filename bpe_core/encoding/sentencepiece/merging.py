"""SentencePiece's BPE rule on normalized text: characters merged by piece score, exactly as ``bpe_model.cc``.

1. The normalized text is cut into symbols: a user-defined symbol (longest first) is one symbol
   that never merges; every other character is a symbol.
2. While some adjacent pair of symbols concatenates to a piece (of type NORMAL, USER_DEFINED or
   UNUSED), the pair whose piece has the highest score is merged; on equal scores the leftmost
   pair. (SentencePiece keeps a priority queue ordered by score, then left position; a queued pair
   that a merge has changed is skipped, so each step takes the best pair among the current ones.)
3. A final symbol that is an UNUSED piece is split back into the two symbols it was merged from,
   recursively.
4. Each symbol's id: a CONTROL/UNKNOWN/BYTE piece of that name first, else the piece, else
   ``<unk>``; a CONTROL or UNUSED piece's id is ``<unk>``'s (only a lone character, never merged,
   can be one). An unknown symbol becomes the ``<0xXX>`` pieces of its UTF-8 bytes when byte
   fallback is on; otherwise a run of unknown symbols is one ``<unk>``.

Merges never make a piece that is not in the vocabulary, so the text can be cut wherever no piece
crosses: :class:`MergeEncoder` cuts at space symbols when the vocabulary allows it (no piece holds
a space after another character, or, for whitespace-as-suffix models, before one) and encodes each
part once, remembering it. A cut changes nothing: pairs on either side never meet, and the order of
the merges within each part (score, then position) is the same.
"""

from __future__ import annotations

import heapq

import regex

from .model import MERGEABLE_TYPES, PieceType, SentencePieceModel, byte_of_piece
from .normalizer import symbol_matcher

_CACHE_LIMIT = 1 << 17  # parts remembered; the table is cleared when full


class MergeEncoder:
    """Encodes normalized text into ids with one model's pieces (see the module's docstring)."""

    def __init__(self, model: SentencePieceModel, space: str, dropped: frozenset[str] = frozenset()):
        pieces = model.pieces
        self._mergeable: dict[str, int] = {}
        self._reserved: dict[str, int] = {}
        for identifier, entry in enumerate(pieces):
            if entry.piece in dropped:  # cut off (a smaller vocabulary): as if the model did not list it
                continue
            table = self._mergeable if entry.type in MERGEABLE_TYPES else self._reserved
            table[entry.piece] = identifier
        self._score = {piece: pieces[identifier].score for piece, identifier in self._mergeable.items()}
        self._unused = {piece for piece, i in self._mergeable.items() if pieces[i].type == PieceType.UNUSED}
        self.unk_id = next(i for i, entry in enumerate(pieces) if entry.type == PieceType.UNKNOWN)
        # A symbol left as a CONTROL or UNUSED piece (one character, never merged) is unknown, as SentencePiece
        # gives it: <unk>, or its bytes under byte fallback.
        self._never_output = frozenset(
            i for i, entry in enumerate(pieces) if entry.type in (PieceType.CONTROL, PieceType.UNUSED)
        )
        self._byte_ids: list[int] | None = None
        if model.trainer.byte_fallback:
            byte_ids = [0] * 256
            for identifier, entry in enumerate(pieces):
                byte = byte_of_piece(entry.piece)
                if entry.type == PieceType.BYTE and byte is not None:
                    byte_ids[byte] = identifier
            self._byte_ids = byte_ids
        user = [entry.piece for entry in pieces if entry.type == PieceType.USER_DEFINED]
        self.user_symbols = symbol_matcher(user)
        self.parts = _part_pattern(self._mergeable, space)
        self._cache: dict[str, list[int]] = {}

    def id_of(self, piece: str) -> int:
        """SentencePiece's ``PieceToId``: a reserved piece of that name, else a mergeable one, else ``<unk>``."""
        found = self._reserved.get(piece)
        if found is None:
            found = self._mergeable.get(piece, self.unk_id)
        return found

    def split(self, normalized: str) -> list[tuple[str, bool]]:
        """The normalized text as (part, frozen): user-defined symbols frozen, the rest in parts no piece crosses."""
        out: list[tuple[str, bool]] = []
        start = 0
        if self.user_symbols is not None:
            for found in self.user_symbols.finditer(normalized):
                self._split_stretch(normalized[start : found.start()], out)
                out.append((found.group(), True))
                start = found.end()
        self._split_stretch(normalized[start:], out)
        return out

    def _split_stretch(self, stretch: str, out: list[tuple[str, bool]]) -> None:
        if not stretch:
            return
        if self.parts is None:
            out.append((stretch, False))
        else:
            out.extend((part, False) for part in self.parts.findall(stretch))

    def encode(self, normalized: str) -> list[int]:
        """The ids of a normalized text."""
        ids: list[int] = []
        cache = self._cache
        for part, frozen in self.split(normalized):
            if frozen:
                ids.append(self.id_of(part))
                continue
            found = cache.get(part)
            if found is None:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                found = cache[part] = self._encode_part(part)
            ids.extend(found)
        if self._byte_ids is None and self.unk_id in ids:
            unk = self.unk_id
            ids = [token for i, token in enumerate(ids) if token != unk or i == 0 or ids[i - 1] != unk]
        return ids

    def forget(self) -> None:
        """Let go of the remembered parts."""
        self._cache = {}

    def merge(self, part: str) -> list[str]:
        """The pieces a part (no user-defined symbols in it) merges into, UNUSED pieces split back."""
        symbols = list(part)
        count = len(symbols)
        score = self._score
        if count < 2:
            return symbols
        following = list(range(1, count + 1))
        following[-1] = -1
        preceding = list(range(-1, count - 1))
        queue: list[tuple[float, int, int, int]] = []
        origins: dict[str, tuple[str, str]] = {}  # an UNUSED piece made here -> the two symbols it was made of
        unused = self._unused

        def offer(left: int, right: int) -> None:
            merged = symbols[left] + symbols[right]
            found = score.get(merged)
            if found is not None:
                heapq.heappush(queue, (-found, left, right, len(merged)))
                if merged in unused:
                    origins[merged] = (symbols[left], symbols[right])

        for left in range(count - 1):
            offer(left, left + 1)
        while queue:
            _, left, right, size = heapq.heappop(queue)
            left_symbol, right_symbol = symbols[left], symbols[right]
            # A pair some merge has changed since it was queued: its symbols no longer add up to it.
            if not left_symbol or not right_symbol or len(left_symbol) + len(right_symbol) != size:
                continue
            symbols[left] = left_symbol + right_symbol
            symbols[right] = ""
            after = following[left] = following[right]
            if after >= 0:
                preceding[after] = left
            if preceding[left] >= 0:
                offer(preceding[left], left)
            if after >= 0:
                offer(left, after)
        merged = [symbol for symbol in symbols if symbol]
        if origins:
            merged = [piece for symbol in merged for piece in self._split_unused(symbol, origins)]
        return merged

    def _split_unused(self, symbol: str, origins: dict[str, tuple[str, str]]) -> list[str]:
        # As SentencePiece's resegment: by the symbol's id, and by the pair last offered for it.
        if self._reserved.get(symbol) is not None or symbol not in self._unused or symbol not in origins:
            return [symbol]
        left, right = origins[symbol]
        return self._split_unused(left, origins) + self._split_unused(right, origins)

    def _encode_part(self, part: str) -> list[int]:
        ids: list[int] = []
        unk = self.unk_id
        for piece in self.merge(part):
            identifier = self.id_of(piece)
            if identifier in self._never_output:
                identifier = unk
            if identifier == unk and self._byte_ids is not None:
                ids.extend(self._byte_ids[byte] for byte in piece.encode("utf-8"))
            else:
                ids.append(identifier)
        return ids


def _part_pattern(mergeable: dict[str, int], space: str) -> regex.Pattern[str] | None:
    """A regex cutting text into parts no mergeable piece crosses, or None when no such cut is safe.

    Cutting before each space symbol that follows another character is safe when no piece holds a
    space symbol right after another character; cutting after the last space symbol of a run, when
    no piece holds one right before another character (whitespace-as-suffix vocabularies).
    """
    s = regex.escape(space)
    inside_before = regex.compile(f"[^{s}]{s}")
    inside_after = regex.compile(f"{s}[^{s}]")
    if not any(inside_before.search(piece) for piece in mergeable):
        return regex.compile(f"{s}*[^{s}]+|{s}+")
    if not any(inside_after.search(piece) for piece in mergeable):
        return regex.compile(f"[^{s}]*{s}+|[^{s}]+")
    return None
