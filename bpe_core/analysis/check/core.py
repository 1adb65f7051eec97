"""``check_merges``: where a learner's merges part from bpe_core's training, and why, found by testing hypotheses.

1. Train with the same settings and find the first merge that differs.
2. Replay the learner's merges under the project's rule (:mod:`.replay`): at that round, the pairs
   that lead, the tie set, and how often the learner's pair occurs.
3. Replay them under each hypothesis: every other tie rule, counting without overlap, special
   tokens left in the text, each distinct word counted once (its count left out), every other
   pre-tokenization (each named pattern, none, ``text.split()``).
   The hypothesis that predicts the most of the learner's merges in a row, past the difference,
   is the cause; when none predicts the learner's merge there, the learner's pair ties under the
   project's counting (a tie rule we do not know) or it does not: "counts".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...encoding.arguments import checked_text
from ...pretokenize import PATTERNS, compile_pattern, pattern_regex
from ...training import Candidate, train, train_classic
from ...training.shape import check_special_tokens
from ...training.ties import check_tie_break
from .explain import RULES, explain, shown_pair, shown_pattern
from .replay import SPLIT_PATTERN, WINDOW, Hypothesis, Outcome, reproduced

TIE_ORDER = ("first", "smallest", "greatest", "hf")

Pair = tuple[bytes, bytes]


@dataclass
class MergeCheck:
    """What ``check_merges`` found. Merges are (left bytes, right bytes); classic ones too (``</w>`` as its bytes)."""

    first_difference: int | None
    """0-based rank of the first merge that differs from bpe_core's training, or None."""
    cause: str
    """``none``, ``tie-break``, ``overlapping-pairs``, ``word-frequency``, ``special-tokens``, ``pre-tokenization`` or
    ``counts``."""
    explanation: str
    """One plain English sentence: ``EXPLANATIONS[finding]`` with ``fields`` filled in."""
    finding: str
    """The key of the sentence in ``EXPLANATIONS`` (a cause or one of its variants)."""
    fields: dict[str, str]
    learner_merges: list[Pair]
    """The learner's merges up to and including the first difference (all of them when none differs)."""
    reference_merges: list[Pair]
    """bpe_core's merges, as far."""
    candidates: list[Candidate] = field(default_factory=list)
    """The leading pairs at the differing round, with counts, in the project's order."""
    tie_set: list[Candidate] = field(default_factory=list)
    """Every pair with the top count at that round, in the project's order."""
    picking_rules: list[str] = field(default_factory=list)
    """The tie rules (``first``, ``smallest``, ``greatest``, ``hf``) that pick the learner's pair there."""
    learner_count: int | None = None
    """How often the learner's pair occurs at that round, counted as the project counts."""
    later_agreeing: int = 0
    """The learner's merges after the difference that equal bpe_core's at the same rank."""
    later_shared: int = 0
    """The learner's merges after the difference that bpe_core also learns, at any rank."""
    reproduced_by: str | None = None
    """The hypothesis that reproduces the learner's merges furthest, if it gets past the difference."""
    reproduced: dict[str, int] = field(default_factory=dict)
    """Each hypothesis tested and how many of the learner's merges in a row it predicts."""


def check_merges(
    text: str,
    merges: Iterable[tuple[bytes | str, bytes | str]],
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    classic: bool = False,
    tie_break: str = "greatest",
) -> MergeCheck:
    """Compare a learner's merges with bpe_core's on the same text and settings, and say why they differ.

    ``merges`` are pairs of tokens as bytes (or text, UTF-8), in order; classic ones (``classic=True``,
    against ``train_classic``) end words with ``"</w>"``. ``tie_break`` is the project's rule.

    >>> check = check_merges("ab ba ab ba", [(b"a", b"b"), (b"b", b"a")])
    >>> check.first_difference, check.cause, check.picking_rules
    (0, 'tie-break', ['first', 'hf'])
    >>> check_merges("ab ba ab ba", [(b"b", b"a"), (b"a", b"b")]).cause
    'none'
    """
    checked_text(text)
    learner = _pairs(merges)
    specials = tuple(check_special_tokens(special_tokens))
    compile_pattern(pattern)
    rule = check_tie_break(tie_break)
    reference = _reference(text, len(learner), specials, pattern, classic, rule)
    k = next((r for r, (a, b) in enumerate(zip(learner, reference)) if a != b), None)
    if k is None and len(learner) > len(reference):
        k = len(reference)
    if k is None:
        fields = {"merges": f"{len(learner):,}"}
        return MergeCheck(None, "none", explain("none", fields), "none", fields, learner, reference[: len(learner)])

    project = Hypothesis("project", "none", rule, pattern, classic=classic)
    other = reference[k] if k < len(reference) else None
    base = reproduced(project, text, learner, specials, watch=k, details=True, other=other)
    outcomes: dict[Hypothesis, Outcome | None] = dict.fromkeys(_hypotheses(rule, pattern, specials, classic))
    best: tuple[int, Hypothesis] | None = None
    for hypothesis in outcomes:
        if best is not None and best[0] >= min(len(learner), k + WINDOW) and hypothesis.cause != "tie-break":
            continue  # one already explains every merge: the rest would only cost time
        outcome = reproduced(hypothesis, text, learner, specials, watch=k, other=other)
        outcomes[hypothesis] = outcome
        if outcome.agreed > k and (best is None or outcome.agreed > best[0]):
            best = (outcome.agreed, hypothesis)
    return _report(text, learner, reference, k, rule, pattern, specials, base, outcomes, best)


