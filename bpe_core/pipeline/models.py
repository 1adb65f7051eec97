"""The BPE model as Hugging Face ``tokenizers`` runs it on one pre-token.

Unlike tiktoken (and :class:`~bpe_core.Tokenizer`), a merge applies to a *pair of tokens* listed
in the merges: two neighbours whose concatenation is a token but which are not a listed pair stay
apart. The lowest-ranked listed pair merges first, the leftmost on a tie. A character not in the
vocabulary becomes its ``<0xXX>`` byte tokens (``byte_fallback``), else ``unk_token`` (fused with
a neighbouring unknown one under ``fuse_unk``), else it is dropped, as ``tokenizers`` drops it.

>>> model = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")])
>>> model.encode("abba")
[2, 1, 0]
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

CACHE_LIMIT = 1 << 17  # pre-tokens remembered, as Tokenizer remembers them
CACHE_PIECE_CHARS = 256  # longer pre-tokens are not remembered (tokenizers' MAX_LENGTH)


class MergeError(ValueError):
    """A merge that uses or makes a token not in the vocabulary; ``index`` is its place in the list."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


class BPE:
    """Vocabulary (token string -> id) and merges (pairs of token strings, in rank order)."""

    def __init__(
        self,
        vocab: Mapping[str, int],
        merges: list[tuple[str, str]],
        *,
        unk_token: str | None = None,
        fuse_unk: bool = False,
        byte_fallback: bool = False,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        ignore_merges: bool = False,
    ):
        self.vocab = dict(vocab)
        self.vocab_r = {identifier: token for token, identifier in self.vocab.items()}
        self.merges = self._merge_table(merges, continuing_subword_prefix)
        if unk_token is not None and unk_token not in self.vocab:
            raise ValueError(f"the unk_token {unk_token!r} is not in the vocab")
        self.unk_id = self.vocab[unk_token] if unk_token is not None else None
        self.fuse_unk, self.byte_fallback, self.ignore_merges = fuse_unk, byte_fallback, ignore_merges
        self.prefix, self.suffix = continuing_subword_prefix or "", end_of_word_suffix or ""
        self.byte_ids = [self.vocab.get(f"<0x{byte:02X}>") for byte in range(256)] if byte_fallback else []
        self._cache: dict[str, list[int]] = {}
        self._first_rank: dict[int, int] | None = None
        self._num_ranks: int | None = None

    def _merge_table(self, merges: list[tuple[str, str]], prefix: str | None) -> dict[tuple[int, int], tuple[int, int]]:
        """(left id, right id) -> (rank, new id); a pair listed twice keeps its last rank, as in tokenizers.
        The new token is left + right without the continuing-subword prefix's bytes (tokenizers' rule)."""
        vocab = self.vocab
        cut = len(prefix.encode("utf-8")) if prefix else 0
        table: dict[tuple[int, int], tuple[int, int]] = {}
        try:
            if not cut:
                for rank, (left, right) in enumerate(merges):
                    table[vocab[left], vocab[right]] = (rank, vocab[left + right])
                return table
            for rank, (left, right) in enumerate(merges):
                merged = left + right.encode("utf-8")[cut:].decode("utf-8")
                table[vocab[left], vocab[right]] = (rank, vocab[merged])
            return table
        except (KeyError, UnicodeDecodeError):
            rank = len(table)
        for rank, (left, right) in enumerate(merges):  # the slow way, to name the bad merge
            for part in (left, right):
                if part not in vocab:
                    raise MergeError(rank, f"token {part!r} is not in model.vocab") from None
            merged = left + right.encode("utf-8")[cut:].decode("utf-8", errors="replace")
            if merged not in vocab:
                raise MergeError(rank, f"the merge makes {merged!r}, which is not in model.vocab") from None
        raise AssertionError("unreachable")

    def encode(self, piece: str) -> list[int]:
        """The ids of one pre-token."""
        if self.ignore_merges:
            whole = self.vocab.get(piece)
            if whole is not None:
                return [whole]
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        ids = self._merge_all(self._symbols(piece))
        if len(piece) <= CACHE_PIECE_CHARS:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            self._cache[piece] = ids
        return ids

    def forget(self) -> None:
        self._cache.clear()

    @property
    def num_ranks(self) -> int:
        """One more than the highest merge rank (a pair listed twice keeps its last place)."""
        if self._num_ranks is None:  # asked for by every segmentation: counted once
            self._num_ranks = max((rank for rank, _ in self.merges.values()), default=-1) + 1
        return self._num_ranks

    def first_rank(self, token_id: int) -> int | None:
        """The rank of the first listed merge that makes ``token_id``, None if none makes it."""
        if self._first_rank is None:
            self._first_rank = {}
            for rank, made in sorted(self.merges.values()):
                self._first_rank.setdefault(made, rank)
        return self._first_rank.get(token_id)

    def _symbols(self, piece: str) -> list[int]:
        """The starting symbols: one per character (with the prefix / suffix), or its fallbacks."""
        symbols: list[int] = []
        unk_pending = False
        vocab, last = self.vocab, len(piece) - 1
        for index, char in enumerate(piece):
            text = char
            if index > 0 and self.prefix:
                text = self.prefix + text
            if index == last and self.suffix:
                text = text + self.suffix
            identifier = vocab.get(text)
            if identifier is not None:
                if unk_pending:
                    symbols.append(self.unk_id)  # type: ignore[arg-type]
                    unk_pending = False
                symbols.append(identifier)
                continue
            if self.byte_fallback:
                fallback = [self.byte_ids[byte] for byte in text.encode("utf-8")]
                if all(found is not None for found in fallback):
                    symbols.extend(fallback)  # type: ignore[arg-type]
                    continue
            if self.unk_id is not None:
                if unk_pending and not self.fuse_unk:
                    symbols.append(self.unk_id)
                unk_pending = True
        if unk_pending:
            symbols.append(self.unk_id)  # type: ignore[arg-type]
        return symbols

    def _merge_all(self, symbols: list[int]) -> list[int]:
        """Merge the lowest-ranked listed pair (leftmost on a tie) until none is left (tokenizers' Word)."""
        merges = self.merges
        n = len(symbols)
        if n < 2:
            return symbols
        following = list(range(1, n + 1))  # index of the next live symbol (n: none)
        preceding = list(range(-1, n - 1))
        alive = [True] * n
        queue = []
        for position in range(n - 1):
            found = merges.get((symbols[position], symbols[position + 1]))
            if found is not None:
                queue.append((found[0], position, found[1]))
        heapq.heapify(queue)
        while queue:
            rank, position, new_id = heapq.heappop(queue)
            if not alive[position]:
                continue
            right = following[position]
            if right >= n:
                continue
            current = merges.get((symbols[position], symbols[right]))
            if current is None or current[1] != new_id:
                continue  # an entry made stale by an earlier merge
            symbols[position] = new_id
            alive[right] = False
            following[position] = following[right]
            if following[right] < n:
                preceding[following[right]] = position
            left = preceding[position]
            if left >= 0:
                found = merges.get((symbols[left], new_id))
                if found is not None:
                    heapq.heappush(queue, (found[0], left, found[1]))
            after = following[position]
            if after < n:
                found = merges.get((new_id, symbols[after]))
                if found is not None:
                    heapq.heappush(queue, (found[0], position, found[1]))
        return [symbol for symbol, live in zip(symbols, alive) if live]

    def describe(self) -> str:
        options = [name for name in ("ignore_merges", "byte_fallback", "fuse_unk") if getattr(self, name)]
        if self.unk_id is not None:
            options.append(f"unk={self.vocab_r[self.unk_id]!r}")
        if self.prefix:
            options.append(f"prefix={self.prefix!r}")
        if self.suffix:
            options.append(f"suffix={self.suffix!r}")
        return f"BPE({len(self.vocab):,} tokens, {len(self.merges):,} merges{''.join(', ' + o for o in options)})"
