"""Work that survives a reload: a server-wide store of each tab's session values, bounded in entries,
bytes and idle time, oldest evicted first.

A reload starts a new Streamlit session with empty state. The tab keeps its workspace id in the
URL (``?ws=…``) and the browser keeps an owner id in a cookie; only the same browser gets the
values back, so a URL copied from the address bar and opened elsewhere restores nothing (the
"copy link" links never carry ``ws`` at all). Text above :data:`MAX_TEXT_CHARS` is not kept: the
restored page then says exactly what was lost.

Limits come from the environment: ``BPE_STORE_MB`` (total, default 32), ``BPE_STORE_ENTRIES``
(default 64) and ``BPE_STORE_MINUTES`` (idle time, default 60).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

MAX_BYTES = int(float(os.environ.get("BPE_STORE_MB", "32")) * (1 << 20))
MAX_ENTRIES = int(os.environ.get("BPE_STORE_ENTRIES", "64"))
MAX_IDLE_SECONDS = float(os.environ.get("BPE_STORE_MINUTES", "60")) * 60
MAX_TEXT_CHARS = MAX_BYTES // 4
"""A corpus longer than this is not kept (it would push every other tab's work out)."""


def text_digest(text: str) -> str:
    """The SHA-256 of a text (its UTF-8, lone surrogates kept), by which corpora and results are keyed.

    >>> text_digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


@dataclass
class Entry:
    owner: str
    values: dict[str, Any]
    size: int
    touched: float


class WorkspaceStore:
    """``{(owner, workspace): values}`` with LRU eviction by count, total size and idle time.

    >>> store = WorkspaceStore(max_bytes=100, max_entries=2, max_idle=60)
    >>> store.save("me", "tab1", {"vocab": 600}, size=10)
    >>> store.load("me", "tab1"), store.load("someone-else", "tab1")
    ({'vocab': 600}, None)
    >>> store.save("me", "tab2", {}, size=10); store.save("me", "tab3", {}, size=10)
    >>> store.load("me", "tab1") is None  # evicted: at most two entries
    True
    """

    def __init__(self, max_bytes: int = MAX_BYTES, max_entries: int = MAX_ENTRIES, max_idle: float = MAX_IDLE_SECONDS):
        self.max_bytes, self.max_entries, self.max_idle = max_bytes, max_entries, max_idle
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def save(self, owner: str, workspace: str, values: dict[str, Any], size: int) -> None:
        with self._lock:
            self._entries[workspace] = Entry(owner, values, size, time.monotonic())
            self._entries.move_to_end(workspace)
            self._evict()

    def load(self, owner: str, workspace: str) -> dict[str, Any] | None:
        with self._lock:
            self._evict()
            entry = self._entries.get(workspace)
            if entry is None or entry.owner != owner:
                return None
            entry.touched = time.monotonic()
            self._entries.move_to_end(workspace)
            return dict(entry.values)

    def claim(self, old_owner: str, new_owner: str) -> None:
        """The browser turned out to have another id already (two tabs opened at once): move its entries."""
        with self._lock:
            for entry in self._entries.values():
                if entry.owner == old_owner:
                    entry.owner = new_owner

    @property
    def total_size(self) -> int:
        return sum(entry.size for entry in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def _evict(self) -> None:
        now = time.monotonic()
        while self._entries:
            oldest = next(iter(self._entries.values()))
            too_many = len(self._entries) > self.max_entries or self.total_size > self.max_bytes
            if not too_many and now - oldest.touched <= self.max_idle:
                break
            self._entries.popitem(last=False)


STORE = WorkspaceStore()
"""The process-wide store every session saves into."""
