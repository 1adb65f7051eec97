"""The one way anything is trained and stored: the Train button, a link and Compare all call :func:`run`.

A run is checked before any work (:func:`request_for`: corpus present, pattern valid, vocab size
within what the corpus can make), served from a cache when the same request was trained before
(per session, and across sessions so a room opening one link trains it once), and otherwise run
as a job in a worker process with a progress bar and a Cancel button that stops the CPU for real.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpe_core.pretokenize import compile_pattern, count_pretokens
from ui import jobs
from ui.corpora import PASTE, SLUGS, UPLOAD, load_sample
from ui.session import MAX_VOCAB, Session, sample_name
from ui.text import human_bytes, plain
from ui.trained import Request, Trained, text_digest, train_job

SESSION_CACHE = 4
"""Trained results a session keeps (switching back to an earlier setting is instant)."""
SHARED_CACHE = 16
"""Trained results shared by all sessions, least recently used dropped first."""
AUTO_TRAIN_SECONDS = float(os.environ.get("BPE_AUTO_TRAIN_SECONDS", "5"))
"""A link may start training by itself only when the estimate is below this; above, it asks for a click."""
EXACT_LIMIT_CHARS = 2_000_000
"""Up to this size the number of possible merges is counted exactly before training."""


class SettingsError(ValueError):
    """Settings that cannot be trained; the message is Markdown-safe and says what is allowed.

    ``pattern`` is the regex at fault, if any, for the page to show verbatim.
    """

    def __init__(self, message: str, pattern: str | None = None):
        super().__init__(message)
        self.pattern = pattern


# -- what to train ----------------------------------------------------------------------------------


def corpus_text(s: Session) -> str:
    """The text of the chosen corpus; SettingsError when there is none."""
    if s.corpus == PASTE:
        if not s.pasted_text:
            raise SettingsError("The corpus is empty: paste some text, upload a .txt file or pick a sample.")
        return s.pasted_text
    if s.corpus == UPLOAD:
        if s.upload is None:
            raise SettingsError("No file uploaded yet (or the upload was refused): upload a .txt file first.")
        return s.upload.text
    return load_sample(s.corpus)


def corpus_label(s: Session) -> str:
    return s.upload.name if s.corpus == UPLOAD and s.upload is not None else sample_name(s.corpus)


def special_tokens(s: Session) -> tuple[str, ...]:
    """Special tokens from the settings (separated by spaces); duplicates dropped, order kept."""
    return tuple(dict.fromkeys(s.specials.split()))


def pattern_for(s: Session) -> str | None:
    """What ``bpe_core.train`` gets for the chosen pattern; SettingsError for a broken custom regex."""
    if s.pattern == "none":
        return None
    if s.pattern != "custom":
        return s.pattern
    try:
        compile_pattern(s.regex)
    except ValueError as error:
        raise SettingsError(
            f"The custom pre-tokenization pattern cannot be used: {plain(error, limit=400)}", pattern=s.regex
        ) from None
    return s.regex


@dataclass(frozen=True)
class Limits:
    """The vocab sizes a corpus allows with some settings."""

    minimum: int
    maximum: int
    exact: bool  # maximum counted from the corpus (else only bounded by its size)

    @property
    def allowed(self) -> str:
        return f"from {self.minimum:,} to {self.maximum:,}"


def limits(text: str, kind: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Smallest and largest useful vocab size: each merge removes at least one symbol from some distinct
    word (pre-token), so sum(len - 1) over the distinct words bounds the number of merges.

    >>> limits("aaabdaaabac", "byte", "gpt2", ())
    Limits(minimum=256, maximum=266, exact=True)
    """
    if kind == "classic":
        words = set(text.split())
        base = len({character for word in words for character in word}) + 1
        return Limits(base, min(MAX_VOCAB, base + sum(len(word) for word in words)), True)
    minimum = 256 + len(specials)
    if len(text) > EXACT_LIMIT_CHARS:
        return Limits(minimum, MAX_VOCAB, False)
    counts = count_pretokens(text, pattern, specials)
    bound = sum(len(word.encode("utf-8", errors="surrogatepass")) - 1 for word in counts)
    return Limits(minimum, min(MAX_VOCAB, minimum + bound), True)


_limits_cache: OrderedDict[tuple, Limits] = OrderedDict()


