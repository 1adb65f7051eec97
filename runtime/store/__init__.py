"""Work that lasts: each tab's work on disk, shared by every server process of a machine.

A tab's work is a small **document** (its settings, as text) and the **blobs** it refers to by key: a corpus by
its digest, a trained tokenizer by its request's digest. A blob is stored once, compressed, whoever refers to
it, and goes when nothing refers to it any more. A reload (the tab's ``ws`` id in the URL, the browser's owner
id in a cookie) or a server restart reads the document back; only the browser that owns a workspace gets it,
so a URL copied from the address bar restores nothing elsewhere.

The store is bounded by a disk budget and an idle time: past either, whole workspaces are removed, the least
recently used first, and a short note (:class:`Removed`: why, when) is kept in their place so the page can say
plainly what happened instead of acting as if a stranger had opened a link.

:class:`Store` is the whole interface (save, load, blob, claim, usage); :mod:`runtime.store.sqlite` is the one
implementation, SQLite in one file that several server processes share. A networked database (PostgreSQL,
say) would implement the same five methods over the same four tables.

Settings come from the environment: ``BPE_DATA_DIR`` (default ``$XDG_CACHE_HOME/bpe-playground``, else
``~/.cache/bpe-playground``), ``BPE_STORE_MB`` (disk budget, default 4,096) and ``BPE_STORE_DAYS`` (idle time,
default 7).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from runtime.store.base import BlobSource, Found, Removed, Store
from runtime.store.sqlite import SQLiteStore

__all__ = [
    "BlobSource",
    "Found",
    "Removed",
    "SQLiteStore",
    "Store",
    "data_dir",
    "default_store",
    "store_from_env",
    "text_digest",
]


def text_digest(text: str) -> str:
    """The SHA-256 of a text (its UTF-8, lone surrogates kept), by which corpora and results are keyed.

    >>> text_digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the store lives: ``BPE_DATA_DIR``, else the user's cache directory.

    >>> data_dir({"BPE_DATA_DIR": "/srv/bpe"}), data_dir({"XDG_CACHE_HOME": "/c"})
    (PosixPath('/srv/bpe'), PosixPath('/c/bpe-playground'))
    """
    if environ.get("BPE_DATA_DIR"):
        return Path(environ["BPE_DATA_DIR"])
    cache = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "bpe-playground"


def _positive(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ValueError(f"{name}={raw!r} is not allowed: it must be a positive number")
    return value


_default: Store | None = None
_default_lock = threading.Lock()


def store_from_env(environ: Mapping[str, str] = os.environ) -> Store:
    """SQLite in ``data_dir()``, with the budget of ``BPE_STORE_MB`` and the idle time of ``BPE_STORE_DAYS``."""
    return SQLiteStore(
        data_dir(environ) / "workspaces.sqlite3",
        max_bytes=int(_positive(environ, "BPE_STORE_MB", 4096) * 2**20),
        max_idle_seconds=_positive(environ, "BPE_STORE_DAYS", 7) * 86_400,
    )


def default_store() -> Store:
    """The process's store (:func:`store_from_env`), opened on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = store_from_env()
        return _default
