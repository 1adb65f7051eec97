"""Reading regex source one construct at a time: escapes, character classes, counted repeats, flags.

Shared by the two directions of :mod:`.oniguruma`; each function returns where a construct ends
and leaves its meaning to the caller.
"""

from __future__ import annotations


def escape_at(source: str, i: int) -> str:
    """The whole escape sequence starting at the backslash at ``i``.

    >>> escape_at(r"a\\p{L}+", 1), escape_at(r"\\x41", 0)
    ('\\\\p{L}', '\\\\x41')
    """
    if i + 1 >= len(source):
        raise ValueError("the pattern ends with a lone backslash")
    letter = source[i + 1]
    if letter in "pPNx" and source.startswith("{", i + 2):
        end = source.find("}", i + 2)
        if end < 0:
            raise ValueError(f"unterminated \\{letter}{{...}} in the pattern")
        return source[i : end + 1]
    if letter == "x":
        return source[i : i + 4]
    if letter == "u":
        return source[i : i + 6]
    if letter == "U":
        return source[i : i + 10]
    return source[i : i + 2]


def class_end(source: str, start: int, *, nested: bool) -> int:
    """Index just past the character class opening at ``start``.

    Oniguruma nests classes (``[a[bc]]``); Python's ``regex`` (version 0) reads an inner ``[`` as
    a literal, except in a POSIX class such as ``[:alpha:]``, which both understand.
    """
    i = start + 1
    if i < len(source) and source[i] == "^":
        i += 1
    if i < len(source) and source[i] == "]":  # a leading ] is a literal
        i += 1
    depth = 1
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += len(escape_at(source, i))
            continue
        if char == "[" and source.startswith("[:", i):
            close = source.find(":]", i + 2)
            if close > 0:
                i = close + 2
                continue
        if char == "[" and nested:
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unterminated character class in the pattern")


def counted_quantifier_at(source: str, i: int) -> str | None:
    """``{n}``, ``{n,}``, ``{n,m}`` or ``{,m}`` (with a lazy ``?``) at ``i``, or None if ``{`` is a literal there."""
    end = source.find("}", i)
    if end < 0:
        return None
    body = source[i + 1 : end]
    low, comma, high = body.partition(",")
    if (low and not low.isdigit()) or (high and not high.isdigit()) or not (low or high) or (not comma and high):
        return None
    quantifier = source[i : end + 1]
    if end + 1 < len(source) and source[end + 1] == "?":
        quantifier += "?"
    return quantifier


def inline_flags_at(source: str, i: int) -> tuple[str, str, str, int] | None:
    """An inline flag group at ``i``: ``(flags on, flags off, ":" or ")", length)``, or None.

    ``(?i)`` gives ``("i", "", ")", 4)``; ``(?s-m:`` gives ``("s", "m", ":", 6)``.
    """
    if not source.startswith("(?", i):
        return None
    j = i + 2
    while j < len(source) and (source[j].isalpha() or source[j] == "-"):
        j += 1
    if j == i + 2 or j >= len(source) or source[j] not in ":)":
        return None
    on, _, off = source[i + 2 : j].partition("-")
    return on, off, source[j], j - i + 1


def last_atom_start(out: list[str]) -> int:
    """Index in ``out`` (one entry per atom or operator) where the last atom begins.

    A group spans from its opening entry to its ``)``; an opening entry starts with ``(`` and,
    unlike a whole group written as one entry (``(?>x{1,3})``), does not end with ``)``.
    """
    index = len(out) - 1
    if out[index] != ")":
        return index
    depth = 0
    while index >= 0:
        item = out[index]
        if item == ")":
            depth += 1
        elif item.startswith("(") and not item.endswith(")"):
            depth -= 1
            if depth == 0:
                return index
        index -= 1
    raise ValueError("unbalanced parentheses in the pattern")
