"""Every value a session keeps, declared once and grouped by its owner: name, type, default, URL form and
whether a reload keeps it.

Pages read and write the session only through :class:`Session` (``s = ui.state.current()``, ``s.vocab``); a
widget binds to a field by its key (``key=Session.vocab.key``). A :class:`Session` is its owners together: the
tokenizer's settings (every page's link but the talk's carries them), what every link carries (language, talk
mode), each page's own state (:mod:`playground.page_state`), the work a person made, and what lasts one run.
Each field's URL form is declared with it (:mod:`playground.fields`), and which pages' links carry it by its
owner; :mod:`playground.links` reads and writes links from those declarations alone.

>>> Session({}).vocab, Session.vocab.url
(600, 'vocab')
>>> PAGE_FIELDS["talk"], SHARED_FIELDS, "round" in PAGE_FIELDS["merges"]
(('step', 'talk_refs'), ('lang', 'talk'), True)
"""

from __future__ import annotations

from typing import Any, ClassVar

from bpe_core import TokenizerShape
from playground.bases import BYTES, MAX_EXTENDED_VOCAB, is_file, parse_base
from playground.corpora import CORPUS_CHOICES, DEFAULT_SLUG, SLUGS
from playground.fields import Field, State, dump_on_off, on_off, one_of, short_text, whole_number
from playground.i18n import DEFAULT as DEFAULT_LANG
from playground.i18n import LANGUAGES, Later
from playground.kinds import FORMATS, KINDS, MAX_VOCAB, VIEWS, kind_of
from playground.page_state import (
    ANY_TOKENIZER_VIEWS,
    HEALTH_FILTERS,
    MAX_DROPOUT,
    MAX_LINK_TEXT,
    MAX_SEED,
    MAX_SIZES,
    OVERLAP_SCRIPTS,
    PARALLEL_CHOICES,
    REFERENCES,
    SPEEDS,
    TALK_STEPS,
    TRAINED,
    CheckState,
    CompareState,
    EncodeState,
    ExportState,
    MergesState,
    OwnedState,
    ParallelTexts,
    PlayerStart,
    TalkState,
    UploadedFile,
    fields_of,
)
from playground.patterns import PATTERN_CHOICES
from playground.text_files import Upload
from playground.trained import Trained
from runtime.lru import LRU

__all__ = [  # the page state's names too: pages and views import what they show from here
    "ANY_TOKENIZER_VIEWS",
    "FIELDS",
    "FORMATS",
    "HEALTH_FILTERS",
    "HOLDOUT_MAX",
    "KINDS",
    "MAX_ALPHABET",
    "MAX_DROPOUT",
    "MAX_KEEP_CHARS",
    "MAX_MIN_FREQ",
    "MAX_TOKEN_LENGTH",
    "MAX_LINK_TEXT",
    "MAX_SEED",
    "MAX_SIZES",
    "MAX_VOCAB",
    "MAX_WORDS",
    "OVERLAP_SCRIPTS",
    "PAGE_FIELDS",
    "PARALLEL_CHOICES",
    "REFERENCES",
    "SHARED_FIELDS",
    "SPEEDS",
    "TALK_STEPS",
    "TIE_RULES",
    "TOKENIZER_FIELDS",
    "TRAINED",
    "URL_FIELDS",
    "VIEWS",
    "ParallelTexts",
    "PlayerStart",
    "Session",
    "UploadedFile",
]

HOLDOUT_MAX = 50
TIE_RULES = ("greatest", "first", "hf")
"""The tie rules the Train page offers (``bpe_core.train``'s ``tie_break``): the greatest pair (CS336, the default),
the first seen (minbpe, Sennrich et al.), Hugging Face's (smallest ids)."""
MAX_WORDS = 16
"""The largest cap on words per superword token a link may ask for (SuperBPE uses 4)."""
MAX_MIN_FREQ = 100_000_000
MAX_TOKEN_LENGTH = 10_000
MAX_ALPHABET = 1_000_000
MAX_KEEP_CHARS = 500
"""The trainer options' bounds (a link's too): a pair count, a token's length, an alphabet's size, kept characters."""
SESSION_RESULTS = 4
SESSION_MERGES = 40_000
"""Trained results a session keeps (switching back to an earlier setting is instant): at most four, with at most
40,000 merges in all besides the newest (a trained tokenizer holds ~0.6 KB of memory a merge)."""

Notice = tuple[str, str | Later]
"""(level: info, success, warning or error; text, already safe as Markdown) shown once by the frame."""


