"""A room of sessions training at once: job processes (runtime.jobs) against the server's threads (today).

    python bench/concurrency.py [--corpus ../shared/corpora/docs10m.txt] [--sessions 8] [--repeat 3]
                                [--json out.json]

Each "session" is a thread, as Streamlit runs each session's script in a thread of one process.
Every session trains on the same 1 MiB of the corpus (vocab 5,000, gpt2 pattern):

- jobs: through ``runtime.jobs.run_with_progress`` (polling every 0.2 s, as a page does), with the
  default limits (workers = the cores);
- threads: ``bpe_core.train`` called in the session thread itself, as the app does today.

One session alone and all sessions at once alternate within each repetition, so machine load
hits both alike. The figure of merit is ``many / ideal`` where ideal = sessions × alone / cores:
1.0 means the cores are fully used and nothing is lost to the queue or to process start.

It also measures how long a cancelled job takes to disappear (one stuck in a catastrophic regex,
inside the C engine), and the start overhead of a job (submit → result of ``os.getpid``): from a warm
spare process, from a cold start, and for ``multiprocessing``'s forkserver (``bpe_core``
preloaded) with a plain ``__main__`` and with ``__main__`` replaced as Streamlit replaces it
during a script run (the child then re-runs the page script: here ``app.py``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import threading
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from runtime import jobs  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
SESSION_BYTES = 1 << 20
VOCAB = 5_000


def in_job(text: str) -> None:
    jobs.run_with_progress(bpe_core.train, (text, VOCAB), poll_interval=0.2)


def in_thread(text: str) -> None:
    bpe_core.train(text, VOCAB)


def cpu_seconds() -> float:
    """CPU time of this process and of the job processes it has reaped."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def wall(run, text: str, sessions: int) -> tuple[float, float]:
    """Seconds until every one of `sessions` threads has run run(text), and CPU seconds per session."""
    threads = [threading.Thread(target=run, args=(text,)) for _ in range(sessions)]
    started, cpu = time.perf_counter(), cpu_seconds()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, (cpu_seconds() - cpu) / sessions


def start_overheads(repeat: int = 9) -> dict[str, list[float]]:
    """Seconds from submit to the result of a trivial job, per way of starting the process."""
    times: dict[str, list[float]] = {"warm spare": [], "cold": []}
    runner = jobs.default_runner()
    for _ in range(repeat):
        time.sleep(0.3)  # let the runner start its next spare
        started = time.perf_counter()
        runner.submit(os.getpid).result()
        times["warm spare"].append(time.perf_counter() - started)
    for _ in range(max(3, repeat // 3)):
        with jobs.JobRunner(runner.limits) as fresh:  # its spare is not ready yet
            started = time.perf_counter()
            fresh.submit(os.getpid).result()
            times["cold"].append(time.perf_counter() - started)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["bpe_core"])

    def forkserver_start() -> float:
        started = time.perf_counter()
        process = context.Process(target=os.getpid)
        process.start()
        process.join()
        return time.perf_counter() - started

    forkserver_start()  # starts the server itself
    times["forkserver"] = [forkserver_start() for _ in range(repeat)]
    page = types.ModuleType("__main__")  # what Streamlit's ScriptRunner installs while a page runs
    page.__file__ = str(ROOT / "app.py")
    real_main, sys.modules["__main__"] = sys.modules["__main__"], page
    try:
        times["forkserver, Streamlit __main__"] = [forkserver_start() for _ in range(3)]
    finally:
        sys.modules["__main__"] = real_main
    return times


def cancel_latencies(repeat: int = 5) -> list[float]:
    """Seconds from cancel() to the process gone, for a job stuck in a catastrophic regex."""
    latencies = []
    for _ in range(repeat):
        job = jobs.submit(bpe_core.train, "a" * 40, 300, pattern=r"([\w ]|[\w ])+!|[\s\S]")
        while job.pid is None:
            time.sleep(0.01)
        time.sleep(1.0)  # deep inside the regex engine by now
        pid, started = job.pid, time.perf_counter()
        job.cancel()
        while Path(f"/proc/{pid}").exists():  # gone once the runner has reaped it
            time.sleep(0.001)
        latencies.append(time.perf_counter() - started)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    text = args.corpus.read_bytes()[:SESSION_BYTES].decode("utf-8", errors="ignore")
    cores = jobs.default_runner().limits.workers
    print(f"{args.sessions} sessions x {len(text):,} chars, vocab {VOCAB:,}; {cores} job workers; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    runs: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    loads = []
    wall(in_job, text, 1)  # warm up: the spare process, the page cache
    for _ in range(args.repeat):
        for way, run in (("jobs", in_job), ("threads", in_thread)):
            for name, sessions in (("alone", 1), ("many", args.sessions)):
                seconds, cpu_per_session = wall(run, text, sessions)
                runs.setdefault(f"{way} {name}", []).append(seconds)
                cpu.setdefault(f"{way} {name}", []).append(cpu_per_session)
        loads.append(os.getloadavg()[0])
        print({name: round(values[-1], 2) for name, values in runs.items()}, f"load {loads[-1]:.2f}")
    report: dict = {"sessions": args.sessions, "cores": cores, "load": loads, "runs": runs, "cpu per session": cpu}
    for name, values in cpu.items():
        print(f"CPU seconds per session, {name:13s} median {statistics.median(values):.2f}")
    for way in ("jobs", "threads"):
        ratios = [
            many / (args.sessions * alone / cores) for alone, many in zip(runs[f"{way} alone"], runs[f"{way} many"])
        ]
        report[f"{way} many / ideal"] = ratios
        print(
            f"{way:8s} alone {statistics.median(runs[f'{way} alone']):6.2f} s   "
            f"{args.sessions} at once {statistics.median(runs[f'{way} many']):6.2f} s   "
            f"many / ideal: median {statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f})"
        )
    overheads = start_overheads()
    report["start overhead"] = overheads
    for name, values in overheads.items():
        print(f"job start, {name:32s} median {statistics.median(values) * 1000:6.1f} ms "
              f"(range {min(values) * 1000:.0f}-{max(values) * 1000:.0f})")  # fmt: skip
    latencies = cancel_latencies()
    report["cancel latency"] = latencies
    print(f"cancel -> process gone (catastrophic regex): median {statistics.median(latencies) * 1000:.1f} ms "
          f"(range {min(latencies) * 1000:.1f}-{max(latencies) * 1000:.1f})")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
