"""The check as a killable job in a worker process (``runtime.jobs``), with a progress bar and a Cancel button like
the Train page's (``ui.page_training``: the same session fields, so its notice shows the same way); a refusal, a failure
or a Cancel keeps the last result."""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.check import LearnerMerges, MergeCheck
from playground import check as model
from playground.corpora import PASTE, SLUGS, UPLOAD, load_sample, sample_name
from playground.i18n import N_, later, t
from playground.session import Session
from playground.text import plain
from runtime import jobs
from ui.progress_bar import STOPPED, job_bar

JOB = "check"
"""The check's job key (``Session.running_job`` while it runs; its Cancel button is ``check_cancel``)."""
CANCELLED = N_("Check cancelled. The result below, if any, is the previous one.")


def run_check(s: Session) -> None:
    """Check the learner's merges as a killable job (progress, Cancel); a refusal or failure keeps the last result."""
    try:
        text, label = _text(s)
        learner = model.merges_from_paste(s.check_paste) if s.check_input == "paste" else _uploaded(s)
    except model.CheckInputError as error:
        st.error(plain(t(error.message), limit=800), icon=":material/error:")
        if s.checked is not None:  # kept, but it must not read as the answer to what was just given
            st.info(
                t(
                    "The result below is the previous check's ({merges}), not of what was just given.",
                    merges=plain(s.checked.merges_label, limit=120),
                )
            )
        return
    options = model.settings(s.check_specials, s.check_pattern, s.check_classic)
    try:
        report = _job(s, (text, learner.merges, options), t("Checking {n:,} merges", n=len(learner.merges)))
    except STOPPED as failure:
        st.error(t("The check stopped: {reason}. The previous result is kept.", reason=plain(failure, limit=600)))
        return
    merges_label = t("pasted merges") if s.check_input == "paste" else s.check_file.name if s.check_file else ""
    s.checked = model.Checked(report, label, merges_label, len(learner.merges))


def _text(s: Session) -> tuple[str, str]:
    if s.check_corpus == PASTE:
        if s.pasted is None:
            raise model.CheckInputError(later("No text pasted yet: paste the text your trainer trained on."))
        return s.pasted.text, sample_name(PASTE)
    if s.check_corpus == UPLOAD:
        if s.upload is None:
            raise model.CheckInputError(later("No text file uploaded yet: upload the text your trainer trained on."))
        return s.upload.text, s.upload.name
    slug = s.check_corpus if s.check_corpus in SLUGS else s.corpus
    return load_sample(slug), sample_name(slug)


def _uploaded(s: Session) -> LearnerMerges:
    if s.check_uploaded is None:
        raise model.CheckInputError(later("No merges file uploaded yet (or it was refused): upload one first."))
    return s.check_uploaded


def _job(s: Session, args: tuple, label: str) -> MergeCheck:
    """``playground.check.check_job(*args)`` as a job, under the one progress bar with Cancel (``ui.progress_bar``)."""
    with job_bar(s, label, key=JOB, cancelled=t(CANCELLED)) as bar:
        report: MergeCheck = jobs.run_with_progress(model.check_job, args, bar.progress)
        return report
