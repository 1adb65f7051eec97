"""The one way the app keeps a bounded cache: :class:`LRU`, a thread-safe mapping that forgets its least
recently used entries beyond ``max_entries`` (and, if given, beyond a total ``max_weight``, or once unused for
``max_idle`` seconds).

Streamlit runs every session in a thread of one process, so caches shared by sessions (trained results,
Compare's measurements, the Train page's limits) are read and written from several threads at once;
``functools.lru_cache`` fits pure functions of small arguments, these are keyed by digests computed
elsewhere and filled by work that must not run under the lock. A server lives for weeks: the idle limit is what
hands a room's memory back after it leaves (:func:`expire_all`, called by the release timer of ``runtime.jobs``).

>>> cache = LRU(2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a")
1
>>> cache.put("c", 3)  # "b" is now the least recently used
>>> "b" in cache, cache.get("a"), cache.get_or_compute("d", lambda: 4), len(cache)
(False, 1, 4, 2)
>>> sized = LRU(10, max_weight=5, weight=len)
>>> sized.put("x", "abc"); sized.put("y", "abcd"); list(sized.keys())  # 3 + 4 > 5: "x" goes
['y']
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_every: weakref.WeakSet[LRU] = weakref.WeakSet()
_every_lock = threading.Lock()


class LRU(Generic[K, V]):
    """At most ``max_entries`` values (and ``max_weight`` of ``weight(value)``), the least recently used dropped
    first, and none unused for more than ``max_idle`` seconds; safe across threads. The newest entry is always
    kept, however heavy."""

    def __init__(
        self,
        max_entries: int,
        *,
        max_weight: float | None = None,
        weight: Callable[[V], float] | None = None,
        max_idle: float | None = None,
    ):
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, not {max_entries}")
        if (max_weight is None) != (weight is None):
            raise ValueError("give max_weight and weight together")
        self.max_entries, self.max_weight, self.max_idle = max_entries, max_weight, max_idle
        self._weight = weight
        self._entries: OrderedDict[K, tuple[V, float, float]] = OrderedDict()  # key -> (value, weight, last used)
        self._total = 0.0
        self._lock = threading.Lock()
        with _every_lock:
            _every.add(self)

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._take(key)
            return None if found is None else found[0]

    def put(self, key: K, value: V) -> None:
        weight = self._weight(value) if self._weight is not None else 0.0
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._total -= old[1]
            self._entries[key] = (value, weight, time.monotonic())
            self._total += weight
            self._trim()

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value for ``key``, computed (outside the lock: it may take seconds) and kept when missing.
        Two threads asking at once may both compute; the later result is kept."""
        with self._lock:
            found = self._take(key)
        if found is not None:
            return found[0]
        value = compute()
        self.put(key, value)
        return value

    def expire(self) -> None:
        """Drop the entries unused for longer than ``max_idle``."""
        with self._lock:
            self._trim()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._total = 0.0

    def keys(self) -> list[K]:
        with self._lock:
            return list(self._entries)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def total_weight(self) -> float:
        """The sum of ``weight`` over the entries kept (0 without a weight function)."""
        return self._total

    def _take(self, key: K) -> tuple[V] | None:
        """(value,) for a live key, marked as just used; None when missing or idle too long (then dropped)."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        now = time.monotonic()
        if self.max_idle is not None and now - entry[2] > self.max_idle:
            self._total -= self._entries.pop(key)[1]
            return None
        self._entries[key] = (entry[0], entry[1], now)
        self._entries.move_to_end(key)
        return (entry[0],)

    def _trim(self) -> None:
        entries = self._entries
        cutoff = time.monotonic() - self.max_idle if self.max_idle is not None else None
        while len(entries) > 1 and (
            len(entries) > self.max_entries
            or (self.max_weight is not None and self._total > self.max_weight)
            or (cutoff is not None and next(iter(entries.values()))[2] < cutoff)
        ):
            self._total -= entries.popitem(last=False)[1][1]
        if cutoff is not None and entries and next(iter(entries.values()))[2] < cutoff:
            entries.clear()
            self._total = 0.0


def expire_all() -> None:
    """:meth:`LRU.expire` on every cache of this process (the release timer calls it)."""
    with _every_lock:
        caches = list(_every)
    for cache in caches:
        cache.expire()
