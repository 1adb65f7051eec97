"""The check's sentences: one plain English sentence per finding, with named ``{}`` fields.

The app translates :data:`EXPLANATIONS` (its keys stay, its values are the English text) and fills
the fields from ``MergeCheck.fields``; the library fills them itself for ``MergeCheck.explanation``.

>>> print(explain("none", {"merges": "12"}))
All 12 merges match bpe_core's training on this text with the same settings.
"""

from __future__ import annotations

from collections.abc import Mapping

EXPLANATIONS: dict[str, str] = {
    "none": "All {merges} merges match bpe_core's training on this text with the same settings.",
    "tie-break": (
        "At merge {number}, {learner} and {reference} both occur {count} times, and your trainer breaks "
        "the tie by {learner_rule}, where this one takes {project_rule}."
    ),
    "tie-break-unknown": (
        "At merge {number}, {learner} and {reference} both occur {count} times, and your trainer breaks "
        "the tie in an order none of the known rules gives (first seen, smallest, greatest, Hugging Face's), "
        "where this one takes {project_rule}."
    ),
    "overlapping-pairs": (
        "At merge {number}, your trainer merged {learner} ({learner_count} times) instead of {reference}, "
        "which occurs {count} times counting overlapping occurrences ('aaa' holds two 'aa') but only "
        "{reference_non_overlapping} times without overlap, as your trainer counts."
    ),
    "special-tokens": (
        "At merge {number}, your trainer merged {learner}, which occurs {learner_kept_count} times only when "
        "the special tokens ({specials}) are left in the text as ordinary characters; split them out before "
        "counting (without them {learner} occurs {learner_count} times and {reference} {count})."
    ),
    "pre-tokenization": (
        "At merge {number}, your trainer merged {learner}, as pre-tokenization {learner_pattern} does; with "
        "{project_pattern}, {reference} occurs {count} times and {learner} {learner_count}."
    ),
    "counts": (
        "At merge {number}, your trainer merged {learner}, which occurs {learner_count} times at that point, "
        "while {reference} occurs {count} times; no tie rule, counting or splitting explains it, so check that "
        "the pair counts are updated after every merge, and that a merge replaces a pair's occurrences from left "
        "to right ('aaa' becomes 'aa a', not 'a aa')."
    ),
    "word-frequency": (
        "At merge {number}, your trainer merged {learner}, the most frequent pair only if each distinct word counts "
        "once ({learner_words} times so); weighted by how often each word occurs, as BPE counts, {reference} occurs "
        "{count} times and {learner} {learner_count}: add each word's pairs as many times as the word occurs."
    ),
    "counts-first": (
        "At merge 1, your trainer merged {learner}, which occurs {learner_count} times in this text, while "
        "{reference} occurs {count} times; no tie rule, counting or splitting explains it, so check how the pairs "
        "are counted before the first merge."
    ),
    "counts-no-pair": (
        "After {number_done} merges no pair is left to merge in this text, but your list goes on with {learner}; "
        "check that the pair counts are updated after every merge."
    ),
}
"""Finding -> sentence. A finding is a cause, or a cause's variant (``tie-break-unknown``, ``counts-no-pair``)."""

RULES: dict[str, str] = {
    "first": "the pair seen first in the text (minbpe, Sennrich et al.'s loop)",
    "smallest": "the lexicographically smallest pair",
    "greatest": "the lexicographically greatest pair (CS336)",
    "hf": "the smallest pair of ids (Hugging Face tokenizers)",
}
"""A tie rule as the sentences name it."""

PATTERN_NAMES: dict[str, str] = {
    "none": "none (the whole text as one sequence)",
    "split": "text.split() (words without their spaces)",
}


def explain(finding: str, fields: Mapping[str, str]) -> str:
    """The sentence of ``finding`` with its fields filled in."""
    return EXPLANATIONS[finding].format(**fields)


def shown_token(token: bytes) -> str:
    """A token as a Python literal: its text when it is UTF-8, else its bytes.

    >>> print(shown_token(b" the"), shown_token(b"\\xe4\\xb8"))
    ' the' b'\\xe4\\xb8'
    """
    try:
        return repr(token.decode("utf-8"))
    except UnicodeDecodeError:
        return repr(token)


def shown_pair(left: bytes, right: bytes) -> str:
    """A pair as the sentences show it: ``'t' + 'he'``."""
    return f"{shown_token(left)} + {shown_token(right)}"


def shown_pattern(pattern: str | None) -> str:
    if pattern is None:
        return PATTERN_NAMES["none"]
    if pattern == r"\S+":
        return PATTERN_NAMES["split"]
    return repr(pattern)
