"""Each page's own session values, one class per owner (the Merges player, Encode, Compare, Export, Check, the guided
talk), declared as :class:`playground.fields.Field` s with their URL form. :class:`playground.session.Session`
is all of them together; an owner's ``link_pages`` says which pages' links carry its URL fields, so the lists a
link is written from are derived from these declarations (``playground.session.PAGE_FIELDS``), never kept by hand.

>>> [name for name, field in fields_of(MergesState).items() if field.url]
['round', 'speed', 'word', 'predict', 'pairs_round']
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from bpe_core.analysis.check import LearnerMerges
from bpe_core.analysis.overlap import LISTS as OVERLAP_LISTS
from bpe_core.analysis.overlap import SCRIPTS
from playground import heldout_texts as held_out
from playground.check import Checked
from playground.corpora import ENCODE_SAMPLE, SLUGS
from playground.fields import (
    Field,
    HasState,
    comma_joined,
    decimal_number,
    dump_on_off,
    name_list,
    number_list,
    on_off,
    one_of,
    short_text,
    whole_number,
)
from playground.i18n import language
from playground.kinds import FORMATS, VIEWS
from playground.patterns import NAMED_OR_NONE
from playground.references import (
    DEFAULT_REFERENCES,
    MAX_SHOWN_VOCAB,
    REFERENCES,
    STUDIED_REFERENCES,
    language_defaults,
)
from playground.text_files import Upload

ANY_TOKENIZER_VIEWS = ("choose", "languages", "health", "overlap")
"""Views that also study the reference tokenizers (the others study what was trained or loaded)."""
PARALLEL_CHOICES = ("default", "all", "heldout", "own")
"""The languages view's parallel text: the one for its tokenizer, the built-in sample (all 40 sentences, or the
10 its corpus holds out), or the user's own files."""
HEALTH_FILTERS = ("all", "partial", "invalid", "split", "unbuilt", "whole", "never", "intermediate")
"""The health view's list: every class, or one (``ui.compare.health`` names them)."""
OVERLAP_SCRIPTS = ("all", *SCRIPTS)
"""The overlap view's list: every script, or one (``bpe_core.analysis.overlap.SCRIPTS``)."""
SPEEDS = (1, 2, 4, 8, 15, 30, 60, 120, 240)
TRAINED = "trained"
"""The Encode page's tokenizer choice for the one trained in this session."""
MAX_SIZES = 4
MAX_DROPOUT = 0.99
MAX_SEED = 1_000_000
MAX_LINK_TEXT = 1_000
"""Longer Encode text is not put in links (the page says so)."""
TALK_STEPS = 13
"""Steps of the guided talk (ui/talk/steps.py has one renderer each)."""

PlayerStart = tuple[str, int, int]
"""(the tokenizer's request key, round, speed) the mounted merge player started from."""
ParallelTexts = dict[str, list[str]]
"""Language code -> its sentences, line i the same sentence in every language."""


class UploadedFile(Protocol):
    """What the model reads of a file in an uploader (Streamlit's ``UploadedFile``; this package imports no
    Streamlit)."""

    name: str
    file_id: str

    def getvalue(self) -> bytes: ...


def fields_of(owner: type) -> dict[str, Field[Any]]:
    """The fields ``owner`` declares itself (not its bases'), in declaration order."""
    return {name: value for name, value in vars(owner).items() if isinstance(value, Field)}


def _in_view(*views: str) -> Any:
    """``carried`` for a Compare field that only its view's link needs."""
    return lambda _, s: s.view in views


class OwnedState(HasState):
    """A group of fields one page or concern owns; ``link_pages``: the pages whose links carry its URL fields."""

    link_pages: ClassVar[tuple[str, ...]] = ()


TALK_MODELS = 3
"""Step 8's columns: three fit a 1280×720 slide side by side (a fourth went below them, off the screen)."""


class TalkState(OwnedState):
    """The guided talk (``pages/5_Talk.py``)."""

    link_pages: ClassVar[tuple[str, ...]] = ("talk",)
    step: Field[int] = Field(1, url="step", parse=whole_number(1, TALK_STEPS))
    # Step 8's tokenizers (empty: the page language's defaults); a link carries the speaker's choice to the room.
    talk_refs: Field[list[str]] = Field(
        list,
        url="models",
        parse=name_list(REFERENCES, most=TALK_MODELS),
        dump=comma_joined,
        carried=lambda names, s: bool(names) and names != language_defaults(s.lang or language()),
    )


