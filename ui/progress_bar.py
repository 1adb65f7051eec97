"""One progress bar with a Cancel button for every job a page waits for (a training, a check).

The job runs in a worker process (``runtime.jobs``). A click on Cancel reruns the script: Streamlit raises inside
the next ``bar.progress`` and ``runtime.jobs`` kills the job; the cancel callback runs before that rerun draws
anything and leaves ``cancelled`` for the page to show once (``ui.page_training.cancel_notice``). Closing the tab ends
the session the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from playground.i18n import t
from playground.session import Session
from playground.text import plain
from runtime import jobs

STOPPED = (jobs.JobStopped, ValueError, TypeError)
"""What a job can end in besides its result: a limit, a crash; bad settings from the library."""

CancelCallback = Callable[[Session, str, str], None]


class JobBar:
    """The bar of one running job: what it says while the job is queued, runs, or waits for another session's."""

    def __init__(self, bar: DeltaGenerator, label: str) -> None:
        self._bar, self._label = bar, plain(label)

    def progress(self, status: jobs.JobStatus) -> None:
        """Called every poll, even without news: this call is where Streamlit stops the script."""
        if status.state == jobs.QUEUED:
            place = status.position or 1
            text = t("{label}: waiting for a free worker (number {n} in line)…", label=self._label, n=place)
        else:
            steps = t("{done:,} / {total:,} steps, ", done=status.done, total=status.total) if status.total else ""
            text = f"{self._label}… {steps}{status.seconds:.1f} s"
        self._bar.progress(min(1.0, status.fraction), text=text)

    def waiting(self, seconds: float, label: str) -> None:
        """Another session runs the same job (a room opening one link): this one waits for it."""
        text = t("Another session is training {label}: waiting for it… {n:.0f} s", label=plain(label), n=seconds)
        self._bar.progress(min(0.99, seconds / 60), text=text)


def cancel_clicked(s: Session, key: str, cancelled: str) -> None:
    """Cancel's callback, run before the rerun the click starts (the job is killed as that rerun begins). A click
    that lands after the job finished must not claim the old result was kept."""
    if s.running_job != key:
        s.notice("info", t("Cancel arrived after the job had finished: its result is shown."))
    else:
        s.cancelled = cancelled
    s.running_job = ""


@contextmanager
def job_bar(
    s: Session, label: str, *, key: str, cancelled: str, on_cancel: CancelCallback = cancel_clicked
) -> Iterator[JobBar]:
    """A progress bar titled ``label`` and a Cancel button (``{key}_cancel``) while the ``with`` block runs its job.

    ``Session.running_job`` is ``key`` meanwhile. It is cleared when the job ends, with its result or one of
    :data:`STOPPED`, but not when Streamlit stops the script for a Cancel click: the click's callback
    (``on_cancel(s, key, cancelled)``) must still find the job running to say it was cancelled.
    """
    holder = st.empty()
    with holder.container():
        bar = st.progress(0.0, text=f"{plain(label)}…")
        st.button(t("Cancel"), key=f"{key}_cancel", on_click=on_cancel, args=(s, key, cancelled))
    s.running_job = key
    try:
        yield JobBar(bar, label)
    except STOPPED:
        s.running_job = ""
        raise
    else:
        s.running_job = ""  # a Cancel click that arrives now is too late: the callback says so
    finally:
        holder.empty()
