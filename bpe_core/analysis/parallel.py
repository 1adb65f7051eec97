"""The parallel sample written for this project (``bpe_core/data/parallel``, see its README): the same 40 everyday
sentences in 21 languages, one file a language, line i the same sentence in every file; and the user's own
parallel texts read the same way.

>>> sample = parallel_sample()
>>> len(sample["en"]) == len(sample["zh"]) == 40, LANGUAGE_BY_CODE["sw"].native
(True, 'Kiswahili')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PARALLEL_DIR = Path(__file__).resolve().parents[1] / "data" / "parallel"


@dataclass(frozen=True)
class Language:
    code: str  # the file name's stem, e.g. "zh" for zh.txt
    native: str
    english: str
    scripts: tuple[str, ...]  # Unicode scripts it is written in, as the regex module names them (\p{Han})


LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", "English", ("Latin",)),
    Language("zh", "中文（简体）", "Chinese (Simplified)", ("Han",)),
    Language("ja", "日本語", "Japanese", ("Han", "Hiragana", "Katakana")),
    Language("ko", "한국어", "Korean", ("Hangul",)),
    Language("ar", "العربية", "Arabic", ("Arabic",)),
    Language("hi", "हिन्दी", "Hindi", ("Devanagari",)),
    Language("ru", "Русский", "Russian", ("Cyrillic",)),
    Language("es", "Español", "Spanish", ("Latin",)),
    Language("de", "Deutsch", "German", ("Latin",)),
    Language("th", "ไทย", "Thai", ("Thai",)),
    Language("sw", "Kiswahili", "Swahili", ("Latin",)),
    Language("vi", "Tiếng Việt", "Vietnamese", ("Latin",)),
    Language("fr", "Français", "French", ("Latin",)),
    Language("pt", "Português (Brasil)", "Portuguese (Brazil)", ("Latin",)),
    Language("tr", "Türkçe", "Turkish", ("Latin",)),
    Language("id", "Bahasa Indonesia", "Indonesian", ("Latin",)),
    Language("el", "Ελληνικά", "Greek", ("Greek",)),
    Language("uk", "Українська", "Ukrainian", ("Cyrillic",)),
    Language("pl", "Polski", "Polish", ("Latin",)),
    Language("he", "עברית", "Hebrew", ("Hebrew",)),
    Language("bn", "বাংলা", "Bengali", ("Bengali",)),
)
"""The languages of the built-in parallel sample, in display order."""
LANGUAGE_BY_CODE = {language.code: language for language in LANGUAGES}


@cache
def _sample() -> tuple[tuple[str, tuple[str, ...]], ...]:
    files = {f"{language.code}.txt": (PARALLEL_DIR / f"{language.code}.txt").read_bytes() for language in LANGUAGES}
    return tuple((code, tuple(lines)) for code, lines in read_parallel(files).items())


def parallel_sample() -> dict[str, list[str]]:
    """The built-in parallel sample: language code -> its 40 sentences (a fresh copy).

    >>> sample = parallel_sample()
    >>> len(sample), len(sample["en"]), sample["de"][0]
    (21, 40, 'Guten Morgen! Hast du letzte Nacht gut geschlafen?')
    """
    return {code: list(lines) for code, lines in _sample()}


def read_parallel(files: Mapping[str, str | bytes]) -> dict[str, list[str]]:
    """A parallel text from one file per language: file name (its stem is the language code, so
    ``de.txt`` or ``de``) -> content, text or UTF-8 bytes (a byte-order mark is dropped).

    Each line is a sentence; line i says the same thing in every file. Trailing blank lines are
    ignored. A file that is not UTF-8, is empty, or has another number of lines than the others
    is a ValueError naming it.

    >>> read_parallel({"en.txt": "Hello.\\nThanks.\\n", "de.txt": b"Hallo.\\nDanke."})
    {'en': ['Hello.', 'Thanks.'], 'de': ['Hallo.', 'Danke.']}
    >>> read_parallel({"en.txt": "a\\nb", "fr.txt": "a"})
    Traceback (most recent call last):
    ...
    ValueError: fr.txt has 1 line, but en.txt has 2: the files must be line-aligned (line i the same sentence in each)
    """
    texts: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for name, content in files.items():
        if isinstance(content, (bytes, bytearray)):
            try:
                content = bytes(content).decode("utf-8")
            except UnicodeDecodeError as error:
                raise ValueError(f"{name} is not UTF-8 (byte {error.start}: {error.reason})") from None
        elif not isinstance(content, str):
            raise TypeError(f"{name}: expected text or bytes, not {type(content).__name__}")
        lines = content.removeprefix("\ufeff").splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            raise ValueError(f"{name} is empty")
        code = Path(name).stem
        if code in texts:
            raise ValueError(f"{name} and {names[code]} are both for the language {code!r}")
        texts[code], names[code] = lines, name
    if not texts:
        raise ValueError("no files were given")
    first = next(iter(texts))
    for code, lines in texts.items():
        expected = len(texts[first])
        if len(lines) != expected:
            raise ValueError(
                f"{names[code]} has {_lines(len(lines))}, but {names[first]} has {expected}: "
                "the files must be line-aligned (line i the same sentence in each)"
            )
    return texts


def _lines(count: int) -> str:
    return f"{count:,} line{'s' if count != 1 else ''}"
