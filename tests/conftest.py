"""Shared fixtures: real corpora from ../shared/corpora when present (tests skip without them), and the
browser tests' server, browser and screenshot folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def corpus(name: str, limit: int | None = None) -> str:
    """The text of a shared corpus, or skip the test when the corpora are not beside the repo."""
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} not available")
    text = path.read_text(encoding="utf-8")
    return text[:limit] if limit else text


@pytest.fixture(scope="session")
def shakespeare() -> str:
    return corpus("tinyshakespeare.txt", 300_000)


@pytest.fixture(scope="session")
def chinese() -> str:
    return corpus("chinese_classics.txt", 60_000)


@pytest.fixture(scope="session")
def docs() -> str:
    return corpus("docs10m.txt", 400_000)


# -- the browser tests' server, browser and screenshot folder (see browser_support.py) ---------


@pytest.fixture(scope="session")
def server():
    """One app server for the browser tests (all in one worker, tests/run.sh): each test opens its own browser
    context, so its own session and workspace. A server per module started eight more (6-15 s each on a busy
    machine); a test that needs a fresh server, or watches a server's CPU and memory, starts its own."""
    from browser_support import streamlit_server

    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from browser_support import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import expect, sync_playwright

    # An expect() without its own timeout waits 5 s by default: beside other work a page can take longer to draw
    # what a test waits for. The wait ends as soon as the condition holds, so only a failure takes longer.
    expect.set_options(timeout=20_000)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def shots(tmp_path):
    """Where screenshots go: $BPE_SCREENSHOTS, or a pytest temp dir."""
    from browser_support import screenshot_dir

    return screenshot_dir(tmp_path)


# -- AppTest and the pages/ folder ------------------------------------------------------------
# AppTest resets Streamlit's "pages directory" flag before every run, so each run starts in the
# old (v1) multipage mode, which nests our st.navigation inside its own and loses widget clicks.
# A real server leaves that mode for good once app.py has called st.navigation (ui/frame.py
# covers the very first deep link); tests start where the server is after that.
from streamlit.runtime.pages_manager import PagesManager  # noqa: E402

_pages_manager_init = PagesManager.__init__


def _v2_pages_manager(self, *args, **kwargs):
    _pages_manager_init(self, *args, **kwargs)
    PagesManager.uses_pages_directory = False


PagesManager.__init__ = _v2_pages_manager


# -- the workspace store: every test run (and the servers it starts) writes to its own temporary folder ----------


def pytest_configure(config):
    import gc
    import os
    import tempfile

    # Each test process (an xdist worker too) gets its own store, never the user's: a test may fill or empty it.
    # Removed when the process ends (pytest_unconfigure): each run left ~6 MB a worker in the temporary folder.
    os.environ["BPE_DATA_DIR"] = config._bpe_test_store = tempfile.mkdtemp(prefix="bpe-test-store-")
    _scan_installed_components_once()
    _wait_for_app_runs_without_polling()
    # The cycle collector walked each worker's whole heap (a GB and more: the open models' tables, loaded once per
    # process) ~45 times a run: 12-16 CPU-s a worker, 8-12 of them in full collections. Collected less often: 6.5-8.
    # Nothing here depends on when cycles are freed (the tests that measure memory call gc.collect() themselves).
    gc.set_threshold(100_000, 50, 50)
    if hasattr(config.option, "loadscopereorder"):  # xdist's controller: hand groups out in the workers' order
        config.option.loadscopereorder = False  # (pytest_collection_modifyitems below), not by their sizes


def pytest_unconfigure(config):
    import shutil

    store = getattr(config, "_bpe_test_store", None)
    if store is not None:
        shutil.rmtree(store, ignore_errors=True)


def _scan_installed_components_once() -> None:
    """Every new AppTest scans the metadata of every installed package for Streamlit components (0.13 CPU-s here,
    and the suite makes ~1,000 AppTests: ~130 CPU-s, a tenth of the suite). The installed packages do not change
    while the tests run, so each test process scans once; a server scans once when it starts, as before."""
    import functools

    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # a Streamlit without v2 components does not scan
        return
    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


