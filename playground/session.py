"""Every value a session keeps, declared once: name, type, default, URL form and whether a reload keeps it.

Pages read and write the session only through :class:`Session` (``s = ui.state.current()``,
``s.vocab``); a widget binds to a field by its key (``key=Session.vocab.key``). Each field's URL form
(parameter, parser, dump, when a link carries it) is declared here with the field (``playground.fields``);
:mod:`playground.links` reads and writes links from those declarations alone.

>>> Session({}).vocab, Session.vocab.url
(600, 'vocab')
"""

from __future__ import annotations

from typing import Any, Protocol

from bpe_core import TokenizerShape
from bpe_core.analysis.check import LearnerMerges
from bpe_core.reference import reference_names
from playground import heldout_texts as held_out
from playground.check import Checked
from playground.corpora import CORPUS_CHOICES, DEFAULT_SLUG, ENCODE_SAMPLE, SLUGS, Upload
from playground.fields import (
    Field,
    HasState,
    State,
    comma_joined,
    decimal_number,
    name_list,
    number_list,
    one_of,
    short_text,
    whole_number,
)
from playground.i18n import DEFAULT as DEFAULT_LANG
from playground.i18n import LANGUAGES
from playground.kinds import FORMATS, KINDS, MAX_VOCAB, VIEWS, kind_of
from playground.patterns import NAMED_OR_NONE, PATTERN_CHOICES
from playground.trained import Trained
from runtime.lru import LRU


class UploadedFile(Protocol):
    """What the model reads of a file in an uploader (Streamlit's ``UploadedFile``; this package imports no
    Streamlit)."""

    name: str
    file_id: str

    def getvalue(self) -> bytes: ...


# OpenAI's three only: the open models (bpe_core.reference_names()[3:]) come to the app with its own change.
REFERENCES = reference_names()[:3]
ANY_TOKENIZER_VIEWS = ("choose", "languages", "health")
"""Views that also study the reference tokenizers (the others study what was trained or loaded)."""
PARALLEL_CHOICES = ("default", "all", "heldout", "own")
"""The languages view's parallel text: the one for its tokenizer, the built-in sample (all 40 sentences, or the
10 its corpus holds out), or the user's own files."""
HEALTH_FILTERS = ("all", "partial", "invalid", "split", "whole", "never", "intermediate")
"""The health view's list: every class, or one (``ui.compare.health`` names them)."""
HOLDOUT_MAX = 50
SPEEDS = (1, 2, 4, 8, 15, 30, 60, 120, 240)
TRAINED = "trained"
"""The Encode page's tokenizer choice for the one trained in this session."""
MAX_SIZES = 4
MAX_DROPOUT = 0.99
MAX_SEED = 1_000_000
MAX_WORDS = 16
"""The largest cap on words per superword token a link may ask for (SuperBPE uses 4)."""
MAX_LINK_TEXT = 1_000
"""Longer Encode text is not put in links (the page says so)."""
TALK_STEPS = 12
"""Steps of the guided talk (ui/talk/steps.py has one renderer each)."""
SESSION_RESULTS = 4
SESSION_MERGES = 40_000
"""Trained results a session keeps (switching back to an earlier setting is instant): at most four, with at most
40,000 merges in all besides the newest (a trained tokenizer holds ~0.6 KB of memory a merge)."""

Notice = tuple[str, str]
"""(level: info, success, warning or error; text, already safe as Markdown) shown once by the frame."""
PlayerStart = tuple[str, int, int]
"""(the tokenizer's request key, round, speed) the mounted merge player started from."""
ParallelTexts = dict[str, list[str]]
"""Language code -> its sentences, line i the same sentence in every language."""


def _for_kind(name: str) -> Any:
    """``carried`` for a field that only some kinds' links need (``playground.kinds.Kind.uses``)."""
    return lambda _, s: kind_of(s.kind).uses(name)


def _in_view(*views: str) -> Any:
    """``carried`` for a Compare field that only its view's link needs."""
    return lambda _, s: s.view in views


