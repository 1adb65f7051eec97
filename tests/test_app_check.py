"""AppTest (headless) tests of the "Check your BPE" page, against a tutorial trainer written here
(tests/tutorial_trainers.py, no bpe_core code): its correct merges pass, its first-seen tie-break bug is found
at the merge where the two lists part (in English and in 中文), a bad upload is refused with a message that
names what was wrong while the last result stays, and a link opens the page with its settings."""

from __future__ import annotations

import json
import re

import pytest
from apptest_helpers import (
    APP,
    TIMEOUT,
    XSS_PROBES,
    assert_no_raw_markdown_tags,
    fresh,
    markdown_texts,
    no_exception,
    options_in,
    sess,
    unescaped,
)
from naive_ties import gpt2_alphabet
from streamlit.testing.v1 import AppTest
from tutorial_trainers import GPT2, count_pairs, merge_word, tutorial_train, words_of

from playground import check as model
from playground import i18n
from playground.corpora import load_sample
from playground.session import Session

CHECK = "pages/6_Check.py"
CAT = "toy-the-cat-in-the-hat"
TEXT = load_sample(CAT)
CORRECT = tutorial_train(TEXT, 40, specials=[])
FIRST_SEEN = tutorial_train(TEXT, 40, specials=[], tie="first")
DIFFERENCE = next(r for r, (a, b) in enumerate(zip(CORRECT, FIRST_SEEN)) if a != b)
CHINESE_RUN = re.compile(r"[\u4e00-\u9fff]")


def lines(merges: list[tuple[bytes, bytes]]) -> str:
    """Merges as bytes literals, one pair a line (a format the page reads)."""
    return "\n".join(f"{left!r} {right!r}" for left, right in merges)


def gpt2_merges_txt(merges: list[tuple[bytes, bytes]]) -> bytes:
    """A GPT-2 merges.txt written with the alphabet spelled out in tests/naive_ties.py."""
    alphabet = gpt2_alphabet()
    spell = lambda token: "".join(alphabet[b] for b in token)  # noqa: E731
    return ("#version: 0.2\n" + "\n".join(f"{spell(a)} {spell(b)}" for a, b in merges) + "\n").encode("utf-8")


def check_page(**query: str) -> AppTest:
    return fresh(CHECK, check_corpus=CAT, **query)


def paste_and_check(at: AppTest, merges: list[tuple[bytes, bytes]]) -> AppTest:
    at.text_area(key=Session.check_paste.key).input(lines(merges)).run()
    at.button(key="check_button").click().run()
    no_exception(at)
    return at


def metric(at: AppTest, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == i18n.t(label, lang=sess(at).lang)]
    return value


def test_a_correct_trainers_merges_are_a_success():
    at = paste_and_check(check_page(), CORRECT)
    check = sess(at).checked.check
    assert (check.cause, check.first_difference) == ("none", None)
    (success,) = at.success
    assert (
        unescaped(success.value) == f"All {len(CORRECT)} merges match bpe_core's training on this text with the "
        "same settings."
    )
    assert metric(at, "First difference") == "none" and not at.dataframe


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_seen_tie_break_is_named_at_its_merge(lang, monkeypatch):
    options_in(lang, monkeypatch)  # AppTest reads the translated options in the test's thread
    at = paste_and_check(check_page(lang=lang), FIRST_SEEN)
    check = sess(at).checked.check
    assert (check.cause, check.first_difference) == ("tie-break", DIFFERENCE)
    number = DIFFERENCE + 1  # the Merges page's numbering: merge 1 is the first
    assert metric(at, "First difference") == i18n.t("merge {n:,}", n=number, lang=lang)
    assert metric(at, "Cause") == i18n.t("tie-break", lang=lang)
    (warning,) = [unescaped(w.value) for w in at.warning]
    yours, theirs = (model.shown_pair(*pair) for pair in (FIRST_SEEN[DIFFERENCE], CORRECT[DIFFERENCE]))
    assert yours in warning and theirs in warning
    if lang == "en":
        assert warning.startswith(f"At merge {number}, ") and "the pair seen first in the text" in warning
    else:
        assert warning.startswith(f"在第 {number} 次合并") and i18n.t(model.RULES["first"], lang="zh") in warning
        assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", warning), warning
    # Both lists side by side up to the difference: equal before it, different at it.
    lists, candidates = (frame.value for frame in at.dataframe)
    same = lists[i18n.t("Same", lang=lang)].tolist()
    assert lists[i18n.t("Merge", lang=lang)].tolist() == list(range(1, number + 1))
    assert same == ["✓"] * DIFFERENCE + ["✗"]
    # The candidates' counts, counted again here on the text after the first DIFFERENCE merges.
    words = words_of(TEXT, [], GPT2, True)
    for pair in CORRECT[:DIFFERENCE]:
        words = type(words)({merge_word(word, pair): n for word, n in words.items()})
    counts = count_pairs(words, True)
    shown = dict(zip(candidates[i18n.t("Pair", lang=lang)], candidates[i18n.t("Count", lang=lang)]))
    for pair in (FIRST_SEEN[DIFFERENCE], CORRECT[DIFFERENCE]):
        assert shown[model.shown_pair(*pair)] == counts[pair]
    assert counts[FIRST_SEEN[DIFFERENCE]] == counts[CORRECT[DIFFERENCE]] == max(counts.values())
    rules = " ".join(m.value for m in at.markdown)
    assert i18n.t(model.RULES["first"], lang=lang) in unescaped(rules)
    assert yours in unescaped(rules) and theirs in unescaped(rules), "the tie set is listed"


