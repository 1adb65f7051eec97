"""Helpers of bench/room.py: the server's CPU and memory from /proc, each person's text, and the browser side
(a room of contexts, timing a restore, checking that a page shows its own work).

Nothing here imports the app: bench/room.py may serve another checkout (``--app``), whose
tests/browser_support.py it imports, and that checkout's page texts are the same for what is read here.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

RESTORED = "Your work in this tab was restored"
RESULT = "3 · Result"
PASTE_BOX = "Paste your text"
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
ROOM_VIEWPORT = {"width": 1280, "height": 900}
TICKS = os.sysconf("SC_CLK_TCK")
MB = 2**20

# Runs in every document of a page it is added to: notes when the restored notice and the result are both on
# the page, by the page's own clock (performance.now() counts from the start of this navigation, the reload
# or the goto), so timing 30 pages does not depend on how often Python polls them. It looks only at the
# alerts and the h3 headings (cheap), and gives up after 10 minutes.
RESTORE_WATCH = """
(() => {
  const started = Date.now();
  const timer = setInterval(() => {
    const has = (selector, text) => [...document.querySelectorAll(selector)].some(e => e.textContent.includes(text));
    if (has('[data-testid="stAlert"]', %r) && has("h3", %r)) {
      window.__bpeRestored = {ms: performance.now(), epoch: Date.now()};
      clearInterval(timer);
    } else if (Date.now() - started > 600000) {
      clearInterval(timer);
    }
  }, 50);
})();
""" % (RESTORED, RESULT)  # noqa: UP031 (the braces of the JavaScript would need doubling in an f-string)


# -- the server's CPU and memory ------------------------------------------------------------------------------


def _stat(pid: int) -> list[str]:
    """Fields of /proc/<pid>/stat after the command name (field 3, the state, is [0]); [] if it is gone."""
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1]).split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return []


def descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))):
            parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0.0


@dataclass
class Usage:
    """CPU seconds and RSS of the server (its own threads) and of its job processes, at one moment."""

    server_cpu: float
    jobs_cpu: float
    server_mb: float
    jobs_mb: float

    def cpu_since(self, before: Usage) -> tuple[float, float]:
        return self.server_cpu - before.server_cpu, self.jobs_cpu - before.jobs_cpu


def usage(pid: int) -> Usage:
    """The server's utime + stime; for jobs, the time of its children it has reaped (cutime + cstime: a job
    process that ended) plus every live descendant's own and reaped time (the spare, a job still running)."""
    own = _stat(pid)
    server = (int(own[11]) + int(own[12])) / TICKS
    jobs = (int(own[13]) + int(own[14])) / TICKS
    live = descendants(pid)
    for child in live:
        if fields := _stat(child):
            jobs += sum(int(value) for value in fields[11:15]) / TICKS
    return Usage(server, jobs, rss_mb(pid), sum(map(rss_mb, live)))


# -- each person's text ---------------------------------------------------------------------------------------


def own_text(index: int, chars: int) -> str:
    """``chars`` characters of random words for person ``index``: a vocabulary of 3,000 words of its own used
    with Zipf-like frequencies (enough distinct pairs for 2,000+ merges in 40,000 characters), in lines of
    about 200 words, signed at the end so that cross-talk would show."""
    chance = random.Random(index)
    letters = "aeioubcdfghklmnprstvzwy"
    words = ["".join(chance.choice(letters) for _ in range(chance.randint(2, 9))) for _ in range(3000)]
    weights = [1 / (rank + 10) for rank in range(len(words))]
    parts, size = [], 0
    while size < chars:
        line = " ".join(chance.choices(words, weights, k=200)) + (".\n" if chance.random() < 0.5 else ", ")
        parts.append(line)
        size += len(line)
    signature = f" signature-{index:02d}"
    return "".join(parts)[: max(0, chars - len(signature))] + signature


# -- the browser side -----------------------------------------------------------------------------------------


def on_server(url: str, server: str) -> str:
    """The same page and query (the tab's ``ws`` included) on another server."""
    return re.sub(r"^http://[^/]+", server, url)


def merges_made(page) -> str:
    metric = page.locator('[data-testid="stMetric"]', has_text="Merges made")
    if not metric.count():
        return ""
    return metric.first.locator('[data-testid="stMetricValue"]').inner_text()


def idle_all(pages: list, timeout_s: float = 600) -> None:
    """Wait until no page runs a script (they progress together, so waiting in turn costs nothing)."""
    deadline = time.monotonic() + timeout_s
    for page in pages:
        page.wait_for_timeout(150)  # let a rerun an action started begin before waiting for its end
        page.wait_for_selector(IDLE, timeout=max(1, deadline - time.monotonic()) * 1000)


