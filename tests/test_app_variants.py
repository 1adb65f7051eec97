"""BPE's variants in the app, headless (AppTest): BPE-dropout on Encode (``dropout``, ``seed``) and superword
tokens as a training kind (``kind=superword``, ``transition``, ``maxwords``), each held to the library called
directly (``bpe_core.encoding.dropout``, ``bpe_core.train_superword``) and to naive counts."""

from __future__ import annotations

import re
import tempfile

import pytest
from apptest_helpers import ENCODE, MERGES, fresh, htmls, no_exception, open_page, sess, token_spans, unescaped
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.encoding.dropout import encode_with_dropout, sample_seeds
from bpe_core.encoding.lifetimes import PERMANENT
from bpe_core.pretokenize import pretokenize
from bpe_core.pretokenize.superword import SUPERWORD_PATTERN, is_superword
from playground.corpora import load_sample
from playground.links import parse_link
from playground.session import Session
from ui import dropout, tokenizer_output
from ui.export import SUPERWORD_REFUSAL, export_files
from ui.merge_frames import word_starts

EXPORT = "pages/4_Export.py"
COMPARE = "pages/3_Compare.py"
CAT = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300"}
PROSE = "python-reference-excerpt"
SUPERWORD = {"corpus": PROSE, "vocab": "600", "kind": "superword", "transition": "250", "maxwords": "3"}
TEXT = "The cat sat on the mat. The cat in the hat, again and again: the cat!"


def marked(text: str) -> str:
    return text.replace(" ", "·").replace("\n", "↵").replace("\t", "→")


def sample_bodies(at: AppTest) -> list[str]:
    """The samples' HTML in sample order (two columns: AppTest lists the first column first)."""
    bodies = [body for body in htmls(at) if 'class="bpe-sample"' in body]
    return sorted(bodies, key=lambda body: int(re.search(r"Sample (\d+):", body).group(1)))


# -- BPE-dropout ----------------------------------------------------------------------------------


def test_dropout_and_seed_are_parsed_and_bounded():
    assert parse_link({"dropout": ["0.1"], "seed": ["3"]}) == ({"dropout": 0.1, "seed": 3}, [])
    for bad in ("1", "1.0", "-0.1", "0.123", "1e-1", "nan", "0,1", "٠.١", ".", ""):
        values, problems = parse_link({"dropout": [bad]})
        assert values == {} and [p.parameter for p in problems] == ["dropout"], bad
    assert parse_link({"seed": ["1000001"]})[0] == {} and parse_link({"seed": ["1000000"]})[0] == {"seed": 1000000}


@pytest.mark.parametrize("tokenizer", ["trained", "gpt2"])
def test_a_dropout_link_shows_several_segmentations_that_each_decode_to_the_text(tokenizer):
    at = fresh(ENCODE, **CAT, tokenizer=tokenizer, text=TEXT, dropout="0.3", seed="3")
    s = sess(at)
    assert (s.dropout, s.seed) == (0.3, 3)
    assert at.query_params["dropout"] == "0.3" and at.query_params["seed"] == "3"  # the link keeps both
    model = tokenizer_output.tokenizer_for(s, s.tokenizer)
    bodies = sample_bodies(at)
    assert len(bodies) == dropout.SAMPLES
    drawn = []
    for body, seed in zip(bodies, sample_seeds(3, dropout.SAMPLES)):
        ids = encode_with_dropout(model, TEXT, 0.3, seed=seed)  # the library, called directly
        spans = token_spans(body)
        assert [int(span.token_id) for span in spans] == ids
        assert "".join(span.text for span in spans) == marked(TEXT)  # drawn text is the text
        assert f": {len(ids):,} tokens" in body
        assert model.decode(ids) == TEXT
        drawn.append(ids)
    assert len({tuple(ids) for ids in drawn}) > 1  # one text, several segmentations
    assert all(len(ids) >= len(model.encode(TEXT)) for ids in drawn)  # skipping merges never shortens
    assert any("decodes back to the same text" in success.value for success in at.success)


