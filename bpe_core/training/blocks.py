"""A file's text in blocks whose pre-token counts add up to those of the whole file.

Counting needs only the counts, never the whole text, so a file of any size is read in blocks of
about ``BLOCK_BYTES``; a block ends only where no special token and no pre-token can cross
(``last_safe_cut``), so the counts of the blocks add up to exactly the counts of the whole text.
``range_blocks`` reads part of a file the same way, from one safe cut to another (:mod:`.byte_cuts`).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..byte_order import text_encoding
from ..pretokenize import last_safe_cut

BLOCK_BYTES = 1 << 21
"""Bytes read from a file at a time; a block is about this size (more when no cut is found). A block is held
several times over while it is counted (the bytes, the decoded text, its pieces between special tokens), at 4 bytes
a character once it holds one character past U+FFFF: with 4 MB blocks each counting worker peaked at ~110 MB and
``train_files``' processes at 220 MB together (100 MB / 32,000, 2 workers) against HF's 171 MB; with 2 MB blocks
the workers stay below the merge loop's 161 MB, in the same time."""


def text_blocks(
    paths: Iterable[Path],
    pattern: str | None,
    special_tokens: Iterable[str] = (),
    *,
    block_bytes: int = BLOCK_BYTES,
    on_bytes: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """The files' text in blocks whose pre-token counts add up to those of each file as a whole.

    ``on_bytes(n)`` is called after each read of ``n`` bytes. A file is UTF-8, or UTF-16/32 (or UTF-8) with a byte
    order mark, as the app and the command line read text; one that is not raises ``ValueError`` naming it and the
    byte offset.
    """
    specials = list(special_tokens)
    for path in paths:
        yield from range_blocks(path, 0, None, pattern, specials, block_bytes=block_bytes, on_bytes=on_bytes)


def range_blocks(
    path: Path,
    start: int,
    end: int | None,
    pattern: str | None,
    special_tokens: list[str],
    *,
    block_bytes: int = BLOCK_BYTES,
    on_bytes: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """The text of bytes ``start .. end - 1`` of a file (``end`` None: to its end), in blocks as ``text_blocks``.

    ``start`` and ``end`` must be character boundaries where the text may be cut (see :mod:`.byte_cuts`); a
    UTF-16/32 file is cut nowhere (:mod:`.byte_cuts` finds cuts in UTF-8): its one range starts at 0.
    """
    pending = ""
    read = start
    with open(path, "rb") as source:
        encoding = text_encoding(source.read(4))
        if start > 0 and not encoding.startswith("utf-8"):
            raise ValueError(
                f"{path}: a {encoding.upper()} text is read whole, from its start (see sharded.plan_ranges)"
            )
        decoder = codecs.getincrementaldecoder(encoding if start == 0 else "utf-8")()  # the mark only at the start
        source.seek(start)
        while True:
            raw = source.read(block_bytes if end is None else min(block_bytes, end - read))
            try:
                text = decoder.decode(raw, final=not raw)
            except UnicodeDecodeError as error:
                name = "UTF-8" if encoding.startswith("utf-8") else encoding.upper()
                raise ValueError(f"{path}: not {name} text ({error.reason} at byte {read + error.start})") from None
            read += len(raw)
            if on_bytes is not None and raw:
                on_bytes(len(raw))
            pending += text
            if not raw:
                break
            cut = last_safe_cut(pending, pattern, special_tokens)
            if cut:
                yield pending[:cut]
                pending = pending[cut:]
    if pending:
        yield pending
