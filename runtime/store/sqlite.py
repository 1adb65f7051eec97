"""The store in SQLite: one file that every server process of a machine shares.

SQLite in WAL mode (readers never wait for the writer); every write in a ``BEGIN IMMEDIATE`` transaction, so a
writer that must wait for another process does so at once, for up to :data:`BUSY_SECONDS`, instead of failing
when its read turns into a write. Blobs are zlib-compressed.

>>> import tempfile
>>> store = SQLiteStore(Path(tempfile.mkdtemp()) / "store.sqlite3", max_bytes=10**6, max_idle_seconds=60)
>>> store.save("me", "tab1", '{"vocab": 600}', {"corpus-digest": lambda: b"low lower"})
>>> found = store.load("me", "tab1")
>>> found.document, found.blob("corpus-digest")
('{"vocab": 600}', b'low lower')
>>> store.load("someone-else", "tab1") is None
True
"""

from __future__ import annotations

import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from runtime.store.base import BlobSource, Found, Removed

BUSY_SECONDS = 30.0
"""How long a write waits for another process's write to finish."""
TOUCH_SECONDS = 60.0
"""A workspace saved with nothing changed is touched (its idle clock reset) at most this often."""
COMPRESSION = 6
"""zlib level for blobs: text compresses 3-4x; a 5 MB corpus takes ~0.15 s once."""
REMOVED_KEPT_SECONDS = 30 * 86_400
"""Notes of removed workspaces are kept this long."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS workspaces (
    workspace TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    document TEXT NOT NULL,
    size INTEGER NOT NULL,          -- the document's bytes plus the blobs it refers to
    touched REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS workspaces_by_touched ON workspaces (touched);
CREATE TABLE IF NOT EXISTS blobs (
    key TEXT PRIMARY KEY,
    data BLOB NOT NULL,             -- zlib-compressed
    size INTEGER NOT NULL           -- compressed bytes on disk
);
CREATE TABLE IF NOT EXISTS refs (
    workspace TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (workspace, key)
);
CREATE INDEX IF NOT EXISTS refs_by_key ON refs (key);
CREATE TABLE IF NOT EXISTS removed (
    workspace TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    reason TEXT NOT NULL,           -- "budget" or "idle"
    size INTEGER NOT NULL,
    touched REAL NOT NULL,          -- when the workspace was last used
    at REAL NOT NULL                -- when it was removed
);
"""


