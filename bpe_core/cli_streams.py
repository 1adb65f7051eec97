"""The command line's streams: input files (UTF-8, or UTF-16/32 by their byte-order mark) read in
chunks, stdin/stdout used without closing them, ids parsed from text, and :class:`CliError`, the one
kind of failure the command line reports as a single line.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import TextIO

from . import formats

READ_CHARS = 1 << 16
"""Characters read per chunk when streaming a file through the encoder."""


class CliError(Exception):
    """A problem to report as one line on stderr (exit status 2)."""


def read_ids(source: TextIO) -> Iterator[int]:
    for line_number, line in enumerate(source, 1):
        for word in line.replace(",", " ").replace("[", " ").replace("]", " ").split():
            if not word.isdigit():
                raise CliError(f"line {line_number}: {word[:40]!r} is not a token id")
            yield int(word)


def read_chunks(source: TextIO, name: str) -> Iterator[str]:
    while True:
        try:
            chunk = source.read(READ_CHARS)
        except UnicodeDecodeError as error:
            raise CliError(
                f"{_input_name(name)} is not UTF-8 text ({error.reason} at byte 0x{error.object[error.start]:02X})"
            ) from None
        if not chunk:
            return
        yield chunk


def _input_name(name: str) -> str:
    return "standard input" if name == "-" else name


class _Closing:
    """A context manager that closes a stream unless it is stdin/stdout."""

    def __init__(self, stream, close: bool):
        self.stream, self.close = stream, close

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc_info) -> None:
        if self.close:
            self.stream.close()
        else:
            # Detach rather than let the wrapper close sys.stdin/sys.stdout's buffer when collected.
            self.stream.flush()
            self.stream.detach()


def open_input(name: str) -> _Closing:
    # UTF-8 whatever the locale says (or UTF-16/32 when a byte order mark says so), "\r\n" kept as it is.
    binary = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115 (closed by _Closing)
    head = binary.peek(4)[:4] if hasattr(binary, "peek") else b""
    stream = io.TextIOWrapper(binary, encoding=formats.text_encoding(head), errors="strict", newline="")
    return _Closing(stream, name != "-")


def open_output(name: str | None) -> _Closing:
    if name is None:
        stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="", write_through=True)
        return _Closing(stdout, False)
    return _Closing(open(name, "w", encoding="utf-8", newline=""), True)


def read_all(name: str) -> str:
    with open_input(name) as source:
        return "".join(read_chunks(source, name))
