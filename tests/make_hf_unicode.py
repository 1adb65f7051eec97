"""Write ``bpe_core/pipeline/hf_unicode.py``: where Hugging Face ``tokenizers`` reads Unicode from other tables than
Python's ``unicodedata`` (14.0 on Python 3.11) and the ``regex`` module.

``tokenizers`` takes each stage's Unicode data from a different Rust crate, each of its own age: Punctuation asks the
``unicode_categories`` crate (Unicode 8.0's categories), the normalizers ``unicode-normalization-alignments`` (an old
fork: no data for characters since about Unicode 12), Lowercase and Digits Rust's standard library (the newest
Unicode). Each table below is read from ``tokenizers`` itself, code point by code point::

    .venv/bin/python tests/make_hf_unicode.py     # after a new tokenizers release, if tests/test_hf_unicode.py fails

tests/test_hf_unicode.py checks every code point against ``tokenizers`` again.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import tokenizers

ROOT = Path(__file__).resolve().parent.parent
CHARS = [chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000]
CHUNK = 4000


def hf_tokenizer(**stages) -> tokenizers.Tokenizer:
    """A tokenizers Tokenizer of these stages over a one-token BPE model: the stages' reference."""
    document = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
        **stages,
    }
    return tokenizers.Tokenizer.from_str(json.dumps(document))


def removed_by(pre_tokenizer: dict) -> set[str]:
    """The characters a pre-tokenizer with the Removed behaviour drops."""
    split = hf_tokenizer(pre_tokenizer=pre_tokenizer).pre_tokenizer
    found: set[str] = set()
    for start in range(0, len(CHARS), CHUNK):
        chunk = CHARS[start : start + CHUNK]
        kept = set("".join(piece for piece, _ in split.pre_tokenize_str("\n".join(chunk))))
        found |= {char for char in chunk if char not in kept}
    return found - {"\n"}


def char_class(name: str, chars: set[str]) -> list[str]:
    """``name = r"[...]"``: a regex character class of runs of consecutive code points, as source lines."""
    parts = ranges(chars)
    lines = [f'    r"{"".join(parts[k : k + 4])}"' for k in range(0, len(parts), 4)]
    lines[0] = lines[0].replace('r"', 'r"[', 1)
    lines[-1] = lines[-1][:-1] + ']"'
    return [f"{name} = (", *lines, ")"]


def ranges(chars: set[str]) -> list[str]:
    """Runs of consecutive code points as regex ranges, escaped."""
    codes, out, k = sorted(map(ord, chars)), [], 0
    while k < len(codes):
        end = k
        while end + 1 < len(codes) and codes[end + 1] == codes[end] + 1:
            end += 1
        first, last = codes[k], codes[end]
        out.append(f"\\U{first:08X}" if first == last else f"\\U{first:08X}-\\U{last:08X}")
        k = end + 1
    return out


def escaped(text: str) -> str:
    return "".join(f"\\U{ord(char):08x}" for char in text)


def composes_after() -> dict[str, list[str]]:
    """Each character that composes with one before it (NFC), and those before it."""
    found: dict[str, list[str]] = {}
    for char in CHARS:
        parts = unicodedata.decomposition(char)
        if parts and not parts.startswith("<"):
            codes = [chr(int(part, 16)) for part in parts.split()]
            if len(codes) == 2 and unicodedata.normalize("NFC", "".join(codes)) == char:
                found.setdefault(codes[1], []).append(codes[0])
    return found


def normalization_probes() -> dict[str, list[str]]:
    """For each character with normalization data in Python's tables (a decomposition, a combining class, or a
    composition it ends), texts that show it: alone, beside marks of combining classes 220 and 230 (its own class
    orders it among them, or blocks them), after a letter, and after each character it composes with."""
    after = composes_after()
    return {
        char: [
            char,
            char + "\u0316",
            char + "\u0301",
            "\u0316" + char + "\u0301",
            "a" + char + "\u0316\u0301",
            *(first + char for first in after.get(char, [])),
        ]
        for char in CHARS
        if unicodedata.decomposition(char) or unicodedata.combining(char) or char in after
    }


def normalization_unknown() -> set[str]:
    """The characters whose normalization data ``tokenizers`` lacks: their decomposition, combining class or
    composition shows in Python's tables and not in its (found by :func:`normalization_probes`, in each form)."""
    probes = normalization_probes()
    found = set()
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        normalizer = hf_tokenizer(normalizer={"type": form}).normalizer
        for char, texts in probes.items():
            if any(normalizer.normalize_str(text) != unicodedata.normalize(form, text) for text in texts):
                found.add(char)
    return found


def lowercase_extra() -> dict[str, str]:
    """The characters ``tokenizers`` lowercases where Python's ``str.lower`` leaves them (newer Unicode)."""
    lower = hf_tokenizer(normalizer={"type": "Lowercase"}).normalizer
    extra = {}
    for char in CHARS:
        theirs = lower.normalize_str(char)
        if theirs != char.lower():
            if char.lower() != char:
                sys.exit(f"U+{ord(char):04X}: Python lowercases it otherwise ({char.lower()!r} vs {theirs!r})")
            extra[char] = theirs
    return extra


