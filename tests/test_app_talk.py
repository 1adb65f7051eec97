"""The guided talk and talk mode, headless (AppTest): every step renders in English and Chinese with
nothing left untranslated, each step is a link that opens that step, talk mode reaches the charts'
text sizes, and the player's words travel translated in its data."""

from __future__ import annotations

import string

import pytest
from apptest_helpers import APP, TIMEOUT, chart_rows, no_exception, sess, vega_specs
from streamlit.testing.v1 import AppTest

from playground import i18n
from playground.links import link_params, parse_link
from playground.session import TALK_STEPS, Session
from ui import chart_style, stage
from ui.animation_html import animation_html, player_labels
from ui.stage.keys import keys_help
from ui.talk.steps import PAIR_AXIS_LINES, STEPS

TALK = "pages/5_Talk.py"


def open_talk(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(TALK)
    at.run()
    no_exception(at)
    return at


def test_there_is_one_step_per_number_a_link_allows():
    assert len(STEPS) == TALK_STEPS == 13
    assert len({step.title for step in STEPS}) == TALK_STEPS


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", range(1, TALK_STEPS + 1))
def test_every_step_renders_in_both_languages_and_its_link_round_trips(step, lang):
    i18n.MISSING.clear()
    at = open_talk(step=str(step), talk="1", lang=lang)
    s = sess(at)
    assert (s.step, s.talk, s.page) == (step, True, "talk")
    assert not at.warning, [w.value for w in at.warning]
    title = at.title[0].value
    step_title = i18n.t(STEPS[step - 1].title, lang=lang)
    assert title == i18n.t("{title} (step {step} of {total})", lang=lang, title=step_title, step=step, total=TALK_STEPS)
    assert set() == i18n.MISSING, sorted(i18n.MISSING)[:5]
    # The address bar and "copy link" carry the step and talk mode, and nothing of a tokenizer.
    assert link_params(s, "talk") == {"step": str(step), "talk": "1", **({"lang": lang} if lang != "en" else {})}
    assert at.query_params["step"] == str(step) and at.query_params["talk"] == "1"
    assert "corpus" not in at.query_params
    link = {key: value for key, value in at.query_params.items() if key != "ws"}
    reopened = open_talk(**link)
    assert sess(reopened).step == step and reopened.title[0].value == title


def test_the_next_and_previous_buttons_stop_at_the_ends():
    at = open_talk(step="1")
    previous, following = at.button(key="talk_prev"), at.button(key="talk_next")
    assert previous.disabled and not following.disabled
    following.click().run()
    assert sess(at).step == 2 and at.query_params["step"] == "2"
    at = open_talk(step=str(TALK_STEPS))
    assert at.button(key="talk_next").disabled
    at.button(key="talk_prev").click().run()
    assert sess(at).step == TALK_STEPS - 1


def test_talk_mode_is_off_in_links_unless_on():
    assert "talk" not in link_params(Session({}), "merges")
    assert link_params(Session({"bpe.talk": True}), "encode")["talk"] == "1"
    values, problems = parse_link({"talk": ["yes"], "step": [str(TALK_STEPS + 1)]})
    assert values == {} and [p.parameter for p in problems] == ["talk", "step"]
    assert parse_link({"talk": ["0"], "step": ["3"]})[0] == {"talk": False, "step": 3}


@pytest.mark.parametrize("talk", ["1", "0"])
def test_chart_text_follows_talk_mode(talk):
    """Step 2's bar chart (Altair, through ui/chart_style.py): axis and legend text at the stage's size."""
    at = open_talk(step="2", talk=talk)
    (spec,) = vega_specs(at)
    config = spec["config"]
    sizes = [config["axis"]["labelFontSize"], config["axis"]["titleFontSize"], config["legend"]["labelFontSize"]]
    if talk == "1":
        assert min(sizes) >= stage.MIN_PX and config["axis"]["labelColor"] == "#111"
        # The height holds the count axis and its title; each bar gets a label's height and more, or Vega drops
        # every other label (6 bars had 24 px for 29 px labels). The step's own walk holds it to a 720 px screen.
        label = config["axis"]["labelFontSize"]
        assert (spec["height"] - PAIR_AXIS_LINES * label) / len(chart_rows(at)) >= 1.5 * label
    else:
        assert sizes == [12, 13, 12] and "labelColor" not in config["axis"]


def test_chart_text_grows_with_the_window_the_browser_reports():
    assert chart_style.font_px(True, 1920)[0] > chart_style.font_px(True, 1280)[0] >= stage.MIN_PX
    assert chart_style.font_px(True, 640) == (stage.MIN_PX, stage.MIN_PX)  # never below the floor
    for width in range(400, 4000, 7):  # at least what the CSS length max(28px, 2.25vw) gives
        assert stage.text_px(width) >= max(stage.MIN_PX, width * stage.VW / 100)


def _fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


def test_the_players_words_are_translated_with_the_same_placeholders():
    english, chinese = player_labels("en"), player_labels("zh")
    assert english.keys() == chinese.keys()
    for key, text in english.items():
        assert _fields(chinese[key]) == _fields(text), key
        assert any("\u4e00" <= c <= "\u9fff" for c in chinese[key]), key
    for _, what in keys_help():  # the ? overlay
        assert any("\u4e00" <= c <= "\u9fff" for c in i18n.t(what, lang="zh")), what


def test_the_exported_animation_carries_its_language():
    from playground.trained import Request, train_job
    from ui.merge_frames import player_payload

    text = "low lower newest widest 字节对编码"
    trained = train_job(text, Request("paste", "t", "d", "byte", 270, "gpt2", "gpt2", ()))
    page = animation_html(player_payload(trained, 0), "title", "zh")
    assert '<html lang="zh">' in page and '"play": "▶ 播放"' in page
    assert '"play": "▶ Play"' in animation_html(player_payload(trained, 0), "title", "en")


def test_a_talk_step_trains_as_a_job_shared_by_sessions_and_above_the_budget_waits_for_a_click(monkeypatch):
    from playground import caches, runs
    from playground.trained import train_job
    from runtime import jobs
    from ui import page_training as training
    from ui.talk import data

    caches.clear_all()
    submitted, real_run = [], jobs.run_with_progress

    def counted(fn, args, *more, **kwargs):
        submitted.append(args[1])  # (parts, request): the job gets the corpus cut, and the request
        return real_run(fn, args, *more, **kwargs)

    monkeypatch.setattr(runs.jobs, "run_with_progress", counted)
    monkeypatch.setattr(training, "AUTO_TRAIN_SECONDS", 0.0)  # every estimate is above it: a click is asked for
    request, text = data.job(data.REAL_CORPUS, "byte", data.REAL_VOCAB)
    at = open_talk(step="4")
    assert submitted == [] and runs.cached(request) is None
    assert "It starts only when you click" in at.info[0].value
    at.button(key=f"talk_{data.REAL_CORPUS}_byte_{data.REAL_VOCAB}_confirm").click().run()
    no_exception(at)
    assert submitted == [request]  # trained in a job process, not in the server's thread
    trained = runs.cached(request)
    assert trained.tokenizer.merges == train_job(text, request).tokenizer.merges
    other = open_talk(step="7")  # another session, another step on the same tokenizer: the shared result
    assert not other.info and submitted == [request]


def test_a_cancelled_talk_step_waits_for_a_click_instead_of_training_again():
    from playground import caches, runs
    from ui import page_training as training
    from ui.talk import data

    caches.clear_all()
    request, _ = data.job(data.PAIRS_CORPUS, "byte", 259)
    key = f"talk_{data.PAIRS_CORPUS}_byte_259"
    at = open_talk(step="2")
    assert runs.cached(request) is not None  # cheap: trained by itself
    s = sess(at)
    s.running_job = key  # as while its job ran; then what Cancel's click does before the rerun it starts
    training._cancel_clicked(s, key, "Training cancelled: this step trains it when you click.")
    caches.clear_all()  # the cancelled run left nothing behind
    at.run()
    no_exception(at)
    assert [w.value for w in at.warning] == ["Training cancelled: this step trains it when you click."]
    assert "It starts only when you click" in at.info[0].value and runs.cached(request) is None
    at.button(key=f"{key}_confirm").click().run()
    no_exception(at)
    assert runs.cached(request) is not None and key not in sess(at).stopped_jobs
    assert vega_specs(at)  # the step's chart, drawn in the run the click started
    at.run()
    assert not at.info and vega_specs(at)  # and from then on without asking


def test_the_predict_step_asks_before_each_round_of_the_libraries_training_of_the_toy():
    """Step 12 is the player in predict mode on “the cat in the hat”: every round of the library's training of
    that text, from round 0."""
    import json

    import bpe_core
    from playground.corpora import load_sample
    from ui.talk.predict_step import PREDICT_CORPUS, PREDICT_VOCAB

    step = next(k for k, step in enumerate(STEPS, start=1) if step.title == "Your turn: which pair merges next?")
    at = open_talk(step=str(step), talk="1")
    (player,) = [c for c in at.get("bidi_component") if c.proto.component_name == "bpe_playground.merge_player"]
    data = json.loads(player.proto.json)
    expected = bpe_core.train(load_sample(PREDICT_CORPUS), PREDICT_VOCAB)
    assert data["predict"] is True and data["round"] == 0
    assert data["n"] == len(expected.trace) == PREDICT_VOCAB - 256


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_in_chinese_the_real_corpus_and_the_boundary_sentence_are_chinese(lang):
    """Steps 4, 5 and 7 in the talk's language: a Chinese room watches merges of the Four Books and GPT-4's tokens
    on a Chinese sentence (the English texts stood in both languages)."""
    from bpe_core import reference
    from playground import runs
    from playground.corpora import load_sample
    from ui.talk import data

    corpus = data.ZH_REAL_CORPUS if lang == "zh" else data.REAL_CORPUS
    at = open_talk(step="4", talk="1", lang=lang)
    request, text = data.job(corpus, "byte", data.REAL_VOCAB)
    trained = runs.cached(request)
    assert trained is not None and trained.request.corpus == corpus
    named = i18n.t("the Four Books" if lang == "zh" else "the Python language reference", lang=lang)
    assert named in at.markdown[0].value and f"{trained.num_merges:,}" in at.markdown[0].value
    first_merged = [trained.tokenizer.vocab[token].decode("utf-8", errors="ignore") for token in range(256, 456)]
    assert any("\u4e00" <= c <= "\u9fff" for token in first_merged for c in token) == (lang == "zh")
    assert text == load_sample(corpus)

    sentence = data.ZH_BOUNDARY_TEXT if lang == "zh" else data.BOUNDARY_TEXT
    at = open_talk(step="5", talk="1", lang=lang)
    tokens = len(reference("cl100k_base").encode(sentence))
    said = i18n.t(
        "GPT-4's tokenizer (cl100k_base): {tokens} tokens for {chars} characters. Each colour is one token.",
        lang=lang, tokens=tokens, chars=len(sentence),
    )  # fmt: skip
    assert said in [m.value for m in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_classic_beside_byte_level_outlines_nothing_and_says_nothing_of_outlines(lang):
    """Step 9 shows one byte-level view beside a classic one: there is no byte-level neighbour to differ from, and
    classic symbols are not byte spans, so no "0 outlined" (it read as "the two cut alike", which they do not)."""
    at = open_talk(step="9", talk="1", lang=lang)
    views = [body.proto.body for body in at.get("html") if 'class="cmp-view"' in body.proto.body]
    assert len(views) == 2
    outlined = i18n.t(" · {n:,} outlined", lang=lang, n=0).strip(" ·0")
    assert not any(outlined in view or 'class="diff' in view or " diff" in view for view in views)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_merge_of_a_pair_of_one_token_says_it_is_counted_with_overlaps(lang):
    """Step 3 merges a + a, counted 4 times in aaabdaaabac while 2 new tokens come of it: the room asked why. The step
    says the pair is counted with overlaps and merged left to right; the count is the library's own."""
    import bpe_core
    from ui.talk import data

    at = open_talk(step="3", talk="1", lang=lang)
    first = bpe_core.train(data.PAIRS_TEXT, 257).trace[0]
    assert first.left == first.right == b"a" and first.count == 4
    said = " ".join(m.value for m in at.markdown)
    assert (
        i18n.t(" Counted with overlaps (“aaa” holds two “aa”), merged left to right (it makes one).", lang=lang) in said
    )


def test_the_reference_markers_legend_is_drawn_in_their_colour():
    """Step 7: one text, its curve and three real tokenizers as markers coloured by the text; the markers' legend drew
    them black beside blue markers."""
    at = open_talk(step="7", talk="1")
    (spec,) = [spec for spec in vega_specs(at) if "layer" in spec]
    (points,) = [layer for layer in spec["layer"] if layer.get("name") == "points"]
    colour = points["encoding"]["color"]["scale"]["range"]
    assert len(points["encoding"]["color"]["scale"]["domain"]) == 1
    assert points["encoding"]["shape"]["legend"]["symbolFillColor"] == colour[0]
