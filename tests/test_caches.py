"""The server's caches in one place (``playground.caches``) and the one way to train (``playground.runs``).

- Every module-level cache of ``ui/`` and ``playground/`` is built in the registry: a scan of the sources (itself
  checked on planted snippets) and, at run time, every module attribute that is a cache is a registered one.
- The registry reports each cache's size against its bounds and empties them all.
- ``runs.train``: its result is ``train_job``'s (and ``bpe_core.train``'s); two sessions asking for one request at
  once train it once (the second waits for the first's run: ordered by events, not by time); a corpus that holds
  lines out is cut once for the Train page's limits and the job; a failure is kept as its message.
"""

from __future__ import annotations

import ast
import importlib
import json
import threading
import weakref
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from playground import caches, heldout_texts, runs
from playground.corpora import load_sample
from playground.trained import Request, train_job
from runtime import jobs
from runtime.lru import LRU
from runtime.store import text_digest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ui", "playground")
CONSTRUCTORS = {"LRU", "WeakKeyDictionary", "WeakValueDictionary", "OrderedDict", "dict", "set", "defaultdict"}
DECORATORS = {"cache", "lru_cache", "cache_resource", "cache_data"}
ALLOWED = {
    # Once per process, bounded by what ships with the app (samples, catalogs, built-in language texts), or a flag.
    "playground/corpora.py": {"@_load"},
    "playground/heldout_texts.py": {"@built_in_text"},
    "playground/i18n.py": {"@catalog", "MISSING"},  # MISSING: texts asked for untranslated (bounded by the code)
    "playground/learn/code_view.py": {"@code_view"},  # one per (trainer, tie rule, language): bounded by the code
    "ui/compare/languages.py": {"@built_in", "@_digest"},
    "ui/compare/texts.py": {"@_sample_text"},
    "ui/frame.py": {"@_start_services"},  # True, once per server
}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def module_caches(source: str) -> list[str]:
    """What a module builds at its top level that holds entries across runs: a call of a cache or container
    constructor, an empty ``{}`` or ``set()``, or a function under a caching decorator (by name)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = node.value
            built = isinstance(value, ast.Call) and _name(value) in CONSTRUCTORS
            empty = isinstance(value, ast.Dict) and not value.keys
            if built or empty:
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                found.append(ast.unparse(target))
        if isinstance(node, ast.FunctionDef) and any(_name(each) in DECORATORS for each in node.decorator_list):
            found.append(f"@{node.name}")
    return found


def test_the_scan_finds_each_kind_of_module_cache():
    planted = (
        "import weakref\nfrom functools import cache\nimport streamlit as st\n"
        "_a = LRU(3)\n_b: dict[str, int] = {}\n_c = weakref.WeakKeyDictionary()\nLABELS = {'x': 1}\n"
        "@cache\ndef f(x): return x\n@st.cache_resource(show_spinner=False)\ndef g(): return 1\n"
        "def h():\n    local = LRU(2)\n    return local\n"
    )
    assert module_caches(planted) == ["_a", "_b", "_c", "@f", "@g"]


def test_no_module_of_ui_or_playground_builds_a_cache_outside_the_registry():
    unregistered = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative == "playground/caches.py":
                continue
            found = [
                name
                for name in module_caches(path.read_text(encoding="utf-8"))
                if name not in ALLOWED.get(relative, ())
            ]
            if found:
                unregistered[relative] = found
    assert unregistered == {}, "build these in playground/caches.py (what it holds, how long, how much)"


def test_every_cache_a_module_holds_is_a_registered_one():
    registered = {id(store) for _, store in caches._registry.values()}
    seen = 0
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            module = importlib.import_module(name)
            for attribute, value in vars(module).items():
                if isinstance(value, LRU | weakref.WeakKeyDictionary | runs.SharedRuns):
                    assert id(value) in registered, f"{name}.{attribute}"
                    seen += 1
    assert seen >= len(caches._registry)  # each is used somewhere (and the walk really found them)


def test_sizes_report_entries_and_weight_and_clear_all_empties_every_cache():
    caches.clear_all()
    assert all(size.entries == 0 and size.weight == 0 for size in caches.sizes().values())
    caches.SPLITS.put(("d", 10, ()), ("abc", "de"))
    caches.FAILURES.put("k", "no")
    sizes = caches.sizes()
    assert (sizes["corpus.splits"].entries, sizes["corpus.splits"].weight) == (1, 5)
    assert sizes["trained.failures"].entries == 1 and sizes["trained.failures"].max_entries == 64
    assert sizes["trained.in_flight"].max_entries is None  # not an LRU: reported by its length
    caches.clear_all()
    assert sum(size.entries for size in caches.sizes().values()) == 0


def test_the_report_a_bench_reads_is_what_sizes_says(monkeypatch, tmp_path):
    caches.clear_all()
    caches.FAILURES.put("k", "no")
    monkeypatch.setenv(caches.REPORT_ENV, str(tmp_path / "caches.json"))
    caches.report()
    written = json.loads((tmp_path / "caches.json").read_text())
    assert written == {name: asdict(size) for name, size in caches.sizes().items()}
    assert written["trained.failures"]["entries"] == 1 and list(tmp_path.iterdir()) == [tmp_path / "caches.json"]


def test_every_registered_cache_says_what_it_holds_and_is_bounded():
    for name, size in caches.sizes().items():
        assert size.holds, name
        store = caches._registry[name][1]
        if isinstance(store, LRU):
            assert store.max_entries >= 1
            # Caches of big values forget what is not used (so a room's memory goes back after it leaves).
            if name not in ("train_form.stops",):
                assert store.max_idle is not None, name


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="already registered"):
        caches.register("trained.shared", "another", LRU(2))


# -- the one way to train ----------------------------------------------------------------------------------------

CORPUS = "the cat sat on the mat\nthe dog sat on the log\nlow lower lowest newer newest\n" * 3


def request_for(text: str, vocab: int, holdout: int = 0) -> Request:
    return Request("paste", "pasted", text_digest(text), "byte", vocab, "gpt2", "gpt2", (), holdout=holdout)


@settings(max_examples=6, deadline=None)
@given(st.text(alphabet="ab cd\n", min_size=1, max_size=60), st.integers(256, 290))
def test_the_service_trains_what_train_job_and_bpe_core_train(text, vocab):
    caches.clear_all()
    request = request_for(text, vocab)
    trained = runs.train(request, text, runner_free_progress)
    assert trained.tokenizer.merges == train_job(text, request).tokenizer.merges
    assert trained.tokenizer.merges == bpe_core.train(text, vocab, pattern="gpt2").tokenizer.merges
    assert runs.cached(request) is trained  # a helper training (no session results): kept in the shared cache


def runner_free_progress(status: jobs.JobStatus) -> None:
    assert 0.0 <= status.fraction <= 1.0


def test_two_sessions_asking_for_one_request_train_it_once(monkeypatch):
    caches.clear_all()
    sample = "toy-the-cat-in-the-hat"  # a built-in text: its result is shared by every session
    text = load_sample(sample)
    request = Request(sample, sample, text_digest(text), "byte", 270, "gpt2", "gpt2", ())
    real_run, submitted = jobs.run_with_progress, []
    leading, waiting = threading.Event(), threading.Event()

    def counted(*args, **kwargs):
        submitted.append(args[1][1])
        leading.set()
        assert waiting.wait(60), "the second session never waited"  # the job runs once the other session waits
        return real_run(*args, **kwargs)

    monkeypatch.setattr(runs.jobs, "run_with_progress", counted)
    got = {}

    def session(name: str, results: LRU, on_wait) -> None:
        got[name] = runs.train(request, text, results=results, on_wait=on_wait)

    first_results, second_results = LRU(4), LRU(4)
    first = threading.Thread(target=session, args=("first", first_results, None))
    first.start()
    assert leading.wait(60)
    second = threading.Thread(target=session, args=("second", second_results, lambda seconds: waiting.set()))
    second.start()
    first.join(120)
    second.join(120)
    assert submitted == [request]  # one job
    assert got["first"] is got["second"] is runs.cached(request)
    assert first_results.get(request.key) is second_results.get(request.key) is got["first"]  # each session keeps it
    assert len(runs.RUNS) == 0


def test_a_corpus_that_holds_lines_out_is_cut_once(monkeypatch):
    caches.clear_all()
    text = "".join(f"line {i} of the corpus, with words\n" for i in range(40))
    calls = []
    real_split = heldout_texts.split_corpus

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real_split(*args, **kwargs)

    monkeypatch.setattr(heldout_texts, "split_corpus", counted)
    request = request_for(text, 300, holdout=10)
    train_part = heldout_texts.split_once(text, request.text_digest, 10)[0]  # what the Train page's limits read
    trained = runs.train(request, text)
    assert calls == [10]
    assert trained.corpus_chars == len(train_part) and trained.stats["heldout"] is True
    assert trained.tokenizer.merges == train_job(text, request).tokenizer.merges  # the job's own cut: the same


def test_a_failure_is_kept_as_its_message_and_raised():
    caches.clear_all()
    request = request_for(CORPUS, 100)  # below the 256 byte tokens
    with pytest.raises(ValueError) as raised:
        runs.train(request, CORPUS)
    assert runs.failure(request) == str(raised.value) and "256" in str(raised.value)
    assert runs.cached(request) is None and len(runs.RUNS) == 0
