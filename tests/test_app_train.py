"""AppTest (headless) tests of the Train page (pages/0_Train.py, the app's home): samples, settings,
uploads, errors, escaping."""

from __future__ import annotations

import pytest
from apptest_helpers import (
    CAT,
    SENNRICH,
    XSS_PROBES,
    assert_no_raw_markdown_tags,
    assert_no_raw_tags,
    click_train,
    fresh,
    htmls,
    markdown_texts,
    marked,
    sess,
    token_spans,
    trained_on,
    unescaped,
)

import bpe_core
from playground.corpora import DEFAULT_SLUG, PASTE, SLUGS, UPLOAD, load_sample
from playground.kinds import kind_of
from playground.session import Session
from playground.text import plain
from playground.train_form import limits

SPECIAL = "<|endoftext|>"  # the page's default special token


def _metric(at, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value


def _delta(at, label: str) -> str:
    (value,) = [m.proto.delta for m in at.metric if m.label == label]
    return value


def _sample_html(at) -> str:
    """The highlighted start of the training text (the only st.html made of token spans)."""
    (body,) = [h for h in htmls(at) if h.startswith('<div class="tokens"')]
    return body


def _paste(at, text: str, vocab: int = 260):
    """Paste ``text`` (a small vocab size: a short text cannot make the default 600)."""
    at.selectbox(key=Session.corpus.key).set_value(PASTE).run()
    at.number_input(key=Session.vocab.key).set_value(vocab).run()
    at.text_area(key=Session.paste_box.key).input(text).run()
    return at


def _upload(at, name: str, data: bytes, vocab: int = 260):
    at.selectbox(key=Session.corpus.key).set_value(UPLOAD).run()
    at.number_input(key=Session.vocab.key).set_value(vocab).run()
    at.file_uploader(key=Session.upload_box.key).upload(name, data, "text/plain").run()
    return at


# -- a first training ----------------------------------------------------------------------------


def test_page_opens_with_the_default_sample_and_one_click_trains_it():
    """A fresh session has a sample chosen; one click trains exactly what bpe_core.train gives."""
    at = fresh()
    assert at.selectbox(key=Session.corpus.key).value == DEFAULT_SLUG
    assert sess(at).trained is None
    assert any("Click **Train**" in info.value for info in at.info)
    vocab_size = at.number_input(key=Session.vocab.key).value
    assert vocab_size == SLUGS[DEFAULT_SLUG].vocab_size

    click_train(at)
    trained = sess(at).trained
    text = load_sample(DEFAULT_SLUG)
    expected = bpe_core.train(text, vocab_size, special_tokens=[SPECIAL])
    assert trained.tokenizer.merges == expected.tokenizer.merges
    assert _metric(at, "Merges made") == f"{len(trained.trace):,}" == f"{len(expected.trace):,}"
    n_bytes = len(text.encode())
    assert n_bytes < 256 * 1024  # measured on the whole corpus
    assert _metric(at, "Bytes per token (training text)") == f"{n_bytes / len(expected.tokenizer.encode(text)):.2f}"
    assert _delta(at, "Bytes per token (training text)") == "from 1.00"
    assert sess(at).round is None  # the Merges page opens on round 0, the start

    spans = token_spans(_sample_html(at))
    assert spans and all("tok" in span.classes for span in spans)
    window = trained.window_text
    assert window and text.startswith(window)
    assert [int(span.token_id) for span in spans] == expected.tokenizer.encode(window)[:1200]


def test_training_again_with_the_same_text_and_settings_uses_the_cache():
    """The same text and settings come from the session cache; other settings retrain."""
    at = trained_on(CAT)
    first = sess(at).trained

    click_train(at)
    assert sess(at).trained is first

    at.number_input(key=Session.vocab.key).set_value(280).run()
    click_train(at)
    assert sess(at).trained is not first
    assert sess(at).trained.request.vocab_size == 280

    at.number_input(key=Session.vocab.key).set_value(300).run()
    click_train(at)
    assert sess(at).trained is first


@pytest.mark.parametrize("sample", list(SLUGS))
def test_every_sample_trains(sample):
    """Each built-in sample trains at its default vocab size, like bpe_core.train, and is highlighted."""
    at = trained_on(sample)
    trained = sess(at).trained
    text = load_sample(sample)
    expected = bpe_core.train(text, SLUGS[sample].vocab_size, special_tokens=[SPECIAL]).tokenizer
    assert trained.tokenizer.merges == expected.merges
    assert _metric(at, "Merges made") == f"{len(trained.trace):,}"
    assert text.startswith(trained.window_text)
    spans = token_spans(_sample_html(at))
    assert [int(span.token_id) for span in spans] == expected.encode(trained.window_text)[:1200]


# -- settings ------------------------------------------------------------------------------------


def test_classic_training_matches_train_classic():
    """Classic BPE trains with train_classic; words keep their </w> marks, escaped; bytes per token
    counts characters + </w> before and symbols after."""
    from playground import train_form as settings

    settings._stops.clear()  # where an earlier test's training stopped would make the range exact (tested below)
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(SENNRICH).run()
    at.radio(key=Session.kind.key).set_value("classic").run()
    assert at.selectbox(key=Session.pattern.key).disabled and at.text_input(key=Session.specials.key).disabled
    # 10 letters + </w>; 4 distinct words (each ends as one symbol), 20 symbols to merge at most
    assert any("Vocab sizes from 11. Training stops" in caption.value and "after 4 to 20 merges" in caption.value
               for caption in at.caption)  # fmt: skip
    at.number_input(key=Session.vocab.key).set_value(25).run()
    click_train(at)
    trained = sess(at).trained
    text = load_sample(SENNRICH)
    expected = bpe_core.train_classic(text, 25)
    assert trained.request.kind == "classic" and isinstance(trained.tokenizer, bpe_core.ClassicTokenizer)
    assert trained.tokenizer.merges == expected.merges
    assert _metric(at, "Merges made") == f"{len(expected.trace):,}"

    words = text.split()
    symbols_before = sum(len(word) + 1 for word in words)
    symbols_after = sum(len(expected.tokenizer.encode_word(word)) for word in words)
    word_bytes = sum(len(word.encode()) for word in words)
    assert _metric(at, "Bytes per token (training text)") == f"{word_bytes / symbols_after:.2f}"
    assert _delta(at, "Bytes per token (training text)") == f"from {word_bytes / symbols_before:.2f}"

    body = _sample_html(at)
    assert "&lt;/w&gt;" in body and "</w>" not in body
    shown = [span.text for span in token_spans(body)]
    assert shown == [symbol for word in expected.tokenizer.encode_words(trained.window_text) for symbol in word]


@pytest.mark.parametrize("choice", ["gpt2", "cl100k", "o200k", "whitespace", "none", "custom"])
def test_each_pre_tokenization_pattern(choice):
    """Every pattern choice trains what bpe_core.train gives with that pattern, and the label names it."""
    regex = r"[a-z]+|[^a-z]+"
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(CAT).run()
    at.selectbox(key=Session.pattern.key).set_value(choice).run()
    if choice == "custom":
        at.text_input(key=Session.regex.key).input(regex).run()
    pattern = {"none": None, "custom": regex}.get(choice, choice)
    vocab = min(300, limits(load_sample(CAT), "byte", pattern, (SPECIAL,)).maximum)
    at.number_input(key=Session.vocab.key).set_value(vocab).run()
    click_train(at)
    trained = sess(at).trained
    expected = bpe_core.train(load_sample(CAT), vocab, special_tokens=[SPECIAL], pattern=pattern).tokenizer
    assert trained.request.pattern == pattern
    assert trained.tokenizer.merges == expected.merges
    assert trained.label.endswith(f"· pattern {choice}")


def test_pattern_none_lets_merges_cross_words():
    """Without pre-tokenization a learned token can hold a space inside; with gpt2 it never does."""

    def inner_space(at) -> bool:
        merges = sess(at).trained.tokenizer.merges
        return any(b" " in (left + right).strip(b" ") for left, right in merges)

    assert not inner_space(trained_on(CAT))
    assert inner_space(trained_on(CAT, pattern="none"))


def test_special_tokens_get_the_last_ids_and_are_shown_escaped():
    """Special tokens come after the merges, are never merged into, and show as one escaped token."""
    text = "the cat<|endoftext|>the hat<|pad|>the cat sat<|endoftext|>"
    at = _paste(fresh(), text)
    at.text_input(key=Session.specials.key).input("<|endoftext|> <|pad|> <|endoftext|>").run()
    at.number_input(key=Session.vocab.key).set_value(266).run()
    click_train(at)
    trained = sess(at).trained
    expected = bpe_core.train(text, 266, special_tokens=["<|endoftext|>", "<|pad|>"])
    n = len(expected.trace)
    assert trained.tokenizer.merges == expected.tokenizer.merges
    assert trained.tokenizer.special_tokens == {"<|endoftext|>": 256 + n, "<|pad|>": 257 + n}
    assert all(b"|" not in left + right for left, right in trained.tokenizer.merges)

    body = _sample_html(at)
    assert "<|" not in body and "&lt;|endoftext|&gt;" in body
    spans = token_spans(body)
    assert [s.text for s in spans if s.token_id == str(256 + n)] == ["<|endoftext|>"] * 2
    assert [s.text for s in spans if s.token_id == str(257 + n)] == ["<|pad|>"]


def test_big_paste_is_stored_and_the_box_cleared():
    """A paste over 50,000 characters is kept in session state, the box emptied, and it still trains."""
    text = (load_sample(CAT) + "\n") * 300
    assert len(text) > 50_000
    at = _paste(fresh(), text)
    assert sess(at).paste_box == ""
    assert sess(at).pasted.text == text
    assert any("Pasted text stored" in info.value for info in at.info)
    click_train(at)
    assert sess(at).trained.corpus_chars == len(text)


# -- errors keep the previous tokenizer ----------------------------------------------------------


@pytest.mark.parametrize("kind", ["byte", "classic"])
def test_a_size_above_what_the_corpus_can_make_trains_to_the_end_and_says_so(kind):
    """Training stops when no pair is left: a bigger size is no error. The page says so before (beside the size)
    and after (the label's "of … asked", the stop reason), and the result equals the library's run to the end."""
    at = trained_on(CAT, kind=kind, vocab=40 if kind == "classic" else 270)
    at.number_input(key=Session.vocab.key).set_value(5_000).run()
    assert any("a bigger size" in c.value and "gives the same tokenizer" in c.value for c in at.caption)
    click_train(at)
    assert not at.error and not at.exception
    trained = sess(at).trained
    if kind == "classic":
        expected = bpe_core.train_classic(load_sample(CAT), 5_000)
    else:
        expected = bpe_core.train(load_sample(CAT), 5_000, special_tokens=[SPECIAL])
    assert trained.tokenizer.merges == expected.tokenizer.merges
    assert trained.tokenizer.n_vocab < 5_000
    assert "of 5,000 asked" in trained.label
    assert any("no pair left to merge" in unescaped(m) for m in markdown_texts(at))


@pytest.mark.parametrize(
    "kind,vocab_size",
    [
        ("byte", 100),
        ("classic", 3),
        ("byte", 0),
        ("byte", -7),
        ("byte", 99_999_999),
        ("classic", 200_001),
        ("byte", 10**15),
    ],
)
def test_a_vocab_size_no_training_can_give_is_refused_and_keeps_the_tokenizer(kind, vocab_size):
    """A vocab size below the base alphabet, or above what the app trains, is refused with a message saying
    what is allowed (not silently replaced); the last tokenizer stays."""
    at = trained_on(CAT, kind=kind, vocab=40 if kind == "classic" else 270)
    before = sess(at).trained
    at.number_input(key=Session.vocab.key).set_value(vocab_size).run()
    click_train(at)
    assert len(at.error) == 1 and "is not possible here" in at.error[0].value and "Choose a size" in at.error[0].value
    assert sess(at).trained is before
    assert _metric(at, "Merges made") == f"{before.num_merges:,}"


def test_the_vocab_box_has_no_bounds_of_its_own():
    """A browser keeps a typed value outside a number box's bounds to itself: the box turns red, and Train trained
    the size before without a word (-5, 400,001). The box takes any whole number; Train refuses what it cannot
    train, saying what is allowed (above)."""
    box = fresh().number_input(key=Session.vocab.key)
    assert (box.min, box.max) == (None, None)


@pytest.mark.parametrize(
    "text,kind,message",
    [("", "byte", "The corpus is empty"), ("  \n\t ", "classic", "only whitespace")],
)
def test_empty_paste_is_refused_and_nothing_trained(text, kind, message):
    """An empty paste (classic: only whitespace) gives an error; nothing is trained."""
    at = fresh()
    at.radio(key=Session.kind.key).set_value(kind).run()
    _paste(at, text)
    click_train(at)
    assert len(at.error) == 1 and message in at.error[0].value
    assert sess(at).trained is None
    assert not at.metric


@pytest.mark.parametrize("regex", ["(unclosed", "[z-a]", "   "])
def test_bad_custom_regex_is_refused_and_keeps_the_tokenizer(regex):
    """A regex that does not compile (or is blank) is named as the problem; the last tokenizer stays."""
    at = trained_on(CAT)
    before = sess(at).trained
    at.selectbox(key=Session.pattern.key).set_value("custom").run()
    at.text_input(key=Session.regex.key).input(regex).run()
    click_train(at)
    assert len(at.error) == 1 and "pre-tokenization pattern cannot be used" in at.error[0].value
    assert [code.value for code in at.code if code.value == regex] == [regex]  # shown verbatim
    assert sess(at).trained is before


# -- uploads -------------------------------------------------------------------------------------


def test_non_utf8_upload_trains_with_a_warning_counting_the_replaced_bytes():
    """Latin-1 text: each accented letter is one invalid UTF-8 byte, replaced by U+FFFD and counted."""
    latin1 = "Le café où l'on mange une crème brûlée, naïve idée. " * 3
    replaced = sum(ord(ch) > 127 for ch in latin1)  # none adjacent: each is a lone invalid byte
    at = _upload(fresh(), "menu.txt", latin1.encode("latin-1"))
    assert sess(at).upload.replaced_bytes == replaced
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and f"{replaced} bytes were replaced" in warnings[0]
    click_train(at)
    trained = sess(at).trained
    assert trained.request.corpus_label == "menu.txt"
    assert trained.window_text.count("\ufffd") == replaced
    assert any(f"{replaced} bytes were replaced" in w.value for w in at.warning)  # still shown


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("image.txt", b"GIF89a\x01\x00\x01\x00\x00\xff\x00,", "binary file (it contains NUL bytes)"),
        ("empty.txt", b"", "is empty"),
    ],
)
def test_unusable_upload_is_refused_and_nothing_trained(name, data, message):
    """A binary or empty file is refused with a message naming it; training then says why again (it said "No file
    uploaded yet", beside the uploader showing the file)."""
    at = _upload(fresh(), name, data)
    assert len(at.error) == 1 and message in unescaped(at.error[0].value) and name in unescaped(at.error[0].value)
    assert sess(at).upload is None
    click_train(at)
    errors = [unescaped(error.value) for error in at.error]
    assert len(errors) == 2 and message in errors[0]  # the refusal stays put
    assert (
        errors[1].startswith("The uploaded file cannot be trained on: ") and message in errors[1] and name in errors[1]
    )
    assert sess(at).trained is None


