"""The one way the app keeps a bounded cache: :class:`LRU`, a thread-safe mapping that forgets its least
recently used entries beyond ``max_entries``.

Streamlit runs every session in a thread of one process, so caches shared by sessions (trained results,
Compare's measurements, the Train page's limits) are read and written from several threads at once;
``functools.lru_cache`` fits pure functions of small arguments, these are keyed by digests computed
elsewhere and filled by work that must not run under the lock.

>>> cache = LRU(2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a")
1
>>> cache.put("c", 3)  # "b" is now the least recently used
>>> "b" in cache, cache.get("a"), cache.get_or_compute("d", lambda: 4), len(cache)
(False, 1, 4, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``max_entries`` values, the least recently used dropped first; safe across threads."""

    def __init__(self, max_entries: int):
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, not {max_entries}")
        self.max_entries = max_entries
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or None."""
        with self._lock:
            if key not in self._entries:
                return None
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value for ``key``, computed (outside the lock: it may take seconds) and kept when missing.
        Two threads asking at once may both compute; the later result is kept."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = compute()
        self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)