def upload(at: AppTest, merges: tuple[str, bytes] | None, vocab: tuple[str, bytes] | None = None) -> AppTest:
    at.radio(key=Session.check_input.key).set_value("upload").run()
    if merges is not None:
        at.file_uploader(key=Session.check_file.key).upload(*merges)
    if vocab is not None:
        at.file_uploader(key=Session.check_vocab.key).upload(*vocab)
    at.run()
    no_exception(at)
    return at


def errors(at: AppTest) -> list[str]:
    return [unescaped(e.value) for e in at.error]


@pytest.mark.parametrize(
    ("merges", "vocab", "message"),
    [
        (("merges.txt", b"#version: 0.2\nt h e\n"), None, "merges.txt, line 2"),
        (("big.txt", b"a b\n" * 2_000_001), None, "big.txt is 8,000,004 bytes; files up to 8,000,000 bytes are read"),
        (("merges.txt", b"\x00\x01 b\n"), None, "merges.txt looks like a binary file"),
        (("merges.txt", b"#version: 0.2\n"), None, "merges.txt cannot be read as merges: merges.txt: holds no merges"),
        (
            ("merges.txt", gpt2_merges_txt(FIRST_SEEN)),
            ("vocab.json", json.dumps({"t": 0}).encode()),
            "vocab.json does not fit these merges: vocab.json: does not hold",
        ),
        (("merges.txt", gpt2_merges_txt(FIRST_SEEN)), ("vocab.json", b"[1, 2]"), "vocab.json does not fit"),
    ],
)
def test_a_bad_upload_is_refused_by_name_and_the_last_result_stays(merges, vocab, message):
    at = paste_and_check(check_page(), FIRST_SEEN)
    before = sess(at).checked
    upload(at, merges, vocab)
    assert any(message in error for error in errors(at)), errors(at)
    assert sess(at).checked is before and at.dataframe, "the previous result is still shown"
    at.button(key="check_button").click().run()  # no merges to check: said, and the result stays
    assert sess(at).checked is before
    assert any("No merges file uploaded yet" in error for error in errors(at)), errors(at)


def test_empty_paste_is_refused_and_the_last_result_stays():
    at = paste_and_check(check_page(), FIRST_SEEN)
    before = sess(at).checked
    paste_and_check(at, [])
    assert sess(at).checked is before and at.dataframe
    assert errors(at) == ["No merges pasted yet: paste your merges, one pair a line (“t h”)."]
    # ...and the kept result says it is the last check's, not an answer to the empty paste
    assert [unescaped(i.value) for i in at.info if "previous check's (pasted merges)" in i.value]