def test_a_refused_upload_after_a_good_one_says_the_good_one_is_still_used():
    """The refusal stays next to the uploader (not a one-run banner), and the caption says which file
    training still uses, so the refused name in the box is not mistaken for the corpus."""
    at = _upload(fresh(), "notes.txt", ("Tokenizers split text. " * 5).encode())
    at.file_uploader(key=Session.upload_box.key).upload("empty.txt", b"", "text/plain").run()
    for _ in range(2):  # and on the next run as well
        assert len(at.error) == 1 and "empty.txt is empty" in unescaped(at.error[0].value)
        assert any("Still using notes.txt" in unescaped(caption.value) for caption in at.caption)
        at.run()
    click_train(at)
    assert sess(at).trained.request.corpus_label == "notes.txt"


def test_a_good_upload_trains_its_text():
    """A UTF-8 upload (with a BOM) trains its text, named after the file."""
    text = "Tokenizers 分词器 split text. " * 5
    at = _upload(fresh(), "notes.txt", b"\xef\xbb\xbf" + text.encode())
    assert not at.warning and not at.error
    click_train(at)
    trained = sess(at).trained
    assert trained.request.corpus_label == "notes.txt" and trained.window_text == text
    expected = bpe_core.train(text, sess(at).vocab, special_tokens=[SPECIAL])
    assert trained.tokenizer.merges == expected.merges


