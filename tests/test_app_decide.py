"""Helping a practitioner decide (AppTest and the pieces behind it): held-out texts that are never training text,
the vocab-size chooser exact at typed sizes, languages against tiktoken, parity-aware training through the app,
and tokenizer health against ``health_report``."""

from __future__ import annotations

import pytest
from apptest_helpers import chart_rows, click_train, fresh, no_exception, sess, unescaped
from streamlit.testing.v1 import AppTest
from test_app_compare import COMPARE, compare, link
from test_reference import tiktoken_encodings  # noqa: F401  (the session fixture)

import bpe_core
from bpe_core.analysis import health as token_health
from bpe_core.analysis.heldout import hold_out, line_overlap
from bpe_core.analysis.reachability import INVALID_UTF8
from playground import heldout_texts as held_out
from playground import runs
from playground.corpora import PARALLEL_LANGUAGES, PASTE, SLUGS, load_sample, parallel_parts
from playground.i18n import t
from playground.session import FIELDS, Session
from playground.workspace import decode, encode
from ui.compare import health as health_view
from ui.compare.choose_chart import gain_step
from ui.compare.parity import pair_requests

EXCERPT = {"corpus": "python-reference-excerpt", "vocab": "600"}


def column(at: AppTest, name: str, index: int = 0) -> list[str]:
    return [str(value) for value in at.table[index].value[name]]


def number(cell: str) -> int:
    return int(cell.replace(",", "").replace("★", "").strip())


# -- an honest held-out -------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(SLUGS))
def test_no_built_in_corpus_has_a_default_heldout_that_overlaps_it(slug):
    choice = held_out.resolve(held_out.DEFAULT, slug, 0)
    assert choice in held_out.BUILT_IN and choice != slug
    heldout, corpus = held_out.built_in_text(choice), load_sample(slug)
    overlap = line_overlap(heldout, corpus)
    assert overlap.lines >= 40 and overlap.shared == 0, overlap  # a real text, none of its lines in the corpus
    assert heldout not in corpus


@pytest.mark.parametrize(("lang", "expected"), [("zh", held_out.PARALLEL_ZH), ("en", held_out.OWN_TEXT_DEFAULT)])
def test_a_built_in_model_is_measured_on_text_in_the_pages_language(lang, expected):
    """A Chinese learner's DeepSeek (choose a size, health) was measured on English prose, the curve beside it on
    modern Chinese: a built-in model's default held-out text is the page's language."""
    at = compare({"view": "choose", "compared": "deepseek-v4", "lang": lang})
    assert at.selectbox(key=Session.heldout.key).value == held_out.DEFAULT
    name = held_out.BUILT_IN[expected].name
    shown = [unescaped(caption.value) for caption in at.caption]
    assert any(t(name, lang=lang)[:20] in caption for caption in shown), shown  # "Measured on <its name> (size)"


def test_a_chosen_overlapping_heldout_is_named_and_the_default_is_not():
    at = compare({**EXCERPT, "view": "curve", "refs": "", "heldout": "python-reference-all"})
    (warning,) = [unescaped(w.value) for w in at.warning if "is not held out" in w.value]
    excerpt, full = load_sample("python-reference-excerpt"), load_sample("python-reference-all")
    expected = line_overlap(full, excerpt)
    assert warning.startswith("Python reference, all") and f"{expected.shared:,} of its {expected.lines:,}" in warning
    for view in ("curve", "choose", "health"):
        at = compare({**EXCERPT, "view": view, "refs": ""})
        assert not [w for w in at.warning if "is not held out" in w.value], view


def trained_on_paste(text: str) -> AppTest:
    """A session that pasted ``text`` and trained it at vocab 300, its last 10% held out."""
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(PASTE).run()
    at.number_input(key=Session.vocab.key).set_value(300).run()
    at.number_input(key=Session.holdout.key).set_value(10).run()
    at.text_area(key=Session.paste_box.key).input(text).run()
    click_train(at)
    return at


