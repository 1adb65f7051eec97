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
    ignorecase, scopes = False, []  # the i flag here, and where each open group found it
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
            if escape == "\\k" and (reference := _BACKREFERENCE.match(oniguruma_regex, i)) is not None:
                out.append(f"\\g<{reference.group(1)}>")  # \k<name> or \k<1>: Python's regex spells it \g<...>
                i = reference.end()
                continue
            if escape == "\\k":
                raise ValueError(
                    f"{oniguruma_regex[i - 2 : i + 6]}...: only a back-reference to a group's name or number "
                    "(\\k<name>, \\k<1>) is translated; name the group"
                )
            translated = _python_escape(escape)
            out.append(_caseless(translated, escape) if ignorecase else translated)
        elif char == "[":
            end = class_end(oniguruma_regex, i, nested=True)
            translated = _python_class(oniguruma_regex[i:end])
            out.append(_caseless(translated, oniguruma_regex[i:end]) if ignorecase else translated)
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
            scopes.append(ignorecase)
            out.append("(?P<")
            i += 3
        elif char == "(" and (flags := inline_flags_at(oniguruma_regex, i)) is not None:
            on, off, kind, length = flags
            if kind == ":":
                scopes.append(ignorecase)
            ignorecase = "i" in on or (ignorecase and "i" not in off)
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
        elif char in "()":
            if char == "(":
                scopes.append(ignorecase)
            elif scopes:
                ignorecase = scopes.pop()
            out.append(char)
            i += 1
        elif ignorecase and char.isalpha():
            out.append(_caseless(char, char))
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


_TURKIC_I = "\u0130\u0131"  # İ and ı: case-insensitive, regex pairs them with i and I; Oniguruma folds neither so
_CASE_PROPERTY = regex.compile(
    r"\\[pP]\{\^?(?:lu|ll|lt|lc|l&|(?:upper|lower|title|cased?)(?:case)?(?:_?letter)?)\}", regex.IGNORECASE
)
_CODE_POINT = regex.compile(r"\\(?:x\{([0-9A-Fa-f]+)\}|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")


def _caseless(translated: str, source: str) -> str:
    """One atom under the i flag: a letter, an escape or a class (``translated`` from Oniguruma's ``source``).

    Both engines fold case fully and match the same characters, but for the Turkish i: ``regex`` matches İ where
    Oniguruma's fold matches i, and ı where I. So i and I become ``[iI]`` without the flag, and a class or property
    is kept from İ and ı, which it then matches only as written. Refused: İ and ı written under the flag (but beside
    i and I in a class, as our own files write them), a class with other than ASCII members (a range across İ), and
    the case properties (``\\p{Lu}``: ``regex`` matches every
    case of a letter there, Oniguruma only the letters of the category).
    """
    code_points = [int(next(filter(None, found.groups())), 16) for found in _CODE_POINT.finditer(source)]
    letter = chr(code_points[0]) if len(code_points) == 1 and _CODE_POINT.fullmatch(source) else source
    is_class = source.startswith("[")
    if (
        _CASE_PROPERTY.search(source)
        or any(char in _TURKIC_I for char in letter)
        or (is_class and (not source.isascii() or not set(code_points) <= _caseless_class_code_points(source)))
    ):
        raise ValueError(
            f"{source} under the i flag: Oniguruma and Python's regex fold case differently there (\\p{{Lu}}, "
            "\\p{Ll}, \\p{Lt}, İ, ı, classes with other than ASCII members); list the cases instead"
        )
    if letter in ("i", "I"):
        return "(?-i:[iI])"
    if not is_class:  # any other character, \\s, \\d or property matches the same ones in both engines
        return translated
    return f"(?:(?-i:(?![{_TURKIC_I}])){translated}|(?-i:(?=[{_TURKIC_I}]){translated}))"


def _caseless_class_code_points(source: str) -> set[int]:
    """The code points a caseless class may spell as escapes: ASCII, and İ (ı) beside i (I), as
    :func:`~bpe_core.formats.oniguruma.to_oniguruma` writes ``[i]`` under the i flag (both engines: i, I, İ)."""
    return {*range(0x80), *([0x130] if "i" in source else []), *([0x131] if "I" in source else [])}


_BACKREFERENCE = regex.compile(r"<(\w+)>")  # after \k: a group's name or number (not a relative -1)
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
