"""English and 简体中文: the catalogs match the code, every page in Chinese has no English sentence left,
and the language travels in links (``lang``) and survives a reload.

Static checks read the code (every ``t("…")``, ``N_("…")`` and ``later("…")`` literal); the walk runs
every page and view in AppTest in both languages; the browser test opens ``/?lang=zh`` in Chromium.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path
from string import Formatter

import pytest
from apptest_helpers import (
    APP,
    TIMEOUT,
    fresh,
    no_exception,
    open_page,
    options_in,
    sess,
    unescaped,
    vega_specs,
)
from streamlit.testing.v1 import AppTest

from playground import i18n
from playground.corpora import SENNRICH
from playground.session import FORMATS, VIEWS, Session

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    [*ROOT.glob("ui/**/*.py"), *ROOT.glob("playground/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
)
MARKS = {"t", "tn", "N_", "later"}
CORPUS = "toy-aaabdaaabac"  # its name holds no English words (a toy corpus's name is its text)


def marked_texts() -> dict[str, str]:
    """English text -> the file that first marks it, for every string literal given to t, N_ or later."""
    found: dict[str, str] = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            for text in node.args[: 2 if name == "tn" else 1]:  # tn(one, many, n): both forms are keys
                if name in MARKS and isinstance(text, ast.Constant) and isinstance(text.value, str):
                    found.setdefault(text.value, str(path.relative_to(ROOT)))
    return found


def catalog_files() -> dict[str, dict[str, str]]:
    """Each zh catalog file's entries; a key given twice in one file fails here (JSON would keep the last)."""

    def no_duplicates(pairs: list[tuple[str, str]]) -> dict[str, str]:
        repeated = [key for key, n in Counter(key for key, _ in pairs).items() if n > 1]
        assert not repeated, repeated
        return dict(pairs)

    return {
        path.name: json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=no_duplicates)
        for path in sorted((i18n.LOCALES / "zh").glob("*.json"))
    }


def fields(text: str) -> Counter:
    """The ``{name:spec}`` placeholders of a template, with their format specs."""
    return Counter(
        (name, spec, conversion) for _, name, spec, conversion in Formatter().parse(text) if name is not None
    )


# -- (a) static: the catalogs and the code agree ------------------------------------------------------


def test_every_marked_text_has_a_chinese_entry_and_every_entry_is_used():
    marked = marked_texts()
    assert len(marked) > 250  # the walk below would pass vacuously if the extraction broke
    catalog = i18n.catalog("zh")
    missing = {text: where for text, where in marked.items() if text not in catalog}
    assert not missing, missing
    unused = [text for text in catalog if text not in marked]
    assert not unused, unused


def test_no_english_text_is_in_two_catalog_files():
    seen: dict[str, str] = {}
    for name, entries in catalog_files().items():
        for key in entries:
            assert key not in seen, (key, seen.get(key), name)
            seen[key] = name


def test_placeholders_are_the_same_in_english_and_chinese():
    for entries in catalog_files().values():
        for english, chinese in entries.items():
            assert fields(english) == fields(chinese), (english, chinese)
            assert chinese.strip(), english
            # Markdown that changes rendering must survive translation (bold, code spans).
            assert english.count("**") == chinese.count("**") and english.count("`") == chinese.count("`"), english


def test_translations_are_chinese_where_the_english_is_a_sentence():
    """A sentence left in English in the catalog would pass every other check."""
    for entries in catalog_files().values():
        for english, chinese in entries.items():
            if len(re.findall(r"[A-Za-z]{3,}", english)) >= 3 and english != chinese:
                assert re.search(r"[\u4e00-\u9fff]", chinese), (english, chinese)


def test_the_session_field_is_the_key_i18n_reads():
    assert Session.lang.key == i18n.LANG_KEY


def test_a_message_made_without_the_session_is_translated_where_it_is_shown():
    from playground.links import parse_link

    _, problems = parse_link({"vocab": ["²"]})
    (problem,) = problems
    assert "whole number" in str(problem.message)
    shown = i18n.t(problem.message, lang="zh")
    assert "“vocab”" in shown and "整数" in shown and not re.search(r"[A-Za-z]{4,} [A-Za-z]{3,}", shown), shown


