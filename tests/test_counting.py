"""Counting pre-tokens in forked processes gives exactly the counts of one process, in the same order."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from test_jobs import alive, wait_until

from bpe_core import train, train_files
from bpe_core.pretokenize import count_pretokens
from bpe_core.training import counting
from bpe_core.training.counting import count_text

SPECIALS = ["<|endoftext|>"]


@pytest.fixture
def forking(monkeypatch) -> list[int]:
    """Every text is counted by 3 processes in small parts, whatever its size and the cores here.
    Gives the list of the children forked."""
    monkeypatch.setattr(counting, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(counting, "PART_CHARS", 4096)
    monkeypatch.setattr(counting, "COUNT_PROCESSES", 3)
    forked: list[int] = []
    fork = os.fork

    def recording_fork() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording_fork)
    return forked


def _generated(seed: int, size: int = 60_000) -> str:
    rng = random.Random(seed)
    pieces = ["word", "Wort", "été", "日本", " ", "  ", "\n", "\n\n", "'s", "12345", "!?", "<|endoftext|>", "\t", "a"]
    return "".join(rng.choice(pieces) for _ in range(size // 4))


def _all_reaped(forked: list[int]) -> bool:
    """True when children were forked and every one has been waited for (none left running or a zombie)."""
    for pid in forked:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return len(forked) == 2


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "o200k", "whitespace", None, r"\w+|\s+|."])
@pytest.mark.parametrize("seed", [1, 2])
def test_parts_count_like_the_whole(forking, seed, pattern):
    text = _generated(seed)
    expected = count_pretokens(text, pattern, SPECIALS)
    counts = count_text(text, pattern, SPECIALS)
    assert counts == expected
    assert list(counts) == list(expected)  # first occurrence order, as one process counts
    assert _all_reaped(forking)


def test_a_real_corpus_counts_like_one_process(forking, docs):
    expected = count_pretokens(docs, "gpt2", SPECIALS)
    counts = count_text(docs, "gpt2", SPECIALS)
    assert (counts, list(counts)) == (expected, list(expected))


def test_training_merges_are_those_of_one_process(forking, docs, monkeypatch):
    parallel = train(docs, 600, special_tokens=SPECIALS)
    monkeypatch.setattr(counting, "COUNT_PROCESSES", 1)
    serial = train(docs, 600, special_tokens=SPECIALS)
    assert parallel.merges == serial.merges
    assert parallel.pretoken_counts == serial.pretoken_counts


def test_counts_are_added_to_those_given(forking):
    first, second = _generated(7), _generated(8)
    expected = count_pretokens(second, "gpt2", SPECIALS, counts=count_pretokens(first, "gpt2", SPECIALS))
    counts = count_text(second, "gpt2", SPECIALS, counts=count_pretokens(first, "gpt2", SPECIALS))
    assert (counts, list(counts)) == (expected, list(expected))


def test_files_streamed_in_blocks_count_in_children_too(forking, tmp_path):
    texts = [_generated(9, 200_000), _generated(10, 100_000)]
    for number, text in enumerate(texts):
        (tmp_path / f"{number}.txt").write_text(text, encoding="utf-8")
    streamed = train_files(tmp_path / "*.txt", 400, special_tokens=SPECIALS, block_bytes=50_000)
    whole = train("<|endoftext|>".join(texts), 400, special_tokens=SPECIALS)
    assert streamed.pretoken_counts == whole.pretoken_counts
    assert streamed.merges == whole.merges


def test_a_failed_child_costs_time_not_counts(forking, monkeypatch):
    parent = os.getpid()

    def fail_in_child(*args, **kwargs):
        if os.getpid() != parent:
            raise MemoryError
        return count_pretokens(*args, **kwargs)

    monkeypatch.setattr(counting, "count_pretokens", fail_in_child)
    text = _generated(3)
    assert count_text(text, "gpt2", SPECIALS) == count_pretokens(text, "gpt2", SPECIALS)
    assert _all_reaped(forking)


def test_cancelling_kills_the_children(forking):
    class Cancelled(Exception):
        pass

    def cancel(done, total):
        raise Cancelled

    with pytest.raises(Cancelled):
        count_text(_generated(4, 400_000), "gpt2", SPECIALS, on_chunk=cancel)
    assert _all_reaped(forking)


def test_progress_only_grows_and_reaches_its_total(forking):
    seen = []
    count_text(_generated(5, 600_000), "gpt2", SPECIALS, on_chunk=lambda done, total: seen.append((done, total)))
    assert seen[-1][0] == seen[-1][1]
    assert all(done <= total for done, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len({total for _, total in seen}) == 1


def test_no_fork_while_another_thread_runs(monkeypatch):
    monkeypatch.setattr(counting, "PARALLEL_MIN_CHARS", 0)

    def no_fork():
        raise AssertionError("forked while a thread was running")

    monkeypatch.setattr(os, "fork", no_fork)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        text = _generated(6)
        assert count_text(text, "gpt2", SPECIALS) == count_pretokens(text, "gpt2", SPECIALS)
    finally:
        stop.set()
        thread.join()


def test_a_child_dies_with_its_parent(tmp_path):
    """Killing the counting process (as ui.jobs kills a cancelled job) leaves no child counting on."""
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import os, time
        from bpe_core.training import counting

        parent, original = os.getpid(), counting.count_pretokens

        def slow_in_child(*args, **kwargs):
            if os.getpid() != parent:
                with open({str(pids)!r}, "a") as out:
                    out.write(f"{{os.getpid()}}\\n")
                time.sleep(60)
            # Here: wait for both children to take a part (a pause of 0.1 s a part, formerly, could let this process
            # take them all first on a busy machine); the test kills this process once they have.
            while not os.path.exists({str(pids)!r}) or len(open({str(pids)!r}).read().split()) < 2:
                time.sleep(0.02)
            return original(*args, **kwargs)

        counting.count_pretokens, counting.PARALLEL_MIN_CHARS, counting.COUNT_PROCESSES = slow_in_child, 0, 3
        counting.PART_CHARS = 100
        counting.count_text("word\\n" * 1000, "gpt2")
        """
    )
    root = Path(__file__).resolve().parents[1]
    process = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert wait_until(lambda: pids.exists() and len(pids.read_text().split()) == 2), "no child started"
        children = [int(pid) for pid in pids.read_text().split()]
        process.kill()  # the parent only, not its process group
        process.wait(timeout=30)
        assert wait_until(lambda: not any(alive(pid) for pid in children)), "a child outlived its parent"
    finally:
        process.kill()