@pytest.mark.parametrize("tokenizer", ["deepseek-v4", "mistral-7b-v3"])
def test_dropout_on_a_model_encoding_by_its_own_rules_says_it_is_not_drawn(tokenizer):
    """A monkey test: DeepSeek V4 (a Hugging Face pipeline) or Mistral 7B v3 (SentencePiece) with the slider above
    0 showed "Something went wrong on this page: TypeError", and the word steps below it were never drawn."""
    from playground import references

    if not references.installed(tokenizer):
        pytest.skip(f"{tokenizer}'s package is not installed (requirements-models.txt)")
    at = fresh(ENCODE, tokenizer=tokenizer, text=TEXT, dropout="0.3", seed="3")
    assert not at.error and not sample_bodies(at)
    assert any("which are not sampled" in caption.value for caption in at.caption)
    assert any("One word, merge by merge" in header.value for header in at.subheader)  # the page goes on


def test_at_probability_0_dropout_is_plain_encoding_for_the_trained_and_a_reference_tokenizer():
    at = fresh(ENCODE, **CAT, text=TEXT, dropout="0", seed="3")
    assert "dropout" not in at.query_params and "seed" not in at.query_params
    assert not sample_bodies(at)
    s = sess(at)
    for model in (
        s.trained.tokenizer,
        tokenizer_output.reference_tokenizer("gpt2"),
        tokenizer_output.reference_tokenizer("cl100k_base"),
    ):
        for sample in dropout.samples(model, TEXT, 0.0, seed=3):
            assert sample.ids == model.encode(TEXT) and sample.decodes


def test_dropout_on_a_classic_tokenizer_decodes_as_plain_encoding_does():
    at = fresh(ENCODE, corpus="toy-low-lower-newest-widest", kind="classic", vocab="30", text="lowest newer wider",
                dropout="0.5", seed="7")  # fmt: skip
    model = sess(at).trained.tokenizer
    assert not model.byte_level and len(sample_bodies(at)) == dropout.SAMPLES
    for sample in dropout.samples(model, "lowest newer wider", 0.5, seed=7):
        assert model.decode(sample.ids) == model.decode(model.encode("lowest newer wider"))


# -- superword tokens ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def superword_session() -> AppTest:
    return fresh(None, **SUPERWORD)


def test_a_superword_link_trains_what_train_superword_gives(superword_session):
    at = superword_session
    trained = sess(at).trained
    assert trained is not None and trained.request.kind == "superword"
    direct = bpe_core.train_superword(load_sample(PROSE), 600, transition=250, max_words=3,
                                      special_tokens=["<|endoftext|>"])  # fmt: skip
    assert trained.tokenizer.merges == direct.merges and trained.tokenizer.vocab == direct.tokenizer.vocab
    assert is_superword(trained.tokenizer) and trained.result.settings["transition"] == 250
    assert any(b" " in token.strip(b" ") for token in trained.tokenizer.vocab.values())  # tokens across words
    assert {key: at.query_params[key] for key in SUPERWORD} == SUPERWORD  # the link keeps it
    assert any("superword from merge 250" in caption.value for caption in at.caption)


def test_superword_settings_ride_only_with_their_kind():
    assert parse_link({"transition": ["250"], "maxwords": ["3"]})[0] == {"transition": 250, "maxwords": 3}
    assert parse_link({"maxwords": ["17"]})[0] == {} and parse_link({"maxwords": ["0"]})[0] == {}
    at = fresh(None, **CAT)
    assert "transition" not in at.query_params and "maxwords" not in at.query_params


