"""The command line's text streams: input files (UTF-8, or UTF-16/32 by their byte-order mark, as
:func:`bpe_core.formats.text_encoding` reads it) read in chunks, and stdin/stdout used without
closing them.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import TextIO

from .. import formats
from .errors import CliError

READ_CHARS = 1 << 16
"""Characters read per chunk when streaming a file through the encoder."""


def read_chunks(source: TextIO, name: str) -> Iterator[str]:
    """The text of ``source`` (named ``name``, ``-`` for stdin), READ_CHARS characters at a time."""
    while True:
        try:
            chunk = source.read(READ_CHARS)
        except UnicodeDecodeError as error:
            value = error.object[error.start]
            raise CliError(
                f"{_input_name(name)} is not UTF-8 text ({error.reason}: a byte of value 0x{value:02X})"
            ) from None
        if not chunk:
            return
        yield chunk


def _input_name(name: str) -> str:
    return "standard input" if name == "-" else name


class _Closing:
    """A context manager that closes a stream unless it is stdin/stdout."""

    def __init__(self, stream: io.TextIOWrapper, close: bool):
        self.stream, self.close = stream, close

    def __enter__(self) -> io.TextIOWrapper:
        return self.stream

    def __exit__(self, *exc_info: object) -> None:
        if self.close:
            self.stream.close()
        else:
            # Detach rather than let the wrapper close sys.stdin/sys.stdout's buffer when collected.
            self.stream.flush()
            self.stream.detach()


def open_input(name: str) -> _Closing:
    """A text file (or stdin, ``-``) to read, as a context manager."""
    # UTF-8 whatever the locale says (or UTF-16/32 when a byte order mark says so), "\r\n" kept as it is.
    binary = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115 (closed by _Closing)
    head = binary.peek(4)[:4] if hasattr(binary, "peek") else b""
    stream = io.TextIOWrapper(binary, encoding=formats.text_encoding(head), errors="strict", newline="")
    return _Closing(stream, name != "-")


def open_output(name: str | None) -> _Closing:
    """A UTF-8 file to write (or stdout, None), as a context manager; newlines written as they are."""
    if name is None:
        stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="", write_through=True)
        return _Closing(stdout, False)
    return _Closing(open(name, "w", encoding="utf-8", newline=""), True)


def read_all(name: str) -> str:
    """The whole text of a file (or stdin, ``-``)."""
    with open_input(name) as source:
        return "".join(read_chunks(source, name))
