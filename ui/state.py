"""Session state shared by every page, and training with caching and cancellation.

Every page starts with ``setup_page(...)``: opening any page directly by URL on a fresh server
works because nothing relies on ``app.py`` having run first.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from ui import tokens as tok_ui
from ui.corpora import DEFAULT_SAMPLE, SAMPLES, load_sample

PATTERN_CHOICES = ("gpt2", "cl100k", "o200k", "whitespace", "none", "custom")
PATTERN_LABELS = {
    "gpt2": "gpt2 (GPT-2 regex)",
    "cl100k": "cl100k (GPT-4 regex)",
    "o200k": "o200k (GPT-4o regex)",
    "whitespace": "whitespace (runs of non-space / space)",
    "none": "none (merges may cross words)",
    "custom": "custom regex…",
}
KIND_BYTE = "byte"
KIND_CLASSIC = "classic"
KIND_LABELS = {
    KIND_BYTE: "Byte-level (GPT-2 style)",
    KIND_CLASSIC: "Classic (Sennrich: characters + </w>)",
}

STATS_SAMPLE_BYTES = 256 * 1024  # bytes per token is measured on (at most) this much of the corpus
PREVIEW_CHARS = 1500  # the highlighted sample / the Merges window
CACHE_SIZE = 4  # trained results kept per session, keyed by digest of (text, settings)

# Defaults for session keys. Widget values that must survive page switches are kept here
# (widgets also use persist_state="session").
DEFAULTS: dict[str, Any] = {
    "corpus_source": DEFAULT_SAMPLE,
    "vocab_size": SAMPLES[DEFAULT_SAMPLE].vocab_size,
    "pattern_choice": "gpt2",
    "custom_regex": r"\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+",
    "special_tokens_text": "<|endoftext|>",
    "kind": KIND_BYTE,
    "pasted_text": "",  # the pasted corpus, held here (not in the text box) once it is big
    "upload": None,  # {"name", "text", "replaced", "digest"} of the last good upload
    "trained": None,  # Trained
    "train_cache": None,  # OrderedDict[digest, Trained]
    "loaded_tokenizers": None,  # dict[label, Tokenizer] loaded from files on the Encode page
    "merge_round": 0,
    "last_message": None,  # (level, text) shown once on the Train page
}


@dataclass
class Trained:
    """A trained tokenizer and everything the pages show about it."""

    kind: str
    result: Any  # bpe_core.TrainResult or bpe_core.ClassicResult
    settings: dict
    corpus_label: str
    corpus_chars: int
    corpus_bytes: int
    digest: str
    window_text: str  # the start of the training text: the Merges window and the highlighted sample
    stats: dict = field(default_factory=dict)
    label: str = ""
    extras: dict = field(default_factory=dict)  # derived views computed once (frames, tables)

    @property
    def tokenizer(self):
        return self.result.tokenizer

    @property
    def trace(self):
        return self.result.trace

    @property
    def num_merges(self) -> int:
        return len(self.result.trace)


def init_state() -> None:
    ss = st.session_state
    for key, value in DEFAULTS.items():
        if key not in ss:
            ss[key] = value
    if ss["train_cache"] is None:
        ss["train_cache"] = OrderedDict()
    if ss["loaded_tokenizers"] is None:
        ss["loaded_tokenizers"] = {}


def setup_page(title: str, icon: str = "🔤") -> None:
    """The first call of every page: page config, session defaults, shared CSS, sidebar status."""
    st.set_page_config(page_title=f"{title} · BPE Playground", page_icon=icon, layout="wide")
    init_state()
    from ui import share  # settings carried in a share link (?corpus=...&vocab=...) pre-fill the session

    share.consume_link(title)
    st.html(GLOBAL_CSS)
    trained = current()
    with st.sidebar:
        _navigation()
        st.divider()
        if trained is None:
            st.caption("No tokenizer trained yet in this session.")
        else:
            st.caption(f"Current tokenizer: **{_md_escape(trained.label)}**")


PAGE_ICONS = {"Merges": ":material/animation:", "Encode": ":material/text_fields:", "Compare": ":material/compare:"}


def _navigation() -> None:
    """Sidebar links: Train (app.py) then every page in pages/, in file-name order, so a later
    pages/3_Compare.py shows up by itself. (Streamlit's own list would call the home page "app".)"""
    from pathlib import Path

    st.page_link("app.py", label="Train", icon=":material/model_training:")
    pages_dir = Path(__file__).resolve().parent.parent / "pages"
    for path in sorted(pages_dir.glob("*.py")):
        name = path.stem.split("_", 1)[-1] if path.stem[:1].isdigit() else path.stem
        label = name.replace("_", " ")
        st.page_link(f"pages/{path.name}", label=label, icon=PAGE_ICONS.get(label, ":material/article:"))


def human_bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def current() -> Trained | None:
    return st.session_state.get("trained")


def _md_escape(text: str) -> str:
    """Escape text shown inside Markdown (labels are built from file names, so never trusted)."""
    out = []
    for ch in text:
        if ch in "\\`*_{}[]()#+-.!|<>~$&:":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


md_escape = _md_escape


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def settings_digest(text_sha: str, settings: dict) -> str:
    blob = json.dumps({"text": text_sha, **settings}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def parse_special_tokens(text: str) -> list[str]:
    """Special tokens are separated by whitespace; duplicates dropped, order kept."""
    seen: list[str] = []
    for token in text.split():
        if token not in seen:
            seen.append(token)
    return seen


def resolve_pattern(choice: str, custom: str) -> str | None:
    """The ``pattern`` argument for bpe_core: a name, a regex, or None. Raises ValueError."""
    from bpe_core.pretokenize import compile_pattern

    if choice == "none":
        return None
    if choice == "custom":
        if not custom.strip():
            raise ValueError("The custom pre-tokenization regex is empty: type a regex or pick a named pattern.")
        compile_pattern(custom)  # ValueError names the problem
        return custom
    return choice


class TrainingStopped(Exception):
    """Training did not finish (cancelled or bad input); the message is for the user."""


def train_corpus(
    text: str,
    *,
    kind: str,
    vocab_size: int,
    pattern: str | None,
    special_tokens: list[str],
    corpus_label: str,
    text_sha: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Trained, bool]:
    """Train (or fetch from the session cache). Returns (trained, from_cache).

    Raises TrainingStopped with a user-facing message for bad input or cancellation. Streamlit's
    own control-flow exceptions (a rerun or stop requested while training) are BaseExceptions and
    pass through untouched: that is how the Cancel button interrupts a run.
    """
    import bpe_core

    if not text:
        raise TrainingStopped("The corpus is empty: paste some text, upload a .txt file or pick a sample.")
    if not text.strip() and kind == KIND_CLASSIC:
        raise TrainingStopped("The corpus has only whitespace: classic BPE has no words to train on.")
    settings = {
        "kind": kind,
        "vocab_size": int(vocab_size),
        "pattern": pattern if kind == KIND_BYTE else "whitespace-split",
        "special_tokens": list(special_tokens) if kind == KIND_BYTE else [],
    }
    digest = settings_digest(text_sha or text_digest(text), settings)
    cache: OrderedDict = st.session_state.setdefault("train_cache", OrderedDict())
    if digest in cache:
        cache.move_to_end(digest)
        return cache[digest], True
    try:
        if kind == KIND_CLASSIC:
            result = bpe_core.train_classic(text, int(vocab_size), progress=progress)
        else:
            result = bpe_core.train(
                text, int(vocab_size), special_tokens=special_tokens, pattern=pattern, progress=progress
            )
    except bpe_core.TrainingCancelled:
        raise TrainingStopped("Training cancelled. The previous tokenizer and settings are kept.") from None
    except (ValueError, TypeError) as error:
        raise TrainingStopped(f"Cannot train: {error}") from None
    except MemoryError:
        raise TrainingStopped("Cannot train: out of memory. Try a smaller corpus.") from None
    trained = Trained(
        kind=kind,
        result=result,
        settings=settings,
        corpus_label=corpus_label,
        corpus_chars=len(text),
        corpus_bytes=len(text.encode("utf-8", errors="surrogatepass")),
        digest=digest,
        window_text=_window(text),
    )
    trained.stats = compute_stats(trained, text)
    pattern_name = (settings["pattern"] or "none") if kind == KIND_BYTE else "classic"
    if kind == KIND_BYTE and pattern is not None and pattern not in PATTERN_CHOICES:
        pattern_name = "custom"
    trained.label = f"{corpus_label} · {kind} · vocab {vocab_size} · {pattern_name}"
    cache[digest] = trained
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return trained, False


def _window(text: str) -> str:
    if len(text) <= PREVIEW_CHARS:
        return text
    cut = text.rfind("\n", PREVIEW_CHARS // 2, PREVIEW_CHARS)
    if cut < 0:
        cut = text.rfind(" ", PREVIEW_CHARS // 2, PREVIEW_CHARS)
    return text[: cut + 1 if cut > 0 else PREVIEW_CHARS]


def compute_stats(trained: Trained, text: str) -> dict:
    """Bytes per token before and after training, on (the start of) the corpus."""
    sample = text
    truncated = False
    if len(sample.encode("utf-8", errors="surrogatepass")) > STATS_SAMPLE_BYTES:
        sample = sample.encode("utf-8", errors="surrogatepass")[:STATS_SAMPLE_BYTES].decode(
            "utf-8", errors="ignore"
        )
        truncated = True
    n_bytes = len(sample.encode("utf-8", errors="surrogatepass"))
    started = time.perf_counter()
    if trained.kind == KIND_CLASSIC:
        words = trained.tokenizer.encode_words(sample)
        before = sum(len(w) + 1 for w in sample.split())
        after = sum(len(w) for w in words)
        word_bytes = sum(len(w.encode("utf-8", errors="surrogatepass")) for w in sample.split())
        n_bytes = word_bytes
    else:
        before = n_bytes
        after = len(trained.tokenizer.encode(sample))
    return {
        "sample_bytes": n_bytes,
        "truncated": truncated,
        "tokens_before": before,
        "tokens_after": after,
        "bpt_before": n_bytes / before if before else 0.0,
        "bpt_after": n_bytes / after if after else 0.0,
        "seconds": time.perf_counter() - started,
    }


def corpus_text() -> tuple[str, str, str | None]:
    """(text, label, sha or None) of the corpus chosen on the Train page."""
    ss = st.session_state
    source = ss["corpus_source"]
    if source == PASTE:
        return ss["pasted_text"], "pasted text", None
    if source == UPLOAD:
        upload = ss["upload"]
        if not upload:
            return "", "upload", None
        return upload["text"], upload["name"], upload["digest"]
    if source in SAMPLES:
        return load_sample(source), source, None
    return "", str(source), None


PASTE = "Paste text"
UPLOAD = "Upload a .txt file"


def window_tokens_html(trained: Trained, max_tokens: int = 1200) -> str:
    """The highlighted sample: the start of the training text with the trained tokenizer."""
    text = trained.window_text
    if trained.kind == KIND_CLASSIC:
        return tok_ui.words_html(trained.tokenizer.encode_words(text))
    tokenizer = trained.tokenizer
    ids = tokenizer.encode(text)
    pieces = tokenizer.decode_tokens_bytes(ids)
    return tok_ui.tokens_html(pieces, ids, max_tokens=max_tokens)


GLOBAL_CSS = (
    "<style>"
    + tok_ui.TOKEN_CSS
    + ".bpe-stat{font-size:1.15rem}"
    ".bpe-pair{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:1.5rem}"
    ".bpe-pair .part{background:#e7f5ff;border:1px solid #74c0fc;border-radius:5px;padding:2px 6px;color:#111}"
    ".bpe-pair .new{background:#fff3bf;border:2px solid #f08c00;border-radius:5px;padding:2px 6px;color:#111}"
    ".bpe-note{color:#862e9c;font-weight:600}"
    ".bpe-cands{margin:.2rem 0 .2rem 1.4rem}"
    ".bpe-step{margin:.35rem 0}.bpe-step-cap{color:#495057;font-size:.95rem}"
    "</style>"
)


def no_tokenizer_yet(what: str) -> None:
    """Shown by a page opened before anything was trained: one click trains the default sample."""
    st.info(f"No tokenizer trained yet in this session. Train one to {what}.")
    if st.button("▶ Train on the default sample now", type="primary", key="quick_train"):
        text, label, sha = corpus_text()
        if not text:
            text, label, sha = load_sample(DEFAULT_SAMPLE), DEFAULT_SAMPLE, None
        try:
            trained, _ = train_corpus(
                text,
                kind=st.session_state["kind"] if st.session_state["kind"] in KIND_LABELS else KIND_BYTE,
                vocab_size=int(st.session_state["vocab_size"]),
                pattern="gpt2",
                special_tokens=[],
                corpus_label=label,
                text_sha=sha,
            )
        except TrainingStopped as stopped:
            st.error(str(stopped))
            return
        except Exception as exc:  # never a traceback in the browser
            st.error(f"Training failed: {type(exc).__name__}: {exc}")
            return
        st.session_state["trained"] = trained
        st.session_state["merge_round"] = trained.num_merges
        st.rerun()
    st.page_link("app.py", label="Or choose a corpus and settings on the Train page", icon=":material/arrow_back:")