def _for_kind(name: str) -> Any:
    """``carried`` for a field that only some kinds' links need (``playground.kinds.Kind.uses``)."""
    return lambda _, s: kind_of(s.kind).uses(name)


def _unless_continuing(_: Any, s: Any) -> bool:
    """``carried`` for a setting a base decides (pre-tokenization, special tokens): a link that names a base to
    continue carries neither (the session's own values are not what trains)."""
    return not (s.base != BYTES and kind_of(s.kind).uses("base"))


def _option(name: str) -> Any:
    """``carried`` for a trainer option: on (not 0 or empty), for a kind that takes it."""
    return lambda value, s: bool(value) and kind_of(s.kind).uses(name) and not (isinstance(value, int) and value < 0)


class TokenizerSettings(OwnedState):
    """The tokenizer a page shows: every page's link but the talk's carries these, so it can be retrained
    anywhere (``playground.trained.Request.settings`` gives them back from a request)."""

    link_pages: ClassVar[tuple[str, ...]] = ("train", "merges", "encode", "compare", "export")
    corpus: Field[str] = Field(DEFAULT_SLUG, url="corpus", parse=one_of(CORPUS_CHOICES))
    kind: Field[str] = Field("byte", url="kind", parse=one_of(KINDS))
    # (up to a big base + new merges: from bytes the Train button refuses more than MAX_VOCAB, saying why)
    vocab: Field[int] = Field(SLUGS[DEFAULT_SLUG].vocab_size, url="vocab", parse=whole_number(1, MAX_EXTENDED_VOCAB))
    pattern: Field[str] = Field("gpt2", url="pattern", parse=one_of(PATTERN_CHOICES), carried=_unless_continuing)
    regex: Field[str] = Field(
        r"\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+",
        url="regex",
        parse=short_text(1_000),
        carried=lambda value, s: s.pattern == "custom" and _unless_continuing(value, s),
    )
    specials: Field[str] = Field("<|endoftext|>", url="specials", parse=short_text(500), carried=_unless_continuing)
    # Percent of the corpus's lines held out from training (its last lines; of each language in a parallel corpus).
    holdout: Field[int] = Field(0, url="holdout", parse=whole_number(0, HOLDOUT_MAX), carried=lambda n, _: n > 0)
    # The tie rule of the tutorial followed (TIE_RULES): links carry it only when it is not the default.
    ties: Field[str] = Field(
        "greatest",
        url="ties",
        parse=one_of(TIE_RULES),
        carried=lambda rule, s: rule != "greatest" and kind_of(s.kind).uses("ties"),
    )
    # Superword tokens: merges within words up to `transition`, then across them.
    transition: Field[int] = Field(
        300, url="transition", parse=whole_number(0, MAX_VOCAB), carried=_for_kind("transition")
    )
    maxwords: Field[int] = Field(4, url="maxwords", parse=whole_number(1, MAX_WORDS), carried=_for_kind("maxwords"))
    # Where training starts (playground.bases): bytes, a built-in byte-level model, or a loaded file (never in links).
    base: Field[str] = Field(
        BYTES,
        url="base",
        parse=parse_base,
        carried=lambda base, s: base != BYTES and not is_file(base) and kind_of(s.kind).uses("base"),
    )
    # The trainer options (0 / "": off), for the kinds whose row lists them (playground.kinds.Kind.options):
    # minimum pair count, longest token (bytes; classic: characters), classic's limited alphabet and kept characters.
    min_freq: Field[int] = Field(0, url="min_freq", parse=whole_number(0, MAX_MIN_FREQ), carried=_option("min_freq"))
    max_len: Field[int] = Field(0, url="max_len", parse=whole_number(0, MAX_TOKEN_LENGTH), carried=_option("max_len"))
    alphabet: Field[int] = Field(0, url="alphabet", parse=whole_number(0, MAX_ALPHABET), carried=_option("alphabet"))
    keep_chars: Field[str] = Field(
        "", url="keep_chars", parse=short_text(MAX_KEEP_CHARS), carried=_option("keep_chars")
    )


class EveryLink(OwnedState):
    """What every page's link carries: the interface language (``playground.i18n`` reads it: a link's ``lang``,
    else the browser's, else English) and talk mode (``ui.stage``: a slide can open any view on the projector)."""

    lang: Field[str | None] = Field(
        None, url="lang", parse=one_of(tuple(LANGUAGES)), carried=lambda lang, _: lang != DEFAULT_LANG
    )
    talk: Field[bool] = Field(False, url="talk", parse=on_off, dump=dump_on_off, carried=lambda on, _: on)


