"""Shareable views: the settings of the Compare page live in the URL's query parameters.

A link such as ``/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&sizes=300,400,600
&view=side`` reproduces the view: the page reads the parameters once (when they differ from what it
last wrote), puts them into session state before any widget is drawn, and trains that tokenizer
if it is not the current one. While the page runs it writes the current settings back, so the
address bar is always a link to what is on screen. Pasted and uploaded text are never put in a
link (too big, and private): a link with such a corpus or held-out text falls back to a sample.

Parameters (all optional):

=========  ===================================================================================
corpus     a built-in sample, by slug (see :func:`sample_slug`)
vocab      vocab size to train to
pattern    gpt2 | cl100k | o200k | whitespace | none | custom (then ``regex`` holds the regex)
round      the merge round shown on the Merges page
sizes      the vocab sizes compared side by side, comma-separated (2-4)
refs       reference tokenizers compared, comma-separated (gpt2, cl100k_base, o200k_base)
heldout    held-out text for the curve: a sample slug or ``reference-rest``
view       curve | side | vocab | algos
token      the token id whose merge tree the vocabulary view shows
=========  ===================================================================================
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from urllib.parse import urlencode

import streamlit as st

from ui.corpora import SAMPLES
from ui.state import PATTERN_CHOICES

REFERENCE_NAMES = ("gpt2", "cl100k_base", "o200k_base")
VIEWS = ("curve", "side", "vocab", "algos")
MAX_SIZES = 4
HELDOUT_REST = "reference-rest"
"""Held-out choice: the Python reference after its excerpt (text the excerpt sample never saw)."""


def sample_slug(name: str) -> str:
    """A short, URL-safe name for a built-in sample.

    >>> sample_slug("Python reference, excerpt (English prose, ~60 KB)")
    'python-reference-excerpt'
    >>> sample_slug("Toy: aaabdaaabac")
    'toy-aaabdaaabac'
    """
    return re.sub(r"[^a-z0-9]+", "-", name.split("(")[0].lower()).strip("-")


SLUG_TO_SAMPLE = {sample_slug(name): name for name in SAMPLES}
assert len(SLUG_TO_SAMPLE) == len(SAMPLES), "sample slugs must be unique"


def parse_sizes(text: str, limit: int = MAX_SIZES) -> list[int]:
    """Vocab sizes from ``"300, 400 600"``: integers only, duplicates dropped, order kept.

    >>> parse_sizes("300, 400 600,abc,300")
    [300, 400, 600]
    """
    sizes: list[int] = []
    for part in re.split(r"[,\s;]+", text or ""):
        if part.isdigit():
            size = int(part)
            if size not in sizes:
                sizes.append(size)
    return sizes[:limit]


def parse_params(params: Mapping[str, str]) -> dict:
    """Validated settings from query parameters; anything unknown or malformed is dropped.

    >>> parse_params({"corpus": "toy-aaabdaaabac", "vocab": "259", "pattern": "none", "sizes": "257,259",
    ...               "view": "side", "refs": "gpt2,bogus", "vocab_extra": "x"})["corpus"]
    'Toy: aaabdaaabac'
    >>> parse_params({"vocab": "-5", "pattern": "evil", "view": "nope"})
    {}
    """
    out: dict = {}
    corpus = params.get("corpus")
    if corpus in SLUG_TO_SAMPLE:
        out["corpus"] = SLUG_TO_SAMPLE[corpus]
    vocab = str(params.get("vocab", ""))
    if vocab.isdigit() and 1 <= int(vocab) <= 200_000:
        out["vocab"] = int(vocab)
    pattern = params.get("pattern")
    if pattern in PATTERN_CHOICES and pattern != "custom":
        out["pattern"] = pattern
    elif pattern == "custom" and params.get("regex"):
        out["pattern"] = "custom"
        out["regex"] = str(params["regex"])[:1000]
    round_ = str(params.get("round", ""))
    if round_.isdigit():
        out["round"] = int(round_)
    if params.get("sizes"):
        sizes = parse_sizes(str(params["sizes"]))
        if sizes:
            out["sizes"] = sizes
    if "refs" in params:
        out["refs"] = [name for name in str(params["refs"]).split(",") if name in REFERENCE_NAMES]
    heldout = params.get("heldout")
    if heldout == HELDOUT_REST or heldout in SLUG_TO_SAMPLE:
        out["heldout"] = heldout
    if params.get("view") in VIEWS:
        out["view"] = params["view"]
    token = str(params.get("token", ""))
    if token.isdigit():
        out["token"] = int(token)
    return out


def build_params(settings: Mapping) -> dict[str, str]:
    """The inverse of :func:`parse_params` (only the settings that can go in a link).

    >>> build_params({"corpus": "Toy: aaabdaaabac", "vocab": 259, "sizes": [257, 259], "refs": []})
    {'corpus': 'toy-aaabdaaabac', 'vocab': '259', 'sizes': '257,259', 'refs': ''}
    """
    out: dict[str, str] = {}
    if settings.get("corpus") in SAMPLES:
        out["corpus"] = sample_slug(settings["corpus"])
    if settings.get("vocab"):
        out["vocab"] = str(int(settings["vocab"]))
    if settings.get("pattern") in PATTERN_CHOICES:
        out["pattern"] = settings["pattern"]
        if settings["pattern"] == "custom" and settings.get("regex"):
            out["regex"] = settings["regex"]
    if settings.get("round") is not None:
        out["round"] = str(int(settings["round"]))
    if settings.get("sizes"):
        out["sizes"] = ",".join(str(int(size)) for size in settings["sizes"])
    if settings.get("refs") is not None:
        out["refs"] = ",".join(settings["refs"])
    if settings.get("heldout"):
        out["heldout"] = settings["heldout"]
    if settings.get("view"):
        out["view"] = settings["view"]
    if settings.get("token") is not None:
        out["token"] = str(int(settings["token"]))
    return out


def _signature(params: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(params.items())))


def read_link() -> dict | None:
    """The settings of a share link just opened, or None when the URL holds nothing new.

    "New" means different from what this session last wrote into the URL, so the page's own
    updates of the address bar are not read back as a fresh link.
    """
    params = {key: st.query_params.get(key) for key in st.query_params}
    if not params:
        return None
    signature = _signature(params)
    if st.session_state.get("_share_signature") == signature:
        return None
    st.session_state["_share_signature"] = signature
    settings = parse_params(params)
    return settings or None


def consume_link(page: str) -> dict | None:
    """Called by ``ui.state.setup_page`` on every page: a share link just opened pre-fills the
    session (so the Train page shows its corpus and settings, the Merges page its round), and is
    kept for the page it was opened on (:func:`link_for`), which may act on it (Compare trains)."""
    settings = read_link()
    if settings:
        apply_to_state(settings)
        st.session_state["_share_link"] = (page, settings)
    else:
        st.session_state.pop("_share_link", None)
    return settings


def link_for(page: str) -> dict | None:
    """The share link opened on ``page`` in this very run, if any."""
    entry = st.session_state.get("_share_link")
    if entry and entry[0] == page:
        return entry[1]
    return None


def apply_to_state(settings: Mapping) -> None:
    """Put a link's settings into the session keys the pages (and their widgets) use."""
    ss = st.session_state
    if "corpus" in settings:
        ss["corpus_source"] = settings["corpus"]
    if "vocab" in settings:
        ss["vocab_size"] = settings["vocab"]
    if "pattern" in settings:
        ss["pattern_choice"] = settings["pattern"]
        if settings["pattern"] == "custom":
            ss["custom_regex"] = settings["regex"]
    if "round" in settings:
        ss["merge_round"] = settings["round"]
    if "sizes" in settings:
        ss["cmp_sizes_text"] = ", ".join(str(size) for size in settings["sizes"])
    if "refs" in settings:
        ss["cmp_refs"] = list(settings["refs"])
    if "heldout" in settings:
        ss["cmp_heldout"] = settings["heldout"]
    if "view" in settings:
        ss["cmp_view"] = settings["view"]
    if "token" in settings:
        ss["cmp_tree_token"] = settings["token"]


def write_link(settings: Mapping) -> dict[str, str]:
    """Write the current settings into the address bar (only when they changed); return them."""
    params = build_params(settings)
    current = {key: st.query_params.get(key) for key in st.query_params}
    if current != params:
        st.query_params.from_dict(params)
    st.session_state["_share_signature"] = _signature(params)
    return params


def link_url(params: Mapping[str, str]) -> str:
    """The full link to this page with these settings (relative when the browser URL is unknown)."""
    base = None
    try:
        base = st.context.url
    except Exception:  # noqa: BLE001 -- no browser (tests, bare mode): a relative link
        base = None
    query = urlencode(params, safe=",")
    return f"{base or ''}?{query}" if query else (base or "")
