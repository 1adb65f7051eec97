"""Counting a text's pre-tokens, the input to training, a safe chunk at a time.

>>> count_pretokens("low low<|e|>lower", "gpt2", ["<|e|>"]) == {"low": 1, " low": 1, "lower": 1}
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from .cuts import safe_chunks
from .patterns import CHUNK_CHARS, compile_pattern, pretokenize, split_on_special


def count_pretokens(
    text: str,
    pattern: str | None = "gpt2",
    special_tokens: Iterable[str] = (),
    *,
    on_chunk: Callable[[int, int], None] | None = None,
    counts: Counter[str] | None = None,
) -> Counter[str]:
    """Count the pre-tokens of a text: the input to training.

    Special tokens are removed (nothing may merge with them or across them). The text is counted
    in pieces of about ``CHUNK_CHARS`` (see :mod:`.cuts`), in this process: for every core see
    :mod:`bpe_core.training.counting`, for many machines :mod:`bpe_core.distributed`.
    ``on_chunk(done, total)`` is called after each piece; an exception from it stops counting.
    With ``counts`` given, the text's counts are added to it and it is returned: adding
    pre-tokens one list at a time runs in C, adding one Counter to another does not.

    >>> sorted(count_pretokens("low low lower low").items())
    [(' low', 2), (' lower', 1), ('low', 1)]
    """
    compile_pattern(pattern)  # a broken pattern fails here, before any work starts
    pieces = [piece for piece, is_special in split_on_special(text, special_tokens) if not is_special]
    # Chunks are cut lazily, one piece at a time; the total for progress is estimated from sizes.
    total = sum(-(-len(piece) // CHUNK_CHARS) for piece in pieces)
    counts = Counter() if counts is None else counts
    done = 0
    for piece in pieces:
        for chunk in safe_chunks(piece, pattern):
            counts.update(pretokenize(chunk, pattern))
            done += 1
            if on_chunk:
                on_chunk(min(done, total), total)
    return counts
