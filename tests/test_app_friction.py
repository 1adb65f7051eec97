"""What a new user and a speaker ran into (issue 21), each fixed and held here (headless; what only a browser
shows is in test_browser_variants.py and test_browser_talk.py): the picked word on Merges, Cancel, Chinese units
and stop reasons, plurals and thousands, sizes as the uploader counts them, tokens holding newlines, the paste box
after a reload, and "Encode →" after an import."""

from __future__ import annotations

import random
import re

import pytest
from apptest_helpers import ENCODE, MERGES, fresh, htmls, no_exception, open_page, sess, token_spans
from apptest_helpers import unescaped as plain_text

import bpe_core
from playground import i18n, workspace
from playground.corpora import PASTED
from playground.session import Session
from playground.text import human_bytes
from playground.text_files import Upload
from playground.trained import stop_reason_text
from runtime.store import text_digest
from ui import tokenizer_output
from ui.animation_html import player_labels
from ui.export import export_files
from ui.page_training import _cancel_clicked
from ui.token_html import token_span, tokens_html

EXPORT = "pages/4_Export.py"
COMPARE = "pages/3_Compare.py"
CAT = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300"}


def test_a_word_picked_in_the_player_is_shown_merge_by_merge_below_it():
    at = fresh(MERGES, **CAT, word=" the")
    (header,) = [plain_text(h.value) for h in at.subheader if "picked" in h.value]
    assert "“·the”" in header
    (steps,) = [body for body in htmls(at) if body.startswith('<div class="bpe-steps">')]
    model = sess(at).trained.tokenizer
    last_row = steps.split('<div class="bpe-step">')[-1]
    assert [int(span.token_id or -1) for span in token_spans(last_row)] == [-1] * len(model.encode(" the"))
    assert "".join(span.text for span in token_spans(last_row)) == "·the"
    assert [span.text for span in token_spans(last_row)] == [model.decode([i]).replace(" ", "·")
                                                             for i in model.encode(" the")]  # fmt: skip


def test_a_classic_word_picked_in_the_player_is_its_text_without_the_end_of_word_mark():
    at = fresh(MERGES, corpus="toy-low-lower-newest-widest", kind="classic", vocab="30", word="lowest</w>")
    (steps,) = [body for body in htmls(at) if body.startswith('<div class="bpe-steps">')]
    last_row = steps.split('<div class="bpe-step">')[-1]
    assert [span.text for span in token_spans(last_row)] == sess(at).trained.tokenizer.encode_word("lowest")


def test_cancel_says_so_under_the_train_button_and_puts_the_settings_back_to_the_tokenizer_shown():
    at = fresh(None, **CAT)
    s = sess(at)
    assert s.trained.request.vocab_size == 300
    s.vocab = 5_000  # what was asked, then cancelled
    s.running_job = "train"
    _cancel_clicked(s, "train", "Training cancelled. The tokenizer shown is still the previous one.")
    at.run()
    no_exception(at)
    assert s.vocab == 300 and at.number_input(key=Session.vocab.key).value == 300
    (warning,) = [w.value for w in at.warning if "cancelled" in w.value]
    # Said once, where the progress bar was: below the Train button, not among the page's top notices.
    elements = [element for element in at.main if getattr(element, "key", None) == "train_button" or
                getattr(element, "value", None) == warning]  # fmt: skip
    assert [type(element).__name__ for element in elements] == ["Button", "Warning"]
    at.run()
    assert not [w for w in at.warning if "cancelled" in w.value]


def test_a_cancelled_link_is_not_trained_again_by_itself():
    s = Session({})
    s.link_pending, s.running_job = True, "link"
    _cancel_clicked(s, "link", "cancelled")
    assert not s.link_pending and s.cancelled == "cancelled"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_units_and_the_stop_reason_speak_the_session_language(lang, monkeypatch):
    from apptest_helpers import options_in

    options_in(lang, monkeypatch)
    at = fresh(None, corpus="toy-aaabdaaabac", vocab="266", lang=lang)  # 11 bytes: stops after 7 merges
    trained = sess(at).trained
    assert trained.result.stopped_early and trained.result.stop_reason == "no pair left to merge after 7 merges"
    (corpus,) = [metric.value for metric in at.metric if metric.label == i18n.t("Corpus", lang=lang)]
    assert corpus == ("11 字节" if lang == "zh" else "11 bytes")
    captions = " ".join(plain_text(caption.value) for caption in at.caption)
    reason = i18n.t("no pair left to merge after {n:,} merges", lang=lang, n=7)
    assert reason in captions and (lang == "en" or "no pair left" not in captions)
    open_page(at, COMPARE)
    captions = " ".join(plain_text(caption.value) for caption in at.caption)
    assert ("（11 字节）" if lang == "zh" else "(11 bytes)") in captions


