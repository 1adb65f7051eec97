"""runtime.jobs: jobs run in processes that come back with the same answer, or die when told to.

The only timings here are the generous bounds on how fast a killed job is gone (the spec is 2 s;
the tests allow 5 s so a loaded machine does not fail them).
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import job_functions
import pytest

import bpe_core
from runtime import jobs
from runtime.jobs import JobCancelled, JobRunner, JobStopped, Limits

CATASTROPHIC = r"([\w ]|[\w ])+!|[\s\S]"  # exponential backtracking on a run of word characters
# Seconds a killed process may take to be gone. The product's "within seconds" is measured in bench/, not asserted:
# a busy machine can leave the reaping thread unscheduled for seconds, so this only bounds a process that never dies.
GONE_WITHIN = 60.0


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie (a zombie uses no CPU and no memory)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, we read
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(predicate, timeout: float = 60.0) -> bool:
    """Poll predicate until it holds (True) or timeout seconds have passed (False): a bound on failure, not a pace."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def pid_from(path: Path) -> int:
    assert wait_until(lambda: path.exists() and path.read_text()), "the job never started"
    return int(path.read_text())


@pytest.fixture()
def make_runner():
    runners = []

    def make(workers: int = 2, memory_mb: int = 1024, seconds: float = 60) -> JobRunner:
        runners.append(JobRunner(Limits(workers, memory_mb, seconds)))
        return runners[-1]

    yield make
    for runner in runners:
        runner.close()


def test_a_job_trains_exactly_what_training_here_gives(make_runner, shakespeare):
    text = shakespeare[:40_000]
    statuses: list[jobs.JobStatus] = []
    result = jobs.run_with_progress(
        bpe_core.train, (text, 500), statuses.append,
        kwargs={"special_tokens": ["<|endoftext|>"]}, poll_interval=0.01, runner=make_runner(),
    )  # fmt: skip
    here = bpe_core.train(text, 500, special_tokens=["<|endoftext|>"])
    assert result.merges == here.merges
    assert result.trace == here.trace
    assert result.tokenizer.encode(text[:2000]) == here.tokenizer.encode(text[:2000])
    last = statuses[-1]
    assert last.state == jobs.DONE and last.total > 0 and last.done == last.total and last.fraction == 1.0


def test_classic_training_comes_back_too(make_runner, shakespeare):
    text = shakespeare[:20_000]
    result = make_runner().submit(bpe_core.train_classic, text, 300).result(timeout=60)
    assert result.merges == bpe_core.train_classic(text, 300).merges


def test_cancel_stops_a_regex_stuck_in_the_c_engine(make_runner):
    job = make_runner().submit(bpe_core.train, "a" * 40, 300, pattern=CATASTROPHIC)
    assert wait_until(lambda: job.pid is not None and cpu_seconds(job.pid) > 0.3), "the regex never ran"
    pid = job.pid
    job.cancel()
    assert wait_until(lambda: not alive(pid), GONE_WITHIN)
    assert job.poll().state == jobs.CANCELLED
    with pytest.raises(JobCancelled, match="cancelled"):
        job.result(timeout=GONE_WITHIN)


def test_cancel_kills_the_processes_a_job_started(make_runner, tmp_path):
    job = make_runner().submit(job_functions.start_grandchild_and_sleep, str(tmp_path / "pid"))
    grandchild = pid_from(tmp_path / "pid")
    job.cancel()
    assert wait_until(lambda: not alive(grandchild), GONE_WITHIN)


def test_a_job_over_its_memory_cap_stops_with_a_clear_message(make_runner):
    runner = make_runner(memory_mb=200)
    with pytest.raises(JobStopped, match=r"^stopped: used more than 200 MB$"):
        runner.submit(job_functions.allocate, 1000).result(timeout=60)
    assert runner.submit(job_functions.allocate, 50).result(timeout=60) == 50 * 2**20  # under the cap


def test_the_memory_message_groups_thousands(make_runner):
    with pytest.raises(JobStopped, match=r"^stopped: used more than 1,024 MB$"):
        make_runner(memory_mb=1024).submit(job_functions.allocate, 3000).result(timeout=60)


def test_a_job_over_its_time_budget_stops_with_a_clear_message(make_runner):
    # The job's own pid, not one it writes: on a busy machine the budget may run out before the job's module has
    # even been imported, and that is a job over its budget too.
    job = make_runner(seconds=0.5).submit(job_functions.nap, 600)
    with pytest.raises(JobStopped, match=r"^stopped: took longer than 0.5 s$"):
        job.result(timeout=120)
    pid = job.pid
    assert pid is not None and wait_until(lambda: not alive(pid), GONE_WITHIN)
    assert job.poll().state == jobs.FAILED