@dataclass
class Person:
    """One person of the room: their browser context and page, their text and vocab size."""

    context: object
    page: object
    text: str
    vocab: int
    address: str = ""
    problems: list[str] = field(default_factory=list)


def set_vocab(page, vocab: int) -> None:
    box = page.get_by_role("spinbutton", name="Vocab size")
    box.fill(str(vocab))
    box.press("Enter")


def open_upload(page, url: str, upload: Path, timeout_ms: float) -> str:
    """Opens the Train page, chooses to upload a file and uploads ``upload``; returns what the page then says
    ("Using <file>"). The option's label is matched loosely: it differs between releases."""
    page.goto(url)
    corpus = page.get_by_role("combobox", name="Corpus")
    corpus.wait_for(timeout=timeout_ms)
    idle_all([page])
    corpus.click()
    page.get_by_role("option", name=re.compile("upload", re.IGNORECASE)).click()
    idle_all([page])
    page.locator('input[type="file"]').set_input_files(str(upload))
    using = f"Using {upload.name}"
    page.get_by_text(using).wait_for(timeout=timeout_ms)
    idle_all([page])
    return using


def work_back(page, vocab: int, made: str, text: str | None = None, using: str | None = None) -> dict[str, bool]:
    """What of this person's own work the page shows: "tokenizer" (their vocab size in the field and their merges
    made), "text in the box" (the paste box holds their text: ``text``), "text" (that, or the previous release's
    caption for a pasted text kept out of the box, of the right length; for an upload, ``using``: "Using <file>")."""
    vocab_box = page.get_by_role("spinbutton", name="Vocab size")
    vocab_shown = vocab_box.input_value() if vocab_box.count() else ""
    checks = {"tokenizer": vocab_shown == str(vocab) and merges_made(page) == made}
    if text is not None:
        box = page.get_by_label(PASTE_BOX)
        checks["text in the box"] = bool(box.count()) and box.input_value() == text
        caption = f"Using the stored pasted text: {len(text):,} characters."
        checks["text"] = checks["text in the box"] or page.get_by_text(caption).count() > 0
    if using is not None:
        checks["text"] = page.get_by_text(using).count() > 0
    return checks


def wait_restored(pages: list, started_epoch: float, timeout_s: float = 300, lost_after_idle_s: float = 3) -> list:
    """For each page (each with :data:`RESTORE_WATCH` added before its navigation), the restore's timing:
    ``{"own_s": seconds from its own navigation start, "room_s": seconds from started_epoch}``, or None when it
    was lost: the page sat idle for ``lost_after_idle_s`` with its title but without the notice, or the timeout
    passed."""
    results: list[dict | None] = [None] * len(pages)
    idle_since: dict[int, float] = {}
    pending = set(range(len(pages)))
    deadline = time.monotonic() + timeout_s
    probe = "() => [window.__bpeRestored || null, !!document.querySelector(%r) && !!document.querySelector('h1')]"
    while pending and time.monotonic() < deadline:
        for index in sorted(pending):
            try:
                restored, idle = pages[index].evaluate(probe % IDLE)
            except Exception:  # noqa: BLE001 (a page between documents: ask again next round)
                continue
            if restored:
                results[index] = {"own_s": restored["ms"] / 1000, "room_s": restored["epoch"] / 1000 - started_epoch}
                pending.discard(index)
            elif idle:
                if time.monotonic() - idle_since.setdefault(index, time.monotonic()) > lost_after_idle_s:
                    pending.discard(index)
            else:
                idle_since.pop(index, None)
        time.sleep(0.25)
    return results


def timing_summary(results: list) -> dict:
    """Median and max seconds of the restores that happened (own: from the page's navigation; room: from the
    moment all reloads began)."""
    own = [result["own_s"] for result in results if result]
    room = [result["room_s"] for result in results if result]
    if not own:
        return {"median s": None, "max s": None, "all back after s": None}
    return {"median s": statistics.median(own), "max s": max(own), "all back after s": max(room)}


CACHE_REPORT = "BPE_CACHE_REPORT"
"""The file the server writes its caches' sizes to after each page run (``playground.caches.report``)."""


def server_caches() -> dict:
    """What the server's caches hold, by name (``playground.caches.sizes`` as JSON, written after its last page
    run); {} from an app without the report."""
    path = Path(os.environ[CACHE_REPORT])
    return json.loads(path.read_text()) if path.exists() else {}