def _pairs(merges: Iterable[tuple[bytes | str, bytes | str]]) -> list[Pair]:
    pairs = []
    for rank, merge in enumerate(merges):
        if not isinstance(merge, (tuple, list)) or len(merge) != 2:
            raise ValueError(f"merge {rank} is not a pair of tokens: {merge!r:.60}")
        left, right = (part.encode("utf-8") if isinstance(part, str) else part for part in merge)
        if not isinstance(left, bytes) or not isinstance(right, bytes) or not left or not right:
            raise ValueError(f"merge {rank}: tokens must be non-empty bytes or text, not {merge!r:.60}")
        pairs.append((left, right))
    return pairs


def _reference(
    text: str, n_merges: int, specials: tuple[str, ...], pattern: str | None, classic: bool, rule: str
) -> list[Pair]:
    if classic:
        base = len({character for word in text.split() for character in word}) + 1
        return [(r.left, r.right) for r in train_classic(text, base + n_merges, tie_break=rule).trace]
    vocab_size = 256 + len(specials) + n_merges
    return train(text, vocab_size, special_tokens=specials, pattern=pattern, tie_break=rule).merges


def _hypotheses(rule: str, pattern: str | None, specials: tuple[str, ...], classic: bool) -> list[Hypothesis]:
    found = [Hypothesis(f"tie_break={r!r}", "tie-break", r, pattern, classic=classic) for r in TIE_ORDER if r != rule]
    found.append(
        Hypothesis("non-overlapping counts", "overlapping-pairs", rule, pattern, overlapping=False, classic=classic)
    )
    found.append(Hypothesis("each word once", "word-frequency", rule, pattern, classic=classic, weighted=False))
    if classic:
        return found
    if specials:
        found.append(Hypothesis("special tokens kept as text", "special-tokens", rule, pattern, split_specials=False))
    given = pattern_regex(pattern) if pattern is not None else None
    for other in [*PATTERNS, None, SPLIT_PATTERN]:
        if (pattern_regex(other) if other is not None else None) != given:
            name = "none" if other is None else "text.split()" if other == SPLIT_PATTERN else other
            found.append(Hypothesis(f"pattern={name}", "pre-tokenization", rule, other))
    return found


def _report(
    text: str,
    learner: list[Pair],
    reference: list[Pair],
    k: int,
    rule: str,
    pattern: str | None,
    specials: tuple[str, ...],
    base: Outcome,
    outcomes: dict[Hypothesis, Outcome | None],
    best: tuple[int, Hypothesis] | None,
) -> MergeCheck:
    seen = base.seen
    top = seen.predicted if seen is not None else None
    learner_count = seen.learner_count if seen is not None else 0
    picks = [h.tie_break for h, o in outcomes.items() if h.cause == "tie-break" and _picked(o, learner[k])]
    fields = {
        "number": f"{k + 1:,}",
        "number_done": f"{k:,}",
        "rank": str(k),
        "learner": shown_pair(*learner[k]),
        "reference": shown_pair(*reference[k]) if k < len(reference) else "",
        "count": f"{top[2]:,}" if top else "0",
        "learner_count": f"{learner_count:,}",
        "project_rule": RULES[rule],
        "project_pattern": shown_pattern(pattern),
        "specials": ", ".join(map(repr, specials)),
    }
    if k >= len(reference):
        finding = "counts-no-pair"
    elif best is not None:
        hypothesis = best[1]
        finding = hypothesis.cause
        outcome = outcomes[hypothesis]
        seen_there = outcome.seen if outcome is not None else None
        fields["learner_rule"] = RULES[hypothesis.tie_break]
        fields["learner_pattern"] = shown_pattern(hypothesis.pattern)
        fields["learner_kept_count"] = f"{seen_there.learner_count:,}" if seen_there else "0"
        fields["learner_words"] = fields["learner_kept_count"]  # (counted with each word once: words holding it)
        fields["reference_non_overlapping"] = f"{seen_there.other_count:,}" if seen_there else "0"
    elif top is not None and learner_count == top[2]:
        finding = "tie-break-unknown"
    else:  # at the first merge no count has been updated yet: the counting itself is off
        finding = "counts-first" if k == 0 else "counts"
    cause = {"tie-break-unknown": "tie-break", "counts-no-pair": "counts", "counts-first": "counts"}.get(
        finding, finding
    )
    later = range(k + 1, len(learner))
    in_reference = set(reference)
    return MergeCheck(
        first_difference=k,
        cause=cause,
        explanation=explain(finding, fields),
        finding=finding,
        fields=fields,
        learner_merges=learner[: k + 1],
        reference_merges=reference[: k + 1],
        candidates=[Candidate(*entry) for entry in (seen.top if seen else [])],
        tie_set=[Candidate(*entry) for entry in (seen.ties if seen else [])],
        picking_rules=[r for r in TIE_ORDER if r in picks],
        learner_count=learner_count,
        later_agreeing=sum(1 for r in later if r < len(reference) and learner[r] == reference[r]),
        later_shared=sum(1 for r in later if learner[r] in in_reference),
        reproduced_by=best[1].name if best else None,
        reproduced={h.name: o.agreed for h, o in outcomes.items() if o is not None},
    )


def _picked(outcome: Outcome | None, pair: Pair) -> bool:
    return (
        outcome is not None
        and outcome.seen is not None
        and outcome.seen.predicted is not None
        and (outcome.seen.predicted[:2] == pair)
    )
