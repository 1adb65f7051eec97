"""What a new user found on the Train page's "Start from" and "Advanced" options, each held in AppTest: a base's own
pre-tokenization and special tokens shown (and no stale ones in the link), the vocab-size hint before Train, the
trainer options' bounds and messages. Built-in bases only (Llama 3 and GPT-2 load offline); no training here is
bigger than GPT-2 + 40 merges on the built-in English/Chinese sample."""

from __future__ import annotations

import re

import numpy as np
from apptest_helpers import TRAIN, click_train, fresh, no_exception, sess, unescaped

import bpe_core
from playground import bases
from playground.heldout_texts import CODE_PROSE_CHINESE, built_in_text
from playground.session import Session
from ui.compare.choose_chart import gain_step

CORPUS = "mixed-english-chinese"
GPT2 = 50_257
NEW = 40


def _shown(at, label: str) -> str:
    (box,) = [box for box in at.text_input if box.label == label]
    assert box.disabled
    return box.value


def _link(at) -> dict[str, str]:
    return {key: value[0] if isinstance(value, list) else value for key, value in dict(at.query_params).items()}


def test_a_base_shows_its_own_pattern_and_special_tokens_and_the_link_carries_neither():
    at = fresh(TRAIN, corpus=CORPUS)
    at.selectbox(key=Session.base.key).set_value("llama3").run()
    no_exception(at)
    llama3 = bases.reference_base("llama3")
    assert "Llama 3 regex" in _shown(at, "Pre-tokenization")
    specials = _shown(at, "Special tokens (separated by spaces)")
    first = min(llama3.special_tokens, key=llama3.special_tokens.__getitem__)
    assert specials.startswith(first) and "<|endoftext|>" not in specials
    assert f"{len(llama3.special_tokens):,} special tokens" in specials
    assert not [box for box in at.selectbox if box.key == Session.pattern.key]  # the session's own is not shown
    link = _link(at)
    assert link["base"] == "llama3" and "pattern" not in link and "specials" not in link
    at.selectbox(key=Session.base.key).set_value("gpt2").run()
    assert "GPT-2 regex" in _shown(at, "Pre-tokenization")
    assert _shown(at, "Special tokens (separated by spaces)") == "<|endoftext|>"
    at.selectbox(key=Session.base.key).set_value("bytes").run()  # from bytes: the person's own boxes again
    assert not at.selectbox(key=Session.pattern.key).disabled
    assert "pattern" in _link(at) and "specials" in _link(at)


def _said(at) -> str:
    return " ".join(unescaped(element.value) for element in (*at.caption, *at.warning, *at.info))


def test_the_vocab_size_hint_says_at_once_what_is_wrong_with_a_size_for_the_base():
    at = fresh(TRAIN, corpus=CORPUS)
    at.selectbox(key=Session.base.key).set_value("llama3").run()
    size = len(bases.reference_base("llama3").vocab)
    box = at.number_input(key=Session.vocab.key)
    # No bounds of its own, as the trainer options' boxes: a bounded box kept a typed -5 or 400,001 to itself (see
    # test_app_train.test_the_vocab_box_has_no_bounds_of_its_own); the hint and Train say what a size needs.
    assert (box.min, box.max) == (None, None)
    box.set_value(1000).run()
    said = _said(at)
    assert f"at least {size + 1:,}, as Llama 3 has {size:,} tokens" in said
    assert "now)" not in said and "(-" not in said  # no count of new merges below zero
    at.number_input(key=Session.vocab.key).set_value(size + bases.MAX_NEW_MERGES + 1).run()
    assert f"at most {size + bases.MAX_NEW_MERGES:,}" in _said(at)
    at.number_input(key=Session.vocab.key).set_value(size + 40).run()
    assert not at.warning and "(40 now)" in _said(at)


def test_the_vocab_size_hint_in_chinese(monkeypatch):
    from apptest_helpers import options_in

    options_in("zh", monkeypatch)
    at = fresh(TRAIN, lang="zh", corpus=CORPUS, base="gpt2", vocab="1000")
    assert "至少 50,258" in _said(at) and "-49" not in _said(at)


