"""Training corpora in files: many files or a glob, streamed in blocks that count like the whole.

Counting pre-tokens needs only the counts, never the whole text, so a corpus of any size is read
in blocks of about ``BLOCK_BYTES`` and each block is counted and dropped: memory holds one block
and the table of distinct pre-tokens, whatever the size of the corpus. A block ends only where no
special token and no pre-token can cross (see ``text_blocks``), so the counts of the blocks add
up to exactly the counts of the whole text, on one machine or on many (``bpe_core.distributed``).
Each file is a text of its own: nothing merges across the end of a file.

With more than one core to use (as :mod:`.counting` decides), the files are counted by forked
workers that read their own byte ranges and add up one shard each (:mod:`.sharded`): this process
then reads nothing and adds nothing up but the distinct pre-tokens, once.
"""

from __future__ import annotations

import errno
import glob
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from . import counting
from .blocks import BLOCK_BYTES, text_blocks
from .byte_level import TrainResult, check_settings, count_special_tokens, train_counts
from .counting import count_text
from .shape import RUNNERS_UP, check_limits
from .sharded import count_files

if TYPE_CHECKING:  # only for the annotation: the app runs without Dask installed
    from ..distributed import DaskSettings

Sources = str | os.PathLike | Iterable[str | os.PathLike]
"""One path or glob pattern, or several."""


def expand_paths(sources: Sources) -> list[Path]:
    """The files that paths and glob patterns (``*``, ``?``, ``[...]``, ``**``) name, in order given.

    Each pattern's matches are sorted, so the order (and so the counts' insertion order) is the
    same on every run. A pattern that matches nothing, or a path that is not a file, is an error.

    >>> expand_paths([__file__]) == [Path(__file__)]
    True
    """
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    paths: list[Path] = []
    for source in sources:
        name = os.fspath(source)
        if glob.has_magic(name):
            matches = sorted(glob.glob(name, recursive=True))
            if not matches:
                raise FileNotFoundError(f"no file matches {name!r}")
            paths.extend(Path(match) for match in matches if os.path.isfile(match))
        elif os.path.isdir(name):
            raise IsADirectoryError(f"{name} is a directory; pass its files, e.g. '{os.path.join(name, '*.txt')}'")
        elif not os.path.isfile(name):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", name)
        else:
            paths.append(Path(name))
    return paths


def count_blocks(blocks: Iterable[str], pattern: str | None, special_tokens: Iterable[str] = ()) -> Counter[str]:
    """Pre-token counts of blocks of text, one block at a time (a big block on every core, see ``count_text``).

    >>> count_blocks(["low low", " lower"], "gpt2") == Counter({"low": 1, " low": 1, " lower": 1})
    True
    """
    specials = list(special_tokens)
    counts: Counter[str] = Counter()
    for block in blocks:
        count_text(block, pattern, specials, counts=counts)
    return counts


StageProgress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stage ``"read"`` counts bytes, stage ``"merge"`` counts merges."""


def train_files(
    sources: Sources,
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    progress: StageProgress | None = None,
    dask: DaskSettings | None = None,
    block_bytes: int = BLOCK_BYTES,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    runners_up: int = RUNNERS_UP,
) -> TrainResult:
    """Train a byte-level BPE tokenizer on files too big to hold in memory, or on many of them.

    ``sources`` is a path, a glob pattern, or several. The files are streamed in blocks (see
    ``text_blocks``) and their pre-tokens counted block by block, in this process, in one forked
    worker per core (:mod:`.sharded`) or, with ``dask=DaskSettings(...)``, on a Dask cluster; the
    counts, and so the merges, are exactly those ``train`` finds on the files' text, one file after
    another, each its own text. The other arguments are ``train``'s (``min_frequency``,
    ``max_token_length``, ``runners_up`` too); ``progress(stage, done, total)`` reports bytes read, then merges made.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("low low lower")
    >>> _ = (folder / "b.txt").write_text("newest widest")
    >>> result = train_files(folder / "*.txt", 262)
    >>> result.merges[:3]
    [(b'o', b'w'), (b'l', b'ow'), (b's', b't')]
    >>> # Each file is a text of its own, as if a special token stood between them:
    >>> from bpe_core import train
    >>> result.merges == train("low low lower<|sep|>newest widest", 263, special_tokens=["<|sep|>"]).merges
    True
    """
    started = time.perf_counter()
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    check_limits(min_frequency, max_token_length, runners_up)  # before any file is read
    paths = expand_paths(sources)
    total_bytes = sum(path.stat().st_size for path in paths)
    read = [0]

    def on_bytes(count: int) -> None:
        read[0] += count
        if progress is not None:
            progress("read", read[0], total_bytes)

    special_count = [0]

    def blocks() -> Iterator[str]:
        for block in text_blocks(paths, pattern, specials, block_bytes=block_bytes, on_bytes=on_bytes):
            special_count[0] += count_special_tokens(block, specials)
            yield block

    processes = counting.process_count() if dask is None and total_bytes >= counting.PARALLEL_MIN_CHARS else 1
    if processes > 1:  # every core reads, counts and adds up its share (see .sharded)
        counts, special_count[0] = count_files(
            paths, pattern, specials, processes, block_bytes=block_bytes, on_bytes=on_bytes
        )
    elif dask is None:
        counts = count_blocks(blocks(), pattern, specials)
    else:
        from ..distributed import count_on_dask

        counts = count_on_dask(blocks(), pattern, specials, dask)
    merge_progress = None if progress is None else (lambda done: progress("merge", done, n_merges))
    result = train_counts(
        counts,
        vocab_size,
        special_tokens=specials,
        pattern=pattern,
        progress=merge_progress,
        started=started,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        runners_up=runners_up,
    )
    result.settings["sources"] = [str(path) for path in paths]
    result.special_token_count = special_count[0]
    return result
