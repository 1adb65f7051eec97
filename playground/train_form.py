"""The Train settings checked and turned into a :class:`playground.trained.Request`, before any work.

Everything a user can get wrong is caught here with a message saying what is allowed: no corpus,
a custom regex that does not compile or does not cover the text (or runs past its time budget), a
vocab size below the base alphabet or above what the corpus can make (:func:`limits`, shown on
the Train page before anyone clicks); for a training that continues a tokenizer, its base and the vocab size
against the base's (``playground.extend_form``). The vocab sizes a corpus allows are
``playground.corpus_limits``'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bpe_core.pretokenize import compile_pattern
from playground import caches, extend_form, trainer_options
from playground.bases import BYTES
from playground.corpora import PASTE, SLUGS, UPLOAD, load_sample, sample_name
from playground.corpus_limits import CUSTOM_CHECK_SECONDS, limits, limits_bounded
from playground.form_errors import SettingsError
from playground.heldout_texts import split_once
from playground.i18n import later, t
from playground.kinds import LANGUAGES, MAX_VOCAB, USER, Kind, Limits, kind_of
from playground.request import OPTION_FIELDS
from playground.session import FIELDS, Session
from playground.text import plain
from playground.trained import Request, Trained
from runtime.store import text_digest

__all__ = [
    "CUSTOM_CHECK_SECONDS",
    "SettingsError",
    "corpus_text",
    "estimate_seconds",
    "limits",
    "limits_bounded",
    "request_for",
    "vocab_range",
]

# -- what to train ----------------------------------------------------------------------------------


def corpus_text(s: Session) -> str:
    """The text of the chosen corpus; SettingsError when there is none."""
    if s.corpus == PASTE:
        if s.pasted is None:
            raise SettingsError(later("The corpus is empty: paste some text, upload a .txt file or pick a sample."))
        return s.pasted.text
    if s.corpus == UPLOAD:
        if s.upload is None and s.upload_problem:  # the uploader's own reason (an empty file, a binary one)
            raise SettingsError(later("The uploaded file cannot be trained on: {problem}", problem=s.upload_problem))
        if s.upload is None:
            raise SettingsError(later("No file uploaded yet (or the upload was refused): upload a .txt file first."))
        return s.upload.text
    return load_sample(s.corpus)


def corpus_label(s: Session) -> str:
    """The corpus as the request keeps it (in English: it goes into exported files; pages show ``Request.label``)."""
    return s.upload.name if s.corpus == UPLOAD and s.upload is not None else sample_name(s.corpus, lang="en")


def special_tokens(s: Session) -> tuple[str, ...]:
    """Special tokens from the settings (separated by spaces); duplicates dropped, order kept."""
    return tuple(dict.fromkeys(s.specials.split()))


def pattern_for(s: Session) -> str | None:
    """What training gets for the session's kind and chosen pattern (a kind's own, or the user's); SettingsError
    for a broken custom regex."""
    kind = kind_of(s.kind)
    if kind.pattern != USER:
        return kind.pattern_for(None)
    if s.pattern == "none":
        return None
    if s.pattern != "custom":
        return s.pattern
    try:
        compile_pattern(s.regex)
    except ValueError as error:
        raise SettingsError(
            later("The custom pre-tokenization pattern cannot be used: {error}", error=plain(error, limit=400)),
            pattern=s.regex,
        ) from None
    return s.regex


_limits = caches.LIMITS


def limits_for(s: Session, text: str, digest: str) -> Limits:
    """:func:`limits` of the session's settings, remembered by the corpus digest (shown on every rerun).
    A pattern that fails on this corpus is remembered too (finding out may take seconds), as its
    message, so each session reads it in its own language."""
    pattern, specials = pattern_for(s), kind_of(s.kind).specials_for(special_tokens(s))

    def compute() -> Limits | SettingsError:
        try:
            return limits_bounded(text, s.kind, pattern, specials)
        except ValueError as error:  # e.g. a custom regex that skips characters of this corpus
            return SettingsError(
                later(
                    "The pre-tokenization pattern cannot be used on this corpus: {error}", error=plain(error, limit=400)
                ),
                pattern=pattern,
            )

    found = _limits.get_or_compute((digest, s.kind, pattern, specials), compute)
    if isinstance(found, SettingsError):
        raise SettingsError(found.message, pattern=found.pattern)
    return found


def corpus_digest(s: Session, text: str) -> str:
    own = {UPLOAD: s.upload, PASTE: s.pasted}.get(s.corpus)
    return own.digest if own is not None else text_digest(text)


def request_for(s: Session) -> tuple[Request, str]:
    """The request the settings describe and its text; SettingsError (what and what is allowed) if none."""
    trainer_options.check(s)  # an option out of range (its box says so too) is never trained with
    text = corpus_text(s)
    kind = kind_of(s.kind)
    if not kind.keeps_whitespace and not text.split():
        raise SettingsError(
            later("The corpus is only whitespace: classic BPE drops whitespace, so nothing is left to train.")
        )
    digest = corpus_digest(s, text)
    languages = SLUGS[s.corpus].languages if s.corpus in SLUGS else ()
    if kind.trains_on == LANGUAGES and not languages:
        raise SettingsError(
            later(
                "Parity-aware training needs a parallel corpus (the same sentences in several "
                "languages): choose the parallel sample."
            )
        )
    base = extend_form.base_of(s)
    if base is not None:  # the base's pattern and special tokens: only the vocab size is checked against it
        trained_part(s, text, digest, languages)  # (a corpus too short to hold out from is said so)
        extend_form.check_vocab(s.vocab, base[1], base[2])
        return _request(s, kind, digest, languages, base), text
    bounds = limits_for(s, *trained_part(s, text, digest, languages))
    if kind.uses("alphabet") and s.alphabet:  # a limited alphabet starts smaller: its characters + </w>
        bounds = replace(bounds, minimum=min(bounds.minimum, s.alphabet + 1))
    # Above what the corpus can make is fine: training stops when no pair is left, and says so (vocab_range
    # before, the result's "of … asked" after). Only sizes no training could give are refused.
    if not bounds.minimum <= s.vocab <= MAX_VOCAB:
        if s.vocab < bounds.minimum:
            reason = later("the vocabulary starts at {low:,} ({why})", low=bounds.minimum, why=later(kind.base_note))
        else:
            reason = later("the app trains at most {high:,} tokens", high=MAX_VOCAB)
        raise SettingsError(
            later(
                "Vocab size {vocab:,} is not possible here: {reason}. Choose a size {allowed}.",
                vocab=s.vocab,
                reason=reason,
                allowed=later("from {low:,} to {high:,}", low=bounds.minimum, high=MAX_VOCAB),
            )
        )
    return _request(s, kind, digest, languages), text


def _request(
    s: Session, kind: Kind, digest: str, languages: tuple[str, ...], base: extend_form.BaseInfo | None = None
) -> Request:
    """The request of the settings, unchecked (a custom regex that does not compile is a SettingsError); one that
    continues ``base`` takes its pattern, special tokens and tie rule."""
    options = {name: getattr(s, name) if kind.uses(name) else FIELDS[name].initial() for name in OPTION_FIELDS}
    shared: dict[str, Any] = dict(
        corpus=s.corpus,
        corpus_label=corpus_label(s),
        text_digest=digest,
        kind=kind.name,
        vocab_size=s.vocab,
        holdout=s.holdout,
        languages=languages,
        min_frequency=options["min_freq"],
        max_token_length=options["max_len"],
        limit_alphabet=options["alphabet"],
        initial_alphabet=options["keep_chars"],
    )
    if base is not None:  # the base decides the pattern, the special tokens and the tie rule
        return Request(
            **shared,
            pattern_choice=extend_form.base_pattern_choice(s),
            pattern=None,
            special_tokens=(),
            base=base[0],
            base_label=base[1],
            base_size=base[2],
        )
    return Request(
        **shared,
        pattern_choice=kind.pattern_choice(s.pattern),
        pattern=pattern_for(s),
        special_tokens=kind.specials_for(special_tokens(s)),
        transition=s.transition if kind.uses("transition") else None,
        max_words=s.maxwords if kind.uses("maxwords") else None,
        tie_break=s.ties if kind.uses("ties") else "greatest",
    )


def trained_part(s: Session, text: str, digest: str, languages: tuple[str, ...] = ()) -> tuple[str, str]:
    """The part of the corpus that is trained on, and a key for it: all of it, or all but what ``s.holdout``
    holds out, cut once (the job gets the same part: ``playground.runs``); SettingsError when the corpus has too
    few lines to hold anything out."""
    if not s.holdout:
        return text, digest
    try:
        return split_once(text, digest, s.holdout, languages)[0], f"{digest}:holdout={s.holdout}"
    except ValueError:
        raise SettingsError(
            later(
                "The corpus has too few lines to hold out {n}% of them: hold out nothing, or give "
                "a text of several lines.",
                n=s.holdout,
            )
        ) from None


_stops = caches.STOPS
"""Merges after which training ran out of pairs, by corpus digest and settings (not the vocab size): once a
training has stopped early, the Train page knows the corpus's largest vocab size exactly."""