def test_an_option_out_of_range_is_named_where_it_is_typed_and_never_trained_with():
    at = fresh(TRAIN, corpus="toy-the-cat-in-the-hat", min_freq="5")
    before = sess(at).trained
    assert before is not None and before.request.min_frequency == 5
    box = at.number_input(key=Session.min_freq.key)
    assert not box.proto.has_min  # a bounded box would keep 5 while it shows -3
    box.set_value(-3).run()
    assert any("Minimum pair count = -3 is not possible" in unescaped(w.value) for w in at.warning)
    assert "min_freq" not in _link(at)
    click_train(at)
    assert sess(at).trained is before  # nothing trained with 5, a value the box no longer shows
    assert any("Minimum pair count = -3" in unescaped(error.value) for error in at.error)
    at.number_input(key=Session.min_freq.key).set_value(2).run()
    assert not at.warning


def test_the_stop_message_names_the_box_and_a_longest_token_of_1_is_warned_before_training():
    at = fresh(TRAIN, corpus="toy-the-cat-in-the-hat", min_freq="50")
    trained = sess(at).trained
    assert trained is not None and trained.result.stopped_early
    said = _said(at)
    assert "below the minimum pair count 50" in said and "below min_frequency" not in said
    at.number_input(key=Session.min_freq.key).set_value(0).run()
    at.number_input(key=Session.max_len.key).set_value(1).run()
    assert any("a token of 1 byte is a byte, so nothing can merge" in unescaped(w.value) for w in at.warning)


def test_a_bytes_per_token_that_did_not_change_shows_no_delta():
    at = fresh(TRAIN, corpus="toy-the-cat-in-the-hat", max_len="1")
    trained = sess(at).trained
    assert trained.num_merges == 0
    (metric,) = [m for m in at.metric if "Bytes per token" in m.label]
    assert not metric.delta


# -- Compare: choose a size of a continued tokenizer ----------------------------------------------------------------


def _choose(at, **params: str):
    from apptest_helpers import open_page

    at.query_params.clear()
    at.query_params.update({"view": "choose", "heldout": CODE_PROSE_CHINESE, **params})
    return open_page(at, "pages/3_Compare.py")