def test_the_reference_vocabulary_spinner_speaks_the_session_language(monkeypatch):
    said: list[str] = []
    real = tokenizer_output.st.spinner

    def spinner(text: str, *args, **kwargs):
        said.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(tokenizer_output.st, "spinner", spinner)
    tokenizer_output._references.clear()  # built again, so the spinner shows
    fresh(ENCODE, tokenizer="gpt2", lang="zh")
    assert said == [i18n.t("Loading the {name} vocabulary…", lang="zh", name="GPT-2 (r50k)")]


def test_counts_read_in_the_singular_and_with_thousands_separators():
    assert i18n.tn("After 1 merge:", "After {n:,} merges:", 1) == "After 1 merge:"
    assert i18n.tn("After 1 merge:", "After {n:,} merges:", 2) == "After 2 merges:"
    assert player_labels("en")["perSecondOne"] == "1 round/s" and player_labels("zh")["perSecondOne"] == "每秒 1 轮"
    rng = random.Random(5)
    text = "".join(rng.choice("abcdefghij") for _ in range(4_000))  # one word, no pre-tokens: merged until no pair
    result = bpe_core.train(text, 100_000, pattern=None)
    made = len(result.merges)
    assert made > 1_000 and result.stop_reason == f"no pair left to merge after {made:,} merges"
    assert stop_reason_text(result.stop_reason) == f"no pair left to merge after {made:,} merges"
    assert stop_reason_text("no pair left to merge after 1 merges") == "no pair left to merge after 1 merge"


def streamlit_uploader_size(size: float, unit: str = "b") -> str:
    """Streamlit 1.67's file uploader size label (frontend utils: ``getSizeDisplay``), off Windows: steps of 1,000,
    the next unit once past half of it, one decimal."""
    units = ["gb", "mb", "kb", "b"]
    index = units.index(unit)
    if index and size > 500:
        return streamlit_uploader_size(size / 1000, units[index - 1])
    return f"{size:.1f}{unit.upper()}"


@pytest.mark.parametrize("size", [1_000_000, 4_800_000, 5_000_000, 5_242_880, 12_345_678, 499_999_999])
def test_sizes_read_as_the_uploader_counts_them(size):
    """A 5,000,000-byte file: the uploader said "5.0MB" where the page said "4.8 MB" (binary units)."""
    assert human_bytes(size).replace(" ", "") == streamlit_uploader_size(size)


