"""The "Check your BPE" page's model (no Streamlit): a learner's merges from pasted lines or uploaded files, the
check's settings as ``bpe_core.check_merges`` takes them, and its report as the page shows it, in the session's
language.

The report's sentences are ``bpe_core.analysis.check.EXPLANATIONS``; they are written again here, marked for the
catalog (``N_``), so the app can show them in Chinese; a test holds them equal to the library's.

>>> learner = merges_from_paste("o w\\nl ow\\n")
>>> learner.merges
[(b'o', b'w'), (b'l', b'ow')]
>>> check = check_merges("low low", learner.merges)
>>> explanation(check, lang="en")
"All 2 merges match bpe_core's training on this text with the same settings."
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bpe_core.analysis.check import LearnerMerges, MergeCheck, check_merges, read_merges_text
from bpe_core.analysis.check.explain import shown_pair
from bpe_core.analysis.check.readers import check_vocab
from bpe_core.formats import FormatError
from bpe_core.pretokenize import PATTERNS, pattern_regex
from playground.i18n import N_, Later, later, listed, t
from playground.text_files import CorpusError, Upload, decode_upload

MAX_FILE_BYTES = 8_000_000
"""A merges or vocab upload larger than this is refused (GPT-2's 50,000 merges are ~460 KB; a vocab.json ~1 MB)."""
SHOWN_ROWS = 200
"""The side-by-side table shows at most this many merges, the last ones up to the difference."""

EXPLANATIONS: dict[str, str] = {
    "none": N_("All {merges} merges match bpe_core's training on this text with the same settings."),
    "tie-break": N_(
        "At merge {number}, {learner} and {reference} both occur {count} times, and your trainer breaks "
        "the tie by {learner_rule}, where this one takes {project_rule}."
    ),
    "tie-break-unknown": N_(
        "At merge {number}, {learner} and {reference} both occur {count} times, and your trainer breaks "
        "the tie in an order none of the known rules gives (first seen, smallest, greatest, Hugging Face's), "
        "where this one takes {project_rule}."
    ),
    "overlapping-pairs": N_(
        "At merge {number}, your trainer merged {learner} ({learner_count} times) instead of {reference}, "
        "which occurs {count} times counting overlapping occurrences ('aaa' holds two 'aa') but only "
        "{reference_non_overlapping} times without overlap, as your trainer counts."
    ),
    "special-tokens": N_(
        "At merge {number}, your trainer merged {learner}, which occurs {learner_kept_count} times only when "
        "the special tokens ({specials}) are left in the text as ordinary characters; split them out before "
        "counting (without them {learner} occurs {learner_count} times and {reference} {count})."
    ),
    "pre-tokenization": N_(
        "At merge {number}, your trainer merged {learner}, as pre-tokenization {learner_pattern} does; with "
        "{project_pattern}, {reference} occurs {count} times and {learner} {learner_count}."
    ),
    "counts": N_(
        "At merge {number}, your trainer merged {learner}, which occurs {learner_count} times at that point, "
        "while {reference} occurs {count} times; no tie rule, counting or splitting explains it, so check that "
        "the pair counts are updated after every merge, and that a merge replaces a pair's occurrences from left "
        "to right ('aaa' becomes 'aa a', not 'a aa')."
    ),
    "word-frequency": N_(
        "At merge {number}, your trainer merged {learner}, the most frequent pair only if each distinct word counts "
        "once ({learner_words} times so); weighted by how often each word occurs, as BPE counts, {reference} occurs "
        "{count} times and {learner} {learner_count}: add each word's pairs as many times as the word occurs."
    ),
    "counts-first": N_(
        "At merge 1, your trainer merged {learner}, which occurs {learner_count} times in this text, while "
        "{reference} occurs {count} times; no tie rule, counting or splitting explains it, so check how the pairs "
        "are counted before the first merge."
    ),
    "counts-no-pair": N_(
        "After {number_done} merges no pair is left to merge in this text, but your list goes on with {learner}; "
        "check that the pair counts are updated after every merge."
    ),
}
"""The library's sentences, marked for the catalog (the same English: a test compares them)."""
RULES: dict[str, str] = {
    "first": N_("the pair seen first in the text (minbpe, Sennrich et al.'s loop)"),
    "smallest": N_("the lexicographically smallest pair"),
    "greatest": N_("the lexicographically greatest pair (CS336)"),
    "hf": N_("the smallest pair of ids (Hugging Face tokenizers)"),
}
PATTERN_NAMES: dict[str, str] = {
    "none": N_("none (the whole text as one sequence)"),
    "split": N_("text.split() (words without their spaces)"),
}
CAUSES: dict[str, str] = {
    "none": N_("none"),
    "tie-break": N_("tie-break"),
    "overlapping-pairs": N_("overlapping pairs"),
    "word-frequency": N_("word frequency"),
    "special-tokens": N_("special tokens"),
    "pre-tokenization": N_("pre-tokenization"),
    "counts": N_("counts"),
}
"""A cause as the page names it (the library's names are its keys)."""
_TRANSLATED_FIELDS = frozenset([*RULES.values(), *PATTERN_NAMES.values()])


class CheckInputError(ValueError):
    """Merges or a vocabulary that cannot be read; ``message`` (``playground.i18n.later``) says what was wrong."""

    def __init__(self, message: Later):
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class CheckSettings:
    """What ``check_merges`` gets besides the text and the merges (from the page's fields)."""

    specials: tuple[str, ...]
    pattern: str | None
    classic: bool


@dataclass(frozen=True)
class Checked:
    """A finished check and what it was run on, as the page shows it."""

    check: MergeCheck
    text_label: str
    merges_label: str
    given: int
    """How many merges the learner gave."""


def settings(specials: str, pattern: str, classic: bool) -> CheckSettings:
    """The page's fields as ``check_merges`` takes them: special tokens separated by spaces, a pattern name or
    ``none``; classic training has neither.

    >>> settings("<|endoftext|> <pad>", "none", False)
    CheckSettings(specials=('<|endoftext|>', '<pad>'), pattern=None, classic=False)
    """
    if classic:
        return CheckSettings((), None, True)
    return CheckSettings(tuple(dict.fromkeys(specials.split())), None if pattern == "none" else pattern, False)


def merges_from_paste(text: str) -> LearnerMerges:
    """Pasted lines of two tokens (``t h``, GPT-2's ``Ġ t``, bytes literals) as merges; CheckInputError if none
    or a line cannot be read."""
    if not text.strip():
        raise CheckInputError(later("No merges pasted yet: paste your merges, one pair a line (“t h”)."))
    return _nonempty(_read(lambda: read_merges_text(text, source="pasted merges"), later("The pasted merges")))


def merges_from_files(name: str, data: bytes, vocab: tuple[str, bytes] | None = None) -> LearnerMerges:
    """An uploaded merges file (GPT-2/CS336 ``merges.txt``, minbpe ``.model``, HF ``tokenizer.json``), checked against
    an uploaded ``vocab.json`` when one is given; CheckInputError naming the file and what was wrong."""
    text = _file_text(name, data)
    learner = _nonempty(_read(lambda: read_merges_text(text, source=name), name))
    if vocab is not None:
        vocab_name, vocab_data = vocab
        _file_text(vocab_name, vocab_data)  # its size and encoding, told as for the merges file
        with tempfile.TemporaryDirectory() as folder:  # the library reads a vocabulary from a path
            path = Path(folder) / "vocab"
            path.write_bytes(vocab_data)
            try:
                check_vocab(learner, path)
            except FormatError as error:
                where = FormatError(vocab_name, error.reason, line=error.line, field=error.field)
                raise CheckInputError(
                    later("{name} does not fit these merges: {error}", name=vocab_name, error=str(where))
                ) from None
    return learner


def _file_text(name: str, data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise CheckInputError(
            later(
                "{name} is {size:,} bytes; files up to {most:,} bytes are read.",
                name=name,
                size=len(data),
                most=MAX_FILE_BYTES,
            )
        )
    try:
        upload: Upload = decode_upload(data, name)
    except CorpusError as error:
        raise CheckInputError(error.message) from None
    return upload.text


def _read(read: Callable[[], LearnerMerges], source: str | Later) -> LearnerMerges:
    try:
        learner: LearnerMerges = read()
    except (FormatError, ValueError) as error:  # the library's message names the line and what it expected
        raise CheckInputError(
            later("{source} cannot be read as merges: {error}", source=source, error=str(error))
        ) from None
    return learner


def _nonempty(learner: LearnerMerges) -> LearnerMerges:
    if not learner.merges:
        raise CheckInputError(later("No merges found: give one pair of tokens a line (“t h”)."))
    return learner


def named_pattern(regex: str | None) -> str | None:
    """The name among :data:`playground.patterns.NAMED_OR_NONE` of a file's pattern (a minbpe ``.model`` names its
    regex), if any.

    >>> named_pattern(pattern_regex("cl100k")), named_pattern("[a-z]+")
    ('cl100k', None)
    """
    return next((name for name in PATTERNS if regex is not None and pattern_regex(name) == regex), None)


def check_job(text: str, merges: Sequence[tuple[bytes, bytes]], options: CheckSettings) -> MergeCheck:
    """The check, as a job runs it (in a worker process)."""
    return check_merges(text, merges, special_tokens=options.specials, pattern=options.pattern, classic=options.classic)


# -- the report as the page shows it ------------------------------------------------------------------


def explanation(check: MergeCheck, lang: str | None = None) -> str:
    """The report's sentence in the session's language (or ``lang``): its template and the rule and pattern
    names in it translated, the tokens and numbers as the library wrote them."""
    fields = {key: t(value, lang=lang) if value in _TRANSLATED_FIELDS else value for key, value in check.fields.items()}
    return t(EXPLANATIONS[check.finding], lang=lang, **fields)


def cause_name(check: MergeCheck) -> str:
    return t(CAUSES.get(check.cause, check.cause))


def side_by_side(check: MergeCheck) -> list[dict[str, object]]:
    """Both merge lists up to the difference: rank as the app counts (merge 1 first), theirs, bpe_core's, same?"""
    n = len(check.learner_merges)
    start = max(0, n - SHOWN_ROWS)
    rows: list[dict[str, object]] = []
    for rank in range(start, n):
        mine = check.learner_merges[rank]
        theirs = check.reference_merges[rank] if rank < len(check.reference_merges) else None
        rows.append(
            {
                t("Merge"): rank + 1,
                t("Yours"): shown_pair(*mine),
                t("bpe_core"): shown_pair(*theirs) if theirs is not None else "—",
                t("Same"): "✓" if theirs == mine else "✗",
            }
        )
    return rows


def candidate_rows(check: MergeCheck) -> list[dict[str, object]]:
    """The leading pairs at the differing round with their counts, and which is whose."""
    k = check.first_difference
    mine = check.learner_merges[k] if k is not None else None
    theirs = check.reference_merges[k] if k is not None and k < len(check.reference_merges) else None
    # A pair alone at the top count is in the tie set too (it ties with nothing): marked only where two or more are.
    tied = {(c.left, c.right) for c in check.tie_set} if len(check.tie_set) > 1 else set()
    rows: list[dict[str, object]] = []
    for candidate in check.candidates:
        pair = (candidate.left, candidate.right)
        whose = [t("yours")] if pair == mine else []
        whose += [t("bpe_core")] if pair == theirs else []
        rows.append(
            {
                t("Pair"): shown_pair(*pair),
                t("Count"): candidate.count,
                t("Tied at the top"): "✓" if pair in tied else "",
                t("Merged by"): listed(whose),
            }
        )
    return rows


def rule_names(rules: Sequence[str]) -> str:
    """Tie rules (``first``, ``hf``...) as the page names them, in the session's language."""
    return "; ".join(t(RULES[rule]) for rule in rules)