class Session(HasState):
    """The typed face of ``st.session_state`` (or of any mapping, in tests)."""

    # The tokenizer a page shows: every link carries these, so it can be retrained anywhere.
    corpus: Field[str] = Field(DEFAULT_SLUG, url="corpus", parse=one_of(CORPUS_CHOICES))
    kind: Field[str] = Field("byte", url="kind", parse=one_of(KINDS))
    vocab: Field[int] = Field(SLUGS[DEFAULT_SLUG].vocab_size, url="vocab", parse=whole_number(1, MAX_VOCAB))
    pattern: Field[str] = Field("gpt2", url="pattern", parse=one_of(PATTERN_CHOICES))
    regex: Field[str] = Field(r"\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+", url="regex", parse=short_text(1_000),
                              carried=lambda _, s: s.pattern == "custom")  # fmt: skip
    specials: Field[str] = Field("<|endoftext|>", url="specials", parse=short_text(500))
    # Percent of the corpus's lines held out from training (its last lines; of each language in a parallel corpus).
    holdout: Field[int] = Field(0, url="holdout", parse=whole_number(0, HOLDOUT_MAX), carried=lambda n, _: n > 0)
    # Superword tokens: merges within words up to `transition`, then across them.
    transition: Field[int] = Field(300, url="transition", parse=whole_number(0, MAX_VOCAB),
                                   carried=_for_kind("transition"))  # fmt: skip
    maxwords: Field[int] = Field(4, url="maxwords", parse=whole_number(1, MAX_WORDS),
                                 carried=_for_kind("maxwords"))  # fmt: skip
    # The interface language (playground.i18n reads it): a link's ``lang``, else the browser's, else English.
    lang: Field[str | None] = Field(None, url="lang", parse=one_of(tuple(LANGUAGES)),
                                    carried=lambda lang, _: lang != DEFAULT_LANG)  # fmt: skip
    # Talk mode (ui.stage): every page's link carries it, so a slide can open a view on the projector.
    talk: Field[bool] = Field(False, url="talk", parse=lambda text: one_of(("0", "1"))(text) == "1",
                              dump=lambda on: "1" if on else "0", carried=lambda on, _: on)  # fmt: skip
    step: Field[int] = Field(1, url="step", parse=whole_number(1, TALK_STEPS))  # the guided talk's step
    # Merges
    round: Field[int | None] = Field(None, url="round", parse=whole_number(0, 1_000_000))
    speed: Field[int] = Field(4, url="speed", parse=lambda text: int(one_of([str(s) for s in SPEEDS])(text)))
    word: Field[str] = Field("", url="word", parse=short_text(200), carried=lambda word, _: bool(word))
    merge_search: Field[str] = Field("")
    merge_table_page: Field[int] = Field(1)
    player_start: Field[PlayerStart | None] = Field(None, saved=False)
    # Encode (a tokenizer loaded from files cannot travel in a link)
    tokenizer: Field[str] = Field(TRAINED, url="tokenizer", parse=one_of((TRAINED, *REFERENCES)),
                                  carried=lambda choice, _: choice in (TRAINED, *REFERENCES))  # fmt: skip
    text: Field[str] = Field(ENCODE_SAMPLE, url="text", parse=short_text(MAX_LINK_TEXT),
                             carried=lambda text, _: len(text) <= MAX_LINK_TEXT)  # fmt: skip
    show_ids: Field[bool] = Field(False)
    # BPE-dropout: each merge skipped with this probability, samples drawn from the seed (links carry both when on).
    dropout: Field[float] = Field(0.0, url="dropout", parse=decimal_number(0, MAX_DROPOUT, places=2),
                                  dump=lambda p: f"{p:g}", carried=lambda p, _: p > 0)  # fmt: skip
    seed: Field[int] = Field(1, url="seed", parse=whole_number(0, MAX_SEED), carried=lambda _, s: s.dropout > 0)
    step_word: Field[str] = Field("")  # the word shown merge by merge
    # Compare
    view: Field[str] = Field("curve", url="view", parse=one_of(VIEWS))
    sizes: Field[list[int]] = Field(list, url="sizes", parse=number_list(1, MAX_VOCAB, MAX_SIZES), dump=comma_joined)
    refs: Field[list[str]] = Field(lambda: list(REFERENCES), url="refs", parse=name_list(REFERENCES), dump=comma_joined)
    heldout: Field[str] = Field(held_out.DEFAULT, url="heldout", parse=one_of(held_out.CHOICES))
    token: Field[int | None] = Field(None, url="token", parse=whole_number(0, 10_000_000))
    # The Compare page's own tokenizer choice: TRAINED, a loaded file, or (in ANY_TOKENIZER_VIEWS) a reference.
    compared: Field[str] = Field("", url="compared", parse=one_of((TRAINED, *REFERENCES)),
                                 carried=lambda name, s: name in REFERENCES and s.view in ANY_TOKENIZER_VIEWS)
    # Choose a vocab size: the model the vocabulary is for, the rule of the suggestion, rare tokens.
    d_model: Field[int] = Field(768, url="d_model", parse=whole_number(1, 100_000), carried=_in_view("choose"))
    tied: Field[bool] = Field(True, url="tied", parse=lambda text: one_of(("0", "1"))(text) == "1",
                              dump=lambda on: "1" if on else "0", carried=_in_view("choose"))
    min_gain: Field[float] = Field(0.5, url="min_gain", parse=decimal_number(0, 100), dump="{:g}".format,
                                   carried=_in_view("choose"))  # percent of the held-out tokens
    min_uses: Field[int] = Field(10, url="min_uses", parse=whole_number(1, 1_000_000), carried=_in_view("choose"))
    # Languages
    parallel: Field[str] = Field("default", url="parallel", parse=one_of(PARALLEL_CHOICES),
                                 carried=_in_view("languages"))
    cut_vocab: Field[int | None] = Field(None, url="cut_vocab", parse=whole_number(1, MAX_VOCAB),
                                         carried=_in_view("languages"))  # the trained tokenizer cut to this size
    pair_vocab: Field[int] = Field(1000, url="pair_vocab", parse=whole_number(300, 20_000),
                                   carried=_in_view("languages"))  # standard vs parity-aware BPE at this size
    parallel_own: Field[ParallelTexts | None] = Field(None)  # the user's own parallel texts (never in links)
    parallel_files: Field[list[UploadedFile] | None] = Field(None, uploader=True)
    parallel_problem: Field[str] = Field("")  # why the parallel files were refused
    # Health
    health_class: Field[str] = Field("all", url="class", parse=one_of(HEALTH_FILTERS), carried=_in_view("health"))
    health_search: Field[str] = Field("")
    health_page: Field[int] = Field(1)
    sizes_text: Field[str] = Field("")  # the box that edits `sizes` (kept as typed until it parses)
    heldout_box: Field[str] = Field("", saved=False)  # the held-out paste box (its text is kept in heldout_text)
    heldout_file: Field[UploadedFile | None] = Field(None, uploader=True)  # the held-out file uploader
    side_text: Field[str] = Field(
        "Tokenizers split text into tokens. The tokenizer learned merges from its training text.\n"
        "def tokenize(text): return [t for t in text.split()]\n"
        "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。"
    )
    vocab_search: Field[str] = Field("")
    vocab_sort: Field[str] = Field("merge round")
    vocab_descending: Field[bool] = Field(False)
    algo_text: Field[str] = Field(
        "Byte-pair encoding merges frequent pairs.\n字节对编码从字节开始，反复合并出现次数最多的相邻字节对。\n"
        "一个汉字在 UTF-8 中占三个字节。"
    )
    # Export
    format: Field[str] = Field("gpt2", url="format", parse=one_of(FORMATS))
    exported: Field[str] = Field(TRAINED)  # which tokenizer the Export page downloads
    # Check your BPE: the text (a built-in corpus travels in links; "" = the Train page's choice) and the learner's
    # settings; their merges, pasted or uploaded, never go into a link.
    check_corpus: Field[str] = Field(
        "", url="check_corpus", parse=one_of(tuple(SLUGS)), carried=lambda c, _: c in SLUGS
    )
    check_specials: Field[str] = Field("", url="check_specials", parse=short_text(500), carried=lambda v, _: bool(v))
    check_pattern: Field[str] = Field("gpt2", url="check_pattern", parse=one_of(NAMED_OR_NONE))
    check_classic: Field[bool] = Field(
        False,
        url="check_classic",
        parse=lambda text: one_of(("0", "1"))(text) == "1",
        dump=lambda on: "1" if on else "0",
        carried=lambda on, _: on,
    )
    check_input: Field[str] = Field("paste")  # the merges come from: paste, upload
    check_paste: Field[str] = Field("")  # the pasted merges
    check_file: Field[UploadedFile | None] = Field(None, uploader=True)  # merges.txt, .model, tokenizer.json
    check_vocab: Field[UploadedFile | None] = Field(None, uploader=True)  # an optional vocab.json beside it
    check_uploaded: Field[LearnerMerges | None] = Field(None, saved=False)  # the merges read from the files
    check_problem: Field[str] = Field("", saved=False)  # why the files were refused (shown until the next ones)
    checked: Field[Checked | None] = Field(None, saved=False)  # the last check's report

    # Kept but never in a link: the user's own text and what was made from it.
    paste_box: Field[str] = Field("", saved=False)  # the Train page's paste box (its text is kept in pasted_text)
    upload_box: Field[UploadedFile | None] = Field(None, uploader=True)  # the Train page's file uploader
    pasted: Field[Upload | None] = Field(None)  # the pasted corpus (its text, and its digest computed once)
    upload: Field[Upload | None] = Field(None)  # the last good upload
    upload_problem: Field[str] = Field("")  # why the file in the uploader was refused (shown until the next one)
    heldout_text: Field[Upload | None] = Field(None)  # pasted or uploaded held-out text
    heldout_problem: Field[str] = Field("")  # why the held-out file in the uploader was refused
    trained: Field[Trained | None] = Field(None)  # the session's tokenizer (ui.training.store)
    loaded: Field[dict[str, TokenizerShape]] = Field(dict)  # label -> tokenizer loaded from files
    import_round: Field[int] = Field(0)  # bumped after each load: it names a new, empty import uploader
    # This run and this page load only (ui.frame): never saved.
    notices: Field[list[Notice]] = Field(list, saved=False)
    cancelled: Field[str] = Field("", saved=False)  # "Training cancelled…" (Markdown-safe), until shown once
    running_job: Field[str] = Field("", saved=False)  # the key of the job whose Cancel button is on screen
    # Jobs that would start by themselves (a talk step's training) and were cancelled: they wait for a click now.
    stopped_jobs: Field[tuple[str, ...]] = Field((), saved=False)
    # The query strings this session last wrote or read (the newest last). A rerun can carry an address its browser
    # had not yet replaced (a click while the run before it was ending): that one is this session's own, not a link.
    link_signatures: Field[tuple[str, ...]] = Field((), saved=False)
    link_pending: Field[bool] = Field(False, saved=False)  # a just-opened link asks for its tokenizer
    workspace: Field[str] = Field("", saved=False)  # this tab's id in the reload store (the ?ws= parameter)
    browser: Field[str] = Field("", saved=False)  # this browser's id (a cookie), which owns its workspaces
    results: Field[LRU[str, Trained]] = Field(lambda: LRU(SESSION_RESULTS, max_weight=SESSION_MERGES,
                                                          weight=lambda trained: trained.num_merges), saved=False)
    scroll_to: Field[str] = Field("", saved=False)  # an element the browser should scroll to after this run
    page: Field[str] = Field("train", saved=False)  # the page this run shows (its link is written after it ran)

    def __init__(self, state: State):
        self.state = state

    def initialize(self) -> None:
        """Give every field its default (before any widget bound to one is drawn)."""
        for field in FIELDS.values():
            if field.key not in self.state and not field.uploader:
                self.state[field.key] = field.initial()

    def notice(self, level: str, markdown: str) -> None:
        """Queue a message for the frame to show once (``markdown`` must already be safe)."""
        self.notices.append((level, markdown))


FIELDS: dict[str, Field[Any]] = {name: value for name, value in vars(Session).items() if isinstance(value, Field)}
URL_FIELDS: dict[str, Field[Any]] = {field.url: field for field in FIELDS.values() if field.url}
TOKENIZER_FIELDS = ("corpus", "kind", "vocab", "pattern", "regex", "specials", "holdout", "transition", "maxwords")
PAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "train": TOKENIZER_FIELDS,
    "merges": (*TOKENIZER_FIELDS, "round", "speed", "word"),
    "encode": (*TOKENIZER_FIELDS, "tokenizer", "text", "dropout", "seed"),
    "compare": (*TOKENIZER_FIELDS, "view", "sizes", "refs", "heldout", "token", "compared", "d_model", "tied",
                "min_gain", "min_uses", "parallel", "cut_vocab", "pair_vocab", "health_class"),
    "export": (*TOKENIZER_FIELDS, "format"),
    "check": ("check_corpus", "check_specials", "check_pattern", "check_classic"),
    "talk": ("step",),
}
"""Which fields each page's link carries, besides every page's :data:`SHARED_FIELDS`."""
SHARED_FIELDS = ("lang", "talk")
