"""AppTest (headless) tests of the Merges page: stepping rounds, the Python round view, ties, search,
chart, and opening the page directly. The browser-side player (JavaScript) is covered by the browser tests."""

from __future__ import annotations

import html
import json
import re

import pytest
from apptest_helpers import (
    CAT,
    MERGES,
    SENNRICH,
    XSS_PROBES,
    assert_no_raw_tags,
    chart_rows,
    fresh,
    htmls,
    marked,
    no_exception,
    open_page,
    token_spans,
    trained_on,
    vega_specs,
)

from bpe_core import ClassicTokenizer
from ui.corpora import DEFAULT_SAMPLE, PASTE


def _merges_page(sample: str, **widgets):
    return open_page(trained_on(sample, **widgets), MERGES)


def _round_view(at) -> str:
    (body,) = [h for h in htmls(at) if h.startswith('<div class="bpe-round"')]
    return body


def _window_view(at) -> str:
    (body,) = [h for h in htmls(at) if h.startswith('<div class="tokens" data-round=')]
    return body


def _window_count(at) -> tuple[int, int, int]:
    """(round, tokens at that round, tokens at round 0) from the heading above the window."""
    (heading,) = [m.value for m in at.markdown if m.value.startswith("**Training text at round")]
    numbers = re.fullmatch(r"\*\*Training text at round ([\d,]+)\*\* — ([\d,]+) tokens \(round 0: ([\d,]+)\)", heading)
    assert numbers, heading
    return tuple(int(group.replace(",", "")) for group in numbers.groups())


def _player_data(at) -> dict:
    (player,) = at.get("bidi_component")
    assert player.proto.component_name == "bpe_playground.merge_player"
    return json.loads(player.proto.json)


def _shown(token: bytes) -> str:
    return marked(token.decode())


def _assert_round(at, k: int) -> None:
    """Session, slider, player and both Python views all show round k, with trace[k-1]'s merge."""
    trained = at.session_state["trained"]
    assert at.session_state["merge_round"] == k
    assert at.slider(key="round_slider").value == k
    assert _player_data(at)["round"] == k
    view = _round_view(at)
    assert f'data-round="{k}"' in view and f'data-round="{k}"' in _window_view(at)
    assert _window_count(at)[0] == k
    if k == 0:
        assert f"Round 0 of {trained.num_merges:,}" in view
        return
    record = trained.trace[k - 1]
    parts = re.findall(r'<span class="(part|new)" title="[^"]*">([^<]*)</span>', view)
    assert [(cls, html.unescape(text)) for cls, text in parts] == [
        ("part", _shown(record.left)),
        ("part", _shown(record.right)),
        ("new", _shown(record.left + record.right)),
    ]
    assert f"new token id <b>{record.new_id}</b>" in view
    assert f"pair count <b>{record.count:,}</b>" in view


def test_page_opens_at_the_last_round():
    """After training, the page shows the last round everywhere and sends the player the window."""
    at = _merges_page(SENNRICH)
    trained = at.session_state["trained"]
    _assert_round(at, trained.num_merges)
    data = _player_data(at)
    assert data["atoms"] == list(trained.window_text.encode())
    assert len(data["rounds"]) == trained.num_merges


def test_buttons_and_slider_step_through_the_rounds():
    """|◀ 0, ◀ back, step ▶ and the slider move the round (clamped to 0..n) and tell the player to seek."""
    at = _merges_page(SENNRICH)
    n = at.session_state["trained"].num_merges
    steps = [
        ("round_first", 0),
        ("round_prev", 0),
        ("round_next", 1),
        ("round_next", 2),
        ("round_prev", 1),
        (("round_slider", 7), 7),
        (("round_slider", n), n),
        ("round_next", n),
        ("round_first", 0),
    ]
    for action, expected in steps:
        seek_before = at.session_state["merge_seek"]
        if isinstance(action, tuple):
            at.slider(key=action[0]).set_value(action[1]).run()
        else:
            at.button(key=action).click().run()
        no_exception(at)
        _assert_round(at, expected)
        assert at.session_state["merge_seek"] == seek_before + 1
        assert _player_data(at)["seek"] == seek_before + 1


def test_window_token_count_at_every_round_matches_the_truncated_tokenizer():
    """At round k the window is exactly truncated(k).encode(window); the tokens outlined are the new token."""
    at = _merges_page(CAT)
    trained = at.session_state["trained"]
    window = trained.window_text
    assert trained.num_merges > 10
    for k in range(trained.num_merges + 1):
        at.slider(key="round_slider").set_value(k).run()
        no_exception(at)
        ids = trained.tokenizer.truncated(k).encode(window)
        assert _window_count(at) == (k, len(ids), len(window.encode()))
        spans = token_spans(_window_view(at))
        assert len(spans) == len(ids)
        assert "".join(span.text for span in spans) == marked(window)
        just_merged = sum("just" in span.classes for span in spans)
        assert just_merged == (ids.count(trained.trace[k - 1].new_id) if k else 0)


def test_round_zero_is_raw_bytes():
    """Round 0 shows one token per byte and no merge."""
    at = _merges_page(CAT)
    at.button(key="round_first").click().run()
    _assert_round(at, 0)
    view = _round_view(at)
    assert "raw bytes, before any merge" in view and "bpe-pair" not in view
    window = at.session_state["trained"].window_text
    assert [span.text for span in token_spans(_window_view(at))] == [marked(ch) for ch in window]


