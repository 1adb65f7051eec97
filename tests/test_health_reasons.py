"""The health view's reasons said again in Chinese (ui/compare/health_reasons.py): every reason the library
writes for GPT-2 and a trained tokenizer keeps its numbers, bytes and pre-tokens, and no English of the
library's sentences is left; in English a reason is shown exactly as the library wrote it."""

from __future__ import annotations

import re

import pytest

import bpe_core
from playground import i18n
from ui.compare.health_reasons import reason_text

HELD_OUT = "The cat sat on the mat. 猫坐在垫子上。 naïve café, 3.14159 and 42!\n" * 20
LIBRARY_WORDS = re.compile(r"never emitted|times alone|inside bigger|at byte|pre-token|merging|start byte|end of data")


def _reasons() -> list[str]:
    trained = bpe_core.train("low lower newest widest 最低 最新 " * 50 + "\xff".join("ab"), 320).tokenizer
    reasons = []
    for tokenizer in (bpe_core.reference("gpt2"), trained):
        reasons += [row.reason for row in bpe_core.health_report(tokenizer, HELD_OUT).rows if row.reason]
    return reasons


@pytest.fixture()
def chinese(monkeypatch):
    monkeypatch.setattr(i18n, "_language_source", lambda: "zh")


def test_english_reasons_are_the_librarys_own():
    reasons = _reasons()
    assert reasons and all(reason_text(reason) == reason for reason in reasons)


def test_every_reason_the_library_writes_is_said_in_chinese_with_its_values(chinese):
    reasons = _reasons()
    shapes = set()
    for reason in reasons:
        said = reason_text(reason)
        assert not LIBRARY_WORDS.search(said), (reason, said)
        assert "; " not in said and said.count("；") == reason.count("; "), (reason, said)  # joined as Chinese joins
        assert re.findall(r"\d[\d,.]*", reason) == re.findall(r"\d[\d,.]*", said), (reason, said)
        for quoted in re.findall(r"'[^']*'", reason):  # pre-tokens and parts carried over as they are
            assert quoted in said
        shapes.add(re.sub(r"[\d,.%]+|'[^']*'|[0-9A-F]{2}", "#", reason)[:24])
    assert len(shapes) >= 4  # several of the library's shapes met, not one
    assert any("; " in reason for reason in reasons)  # two sentences joined, met at least once