def test_the_held_out_part_is_exactly_what_training_did_not_see():
    text = "".join(f"line {i}: the quick brown fox number {i * 7} jumps over the lazy dog\n" for i in range(60))
    at = trained_on_paste(text)
    trained = sess(at).trained
    train, held = hold_out(text, 0.1)
    assert train + held == text and held.count("\n") == 6 and held.startswith("line 54:")
    expected = bpe_core.train(train, 300, special_tokens=["<|endoftext|>"]).tokenizer
    assert trained.tokenizer.merges == expected.merges and trained.corpus_chars == len(train)
    (metric,) = [m.value for m in at.metric if m.label == "Bytes per token (held-out part)"]
    assert metric == f"{len(held.encode()) / len(expected.encode(held)):.2f}"
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    assert link(at)["holdout"] == "10" and link(at)["heldout"] == "default"
    line = [row for row in chart_rows(at) if row["text"].startswith("held-out part") and row["vocab size"] <= 300]
    curve = dict(bpe_core.bytes_per_token_curve(trained.tokenizer, held))
    assert line and all(abs(row["bytes per token"] - curve[row["vocab size"]]) < 1e-3 for row in line)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_corpus_repeating_lines_in_its_held_out_part_is_told_so_not_sent_to_its_own_held_out(lang):
    """Held-out lines the corpus repeats from its trained part: the warning said "choose a text it was not trained on:
    the default held-out text of its corpus is one" — the very text chosen."""
    repeated = "this line of the corpus comes back again and again\n"
    text = "".join(
        f"line {i}: the quick brown fox number {i * 7} jumps over the lazy dog\n" + repeated for i in range(30)
    )
    at = trained_on_paste(text)
    at.session_state[Session.lang.key] = lang  # Compare in this language
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    train, held = hold_out(text, 0.1)
    found = line_overlap(held, train)
    assert found.shared == 3
    (warning,) = [unescaped(w.value) for w in at.warning]
    assert f"{found.shared:,}" in warning and f"{found.lines:,}" in warning
    own = "the corpus repeats them" if lang == "en" else "语料本身重复了这些行"
    circular = "the default held-out text of its corpus is one" if lang == "en" else "默认留出文本就是一个"
    assert own in warning and circular not in warning


# -- choose a vocab size ---------------------------------------------------------------------------------


def test_choose_rows_equal_encoding_with_the_tokenizer_cut_to_each_size():
    at = compare({**EXCERPT, "view": "choose", "sizes": "300,450,9000", "d_model": "512", "tied": "0"})
    tokenizer = sess(at).trained.tokenizer
    heldout = held_out.built_in_text(held_out.resolve(held_out.DEFAULT, "python-reference-excerpt", 0))
    sizes = [number(cell) for cell in column(at, "vocab size")]
    # 343 merges: the gain is measured over 20 more merges (1,000 would reach past the tokenizer's end)
    assert tokenizer.num_merges == 343 and gain_step(tokenizer.num_merges) == 20
    curve = bpe_core.size_curve(tokenizer, heldout, min_uses=None)
    suggestion = bpe_core.suggest_size(curve, min_gain=0.005, per_merges=20)
    assert sizes == [300, 450, suggestion.vocab_size, 600]  # 9,000 measured at the tokenizer's end, and said so
    gains = [f"{curve.gains(20)[bpe_core.merges_for_vocab_size(tokenizer, size)]:.2%}" for size in sizes]
    assert sizes[-1] == int(curve.vocab_sizes[-1])  # the tokenizer's end: no merge left to gain from
    assert column(at, "gain of 20 more merges") == [*gains[:-1], "—"]
    per_1000 = [
        f"{value:,.1f}"
        for value in curve.token_counts[[bpe_core.merges_for_vocab_size(tokenizer, n) for n in sizes]]
        * 1000
        / len(heldout)
    ]
    assert column(at, "tokens per 1,000 characters") == per_1000
    assert any("Vocab size 9,000 is outside" in w.value and "nearest end" in w.value for w in at.warning)
    assert "★" in column(at, "vocab size")[2]
    for size, tokens, bpt, params in zip(sizes, column(at, "tokens"), column(at, "bytes per token"),
                                         column(at, "embedding parameters")):  # fmt: skip
        cut = tokenizer.truncated(bpe_core.merges_for_vocab_size(tokenizer, size))
        count = len(cut.encode(heldout))
        assert number(tokens) == count, size
        assert bpt == f"{len(heldout.encode()) / count:.3f}"
        assert number(params) == size * 512 * 2
    assert any(f"**{suggestion.vocab_size:,}**" in s.value for s in at.success)


def test_the_choose_link_round_trips():
    at = compare({**EXCERPT, "view": "choose"})
    at.text_input(key=Session.sizes_text.key).input("400, 500").run()
    at.number_input(key=Session.d_model.key).set_value(1024).run()
    at.toggle(key=Session.tied.key).set_value(False).run()
    at.number_input(key=Session.min_gain.key).set_value(1.25).run()
    at.number_input(key=Session.min_uses.key).set_value(3).run()
    no_exception(at)
    written = link(at)
    assert (written["sizes"], written["d_model"], written["tied"], written["min_gain"], written["min_uses"]) == (
        "400,500", "1024", "0", "1.25", "3")  # fmt: skip
    again = compare(written)
    for name in ("view", "sizes", "d_model", "tied", "min_gain", "min_uses", "heldout"):
        assert again.session_state[FIELDS[name].key] == at.session_state[FIELDS[name].key], name
    assert again.table[0].value.equals(at.table[0].value)
    assert "d_model" not in link(compare({**EXCERPT, "view": "curve"}))  # only the chooser's link carries them