class MergesState(OwnedState):
    """The Merges page: the player's round, speed and picked word; the merge table's search and page."""

    link_pages: ClassVar[tuple[str, ...]] = ("merges",)
    round: Field[int | None] = Field(None, url="round", parse=whole_number(0, 1_000_000))
    speed: Field[int] = Field(4, url="speed", parse=lambda text: int(one_of([str(s) for s in SPEEDS])(text)))
    # A pre-token can be a whole line (no pre-tokenization): a link carries one of up to 200 characters.
    word: Field[str] = Field("", url="word", parse=short_text(200), carried=lambda word, _: 0 < len(word) <= 200)
    # Predict the next merge: the player asks before each round (ui/player_predict.js; its score lives there).
    predict: Field[bool] = Field(False, url="predict", parse=on_off, dump=dump_on_off, carried=lambda on, _: on)
    pairs_round: Field[int | None] = Field(
        None, url="pairs", parse=whole_number(1, 1_000_000), carried=lambda k, _: k is not None
    )  # the round whose every pair is listed (None: the one after the player's)
    merge_search: Field[str] = Field("")
    merge_table_page: Field[int] = Field(1)
    player_start: Field[PlayerStart | None] = Field(None, saved=False)


class EncodeState(OwnedState):
    """The Encode page (a tokenizer loaded from files cannot travel in a link), with BPE-dropout: each merge
    skipped with this probability, samples drawn from the seed (links carry both when on)."""

    link_pages: ClassVar[tuple[str, ...]] = ("encode",)
    tokenizer: Field[str] = Field(
        TRAINED,
        url="tokenizer",
        parse=one_of((TRAINED, *REFERENCES)),
        carried=lambda choice, _: choice in (TRAINED, *REFERENCES),
    )
    text: Field[str] = Field(
        ENCODE_SAMPLE, url="text", parse=short_text(MAX_LINK_TEXT), carried=lambda text, _: len(text) <= MAX_LINK_TEXT
    )
    show_ids: Field[bool] = Field(False)
    dropout: Field[float] = Field(
        0.0,
        url="dropout",
        parse=decimal_number(0, MAX_DROPOUT, places=2),
        dump="{:g}".format,
        carried=lambda p, _: p > 0,
    )
    seed: Field[int] = Field(1, url="seed", parse=whole_number(0, MAX_SEED), carried=lambda _, s: s.dropout > 0)
    step_word: Field[str] = Field("")  # the word shown merge by merge
    # Tokenizers shown side by side with the page's own: TRAINED, references, loaded files (links carry the first two).
    also: Field[list[str]] = Field(
        list,
        url="also",
        parse=name_list((TRAINED, *REFERENCES)),
        dump=lambda names: comma_joined([name for name in names if name in (TRAINED, *REFERENCES)]),
        carried=lambda names, _: any(name in (TRAINED, *REFERENCES) for name in names),
    )
    decode_ids: Field[str] = Field("")  # ids typed to be decoded back into text