def _stop_key(request: Request) -> tuple[object, ...]:
    """What decides where training runs out of pairs: the request but its vocab size (one key for note_stop and
    vocab_range, so every kind's stop is found again, superword's stage settings included)."""
    return (
        request.text_digest,
        request.kind,
        request.pattern,
        request.special_tokens,
        request.holdout,
        request.transition,
        request.max_words,
        request.tie_break,
        request.base,
        request.option_values(),
    )


def note_stop(trained: Trained) -> None:
    """Keep where ``trained`` ran out of pairs, if it did."""
    if trained.result.stopped_early:
        _stops.put(_stop_key(trained.request), trained.num_merges)


def vocab_range(s: Session) -> str | None:
    """What the Train page says about the vocab sizes this corpus allows (None when the settings cannot be
    trained: the Train button says why). The largest size is known exactly only once a training ran out of
    pairs; before, the page gives the range where that happens."""
    if kind_of(s.kind).uses("base") and s.base != BYTES:
        return extend_form.vocab_range(s)
    try:
        text = corpus_text(s)
        digest = corpus_digest(s, text)
        languages = SLUGS[s.corpus].languages if s.corpus in SLUGS else ()
        bounds = limits_for(s, *trained_part(s, text, digest, languages))
        request = _request(s, kind_of(s.kind), digest, languages)
    except SettingsError:
        return None
    stop = _stops.get(_stop_key(request))
    if stop is not None:
        return t(
            "Vocab sizes from {low:,} to {high:,} on this corpus: training it ran out of pairs after {n:,} merges "
            "(a bigger size gives the same tokenizer).",
            low=bounds.minimum,
            high=bounds.minimum + stop,
            n=stop,
        )
    if not bounds.exact:
        return t(
            "Vocab sizes from {low:,}. This corpus is too big to count before training: how many merges it "
            "allows is known only after training.",
            low=bounds.minimum,
        )
    return t(
        "Vocab sizes from {low:,}. Training stops when no pair is left to merge: on this corpus after {fewest:,} "
        "to {most:,} merges, and only training tells where (a bigger size then gives the same tokenizer).",
        low=bounds.minimum,
        fewest=bounds.fewest,
        most=bounds.maximum - bounds.minimum,
    )


def estimate_seconds(request: Request, n_bytes: int) -> float:
    """A rough forecast from this machine: counting ~5 MB/s, ~0.3 ms a merge, times the kind's factor
    (``playground.kinds``: 4x for plain BPE without pre-tokens, 5x parity-aware, 3x superword tokens)."""
    merges = max(0, request.new_merges)
    seconds = n_bytes / 5e6 + merges * 3e-4
    if request.base:  # the job builds the base (~2 s for 100,000 tokens) and encodes each pre-token with it first
        seconds += n_bytes / 5e6 + request.base_size * 2e-5
    return seconds * kind_of(request.kind).time_factor_for(request.pattern)