def test_a_token_holding_newlines_ends_a_line_for_each_wherever_tokens_are_drawn():
    """One break per newline: a "\\n\\n" token drawn with one break lost the text's blank line. A token with text after
    its last newline (``↵····``, the next line's indentation) holds its breaks before that text, so the indentation
    starts the next line (it was drawn at the end of the line before, and the next line seemed unindented)."""
    assert token_span(b":\n\n", 7, 0).endswith("</span><br><br>") and token_span("a\n", None, 0).endswith("><br>")
    assert token_span(b"\n\n  ", 7, 0).endswith(">↵↵<br><br>··</span>") and not token_span(b"  x", 7, 0).endswith(
        "<br>"
    )
    body = tokens_html([b"def", b":\n\n    ", b"return"])
    assert re.search(r">:↵↵<br><br>····</span><span", body)
    at = fresh(None, corpus="python-standard-library-code", vocab="700")
    (window,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')]
    holding = [
        m for m in re.finditer(r"<span class=\"tok[^>]*>((?:[^<]|<br>)*↵(?:[^<]|<br>)*)</span>((?:<br>)*)", window)
    ]
    text = [(m.group(1).replace("<br>", ""), m.group(1), m.group(2)) for m in holding]
    assert any(not shown.endswith("↵") for shown, _, _ in text)  # the corpus has ↵···· tokens
    assert any(shown.count("↵") > 1 for shown, _, _ in text)  # and ↵↵ ones
    for shown, inner, after in text:
        breaks = inner.count("<br>") + after.count("<br>")
        assert breaks == shown.count("↵") and (inner.endswith("↵") or not after), (inner, after)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_training_texts_start_is_cut_with_a_line_that_does_not_count_the_rest(lang):
    """The Train page draws the start of the training text (1,500 characters); cut at 1,200 tokens it said "… 39 more
    tokens not shown", which read as the rest of a 220 KB corpus. It now says the text goes on."""
    at = fresh(None, corpus="chinese-classics", vocab="300", lang=lang)
    trained = sess(at).trained
    assert len(trained.tokenizer.encode(trained.window_text)) > 1200  # the start is cut
    (window,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')]
    assert i18n.t("… the training text goes on", lang=lang) in window
    assert "more tokens not shown" not in window and len(token_spans(window)) == 1200
    assert tokens_html([b"a", b"b", b"c", b"d"], max_tokens=2).endswith("… 2 more tokens not shown</span></div>")


def test_after_a_reload_the_paste_box_holds_the_pasted_text_again():
    text = "my own corpus, pasted\n" * 20
    s = Session({})
    s.initialize()
    s.browser, s.workspace = "b" * 32, "w" * 16
    s.corpus, s.pasted = "paste", Upload(PASTED, text, 0, text_digest(text))
    workspace.save(s)
    again = Session({})
    again.initialize()
    again.browser = s.browser
    assert workspace.restore(again, s.workspace) is True
    assert again.pasted.text == text and again.paste_box == ""  # the box is a widget's: the page fills it
    at = fresh()
    for name in ("corpus", "pasted"):
        at.session_state[getattr(Session, name).key] = getattr(again, name)
    at.run()
    assert at.text_area(key=Session.paste_box.key).value == text


def test_after_an_import_encode_and_compare_open_on_the_imported_tokenizer():
    at = fresh(EXPORT, **CAT)
    model = bpe_core.train("low lower newest widest " * 30, 270).tokenizer
    ((name, data),) = export_files(model, "bpe-playground").items()
    uploader = at.file_uploader(key=f"export_import_files_{sess(at).import_round}")
    uploader.upload(name, data)
    at.run()
    at.button(key="export_import_load").click().run()
    no_exception(at)
    ((label, _),) = sess(at).loaded.items()
    assert label == f"{name} · bpe-playground file: {len(model.vocab):,} tokens, pattern gpt2"  # its file; what it is
    choice = tokenizer_output.loaded_choice(label)
    assert sess(at).exported == choice  # a conversion (load one format, download another) needs no other click
    assert any("Download above now offers it" in plain_text(box.value) for box in at.success)  # and it says so
    (listed,) = [caption.value for caption in at.caption if "Loaded in this session" in caption.value]
    assert plain_text(listed).count("tokens") == 1  # the label says its size once, the list does not again
    assert any(link.proto.label.startswith(i18n.t("Encode →")) for link in at.get("page_link"))
    open_page(at, ENCODE)
    assert at.selectbox(key=Session.tokenizer.key).value == choice
    (body,) = [body for body in htmls(at) if body.startswith('<div class="tokens">')][:1]
    assert [int(span.token_id) for span in token_spans(body)] == model.encode(sess(at).text)
    open_page(at, COMPARE)
    assert at.selectbox(key=Session.compared.key).value == choice


def test_tables_write_whole_numbers_with_thousands_separators_and_decimals_alike():
    """The grid wrote "46952" beside text that says 46,952: its whole-number columns are set to group digits. It wrote
    a premium of 1.0 as "1" above 0.951: a column of decimals is written at one number of places."""
    import pandas as pd

    from ui import stage

    columns = {"script": ["Latin", "Han"], "shared": [46952, 3], "share": [0.5, 1.0], "only in B": [1364, 0]}
    frame = pd.DataFrame({**columns, "premium": [1.0, 0.951], "whole": [2.0, 3.0]})
    config = stage.number_columns(frame)
    assert set(config) == {"shared", "only in B", "share", "premium"}
    formats = {name: column["type_config"]["format"] for name, column in config.items()}
    assert formats == {"shared": "localized", "only in B": "localized", "share": "%.1f", "premium": "%.3f"}


def test_export_names_every_file_loaded_in_the_session():
    """The list was cut at 300 characters: the sixth file loaded read "…"."""
    at = fresh(EXPORT, **CAT)
    tokenizer = bpe_core.train("low lower newest widest " * 30, 270).tokenizer
    labels = [
        f"tokenizer-{k}.json · a file loaded to see that every one of them is named, number {k}" for k in range(8)
    ]
    sess(at).loaded = dict.fromkeys(labels, tokenizer)
    at.run()
    no_exception(at)
    (listed,) = [caption.value for caption in at.caption if "Loaded in this session" in caption.value]
    assert all(label in plain_text(listed) for label in labels) and "…" not in listed