# -- escaping ------------------------------------------------------------------------------------


def test_xss_in_a_pasted_corpus_is_only_shown_escaped():
    """The probes reach the highlighted sample only as escaped text, character for character."""
    text = "\n".join(XSS_PROBES) + "\nthe cat"
    at = _paste(fresh(), text)
    at.selectbox(key=Session.pattern.key).set_value("none").run()  # lets merges build tokens like "<s"
    click_train(at)
    assert_no_raw_tags(htmls(at))
    assert_no_raw_markdown_tags(markdown_texts(at))
    body = _sample_html(at)
    assert "&lt;" in body and "&gt;" in body and "&quot;" in body
    assert "".join(span.text for span in token_spans(body)) == marked(text)


@pytest.mark.parametrize("probe", XSS_PROBES)
def test_xss_in_an_upload_file_name_is_only_shown_escaped(probe):
    """A hostile file name is Markdown-escaped in the caption, the warning, the error and the labels."""
    name = probe + ".txt"
    at = _upload(fresh(), name, "caf\xe9 cr\xe8me, the cat".encode("latin-1"))
    click_train(at)
    assert sess(at).trained.request.corpus_label == name
    texts = markdown_texts(at)
    assert_no_raw_markdown_tags(texts)
    assert_no_raw_tags(htmls(at))
    assert any(plain(name) in text for text in texts)
    assert any(plain(name) in w.value and "2 bytes were replaced" in w.value for w in at.warning)

    _upload(at, name, b"\x00binary")
    assert_no_raw_markdown_tags(markdown_texts(at))
    assert any(plain(name) in e.value for e in at.error)


