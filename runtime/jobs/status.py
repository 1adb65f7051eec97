"""What a job is, as its callers see it: its states, its status while a page waits, the limits a
runner applies, and how a stopped job is reported. How jobs run is ``runtime.jobs.runner``.
"""

from __future__ import annotations

from dataclasses import dataclass

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = frozenset({DONE, FAILED, CANCELLED})


class JobStopped(Exception):
    """The job was stopped before it finished: by its memory cap, its time budget, or a crash."""


class JobCancelled(JobStopped):
    """The job was cancelled by its owner (or its owner went away)."""


@dataclass(frozen=True)
class Limits:
    """How many jobs run at once, and what each may use."""

    workers: int
    memory_mb: int
    seconds: float


@dataclass(frozen=True)
class JobStatus:
    """What a page shows while it waits: the state, progress, and place in the queue."""

    state: str  # queued, running, done, failed or cancelled
    done: int  # progress reported by the job (0 until it reports)
    total: int
    position: int | None  # 1 = next to start; None once started
    seconds: float  # running time so far (0 while queued)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0

    @property
    def finished(self) -> bool:
        return self.state in FINISHED
