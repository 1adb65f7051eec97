"""The workspace store on disk (runtime/store): what is saved comes back (also to a second process and after a
restart), only to its owner; blobs are stored once and go with their last workspace; the budget and the idle
time remove the least recently used workspaces first and leave a note saying why."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.store import Found, Removed, SQLiteStore, data_dir, store_from_env
from runtime.store import sqlite as store_sqlite

MB = 2**20


def make(path: Path, max_bytes: int = 100 * MB, idle: float = 3600) -> SQLiteStore:
    return SQLiteStore(path / "store.sqlite3", max_bytes=max_bytes, max_idle_seconds=idle)


def document(found) -> str:
    assert isinstance(found, Found), found
    return found.document


def test_a_workspace_comes_back_to_its_owner_only(tmp_path):
    store = make(tmp_path)
    store.save("browser-a", "tab1", '{"pasted_text": "secret"}', {})
    assert document(store.load("browser-a", "tab1")) == '{"pasted_text": "secret"}'
    assert store.load("browser-b", "tab1") is None  # a copied address bar opened elsewhere
    assert store.load("browser-a", "never-saved") is None
    store.claim("browser-a", "browser-b")
    assert document(store.load("browser-b", "tab1")) == '{"pasted_text": "secret"}'


def test_it_survives_a_restart(tmp_path):
    make(tmp_path).save("me", "tab", "doc", {"k": lambda: b"x" * 1000})
    again = make(tmp_path)  # a new server process on the same file
    found = again.load("me", "tab")
    assert document(found) == "doc" and found.blob("k") == b"x" * 1000


def test_a_blob_is_stored_once_and_computed_only_when_missing(tmp_path):
    store = make(tmp_path)
    calls = []

    def corpus() -> bytes:
        calls.append(1)
        return b"the corpus " * 1000

    store.save("me", "tab1", "a", {"corpus": corpus})
    store.save("you", "tab2", "b", {"corpus": corpus})
    store.save("me", "tab1", "a2", {"corpus": corpus})
    assert len(calls) == 1
    size, count = store.usage()
    assert count == 2 and size < 1000  # compressed, once


def test_a_blob_goes_with_the_last_workspace_that_refers_to_it(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(store_sqlite.time, "time", lambda: clock[0])
    store = make(tmp_path, idle=100)
    store.save("me", "old", "a", {"shared": lambda: b"s", "own": lambda: b"o"})
    clock[0] += 50
    store.save("me", "new", "b", {"shared": lambda: b"s"})
    clock[0] += 60  # "old" is now idle for 110 s
    note = store.load("me", "old")
    assert isinstance(note, Removed) and note.reason == "idle" and note.touched == 1000.0
    assert store.blob("shared") == b"s" and store.blob("own") is None
    assert store.load("someone", "old") is None  # the note is the owner's too


def test_the_budget_removes_the_least_recently_used_first_and_says_so(tmp_path, monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(store_sqlite.time, "time", lambda: clock[0])
    store = make(tmp_path, max_bytes=3000)
    noise = __import__("os").urandom  # incompressible, so sizes are predictable
    for index in range(5):
        clock[0] += 1
        blob = noise(900)
        store.save("me", f"tab{index}", "{}", {f"b{index}": lambda blob=blob: blob})
    clock[0] += 1
    store.load("me", "tab2")  # used again: now the most recent
    clock[0] += 1
    blob = noise(900)
    store.save("me", "tab5", "{}", {"b5": lambda: blob})
    kept = [index for index in range(6) if isinstance(store.load("me", f"tab{index}"), Found)]
    assert kept == [2, 4, 5], kept
    removed = store.load("me", "tab0")
    assert isinstance(removed, Removed) and removed.reason == "budget" and removed.max_bytes == 3000
    assert store.usage()[0] <= 3000


def test_a_workspace_saved_again_after_removal_is_whole_again(tmp_path, monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(store_sqlite.time, "time", lambda: clock[0])
    store = make(tmp_path, idle=10)
    store.save("me", "tab", "v1", {"k": lambda: b"data"})
    clock[0] += 20
    assert isinstance(store.load("me", "tab"), Removed)
    store.save("me", "tab", "v2", {"k": lambda: b"data"})  # the tab is still open: its next run saves it again
    found = store.load("me", "tab")
    assert document(found) == "v2" and found.blob("k") == b"data"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from(["t1", "t2", "t3"]), st.text(max_size=20),
                          st.sets(st.sampled_from("xyz"), max_size=3)), max_size=25))  # fmt: skip
def test_with_room_enough_the_store_is_a_dictionary(tmp_path_factory, operations):
    store = make(tmp_path_factory.mktemp("model"))
    model: dict[str, tuple[str, str, set[str]]] = {}
    for owner, workspace, text, keys in operations:
        store.save(owner, workspace, text, {key: lambda key=key: key.encode() * 3 for key in keys})
        model[workspace] = (owner, text, keys)
    for workspace, (owner, text, keys) in model.items():
        found = store.load(owner, workspace)
        assert document(found) == text
        assert {key: found.blob(key) for key in keys} == {key: key.encode() * 3 for key in keys}
        assert store.load(owner + "-other", workspace) is None


def _write_many(path: str, prefix: str, count: int) -> None:
    store = SQLiteStore(Path(path), max_bytes=100 * MB, max_idle_seconds=3600)
    for index in range(count):
        blobs = {"shared": lambda: b"s" * 100, f"{prefix}{index}": lambda: b"own"}
        store.save(prefix, f"{prefix}{index}", f"doc {index}", blobs)


def test_several_processes_write_one_store_at_once(tmp_path):
    path = str(tmp_path / "store.sqlite3")
    SQLiteStore(Path(path), max_bytes=MB, max_idle_seconds=3600)  # the tables exist before the race
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_many, args=(path, name, 60)) for name in ("p", "q", "r")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(240)  # a bound on a deadlock, not a speed test (pytest-timeout's 300 s is the last resort)
    assert [worker.exitcode for worker in workers] == [0, 0, 0]
    store = SQLiteStore(Path(path), max_bytes=100 * MB, max_idle_seconds=3600)
    for name in ("p", "q", "r"):
        for index in range(60):
            found = store.load(name, f"{name}{index}")
            assert document(found) == f"doc {index}" and found.blob(f"{name}{index}") == b"own"
    assert store.usage()[1] == 180


def test_the_data_directory_comes_from_the_environment():
    assert data_dir({"BPE_DATA_DIR": "/srv/bpe"}) == Path("/srv/bpe")
    assert data_dir({"HOME": "/home/x"}).name == "bpe-playground"


@pytest.mark.parametrize("value", ["0", "-3", "x", "inf"])
def test_a_bad_budget_in_the_environment_is_refused_by_name(value, tmp_path):
    with pytest.raises(ValueError, match="BPE_STORE_MB"):
        store_from_env({"BPE_DATA_DIR": str(tmp_path), "BPE_STORE_MB": value})
