"""Pre-tokenizing a stream of text in bounded memory and linear time, exactly as on the whole text.

The stream is gathered into a buffer; once it holds enough, the buffer is split on special
tokens and pre-tokenized, and every pre-token is passed on except the last few, which are kept
(with the rest of the buffer) for the next round, because more text could still change them.

Why that is exact, for the named patterns: a regex finds pre-tokens left to right, each match
starting where the previous one ended, and a match only depends on the characters the engine
looked at while trying it. For every named pattern those are the characters of the match, then
at most the rest of one run of whitespace, letters, digits or punctuation and one character
more, plus three for a contraction (``'ll``); a run that reaches the end of the buffer is split
into at most three pre-tokens there. So a pre-token followed by :data:`KEEP_PRETOKENS` others
and :data:`KEEP_CHARS` characters was found without looking past the buffer, and stays the
same whatever follows. ``tests/test_streaming.py`` checks this with random texts cut at random
places against pre-tokenizing the whole text.

Special tokens: a special token is matched longest first, so a match is final only if the
longest special token would still fit in the buffer after its start; text closer to the end
than that is kept back.

A custom pattern may look arbitrarily far ahead (``a(?=[\\s\\S]*z)``), so no finite rule is
exact for every regex. For them the same rule is used with a margin of
:data:`CUSTOM_KEEP_CHARS` characters: exact for any pattern that never looks further than that
past the start of a match, which covers patterns built from runs, classes and short lookarounds.

With no pre-tokenization (pattern None) the text between two special tokens is one pre-token:
it is held until the next special token or the end of the stream, so memory grows with it.

Lone surrogates: ids are those of the text with surrogate pairs joined and lone surrogates
replaced by U+FFFD (tiktoken's rule; see :func:`replace_surrogates`). A high surrogate at the end
of the buffer is kept back, since its low half may come next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .patterns import is_named_pattern, pretokenize, split_on_special

STREAM_CHUNK_CHARS = 1 << 16
"""The buffer is split once it holds this many characters (or twice what was kept back)."""
KEEP_PRETOKENS = 4
KEEP_CHARS = 16
CUSTOM_KEEP_CHARS = 1 << 16

_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_surrogates(text: str) -> str:
    """The text with surrogate pairs joined and lone surrogates replaced by U+FFFD, as tiktoken does.

    Python strings can hold surrogates (from ``surrogatepass`` decoding or JSON ``\\ud83d``),
    which UTF-8 cannot encode.

    >>> replace_surrogates("a\\udb1db"), replace_surrogates("\\ud83d\\ude00") == "\\U0001F600"
    ('a�b', True)
    """
    if text.isascii() or _SURROGATE.search(text) is None:  # isascii is a flag: no scan
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def stream_pretokens(
    texts: Iterable[str],
    pattern: str | None,
    special_tokens: Iterable[str] = (),
    *,
    chunk_chars: int | None = None,
) -> Iterator[tuple[list[str], str | None]]:
    """Yield ``(pre-tokens, special token or None)`` batches for the concatenation of ``texts``.

    Concatenated, the batches are exactly ``split_on_special`` + ``pretokenize`` (after
    :func:`replace_surrogates`) of the whole text, each special token after the pre-tokens
    that precede it. ``chunk_chars`` defaults to :data:`STREAM_CHUNK_CHARS`.

    >>> list(stream_pretokens(["a<s>b", "c d"], "gpt2", ["<s>"], chunk_chars=1))
    [(['a'], '<s>'), (['bc', ' d'], None)]
    """
    if isinstance(texts, str):
        raise TypeError("texts must be an iterable of strings (e.g. a file's lines), not one string")
    if chunk_chars is None:
        chunk_chars = STREAM_CHUNK_CHARS
    if chunk_chars < 1:
        raise ValueError(f"chunk_chars must be at least 1, not {chunk_chars}")
    special_tokens = tuple(special_tokens)
    longest_special = max(map(len, special_tokens), default=0)
    keep_chars = KEEP_CHARS if pattern is None or is_named_pattern(pattern) else CUSTOM_KEEP_CHARS
    parts: list[str] = []
    size = 0
    threshold = chunk_chars
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"texts must yield strings, not {type(text).__name__}")
        parts.append(text)
        size += len(text)
        if size < threshold:
            continue
        buffer = "".join(parts)
        # A high surrogate may be the first half of a pair whose second half comes next.
        held = 1 if "\ud800" <= buffer[-1] <= "\udbff" else 0
        batches, kept = _split_buffer(
            replace_surrogates(buffer[: len(buffer) - held]), pattern, special_tokens, longest_special, keep_chars
        )
        yield from batches
        parts = [kept + buffer[len(buffer) - held :]]
        size = len(parts[0])
        # Re-reading what was kept costs its length each round: wait for twice as much, so the
        # total stays linear even when one pre-token (a huge run) keeps growing.
        threshold = max(chunk_chars, 2 * size)
    buffer = replace_surrogates("".join(parts))
    for piece, is_special in split_on_special(buffer, special_tokens):
        yield ([], piece) if is_special else (pretokenize(piece, pattern), None)


def _split_buffer(
    buffer: str, pattern: str | None, special_tokens: tuple[str, ...], longest_special: int, keep_chars: int
) -> tuple[list[tuple[list[str], str | None]], str]:
    """The batches that are final in ``buffer``, and the text to keep for the next round."""
    # A special token starting at or after `settled` might yet turn out longer (or be cut off).
    settled = max(len(buffer) - max(longest_special - 1, 0), 0)
    batches: list[tuple[list[str], str | None]] = []
    start = 0  # the first character not passed on yet
    text_before = ""  # the text between `start` and the next special token
    for piece, is_special in split_on_special(buffer, special_tokens):
        if not is_special:
            text_before = piece
            continue
        special_start = start + len(text_before)
        if special_start >= settled:
            break
        batches.append((pretokenize(text_before, pattern), piece))
        start, text_before = special_start + len(piece), ""
    open_text = buffer[start:settled]
    pieces = pretokenize(open_text, pattern)
    final, kept_chars = len(pieces) - KEEP_PRETOKENS, len(buffer) - settled
    while final > 0 and kept_chars + sum(map(len, pieces[final:])) < keep_chars:
        final -= 1
    if final > 0:
        batches.append((pieces[:final], None))
        start += sum(map(len, pieces[:final]))
    return batches, buffer[start:]
