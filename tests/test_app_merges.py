"""AppTest (headless) tests of the Merges page and its data: the player's payload decoded
independently (every merge, every round of the window), the paged merge search, the decimated
chart, the reported-view contract and the one-file export. The JavaScript itself is covered by
tests/test_browser_player.py."""

from __future__ import annotations

import base64
import json
import zlib
from array import array
from types import SimpleNamespace

import pytest
from apptest_helpers import (
    CAT,
    MERGES,
    SENNRICH,
    XSS_PROBES,
    click_train,
    fresh,
    no_exception,
    open_page,
    options_in,
    sess,
    trained_on,
    vega_specs,
)
from hypothesis import given
from hypothesis import strategies as st

import bpe_core
from bpe_core import ClassicTokenizer
from bpe_core.encoding.lifetimes import PERMANENT
from playground.corpora import DEFAULT_SLUG, PASTE
from playground.i18n import t
from playground.session import Session
from playground.trained import Request, Trained
from ui import merge_frames
from ui.animation_html import animation_html
from ui.token_html import display_bytes, display_str


def _merges_page(sample: str, **widgets):
    return open_page(trained_on(sample, **widgets), MERGES)


def _player_data(at) -> dict:
    (player,) = _players(at)
    return json.loads(player.proto.json)


def _players(at) -> list:
    return [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]


def decode(payload: dict) -> dict:
    """The payload's columns, read as the module docstring of ui/merge_frames.py describes them."""
    raw = zlib.decompress(base64.b64decode(payload["blob"]))
    n, atoms = payload["n"], payload["atomCount"]
    at = 0

    def take(code: str, count: int) -> list[int]:
        nonlocal at
        values = array(code)
        values.frombytes(raw[at : at + count * values.itemsize])
        at += count * values.itemsize
        return list(values)

    lifetimes = array("i")
    lifetimes.frombytes(base64.b64decode(payload["lifetimes"]))
    assert len(lifetimes) == max(0, atoms - 1)
    out = {"lifetimes": list(lifetimes), "left": take("I", n), "right": take("I", n)}
    steps = take("i", n)
    out["ids"] = [sum(steps[: r + 1]) for r in range(n)]
    out["count"], out["replaced"] = take("I", n), take("I", n)
    c = (len(raw) - at - n) // 12
    out["cand_left"], out["cand_right"], out["cand_count"] = take("I", c), take("I", c), take("I", c)
    out["cand_n"] = list(raw[at:])
    classic = payload["mode"] == "symbols"
    table = [b if classic else bytes([b] if isinstance(b, int) else b) for b in payload["base"]]
    for r in range(n):
        table.append(table[out["left"][r]] + table[out["right"][r]])
    out["table"] = table
    out["atoms"] = payload["window"] if classic else payload["window"].encode()
    return out


def tokens_at(decoded: dict, k: int) -> list:
    atoms, cuts = decoded["atoms"], [0]
    cuts += [j + 1 for j, life in enumerate(decoded["lifetimes"]) if life >= k]
    cuts.append(len(atoms))
    return [atoms[a:b] if isinstance(atoms, bytes) else "".join(atoms[a:b]) for a, b in zip(cuts, cuts[1:])]


@pytest.mark.parametrize("kind", ["byte", "classic"])
def test_payload_holds_every_merge_and_its_runner_ups(kind):
    at = _merges_page(SENNRICH, kind=kind, **({"vocab": 30} if kind == "classic" else {}))
    trained = sess(at).trained
    data = _player_data(at)
    assert (
        data["round"] == 0 and trained.num_merges == data["n"] and data["speed"] in merge_frames.SPEEDS
    )  # opens at the start
    decoded = decode(data)
    table = decoded["table"]
    as_bytes = (lambda t: t.encode()) if kind == "classic" else (lambda t: t)
    first = 0
    for r, record in enumerate(trained.trace):
        assert as_bytes(table[decoded["left"][r]]) == record.left
        assert as_bytes(table[decoded["right"][r]]) == record.right
        assert as_bytes(table[len(data["base"]) + r]) == record.left + record.right
        assert (decoded["ids"][r], decoded["count"][r], decoded["replaced"][r]) == (
            record.new_id, record.count, record.replaced,
        )  # fmt: skip
        shown = slice(first, first + decoded["cand_n"][r])
        got = zip(decoded["cand_left"][shown], decoded["cand_right"][shown], decoded["cand_count"][shown])
        assert [(as_bytes(table[a]), as_bytes(table[b]), c) for a, b, c in got] == [
            (c.left, c.right, c.count) for c in record.candidates[: merge_frames.TOP_CANDIDATES]
        ]
        first = shown.stop


