"""The Train settings checked and turned into a :class:`playground.trained.Request`, before any work.

Everything a user can get wrong is caught here with a message saying what is allowed: no corpus,
a custom regex that does not compile or does not cover the text (or runs past its time budget), a
vocab size below the base alphabet or above what the corpus can make (:func:`limits`, shown on
the Train page before anyone clicks).
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core.pretokenize import PATTERNS, PatternTimeout, compile_pattern, count_pretokens, shown_pattern
from bpe_core.pretokenize.superword import SUPERWORD_PATTERN
from playground import caches
from playground.corpora import PASTE, SLUGS, UPLOAD, load_sample, sample_name
from playground.heldout_texts import split_once
from playground.i18n import N_, Later, later, t
from playground.session import MAX_VOCAB, Session
from playground.text import plain
from playground.trained import Request, Trained
from runtime import jobs
from runtime.store import text_digest

EXACT_LIMIT_CHARS = 2_000_000
"""Up to this size the number of possible merges is counted exactly before training."""
CUSTOM_CHECK_SECONDS = 6.0
"""A custom regex is first run over the corpus in a job process, given up (and killed) after this long."""


class SettingsError(ValueError):
    """Settings that cannot be trained; ``message`` (``playground.i18n.later``, shown with ``t``) is Markdown-safe
    and says what is allowed.

    ``pattern`` is the regex at fault, if any, for the page to show verbatim.
    """

    def __init__(self, message: Later, pattern: str | None = None):
        super().__init__(str(message))
        self.message, self.pattern = message, pattern


# -- what to train ----------------------------------------------------------------------------------


def corpus_text(s: Session) -> str:
    """The text of the chosen corpus; SettingsError when there is none."""
    if s.corpus == PASTE:
        if s.pasted is None:
            raise SettingsError(later("The corpus is empty: paste some text, upload a .txt file or pick a sample."))
        return s.pasted.text
    if s.corpus == UPLOAD:
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
    """What ``bpe_core.train`` gets for the chosen pattern; SettingsError for a broken custom regex."""
    if s.pattern == "none":
        return None
    if s.pattern != "custom":
        return s.pattern
    try:
        compile_pattern(s.regex)
    except ValueError as error:
        raise SettingsError(later("The custom pre-tokenization pattern cannot be used: {error}",
                                  error=plain(error, limit=400)), pattern=s.regex) from None
    return s.regex


@dataclass(frozen=True)
class Limits:
    """The vocab sizes a corpus allows with some settings."""

    minimum: int
    maximum: int
    exact: bool  # maximum counted from the corpus (else only bounded by its size)
    fewest: int = 0  # training can run out of pairs no sooner than after this many merges (0: not counted)

    @property
    def allowed(self) -> Later:
        return later("from {low:,} to {high:,}", low=self.minimum, high=self.maximum)


def limits(text: str, kind: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Smallest and largest useful vocab size: each merge removes at least one symbol from some distinct
    word (pre-token), so sum(len - 1) over the distinct words bounds the number of merges. Training stops
    when no pair is left, that is when every distinct word is one token, so no sooner than after as many
    merges as there are distinct words of two symbols or more (``fewest``); where between the two it stops
    is known only by training.

    >>> limits("aaabdaaabac", "byte", "gpt2", ())
    Limits(minimum=256, maximum=266, exact=True, fewest=1)

    Superword tokens: stage 1 merges within GPT-2 pre-tokens (bounded as above), and each merge of stage 2
    removes a symbol from some distinct chunk (:data:`SUPERWORD_PATTERN`), so the two bounds add up.

    >>> limits("by the way by the way", "superword", SUPERWORD_PATTERN, ())
    Limits(minimum=256, maximum=285, exact=True, fewest=4)
    """
    if kind == "superword":
        within = limits(text, "byte", "gpt2", specials)
        across = limits(text, "byte", SUPERWORD_PATTERN, specials)
        maximum = min(MAX_VOCAB, within.maximum + across.maximum - across.minimum)
        # Every distinct chunk ends as one token: at least as many merges as chunks of two symbols or more.
        return Limits(within.minimum, maximum, within.exact and across.exact, max(within.fewest, across.fewest))
    if kind == "classic":
        words = set(text.split())
        base = len({character for word in words for character in word}) + 1
        return Limits(base, min(MAX_VOCAB, base + sum(len(word) for word in words)), True, len(words))
    minimum = 256 + len(specials)
    if len(text) > EXACT_LIMIT_CHARS:
        return Limits(minimum, MAX_VOCAB, False)
    lengths = [len(word.encode("utf-8", errors="surrogatepass")) for word in count_pretokens(text, pattern, specials)]
    bound = sum(length - 1 for length in lengths)
    return Limits(minimum, min(MAX_VOCAB, minimum + bound), True, sum(length > 1 for length in lengths))