class SQLiteStore:
    """Workspaces and their blobs in one SQLite file, bounded by ``max_bytes`` on disk and ``max_idle_seconds``."""

    def __init__(self, path: Path | str, *, max_bytes: int, max_idle_seconds: float):
        self.path = Path(path)
        self.max_bytes, self.max_idle_seconds = max_bytes, max_idle_seconds
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()  # one connection, used by the server's many script threads in turn
        self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a power cut may lose the last writes, never the file
        with self._write() as db:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
        # workspace -> (owner, document, keys, when) of this process's last save: an unchanged save is skipped
        self._saved: dict[str, tuple[str, str, frozenset[str], float]] = {}

    # -- the interface ------------------------------------------------------------------------------------

    def save(self, owner: str, workspace: str, document: str, blobs: Mapping[str, BlobSource]) -> None:
        """Keep ``document`` for (owner, workspace), referring to ``blobs`` (key -> source of its bytes).

        A blob already stored is neither computed nor written again; the store is trimmed to its budget after.
        """
        keys = frozenset(blobs)
        now = time.time()
        last = self._saved.get(workspace)
        if last is not None and last[:3] == (owner, document, keys) and now - last[3] < TOUCH_SECONDS:
            return  # nothing new, touched a moment ago
        packed: dict[str, bytes] = {}
        while True:
            # Compressed outside the write lock (seconds for a big corpus); another process may drop a blob in
            # between (its last workspace removed), so the write checks again and the loop packs what is missing.
            missing = keys - self._stored(keys) - set(packed)
            packed.update((key, zlib.compress(blobs[key](), COMPRESSION)) for key in missing)
            with self._write() as db:
                db.executemany(
                    "INSERT OR IGNORE INTO blobs (key, data, size) VALUES (?, ?, ?)",
                    [(key, data, len(data)) for key, data in packed.items()],
                )
                if len(self._stored_in(db, keys)) == len(keys):
                    self._refer(db, owner, workspace, document, keys, now)
                    break
        self._saved[workspace] = (owner, document, keys, now)

    def load(self, owner: str, workspace: str) -> Found | Removed | None:
        """The workspace if ``owner`` has it; a :class:`Removed` note if it was removed; else None."""
        now = time.time()
        with self._write() as db:
            self._trim(db, now)  # a workspace idle for too long is removed (and said so) before it is read
            row = db.execute(
                "SELECT document FROM workspaces WHERE workspace = ? AND owner = ?", (workspace, owner)
            ).fetchone()
            if row is not None:
                db.execute("UPDATE workspaces SET touched = ? WHERE workspace = ?", (now, workspace))
                return Found(row[0], self.blob)
            note = db.execute(
                "SELECT reason, size, touched, at FROM removed WHERE workspace = ? AND owner = ?", (workspace, owner)
            ).fetchone()
        if note is None:
            return None
        reason, size, touched, at = note
        return Removed(reason, size, touched, at, max_bytes=self.max_bytes, max_idle_seconds=self.max_idle_seconds)

    def blob(self, key: str) -> bytes | None:
        """A stored blob's bytes, or None."""
        with self._lock:
            row = self._db.execute("SELECT data FROM blobs WHERE key = ?", (key,)).fetchone()
        return None if row is None else zlib.decompress(row[0])

    def claim(self, old_owner: str, new_owner: str) -> None:
        """The browser turned out to have another id already (two tabs opened at once): its workspaces follow."""
        with self._write() as db:
            db.execute("UPDATE workspaces SET owner = ? WHERE owner = ?", (new_owner, old_owner))
            db.execute("UPDATE removed SET owner = ? WHERE owner = ?", (new_owner, old_owner))

    def usage(self) -> tuple[int, int]:
        """(bytes of all blobs and documents, workspaces kept)."""
        with self._lock:
            return self._total(self._db), self._db.execute("SELECT COUNT(*) FROM workspaces").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- inside ------------------------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``: see the module docstring)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _refer(
        self, db: sqlite3.Connection, owner: str, workspace: str, document: str, keys: frozenset[str], now: float
    ) -> None:
        """Write the workspace's row and references (inside a write transaction), then trim the store."""
        db.execute("DELETE FROM refs WHERE workspace = ?", (workspace,))
        db.executemany("INSERT INTO refs (workspace, key) VALUES (?, ?)", [(workspace, key) for key in keys])
        size = len(document.encode()) + self._blob_bytes(db, keys)
        db.execute(
            "INSERT INTO workspaces (workspace, owner, document, size, touched) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (workspace) DO UPDATE SET owner = excluded.owner, document = excluded.document, "
            "size = excluded.size, touched = excluded.touched",
            (workspace, owner, document, size, now),
        )
        db.execute("DELETE FROM removed WHERE workspace = ?", (workspace,))
        self._trim(db, now)

    def _stored(self, keys: frozenset[str]) -> set[str]:
        with self._lock:
            return self._stored_in(self._db, keys)

    @staticmethod
    def _stored_in(db: sqlite3.Connection, keys: frozenset[str]) -> set[str]:
        if not keys:
            return set()
        marks = ",".join("?" * len(keys))
        return {row[0] for row in db.execute(f"SELECT key FROM blobs WHERE key IN ({marks})", tuple(keys))}

    @staticmethod
    def _blob_bytes(db: sqlite3.Connection, keys: frozenset[str]) -> int:
        if not keys:
            return 0
        marks = ",".join("?" * len(keys))
        return db.execute(f"SELECT COALESCE(SUM(size), 0) FROM blobs WHERE key IN ({marks})", tuple(keys)).fetchone()[0]

    def _trim(self, db: sqlite3.Connection, now: float) -> None:
        """Remove idle workspaces, then the least recently used ones while the store is over its budget;
        leave a note for each, and drop the blobs nothing refers to any more."""
        idle = db.execute(
            "SELECT workspace, owner, size, touched FROM workspaces WHERE touched < ?", (now - self.max_idle_seconds,)
        ).fetchall()
        self._remove(db, idle, "idle", now)
        total = self._total(db)
        if total > self.max_bytes:
            oldest = db.execute("SELECT workspace, owner, size, touched FROM workspaces ORDER BY touched").fetchall()
            while total > self.max_bytes and oldest:
                victim = oldest.pop(0)
                freed = self._remove(db, [victim], "budget", now)
                total -= freed
        db.execute("DELETE FROM removed WHERE at < ?", (now - REMOVED_KEPT_SECONDS,))

    @staticmethod
    def _total(db: sqlite3.Connection) -> int:
        """Bytes of every blob (compressed) and document."""
        blobs = db.execute("SELECT COALESCE(SUM(size), 0) FROM blobs").fetchone()[0]
        documents = db.execute("SELECT COALESCE(SUM(LENGTH(CAST(document AS BLOB))), 0) FROM workspaces").fetchone()[0]
        return blobs + documents

    def _remove(self, db: sqlite3.Connection, rows: list[tuple[str, str, int, float]], reason: str, now: float) -> int:
        """Remove these workspaces (noting each) and the blobs only they used; returns the bytes freed."""
        freed = 0
        for workspace, owner, size, touched in rows:
            keys = [row[0] for row in db.execute("SELECT key FROM refs WHERE workspace = ?", (workspace,))]
            document = db.execute(
                "SELECT LENGTH(CAST(document AS BLOB)) FROM workspaces WHERE workspace = ?", (workspace,)
            ).fetchone()
            freed += document[0] if document else 0
            db.execute("DELETE FROM refs WHERE workspace = ?", (workspace,))
            db.execute("DELETE FROM workspaces WHERE workspace = ?", (workspace,))
            db.execute(
                "INSERT OR REPLACE INTO removed (workspace, owner, reason, size, touched, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (workspace, owner, reason, size, touched, now),
            )
            for key in keys:
                if db.execute("SELECT 1 FROM refs WHERE key = ? LIMIT 1", (key,)).fetchone() is None:
                    blob = db.execute("SELECT size FROM blobs WHERE key = ?", (key,)).fetchone()
                    freed += blob[0] if blob else 0
                    db.execute("DELETE FROM blobs WHERE key = ?", (key,))
            self._saved.pop(workspace, None)
        return freed
