"""Training progress on the command line: tqdm bars on a terminal, plain lines in a log.

A bar redrawn with ``\\r`` is garbage in a log file or a CI console, so when the stream is not a
terminal each stage prints a plain line every ``LOG_SECONDS`` and when it ends, with the same
figures (done, total, rate, time left).
"""

from __future__ import annotations

import os
import time
from typing import TextIO

from tqdm import tqdm

# tqdm's monitor is a thread, and counting forks its workers only while the process has one thread (a fork copies
# one thread's state: bpe_core.training.counting); our bars are redrawn on each update, so the monitor is not needed.
tqdm.monitor_interval = 0

LOG_SECONDS = 5.0

_STAGES = {
    # stage: (label, unit, whether to count in KB/MB)
    "read": ("reading", "B", True),
    "merge": ("merging", " merges", False),
    "train": ("training", " steps", False),
}
_LOG_FORMAT = "{desc}: {percentage:3.0f}% {n_fmt}/{total_fmt} [{elapsed} elapsed, {remaining} left, {rate_fmt}]"


def _screen(stream: TextIO) -> tuple[int, int]:
    """The terminal's columns and lines. Some pseudo-terminals report 0 x 0, where tqdm draws nothing."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return 100, 24
    return size.columns or 100, size.lines or 24


class TrainingProgress:
    """A ``progress(stage, done, total)`` callback (as ``train_files`` takes): one bar per stage.

    >>> import io
    >>> log = io.StringIO()
    >>> progress = TrainingProgress(log)
    >>> progress("merge", 10, 10)
    >>> progress.close()
    >>> log.getvalue().startswith("merging: 100% 10/10 [")
    True
    """

    def __init__(self, stream: TextIO, *, interactive: bool | None = None):
        self.stream = stream
        self.interactive = stream.isatty() if interactive is None else interactive
        self.stage: str | None = None
        self.bar: tqdm | None = None
        self.started = self.last_line = 0.0
        self.latest: tuple[int, int] = (0, 0)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.close()
            self.stage, self.started, self.last_line = stage, time.monotonic(), time.monotonic()
            if self.interactive:
                label, unit, scale = _STAGES[stage]
                columns, lines = _screen(self.stream)
                self.bar = tqdm(
                    total=total,
                    desc=label,
                    unit=unit,
                    unit_scale=scale,
                    unit_divisor=1024,
                    file=self.stream,
                    ncols=columns,
                    nrows=lines,
                )
        self.latest = (done, total)
        if self.bar is not None:
            self.bar.total = total
            self.bar.update(done - self.bar.n)
        elif time.monotonic() - self.last_line >= LOG_SECONDS:
            self._print_line(stage)

    def _print_line(self, stage: str) -> None:
        label, unit, scale = _STAGES[stage]
        done, total = self.latest
        elapsed = time.monotonic() - self.started
        line = tqdm.format_meter(
            done, total, elapsed, prefix=label, unit=unit, unit_scale=scale, unit_divisor=1024, bar_format=_LOG_FORMAT
        )
        self.stream.write(line + "\n")
        self.stream.flush()
        self.last_line = time.monotonic()

    def end_early(self, merges: int) -> None:
        """Training stopped after ``merges`` merges, short of what was asked: the merge bar ends there (the library's
        last report completes the stage: its bar said 100 % of merges never made)."""
        if self.stage != "merge":
            return
        self.latest = (merges, merges)
        if self.bar is not None:
            self.bar.total = self.bar.n = merges
            self.bar.refresh()

    def close(self) -> None:
        """End the current stage: close its bar, or print its last line."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.stage is not None:
            self._print_line(self.stage)
        self.stage = None