@pytest.mark.parametrize("merges", [FIRST_SEEN, [(b"t", b"h"), (b"h", b"e")]])
def test_tied_at_the_top_marks_only_pairs_that_share_the_top_count_with_another(merges):
    """A pair alone at the top count was marked "tied" too (the tie set held just it)."""
    at = paste_and_check(check_page(), merges)
    _, candidates = (frame.value for frame in at.dataframe)
    counts, marks = candidates["Count"].tolist(), candidates["Tied at the top"].tolist()
    top = [count == max(counts) for count in counts]
    assert marks == (["✓" if at_top else "" for at_top in top] if sum(top) > 1 else [""] * len(counts))
    assert set(candidates["Merged by"]) <= {"", "yours", "bpe_core", "yours, bpe_core"}


def test_an_uploaded_merges_txt_with_its_vocab_is_checked_like_pasted_lines():
    at = check_page()
    vocab = {"".join(gpt2_alphabet()[b] for b in a + b): i for i, (a, b) in enumerate(FIRST_SEEN)}
    upload(at, ("merges.txt", gpt2_merges_txt(FIRST_SEEN)), ("vocab.json", json.dumps(vocab).encode()))
    assert not at.error and sess(at).check_uploaded.merges == FIRST_SEEN
    at.button(key="check_button").click().run()
    check = sess(at).checked.check
    assert (check.cause, check.first_difference, sess(at).checked.merges_label) == (
        "tie-break",
        DIFFERENCE,
        "merges.txt",
    )


def test_a_link_opens_the_page_with_its_settings_and_never_carries_the_merges(monkeypatch):
    from ui.frame import link_params

    options_in("zh", monkeypatch)
    query = {
        "check_corpus": "mixed-english-chinese",
        "check_pattern": "none",
        "check_specials": "<|endoftext|>",
        "check_classic": "1",
        "lang": "zh",
    }
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(CHECK)
    at.run()
    no_exception(at)
    s = sess(at)
    assert (s.check_corpus, s.check_pattern, s.check_specials, s.check_classic) == (
        "mixed-english-chinese",
        "none",
        "<|endoftext|>",
        True,
    )
    assert at.selectbox(key=Session.check_pattern.key).disabled, "classic training has no pattern"
    assert at.toggle(key=Session.check_classic.key).value
    at.text_area(key=Session.check_paste.key).input("t h\n").run()
    assert link_params(sess(at)) == query
    assert CHINESE_RUN.search(at.title[0].value)


def test_a_bad_link_value_is_named_and_the_default_kept():
    at = fresh(CHECK, check_pattern="bogus", check_corpus="paste")
    assert sess(at).check_pattern == "gpt2"
    problems = [unescaped(w.value) for w in at.warning]
    assert any("check_pattern" in p and "gpt2" in p for p in problems), problems
    assert any("check_corpus" in p for p in problems), "pasted text is never a link's corpus"


def test_the_library_sentences_are_the_ones_the_catalog_translates():
    """The page's copies of the library's sentences (marked for the catalog) are the library's own."""
    from bpe_core.analysis.check import explain

    assert model.EXPLANATIONS == explain.EXPLANATIONS
    assert model.RULES == explain.RULES and model.PATTERN_NAMES == explain.PATTERN_NAMES
    for text in [*model.EXPLANATIONS.values(), *model.RULES.values(), *model.PATTERN_NAMES.values()]:
        assert CHINESE_RUN.search(i18n.t(text, lang="zh")), text


def test_a_minbpe_model_brings_its_pattern_and_special_tokens():
    """A minbpe .model written here (ids, as minbpe saves them) from tests/naive_ties.py's minbpe trainer: the page
    takes its pattern (cl100k's regex, by name) and special token, and checks it against tutorial_train's merges."""
    from naive_ties import minbpe_train

    from bpe_core.pretokenize import pattern_regex

    cl100k = pattern_regex("cl100k")
    merges = minbpe_train(TEXT, 30, cl100k, ["<|endoftext|>"])
    ids = {bytes([b]): b for b in range(256)}
    rows = ["minbpe v1", cl100k, "1", "<|endoftext|> 286"]
    for rank, (left, right) in enumerate(merges):
        rows.append(f"{ids[left]} {ids[right]}")
        ids[left + right] = 256 + rank
    at = upload(check_page(), ("toy.model", ("\n".join(rows) + "\n").encode()))
    s = sess(at)
    assert (s.check_pattern, s.check_specials, s.check_uploaded.merges) == ("cl100k", "<|endoftext|>", merges)
    assert any("toy.model" in unescaped(i.value) for i in at.info), "the page says which settings the file set"
    at.button(key="check_button").click().run()
    correct = tutorial_train(TEXT, 30, specials=["<|endoftext|>"], pattern=cl100k)
    expected = next((r for r, (a, b) in enumerate(zip(merges, correct)) if a != b), None)
    check = sess(at).checked.check
    assert check.first_difference == expected and check.cause == ("none" if expected is None else "tie-break")