def test_window_at_every_round_is_the_truncated_encoding():
    """Byte-level: the boundaries drawn at round k are exactly those of truncated(k).encode(window)."""
    at = _merges_page(CAT)
    trained = sess(at).trained
    decoded = decode(_player_data(at))
    tokenizer = trained.tokenizer
    assert trained.num_merges > 10
    for k in range(trained.num_merges + 1):
        ids = tokenizer.truncated(k).encode(trained.window_text)
        assert tokens_at(decoded, k) == tokenizer.decode_tokens_bytes(ids)


@pytest.mark.parametrize("kind", ["byte", "classic"])
def test_word_boundaries_are_the_pre_tokens(kind):
    """PERMANENT marks exactly the boundaries between words (pre-tokens; classic: words), so the
    player can report the word holding a clicked token."""
    at = _merges_page(CAT, kind=kind, **({"vocab": 60} if kind == "classic" else {}))
    trained = sess(at).trained
    decoded = decode(_player_data(at))
    if kind == "classic":
        words = [[*word, "</w>"] for word in trained.window_text.split()]
    else:
        words = [word.encode() for word in bpe_core.pretokenize(trained.window_text, trained.tokenizer.pattern)]
    cuts = [j + 1 for j, life in enumerate(decoded["lifetimes"]) if life == PERMANENT]
    atoms = decoded["atoms"]
    assert [atoms[a:b] for a, b in zip([0, *cuts], [*cuts, len(atoms)])] == words


def test_classic_window_at_every_round_is_the_first_k_merges():
    at = _merges_page(SENNRICH, kind="classic", vocab=30)
    trained = sess(at).trained
    decoded = decode(_player_data(at))
    tokenizer = trained.tokenizer
    assert PERMANENT in decoded["lifetimes"]  # between words
    for k in range(trained.num_merges + 1):
        first_k = ClassicTokenizer(tokenizer.symbols, tokenizer.merges[:k])
        assert tokens_at(decoded, k) == [s for word in first_k.encode_words(trained.window_text) for s in word]


def test_one_set_of_controls_the_player():
    """No Python round controls: no slider, no step buttons; the caption names the player's round."""
    at = _merges_page(CAT)
    n = sess(at).trained.num_merges
    assert not at.slider and not [b for b in at.button if (b.key or "").startswith("round_")]
    assert any(c.value.startswith(f"Player at round 0 of {n:,}") for c in at.caption)  # it opens at the start


def test_search_and_pages_of_the_merge_table():
    """The table shows one page of 50; the search keeps exactly the merges whose parts or new token
    contain the text (a space typed as space or ·), or whose id or round is the number typed."""
    at = _merges_page(DEFAULT_SLUG)
    trace = sess(at).trained.trace
    assert len(trace) > 100
    assert list(_merge_table(at)["round"]) == list(range(1, 51))
    at.number_input(key=Session.merge_table_page.key).set_value(3).run()
    assert list(_merge_table(at)["round"]) == list(range(101, 151))
    for query in ["th", " t", "·t", "300", "zzz"]:
        at.text_input(key=Session.merge_search.key).input(query).run()
        no_exception(at)
        needle = display_str(query)
        expected = [
            k
            for k, r in enumerate(trace, start=1)
            if any(needle in display_bytes(t) for t in (r.left, r.right, r.left + r.right))
            or (query.isdigit() and int(query) in (r.new_id, k))
        ]
        assert list(_merge_table(at)["round"]) == expected[:50], query
        assert any(c.value.startswith(f"{len(expected):,} of {len(trace):,} merges · page 1 of") for c in at.caption)


def _fake(counts: list[int]) -> Trained:
    request = Request("paste", "counts", "d", "byte", 256 + len(counts), "none", None, ())
    return Trained(request, SimpleNamespace(trace=[]), 0, 0, "", {}, SimpleNamespace(counts=counts))


