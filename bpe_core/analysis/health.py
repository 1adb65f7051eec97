"""Tokenizer health: the tokens a model would learn badly or never, listed with their reasons,
and counted at every vocab size.

Static classes (the vocabulary and pattern alone, :mod:`bpe_core.reachability`): tokens encoding
cannot produce from their own text (not valid UTF-8 alone, split by the pattern) or only as a
whole pre-token. With a text (held-out or training), two more, from how the text is encoded
(:mod:`bpe_core.emission`):

- :data:`NEVER_EMITTED`: encoding the text never emits the token (``E = 0``). A model trained on
  such text never sees it on its input: the under-trained "glitch" tokens of large models;
- :data:`INTERMEDIATE`: the token is mostly a step towards bigger tokens, emitted on its own in a
  share ``E / (E + I)`` below the caller's threshold (default 2%), where ``I`` counts its places
  inside the merge trees of the bigger tokens the text is encoded into. A token that is never
  emitted but does sit inside bigger ones is both.

A token may have a static class and usage classes at once; ``TokenHealth.classes`` lists all of
its classes, the most severe first, and the counts by size count each class on its own.

>>> import bpe_core
>>> report = health_report(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac")
>>> [(row.id, row.classes) for row in report.rows if row.id >= 256]
[(256, ('never emitted', 'intermediate')), (257, ('never emitted', 'intermediate'))]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .emission import usage_steps
from .ladder import Ladder, ladder
from .reachability import CLASS_EXPLANATIONS, REACH_CLASSES, ReachTable, token_reach

if TYPE_CHECKING:
    from ..encoding.shape import TokenizerShape

__all__ = [
    "EXPLANATIONS",
    "HEALTH_CLASSES",
    "INTERMEDIATE",
    "NEVER_EMITTED",
    "HealthReport",
    "TokenHealth",
    "health_report",
]

NEVER_EMITTED = "never emitted"
INTERMEDIATE = "intermediate"
HEALTH_CLASSES = (*REACH_CLASSES, NEVER_EMITTED, INTERMEDIATE)
"""Every class, most severe first."""
EXPLANATIONS = {
    **CLASS_EXPLANATIONS,
    NEVER_EMITTED: (
        "Encoding the text never emits it, so a model trained on such text would never see it as input "
        "and could not learn it (an under-trained token)."
    ),
    INTERMEDIATE: (
        "It is mostly a step on the way to bigger tokens: the text has it inside them far more often "
        "than on its own, so a model sees it rarely."
    ),
}
"""One plain sentence per class, for a person reading the list."""


class TokenHealth(NamedTuple):
    """One listed token: its classes (most severe first), why, and its counts in the text. (A named
    tuple: a report on o200k lists ~190,000 tokens, and tuples are quick to make.)"""

    id: int
    token: bytes
    classes: tuple[str, ...]
    reason: str
    merge_rank: int | None
    emitted: int | None  # times the text emits it (None without a text)
    inside: int | None  # times it lies inside a bigger emitted token

    @property
    def kind(self) -> str:
        return self.classes[0]

    @property
    def display(self) -> str:
        """The token as text, bytes that are not UTF-8 as ``\\xNN``."""
        return self.token.decode("utf-8", errors="backslashreplace")


@dataclass(frozen=True)
class HealthReport:
    vocab_sizes: np.ndarray  # one per k = 0 .. num_merges
    counts_by_size: dict[str, np.ndarray]  # class -> how many tokens have it at each size
    rows: list[TokenHealth]  # every token with a class, by id
    intermediate_threshold: float
    has_text: bool
    explanations: dict[str, str] = field(default_factory=lambda: dict(EXPLANATIONS))

    def counts(self) -> dict[str, int]:
        """How many tokens have each class with the full vocabulary."""
        return {name: int(counts[-1]) for name, counts in self.counts_by_size.items()}

    def rows_of(self, name: str) -> list[TokenHealth]:
        return [row for row in self.rows if name in row.classes]


def health_report(
    tokenizer: TokenizerShape, heldout: str | None = None, *, intermediate_threshold: float = 0.02
) -> HealthReport:
    """Every token with a class (see the module docstring), and each class's count at every size, for any family
    :mod:`.ladder` takes (a byte-level Tokenizer, a Hugging Face pipeline, a SentencePiece model).

    Without a text (``heldout=None``) only the static classes are computed.
    """
    if not 0 <= intermediate_threshold <= 1:
        raise ValueError(f"intermediate_threshold must be between 0 and 1, not {intermediate_threshold}")
    sizes = ladder(tokenizer)
    reach = token_reach(tokenizer)
    counts_by_size = reach.counts_by_size()
    classes: dict[int, list[str]] = {identifier: [name] for identifier, name in reach.classes.items()}
    reasons: dict[int, list[str]] = {identifier: [reason] for identifier, reason in reach.reasons.items()}
    emitted = inside = None
    if heldout is not None:
        emitted, inside = _usage_classes(
            sizes, heldout, reach, intermediate_threshold, counts_by_size, classes, reasons
        )
    token_bytes = tokenizer.token_bytes
    rows = [
        TokenHealth(
            identifier,
            token_bytes(identifier),
            tuple(classes[identifier]),
            "; ".join(reasons[identifier]),
            _merge_rank(tokenizer, reach, identifier),
            None if emitted is None else emitted[identifier],
            None if inside is None else inside[identifier],
        )
        for identifier in sorted(classes)
    ]
    return HealthReport(
        vocab_sizes=sizes.sizes.copy(),
        counts_by_size=counts_by_size,
        rows=rows,
        intermediate_threshold=intermediate_threshold,
        has_text=heldout is not None,
    )


def _merge_rank(tokenizer: TokenizerShape, reach: ReachTable, identifier: int) -> int | None:
    """The rank of the merge that makes the token (None for the base): a byte-level Tokenizer says it (a loaded
    vocabulary may hold a token no merge makes); for the others it is the step before its first size."""
    rank_of = getattr(tokenizer, "merge_rank", None)
    if rank_of is not None:
        return rank_of(tokenizer.token_bytes(identifier))
    first = int(reach.first_k[identifier])
    return first - 1 if first > 0 else None


def _usage_classes(
    sizes: Ladder,
    text: str,
    reach: ReachTable,
    threshold: float,
    counts_by_size: dict[str, np.ndarray],
    classes: dict[int, list[str]],
    reasons: dict[int, list[str]],
) -> tuple[list[int], list[int]]:
    """Add the never-emitted and intermediate classes (counts by size, and the tokens' classes and
    reasons at the full size); return each id's emitted and inside counts at the full size."""
    emissions = sizes.emissions(text)
    steps = usage_steps(emissions, reach.first_k)
    seen = steps.emitted + steps.inside
    counts_by_size[NEVER_EMITTED] = steps.count_by_size(steps.emitted == 0)
    counts_by_size[INTERMEDIATE] = steps.count_by_size((seen > 0) & (steps.emitted < threshold * seen))
    n = sizes.num_merges
    emitted_array, inside_array = emissions.emitted_at(n), emissions.inside_at(n)
    emitted, inside = emitted_array.tolist(), inside_array.tolist()  # Python ints: quick to index and format
    regular = np.flatnonzero(reach.first_k >= 0)
    for identifier in regular[emitted_array[regular] == 0].tolist():
        classes.setdefault(identifier, []).append(NEVER_EMITTED)
        where = (
            f"inside bigger tokens {inside[identifier]:,} times"
            if inside[identifier]
            else "not even inside a bigger token"
        )
        reasons.setdefault(identifier, []).append(f"never emitted ({where})")
    total = emitted_array + inside_array
    for identifier in regular[(total[regular] > 0) & (emitted_array[regular] < threshold * total[regular])].tolist():
        classes.setdefault(identifier, []).append(INTERMEDIATE)
        alone, within = emitted[identifier], inside[identifier]
        share = f"{alone / (alone + within):.1%} < {threshold:.1%}"
        reasons.setdefault(identifier, []).append(
            f"emitted {alone:,} times alone, {within:,} inside bigger tokens: {share}"
        )
    return emitted, inside
