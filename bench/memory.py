"""What the app server keeps in memory after sessions that upload a big corpus and train on it.

    python bench/memory.py [--corpus ../shared/corpora/docs10m.txt] [--mb 10] [--sessions 3]
                           [--vocab 5000] [--ttl 5] [--settle 15] [--app /work/main] [--json out.json]

Starts the real app (``streamlit run app.py`` through tests/browser_support.py, with
``server.disconnectedSessionTTL`` set to ``--ttl`` seconds so that closed sessions are dropped
soon) and drives Debian's Chromium with Playwright, one session after another:

1. baseline: the server's RSS after one visit of the Train page (closed again);
2. each session: a new browser context; Corpus → upload a file; upload ``--mb`` MiB of the
   corpus; vocab ``--vocab``; Train; wait for the result; the context stays open;
3. all sessions closed; wait ``--ttl`` + ``--settle`` seconds; RSS again;
4. one more visit, closed: Streamlit drops expired sessions only when its session store is
   written to (a session closing); RSS again.

RSS is read from /proc for the server process and, separately, for all its descendants (job
processes and their spare once runtime.jobs trains for the app; pre-tokenizing processes for texts
over 4 MB today). A sampling thread records the peak. "kept" = after − baseline: memory the
server holds for sessions that no longer exist. Re-run it after wiring runtime.jobs into the app and
compare; with jobs, training memory lives and dies in the job process, and what remains is the
sessions' own data (the uploaded text, the results) until the sessions expire.

Needs playwright, /usr/bin/chromium and the corpus file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

from room_support import descendants, rss_mb  # the same /proc readers as bench/room.py

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
VIEWPORT = {"width": 1400, "height": 1000}
MB = 2**20


def server_pid(url: str) -> int:
    """The pid of the streamlit process serving url (found by its --server.port argument)."""
    port = url.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except (FileNotFoundError, ProcessLookupError):
                continue
            if b"streamlit" in b" ".join(argv) and b"--server.port" in argv and port.encode() in argv:
                return int(entry.name)
    raise RuntimeError(f"no streamlit process serves {url}")


class Sampler:
    """Samples the server's RSS and its descendants' every 0.2 s; keeps the peaks."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_server, self.peak_children = pid, 0.0, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def now(self) -> dict[str, float]:
        return {"server": rss_mb(self.pid), "children": sum(map(rss_mb, descendants(self.pid)))}

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            sample = self.now()
            self.peak_server = max(self.peak_server, sample["server"])
            self.peak_children = max(self.peak_children, sample["children"])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def wait_idle(page, timeout: float = 600_000) -> None:
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)


def upload_and_train(browser, open_page, url: str, corpus_file: Path, vocab: int):
    page, _ = open_page(browser, url, VIEWPORT)
    wait_idle(page)
    page.get_by_role("combobox", name="Corpus").click()
    page.get_by_role("option", name=re.compile("upload", re.IGNORECASE)).click()  # its label varies by version
    wait_idle(page)
    page.locator('input[type="file"]').set_input_files(str(corpus_file))
    page.get_by_text(f"Using {corpus_file.name}").wait_for(timeout=120_000)
    wait_idle(page)
    box = page.get_by_role("spinbutton", name="Vocab size")
    box.fill(str(vocab))
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Train ▶").click()
    page.get_by_role("heading", name="3 · Result").wait_for(timeout=600_000)
    wait_idle(page)
    return page.context


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--mb", type=float, default=10, help="MiB of the corpus each session uploads")
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--vocab", type=int, default=5_000)
    parser.add_argument("--ttl", type=int, default=5, help="server.disconnectedSessionTTL, seconds")
    parser.add_argument("--settle", type=float, default=15, help="seconds to wait after the TTL")
    parser.add_argument("--release", type=float, default=35, help="seconds to wait for the app's release timer")
    parser.add_argument("--app", type=Path, default=ROOT, help="checkout whose app.py to serve (e.g. /work/main)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    # That checkout's own server starter: it runs app.py from there.
    sys.path[:0] = [str(args.app), str(args.app / "tests")]
    from browser_support import CHROMIUM, CHROMIUM_ARGS, open_page, streamlit_server
    from playwright.sync_api import sync_playwright

    corpus = args.corpus.read_bytes()
    size = int(args.mb * MB)
    data = (corpus * -(-size // len(corpus)))[:size].decode("utf-8", errors="ignore")  # repeated if short
    os.environ["STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL"] = str(args.ttl)
    report: dict = {"upload MiB": args.mb, "sessions": args.sessions, "vocab": args.vocab, "steps": []}

    def record(step: str, sampler: Sampler) -> None:
        sample = sampler.now()
        report["steps"].append({"step": step, **sample, "load": os.getloadavg()[0]})
        print(f"{step:34s} server {sample['server']:7.0f} MB   children {sample['children']:6.0f} MB")

    with tempfile.TemporaryDirectory() as folder, streamlit_server(timeout=60) as url, sync_playwright() as p:
        corpus_file = Path(folder) / f"corpus-{args.mb:g}MiB.txt"
        corpus_file.write_text(data, encoding="utf-8")
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        sampler = Sampler(server_pid(url))
        page, _ = open_page(browser, url, VIEWPORT)
        wait_idle(page)
        page.context.close()
        time.sleep(2)
        record("baseline (one visit)", sampler)
        contexts = []
        for number in range(1, args.sessions + 1):
            started = time.perf_counter()
            contexts.append(upload_and_train(browser, open_page, url, corpus_file, args.vocab))
            record(f"session {number} trained ({time.perf_counter() - started:.0f} s)", sampler)
        for context in contexts:
            context.close()
        time.sleep(args.ttl + args.settle)
        record(f"all closed, +{args.ttl + args.settle:g} s", sampler)
        # Streamlit keeps closed sessions in a TTL cache that drops expired entries only when it is
        # written to: the next session that closes does that.
        page, _ = open_page(browser, url, VIEWPORT)
        wait_idle(page)
        page.context.close()
        browser.close()
        time.sleep(2)
        record("one more visit closed", sampler)
        # The app hands freed memory back to the system on a 30 s timer (ui.frame: release_memory_every).
        time.sleep(args.release)
        record(f"+{args.release:g} s (after the release timer)", sampler)
        sampler.stop()
        report["peak"] = {"server": sampler.peak_server, "children": sampler.peak_children}
        steps = report["steps"]
        report["kept MB"] = steps[-1]["server"] - steps[0]["server"]
        print(f"peak: server {sampler.peak_server:.0f} MB, children {sampler.peak_children:.0f} MB; "
              f"kept after the sessions ended: {report['kept MB']:+.0f} MB "
              f"({report['kept MB'] / args.sessions:+.0f} MB per {args.mb:g} MiB upload)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
