"""How the command line fails: one line on stderr, naming what was wrong, and exit status 2.

>>> import io, contextlib
>>> stderr = io.StringIO()
>>> with contextlib.redirect_stderr(stderr):
...     status = fail("--out x: exists and\\n  is not a directory")
>>> status, stderr.getvalue()
(2, 'python -m bpe_core: error: --out x: exists and is not a directory\\n')
"""

from __future__ import annotations

import sys

PROG = "python -m bpe_core"
EXIT_USAGE = 2


class CliError(Exception):
    """A problem to report as one line on stderr (exit status 2)."""


def fail(message: str) -> int:
    """Print ``message`` as one line on stderr; return the exit status."""
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_USAGE


def describe(error: BaseException) -> str:
    """An exception as the one line to print: a KeyError's key, an OSError's file and reason."""
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, OSError) and error.filename and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return str(error) or type(error).__name__