# -- languages ------------------------------------------------------------------------------------------


def test_language_counts_of_the_references_equal_tiktoken(tiktoken_encodings):  # noqa: F811
    at = compare({"view": "languages", "compared": "gpt2", "refs": "gpt2,cl100k_base,o200k_base", "parallel": "all"})
    frame = at.dataframe[0].value
    sample = bpe_core.parallel_sample()
    labels = {"gpt2": "GPT-2 (r50k)", "cl100k_base": "cl100k_base (GPT-4)", "o200k_base": "o200k_base (GPT-4o)"}
    for name, label in labels.items():
        rows = frame[frame["tokenizer"] == label]
        assert len(rows) == len(sample), name
        english = sum(len(tiktoken_encodings[name].encode(sentence)) for sentence in sample["en"])
        for code, tokens, premium in zip(rows["code"], rows["tokens"], rows["premium"]):
            expected = sum(len(tiktoken_encodings[name].encode(sentence)) for sentence in sample[code])
            assert tokens == expected and premium == round(expected / english, 3), (name, code)
    assert link(at)["compared"] == "gpt2" and link(at)["parallel"] == "all"


def test_parity_training_through_the_app_equals_train_parity(monkeypatch):
    from runtime import jobs

    submitted, real_run = [], jobs.run_with_progress

    def counted(fn, args, *more, **kwargs):
        submitted.append(args[1])  # (parts, request)
        return real_run(fn, args, *more, **kwargs)

    monkeypatch.setattr(runs.jobs, "run_with_progress", counted)
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value("parallel-sample").run()
    at.radio(key=Session.kind.key).set_value("parity").run()
    at.number_input(key=Session.vocab.key).set_value(600).run()
    click_train(at)
    trained = sess(at).trained
    texts = parallel_parts(bpe_core.parallel_sample())[0]
    assert tuple(texts) == PARALLEL_LANGUAGES
    direct = bpe_core.train_parity(texts, 600, measure="tokens", special_tokens=["<|endoftext|>"], pattern="gpt2")
    assert trained.tokenizer.merges == direct.tokenizer.merges
    assert trained.result.chosen_languages == direct.chosen_languages
    assert trained.result.token_counts == direct.token_counts
    document, blobs = encode({"trained": trained})  # what a reload brings back
    kept = decode(document, {key: source() for key, source in blobs.items()}.get).values["trained"]
    assert kept.request == trained.request and kept.tokenizer.merges == direct.tokenizer.merges
    assert kept.result.chosen_languages == direct.chosen_languages and kept.result.languages == PARALLEL_LANGUAGES
    # The languages view's pair at the same size is this very tokenizer, beside standard BPE on the same text.
    at.switch_page(COMPARE)
    at.session_state[Session.view.key] = "languages"
    at.session_state[Session.pair_vocab.key] = 600
    at.run()
    submitted.clear()
    at.button(key="parity_run").click().run()
    no_exception(at)
    _, wanted = pair_requests(bpe_core.parallel_sample(), True, 600)
    # One way to train, one cache: the parity-aware member is the Train page's tokenizer, so only standard BPE ran.
    assert submitted == [wanted[0][1]] and runs.cached(wanted[1][1]) is trained
    standard, parity = (runs.cached(request) for _, request in wanted)  # the one cache of trained results
    assert parity.tokenizer.merges == direct.tokenizer.merges
    assert (
        standard.tokenizer.merges
        == bpe_core.train(load_sample("parallel-sample"), 600, special_tokens=["<|endoftext|>"]).tokenizer.merges
    )
    spread = at.table[-1].value
    assert [unescaped(name) for name in spread["tokenizer"]] == ["standard BPE", "parity-aware BPE"]
    held = {code: text.splitlines() for code, text in parallel_parts(bpe_core.parallel_sample())[1].items()}
    for kind, tokenizer in (("standard BPE", standard.tokenizer), ("parity-aware BPE", parity.tokenizer)):
        expected = bpe_core.language_costs(tokenizer, held)
        (gini,) = spread[spread["tokenizer"].map(unescaped) == kind]["Gini"]
        assert gini == f"{expected.gini:.3f}"