def test_an_exception_in_the_job_arrives_with_its_type_and_message(make_runner):
    runner = make_runner()
    with pytest.raises(ValueError) as here:
        bpe_core.train("abc", 300, pattern="(unclosed")
    with pytest.raises(ValueError) as there:
        runner.submit(bpe_core.train, "abc", 300, pattern="(unclosed").result(timeout=60)
    assert str(there.value) == str(here.value)
    with pytest.raises(job_functions.Boom, match="^kaboom$"):
        runner.submit(job_functions.boom, "kaboom").result(timeout=60)


def test_an_exception_that_cannot_be_rebuilt_arrives_as_its_name_and_message(make_runner):
    with pytest.raises(RuntimeError, match="^NeedsTwoArguments: the frobnicator failed: out of frobs$"):
        make_runner().submit(job_functions.fail_oddly).result(timeout=60)


class StopLikeStreamlit(Exception):
    """Stands for Streamlit's StopException / RerunException raised in the polling script thread."""


@pytest.mark.parametrize("interruption", [StopLikeStreamlit, KeyboardInterrupt])
def test_an_exception_while_polling_kills_the_job(make_runner, tmp_path, interruption):
    path = tmp_path / "pid"

    def on_progress(status: jobs.JobStatus) -> None:
        if path.exists() and path.read_text():
            raise interruption()

    with pytest.raises(interruption):
        jobs.run_with_progress(
            job_functions.write_pid_and_sleep, (str(path),),
            on_progress=on_progress, poll_interval=0.02, runner=make_runner(),
        )  # fmt: skip
    assert wait_until(lambda: not alive(int(path.read_text())), GONE_WITHIN)


def test_a_job_whose_handle_is_dropped_is_killed(make_runner, tmp_path):
    job = make_runner().submit(job_functions.write_pid_and_sleep, str(tmp_path / "pid"))
    pid = pid_from(tmp_path / "pid")
    del job  # the session that held it is gone
    gc.collect()
    assert wait_until(lambda: not alive(pid), GONE_WITHIN)


def test_jobs_queue_in_order_and_all_finish(make_runner, tmp_path):
    runner = make_runner(workers=2)
    gate = tmp_path / "gate"  # the jobs run until it opens: a nap of 0.4 s could end before a busy test looked
    submitted = [runner.submit(job_functions.nap_until, str(gate)) for _ in range(4)]
    assert wait_until(lambda: all(job.poll().state != jobs.QUEUED for job in submitted[:2]))
    assert [job.poll().position for job in submitted] == [None, None, 1, 2]
    assert [job.poll().state for job in submitted[2:]] == [jobs.QUEUED, jobs.QUEUED]
    gate.touch()
    spans = [job.result(timeout=60) for job in submitted]
    starts = sorted(start for start, _ in spans)
    for start in starts:  # never more than two at once
        assert sum(begin <= start < end for begin, end in spans) <= 2
    assert spans[2][0] >= min(spans[0][1], spans[1][1])  # the third waited for a slot


def test_a_cancelled_queued_job_leaves_the_queue(make_runner, tmp_path):
    runner = make_runner(workers=1)
    gate = tmp_path / "gate"  # as above: the first job runs until the test has looked at the queue
    first, second, third = (runner.submit(job_functions.nap_until, str(gate)) for _ in range(3))
    assert wait_until(lambda: first.poll().state != jobs.QUEUED)
    assert third.poll().position == 2
    second.cancel()
    assert second.poll().state == jobs.CANCELLED
    assert third.poll().position == 1
    gate.touch()
    assert third.result(timeout=60)[0] >= first.result(timeout=60)[1]


def test_what_cannot_run_in_a_job_is_refused_at_submit(make_runner):
    runner = make_runner()
    with pytest.raises(TypeError, match="so that they pickle"):
        runner.submit(lambda: 1)

    def page_function() -> None: ...

    page_function.__module__ = "__main__"  # as a function defined in a Streamlit page script
    with pytest.raises(ValueError, match="defined in __main__"):
        runner.submit(page_function)


def test_limits_come_from_the_environment():
    assert jobs.limits_from_env({}).workers == len(os.sched_getaffinity(0))
    assert jobs.limits_from_env({}).seconds == 300
    assert 0 < jobs.limits_from_env({}).memory_mb <= 4096
    with pytest.raises(ValueError, match="BPE_JOB_SECONDS='soon' is not allowed: it must be a positive number"):
        jobs.limits_from_env({"BPE_JOB_SECONDS": "soon"})
    with pytest.raises(ValueError, match="BPE_JOB_WORKERS='0'"):
        jobs.limits_from_env({"BPE_JOB_WORKERS": "0"})


def test_release_memory_hands_freed_heap_back():
    blocks = [bytes(1000) + bytes([i % 256]) for i in range(100_000)]  # ~100 MB of malloc'd blocks
    del blocks
    assert jobs.release_memory() is True


def test_memory_is_released_by_one_thread_per_process():
    first = jobs.release_memory_every(3600)
    assert first.is_alive() and first.daemon
    assert jobs.release_memory_every(3600) is first