def limits_for(s: Session, text: str, digest: str) -> Limits:
    """:func:`limits` of the session's settings, remembered by the corpus digest (shown on every rerun)."""
    classic = s.kind == "classic"
    pattern = None if classic else pattern_for(s)
    specials = () if classic else special_tokens(s)
    key = (digest, s.kind, pattern, specials)
    with _shared_lock:
        found = _limits_cache.get(key)
    if found is None:
        try:
            found = limits(text, s.kind, pattern, specials)
        except ValueError as error:  # e.g. a custom regex that skips characters of this corpus
            raise SettingsError(
                f"The pre-tokenization pattern cannot be used on this corpus: {plain(error, limit=400)}",
                pattern=pattern,
            ) from None
        with _shared_lock:
            _limits_cache[key] = found
            while len(_limits_cache) > 64:
                _limits_cache.popitem(last=False)
    return found


def corpus_digest(s: Session, text: str) -> str:
    return s.upload.digest if s.corpus == UPLOAD and s.upload is not None else text_digest(text)


def request_for(s: Session) -> tuple[Request, str]:
    """The request the settings describe and its text; SettingsError (what and what is allowed) if none."""
    text = corpus_text(s)
    classic = s.kind == "classic"
    if classic and not text.split():
        raise SettingsError("The corpus is only whitespace: classic BPE drops whitespace, so nothing is left to train.")
    digest = corpus_digest(s, text)
    bounds = limits_for(s, text, digest)
    if not bounds.minimum <= s.vocab <= bounds.maximum:
        if s.vocab < bounds.minimum:
            why = "256 byte tokens + special tokens" if not classic else "the characters of the corpus + </w>"
            reason = f"the vocabulary starts at {bounds.minimum:,} ({why})"
        else:
            reason = f"this corpus allows at most {bounds.maximum - bounds.minimum:,} merges"
        raise SettingsError(
            f"Vocab size {s.vocab:,} is not possible here: {reason}. Choose a size {bounds.allowed}."
        )
    request = Request(
        corpus=s.corpus,
        corpus_label=corpus_label(s),
        text_digest=digest,
        kind=s.kind,
        vocab_size=s.vocab,
        pattern_choice="classic" if classic else s.pattern,
        pattern=None if classic else pattern_for(s),
        special_tokens=() if classic else special_tokens(s),
    )
    return request, text


def estimate_seconds(request: Request, n_bytes: int) -> float:
    """A rough forecast from this machine: counting ~5 MB/s, ~0.3 ms a merge; 4x without pre-tokens."""
    merges = max(0, request.vocab_size - 256 - len(request.special_tokens))
    seconds = n_bytes / 5e6 + merges * 3e-4
    return seconds * (4 if request.pattern is None and request.kind == "byte" else 1)


# -- caches -----------------------------------------------------------------------------------------

_shared: OrderedDict[str, Trained] = OrderedDict()
_shared_lock = threading.Lock()


def cached(s: Session, request: Request) -> Trained | None:
    if s.cache is None:
        s.cache = OrderedDict()
    found = s.cache.get(request.key)
    if found is None:
        with _shared_lock:
            found = _shared.get(request.key)
            if found is not None:
                _shared.move_to_end(request.key)
    return found


def _remember(s: Session, trained: Trained) -> None:
    key = trained.request.key
    s.cache[key] = trained
    s.cache.move_to_end(key)
    while len(s.cache) > SESSION_CACHE:
        s.cache.popitem(last=False)
    if trained.request.corpus in SLUGS:  # built-in text is public: share the result with every session
        with _shared_lock:
            _shared[key] = trained
            while len(_shared) > SHARED_CACHE:
                _shared.popitem(last=False)


def store(s: Session, trained: Trained) -> None:
    """Make ``trained`` the session's tokenizer; the Merges page opens on its last round."""
    _remember(s, trained)
    s.trained = trained
    s.round = None


# -- running ----------------------------------------------------------------------------------------


STOPPED = (jobs.JobStopped, ValueError, TypeError)
"""What a job can end in besides its result: a limit, Cancel, a crash; bad settings from the library."""


