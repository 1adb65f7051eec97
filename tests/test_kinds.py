"""The table of tokenizer kinds (playground/kinds.py) against what the engine does: each kind's limits rule
bounds where its training really stops, its formats are the ones bpe_core saves it in, its byte_level is its
tokenizer's, and what a request records (pattern, specials, superword settings) follows the table."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from playground.kinds import FORMATS, KINDS, LANGUAGES, TABLE, TEXT, VIEWS, kind_of
from playground.train_form import limits
from playground.trained import Request, train_job

WORDS = st.sampled_from(["low", "lower", "newest", "by", "the", "way", "低", "ab", "a", "é"])
TEXTS = st.lists(st.tuples(WORDS, st.sampled_from([" ", "  ", "\n", ", "])), min_size=1, max_size=12).map(
    lambda parts: "".join(word + gap for word, gap in parts)
)
SPECIALS = ("<|endoftext|>",)


def _trained(kind: str, text: str, vocab: int, transition: int = 0) -> bpe_core.TrainResult | bpe_core.ClassicResult:
    if kind == "classic":
        return bpe_core.train_classic(text, vocab)
    if kind == "superword":
        return bpe_core.train_superword(text, vocab, transition=transition, special_tokens=list(SPECIALS))
    if kind == "parity":
        return bpe_core.train_parity({"en": text, "xx": text.upper()}, vocab, special_tokens=list(SPECIALS))
    return bpe_core.train(text, vocab, special_tokens=list(SPECIALS))


def test_the_trained_kinds_are_the_train_pages_and_every_row_is_named_by_its_key():
    assert KINDS == ("byte", "classic", "parity", "superword")
    assert all(kind.name == name and kind_of(name) is kind for name, kind in TABLE.items())
    assert {kind.trains_on for kind in TABLE.values()} == {TEXT, LANGUAGES, None}
    assert all(kind.views and set(kind.views) <= set(VIEWS) for kind in TABLE.values())
    assert all(set(kind.formats) <= set(FORMATS) for kind in TABLE.values())
    with pytest.raises(KeyError, match="the kinds are byte, classic"):
        kind_of("sentencepiece")


@settings(max_examples=25, deadline=None)
@given(text=TEXTS, kind=st.sampled_from(["byte", "classic", "superword"]))
def test_each_kinds_limits_bound_where_its_training_stops(text, kind):
    """Trained to the largest size its rule allows, training stops within [fewest, maximum - minimum] merges."""
    row = kind_of(kind)
    bounds = limits(text, kind, row.pattern_for("gpt2"), row.specials_for(SPECIALS))
    transition = (bounds.maximum - bounds.minimum) // 2
    result = _trained(kind, text, bounds.maximum, transition)
    merges = result.tokenizer.num_merges
    assert bounds.fewest <= merges <= bounds.maximum - bounds.minimum
    assert result.tokenizer.byte_level == row.byte_level


@pytest.mark.parametrize("kind", KINDS)
def test_each_kinds_formats_are_the_ones_bpe_core_saves_its_tokenizers_in(kind):
    tokenizer = _trained(kind, "by the way by the way all the way", 270, transition=5).tokenizer
    assert tokenizer.byte_level == kind_of(kind).byte_level
    saved = []
    for fmt in FORMATS:
        try:
            bpe_core.save(tokenizer, tempfile.mkdtemp(), fmt)
        except (TypeError, ValueError):
            continue
        saved.append(fmt)
    assert tuple(saved) == kind_of(kind).formats


@pytest.mark.parametrize("kind", KINDS)
def test_a_request_records_and_its_link_carries_what_its_kind_uses(kind):
    row = kind_of(kind)
    base = Request("toy", "Toy", "d", "byte", 300, "cl100k", "cl100k", SPECIALS, transition=40, max_words=3)
    request = base.as_kind(row, "cl100k", "cl100k")
    assert request.pattern == ("cl100k" if row.user_pattern else row.fixed_pattern)
    assert request.special_tokens == (SPECIALS if row.user_specials else ())
    assert (request.transition, request.max_words) == ((40, 3) if row.uses("transition") else (None, None))
    shown = request.settings()
    assert (shown["pattern"] is not None) == row.user_pattern
    assert ("transition" in shown) == row.uses("transition") == ("maxwords" in shown)


def test_a_trained_superword_request_labels_itself_by_its_kind():
    pattern = kind_of("superword").fixed_pattern
    request = Request("paste", "mine", "d", "superword", 300, "superword", pattern, (), transition=20, max_words=2)
    trained = train_job("by the way by the way all the way " * 3, request)
    assert "superword from merge 20" in trained.label and trained.tokenizer.byte_level


def test_the_import_box_takes_what_fills_the_shape_a_sentencepiece_model_too():
    """The app shows what fills ``bpe_core.TokenizerShape``: a tokenizer of the project's own format, and a
    SentencePiece model (its segmentation at every size included)."""
    from sentencepiece_support import model_bytes

    from bpe_core.encoding.sentencepiece import PieceType
    from playground.tokenizer_files import File, load_files

    trained = bpe_core.train("by the way by the way", 270).tokenizer
    directory = tempfile.mkdtemp()
    (path,) = bpe_core.save(trained, directory, "bpe-playground")
    loaded, _ = load_files([File(path.name, path.read_bytes())])
    assert isinstance(loaded, bpe_core.TokenizerShape) and loaded.vocab == trained.vocab
    pieces = [("<unk>", 0.0, PieceType.UNKNOWN), ("a", -1.0, PieceType.NORMAL), ("\u2581", -2.0, PieceType.NORMAL)]
    model, _ = load_files([File("tokenizer.model", model_bytes(pieces))])
    assert isinstance(model, bpe_core.TokenizerShape)
    assert model.decode(model.encode("a a")) == "a a"
