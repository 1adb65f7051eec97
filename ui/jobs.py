"""TEMPORARY in-process stand-in for the worker-process job runner (being written on branch `jobs`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class JobFailed(Exception):
    """A job that ended without a result; the message says why."""


def run_with_progress(fn: Callable[..., Any], args: tuple, on_progress: Callable[[int, int], None]) -> Any:
    try:
        return fn(*args, progress=on_progress)
    except (ValueError, TypeError, MemoryError) as error:
        raise JobFailed(str(error)) from None
