"""Job processes forked from a runner's zygote (runtime.jobs.zygote), and a fresh interpreter where forking is
not possible: the same answers, each job in its own process group, every process gone after the runner."""

from __future__ import annotations

import os

import job_functions
import pytest
from test_jobs import alive, pid_from, wait_until

import bpe_core
from runtime.jobs import JobCancelled, JobRunner, Limits, zygote

TEXT = "the zygote forks, the job trains; " * 200


@pytest.fixture(params=[True, False], ids=["forked", "fresh interpreter"])
def forking(request, monkeypatch) -> bool:
    monkeypatch.setattr(zygote, "AVAILABLE", request.param and zygote.AVAILABLE)
    return zygote.AVAILABLE


def test_both_ways_give_training_here_and_a_process_group_each(forking):
    with JobRunner(Limits(workers=2, memory_mb=1024, seconds=60)) as runner:
        lineages = [runner.submit(job_functions.lineage).result(timeout=60) for _ in range(3)]
        trained = runner.submit(bpe_core.train, TEXT, 300).result(timeout=60)
        starter = runner._zygote
    assert trained.merges == bpe_core.train(TEXT, 300).merges
    parents = {parent for parent, _, _ in lineages}
    assert all(group == pid for _, group, pid in lineages)  # its own session: kill reaches all it starts
    assert len({pid for _, _, pid in lineages}) == 3
    if forking:
        assert starter is not None and parents == {starter.process.pid} != {os.getpid()}
        assert not alive(starter.process.pid)  # the runner closed: its zygote is gone
    else:
        assert starter is None and parents == {os.getpid()}
    assert not any(alive(pid) for _, _, pid in lineages)  # reaped, not left as zombies


def test_closing_the_runner_kills_a_running_job(forking, tmp_path):
    path = tmp_path / "pid"
    runner = JobRunner(Limits(workers=1, memory_mb=1024, seconds=60))
    job = runner.submit(job_functions.write_pid_and_sleep, str(path))
    pid = pid_from(path)
    runner.close()
    assert wait_until(lambda: not alive(pid)), "the job outlived its runner"
    with pytest.raises(JobCancelled):
        job.result(timeout=60)