_limits = caches.LIMITS


def limits_for(s: Session, text: str, digest: str) -> Limits:
    """:func:`limits` of the session's settings, remembered by the corpus digest (shown on every rerun).
    A pattern that fails on this corpus is remembered too (finding out may take seconds), as its
    message, so each session reads it in its own language."""
    classic = s.kind == "classic"
    pattern = None if classic else SUPERWORD_PATTERN if s.kind == "superword" else pattern_for(s)
    specials = () if classic else special_tokens(s)

    def compute() -> Limits | SettingsError:
        try:
            return _limits_bounded(text, s.kind, pattern, specials)
        except ValueError as error:  # e.g. a custom regex that skips characters of this corpus
            return SettingsError(later("The pre-tokenization pattern cannot be used on this corpus: {error}",
                                       error=plain(error, limit=400)), pattern=pattern)  # fmt: skip

    found = _limits.get_or_compute((digest, s.kind, pattern, specials), compute)
    if isinstance(found, SettingsError):
        raise SettingsError(found.message, pattern=found.pattern)
    return found


def _limits_bounded(text: str, kind: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """:func:`limits`; a custom regex runs in a job process: in the server's thread a regex that
    backtracks catastrophically would hold the whole server (the regex engine keeps the GIL) for
    as long as its own budget allows, seconds beyond it on a busy machine (18 s measured)."""
    custom = kind != "classic" and pattern is not None and pattern not in PATTERNS and len(text) <= EXACT_LIMIT_CHARS
    if not custom or pattern is None:  # (custom implies a pattern; said again for the closure below)
        return limits(text, kind, pattern, specials)

    def give_up(status: jobs.JobStatus) -> None:
        if status.seconds > CUSTOM_CHECK_SECONDS:  # running time only: a queued check is not late
            raise PatternTimeout(
                t(
                    "pre-tokenization pattern {pattern} ran for more than {seconds:g} s on {characters:,} characters "
                    "and was stopped: it backtracks catastrophically (typically a repeated group whose alternatives "
                    "overlap, like ([\\w ]|[\\w ])+). Make the alternatives disjoint or use possessive quantifiers "
                    "(++, *+) or atomic groups (?>...)",
                    pattern=shown_pattern(pattern), seconds=CUSTOM_CHECK_SECONDS, characters=len(text),
                )
            )

    # Always a local process, even when training goes to a Dask cluster: a regex stuck in the C engine never
    # calls back, so only a kill stops it, and a Dask worker's thread cannot be killed (runtime.jobs.cluster).
    return jobs.run_with_progress(limits, (text, kind, pattern, specials), give_up, poll_interval=0.1,
                                  runner=jobs.local_runner())  # fmt: skip


def corpus_digest(s: Session, text: str) -> str:
    own = {UPLOAD: s.upload, PASTE: s.pasted}.get(s.corpus)
    return own.digest if own is not None else text_digest(text)


def request_for(s: Session) -> tuple[Request, str]:
    """The request the settings describe and its text; SettingsError (what and what is allowed) if none."""
    text = corpus_text(s)
    classic = s.kind == "classic"
    if classic and not text.split():
        raise SettingsError(later("The corpus is only whitespace: classic BPE drops whitespace, so nothing is left "
                                  "to train."))
    digest = corpus_digest(s, text)
    languages = SLUGS[s.corpus].languages if s.corpus in SLUGS else ()
    if s.kind == "parity" and not languages:
        raise SettingsError(later("Parity-aware training needs a parallel corpus (the same sentences in several "
                                  "languages): choose the parallel sample."))
    bounds = limits_for(s, *trained_part(s, text, digest, languages))
    if not bounds.minimum <= s.vocab <= bounds.maximum:
        if s.vocab < bounds.minimum:
            why = N_("256 byte tokens + special tokens") if not classic else N_("the characters of the corpus + </w>")
            reason = later("the vocabulary starts at {low:,} ({why})", low=bounds.minimum, why=later(why))
        else:
            reason = later("this corpus allows at most {n:,} merges", n=bounds.maximum - bounds.minimum)
        raise SettingsError(later("Vocab size {vocab:,} is not possible here: {reason}. Choose a size {allowed}.",
                                  vocab=s.vocab, reason=reason, allowed=bounds.allowed))
    superword = s.kind == "superword"
    request = Request(
        corpus=s.corpus,
        corpus_label=corpus_label(s),
        text_digest=digest,
        kind=s.kind,
        vocab_size=s.vocab,
        pattern_choice="classic" if classic else "superword" if superword else s.pattern,
        pattern=None if classic else SUPERWORD_PATTERN if superword else pattern_for(s),
        special_tokens=() if classic else special_tokens(s),
        holdout=s.holdout,
        languages=languages,
        transition=s.transition if superword else None,
        max_words=s.maxwords if superword else None,
    )
    return request, text


def trained_part(s: Session, text: str, digest: str, languages: tuple[str, ...] = ()) -> tuple[str, str]:
    """The part of the corpus that is trained on, and a key for it: all of it, or all but what ``s.holdout``
    holds out, cut once (the job gets the same part: ``playground.runs``); SettingsError when the corpus has too
    few lines to hold anything out."""
    if not s.holdout:
        return text, digest
    try:
        return split_once(text, digest, s.holdout, languages)[0], f"{digest}:holdout={s.holdout}"
    except ValueError:
        raise SettingsError(later("The corpus has too few lines to hold out {n}% of them: hold out nothing, or give "
                                  "a text of several lines.", n=s.holdout)) from None


_stops = caches.STOPS
"""Merges after which training ran out of pairs, by corpus digest and settings (not the vocab size): once a
training has stopped early, the Train page knows the corpus's largest vocab size exactly."""


def note_stop(trained: Trained) -> None:
    """Keep where ``trained`` ran out of pairs, if it did."""
    request = trained.request
    if trained.result.stopped_early:
        key = (request.text_digest, request.kind, request.pattern, request.special_tokens, request.holdout)
        _stops.put(key, trained.num_merges)


def vocab_range(s: Session) -> str | None:
    """What the Train page says about the vocab sizes this corpus allows (None when the settings cannot be
    trained: the Train button says why). The largest size is known exactly only once a training ran out of
    pairs; before, the page gives the range where that happens."""
    try:
        text = corpus_text(s)
        digest = corpus_digest(s, text)
        languages = SLUGS[s.corpus].languages if s.corpus in SLUGS else ()
        bounds = limits_for(s, *trained_part(s, text, digest, languages))
        pattern = None if s.kind == "classic" else pattern_for(s)
    except SettingsError:
        return None
    specials = () if s.kind == "classic" else special_tokens(s)
    stop = _stops.get((digest, s.kind, pattern, specials, s.holdout))
    if stop is not None:
        return t("Vocab sizes from {low:,} to {high:,} on this corpus: training it ran out of pairs after {n:,} merges "
                 "(a bigger size gives the same tokenizer).", low=bounds.minimum, high=bounds.minimum + stop, n=stop)
    if not bounds.exact:
        return t("Vocab sizes from {low:,}. This corpus is too big to count before training: how many merges it "
                 "allows is known only after training.", low=bounds.minimum)
    return t("Vocab sizes from {low:,}. Training stops when no pair is left to merge: on this corpus after {fewest:,} "
             "to {most:,} merges, and only training tells where (a bigger size then gives the same tokenizer).",
             low=bounds.minimum, fewest=bounds.fewest, most=bounds.maximum - bounds.minimum)


def estimate_seconds(request: Request, n_bytes: int) -> float:
    """A rough forecast from this machine: counting ~5 MB/s, ~0.3 ms a merge; 4x without pre-tokens; superword
    tokens count twice and encode the chunks once more before stage 2 (docs10m, 5 MB: ~3x plain BPE)."""
    merges = max(0, request.vocab_size - 256 - len(request.special_tokens))
    seconds = n_bytes / 5e6 + merges * 3e-4
    # parity: one engine a language, each merged every round (~5x on the parallel sample); superword: two stages
    plain = 4 if request.pattern is None and request.kind == "byte" else 1
    factor = {"parity": 5, "superword": 3}.get(request.kind, plain)
    return seconds * factor