class MadeWork(OwnedState):
    """What a person brought and made: kept on disk (``playground.workspace``), never in a link."""

    paste_box: Field[str] = Field("", saved=False)  # the Train page's paste box (its text is kept in `pasted`)
    upload_box: Field[UploadedFile | None] = Field(None, uploader=True)  # the Train page's file uploader
    pasted: Field[Upload | None] = Field(None)  # the pasted corpus (its text, and its digest computed once)
    upload: Field[Upload | None] = Field(None)  # the last good upload
    upload_problem: Field[str] = Field("")  # why the file in the uploader was refused (shown until the next one)
    heldout_text: Field[Upload | None] = Field(None)  # pasted or uploaded held-out text
    heldout_problem: Field[str] = Field("")  # why the held-out file in the uploader was refused
    trained: Field[Trained | None] = Field(None)  # the session's tokenizer (ui.page_training.store)
    # The session's own training while its job runs ("" otherwise); saved, so that a run stopped by leaving the page
    # or reloading it (which stops the job) leaves it set, and the next run, or the reload, says the training stopped.
    training_label: Field[str] = Field("")
    loaded: Field[dict[str, TokenizerShape]] = Field(dict)  # label -> tokenizer loaded from files
    import_round: Field[int] = Field(0)  # bumped after each load or refusal: it names a new, empty import uploader
    import_problem: Field[str] = Field("", saved=False)  # why the import box's last files were refused (Markdown-safe)
    # The import box's pattern, for files that hold none (a tiktoken file of no known model, GPT-2's pair):
    # "auto" (the file's own, or its model's when recognised), a name in bpe_core.PATTERNS, or "regex".
    import_pattern: Field[str] = Field("auto")
    import_regex: Field[str] = Field("")  # the regex when import_pattern is "regex" (at most 1,000 characters)


class ThisRun(OwnedState):
    """This run and this page load only (``ui.frame``): never saved."""

    notices: Field[list[Notice]] = Field(list, saved=False)
    # The notices the last run showed, and whether this run only redraws the page for the browser's new width (talk
    # mode's keys report it after the first run): such a run shows them again, where a person's action ends them.
    shown_notices: Field[list[Notice]] = Field(list, saved=False)
    width_rerun: Field[bool] = Field(False, saved=False)
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
    results: Field[LRU[str, Trained]] = Field(
        lambda: LRU(SESSION_RESULTS, max_weight=SESSION_MERGES, weight=lambda trained: trained.weight),
        saved=False,
    )
    scroll_to: Field[str] = Field("", saved=False)  # an element the browser should scroll to after this run
    page: Field[str] = Field("train", saved=False)  # the page this run shows (its link is written after it ran)


class Session(
    TokenizerSettings,
    EveryLink,
    MergesState,
    EncodeState,
    CompareState,
    ExportState,
    CheckState,
    TalkState,
    MadeWork,
    ThisRun,
):
    """The typed face of ``st.session_state`` (or of any mapping, in tests): every owner's fields together."""

    def __init__(self, state: State):
        self.state = state

    def initialize(self) -> None:
        """Give every field its default (before any widget bound to one is drawn)."""
        for field in FIELDS.values():
            if field.key not in self.state and not field.uploader:
                self.state[field.key] = field.initial()

    def notice(self, level: str, markdown: str | Later) -> None:
        """Queue a message for the frame to show once (``markdown`` must already be safe; a ``Later`` is translated
        when shown, in the language the page is then drawn in: a link's ``lang`` is read after a restore)."""
        self.notices.append((level, markdown))


OWNERS: tuple[type[OwnedState], ...] = Session.__bases__
"""Every group of fields, by who owns it (a test says no field is declared twice)."""
FIELDS: dict[str, Field[Any]] = {name: field for owner in OWNERS for name, field in fields_of(owner).items()}
URL_FIELDS: dict[str, Field[Any]] = {field.url: field for field in FIELDS.values() if field.url}
TOKENIZER_FIELDS: tuple[str, ...] = tuple(fields_of(TokenizerSettings))
SHARED_FIELDS: tuple[str, ...] = tuple(name for name, field in fields_of(EveryLink).items() if field.url)


def _page_fields() -> dict[str, tuple[str, ...]]:
    """The URL fields of the owners that name each page in their ``link_pages``."""
    found: dict[str, tuple[str, ...]] = {}
    for owner in OWNERS:
        carried = tuple(name for name, field in fields_of(owner).items() if field.url)
        for page in owner.link_pages:
            found[page] = (*found.get(page, ()), *carried)
    return found


PAGE_FIELDS = _page_fields()
"""Which fields each page's link carries, besides every page's :data:`SHARED_FIELDS`."""