def test_training_that_runs_out_of_pairs_is_labelled_with_the_vocab_it_reached():
    """The corpus bound is an upper bound: when no pair is left before the asked size, the label says
    how many tokens there are, not the number asked for."""
    # One pre-token "aaaa": 3 pairs bound the merges, but a·a then aa·aa is all there is to merge.
    at = _paste(fresh(), "aaaa", vocab=256 + 1 + 3)  # 1 special token
    click_train(at)
    trained = sess(at).trained
    assert trained.result.stopped_early
    reached = trained.tokenizer.n_vocab
    assert reached == 259 and "vocab 259 (of 260 asked)" in trained.label
    assert any("vocab 259 \\(of 260 asked\\)" in caption.value for caption in at.caption)  # Markdown-escaped


@pytest.mark.parametrize("kind", ["byte", "superword", "classic"])
def test_after_training_runs_out_of_pairs_the_vocab_range_says_after_how_many_merges(kind):
    """Every kind's stop is found again by the settings that made it (superword tokens once kept the generic
    range: the stop was kept under the superword pattern and looked up under the Train page's pattern)."""
    text = "by the way by the way, all the way"
    at = fresh()
    at.radio(key=Session.kind.key).set_value(kind).run()
    at = _paste(at, text, vocab=300)
    s = sess(at)
    kind_settings = kind_of(kind)
    bounds = limits(text, kind, kind_settings.pattern_for(s.pattern), kind_settings.specials_for((SPECIAL,)))
    at.number_input(key=Session.vocab.key).set_value(bounds.maximum).run()  # the most the corpus may allow
    before = [caption.value for caption in at.caption if "Training stops when no pair is left" in caption.value]
    assert len(before) == 1  # the range where training may stop
    click_train(at)
    trained = sess(at).trained
    assert trained.request.kind == kind and trained.result.stopped_early
    n = trained.num_merges
    assert bounds.fewest <= n < bounds.maximum - bounds.minimum
    at.run()  # the range is drawn above the Train button: the next run shows what this training found
    expected = (
        f"Vocab sizes from {bounds.minimum:,} to {bounds.minimum + n:,} on this corpus: training it ran out "
        f"of pairs after {n:,} merges"
    )
    assert any(caption.value.startswith(expected) for caption in at.caption), [c.value for c in at.caption]


