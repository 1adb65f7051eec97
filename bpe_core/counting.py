"""Counting the pre-tokens of a text for training, on every core this process may use.

The regex is most of the time of counting (docs10m: 0.5 s of 0.7 s) and the text splits
cleanly: cut where no special token and no pre-token crosses (``last_safe_cut``), the
counts of the parts add up to exactly the counts of the whole. So a big text is cut into one
part per core; this process counts the first and ``os.fork`` children count the others.

Why fork, and only fork: a child inherits the text (nothing is pickled on the way in) and
starts at once, without re-importing the caller's ``__main__`` (a spawned pool re-ran unguarded
scripts, and cost more than it gained). Only the counts come back, through a pipe. A child never
calls the progress callback, never returns into the caller's code and leaves by ``os._exit``,
so it flushes no inherited buffers and runs no ``atexit`` or ``finally`` of the parent.

When counting stays in this process:
- the platform has no ``fork``, or is not Linux (macOS system libraries are not fork-safe);
- another Python thread is running: it may hold a lock (logging, an import, a buffered file)
  that the child would then wait for forever. Threads of C libraries that never call into
  Python (a Rust thread pool, say) hold no lock the child needs: glibc's ``fork`` keeps malloc
  consistent, and the child runs only the regex, ``Counter`` and ``pickle``;
- this process may use one core only (``os.sched_getaffinity``), or the text is short
  (below ``PARALLEL_MIN_CHARS``, forking costs more than it saves).

A child that fails (out of memory, say) costs time, not correctness: its part is counted here.
Cancelling (an exception from ``on_chunk``) kills the children before it propagates; a job
process killed by its process group (``ui.job_process.kill``) takes its children with it, and a
child also dies with its parent (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable

import regex

from .pretokenize import PATTERNS, compile_pattern, count_pretokens, split_on_special

PARALLEL_MIN_CHARS = 1 << 21
"""Texts shorter than this are counted in this process (2 MB: a fork and the counts' way back
cost ~20 ms, about what a second core saves on that much text)."""

COUNT_PROCESSES: int | None = None
"""Processes that count one text (this one included); None: one per core this process may use."""

_PR_SET_PDEATHSIG = 1

# The cut of pretokenize.safe_chunks, searched backwards: the last letter followed by a newline.
# Every named pattern ends a pre-token there.
_LAST_SAFE_CUT = regex.compile(r"(?r)(?<=\p{L})(?=\n)")


def count_text(
    text: str,
    pattern: str | None,
    special_tokens: Iterable[str] = (),
    *,
    on_chunk: Callable[[int, int], None] | None = None,
    counts: Counter[str] | None = None,
) -> Counter[str]:
    """The pre-token counts of ``text``, exactly those of ``count_pretokens``, in the same order.

    ``on_chunk(done, total)`` reports this process's progress (see the module docstring). With
    ``counts`` given, the text's counts are added to it and it is returned.

    >>> sorted(count_text("low low lower low", "gpt2").items())
    [(' low', 2), (' lower', 1), ('low', 1)]
    """
    specials = list(special_tokens)
    compile_pattern(pattern)  # a broken pattern fails here, before any process starts
    processes = _processes() if len(text) >= PARALLEL_MIN_CHARS else 1
    bounds = [0]
    for part in range(1, processes):
        target = len(text) * part // processes
        cut = last_safe_cut(text[bounds[-1] : target], pattern, specials)
        if cut:
            bounds.append(bounds[-1] + cut)
    bounds.append(len(text))
    parts = [(start, end) for start, end in zip(bounds, bounds[1:])]
    if len(parts) == 1:
        return count_pretokens(text, pattern, specials, on_chunk=on_chunk, counts=counts)

    children = [_start_child(text, start, end, pattern, specials) for start, end in parts[1:]]
    try:
        first_end = parts[0][1]
        # One more step than this process's chunks: the children's counts coming back.
        steps = [1]

        def on_own_chunk(done: int, total: int) -> None:
            steps[0] = total + 1
            if on_chunk is not None:
                on_chunk(done, total + 1)

        counts = count_pretokens(text[:first_end], pattern, specials, on_chunk=on_own_chunk, counts=counts)
        # In order: keys new to the total are added in the order of their first occurrence,
        # as counting the whole text in one go adds them.
        for child, (start, end) in zip(children, parts[1:]):
            part_counts = _collect(child)
            if part_counts is None:  # the child failed: count its part here
                part_counts = count_pretokens(text[start:end], pattern, specials)
            counts.update(part_counts)
    finally:
        for child in children:
            _stop(child)
    if on_chunk is not None:
        on_chunk(steps[0], steps[0])
    return counts


def last_safe_cut(text: str, pattern: str | None, special_tokens: Iterable[str] = ()) -> int:
    """The last offset where ``text`` may be cut so that both sides count like the whole, or 0.

    A cut may go after a special token, or, for the named patterns, between a letter and a
    newline. The last ``len(longest special token)`` characters are never cut: a special token
    there may be only partly read, and so may change which special tokens the text holds before.

    >>> last_safe_cut("one\\ntwo\\nthr", "gpt2")
    7
    >>> last_safe_cut("one<|e|>two three", None, ["<|e|>"])
    8
    """
    specials = list(special_tokens)
    limit = len(text) - max(map(len, specials), default=0)
    spans = []
    offset = 0
    for piece, is_special in split_on_special(text, specials):
        if is_special:
            spans.append((offset, offset + len(piece)))
        offset += len(piece)
    cut = max((end for _, end in spans if end <= limit), default=0)
    if pattern in PATTERNS:
        for match in _LAST_SAFE_CUT.finditer(text, cut + 1, max(cut, limit)):
            if not any(start < match.start() < end for start, end in spans):
                return match.start()
    return cut


def _processes() -> int:
    if COUNT_PROCESSES is not None:
        return max(1, COUNT_PROCESSES)
    if sys.platform != "linux" or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    return len(os.sched_getaffinity(0))


_Child = list  # [pid or None once reaped, read end of its pipe or None once closed]


def _start_child(text: str, start: int, end: int, pattern: str | None, specials: list[str]) -> _Child:
    import ctypes  # here, not at the top: only processes that fork need it

    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: count, send, and leave without running any of the parent's code
        status = 1
        try:
            os.close(read_end)
            gc.disable()  # it would touch every inherited object, copying their pages, to free none
            with contextlib.suppress(OSError, AttributeError):
                ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the parent died before the death signal was set
                return  # through finally: os._exit
            counts = count_pretokens(text[start:end], pattern, specials)
            with os.fdopen(write_end, "wb") as channel:
                pickle.dump(dict(counts), channel, pickle.HIGHEST_PROTOCOL)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return [pid, read_end]


def _collect(child: _Child) -> dict[str, int] | None:
    """The counts a child sent, or None if it failed."""
    try:
        with os.fdopen(child[1], "rb") as channel:
            child[1] = None
            counts = pickle.load(channel)
    except (EOFError, pickle.UnpicklingError, OSError):
        counts = None
    _, status = os.waitpid(child[0], 0)
    child[0] = None
    return counts if status == 0 else None


def _stop(child: _Child) -> None:
    """Kill and reap a child not yet collected (training was cancelled, or failed here)."""
    if child[1] is not None:
        os.close(child[1])
    if child[0] is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child[0], signal.SIGKILL)
        os.waitpid(child[0], 0)