def test_no_fork_when_the_cpus_are_busy(monkeypatch):
    monkeypatch.setattr(counting, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(counting, "cpu_contended", lambda: True)

    def no_fork():
        raise AssertionError("forked on a busy machine")

    monkeypatch.setattr(os, "fork", no_fork)
    text = _generated(11)
    assert count_text(text, "gpt2", SPECIALS) == count_pretokens(text, "gpt2", SPECIALS)


def test_cpu_contention_is_read_from_the_kernels_pressure_information(tmp_path, monkeypatch):
    pressure = tmp_path / "cpu"
    pressure.write_text("some avg10=43.11 avg60=41.72 avg300=58.94 total=1268082746\nfull avg10=0.00\n")
    assert counting.cpu_contended(str(pressure))
    pressure.write_text("some avg10=3.50 avg60=41.72 avg300=58.94 total=1268082746\nfull avg10=0.00\n")
    assert not counting.cpu_contended(str(pressure))
    # Without that file, the load average tells: busy from one runnable task per CPU.
    monkeypatch.setattr(os, "getloadavg", lambda: (float(os.cpu_count()), 0.0, 0.0))
    assert counting.cpu_contended(str(tmp_path / "absent"))
    monkeypatch.setattr(os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    assert not counting.cpu_contended(str(tmp_path / "absent"))


@pytest.mark.parametrize("pattern", ["gpt2", "o200k", None])
def test_one_process_counts_a_big_text_part_by_part_like_the_whole(monkeypatch, pattern):
    """In one process a big text is counted a part at a time (so that the pieces copied out of it stay
    small): the counts, their order and the progress are those of counting it whole."""
    monkeypatch.setattr(counting, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(counting, "PART_CHARS", 4096)
    monkeypatch.setattr(counting, "COUNT_PROCESSES", 1)
    text = _generated(11, 100_000)
    seen = []
    counts = count_text(text, pattern, SPECIALS, on_chunk=lambda done, total: seen.append((done, total)))
    expected = count_pretokens(text, pattern, SPECIALS)
    assert (counts, list(counts)) == (expected, list(expected))
    parts = len(counting._part_bounds(text, pattern, SPECIALS)) - 1
    assert parts > 1  # without a pattern, cut after the special tokens
    assert seen == [(done, parts) for done in range(1, parts + 1)]
