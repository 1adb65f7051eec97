"""What a store holds and gives back, and the interface every store implements (see ``runtime.store``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Found:
    """A workspace read back: its document, and its blobs read on demand (``blob(key)``: bytes or None)."""

    document: str
    blob: Callable[[str], bytes | None]


@dataclass(frozen=True)
class Removed:
    """What stands in for a workspace the store had to remove: why, how big it was, when it was last used."""

    reason: str  # "budget": the store was full, oldest first; "idle": unused for longer than the idle time
    size: int
    touched: float
    at: float
    max_bytes: int
    max_idle_seconds: float


BlobSource = Callable[[], bytes]
"""Gives a blob's bytes; called only when the store does not hold that key yet."""


class Store(Protocol):
    """What the app asks of a store (see the module docstring)."""

    max_bytes: int
    max_idle_seconds: float

    def save(self, owner: str, workspace: str, document: str, blobs: Mapping[str, BlobSource]) -> None:
        """Keep ``document`` for (owner, workspace), referring to ``blobs`` (key -> source of its bytes, called
        only when the store lacks that key); then trim the store to its budget."""

    def load(self, owner: str, workspace: str) -> Found | Removed | None:
        """The workspace if ``owner`` has it; a :class:`Removed` note if it was removed; else None."""

    def blob(self, key: str) -> bytes | None:
        """A stored blob's bytes, or None."""

    def claim(self, old_owner: str, new_owner: str) -> None:
        """The browser turned out to have another id already (two tabs opened at once): its workspaces follow."""

    def usage(self) -> tuple[int, int]:
        """(bytes of all blobs and documents, workspaces kept)."""