# -- health -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("compared", ["trained", "gpt2"])
def test_health_counts_equal_health_report(compared):
    at = compare({**EXCERPT, "view": "health", "compared": compared, "class": "invalid"})
    tokenizer = sess(at).trained.tokenizer if compared == "trained" else bpe_core.reference("gpt2")
    heldout = held_out.built_in_text(held_out.resolve(held_out.DEFAULT, "python-reference-excerpt", 0))
    expected = bpe_core.health_report(tokenizer, heldout).counts()
    names = [unescaped(name) for name in column(at, "class")]
    assert names == [health_view.NAMES[name] for name in expected]
    assert [number(cell) for cell in column(at, "tokens")] == list(expected.values())
    assert any(f"{expected[INVALID_UTF8]:,} tokens listed" in c.value for c in at.caption)
    if compared == "gpt2":
        unreachable = sum(expected.get(name, 0) for name in health_view.UNREACHABLE)  # (never built: not GPT-2's)
        assert unreachable == 344
        (said,) = [unescaped(m.value) for m in at.markdown if "**344 tokens of GPT-2" in unescaped(m.value)]
        # single bytes were never learned, and the sentence says so apart from the learned ones
        rows = bpe_core.health_report(tokenizer, heldout).rows
        single = sum(row.kind in health_view.UNREACHABLE and len(row.token) == 1 for row in rows)
        assert single > 0 and f"{single:,} of them are single bytes, which BPE did not learn" in said
        assert f"BPE learned the other {344 - single:,} because" in said
    assert link(at)["class"] == "invalid"


def test_the_views_explanations_are_the_librarys():
    assert health_view.EXPLANATIONS == token_health.EXPLANATIONS
    assert set(health_view.NAMES) == set(token_health.HEALTH_CLASSES) and all(
        k == v for k, v in health_view.NAMES.items()
    )


def test_the_language_names_are_the_samples():
    from bpe_core.analysis.parallel import LANGUAGES
    from ui.compare.premiums import LANGUAGE_NAMES

    assert {language.code: language.english for language in LANGUAGES} == LANGUAGE_NAMES


def test_sizes_the_page_chose_follow_the_tokenizer_and_typed_ones_stay():
    """Choose a size's sizes for Tekken stayed when Llama 3 was chosen ("Vocab size 131,072 is outside what this
    tokenizer has"): the page's own choice follows the tokenizer, silently; sizes a person typed are kept."""
    from ui.compare import choose

    at = fresh(COMPARE, view="choose", compared="gpt2")
    no_exception(at)
    assert sess(at).sizes == choose.default_sizes(bpe_core.reference("gpt2"))
    at.selectbox(key=Session.compared.key).set_value("cl100k_base").run()
    no_exception(at)
    assert sess(at).sizes == choose.default_sizes(bpe_core.reference("cl100k_base"))
    assert not [alert.value for alert in (*at.info, *at.warning) if "outside" in alert.value]
    at.text_input(key=Session.sizes_text.key).input("30000, 40000").run()
    at.selectbox(key=Session.compared.key).set_value("gpt2").run()
    no_exception(at)
    assert sess(at).sizes == [30000, 40000]


@pytest.mark.parametrize("query", ["the", "ing ", "50256"])
def test_health_search_lists_the_tokens_holding_the_query(query):
    """Held to a count of the report's tokens by their bytes (the query's marks were made once a row: a pasted 10 KB
    query took 21 s; the box now stops at 200 characters)."""
    from playground.session import Session

    at = compare({**EXCERPT, "view": "health", "compared": "gpt2", "class": "all"})
    box = at.text_input(key=Session.health_search.key)
    assert box.max_chars == 200
    box.input(query).run()
    heldout = held_out.built_in_text(held_out.resolve(held_out.DEFAULT, "python-reference-excerpt", 0))
    rows = bpe_core.health_report(bpe_core.reference("gpt2"), heldout).rows  # the view lists the report's rows
    wanted = query.strip().encode()
    expected = sum(wanted in row.token or str(row.id) == query for row in rows)
    assert any(f"{expected:,} tokens listed" in caption.value for caption in at.caption), expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_parallel_texts_default_names_what_it_stands_for_in_a_few_words(lang):
    """"For this tokenizer: Built-in parallel sample: 40 everyday sentences i…" was cut in its box (a new user)."""
    from playground.session import Session

    at = compare({"view": "languages", "compared": "gpt2", "lang": lang})
    box = at.selectbox(key=Session.parallel.key)
    assert box.value == "default"
    shown = box.options[0]
    assert len(shown) <= 50 and "40" in shown, shown  # it was 84 characters