class CompareState(OwnedState):
    """The Compare page: the view, and each view's own settings (a link carries those of its view only)."""

    link_pages: ClassVar[tuple[str, ...]] = ("compare",)
    view: Field[str] = Field("curve", url="view", parse=one_of(VIEWS))
    # Sizes up to the biggest vocabulary a page shows (Qwen 3.6's 248,077 is among its own defaults; an extended base).
    sizes: Field[list[int]] = Field(
        list, url="sizes", parse=number_list(1, MAX_SHOWN_VOCAB, MAX_SIZES), dump=comma_joined
    )
    # The references a view compares with: OpenAI's three by default, any built-in model when chosen.
    refs: Field[list[str]] = Field(
        lambda: list(DEFAULT_REFERENCES), url="refs", parse=name_list(REFERENCES), dump=comma_joined
    )
    heldout: Field[str] = Field(held_out.DEFAULT, url="heldout", parse=one_of(held_out.CHOICES))
    token: Field[int | None] = Field(None, url="token", parse=whole_number(0, 10_000_000))
    # The page's own tokenizer choice: TRAINED, a loaded file, or (in ANY_TOKENIZER_VIEWS) any built-in model
    # (DeepSeek V4's pipeline and Mistral 7B v3's SentencePiece included: bpe_core.analysis.ladder cuts each to a size).
    compared: Field[str] = Field(
        "",
        url="compared",
        parse=one_of((TRAINED, *STUDIED_REFERENCES)),
        carried=lambda name, s: name in STUDIED_REFERENCES and s.view in ANY_TOKENIZER_VIEWS,
    )
    # Choose a vocab size: the model the vocabulary is for, the rule of the suggestion (percent of the held-out
    # tokens), rare tokens.
    d_model: Field[int] = Field(768, url="d_model", parse=whole_number(1, 100_000), carried=_in_view("choose"))
    tied: Field[bool] = Field(True, url="tied", parse=on_off, dump=dump_on_off, carried=_in_view("choose"))
    min_gain: Field[float] = Field(
        0.5, url="min_gain", parse=decimal_number(0, 100), dump="{:g}".format, carried=_in_view("choose")
    )
    min_uses: Field[int] = Field(10, url="min_uses", parse=whole_number(1, 1_000_000), carried=_in_view("choose"))
    # Languages: the parallel text, the trained tokenizer cut to a size, standard vs parity-aware BPE at a size.
    parallel: Field[str] = Field(
        "default", url="parallel", parse=one_of(PARALLEL_CHOICES), carried=_in_view("languages")
    )
    cut_vocab: Field[int | None] = Field(
        None, url="cut_vocab", parse=whole_number(1, MAX_SHOWN_VOCAB), carried=_in_view("languages")
    )
    pair_vocab: Field[int] = Field(
        1000, url="pair_vocab", parse=whole_number(300, 20_000), carried=_in_view("languages")
    )
    parallel_own: Field[ParallelTexts | None] = Field(None)  # the user's own parallel texts (never in links)
    parallel_files: Field[list[UploadedFile] | None] = Field(None, uploader=True)
    parallel_problem: Field[str] = Field("")  # why the parallel files were refused
    # Health
    health_class: Field[str] = Field("all", url="class", parse=one_of(HEALTH_FILTERS), carried=_in_view("health"))
    health_search: Field[str] = Field("")
    health_page: Field[int] = Field(1)
    # Overlap: the tokenizer B that the page's tokenizer (A) is compared with (a file's never travels in links;
    # "": not chosen yet, the first one that is not A), and the list shown: shared, only in A or only in B, of one
    # script or all.
    overlap_with: Field[str] = Field(
        "",
        url="with",
        parse=one_of((TRAINED, *REFERENCES)),
        carried=lambda name, s: s.view == "overlap" and name in (TRAINED, *REFERENCES),
    )
    overlap_list: Field[str] = Field("only_a", url="list", parse=one_of(OVERLAP_LISTS), carried=_in_view("overlap"))
    overlap_script: Field[str] = Field(
        "all", url="script", parse=one_of(OVERLAP_SCRIPTS), carried=lambda v, s: v != "all" and s.view == "overlap"
    )
    overlap_search: Field[str] = Field("")
    overlap_page: Field[int] = Field(1)
    sizes_text: Field[str] = Field("")  # the box that edits `sizes` (kept as typed until it parses)
    sizes_default_for: Field[str] = Field("")  # whose own sizes `sizes` are ("": typed, or a link's)
    heldout_box: Field[str] = Field("", saved=False)  # the held-out paste box (its text is kept in heldout_text)
    # The held-out files' uploader (several files: one part each), and each file's text by its id, decoded once.
    heldout_file: Field[list[UploadedFile] | None] = Field(None, uploader=True)
    heldout_taken: Field[dict[str, Upload]] = Field(dict, saved=False)
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


class ExportState(OwnedState):
    """The Export page: the format, and which tokenizer it downloads."""

    link_pages: ClassVar[tuple[str, ...]] = ("export",)
    format: Field[str] = Field("gpt2", url="format", parse=one_of(FORMATS))
    exported: Field[str] = Field(TRAINED)


class CheckState(OwnedState):
    """Check your BPE: the text (a built-in corpus travels in links; "" = the Train page's choice) and the
    learner's settings; their merges, pasted or uploaded, never go into a link."""

    link_pages: ClassVar[tuple[str, ...]] = ("check",)
    check_corpus: Field[str] = Field(
        "", url="check_corpus", parse=one_of(tuple(SLUGS)), carried=lambda c, _: c in SLUGS
    )
    check_specials: Field[str] = Field("", url="check_specials", parse=short_text(500), carried=lambda v, _: bool(v))
    check_pattern: Field[str] = Field("gpt2", url="check_pattern", parse=one_of(NAMED_OR_NONE))
    check_classic: Field[bool] = Field(
        False, url="check_classic", parse=on_off, dump=dump_on_off, carried=lambda on, _: on
    )
    check_input: Field[str] = Field("paste")  # the merges come from: paste, upload
    check_paste: Field[str] = Field("")  # the pasted merges
    check_file: Field[UploadedFile | None] = Field(None, uploader=True)  # merges.txt, .model, tokenizer.json
    check_vocab: Field[UploadedFile | None] = Field(None, uploader=True)  # an optional vocab.json beside it
    check_uploaded: Field[LearnerMerges | None] = Field(None, saved=False)  # the merges read from the files
    check_problem: Field[str] = Field("", saved=False)  # why the files were refused (shown until the next ones)
    checked: Field[Checked | None] = Field(None, saved=False)  # the last check's report