def with_progress(s: Session, fn: Callable[..., Any], args: tuple, label: str, *, key: str, cancelled: str) -> Any:
    """``fn(*args)`` as a killable job (ui.jobs), with a progress bar titled ``label`` and a Cancel button.

    A click on Cancel reruns the script: Streamlit raises inside the next ``bar.progress`` and ui.jobs
    kills the job; ``cancelled`` is shown once on the next run. Closing the tab ends the session the
    same way. The exceptions in :data:`STOPPED` propagate.
    """
    holder = st.empty()
    with holder.container():
        bar = st.progress(0.0, text=f"{plain(label)}…")
        st.button("Cancel", key=f"{key}_cancel", on_click=s.notice, args=("warning", cancelled))

    def on_progress(status: jobs.JobStatus) -> None:
        # Called every poll, even without news: this call is where Streamlit stops the script.
        if status.state == jobs.QUEUED:
            text = f"{plain(label)}: waiting for a free worker (number {status.position or 1} in line)…"
        else:
            steps = f"{status.done:,} / {status.total:,} steps, " if status.total else ""
            text = f"{plain(label)}… {steps}{status.seconds:.1f} s"
        bar.progress(min(1.0, status.fraction), text=text)

    try:
        return jobs.run_with_progress(fn, args, on_progress)
    finally:
        holder.empty()


_in_flight: dict[str, threading.Event] = {}


def _wait_for_other_session(request: Request) -> None:
    """A room opening one link: the first session trains, the others wait here (interruptibly)."""
    event = _in_flight.get(request.key)
    if event is None:
        return
    bar = st.progress(0.0, text=f"Another session is training {plain(request.label)}: waiting for it…")
    waited = 0.0
    while not event.wait(0.25):
        waited += 0.25
        bar.progress(min(0.99, waited / 60), text=f"Another session is training {plain(request.label)}: "
                     f"waiting for it… {waited:.0f} s")
    bar.empty()


def run(s: Session, request: Request, text: str, *, key: str = "train") -> Trained | None:
    """Train ``request`` (or take it from a cache), store it, and return it; None after a shown error."""
    _wait_for_other_session(request)
    found = cached(s, request)
    if found is not None:
        store(s, found)
        return found
    event = _in_flight.setdefault(request.key, threading.Event())
    try:
        trained = with_progress(
            s, train_job, (text, request), f"Training {request.label}", key=key,
            cancelled="Training cancelled. The previous tokenizer and settings are kept.",
        )  # fmt: skip
    except STOPPED as failure:
        st.error(f"Training stopped: {plain(failure, limit=600)}. The previous tokenizer is kept.")
        return None
    finally:
        _in_flight.pop(request.key, None)
        event.set()
    store(s, trained)
    return trained


def offer(s: Session, request: Request, text: str, why: str, *, key: str) -> Trained | None:
    """Train by itself when cheap; above the budget, show the estimate and train only on a click."""
    if cached(s, request) is None:
        seconds = estimate_seconds(request, len(text.encode("utf-8", errors="surrogatepass")))
        if seconds > AUTO_TRAIN_SECONDS:
            st.info(
                f"{why} {plain(request.label)} on {human_bytes(len(text))} of text: about {seconds:,.0f} s "
                "of training. It starts only when you click."
            )
            if not st.button("Train it ▶", type="primary", key=f"{key}_confirm"):
                return None
    return run(s, request, text, key=key)


def ensure(s: Session, what: str) -> Trained | None:
    """The tokenizer a page shows: the one a just-opened link describes (trained if cheap, else on a
    click), or the session's; with none, one click trains the Train page's settings."""
    if s.link_request:
        if s.corpus in (PASTE, UPLOAD) and corpus_missing(s):
            s.link_request = None
            st.warning(
                f"This link was made from {sample_name(s.corpus)}, which never travels in links: add the text on "
                "the Train page to train this tokenizer. Nothing else was substituted."
            )
        else:
            try:
                request, text = request_for(s)
            except SettingsError as error:
                s.link_request = None
                st.warning(f"The tokenizer this link describes cannot be trained: {error}")
            else:
                already = s.trained is not None and s.trained.request.key == request.key
                asked_round = s.round  # the link's round, which storing a new tokenizer would reset
                if already or offer(s, request, text, "This link shows", key="link") is not None:
                    s.link_request = None
                    s.round = asked_round
    if s.trained is None:
        _quick_train(s, what)
    return s.trained


def corpus_missing(s: Session) -> bool:
    return (s.corpus == PASTE and not s.pasted_text) or (s.corpus == UPLOAD and s.upload is None)


def _quick_train(s: Session, what: str) -> None:
    st.info(f"No tokenizer trained yet in this session. Train one to {what}.")
    try:
        request, text = request_for(s)
    except SettingsError as error:
        st.warning(str(error))
    else:
        clicked = st.button(f"▶ Train {plain(request.label)} now", type="primary", key="quick_train")
        if clicked and run(s, request, text, key="quick") is not None:
            st.rerun()  # draw the page with its tokenizer
    st.page_link("pages/0_Train.py", label="Or choose a corpus and settings on the Train page",
                 icon=":material/tune:")