def removed_by_normalizer(normalizer: dict) -> set[str]:
    """The characters a normalizer deletes when each stands alone."""
    normalize = hf_tokenizer(normalizer=normalizer).normalizer.normalize_str
    return {char for char in CHARS if normalize(char) == ""}


def bert_normalizer(**options: bool) -> dict:
    """A BertNormalizer doing only what ``options`` turn on."""
    return {
        "type": "BertNormalizer",
        **{"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False, **options},
    }


def bert_clean_text() -> tuple[set[str], set[str]]:
    """What BertNormalizer's ``clean_text`` deletes (controls, NUL, U+FFFD) and what it makes a space."""
    normalize = hf_tokenizer(normalizer=bert_normalizer(clean_text=True)).normalizer.normalize_str
    removed, spaces = set(), set()
    for char in CHARS:
        out = normalize(char)
        if out == "":
            removed.add(char)
        elif out != char:
            if out != " ":
                sys.exit(f"U+{ord(char):04X}: clean_text made it {out!r}")
            spaces.add(char)
    return removed, spaces


def chinese_chars() -> set[str]:
    """The characters BertNormalizer's ``handle_chinese_chars`` puts spaces around."""
    normalize = hf_tokenizer(normalizer=bert_normalizer(handle_chinese_chars=True)).normalizer.normalize_str
    return {char for char in CHARS if normalize(char) == f" {char} "}


def main() -> None:
    punctuation = removed_by({"type": "Punctuation", "behavior": "Removed"})
    # Digits isolates each numeric character: between letters, a piece of one character is one.
    digits = hf_tokenizer(pre_tokenizer={"type": "Digits", "individual_digits": True}).pre_tokenizer
    numeric = set()
    for start in range(0, len(CHARS), CHUNK):
        chunk = CHARS[start : start + CHUNK]
        pieces = [piece for piece, _ in digits.pre_tokenize_str("a".join(chunk))]
        numeric |= {piece for piece in pieces if len(piece) == 1 and piece != "a"}
    unknown = normalization_unknown()
    extra = lowercase_extra()
    accents = removed_by_normalizer({"type": "StripAccents"})
    bert_accents = removed_by_normalizer(bert_normalizer(strip_accents=True))
    cleaned, spaces = bert_clean_text()
    chinese = chinese_chars()
    lines = [
        f'"""Unicode as Hugging Face ``tokenizers`` {tokenizers.__version__} reads it, where its tables differ from'
        " Python's and the",
        "``regex`` module's: written by tests/make_hf_unicode.py from ``tokenizers`` itself, code point by code point",
        "(see there why each stage's tables are of another age); tests/test_hf_unicode.py checks every code point.",
        '"""',
        "",
        "# Punctuation: ASCII punctuation or a P* character of Unicode 8.0 (the ``unicode_categories`` crate).",
        *char_class("PUNCTUATION", punctuation),
        "",
        "# Digits: Rust's ``char::is_numeric`` (Nd, Nl, No of the Unicode its compiler knew).",
        *char_class("NUMERIC", numeric),
        "",
        "# NFC, NFD, NFKC, NFKD: characters whose normalization data ``tokenizers`` lacks (it keeps them as they are,",
        "# and they stop reordering and composition around them).",
        *char_class("NORMALIZATION_UNKNOWN", unknown),
        "",
        "# Lowercase: the characters Rust's ``char::to_lowercase`` maps and Python's ``str.lower`` does not.",
        "LOWERCASE_EXTRA = {",
        *(f'    "{escaped(char)}": "{escaped(lower)}",' for char, lower in sorted(extra.items())),
        "}",
        "",
    ]
    (ROOT / "bpe_core" / "pipeline" / "hf_unicode.py").write_text("\n".join(lines))
    bert_lines = [
        f'"""Unicode as Hugging Face ``tokenizers`` {tokenizers.__version__} reads it in StripAccents and'
        " BertNormalizer (the",
        "normalizers of BERT-style files, GPT-1's among them): written by tests/make_hf_unicode.py with",
        ":mod:`.hf_unicode`, from ``tokenizers`` itself; tests/test_hf_unicode.py checks every code point.",
        '"""',
        "",
        "# StripAccents: the marks it deletes (``unicode-normalization-alignments``' combining marks).",
        *char_class("COMBINING_MARKS", accents),
        "",
        "# BertNormalizer's strip_accents (after NFD): the marks it deletes (another table: no spacing marks).",
        *char_class("BERT_ACCENTS", bert_accents),
        "",
        "# BertNormalizer's clean_text: the characters it deletes (controls but tab and line ends, NUL, U+FFFD) ...",
        *char_class("BERT_CLEANED", cleaned),
        "# ... and those it makes a space.",
        *char_class("BERT_SPACES", spaces),
        "",
        "# BertNormalizer's handle_chinese_chars: the characters it puts between two spaces.",
        *char_class("BERT_CHINESE", chinese),
        "",
    ]
    (ROOT / "bpe_core" / "pipeline" / "hf_unicode_bert.py").write_text("\n".join(bert_lines))
    print(
        f"punctuation {len(punctuation)}, numeric {len(numeric)}, normalization unknown {len(unknown)}, "
        f"lowercase extra {len(extra)}, marks {len(accents)} / {len(bert_accents)}, cleaned {len(cleaned)}, "
        f"spaces {len(spaces)}, chinese {len(chinese)}"
    )


if __name__ == "__main__":
    main()
