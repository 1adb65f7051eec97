"""Texts the open models are compared on: every language of the parallel sample, text in decomposed form
(what NFC changes), torture strings, code, digits. Each model's special tokens are added by the tests."""

from __future__ import annotations

import unicodedata

import bpe_core

TORTURE = [
    "x = 1234567 +  42\n\n\n   \t\n\r\nword's   $5.99   end  \n  最后\u3000 ok\n abcab a&&b [ab]] \\ CcC",
    " HELLO Hello A\u4e00😀\n\r\u2028\x85 ",
    "I'LL DON'T we've She'd THEY'RE it's o'clock rock'n'roll '''",
    "   leading and trailing   ",
    "\n\n\n",
    "\t\t\tindented\n\t\tless\n\tleast\nnone",
    "a" * 300 + " " + "b" * 50,
    " " * 40 + "x",
    "👨‍👩‍👧‍👦 family 🏳️‍🌈 flag 👍🏽 thumbs ❤️ heart",
    "mixed中文English日本語한국어العربية",
    "tabs\tand\u00a0non-breaking\u2009thin\u200bzero-width\ufeffbom",
    "\u202eRLO\u202c and \u200fRLM\u200e",
    "lone surrogate \ud800 here and a pair \ud83d\ude00",
    "ＦＵＬＬＷＩＤＴＨ ｆｕｌｌ ｗｉｄｔｈ １２３",
    "ﬁ ligature, ① circled, ² superscript, Ⅻ roman, ㎏ unit",
]
DIGITS = [
    "1234567890",
    "3.14159265358979",
    "1,000,000.00 and 1.000.000,00",
    "٣٤٥٦ ०१२३ ๑๒๓ 一二三",
    "2026-11-27T12:05:00Z",
    "0x1F600 0b1010 1e-9 -42 +7",
    "99999999999999999999999999999999",
]
CODE = [
    'def f(x: int) -> int:\n    """Doc."""\n    return x ** 2  # square\n',
    '{"key": [1, 2.5, null, true], "nested": {"a": "b"}}',
    '<html><body class="x">&amp; &lt;tag&gt;</body></html>',
    "for (int i = 0; i < n; ++i) { sum += a[i] * b[i]; }",
    "SELECT name, COUNT(*) FROM users WHERE id > 10 GROUP BY name;",
    "    if err != nil {\n        return nil, err\n    }\n",
    "$ ls -la | grep '.py' && echo \"done\" > /dev/null 2>&1",
]
# Text that NFC changes: decomposed letters, marks in non-canonical order, Hangul jamo, compatibility forms.
DECOMPOSED = [
    "cafe\u0301 re\u0301sume\u0301 nai\u0308ve",
    "A\u030angstro\u0308m n\u0303 c\u0327",
    "a\u0307\u0323 a\u0323\u0307 q\u0307\u0323",  # marks out of canonical order
    "\u1100\u1161\u11a8 \u1112\u1161\u11ab\u1100\u1173\u11af",  # Hangul jamo that compose
    "\u212b \u2126 \u00c5",  # singletons NFC maps (Angstrom sign, Ohm sign)
    "e\u0301" * 50,
    "\u0301leading mark and trailing e\u0301",
    "Vie\u0323\u0302t Nam tie\u0302\u0301ng Vie\u0323\u0302t",
]


def language_texts(per_language: int = 8) -> list[str]:
    """Sentences of the 21 languages of the parallel sample, as written and decomposed (NFD)."""
    sample = bpe_core.parallel_sample()
    texts = []
    for sentences in sample.values():
        chosen = sentences[:per_language]
        texts += chosen
        texts += [unicodedata.normalize("NFD", sentence) for sentence in chosen[:2]]
        texts.append(" ".join(chosen))
    return texts


def all_texts() -> list[str]:
    return TORTURE + DIGITS + CODE + DECOMPOSED + language_texts()
