"""AppTest (headless) tests of the Encode page: every tokenizer choice, token spans, ids, whitespace and
split characters, the word-by-word view, loading tokenizer files, escaping."""

from __future__ import annotations

import re

import pytest
from apptest_helpers import (
    CAT,
    ENCODE,
    SENNRICH,
    XSS_PROBES,
    assert_no_raw_markdown_tags,
    assert_no_raw_tags,
    fresh,
    htmls,
    markdown_texts,
    marked,
    no_exception,
    open_page,
    sess,
    token_spans,
    trained_on,
    unescaped,
)

import bpe_core
from playground.corpora import load_sample
from playground.references import REFERENCES as BUILT_IN
from playground.references import installed
from playground.session import TRAINED, Session
from ui.tokenizer_output import loaded_choice, reference_label

REFERENCES = ("gpt2", "cl100k_base", "o200k_base")
SPECIAL = "<|endoftext|>"


def _metric(at, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value


def _encoded_html(at) -> str:
    (body,) = [h for h in htmls(at) if h.startswith('<div class="tokens')]
    return body


def _steps(at) -> list[tuple[str, list[str], list[bool]]]:
    """The word-by-word view as (caption, token texts, which were just merged) per step."""
    (body,) = [h for h in htmls(at) if h.startswith('<div class="bpe-steps"')]
    rows = re.findall(r'<div class="bpe-step-cap">(.*?)</div><div class="tokens">(.*?)</div>', body)
    steps = []
    for caption, tokens in rows:
        spans = token_spans(tokens)
        steps.append((caption, [span.text for span in spans], ["just" in span.classes for span in spans]))
    return steps


def _encode_page(text: str | None = None, tokenizer: str | None = None, sample: str = CAT):
    """The Encode page after training ``sample``, with ``text`` typed and ``tokenizer`` chosen."""
    at = open_page(trained_on(sample), ENCODE)
    if text is not None:
        at.text_area(key=Session.text.key).input(text).run()
    if tokenizer is not None:
        at.selectbox(key=Session.tokenizer.key).set_value(tokenizer).run()
    no_exception(at)
    return at


@pytest.mark.parametrize("option", [TRAINED, *REFERENCES])
def test_each_tokenizer_counts_and_ids_match_bpe_core(option):
    """For every choice, the metrics and the rendered token ids are exactly the tokenizer's encoding."""
    at = _encode_page(tokenizer=option)
    trained = sess(at).trained
    if option == TRAINED:  # an independent training of the same sample and settings
        reference = bpe_core.train(load_sample(CAT), 300, special_tokens=[SPECIAL]).tokenizer
        assert trained.tokenizer.merges == reference.merges
    else:
        reference = bpe_core.reference(option)
    text = sess(at).text
    ids = reference.encode(text)
    assert _metric(at, "Tokens") == f"{len(ids):,}"
    assert _metric(at, "Characters") == f"{len(text):,}"
    assert _metric(at, "Bytes (UTF-8)") == f"{len(text.encode()):,}"
    assert _metric(at, "Bytes per token") == f"{len(text.encode()) / len(ids):.2f}"
    spans = token_spans(_encoded_html(at))
    assert all("tok" in span.classes for span in spans)
    assert [int(span.token_id) for span in spans] == ids
    assert b"".join(reference.decode_tokens_bytes(ids)) == text.encode()


@pytest.mark.parametrize("option", [TRAINED, "gpt2"])
def test_a_special_token_in_the_text_is_one_escaped_token(option):
    """<|endoftext|> typed into the text becomes the tokenizer's special id, shown escaped."""
    text = "the cat<|endoftext|>the hat"
    at = _encode_page(text=text, tokenizer=option)
    tokenizer = sess(at).trained.tokenizer if option == TRAINED else bpe_core.reference(option)
    special_id = tokenizer.special_tokens[SPECIAL]
    body = _encoded_html(at)
    assert "<|" not in body and "&lt;|endoftext|&gt;" in body
    spans = token_spans(body)
    assert [int(span.token_id) for span in spans] == tokenizer.encode(text)
    assert [span.text for span in spans if span.token_id == str(special_id)] == [SPECIAL]
    words = at.selectbox(key=Session.step_word.key).options
    assert not any("endoftext" in word for word in words)  # a special token is not a word to merge


def test_the_just_trained_tokenizer_is_chosen_first_and_missing_before_training():
    """Before training the choices are the references and file loading; after, the new tokenizer leads."""
    at = fresh(ENCODE)
    assert at.selectbox(key=Session.tokenizer.key).value == "gpt2"
    labels = [reference_label(name) for name in BUILT_IN if installed(name)]  # every built-in model installed
    assert at.selectbox(key=Session.tokenizer.key).options == labels
    assert any("a tokenizer you train on the Train page joins them" in caption.value for caption in at.caption)
    at = _encode_page()
    assert at.selectbox(key=Session.tokenizer.key).value == TRAINED


def test_show_ids_toggle_shows_the_ids_as_text():
    """With the toggle on, each token shows its id; off again, its text."""
    at = _encode_page(text="Hello, world! Hello again.", tokenizer="gpt2")
    ids = bpe_core.reference("gpt2").encode("Hello, world! Hello again.")
    at.toggle(key=Session.show_ids.key).set_value(True).run()
    no_exception(at)
    body = _encoded_html(at)
    assert body.startswith('<div class="tokens ids">')
    assert [span.text for span in token_spans(body)] == [str(i) for i in ids]
    at.toggle(key=Session.show_ids.key).set_value(False).run()
    assert "".join(span.text for span in token_spans(_encoded_html(at))) == "Hello,·world!·Hello·again."


def test_whitespace_is_shown_as_marks():
    """Spaces, newlines and tabs show as ·, ↵ and →; no raw whitespace is left in a token."""
    text = "def f(x):\n\treturn  x\n"
    at = _encode_page(text=text, tokenizer="cl100k_base")
    spans = token_spans(_encoded_html(at))
    assert "".join(span.text for span in spans) == "def·f(x):↵→return··x↵"
    assert not any(ch in span.text for span in spans for ch in " \n\t")


def test_a_character_split_across_tokens_is_shown_as_bytes():
    """GPT-2 splits 你 (E4 BD A0) into two tokens: they show as ⟨E4 BD⟩ and ⟨A0⟩; 中 stays whole."""
    text = "你好中文"
    pieces = bpe_core.reference("gpt2").decode_tokens_bytes(bpe_core.reference("gpt2").encode(text))
    assert pieces[:2] == [b"\xe4\xbd", b"\xa0"]  # the split this test relies on

    def shown(piece: bytes) -> str:
        try:
            return piece.decode()
        except UnicodeDecodeError:
            return "⟨" + " ".join(f"{byte:02X}" for byte in piece) + "⟩"

    at = _encode_page(text=text, tokenizer="gpt2")
    spans = token_spans(_encoded_html(at))
    assert [span.text for span in spans] == [shown(piece) for piece in pieces]
    assert "中" in [span.text for span in spans]
    assert spans[0].text == "⟨E4 BD⟩" and spans[0].inner_tags == ["tokbytes"]


def test_a_sentencepiece_word_reads_in_the_word_box_as_its_tokens_draw_it():
    """Mistral 7B v3's pieces hold ▁ for a space; the box names a word as its steps and tokens draw it (·Hello)."""
    pytest.importorskip("mistral_common")
    at = _encode_page(text="Hello world", tokenizer="mistral-7b-v3")
    options = at.selectbox(key=Session.step_word.key).options
    assert options == ["·Hello", "·world"], options
    steps = _steps(at)
    assert "".join(steps[0][1]) == "·Hello" and "".join(steps[-1][1]) == "·Hello"
    # The first · is not in the text: the page says whose it is (a new user took it for a bug); GPT-2 has none.
    assert any("SentencePiece puts a space" in caption.value for caption in at.caption)
    at.selectbox(key=Session.tokenizer.key).set_value("gpt2").run()
    assert not any("SentencePiece puts a space" in caption.value for caption in at.caption)


def test_word_step_view_replays_the_merges_of_one_word():
    """From one token per byte to the final tokens, each step applies the lowest-ranked merge left."""
    at = _encode_page(tokenizer="gpt2")
    word = " world"
    assert "·world" in at.selectbox(key=Session.step_word.key).options  # a pre-token of the default text
    at.selectbox(key=Session.step_word.key).set_value(word).run()
    no_exception(at)
    gpt2 = bpe_core.reference("gpt2")
    steps = _steps(at)
    assert steps[0][1] == [marked(ch) for ch in word]
    final = [marked(piece.decode()) for piece in gpt2.decode_tokens_bytes(gpt2.encode(word))]
    assert steps[-1][1] == final
    ranks = []
    for caption, tokens, just in steps[1:]:
        assert "".join(tokens) == marked(word)
        rank = int(re.match(r"round ([\d,]+):", caption).group(1).replace(",", "")) - 1  # round k: rank k - 1
        made = [token.replace("·", " ").encode() for token, is_new in zip(tokens, just, strict=True) if is_new]
        assert made and all(gpt2.merge_rank(token) == rank for token in made)
        made_ids = [gpt2.encode(t.decode())[0] for t in dict.fromkeys(made)]  # each token made once in the caption
        assert [int(i) for i in re.findall(r"\(id (\d+)\)", caption)] == made_ids
        ranks.append(rank)
    assert ranks == sorted(ranks)
    n = len(steps) - 1
    said = f"{n} merges applied, earliest round first." if n != 1 else "1 merge applied."
    assert any(c.value == said for c in at.caption)


def test_word_steps_of_partial_bytes_keep_their_marks_and_name_a_repeated_merge_once():
    """A family emoji: the ZWJ bytes E2 80 are merged three times by one merge. Each is drawn as one
    byte mark ⟨E2 80⟩ (its inner space is not a word space ·), and the caption names it once, ×3."""
    at = _encode_page(tokenizer="gpt2", text="👨\u200d👩\u200d👧\u200d👦")
    no_exception(at)
    steps = _steps(at)
    assert not any("·" in token for _, tokens, _ in steps for token in tokens)
    gpt2 = bpe_core.reference("gpt2")
    zwj_pair = gpt2.mergeable_ranks[b"\xe2\x80"]
    (caption,) = [caption for caption, _, _ in steps if f"(id {zwj_pair})" in caption]
    assert caption.count(f"(id {zwj_pair})") == 1 and f"(id {zwj_pair}) ×3" in caption
    assert any(tokens.count("⟨E2 80⟩") == 3 for _, tokens, _ in steps)


def test_classic_tokenizer_shows_words_with_end_marks():
    """A classic tokenizer encodes whitespace-split words; symbols keep </w>, escaped; steps end in encode_word."""
    text = "lowest newer widest"
    at = open_page(trained_on(SENNRICH, kind="classic", vocab=30), ENCODE)
    at.text_area(key=Session.text.key).input(text).run()
    no_exception(at)
    tokenizer = sess(at).trained.tokenizer
    assert isinstance(tokenizer, bpe_core.ClassicTokenizer)
    assert _metric(at, "Tokens") == f"{len(tokenizer.encode(text)):,}"
    body = _encoded_html(at)
    assert "</w>" not in body and "&lt;/w&gt;" in body
    assert [span.text for span in token_spans(body)] == [s for word in tokenizer.encode_words(text) for s in word]
    at.selectbox(key=Session.step_word.key).set_value("widest").run()
    no_exception(at)
    steps = _steps(at)
    assert steps[0][1] == [*"widest", "</w>"]
    assert steps[-1][1] == tokenizer.encode_word("widest")


def test_classic_characters_never_seen_are_drawn_as_unk():
    """A character the classic tokenizer never saw encodes to <unk>: it is drawn as <unk> (dashed, the
    character on hover), not as if it were a token of the vocab; the ids view says <unk> too."""
    text = "low 🙂 lQw"
    at = open_page(trained_on(SENNRICH, kind="classic", vocab=30), ENCODE)
    at.text_area(key=Session.text.key).input(text).run()
    no_exception(at)
    tokenizer = sess(at).trained.tokenizer
    ids = tokenizer.encode(text)
    body = _encoded_html(at)
    spans = token_spans(body)
    assert [span.text for span in spans] == ["<unk>" if i == tokenizer.unknown_id else tokenizer.vocab[i] for i in ids]
    unknown = [span for span in spans if span.text == "<unk>"]
    assert len(unknown) == ids.count(tokenizer.unknown_id) == 2  # 🙂 and Q
    assert all("unk" in span.classes for span in unknown) and 'title="🙂: never seen in training' in body
    # Merge by merge too: Q is drawn as <unk> at every step, never merged; the other characters merge.
    at.selectbox(key=Session.step_word.key).set_value("lQw").run()
    no_exception(at)
    steps = _steps(at)
    assert steps[0][1] == ["l", "<unk>", "w", "</w>"]
    assert all(tokens.count("<unk>") == 1 for _, tokens, _ in steps)
    (steps_body,) = [h for h in htmls(at) if h.startswith('<div class="bpe-steps"')]
    assert 'title="Q: never seen in training' in steps_body


def test_empty_text_has_no_tokens_and_no_word_to_pick():
    """Empty text: zero tokens, no bytes-per-token figure, and a hint instead of the word picker."""
    at = _encode_page(text="", tokenizer="gpt2")
    assert _metric(at, "Tokens") == "0" and _metric(at, "Bytes per token") == "–"
    assert not token_spans(_encoded_html(at))
    assert any("Type some text above" in caption.value for caption in at.caption)


# -- loading tokenizer files ---------------------------------------------------------------------


def _load(at, files: list[tuple[str, bytes]]):
    assert at.button(key="encode_import_load").disabled  # nothing chosen yet
    uploader = at.file_uploader(key=f"encode_import_files_{at.session_state[Session.import_round.key]}")
    for name, data in files:
        uploader.upload(name, data)
    at.run()
    at.button(key="encode_import_load").click().run()
    no_exception(at)
    return at


@pytest.mark.parametrize("fmt", ["bpe-playground", "hf", "gpt2"])
def test_a_saved_tokenizer_file_is_loaded_and_used(fmt, tmp_path):
    """A file written by bpe_core.save (gpt2: vocab.json + merges.txt together) becomes the choice
    and encodes exactly like the tokenizer saved."""
    saved = bpe_core.train("the quick brown fox jumps over the lazy dog " * 4, 290).tokenizer
    paths = bpe_core.save(saved, tmp_path, fmt)
    at = _load(_encode_page(text="the lazy fox, quickly"), [(path.name, path.read_bytes()) for path in paths])
    ((label, _),) = sess(at).loaded.items()
    what = {  # named by what it is (the file's name after it unless the description holds it)
        "bpe-playground": f"{paths[0].name} · bpe-playground file: {len(saved.vocab)} tokens, pattern gpt2",
        "hf": f"tokenizer.json (Hugging Face): BPE, {len(saved.vocab)} tokens",
        "gpt2": f"GPT-2 vocab.json + merges.txt: {len(saved.vocab)} tokens, pattern gpt2",  # (its files' names)
    }
    assert label == what[fmt]
    assert at.selectbox(key=Session.tokenizer.key).value == loaded_choice(label)
    assert sess(at).loaded[label].merges == saved.merges
    ids = saved.encode("the lazy fox, quickly")
    assert _metric(at, "Tokens") == f"{len(ids):,}"
    assert [int(span.token_id) for span in token_spans(_encoded_html(at))] == ids


def test_a_tiktoken_file_of_no_known_model_is_refused_for_want_of_its_pattern(tmp_path):
    """tiktoken files hold no pattern; the library no longer guesses GPT-2's (a known model's file, say Llama 3's,
    carries its own). Until the import box asks for a pattern, the app says why and changes nothing."""
    saved = bpe_core.train("the quick brown fox jumps over the lazy dog " * 4, 290, pattern="cl100k").tokenizer
    (path,) = bpe_core.save(saved, tmp_path, "tiktoken")
    at = _load(_encode_page(text="the lazy fox, quickly"), [(path.name, path.read_bytes())])
    assert len(at.error) == 1 and "holds no pre-tokenization pattern" in unescaped(at.error[0].value)
    assert sess(at).loaded == {}


@pytest.mark.parametrize(
    "name,data",
    [
        ("tokenizer.json", b"{garbage"),
        ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": {"a": "zero"}}}'),
        ("bpe-playground.json", b'{"format": "bpe-playground", "merges": 7}'),
        ("ranks.tiktoken", b"!!!! notanumber\n"),
        ("notes.txt", b"just some text"),
        ("vocab.json", b'{"a": 0, "b": 1}'),
        ("empty.json", b""),
    ],
)
def test_a_malformed_tokenizer_file_is_a_clear_error_and_changes_nothing(name, data):
    """A file that is not a tokenizer gives an error naming it; loaded tokenizers and choice stay."""
    at = _encode_page()
    trained = sess(at).trained
    _load(at, [(name, data)])
    assert len(at.error) == 1 and unescaped(at.error[0].value).startswith("Could not load a tokenizer")
    assert name in unescaped(at.error[0].value)
    assert sess(at).loaded == {}
    assert sess(at).trained is trained
    assert at.selectbox(key=Session.tokenizer.key).value == TRAINED


# -- escaping ------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", [TRAINED, "gpt2"])
def test_xss_typed_into_the_text_is_only_shown_escaped(option):
    """The probes show as escaped text, character for character, in the tokens and in every word's steps."""
    text = " ".join(XSS_PROBES)
    at = _encode_page(text=text, tokenizer=option)
    assert_no_raw_tags(htmls(at))
    assert_no_raw_markdown_tags(markdown_texts(at))
    body = _encoded_html(at)
    assert "&lt;" in body and "&gt;" in body and "&quot;" in body
    assert "".join(span.text for span in token_spans(body)) == marked(text)
    hostile_words = [word for word in at.selectbox(key=Session.step_word.key).options if any(c in word for c in '<>"')]
    assert hostile_words
    for word in hostile_words:
        at.selectbox(key=Session.step_word.key).set_value(word.replace("·", " ")).run()
        no_exception(at)
        assert_no_raw_tags(htmls(at))
        assert "".join(_steps(at)[-1][1]) == word


def test_the_apps_own_gpt2_zip_loads_on_encode():
    """The GPT-2 zip the Export page offers loads here too, and encodes like the tokenizer it holds."""
    from ui.export import export_files

    saved = bpe_core.train("the quick brown fox jumps over the lazy dog " * 4, 290).tokenizer
    ((name, data),) = export_files(saved, "gpt2").items()
    at = _load(_encode_page(text="the lazy fox, quickly"), [(name, data)])
    assert not at.error
    ((label, _),) = sess(at).loaded.items()
    assert label == f"{name} · GPT-2 vocab.json + merges.txt: {len(saved.vocab):,} tokens, pattern gpt2"
    assert at.selectbox(key=Session.tokenizer.key).value == loaded_choice(label)
    assert [int(span.token_id) for span in token_spans(_encoded_html(at))] == saved.encode("the lazy fox, quickly")


def test_the_word_merged_first_shown_is_one_with_something_to_merge():
    """A text starting "<script>" showed the merges of "<": none. The first word of two characters or more is shown."""
    at = _encode_page(text="<script>alert(1)</script>", tokenizer="gpt2")
    assert at.selectbox(key=Session.step_word.key).value == "script"
    assert len(_steps(at)) > 1


def test_an_invisible_character_cut_across_tokens_is_named_on_each_part():
    """GPT-2 cuts U+202E into two byte tokens, drawn as hex: the hover of each names the character (a new user could
    not tell a direction override was there), and a whole character's token keeps its own title."""
    at = fresh(ENCODE, tokenizer="gpt2", text="a\u202eb 🙂")
    body = next(body for body in htmls(at) if 'class="tokens"' in body)
    tokenizer = bpe_core.reference("gpt2")
    ids = tokenizer.encode("a\u202eb 🙂")
    parts = [i for i in ids if tokenizer.token_bytes(i) in (b"\xe2\x80", b"\xae", b"\xe2\x80\xae")]
    assert len(parts) == 2  # cut in two by GPT-2
    titles = re.findall(r'data-token-id="(\d+)" title="([^"]*)"', body)
    named = [int(i) for i, title in titles if "part of U+202E RIGHT-TO-LEFT OVERRIDE" in title]
    assert named == parts
    assert not any("part of" in title for i, title in titles if int(i) not in parts)
