"""A room of N people on one server, measured: CPU per visit, rerun and training, memory per session, restores.

    python bench/room.py [--people 30] [--chars 40000] [--vocab 2000] [--big-mb 5 --big-vocab 32000 --big-people 1]
                         [--ttl 5] [--settle 20] [--app DIR] [--json out.json]

Starts the real app (``streamlit run app.py`` of ``--app``, default this checkout, through that checkout's
tests/browser_support.py; ``server.disconnectedSessionTTL`` = ``--ttl`` s; ``BPE_DATA_DIR`` = a fresh temporary
directory) and drives Debian's Chromium with Playwright: one browser, a context per person (cookies of their own,
as separate people have). Phases, in order:

1. baseline: one visit of the Train page, closed; the server's RSS and CPU.
2. visits: every person opens ``/?corpus=paste`` at about the same time; until every page is idle.
3. reruns: every person sets their vocab size (``--vocab`` + their number): one rerun each.
4. pastes: every person pastes their own text (``--chars`` characters of random words, a vocabulary of
   3,000 words per person, signed), Ctrl+V as a person does; then trainings: every person clicks Train, at
   about the same time; until every result is shown. Right = the page shows Merges made = vocab − 257.
5. memory per session: (server RSS after all trained − baseline) / N; sessions keep their tokenizer and text.
6. reload: every page reloads at once; per page, seconds from its own navigation start until "Your work in
   this tab was restored" and the result are both on the page (timed in the page: see room_support), and from
   the start of the reloads until the last page is back. Own work back = the vocab field holds the person's
   vocab, Merges made is their count, and their text is back: in the paste box (counted apart as "text in the
   box"), or, as the previous release kept it, out of the box with "Using the stored pasted text: <their
   length> characters". A page idle for 3 s without the notice is lost.
7. kept (trained server): every page is closed (contexts kept, with their cookies); after ``--ttl`` +
   ``--settle`` s, one more visit (Streamlit drops expired sessions only when another session is written);
   server RSS − baseline.
8. restart: that server stops; a new one starts on the same ``BPE_DATA_DIR`` (baseline visit first); every
   person opens their same address on the new port (cookies are per host, so they carry over); timed and
   checked as in 6; memory per restored session as in 5.
9. leave: all contexts closed; after ``--ttl`` + ``--settle`` s one more visit; RSS − that server's baseline, and
   what each of the server's caches still holds (``playground.caches.sizes``, through ``BPE_CACHE_REPORT``).
10. big sessions (if ``../shared/corpora/docs10m.txt`` exists): ``--big-people`` people each upload ``--big-mb`` MB
    (10^6 bytes) of it, slices a quarter MB apart, and train at ``--big-vocab``; server RSS after − before; reload;
    restart (a third server). ``--people 0 --big-people 30 --big-mb 3`` is a room of 30 at vocab 32,000.

CPU-seconds come from /proc/<pid>/stat: "server" is the server process's own utime + stime (all its threads:
Tornado serving the page and its scripts, the websocket, every script run, saving and restoring workspaces);
"jobs" is the time of the job processes (training runs in them): the server's cutime + cstime (children it
has reaped) plus every live descendant's utime + stime + cutime + cstime (the spare process the job runner
keeps ready, a job still running). Chromium's CPU is not counted. Each phase is measured from just before its
first action to 1 s after the last page is idle (the job runner's next spare is then started, and counted),
divided by N. RSS is VmRSS in MiB, the server and its descendants separately.

With ``--app`` on the previous release (``git worktree add /tmp/prev fe2b719``), whose store lives in the server
process, the restores after a restart fail and are counted as lost. Memory per merge kept for a trained
session, without a browser: bench/session_memory.py. Needs playwright and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import room_big
import room_support as rs

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
LONG = 900_000  # ms: the longest wait for a page (30 people on 2 cores load slowly)


class Room:
    """The bench's state: the browser, the current server, the report and its table."""

    def __init__(self, args: argparse.Namespace, browser, support) -> None:
        self.args, self.browser, self.support = args, browser, support
        self.report: dict = {"app": str(args.app), "people": args.people, "chars": args.chars, "vocab": args.vocab}
        self.rows: list[tuple[str, str]] = []
        self.server: ExitStack | None = None
        self.url, self.pid = "", 0

    # -- servers and plain measurements -----------------------------------------------------------------

    def start(self) -> None:
        self.stop()
        self.server = ExitStack()
        self.url, process = self.server.enter_context(self.support.streamlit_process(timeout=120))
        self.pid = process.pid  # python -m streamlit: the server itself, no wrapper

    def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    def row(self, label: str, value: float | str | None, unit: str = "", digits: int = 2) -> None:
        text = "—" if value is None else value if isinstance(value, str) else f"{value:,.{digits}f}"
        self.rows.append((label, f"{text} {unit}".strip()))
        print(f"  {label:52s} {self.rows[-1][1]}", flush=True)

    def visit(self) -> None:
        """One visit of the Train page, closed again (a baseline, or the write that drops expired sessions)."""
        context = self.browser.new_context(viewport=rs.ROOM_VIEWPORT)
        page = context.new_page()
        page.goto(self.url)
        page.wait_for_selector("h1", timeout=LONG)
        rs.idle_all([page])
        context.close()
        time.sleep(2)

    def baseline(self, name: str) -> float:
        before = rs.usage(self.pid)
        self.visit()
        now = rs.usage(self.pid)
        self.report[name] = {"server MiB": now.server_mb, "jobs MiB": now.jobs_mb,
                             "server CPU s (start + one visit)": now.server_cpu,
                             "server CPU s (one visit)": now.server_cpu - before.server_cpu}  # fmt: skip
        self.row(f"{name}: server RSS (jobs)", f"{now.server_mb:.0f} ({now.jobs_mb:.0f})", "MiB")
        return now.server_mb

    def phase(self, name: str, act, n: int) -> dict:
        """Runs ``act`` (which returns when every page is idle) and reports CPU seconds per person."""
        before, started = rs.usage(self.pid), time.monotonic()
        act()
        wall = time.monotonic() - started
        time.sleep(1)
        server, jobs = rs.usage(self.pid).cpu_since(before)
        result = {"server CPU s": server / n, "jobs CPU s": jobs / n, "total CPU s": (server + jobs) / n,
                  "wall s (whole room)": wall, "load average": os.getloadavg()[0]}  # fmt: skip
        self.report[name] = result
        self.row(f"{name}: CPU-s each, server + jobs", f"{server / n:.2f} + {jobs / n:.2f} s (room: {wall:.0f} s wall)")
        return result

    def kept(self, name: str, baseline: float) -> None:
        time.sleep(self.args.ttl + self.args.settle)
        self.visit()
        now, caches = rs.usage(self.pid), rs.server_caches()
        self.report[name] = {"kept MiB": now.server_mb - baseline, "server MiB": now.server_mb, "jobs MiB": now.jobs_mb}
        self.report[name]["caches"] = caches
        self.row(f"{name}: server RSS − baseline", now.server_mb - baseline, "MiB", 0)
        held = ", ".join(f"{cache} {size['entries']}" for cache, size in caches.items() if size["entries"])
        self.row(f"{name}: cache entries", held or "none")

    def restores(self, name: str, pages: list, started: float, checks: list) -> None:
        """Times the restores of ``pages`` (navigations begun at epoch ``started``); ``checks[i](page)`` gives
        what of person i's own work page i shows (room_support.work_back). Own work back = the tokenizer and the
        text (in the paste box, or kept out of it as the previous release did); "text in the box" is counted too."""
        results = rs.wait_restored(pages, started)
        counts: Counter[str] = Counter({"own work back": 0})
        for page, result, check in zip(pages, results, checks):
            if result is not None:
                rs.idle_all([page])
                found = check(page)
                counts.update({key: int(value) for key, value in found.items()})  # zeros kept: the keys show
                counts["own work back"] += found["tokenizer"] and found["text"]  # the box: counted apart
        summary = {**rs.timing_summary(results), "notice and result shown": sum(map(bool, results)), **counts,
                   "of": len(pages), "load average": os.getloadavg()[0]}  # fmt: skip
        self.report[name] = summary
        parts = ", ".join(f"{key} {counts[key]}" for key in ("tokenizer", "text in the box") if key in counts)
        self.row(f"{name}: own work back", f"{counts['own work back']} of {len(pages)}" + (parts and f" ({parts})"))
        times = [summary[key] for key in ("median s", "max s", "all back after s")]
        self.row(f"{name}: restored after, median / max / all back", " / ".join(
            "—" if value is None else f"{value:.1f}" for value in times), "s")  # fmt: skip

    def navigate(self, name: str, pages: list, go: Callable[[int, Any], None], checks: list) -> None:
        """``go(i, page)`` for every page at once (a reload, an address on a new server), the restores timed."""
        for page in pages:
            page.add_init_script(rs.RESTORE_WATCH)  # runs in the documents the navigations load
        started = time.time()
        for index, page in enumerate(pages):
            go(index, page)
        self.restores(name, pages, started, checks)

    # -- the room -------------------------------------------------------------------------------------------

    def room(self) -> None:
        args, n = self.args, self.args.people
        permissions = ["clipboard-read", "clipboard-write"]
        people: list[rs.Person] = []
        for index in range(n):
            context = self.browser.new_context(viewport=rs.ROOM_VIEWPORT, permissions=permissions)
            people.append(rs.Person(context, context.new_page(), rs.own_text(index, args.chars), args.vocab + index))
        watches = [self.support.ConsoleWatch(person.page) for person in people]
        pages = [person.page for person in people]

        def open_all() -> None:
            for page in pages:
                page.goto(f"{self.url}/?corpus=paste", wait_until="commit")
            for page in pages:
                page.get_by_label(rs.PASTE_BOX).wait_for(timeout=LONG)
            rs.idle_all(pages, LONG / 1000)

        def set_vocabs() -> None:
            for person in people:
                rs.set_vocab(person.page, person.vocab)
            rs.idle_all(pages, LONG / 1000)

        def paste_all() -> None:
            for person in people:
                self.support.paste(person.page, person.page.get_by_label(rs.PASTE_BOX), person.text)
            rs.idle_all(pages, LONG / 1000)

        def train_all() -> None:
            for page in pages:
                page.get_by_role("button", name="Train ▶").click()
            for page in pages:
                page.get_by_role("heading", name=rs.RESULT).wait_for(timeout=LONG)
            rs.idle_all(pages, LONG / 1000)

        self.phase("visit", open_all, n)
        self.phase("rerun (vocab)", set_vocabs, n)
        self.phase("paste", paste_all, n)
        self.phase("training", train_all, n)
        right = sum(rs.merges_made(person.page) == f"{person.vocab - 257:,}" for person in people)
        self.report["trained right"] = right
        self.row("trainings right (Merges made = vocab − 257)", f"{right} of {n}")
        now = rs.usage(self.pid)
        per = (now.server_mb - self.report["baseline"]["server MiB"]) / n
        self.report["memory"] = {"server MiB": now.server_mb, "jobs MiB": now.jobs_mb, "per session MiB": per}
        self.row("memory per trained session (server RSS − baseline) / N", per, "MiB", 1)

        def checker(person: rs.Person):
            return lambda page: rs.work_back(page, person.vocab, f"{person.vocab - 257:,}", text=person.text)

        checks = [checker(person) for person in people]
        self.navigate("reload", pages, lambda _, page: page.reload(wait_until="commit"), checks)
        for person in people:
            person.address = person.page.url
            person.page.close()  # the contexts stay: their cookies say whose work it is
        self.kept("kept after the room left (trained server)", self.report["baseline"]["server MiB"])

        self.start()  # the restart: a new server, another port, the same store
        baseline = self.baseline("baseline after restart")
        for person in people:
            person.page = person.context.new_page()
            watches.append(self.support.ConsoleWatch(person.page))
        reopen = lambda i, page: page.goto(rs.on_server(people[i].address, self.url), wait_until="commit")  # noqa: E731
        self.navigate("restart", [person.page for person in people], reopen, checks)
        now = rs.usage(self.pid)
        per = (now.server_mb - baseline) / n
        self.report["memory after restart"] = {"server MiB": now.server_mb, "per session MiB": per}
        self.row("memory per restored session (RSS − baseline) / N", per, "MiB", 1)
        for person in people:
            person.context.close()
        self.kept("kept after the room left (restarted server)", baseline)
        problems = [problem for watch in watches for problem in watch.problems]
        self.report["browser problems"] = problems[:20]
        self.row("console errors and failed requests", str(len(problems)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=30)
    parser.add_argument("--chars", type=int, default=40_000, help="characters each person pastes")
    parser.add_argument("--vocab", type=int, default=2_000, help="person i trains at vocab + i")
    parser.add_argument("--big-mb", type=float, default=5, help="MB of docs10m the big session uploads (0: none)")
    parser.add_argument("--big-vocab", type=int, default=32_000)
    parser.add_argument("--big-people", type=int, default=1, help="people uploading --big-mb MB each")
    parser.add_argument("--ttl", type=int, default=5, help="server.disconnectedSessionTTL, seconds")
    parser.add_argument("--settle", type=float, default=20, help="seconds to wait after the TTL")
    parser.add_argument("--app", type=Path, default=ROOT, help="checkout whose app.py to serve")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    sys.path.insert(0, str(args.app.resolve() / "tests"))  # that checkout's server starter: it runs its app.py
    import browser_support as support
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        # Set in this process's environment, which the server inherits: the previous release's
        # streamlit_process takes no extra variables.
        os.environ["BPE_DATA_DIR"] = str(Path(folder) / "store")
        os.environ["STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL"] = str(args.ttl)
        os.environ[rs.CACHE_REPORT] = str(Path(folder) / "caches.json")  # playground.caches.report writes it
        browser = playwright.chromium.launch(executable_path=support.CHROMIUM, args=support.CHROMIUM_ARGS)
        room = Room(args, browser, support)
        print(f"{args.people} people, {args.chars:,} characters each, vocab {args.vocab:,}+; app {args.app}; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
        try:
            room.start()
            room.baseline("baseline")
            if args.people > 0:
                room.room()
            if args.big_mb > 0 and DOCS.exists():
                room_big.big(room, Path(folder), DOCS)
            elif args.big_mb > 0:
                print(f"  (no {DOCS}: the big session is skipped)")
        finally:  # what was measured is kept even when a later phase fails
            room.stop()
            browser.close()
            width = max((len(label) for label, _ in room.rows), default=0)
            print("\n" + "\n".join(f"{label:{width}s}  {value}" for label, value in room.rows))
            if args.json:
                args.json.write_text(json.dumps(room.report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
