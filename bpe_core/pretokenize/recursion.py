"""Finding recursion and subroutine calls in a regex: ``(?R)``, ``(?1)``, ``(?&name)``, ``(?P>name)``.

The ``regex`` module runs them without a depth limit: ``(?R)`` on a line of text took 570 MB and a second before a
MemoryError, which no time budget stops. No pre-tokenization pattern needs them, so a pattern holding one is refused
before it runs. The scan reads escapes and character classes so that ``\\(?R)`` and ``[(?R)]`` are text; a class
that ``regex`` would nest (``(?V1)``) is read as ending at its first ``]``, which can only refuse more, never less.
"""

from __future__ import annotations

import regex

_CALL = regex.compile(r"\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\)")


def subroutine_call(source: str) -> str | None:
    """The first recursion or subroutine call in ``source`` outside escapes and classes, or None.

    >>> subroutine_call(r"a(?R)?b"), subroutine_call(r"(?P<x>a)(?&x)"), subroutine_call(r"\\(?R\\)|[(?R)]")
    ('(?R)', '(?&x)', None)
    """
    i, size = 0, len(source)
    while i < size:
        char = source[i]
        if char == "\\":
            i += 2
        elif char == "[":
            i = _class_end(source, i)
        elif char == "(":
            found = _CALL.match(source, i)
            if found:
                return found.group()
            i += 1
        else:
            i += 1
    return None


def _class_end(source: str, start: int) -> int:
    """Just past the class opening at ``start`` (a ``]`` first in it is itself; ``[:alpha:]`` inside is one item)."""
    i = start + 1
    if source.startswith("^", i):
        i += 1
    if source.startswith("]", i):
        i += 1
    while i < len(source):
        if source[i] == "\\":
            i += 2
        elif source.startswith("[:", i) and (end := source.find(":]", i + 2)) >= 0:
            i = end + 2
        elif source[i] == "]":
            return i + 1
        else:
            i += 1
    return i
