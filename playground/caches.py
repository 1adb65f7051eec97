"""Every cache the server process keeps across sessions, in one place: what each holds, for how long, how much.

A server lives for weeks and a room of thirty comes and goes: each cache here is bounded in entries (and weight,
where entries differ in size) and, where what it holds is big, forgets what was not used for its idle time, so a
room's memory goes back after it leaves (``runtime.jobs.release_memory`` expires them every 30 s). The pages use
the objects declared here (``ui.compare.common`` its results, ``ui.tokenizer_output`` the references, ...),
never a cache
of their own: ``tests/test_caches.py`` scans ``ui/`` and ``playground/`` for module-level caches built elsewhere.

:func:`sizes` reports each cache (a test; ``bench/room.py`` reads them from the server through :func:`report`,
written after every page run when ``BPE_CACHE_REPORT`` names a file); :func:`clear_all` empties them (tests).

>>> sorted(sizes())[:3]
['compare.content_keys', 'compare.results', 'corpus.splits']
>>> sizes()["trained.shared"].max_idle
900.0
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from runtime.lru import LRU


class Store(Protocol):
    """What the registry needs of a cache: its size, and a way to empty it."""

    def __len__(self) -> int: ...

    def clear(self) -> None: ...


@dataclass(frozen=True)
class Size:
    """One cache now: its entries (and total weight) against its bounds; ``max_idle`` None: kept until pushed out
    (or, for a weak cache, while its key lives)."""

    holds: str
    entries: int
    weight: float
    max_entries: int | None
    max_weight: float | None
    max_idle: float | None


_registry: dict[str, tuple[str, Store]] = {}


def register(name: str, holds: str, store: Store) -> None:
    """Add ``store`` under ``name`` (a cache kept by another object, e.g. ``playground.runs``' runs in flight)."""
    if name in _registry and _registry[name][1] is not store:
        raise ValueError(f"a cache named {name!r} is already registered: choose another name")
    _registry[name] = (holds, store)


def lru(
    name: str,
    holds: str,
    max_entries: int,
    *,
    max_weight: float | None = None,
    weight: Callable[[Any], float] | None = None,
    max_idle: float | None = None,
) -> LRU:
    """A new registered :class:`runtime.lru.LRU`."""
    cache: LRU = LRU(max_entries, max_weight=max_weight, weight=weight, max_idle=max_idle)
    register(name, holds, cache)
    return cache


def weak(name: str, holds: str) -> weakref.WeakKeyDictionary:
    """A registered mapping whose entries last as long as their key (a tokenizer) does."""
    mapping: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    register(name, holds, mapping)
    return mapping


def sizes() -> dict[str, Size]:
    """Every registered cache's size and bounds, by name."""
    out = {}
    for name, (holds, store) in sorted(_registry.items()):
        if isinstance(store, LRU):
            out[name] = Size(holds, len(store), store.total_weight, store.max_entries, store.max_weight, store.max_idle)
        else:  # a weak mapping: bounded by its keys' lives
            out[name] = Size(holds, len(store), 0.0, None, None, None)
    return out


REPORT_ENV = "BPE_CACHE_REPORT"


def report() -> None:
    """Write :func:`sizes` as JSON to the file ``BPE_CACHE_REPORT`` names, if it names one (a bench reads what
    the server's caches hold; replaced whole, so a reader never sees half of it)."""
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    partial = Path(f"{path}.{os.getpid()}.{threading.get_ident()}.partial")  # sessions run in threads
    partial.write_text(json.dumps({name: asdict(size) for name, size in sizes().items()}, indent=1))
    partial.replace(path)


def clear_all() -> None:
    """Empty every registered cache (tests start from nothing)."""
    for _, store in list(_registry.values()):
        store.clear()


# -- the caches -------------------------------------------------------------------------------------------------

SHARED_MERGES = 120_000
# Values typed Any where importing their class here would make an import circle (this module is imported first).
TRAINED: LRU[str, Any] = lru(  # playground.trained.Trained
    "trained.shared",
    "trained tokenizers shared by every session (by request key): built-in texts, and Compare's and the talk's",
    32,
    max_weight=SHARED_MERGES,
    weight=lambda trained: trained.weight,  # its merges (and a continued one's base tokens)
    max_idle=900.0,
)
"""``playground.runs``' cache besides each session's own (``Session.results``): a built-in text's result is public,
so a room opening one link trains it once; a helper training (Compare's variants, the superword twin, the parity
pair) is keyed by its corpus's digest. At most 120,000 merges in all (~0.6 KB of memory a merge)."""
FAILURES: LRU[str, str] = lru(
    "trained.failures", "why a request could not be trained (its message, by request key)", 64, max_idle=900.0
)
SPLIT_CHARS = 8_000_000
SPLITS: LRU[tuple[str, int, tuple[str, ...]], tuple[str, str]] = lru(
    "corpus.splits",
    "a corpus cut into its training and held-out parts (by digest, percent held out, languages)",
    4,
    max_weight=SPLIT_CHARS,
    weight=lambda parts: len(parts[0]) + len(parts[1]),
    max_idle=120.0,
)
"""Cut once: the Train page's limits (on every rerun), the job and Compare's texts read the same parts. Only corpora
that hold something out are kept (otherwise the training part is the corpus itself), at most 8 M characters."""
LIMITS: LRU[tuple[str, str, str | None, tuple[str, ...]], Any] = lru(  # train_form.Limits, or a SettingsError
    "train_form.limits",
    "the vocab sizes a corpus allows with some settings (or why a pattern fails on it)",
    64,
    max_idle=3600.0,
)
STOPS: LRU[tuple[object, ...], int] = lru(  # keyed by train_form._stop_key (a request but its vocab size)
    "train_form.stops", "merges after which training a corpus ran out of pairs (small ints: no idle limit)", 256
)
COMPARE_RESULTS: LRU[tuple[Any, ...], Any] = lru(
    "compare.results",
    "Compare's measurements, keyed by content digests (no session sees another's text)",
    48,
    max_idle=900.0,
)
REFERENCES: LRU[str, Any] = lru(  # bpe_core.Tokenizer, weighed by its vocab size
    "encoding.references",
    "the built-in tokenizers, built offline (OpenAI's three: 80 MB, 0.1-0.3 s to build; an open model: 27-53 MB, "
    "0.7-3 s; about 250 bytes an id)",
    8,
    max_weight=1_000_000,  # ids: all eight built-in models together hold 1.2 M, so at most ~250 MB is kept
    weight=lambda tokenizer: tokenizer.n_vocab,
    max_idle=900.0,
)
CONTENT_KEYS: weakref.WeakKeyDictionary = weak("compare.content_keys", "a loaded tokenizer's key for its results")
BASE_DIGESTS: weakref.WeakKeyDictionary = weak("trained.base_digests", "a loaded base tokenizer's content digest")
TOKENIZER_DIGESTS: weakref.WeakKeyDictionary = weak(
    "workspace.tokenizer_digests", "a loaded tokenizer's digest in the reload store"
)
FILE_LABELS: weakref.WeakKeyDictionary = weak("file_labels.shown", "a loaded tokenizer's label in each language")
FILE_SIZES: weakref.WeakKeyDictionary = weak("file_labels.sizes", "a loaded tokenizer's count of tokens")
LOADED_SOURCES: weakref.WeakKeyDictionary = weak(
    "tokenizer_files.sources", "the files a loaded tokenizer came from (their bytes: what a reload loads again)"
)