def test_hostile_merges_and_file_names_are_shown_as_text():
    probes = [(probe.encode(), b"x") for probe in XSS_PROBES]
    at = paste_and_check(check_page(), probes)
    assert sess(at).checked.check.first_difference == 0
    assert_no_raw_markdown_tags(markdown_texts(at))
    upload(at, ("![x](http://127.0.0.1:9/x.png)<img src=x>.txt", b"a b c\n"))
    assert errors(at) and all("](" not in e.value.replace("\\](", "") for e in at.error)
    assert_no_raw_markdown_tags(markdown_texts(at))


def test_a_cancelled_check_is_said_once_and_keeps_the_last_result_and_the_train_settings():
    from ui.check.run import CANCELLED, JOB
    from ui.progress_bar import cancel_clicked

    at = paste_and_check(check_page(), FIRST_SEEN)
    s = sess(at)
    before, vocab = s.checked, s.vocab
    s.running_job = JOB  # as while the job runs
    cancel_clicked(s, JOB, CANCELLED)
    at.run()
    no_exception(at)
    assert [w.value for w in at.warning if "cancelled" in w.value] == [CANCELLED]
    assert sess(at).checked is before and sess(at).vocab == vocab
    at.run()
    assert not [w for w in at.warning if "cancelled" in w.value]
    cancel_clicked(s, JOB, CANCELLED)  # a click after the job ended says so
    at.run()
    assert any("after the job had finished" in i.value for i in at.info)


def test_merges_past_the_end_of_training_are_a_counts_finding():
    """More merges than the text allows: the first one past the end is the difference, and no candidates exist."""
    at = paste_and_check(check_page(), [*CORRECT, (b"zz", b"zz")])
    check = sess(at).checked.check
    assert (check.cause, check.finding, check.first_difference) == ("counts", "counts-no-pair", len(CORRECT))
    assert len(at.dataframe) == 1 and metric(at, "First difference") == f"merge {len(CORRECT) + 1}"


def test_a_hugging_face_tokenizer_json_brings_its_special_tokens():
    """bpe_core's own tokenizer, exported as tokenizer.json (the Export page's writer), passes with its special
    token taken from the file."""
    import bpe_core
    from ui.export import export_files

    trained = bpe_core.train(TEXT, 256 + 1 + 20, special_tokens=["<|endoftext|>"])
    ((name, data),) = export_files(trained.tokenizer, "hf").items()
    at = upload(check_page(), (name, data if isinstance(data, bytes) else data.encode()))
    assert sess(at).check_specials == "<|endoftext|>" and sess(at).check_uploaded.merges == trained.merges
    at.button(key="check_button").click().run()
    assert sess(at).checked.check.cause == "none" and at.success


def test_merges_of_another_text_ask_whether_the_trainer_was_trained_on_this_one():
    """A learner's most likely slip: the right merges checked against the wrong training text (the page's default is
    the Python reference). The report asked to check how pairs are counted; it now also asks about the text."""
    other = tutorial_train(load_sample("toy-low-lower-newest-widest"), 12, specials=[])
    at = paste_and_check(check_page(), other)
    assert sess(at).checked.check.first_difference == 0
    (info,) = [unescaped(i.value) for i in at.info if "Training text" in unescaped(i.value)]
    assert info.startswith("Was your trainer trained on this text? Its merge 1 ")
    assert not [i for i in paste_and_check(check_page(), CORRECT).info if "Was your trainer" in i.value]