@given(st.lists(st.integers(1, 10**6), max_size=3000), st.integers(1, 1000))
def test_chart_points_keep_the_exact_peak_of_every_stretch(counts, max_points):
    points = merge_frames.count_chart_points(_fake(counts), max_points)
    assert len(points) <= max_points
    assert all(counts[p["round"] - 1] == p["count"] for p in points)
    bounds = [p["round"] for p in points]
    assert bounds == sorted(bounds)
    if counts:
        assert max(p["count"] for p in points) == max(counts)
        size = -(-len(counts) // max_points)
        for p in points:  # the highest count of its stretch of rounds
            start = (p["round"] - 1) // size * size
            assert p["count"] == max(counts[start : start + size])


def test_chart_marks_the_players_round():
    at = _merges_page(CAT)
    (spec,) = vega_specs(at)
    line, rule = spec["layer"]
    assert line["mark"]["type"] == "line" and line["encoding"]["y"]["scale"]["type"] == "log"
    assert rule["mark"]["type"] == "rule"


def test_player_view_contract():
    assert merge_frames.PlayerView.from_state({"round": 0, "speed": 4, "word": None}, 5) == merge_frames.PlayerView(
        0, 4, None
    )
    assert merge_frames.PlayerView.from_state({"round": 5, "speed": 240, "word": "the"}, 5) == merge_frames.PlayerView(
        5, 240, "the"
    )
    for bad in (None, 3, {"round": 6, "speed": 4}, {"round": -1, "speed": 4}, {"round": 1, "speed": 5},
                {"round": "1", "speed": 4}):  # fmt: skip
        assert merge_frames.PlayerView.from_state(bad, 5) is None


def test_opening_the_page_directly_offers_a_one_click_training():
    at = fresh(MERGES)
    assert sess(at).trained is None
    assert any("No tokenizer trained yet" in info.value for info in at.info)
    assert not _players(at)
    at.button(key="quick_train").click().run()
    no_exception(at)
    assert sess(at).trained.request.corpus == DEFAULT_SLUG
    assert _player_data(at)["n"] == sess(at).trained.num_merges


def test_a_tokenizer_without_merges_says_so():
    at = _merges_page("toy-aaabdaaabac", vocab=257)
    assert sess(at).trained.num_merges == 0
    assert any("no merges" in warning.value for warning in at.warning)
    assert not _players(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_text_with_no_pair_says_that_it_ran_out_of_pairs_not_out_of_vocab(lang, monkeypatch):
    """Pasted "a" at vocab 600: no merge, because no pair occurs, and the page says that (it said the vocab size
    left no room)."""
    options_in(lang, monkeypatch)
    at = fresh(lang=lang, vocab="600")
    at.selectbox(key=Session.corpus.key).set_value(PASTE).run()
    at.text_area(key=Session.paste_box.key).input("a").run()
    click_train(at)
    assert sess(at).trained.num_merges == 0 and sess(at).vocab == 600
    open_page(at, MERGES)
    (warning,) = [w.value for w in at.warning if "：没有可以播放" in w.value or "nothing to animate" in w.value]
    said = {
        "en": "no pair left to merge after 0 merges",
        "zh": t("no pair left to merge after {n:,} merges", lang="zh", n=0),
    }
    assert said[lang] in warning and "vocab" not in warning and "词表" not in warning
    assert not _players(at)


def test_hostile_corpus_stays_data_in_the_payload_and_the_export():
    """HTML in the corpus reaches the player as JSON strings only; the exported file embeds it with
    every < > & escaped, so the only script end tags are the file's own two."""
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(PASTE).run()
    at.text_area(key=Session.paste_box.key).input(" ".join(XSS_PROBES * 3) + " \u2028\u2029").run()
    at.selectbox(key=Session.pattern.key).set_value("none").run()
    at.number_input(key=Session.vocab.key).set_value(300).run()
    at.button(key="train_button").click().run()
    open_page(at, MERGES)
    trained = sess(at).trained
    data = _player_data(at)
    assert data["window"] == trained.window_text and "<script>" in data["window"]
    page = animation_html(data, "</title><script>alert(1)</script>")
    lowered = page.lower()
    assert lowered.count("</script") == 2 and lowered.count("<script") == 2
    assert "<img" not in lowered and "<iframe" not in lowered and "\u2028" not in page
    assert "&lt;/title&gt;&lt;script&gt;" in page
    embedded = page.split('<script type="application/json" id="bpe-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(embedded) == data


def _merge_table(at):
    """The All merges table (the page's other grid lists every pair at a round)."""
    (frame,) = [df.value for df in at.dataframe if "round" in df.value.columns]
    return frame
