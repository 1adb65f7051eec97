"""Oniguruma (a Split regex read from a Hugging Face ``tokenizer.json``) -> Python's ``regex``.

The way back from :func:`~bpe_core.formats.oniguruma.to_oniguruma`: one of our named patterns is
recognised by its translation; anything else has the few Oniguruma spellings Python reads
differently turned back, and escapes that mean something else in the two dialects are refused.
"""

from __future__ import annotations

from functools import cache

import regex

from ..pretokenize import PATTERNS
from .oniguruma import to_oniguruma
from .regex_syntax import class_end, counted_quantifier_at, escape_at, inline_flags_at


def from_oniguruma(oniguruma_regex: str) -> str:
    """The pattern to use in Python for a Split regex read from a ``tokenizer.json``.

    A translation of one of our named patterns gives back its name; otherwise the few Oniguruma
    spellings that Python reads differently are turned back, and escapes whose Oniguruma meaning
    differs from Python's (``\\w \\W \\b \\B \\h \\H``) are refused with a ValueError.

    >>> from_oniguruma(to_oniguruma(PATTERNS["cl100k"]))
    'cl100k'
    """
    named = _named_translations().get(oniguruma_regex)
    if named is not None:
        return named
    out: list[str] = []
    i, n = 0, len(oniguruma_regex)
    while i < n:
        char = oniguruma_regex[i]
        if char == "\\":
            escape = escape_at(oniguruma_regex, i)
            i += len(escape)
            if escape[1] in "wWbBhH":
                raise ValueError(
                    f"{escape} means something else in Oniguruma than in Python; write the class out "
                    "(e.g. [\\p{L}\\p{M}\\p{Nd}\\p{Pc}] or [0-9A-Fa-f])"
                )
            out.append(_python_escape(escape))
        elif char == "[":
            end = class_end(oniguruma_regex, i, nested=True)
            out.append(_python_class(oniguruma_regex[i:end]))
            i = end
        elif char == "{" and (quantifier := counted_quantifier_at(oniguruma_regex, i)) is not None:
            i += len(quantifier)
            written = quantifier + "+" if oniguruma_regex.startswith("+", i) else quantifier
            if written.endswith("+") or (quantifier.endswith("?") and "," not in quantifier):
                # Ruby's syntax (tokenizers'): a{2}+ is (?:a{2})+ and a{2}? is (?:a{2})?, not possessive or lazy.
                raise ValueError(
                    f"{written} repeats the repeat in Oniguruma (Ruby syntax), where Python reads a possessive or "
                    f"lazy quantifier; write a group, e.g. (?:a{written[:-1]}){written[-1]}"
                )
            out.append(quantifier)
        elif oniguruma_regex.startswith("(?<", i) and not oniguruma_regex.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
        elif char == "(" and (flags := inline_flags_at(oniguruma_regex, i)) is not None:
            on, off, kind, length = flags
            # Oniguruma's m is Python's s; Oniguruma's anchors are always per line (Python's m). Its i folds case
            # fully (ß matches ss): regex's f with i.
            table = {"i": "fi", "m": "s", "x": "x"}
            if any(flag not in table for flag in on + off):
                raise ValueError(f"inline flags {oniguruma_regex[i : i + length]} have no Python equivalent")
            on, off = "".join(table[f] for f in on), "".join(table[f] for f in off).replace("fi", "i")
            body = on + ("-" + off if off else "")
            out.append(f"(?{body}{kind}" if body else ("(?:" if kind == ":" else ""))
            i += length
        elif char in "^$":
            out.append("(?m:^)" if char == "^" else "(?m:$)")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


_XDIGIT = regex.compile(r"\\([pP])\{(\^?)xdigit\}", regex.IGNORECASE)


def _python_escape(escape: str) -> str:
    """An escape outside a class: Oniguruma's ``\\z`` (the very end) is Python's ``\\Z``, its ``\\Z`` (the end, or
    before a last newline) a lookahead, ``\\N`` any character but a newline, ``\\p{XDigit}`` ASCII's hex digits."""
    if escape == "\\z":
        return "\\Z"
    if escape == "\\Z":
        return "(?=\\n?\\Z)"
    if escape == "\\N":
        return "[^\\n]"
    if (xdigit := _XDIGIT.fullmatch(escape)) is not None:
        return "[^0-9A-Fa-f]" if (xdigit.group(1) == "P") != (xdigit.group(2) == "^") else "[0-9A-Fa-f]"
    return _python_code_point(escape)


def _python_code_point(escape: str) -> str:
    """``\\x{H..}`` (Oniguruma) as ``\\UHHHHHHHH`` (Python's regex has no braces form)."""
    return f"\\U{int(escape[3:-1], 16):08X}" if escape.startswith("\\x{") else escape


def _python_class(text: str) -> str:
    body = text[1:-1]
    if "[" in body.replace("\\[", "") or "&&" in body:
        # Python's regex (version 0) reads an inner [ or && as literals; POSIX brackets are ASCII there.
        raise ValueError(
            f"the class {text} nests a class, a POSIX bracket ([:digit:]) or && (intersection): Oniguruma reads them "
            "otherwise than Python; write the class out (\\p{Nd}, [\\s--\\n] as [\\t\\v\\f\\r ...])"
        )
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            escape = escape_at(text, i)
            out.append(_python_code_point(escape))
            i += len(escape)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@cache
def _named_translations() -> dict[str, str]:
    """Each named pattern's Oniguruma spelling -> its name. A named pattern that Oniguruma cannot spell (DeepSeek's
    three splits written as one regex with set operations, ``(?V1)``) is left out: no file can hold it as one."""
    translations: dict[str, str] = {}
    for pattern_name, regex_source in PATTERNS.items():
        try:
            translations.setdefault(to_oniguruma(regex_source), pattern_name)
        except ValueError:
            continue
    return translations