def _wait_for_app_runs_without_polling() -> None:
    """AppTest waits for each script run by waking every millisecond to scan the run's whole event list (one entry
    per element drawn) for its end, taking the GIL from the script's own thread each time. The run's thread ends
    right after that event (Streamlit joins it next), so waiting on the thread is the same wait without the
    polling; the original then returns at once, or gives its own timeout error for a run that did not end."""
    import time

    try:
        from streamlit.testing.v1 import local_script_runner
    except ImportError:
        return
    polling = local_script_runner.require_widgets_deltas

    def require_widgets_deltas(runner, timeout: float = 3) -> None:
        started = time.monotonic()
        thread = getattr(runner, "_script_thread", None)
        if thread is not None:
            thread.join(timeout)
        if not runner.script_stopped():
            polling(runner, max(timeout - (time.monotonic() - started), 0.01))

    local_script_runner.require_widgets_deltas = require_widgets_deltas


# -- running in parallel (tests/run.sh: pytest-xdist, --dist loadgroup) ------------------------------------------
# The browser tests run in three groups, each one after another in its own worker with its own server and Chromium;
# a fourth worker runs the rest of the suite meanwhile, and each browser worker joins it when its group is done. The
# groups are cut by module, about equal in time (measured with --durations, on a loaded machine: 400-490 s each in
# November 2026, where they had drifted to 296, 489 and 587 s, the longest deciding the suite's time). Hypothesis's
# per-example deadline is a speed guard that a shared, busy machine trips without any bug: the properties stay, the
# clock goes.

settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


_BROWSER_GROUPS = {
    "browser-a": {
        "test_browser_compare",
        "test_browser_learn",
        "test_browser_i18n",
        "test_browser_extend",
        "test_browser_bounded",
    },
    "browser-b": {"test_browser_talk", "test_browser_links", "test_browser_overlap", "test_browser_variants"},
    "browser-c": {"test_browser_work", "test_browser", "test_browser_player"},
}


def group_of(nodeid: str) -> str:
    """The group a test runs in, from its node id: a browser group, or its own module's."""
    path = nodeid.split("::", 1)[0].split("@", 1)[0]
    stem = path.rsplit("/", 1)[-1].removesuffix(".py")
    if stem.startswith("test_browser"):
        return next((name for name, stems in _BROWSER_GROUPS.items() if stem in stems), "browser-c")
    return f"module-{path}"


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's own ``loadgroup`` reads a group from an ``@name`` suffix it writes into each node id, which pytest 9.2
    no longer lets it write (``Node.nodeid`` became a read-only view): every test was then a group of its own, the
    browser tests ran on all four workers at once (four servers, four Chromiums) and each module's fixtures were
    built on every worker: the suite ran up to twice as long (CI 1,054 s, against 450-630 s grouped). The groups are
    told here from the node id itself."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGroup(config, log)


def pytest_collection_modifyitems(config, items):
    """Every other test module is a group of its own too: its tests run one after another in one worker, so a module's
    fixtures (a Dask cluster, a reference's tokenizer.json read by ``tokenizers``, a Llama 3 file loaded) are made
    once. One test at a time, scattered over the workers, rebuilt them on each worker, and again whenever a worker
    had run another module's test in between (pytest tears a module's fixtures down on leaving it): 6-11 s of setup
    a test in test_ranks_merges, test_jobs_dask and test_extend_pipeline. xdist hands the groups out in collection
    order (``loadscopereorder`` off): the browser groups first, then the modules with the most tests."""
    sizes: dict[str, int] = {}
    for item in items:
        item.stash[_GROUP] = group = group_of(item.nodeid)
        sizes[group] = sizes.get(group, 0) + 1
    rank = {name: k for k, name in enumerate(_BROWSER_GROUPS)}
    items.sort(key=lambda item: (rank.get(item.stash[_GROUP], len(rank)), -sizes[item.stash[_GROUP]], item.path.stem))


_GROUP = pytest.StashKey[str]()


_workers_of_group: dict[str, set[str]] = {}


def pytest_runtest_logreport(report):
    """In xdist's controller: which workers ran each group (see :func:`pytest_terminal_summary`)."""
    worker = getattr(getattr(report, "node", None), "gateway", None)
    if worker is not None and report.when == "call":
        _workers_of_group.setdefault(group_of(report.nodeid), set()).add(worker.id)


def pytest_terminal_summary(terminalreporter):
    """Say so when the groups were not kept (a change in pytest or xdist): the suite then takes far longer."""
    split = sorted(group for group, workers in _workers_of_group.items() if len(workers) > 1)
    if split and terminalreporter.config.getvalue("dist") == "loadgroup":
        terminalreporter.write_line(
            f"WARNING: {len(split)} test groups ran on several workers ({', '.join(split[:5])}): "
            "tests/conftest.py's scheduler no longer keeps them together",
            yellow=True,
        )
