"""The typed session (ui/session.py), link parsing (ui/links.py) and the escaping helper (ui/text.py): properties
over hostile values, no Streamlit needed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground import links
from playground.links import link_params, parse_link, signature
from playground.session import FIELDS, PAGE_FIELDS, SHARED_FIELDS, URL_FIELDS, Session
from playground.text import plain

BAD_NUMBERS = ["²", "٣", "1e999", "-1", "9" * 5000, "1.5", " 7", "0x10", "", "+3", "١٢"]


@pytest.mark.parametrize("parameter", sorted(URL_FIELDS))
@pytest.mark.parametrize("value", [*BAD_NUMBERS, "x" * 100_000, "<script>alert(1)</script>", "![x](http://e/)"])
def test_every_bad_value_is_dropped_with_one_message_naming_the_parameter(parameter, value):
    """Bad values never raise: each is dropped with one message that names the parameter; good ones pass."""
    values, problems = parse_link({parameter: [value]})
    field = URL_FIELDS[parameter]
    if values:  # a few values are valid for some fields (free text): then nothing is reported
        assert list(values) == [field.name] and not problems
        return
    assert len(problems) == 1 and problems[0].parameter == parameter
    assert f"“{parameter}”" in str(problems[0].message)
    assert len(str(problems[0].message)) < 600  # a 100 KB value is not echoed back


@pytest.mark.parametrize("parameter", sorted(URL_FIELDS))
def test_a_duplicated_parameter_is_refused(parameter):
    values, problems = parse_link({parameter: ["1", "2"]})
    assert values == {} and [p.parameter for p in problems] == [parameter]
    assert "given 2 times" in str(problems[0].message)


def test_unknown_parameters_are_named_and_known_ones_listed():
    values, problems = parse_link({"vocab": ["300"], "evil": ["1"]})
    assert values == {"vocab": 300}
    assert [p.parameter for p in problems] == ["evil"] and "known: " in str(problems[0].message)


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_numbers_are_ascii_digits_in_range(value):
    assert parse_link({"vocab": [value]})[0] == {}
    assert parse_link({"round": [value]})[0] == {}
    assert parse_link({"token": [value]})[0] == {}


def test_good_values_parse_to_their_types():
    values, problems = parse_link(
        {
            "corpus": ["toy-aaabdaaabac"],
            "kind": ["classic"],
            "vocab": ["259"],
            "pattern": ["custom"],
            "regex": [r"\p{L}+|\s+|."],
            "specials": ["<|a|> <|b|>"],
            "round": ["0"],
            "speed": ["30"],
            "sizes": ["300, 400,500"],
            "refs": ["gpt2,o200k_base"],
            "view": ["side"],
            "token": ["42"],
            "format": ["hf"],
        }
    )
    assert not problems
    assert values["vocab"] == 259 and values["round"] == 0 and values["speed"] == 30
    assert values["sizes"] == [300, 400, 500] and values["refs"] == ["gpt2", "o200k_base"]


@given(st.dictionaries(st.text(max_size=12), st.lists(st.text(max_size=40), min_size=1, max_size=3), max_size=6))
@settings(max_examples=300, deadline=None)
def test_any_query_parses_without_raising(params):
    values, problems = parse_link(params)
    assert set(values) <= set(FIELDS)
    assert all(problem.parameter in params for problem in problems)


@pytest.mark.parametrize("page", sorted(PAGE_FIELDS))
@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_a_page_link_parses_back_to_the_same_values(page, data):
    """link_params and parse_link are inverses: a copied link restores exactly what the page showed."""
    state: dict = {}
    s = Session(state)
    s.initialize()
    for name in (*PAGE_FIELDS[page], *SHARED_FIELDS):
        field = FIELDS[name]
        raw = data.draw(st.sampled_from(_examples(name)), label=name)
        setattr(s, name, field.parse(raw))
    params = link_params(s, page)
    values, problems = parse_link({key: [value] for key, value in params.items()})
    assert not problems
    fresh = Session({})
    fresh.initialize()
    for name, value in values.items():
        setattr(fresh, name, value)
    for name in (*PAGE_FIELDS[page], *SHARED_FIELDS):
        if name == "regex" and s.pattern != "custom":
            continue
        if not FIELDS[name].carries(getattr(s, name), s):  # a field its view does not need (the chooser's in side)
            assert FIELDS[name].url not in params
            continue
        if name == "lang" and s.lang == "en":  # English is the default: links leave it out
            assert "lang" not in params
            continue
        assert getattr(fresh, name) == getattr(s, name), name


def _examples(name: str) -> list[str]:
    return {
        "corpus": ["toy-aaabdaaabac", "paste", "python-reference-all"],
        "kind": ["byte", "classic", "superword"],
        "transition": ["0", "6000", "200000"],
        "maxwords": ["1", "4", "16"],
        "base": ["bytes", "gpt2", "llama3"],
        "min_freq": ["0", "2", "100000000"],
        "max_len": ["0", "1", "16"],
        "alphabet": ["0", "100"],
        "keep_chars": ["", "åäö", "a,b"],
        "dropout": ["0", "0.1", "0.05", "0.99"],
        "seed": ["0", "3", "1000000"],
        "vocab": ["1", "600", "200000"],
        "pattern": ["gpt2", "none", "custom"],
        "regex": [r"\w+|\W", "a,b|[,]"],
        "specials": ["", "<|endoftext|>", "<a> <b>"],
        "round": ["0", "17"],
        "pairs_round": ["1", "18"],
        "speed": ["1", "240"],
        "word": [" the", "x,y"],
        "tokenizer": ["trained", "cl100k_base"],
        "text": ["", "a, b & c", "你好"],
        "view": ["curve", "algos", "choose", "languages", "health", "overlap"],
        "sizes": ["", "300", "300,400,500,600"],
        "refs": ["", "gpt2", "gpt2,cl100k_base,o200k_base"],
        "talk_refs": ["", "llama3", "qwen3.6,llama3,gpt2"],
        "also": ["", "trained", "cl100k_base,llama3"],
        "heldout": ["reference-rest", "toy-aaabdaaabac", "default", "split", "stdlib-docstrings", "code-prose-chinese"],
        "holdout": ["0", "10", "50"],
        "predict": ["0", "1"],
        "ties": ["greatest", "first", "hf"],
        "compared": ["trained", "gpt2"],
        "d_model": ["1", "768"],
        "tied": ["0", "1"],
        "min_gain": ["0.5", "0", "12.125"],
        "min_uses": ["1", "10"],
        "parallel": ["default", "own", "heldout"],
        "cut_vocab": ["300", "200000"],
        "pair_vocab": ["300", "2000"],
        "health_class": ["all", "never"],
        "overlap_with": ["trained", "gpt2", "cl100k_base"],
        "overlap_list": ["shared", "only_b"],
        "overlap_script": ["all", "han", "bytes"],
        "token": ["0", "5000"],
        "format": ["gpt2", "bpe-playground"],
        "lang": ["en", "zh"],
        "step": ["1", "12"],
        "talk": ["0", "1"],
        "check_corpus": ["toy-aaabdaaabac", "python-reference-all"],
        "check_specials": ["", "<|endoftext|>", "<a> <b>"],
        "check_pattern": ["gpt2", "whitespace", "none"],
        "check_classic": ["0", "1"],
    }[name]


def test_signature_ignores_the_workspace_and_order():
    assert signature({"b": "1", "a": "2", links.WORKSPACE_PARAM: "x"}) == signature({"a": "2", "b": "1"})


# -- the escaping helper -------------------------------------------------------------------------


URLISH = st.sampled_from(["www.", "http://", "a@b.c", "ftp:", ":", "/", "h"])


@given(st.lists(URLISH | st.text(max_size=5), max_size=40).map("".join))
@settings(max_examples=300, deadline=None)
def test_plain_leaves_no_unescaped_markdown_punctuation_and_no_autolink(text):
    """Every ASCII punctuation character comes out backslash-escaped; nothing can start a link, an image,
    an emoji/icon shortcode or math."""
    out = plain(text, limit=10_000)
    unescaped = re.sub(r"\\.", "", out)
    assert not any(ch in unescaped for ch in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    assert "\n" not in out and "\u202e" not in out and "\u200b" not in out
    resolved = re.sub(r"\\(.)", r"\1", out)  # what GFM's autolinker sees once escapes are resolved
    assert not re.search(r"(?i)(https?|ftp|mailto|xmpp):|www\.|@[^\u2060]", resolved)


def test_a_cancel_click_after_the_job_finished_does_not_claim_the_old_tokenizer_was_kept():
    """The Cancel callback runs on the rerun its click starts; if the job had already returned (and
    its result was stored), saying "cancelled, previous kept" would be false."""
    from ui.page_training import _cancel_clicked

    s = Session({})
    s.running_job = "train"  # the job is still polling: a real cancel
    _cancel_clicked(s, "train", "Training cancelled.")
    assert s.cancelled == "Training cancelled." and s.running_job == "" and not s.notices
    _cancel_clicked(s, "train", "Training cancelled.")  # a second click, the job long gone
    assert s.notices[-1][0] == "info" and "after the job had finished" in s.notices[-1][1]


def test_every_named_pattern_has_a_label_and_is_a_choice():
    """The pattern choices come from the engine's named patterns: a new one is offered (and labelled) everywhere."""
    from bpe_core.pretokenize import PATTERNS
    from playground.patterns import NAMED_OR_NONE, PATTERN_CHOICES, PATTERN_LABELS

    assert set(PATTERN_LABELS) == set(PATTERN_CHOICES) == {*PATTERNS, "none", "custom"}
    assert set(NAMED_OR_NONE) == {*PATTERNS, "none"}
    assert Session.pattern.parse("llama3") == "llama3" and Session.check_pattern.parse("qwen3.5") == "qwen3.5"


def test_each_field_has_one_owner_and_every_url_field_is_carried_by_some_page():
    """The lists a link is written from are derived from the owners' declarations: no field is declared twice,
    and a field with a URL form is carried by some page's link (else its parameter could never appear)."""
    from playground.page_state import fields_of
    from playground.session import OWNERS

    declared = [name for owner in OWNERS for name in fields_of(owner)]
    assert len(declared) == len(set(declared)) == len(FIELDS)
    carried = {name for names in PAGE_FIELDS.values() for name in names} | set(SHARED_FIELDS)
    assert {name for name, field in FIELDS.items() if field.url} == carried


def test_a_requests_settings_are_the_tokenizer_fields():
    """``Request.settings`` names session fields the tokenizer's owner declares, so a link or a Cancel puts back
    exactly the tokenizer's settings."""
    from playground.session import TOKENIZER_FIELDS
    from playground.trained import Request

    for kind in ("byte", "classic", "parity", "superword"):
        request = Request("toy", "Toy", "d", kind, 300, "gpt2", "gpt2", ("<s>",), transition=10, max_words=2)
        assert set(request.settings()) <= set(TOKENIZER_FIELDS)