# -- (b) every page in both languages ---------------------------------------------------------------

ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z']+(?:[ ,;:-]+[A-Za-z][a-z']+){2,}\b")
"""Three or more words in a row: an English sentence (code names like cl100k_base or GPT-2 break a run)."""
DATA = (SENNRICH, "the cat in the hat", "low lower newest widest", "“ by the way”")
"""Texts that are corpus data, not interface (“ by the way”: a superword token, as an example)."""


def visible_texts(at: AppTest) -> list[str]:
    """What a person reads on the page: titles, Markdown, alerts, labels, help, options, headers, chart titles."""
    texts = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "success", "warning", "error"):
        texts += [element.value for element in getattr(at, kind)]
    for kind in ("button", "text_input", "text_area", "number_input", "toggle", "checkbox", "selectbox",
                 "multiselect", "radio", "metric", "expander", "tabs"):  # fmt: skip
        for element in getattr(at, kind):
            texts += [getattr(element, "label", ""), getattr(element, "help", "") or ""]
            if kind in ("selectbox", "multiselect", "radio") and element.key != Session.step_word.key:
                texts += list(element.options)  # the words of the text are data
    for kind in ("download_button", "page_link", "button_group"):
        texts += [element.proto.label for element in at.get(kind)]
    for kind in ("dataframe", "table"):
        texts += [str(column) for element in getattr(at, kind) for column in element.value.columns]
    texts += [title for spec in vega_specs(at) for title in _titles(spec)]
    return [text for text in texts if text]


def _titles(spec: object) -> list[str]:
    if isinstance(spec, dict):
        own = [spec["title"]] if isinstance(spec.get("title"), str) else []
        return own + [title for value in spec.values() for title in _titles(value)]
    if isinstance(spec, list):
        return [title for value in spec for title in _titles(value)]
    return []


def english_left(at: AppTest) -> list[str]:
    found = []
    for text in visible_texts(at):
        for data in DATA:
            text = text.replace(data, "")
        text = unescaped(text)  # Markdown escapes of playground.text.plain
        found += [f"{match.group()!r} in {text[:120]!r}" for match in ENGLISH_RUN.finditer(text)]
    return found


