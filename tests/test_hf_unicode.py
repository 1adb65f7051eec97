"""Every code point through the tokenizer.json stages whose Unicode tables are of another age in ``tokenizers`` than in
Python (see tests/make_hf_unicode.py): Punctuation, Digits, the four normal forms, Lowercase, StripAccents and
BertNormalizer, against
``tokenizers`` running the same JSON. Found by test_hf_stages' random texts: ``𑪚`` (U+11A9A, Soyombo, Unicode 10) is
punctuation to Python and not to ``tokenizers``."""

from __future__ import annotations

import pytest
from make_hf_unicode import CHARS, hf_tokenizer, normalization_probes

from bpe_core.formats.hf_stages import Reader, read_normalizer, read_pre_tokenizer

CHUNK = 4000


def chunks(items: list[str], joiner: str) -> list[str]:
    return [joiner.join(items[start : start + CHUNK]) for start in range(0, len(items), CHUNK)]


def differing(texts: list[str], ours, theirs) -> list[str]:
    """The texts (chunks) on which the two disagree, each cut to its first characters."""
    return [text[:40] for text in texts if ours(text) != theirs(text)]


@pytest.mark.parametrize(
    "spec",
    [{"type": "Punctuation", "behavior": "Isolated"}, {"type": "Digits", "individual_digits": True}],
    ids=["punctuation", "digits"],
)
def test_every_code_point_splits_as_tokenizers_splits_it(spec):
    ours = read_pre_tokenizer(spec, Reader("t.json"))
    theirs = hf_tokenizer(pre_tokenizer=spec).pre_tokenizer
    texts = chunks(CHARS, "a") + chunks(CHARS, "")  # each character alone, and in runs
    assert differing(texts, ours.split, lambda text: [piece for piece, _ in theirs.pre_tokenize_str(text)]) == []


def probes() -> list[str]:
    """Every character alone, and each one's normalization probes (tests/make_hf_unicode.py)."""
    return CHARS + [text for texts in normalization_probes().values() for text in texts]


def bert(**options) -> dict:
    return {"type": "BertNormalizer", "clean_text": False, "handle_chinese_chars": False, "lowercase": False, **options}


@pytest.mark.parametrize(
    "spec",
    [
        *({"type": form} for form in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents")),
        bert(clean_text=True),
        bert(handle_chinese_chars=True),
        bert(strip_accents=True),
        bert(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True),
    ],
    ids=lambda spec: "-".join(str(value) for value in spec.values()),
)
def test_every_code_point_normalizes_as_tokenizers_normalizes_it(spec):
    ours = read_normalizer(spec, Reader("t.json"))
    theirs = hf_tokenizer(normalizer=spec).normalizer
    texts = chunks(probes(), "\n")
    assert differing(texts, lambda text: ours.normalize(text, 0)[0], theirs.normalize_str) == []


def test_soyombo_punctuation_is_not_punctuation_to_tokenizers():
    spec = {"type": "Sequence", "pretokenizers": [{"type": "Punctuation", "behavior": "Removed"}]}
    assert read_pre_tokenizer(spec, Reader("t.json")).split("𑪚") == ["𑪚"]
    assert read_pre_tokenizer(spec, Reader("t.json")).split("a,b") == ["a", "b"]