def test_classic_rounds_match_the_first_k_merges():
    """Classic BPE: the window at round k is the words encoded with the first k merges, </w> escaped."""
    at = _merges_page(SENNRICH, kind="classic", vocab=30)
    trained = at.session_state["trained"]
    tokenizer = trained.tokenizer
    for k in (0, 1, trained.num_merges // 2, trained.num_merges):
        at.slider(key="round_slider").set_value(k).run()
        no_exception(at)
        first_k = ClassicTokenizer(tokenizer.symbols, tokenizer.merges[:k])
        symbols = [symbol for word in first_k.encode_words(trained.window_text) for symbol in word]
        body = _window_view(at)
        assert [span.text for span in token_spans(body)] == symbols
        assert _window_count(at)[1] == len(symbols)
        assert "</w>" not in body and "&lt;/w&gt;" in body


def test_ties_are_flagged_exactly_when_the_trace_says_so():
    """The Sennrich sample has ties: a round's view carries the tie note iff its trace record is tied."""
    at = _merges_page(SENNRICH)
    trace = at.session_state["trained"].trace
    assert any(record.tied for record in trace) and not all(record.tied for record in trace)
    for k, record in enumerate(trace, start=1):
        at.slider(key="round_slider").set_value(k).run()
        no_exception(at)
        view = _round_view(at)
        assert ('class="bpe-note">Tie:' in view) == record.tied, k
        assert ("<b>(tie)</b>" in view) == record.tied, k


@pytest.mark.parametrize("query", ["est", " w", "ne", "260", "zzz"])
def test_search_filters_the_merges_table(query):
    """The search keeps exactly the merges whose parts or new token contain the text (· for a space),
    or whose id or round is the number typed."""
    at = _merges_page(SENNRICH)
    trace = at.session_state["trained"].trace
    full = at.dataframe[0].value
    assert list(full["round"]) == list(range(1, len(trace) + 1))
    assert list(full["id"]) == [record.new_id for record in trace]

    at.text_input(key="merge_search").input(query).run()
    no_exception(at)
    needle = marked(query)
    expected = [
        k
        for k, r in enumerate(trace, start=1)
        if any(needle in _shown(token) for token in (r.left, r.right, r.left + r.right))
        or (query.isdigit() and int(query) in (r.new_id, k))
    ]
    assert list(at.dataframe[0].value["round"]) == expected
    assert any(caption.value == f"{len(expected):,} of {len(trace):,} merges" for caption in at.caption)


def test_chart_plots_every_merge_count_and_marks_the_round():
    """The chart has the count of every round on a log scale and a rule at the current round."""
    at = _merges_page(CAT)
    at.slider(key="round_slider").set_value(5).run()
    (spec,) = vega_specs(at)
    line, rule = spec["layer"]
    assert line["mark"]["type"] == "line" and line["encoding"]["y"]["scale"]["type"] == "log"
    assert rule["mark"]["type"] == "rule"
    rows = chart_rows(at)
    trace = at.session_state["trained"].trace
    counts = {row["round"]: row["count"] for row in rows if "count" in row}
    assert counts == {k: record.count for k, record in enumerate(trace, start=1)}
    assert [row["round"] for row in rows if set(row) == {"round"}] == [5]


def test_opening_the_page_directly_offers_a_one_click_training():
    """A deep link with nothing trained says so; the quick-train button trains the default sample
    and the player appears."""
    at = fresh(MERGES)
    assert at.session_state["trained"] is None
    assert any("No tokenizer trained yet" in info.value for info in at.info)
    assert not at.get("bidi_component") and not at.slider

    at.button(key="quick_train").click().run()
    no_exception(at)
    trained = at.session_state["trained"]
    assert trained.corpus_label == DEFAULT_SAMPLE
    assert _player_data(at)["rounds"]
    _assert_round(at, trained.num_merges)


def test_a_tokenizer_without_merges_says_so():
    """Vocab size 257 with one special token leaves no merge: a warning, no player, no traceback."""
    at = _merges_page("Toy: aaabdaaabac", vocab_size=257)
    assert at.session_state["trained"].num_merges == 0
    assert any("no merges" in warning.value for warning in at.warning)
    assert not at.get("bidi_component")


def test_xss_in_the_corpus_is_escaped_in_every_round():
    """Merges built from hostile text show only escaped in the round view and the window, at every round."""
    at = fresh()
    at.selectbox(key="corpus_source").set_value(PASTE).run()
    at.text_area(key="paste_box").input(" ".join(XSS_PROBES * 3)).run()
    at.selectbox(key="pattern_choice").set_value("none").run()
    at.number_input(key="vocab_size").set_value(300).run()
    at.button(key="train_button").click().run()
    open_page(at, MERGES)
    trained = at.session_state["trained"]
    assert any(b"<" in record.left + record.right for record in trained.trace)
    for k in range(trained.num_merges + 1):
        at.slider(key="round_slider").set_value(k).run()
        no_exception(at)
        assert_no_raw_tags(htmls(at))
        assert "".join(span.text for span in token_spans(_window_view(at))) == marked(trained.window_text)
