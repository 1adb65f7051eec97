"""What the Merges page points out about a training, beyond the merges themselves:

- where it starts **memorizing**: from the first round whose pair occurs only once, each new token is a piece of
  one particular passage of the training text, not something the text repeats;
- when a **"word" is a whole clause**: a pattern that keeps runs of letters together (GPT-2's ``\\p{L}+`` and its
  heirs) meets Chinese, which writes no spaces, so one pre-token can be a whole clause and merges can grow into it.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from bpe_core.pretokenize import pretokenize
from playground.trained import Trained

HAN = regex.compile(r"\p{Han}")
CLAUSE_CHARACTERS = 6
"""A pre-token of this many Chinese characters or more is a clause, not a word (most Chinese words are 1–4)."""


@dataclass(frozen=True)
class Memorizing:
    round: int  # 1-based, as the player counts: the first round whose pair occurs once
    rounds: int  # how many rounds from there to the end
    longest: int  # the longest token those rounds made, in bytes


@dataclass(frozen=True)
class Clause:
    example: str  # the longest pre-token of Chinese in the start of the training text
    characters: int
    share: float  # the share of the start's pre-tokens of Chinese that are clauses


def memorizing(trained: Trained) -> Memorizing | None:
    """Where the training starts merging pairs seen once (None: it never does)."""
    counts = trained.trace.counts
    first = next((k for k, count in enumerate(counts) if count <= 1), None)
    if first is None:
        return None
    longest = max(len(record.token) for record in trained.trace[first:])
    return Memorizing(first + 1, len(counts) - first, longest)


def clause(trained: Trained) -> Clause | None:
    """A Chinese clause the pattern keeps as one pre-token, in the start of the training text (None: no such)."""
    pattern = trained.request.pattern
    if pattern is None or not trained.tokenizer.byte_level:
        return None
    chinese = [piece for piece in pretokenize(trained.window_text, pattern) if HAN.search(piece)]
    clauses = [piece for piece in chinese if len(HAN.findall(piece)) >= CLAUSE_CHARACTERS]
    if not clauses:
        return None
    example = max(clauses, key=len)
    return Clause(example, len(example), len(clauses) / len(chinese))