def test_choose_a_size_of_a_continued_tokenizer_keeps_k_of_its_new_merges():
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW), holdout="20")
    trained = sess(at).trained
    _choose(at, sizes="128256,129256")  # sizes of another tokenizer (Llama 3's): dropped, and said so
    no_exception(at)
    assert any("128,256, 129,256 were dropped" in unescaped(info.value) for info in at.info)
    heldout = built_in_text(CODE_PROSE_CHINESE)
    offset = trained.tokenizer.num_merges - NEW  # GPT-2's own merges: the sizes start there
    whole = bpe_core.size_curve(trained.tokenizer, heldout, min_uses=None)
    counts = whole.token_counts[offset:]
    step = gain_step(NEW)
    gains = (counts - counts[np.minimum(np.arange(len(counts)) + step, len(counts) - 1)]) / counts
    good = np.flatnonzero(gains >= 0.005)
    k = int(good[-1]) if len(good) else 0
    assert any(f"Keep **{k:,} of the {NEW} new merges**" in s.value for s in at.success)
    sizes = [int(cell.replace(",", "").replace("★", "")) for cell in map(str, at.table[0].value["vocab size"])]
    assert sizes == sorted({GPT2, GPT2 + NEW // 2, GPT2 + NEW, GPT2 + k})  # the base's size to all, nothing below
    for size, tokens in zip(sizes, map(str, at.table[0].value["tokens"])):
        cut = trained.tokenizer.truncated(offset + size - GPT2)  # GPT-2 with the first size - 50,257 new merges
        assert int(tokens.replace(",", "")) == len(cut.encode(heldout)), size


# -- Encode: the new tokens marked ----------------------------------------------------------------------------------


def test_encode_marks_the_new_tokens_and_says_which_round_made_each():
    import html
    import re

    from apptest_helpers import ENCODE, open_page

    text = "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。<script>"
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    trained = sess(at).trained
    at.session_state[Session.text.key] = text
    open_page(at, ENCODE)
    ids = trained.tokenizer.encode(text)
    rounds = {record.new_id: record.rank + 1 for record in trained.trace}  # the round that made each new id
    body = next(element.proto.body for element in at.get("html") if 'class="tokens"' in element.proto.body)
    spans = re.findall(r'<span class="(tok c\d+[^"]*)" data-token-id="(\d+)" title="([^"]*)">', body)
    assert [int(identifier) for _, identifier, _ in spans] == ids
    for classes, identifier, title in spans:
        new = int(identifier) >= GPT2
        assert ("new" in classes.split()) == new, identifier
        said = f"new: made by round {rounds.get(int(identifier))} of the continuation"
        assert (said in html.unescape(title)) == new, (identifier, title)
    assert any(identifier >= GPT2 for identifier in ids) and "<script>" not in body  # text escaped as before
    assert any("dotted outline" in unescaped(caption.value) for caption in at.caption)


# -- Compare's curve view of a continued tokenizer ------------------------------------------------------------------


def _legend_lines(spec: dict) -> int:
    """Lines the chart's legends take below the plot: each colour, shape or fill field's title and entries."""
    entries: dict[str, set] = {}
    for layer in spec.get("layer", []):
        values = layer.get("data", {}).get("values", [])
        for channel in ("color", "shape", "fill"):
            field = layer.get("encoding", {}).get(channel, {}).get("field")
            if field:
                entries.setdefault(field, set()).update(str(row.get(field)) for row in values)
    return sum(len(found) + 2 for found in entries.values())


def test_the_curve_view_of_a_continued_tokenizer_keeps_its_plot_height_and_says_one_part():
    from apptest_helpers import open_page, vega_specs

    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    at.query_params.clear()
    at.query_params.update({"view": "curve", "refs": "gpt2,cl100k_base,o200k_base"})
    open_page(at, "pages/3_Compare.py")
    no_exception(at)
    specs = vega_specs(at)
    assert specs
    for spec in specs:  # autosize "fit" counts the legends in the height: at least 14 px a line is on top of the plot
        assert spec["autosize"]["type"] == "fit"
        assert spec["height"] - 14 * _legend_lines(spec) >= 300, (spec["height"], _legend_lines(spec))
    said = " ".join(caption.value for caption in at.caption)
    assert "1 parts" not in said and "counted as one part" in said


def _small_said(at) -> bool:
    return any("too small to decide on" in unescaped(warning.value) for warning in at.warning)


def test_choose_says_when_the_held_out_text_is_too_small_to_decide_on():
    at = fresh(TRAIN, corpus=CORPUS, base="gpt2", vocab=str(GPT2 + NEW))
    trained = sess(at).trained
    _choose(at)
    offset = trained.tokenizer.num_merges - NEW
    counts = bpe_core.size_curve(trained.tokenizer, built_in_text(CODE_PROSE_CHINESE), min_uses=None).token_counts
    counts = counts[offset:]
    k = int(next(m.group(1) for w in at.success if (m := re.search(r"Keep \*\*([0-9,]+) of", w.value))))
    saved = counts[k] - counts[min(k + gain_step(NEW), len(counts) - 1)]
    small = saved < 30 or counts[0] - counts[-1] < 0.01 * counts[0]
    assert small  # a 3 KB held-out text and 40 new merges: a handful of tokens
    assert _small_said(at) == small
    # From bytes, 12 KB held out and a 5% rule: the choice rests on a hundred tokens or more, and nothing is said
    big = fresh(TRAIN, corpus="python-reference-excerpt", vocab="600", holdout="20")
    _choose(big, heldout="split", min_gain="5")
    no_exception(big)
    assert any("Suggested vocab size" in success.value for success in big.success) and not _small_said(big)