_ASCII_AFTER_CHINESE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef](?:, | ?\()")


def ascii_punctuation_in_chinese(at: AppTest) -> list[str]:
    """An English list comma or bracket right after Chinese ("285 个不完整字符, 59 个", "英文散文） (384.0 KB)"): a
    list or a size put together in code, in English, inside a Chinese sentence."""
    found = []
    for text in map(unescaped, visible_texts(at)):
        found += [f"{match.group()!r} in {text[:120]!r}" for match in _ASCII_AFTER_CHINESE.finditer(text)]
    return found


def check(at: AppTest, lang: str, where: str) -> None:
    no_exception(at)
    if lang == "zh":
        assert not english_left(at), (where, english_left(at))
        assert not ascii_punctuation_in_chinese(at), (where, ascii_punctuation_in_chinese(at))
        assert not i18n.MISSING, (where, sorted(i18n.MISSING))
    else:  # English stays English: the same walk finds sentences (the heuristic is alive)
        assert english_left(at), where


def choose(at: AppTest, field, value) -> AppTest:
    """Set a widget's field and rerun (AppTest's set_value formats options outside the session: in English)."""
    at.session_state[field.key] = value
    at.run()
    return at


@pytest.fixture()
def formats_in(monkeypatch):
    return lambda lang: options_in(lang, monkeypatch)


def in_language(lang: str, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state[Session.lang.key] = lang
    if page:
        at.switch_page(page)
    at.run()
    return at


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_and_view_in_both_languages(lang, formats_in):
    formats_in(lang)
    i18n.MISSING.clear()
    at = in_language(lang)
    check(at, lang, "train, nothing trained")
    at.session_state[Session.vocab.key] = 259
    choose(at, Session.corpus, CORPUS)
    at.button(key="train_button").click().run()
    assert sess(at).trained is not None
    check(at, lang, "train, trained")
    for page in ("pages/1_Merges.py", "pages/2_Encode.py"):
        check(open_page(at, page), lang, page)
    at.toggle(key=Session.show_ids.key).set_value(True).run()
    check(at, lang, "encode, ids")
    open_page(at, "pages/3_Compare.py")
    for view in VIEWS:
        choose(at, Session.view, view)
        check(at, lang, f"compare {view}")
    choose(at, Session.view, "algos")  # back to the algorithms, whichever view the loop ended on
    if any(button.key == "algos_run" for button in at.button):  # another test may have trained them already
        at.button(key="algos_run").click().run()
    assert at.table, "the algorithms are compared"
    check(at, lang, "compare algos, trained")
    open_page(at, "pages/4_Export.py")
    for fmt in FORMATS:
        choose(at, Session.format, fmt)
        check(at, lang, f"export {fmt}")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pages_before_training_and_a_classic_tokenizer(lang, formats_in):
    """The offers to train, the classic tokenizer's views and the settings errors, in both languages."""
    formats_in(lang)
    i18n.MISSING.clear()
    for page in ("pages/1_Merges.py", "pages/2_Encode.py", "pages/3_Compare.py", "pages/4_Export.py"):
        check(in_language(lang, page), lang, f"{page} before training")
    at = in_language(lang)
    at.session_state[Session.kind.key] = "classic"
    at.session_state[Session.vocab.key] = 2
    choose(at, Session.corpus, CORPUS)
    at.button(key="train_button").click().run()
    assert at.error, "a vocab size below the alphabet is refused"
    check(at, lang, "vocab too small")
    at.session_state[Session.vocab.key] = 8
    at.button(key="train_button").click().run()
    check(at, lang, "classic trained")
    for page in ("pages/1_Merges.py", "pages/2_Encode.py", "pages/3_Compare.py"):
        check(open_page(at, page), lang, f"{page}, classic")
    choose(at, Session.view, "algos")
    check(at, lang, "compare algos, classic")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_own_text_choices_in_both_languages(lang, formats_in):
    """Paste and upload boxes on Train and Compare, and the messages when their text is missing."""
    formats_in(lang)
    i18n.MISSING.clear()
    at = in_language(lang)
    for corpus in ("paste", "upload"):
        choose(at, Session.corpus, corpus)
        check(at, lang, f"train, {corpus}")
        at.button(key="train_button").click().run()
        assert at.error, corpus
        check(at, lang, f"train, {corpus}, nothing given")
    choose(at, Session.corpus, CORPUS)
    at.session_state[Session.vocab.key] = 259
    at.button(key="train_button").click().run()
    open_page(at, "pages/3_Compare.py")
    for heldout in ("paste", "upload"):
        choose(at, Session.heldout, heldout)
        check(at, lang, f"compare, held-out {heldout}")


# -- (c) the language in links --------------------------------------------------------------------------


def opened(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    no_exception(at)
    return at


def test_a_link_with_lang_zh_opens_in_chinese_and_its_link_keeps_it():
    at = opened({"lang": "zh"})
    assert sess(at).lang == "zh"
    assert at.title[0].value == i18n.t("BPE Playground", lang="zh")
    from ui.frame import link_params

    assert link_params(sess(at))["lang"] == "zh"
    switch = at.get("button_group")[0]
    assert list(switch.proto.options[i].content for i in range(2)) == ["English", "简体中文"]


def test_english_is_the_default_and_is_left_out_of_links():
    at = fresh()
    assert sess(at).lang == "en"  # AppTest has no browser locale: English
    from ui.frame import link_params

    assert "lang" not in link_params(sess(at))


def test_a_bad_lang_is_dropped_with_one_message_and_the_default_kept():
    at = opened({"lang": "xx"})
    assert sess(at).lang == "en"
    messages = [unescaped(w.value) for w in at.warning if "lang" in w.value]
    assert len(messages) == 1 and "en, zh" in messages[0], [w.value for w in at.warning]


def test_a_bad_value_in_a_chinese_link_is_told_in_chinese():
    at = opened({"lang": "zh", "vocab": "²"})
    (warning,) = [unescaped(w.value) for w in at.warning if "vocab" in w.value]
    assert "整数" in warning and "whole number" not in warning, warning


def test_the_language_survives_page_changes(formats_in):
    formats_in("zh")
    at = opened({"lang": "zh"})
    open_page(at, "pages/2_Encode.py")
    assert sess(at).lang == "zh" and at.title[0].value == i18n.t("Encode text", lang="zh")


def test_browser_language_picks_chinese_for_any_chinese_locale():
    assert [i18n.browser_language(x) for x in ("zh-CN", "zh-Hans", "ZH", "en-US", "fr", "", None)] == [
        "zh", "zh", "zh", "en", "en", "en", "en"]  # fmt: skip


def test_a_pattern_that_fails_on_the_corpus_is_told_in_chinese_every_time(formats_in):
    """The Train page learns that a custom regex skips characters of the corpus once (it may take seconds, so
    the verdict is remembered) and tells it in the session's language each time, not in English the second."""
    formats_in("zh")
    at = in_language("zh")
    choose(at, Session.corpus, CORPUS)
    at.session_state[Session.regex.key] = "[a-c]+"  # "d" is never matched
    choose(at, Session.pattern, "custom")
    expected = i18n.t("The pre-tokenization pattern cannot be used on this corpus: {error}", lang="zh").split("：")[0]
    for _ in range(2):
        at.button(key="train_button").click().run()
        no_exception(at)
        errors = [unescaped(element.value) for element in at.error]
        assert any(error.startswith(expected) for error in errors), errors
        assert not any("cannot be used" in error for error in errors), errors
        assert sess(at).trained is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_decision_views_in_both_languages(lang, formats_in):
    """Parity-aware training with a hold-out, the languages view with its pair and own files, health filtered, the
    chooser with an overlapping held-out text and with a missing held-out part."""
    formats_in(lang)
    i18n.MISSING.clear()
    at = in_language(lang)
    choose(at, Session.corpus, "parallel-sample")
    at.session_state[Session.vocab.key] = 400
    at.session_state[Session.holdout.key] = 10
    choose(at, Session.kind, "parity")
    check(at, lang, "train, parity, range")
    at.button(key="train_button").click().run()
    assert sess(at).trained.request.kind == "parity"
    check(at, lang, "train, parity trained on a hold-out")
    open_page(at, "pages/3_Compare.py")
    at.session_state[Session.pair_vocab.key] = 400
    choose(at, Session.view, "languages")
    check(at, lang, "languages")
    if any(button.key == "parity_run" for button in at.button):  # the other language's run may have trained them
        at.button(key="parity_run").click().run()
    assert len(at.table) == 2, "the pair's spread is shown"
    check(at, lang, "languages, the pair")
    choose(at, Session.parallel, "own")
    check(at, lang, "languages, own files missing")
    choose(at, Session.health_class, "never")
    choose(at, Session.view, "health")
    check(at, lang, "health, never emitted")
    choose(at, Session.heldout, "parallel-zh")
    choose(at, Session.view, "choose")
    assert at.warning, "the overlap is named"
    check(at, lang, "choose, overlapping held-out")
    at.session_state[Session.holdout.key] = 0
    open_page(at, "pages/0_Train.py")
    at.button(key="train_button").click().run()
    open_page(at, "pages/3_Compare.py")
    choose(at, Session.heldout, "split")
    check(at, lang, "choose, no held-out part")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_variants_in_both_languages(lang, formats_in):
    """Superword tokens (Train, Merges with a picked word, Compare with its plain twin, Export refusing gpt2 and
    tiktoken) and BPE-dropout on Encode, in both languages."""
    formats_in(lang)
    i18n.MISSING.clear()
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"corpus": "python-reference-excerpt", "kind": "superword", "vocab": "600",
                            "transition": "250", "lang": lang})  # fmt: skip
    at.run()
    check(at, lang, "train, superword")
    at.session_state[Session.transition.key] = 5_000
    at.run()
    check(at, lang, "train, superword without stage 2")
    at.session_state[Session.word.key] = " the"
    check(open_page(at, "pages/1_Merges.py"), lang, "merges, a picked word")
    open_page(at, "pages/3_Compare.py")
    check(at, lang, "compare, the twin offered")
    if any(button.key == "twin_run" for button in at.button):  # the other language's run may have trained it
        at.button(key="twin_run").click().run()
    check(at, lang, "compare, the twin drawn")
    choose(at, Session.view, "algos")
    check(at, lang, "compare algos, superword")
    open_page(at, "pages/4_Export.py")
    for fmt in ("gpt2", "tiktoken"):
        choose(at, Session.format, fmt)
        assert at.warning  # a format that cannot hold it: a warning naming the one that can
        check(at, lang, f"export {fmt} refused")
    at.session_state[Session.dropout.key] = 0.2
    check(open_page(at, "pages/2_Encode.py"), lang, "encode, dropout")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_check_page_in_both_languages(lang, formats_in):
    """Check your BPE: before a check, a success, a tie-break with its tables, an empty paste, a refused file."""
    from test_app_check import CORRECT, FIRST_SEEN, lines

    formats_in(lang)
    i18n.MISSING.clear()
    at = in_language(lang, "pages/6_Check.py")
    check(at, lang, "check, nothing checked")
    for name, merges in (("none", CORRECT), ("tie-break", FIRST_SEEN), ("nothing pasted", [])):
        at.session_state[Session.check_corpus.key] = "toy-the-cat-in-the-hat"
        at.session_state[Session.check_paste.key] = lines(merges)
        at.button(key="check_button").click().run()
        check(at, lang, f"check, {name}")
    assert sess(at).checked.check.cause == "tie-break" and at.error and at.dataframe
    choose(at, Session.check_input, "upload")
    # A refusal the app words itself (a line the library cannot read is told in the library's English).
    at.file_uploader(key=Session.check_file.key).upload("merges.txt", b"\x00\x01 b\n").run()
    assert at.error
    check(at, lang, "check, a refused file")
    for corpus in ("paste", "upload"):
        choose(at, Session.check_corpus, corpus)
        at.button(key="check_button").click().run()
        check(at, lang, f"check, {corpus} without text")


def test_chinese_drops_the_templates_space_only_beside_a_chinese_value():
    """Templates space each value off ("用 {name} 统计"), right beside Latin text; beside a Chinese name the spaces
    stood inside the sentence ("在 现代汉语 上测量", "从 Python 语言参考手册 学到")."""
    measured = i18n.t("on {text}", lang="zh", text="现代汉语")
    assert measured == "在现代汉语上" and i18n.t("on {text}", lang="zh", text="GPT-2") == "在 GPT-2 上"
    learned = "{n:,} merges learned from {corpus}. Press space to play, → to step."
    assert i18n.t(learned, lang="zh", n=300, corpus="Python 语言参考手册").startswith("从 Python 语言参考手册学到 300 ")
    assert i18n.t("{text} in {n:.2f} s", lang="zh", text="现代汉语（40 KB）", n=0.5) == "现代汉语（40 KB）用时 0.50 秒"
    assert i18n.t("{text} in {n:.2f} s", lang="en", text="现代汉语", n=0.5) == "现代汉语 in 0.50 s"


def test_a_texts_role_is_written_with_the_languages_colon_and_its_name_read_back(monkeypatch):
    from ui.compare import texts

    monkeypatch.setattr(i18n, "_language_source", lambda: "zh")
    held = texts.as_role(texts.make_text("现代汉语", "一段文字\n"), i18n.N_("held-out"))
    assert held.label == i18n.t("held-out", lang="zh") + "：现代汉语" and texts.name(held) == "现代汉语"
    monkeypatch.setattr(i18n, "_language_source", lambda: "en")
    assert texts.name(texts.as_role(texts.make_text("docs", "x\n"), i18n.N_("held-out"))) == "docs"
