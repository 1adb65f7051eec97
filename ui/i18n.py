"""English and 简体中文: every text a person reads goes through :func:`t`.

The English text is its own key, as in gettext, so code stays readable and a missing translation
shows English rather than a key. Catalogs are JSON files in ``ui/locales/<lang>/`` (one file per
area of the app, merged when first used): ``{"Train": "训练", "{count:,} merges": "{count:,} 次合并"}``.
Placeholders use ``str.format`` and are filled after translation.

>>> t("Train", lang="en"), t("Train", lang="zh")
('Train', '训练')
>>> t("{count:,} merges", count=1200, lang="en")
'1,200 merges'

The language is the session's ``lang`` field (``ui.session``); this module only reads it, so that
any module may translate without importing the session (arrows point down). Outside a Streamlit run
(the library, tests, doctests) it is English unless ``lang`` is given.
"""

from __future__ import annotations

import json
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
    """English text -> translation, from every JSON file in ``ui/locales/<lang>/``."""
    merged: dict[str, str] = {}
    for path in sorted((LOCALES / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def language() -> str:
    """This run's language: the session's choice, or English outside a Streamlit run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return DEFAULT
    lang = ctx.session_state[LANG_KEY] if LANG_KEY in ctx.session_state else DEFAULT
    return lang if lang in LANGUAGES else DEFAULT


def t(text: str, /, lang: str | None = None, **values: Any) -> str:
    """``text`` in the session's language (or ``lang``), with ``values`` filled in."""
    lang = lang or language()
    if lang != DEFAULT:
        translated = catalog(lang).get(text)
        if translated is None:
            MISSING.add((lang, text))
        else:
            text = translated
    return text.format(**values) if values else text


def browser_language(locale: str | None) -> str:
    """The language to start in for a browser's locale (``"zh-CN"`` -> ``"zh"``).

    >>> browser_language("zh-TW"), browser_language("en-GB"), browser_language(None)
    ('zh', 'en', 'en')
    """
    prefix = (locale or "").split("-")[0].lower()
    return prefix if prefix in LANGUAGES else DEFAULT
