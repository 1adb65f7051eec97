"""Every pair at a round: what the trainer saw before it merged round k + 1's pair.

A training's trace keeps each round's winner and a few runner-ups; a learner asks about the rest ("where was
my pair?"). The state after k merges is rebuilt by the trainer's own engine, its merges applied in order, and
every pair still in the text is listed with its count, in the order the tie rule ranks them: the first one is
the pair round k + 1 merges.

>>> pairs = pairs_at_round("aaabdaaabac", [(b"a", b"a")], 1)
>>> [(left + right, count) for left, right, count in pairs[:3]]
[(b'aaa', 2), (b'ab', 2), (b'daa', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .check.replay import Hypothesis, Replay

MAX_CHARS = 2_000_000
"""Rebuilding a round costs about what training to it cost: texts above this are refused (train less)."""


def pairs_at_round(
    text: str,
    merges: Sequence[tuple[bytes, bytes]],
    k: int,
    *,
    pattern: str | None = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "greatest",
    classic: bool = False,
) -> list[tuple[bytes, bytes, int]]:
    """Every pair of ``text`` after the first ``k`` of ``merges``, as ``(left, right, count)``, most frequent
    first and ties in the ``tie_break`` rule's order (so the first pair is the one training merges next).

    ``text``, ``pattern``, ``special_tokens``, ``tie_break`` and ``classic`` are the training's own (classic:
    merges as UTF-8 bytes of their symbols, ``</w>`` included). A merge that does not occur in the text at its
    round raises ``ValueError``: the merges are not this text's training.
    """
    if len(text) > MAX_CHARS:
        raise ValueError(
            f"the text has {len(text):,} characters; pairs at a round are listed for at most {MAX_CHARS:,}"
        )
    if not 0 <= k <= len(merges):
        raise ValueError(f"round {k} is not between 0 and {len(merges)} (the merges given)")
    hypothesis = Hypothesis("training", "none", tie_break, pattern=None if classic else pattern, classic=classic)
    replay = Replay(hypothesis, text, tuple(special_tokens))
    for rank, (left, right) in enumerate(merges[:k]):
        if not replay.apply(left, right):
            raise ValueError(f"merge {rank} ({left!r} + {right!r}) does not occur in the text at its round")
    entries = [(count, a, b) for count, a, b in replay.engine.live_pairs() if count > 0]
    entries.sort(key=lambda entry: (-entry[0], replay.preference(entry[1], entry[2])))
    return [replay.shown(entry) for entry in entries]
