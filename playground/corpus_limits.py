"""The vocab sizes a corpus allows (:func:`limits`, each kind's rule from ``playground.kinds``), and the same for a
custom regex, first tried on the corpus in a job process (:func:`limits_bounded`): the server never runs a stranger's
regex in its own threads.
"""

from __future__ import annotations

from bpe_core.pretokenize import PATTERNS, PatternTimeout, shown_pattern
from playground.i18n import t
from playground.kinds import EXACT_LIMIT_CHARS, Limits, kind_of
from runtime import jobs

CUSTOM_CHECK_SECONDS = 6.0
"""A custom regex is first run over the corpus in a job process, given up (and killed) after this long."""


def limits(text: str, kind: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """Smallest and largest useful vocab size of ``text`` for a kind (its rule: ``playground.kinds``), and the
    fewest merges after which training may run out of pairs; where between the two it stops only training tells.

    >>> limits("aaabdaaabac", "byte", "gpt2", ())
    Limits(minimum=256, maximum=266, exact=True, fewest=1)
    >>> limits("by the way by the way", "superword", kind_of("superword").fixed_pattern, ())
    Limits(minimum=256, maximum=285, exact=True, fewest=4)
    """
    return kind_of(kind).limits(text, pattern, specials)


def limits_bounded(text: str, kind: str, pattern: str | None, specials: tuple[str, ...]) -> Limits:
    """:func:`limits`; a custom regex runs in a job process: in the server's thread a regex that
    backtracks catastrophically would hold the whole server (the regex engine keeps the GIL) for
    as long as its own budget allows, seconds beyond it on a busy machine (18 s measured)."""
    custom = pattern is not None and pattern not in PATTERNS and len(text) <= EXACT_LIMIT_CHARS
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
                    pattern=shown_pattern(pattern),
                    seconds=CUSTOM_CHECK_SECONDS,
                    characters=len(text),
                )
            )

    # Always a local process, even when training goes to a Dask cluster: a regex stuck in the C engine never
    # calls back, so only a kill stops it, and a Dask worker's thread cannot be killed (runtime.jobs.cluster).
    return jobs.run_with_progress(
        limits, (text, kind, pattern, specials), give_up, poll_interval=0.1, runner=jobs.local_runner()
    )