def test_picking_a_corpus_says_that_the_vocab_size_follows_it():
    """A built-in corpus brings its suggested size; the page says so, with the size it replaced."""
    at = fresh()
    before = sess(at).vocab
    at.selectbox(key=Session.corpus.key).set_value("python-reference-all").run()
    after = SLUGS["python-reference-all"].vocab_size
    assert before != after and sess(at).vocab == after
    assert any(f"Vocab size set to {after:,}" in unescaped(i.value) and f"it was {before:,}" in unescaped(i.value)
               for i in at.info)  # fmt: skip
    at.selectbox(key=Session.corpus.key).set_value(CAT).run()
    at.selectbox(key=Session.corpus.key).set_value(CAT).run()  # the same corpus again: nothing changed, nothing said
    assert not any("Vocab size set to" in unescaped(i.value) for i in at.info)


# -- keeping the work for a reload ------------------------------------------------------------------------------


def test_work_the_store_cannot_keep_is_said_as_text_and_stays_in_the_session(monkeypatch):
    """Saving the work for a reload can fail (a server that reloaded its modules held objects of the old classes,
    which the codec did not know: "Object of type Trained is not JSON serializable" reached the browser as a
    traceback, and the work was lost). The page says so as a message, and the tokenizer and settings stay."""
    from playground import workspace

    at = trained_on(CAT)
    trained = sess(at).trained

    def refuses(values):
        raise TypeError("Object of type <b>Trained</b> is not JSON serializable")

    monkeypatch.setattr(workspace, "encode", refuses)
    at.number_input(key=Session.vocab.key).set_value(trained.request.vocab_size + 5).run()
    assert not at.exception
    [warning] = [w.value for w in at.warning if "could not be kept for a reload" in w.value]
    assert "TypeError" in warning and "<b>" not in warning.replace("\\<b\\>", "")  # the error's text stays text
    assert sess(at).trained is trained and sess(at).vocab == trained.request.vocab_size + 5


def test_the_server_never_reloads_its_modules_under_its_sessions():
    """Streamlit drops every watched module when a source file changes; the next rerun's classes are new, and the
    objects sessions hold are no longer of them (the failure above). The app's own config turns the watcher off."""
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")
    config = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