def test_the_player_window_of_a_superword_tokenizer_breaks_words_at_its_chunks(superword_session):
    at = superword_session
    trained = sess(at).trained
    window = trained.window_text
    starts, at_byte = set(), 0
    for chunk in pretokenize(window, SUPERWORD_PATTERN):  # the chunks, from the library's pattern
        starts.add(at_byte)
        at_byte += len(chunk.encode())
    assert word_starts(trained) == starts
    lifetimes = trained.tokenizer.segment(window).lifetimes
    assert all(lifetimes[j - 1] == PERMANENT for j in starts if j)  # no merge crosses a chunk
    open_page(at, MERGES)
    players = [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]
    assert len(players) == 1  # the page drew its player
    at.session_state[Session.word.key] = " the way"
    at.run()
    no_exception(at)
    assert any("The word you picked" in header.value for header in at.subheader)


def test_encode_and_export_treat_a_superword_tokenizer_like_any(superword_session):
    at = superword_session
    model = sess(at).trained.tokenizer
    at.session_state[Session.text.key] = "by the way, the cat sat on the mat"
    open_page(at, ENCODE)
    (body,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')][:1]
    assert "".join(span.text for span in token_spans(body)) == marked("by the way, the cat sat on the mat")
    open_page(at, EXPORT)
    for fmt in ("gpt2", "tiktoken"):
        at.session_state[Session.format.key] = fmt
        at.run()
        no_exception(at)
        with pytest.raises(ValueError) as refused:
            bpe_core.save(model, tempfile.mkdtemp(), fmt)
        assert str(refused.value) == SUPERWORD_REFUSAL.format(fmt=fmt)  # the app's words are the library's
        (error,) = [unescaped(element.value) for element in at.warning]
        assert str(refused.value) in error and not at.get("download_button")
    for fmt in ("hf", "bpe-playground"):
        at.session_state[Session.format.key] = fmt
        at.run()
        assert not at.error and at.get("download_button")
        ((name, data),) = export_files(model, fmt).items()
        path = tempfile.mkdtemp() + "/" + name
        with open(path, "wb") as file:
            file.write(data)
        again = bpe_core.load(path)
        assert is_superword(again) and again.encode("so by the way") == model.encode("so by the way")


def test_compare_draws_plain_and_superword_bpe_at_the_same_size(superword_session):
    at = superword_session
    open_page(at, COMPARE)
    if any(button.key == "twin_run" for button in at.button):  # trained on a click (another test may have)
        at.button(key="twin_run").click().run()
    no_exception(at)
    trained = sess(at).trained
    plain_bpe = bpe_core.train(load_sample(PROSE), 600, special_tokens=["<|endoftext|>"], pattern="gpt2")
    from playground import heldout_texts as held_outs

    assert sess(at).heldout == held_outs.DEFAULT  # the corpus's own held-out text: the rest of the reference
    held_out = held_outs.built_in_text(held_outs.resolve(held_outs.DEFAULT, PROSE, 0))
    n_bytes = len(held_out.encode())
    superword_tokens = len(trained.tokenizer.encode(held_out))
    plain_tokens = len(plain_bpe.tokenizer.encode(held_out))
    (caption,) = [text for text in map(unescaped, (c.value for c in at.caption))
                  if "superword tokens" in text and "held-out" in text]  # fmt: skip
    assert f"{n_bytes / superword_tokens:.3f} bytes per token" in caption
    assert f"plain BPE {n_bytes / plain_tokens:.3f}" in caption
    assert f"{plain_tokens - superword_tokens:,} fewer tokens" in caption
    assert superword_tokens < plain_tokens  # superwords pay off on held-out prose
    (spec,) = [  # the curve (Compare by part draws its own bar chart below it)
        __import__("json").loads(e.proto.spec) for e in at.get("vega_lite_chart") if "(every size)" in e.proto.spec
    ]
    tokenizers = {row["tokenizer"] for layer in spec["layer"] for row in layer.get("data", {}).get("values", [])
                  if "tokenizer" in row}  # fmt: skip
    assert {"this tokenizer (every size)", "plain BPE, same vocab (every size)"} <= tokenizers
