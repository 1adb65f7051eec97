"""Compare-page and Export-page helpers: curve data and chart, side-by-side views, vocabulary
explorer, merge trees, algorithm comparison, export files.

All numbers come from ``bpe_core.vocabulary`` (one pass over a text gives every vocab size).
All HTML is built from escaped text (``html.escape`` / ``ui.tokens``).
"""

from __future__ import annotations

import html
import io
import tempfile
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import vocabulary as voc
from ui import tokens as tok_ui
from ui.corpora import SAMPLES, load_sample
from ui.share import HELDOUT_REST, REFERENCE_NAMES, sample_slug
from ui.state import md_escape

REFERENCE_LABELS = {"gpt2": "GPT-2", "cl100k_base": "cl100k_base", "o200k_base": "o200k_base"}
MEASURE_LIMIT = 2_000_000
"""Texts longer than this (in characters) are measured on their first MEASURE_LIMIT characters."""
SIDE_MAX_TOKENS = 600
NEVER_SHOWN = 400
SESSION_CACHE_SIZE = 24

SIDE_SAMPLE = (
    "Tokenizers split text into tokens. The tokenizer learned merges from its training text.\n"
    "def tokenize(text): return [t for t in text.split()]\n"
    "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。"
)

COMPARE_CSS = (
    "<style>"
    ".tokens .tok.diff{outline:2px solid #c2255c;outline-offset:0;text-decoration:underline 2px #c2255c;"
    "text-underline-offset:3px}"
    ".cmp-view-head{font-weight:600;margin:.2rem 0 .1rem 0}"
    ".cmp-view-sub{color:#495057;font-size:.9rem;margin-bottom:.2rem}"
    ".cmp-view .tokens{font-size:1.05rem;line-height:1.9rem}"
    ".cmp-view.classic .tokens .tok{white-space:pre-wrap;overflow-wrap:anywhere}"
    ".mtree{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.95rem;color:#111;overflow-x:auto;"
    "padding-bottom:4px}"
    ".mtree .node{display:inline-flex;flex-direction:column;align-items:center;border:1px solid #adb5bd;"
    "border-radius:6px;padding:2px 2px;margin:1px;background:#f8f9fa;vertical-align:top}"
    ".mtree .node.leaf{background:#e7f5ff;border-color:#74c0fc}"
    ".mtree .lbl{white-space:pre;font-weight:600;padding:0 3px}"
    ".mtree .meta{font-size:.68rem;color:#495057;white-space:nowrap}"
    ".mtree .kids{display:flex;flex-direction:row;align-items:flex-start}"
    "</style>"
)


# -- small session cache --------------------------------------------------------------------------


def session_cached(key: tuple, compute: Callable[[], Any]) -> Any:
    """Compute once per session for this key (a few dozen entries kept, least recent dropped)."""
    cache: OrderedDict = st.session_state.setdefault("_cmp_cache", OrderedDict())
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = compute()
    cache[key] = value
    while len(cache) > SESSION_CACHE_SIZE:
        cache.popitem(last=False)
    return value


@st.cache_resource(show_spinner="Loading the reference vocabulary…")
def reference_tokenizer(name: str):
    from bpe_core.reference import reference

    return reference(name)


@st.cache_data(show_spinner=False, max_entries=64)
def reference_token_count(name: str, digest: str, _text: str) -> int:
    """Tokens of a text with a reference tokenizer; shared by all sessions, keyed by the text's digest."""
    return len(reference_tokenizer(name).encode(_text))


# -- texts ----------------------------------------------------------------------------------------


@dataclass
class Text:
    """A text measured on the Compare page."""

    label: str
    text: str
    digest: str
    truncated: bool = False
    shareable: bool = True

    @property
    def n_bytes(self) -> int:
        return len(self.text.encode("utf-8", errors="surrogatepass"))


def make_text(label: str, text: str, *, shareable: bool = True) -> Text:
    from ui.state import text_digest

    truncated = len(text) > MEASURE_LIMIT
    if truncated:
        text = text[:MEASURE_LIMIT]
    return Text(label, text, text_digest(text), truncated, shareable)


def reference_rest() -> str:
    """The Python reference after its excerpt: held-out text for a tokenizer trained on the excerpt."""
    names = list(SAMPLES)
    excerpt, full = load_sample(names[0]), load_sample(names[1])
    return full.removeprefix(excerpt)


HELDOUT_CHOICES: dict[str, str] = {
    HELDOUT_REST: "Python reference after the excerpt (never in the excerpt sample)",
    **{sample_slug(name): f"Sample: {name}" for name in SAMPLES},
    "paste": "Paste text… (not kept in links)",
    "upload": "Upload a .txt file… (not kept in links)",
}


def heldout_from_choice(choice: str) -> Text | None:
    """The held-out text for a built-in choice (None for paste/upload, handled by the page)."""
    if choice == HELDOUT_REST:
        return make_text("held-out: Python reference after the excerpt", reference_rest())
    for name in SAMPLES:
        if sample_slug(name) == choice:
            return make_text(f"held-out: {name}", load_sample(name))
    return None


def training_text(trained) -> Text | None:
    """The exact text the current tokenizer was trained on, when it is still at hand.

    It is checked against the digest of the training run (text + settings), so a corpus changed
    on the Train page after training is never passed off as the training text.
    """
    from ui.state import corpus_text, settings_digest, text_digest

    if trained is None:
        return None
    candidates = []
    if trained.corpus_label in SAMPLES:
        candidates.append((load_sample(trained.corpus_label), None))
    text, _, sha = corpus_text()
    candidates.append((text, sha))
    for text, sha in candidates:
        if text and settings_digest(sha or text_digest(text), trained.settings) == trained.digest:
            return make_text(f"training text: {trained.corpus_label}", text)
    return None


# -- the curve ------------------------------------------------------------------------------------


def curve_frame(tokenizer, texts: Sequence[Text]) -> tuple[pd.DataFrame, dict[str, float]]:
    """Bytes per token at every vocab size for each text (sampled for the chart), and the time taken."""
    frames, seconds = [], {}
    for text in texts:
        started = time.perf_counter()
        curve = voc.bytes_per_token_curve(tokenizer, text.text)
        seconds[text.label] = time.perf_counter() - started
        sampled = voc.sample_curve(curve, 400)
        frames.append(
            pd.DataFrame(
                {
                    "vocab size": [size for size, _ in sampled],
                    "bytes per token": [round(bpt, 4) for _, bpt in sampled],
                    "tokens": [round(text.n_bytes / bpt) if bpt else 0 for _, bpt in sampled],
                    "text": text.label,
                    "tokenizer": "trained (every size)",
                }
            )
        )
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return frame, seconds


def reference_points(texts: Sequence[Text], names: Sequence[str] = REFERENCE_NAMES) -> pd.DataFrame:
    rows = []
    for name in names:
        tokenizer = reference_tokenizer(name)
        for text in texts:
            if not text.n_bytes:
                continue
            count = reference_token_count(name, text.digest, text.text)
            rows.append(
                {
                    "vocab size": voc.vocab_size_of(tokenizer),
                    "bytes per token": round(text.n_bytes / count, 4),
                    "tokens": count,
                    "text": text.label,
                    "tokenizer": REFERENCE_LABELS[name],
                }
            )
    return pd.DataFrame(rows)


def curve_chart(curve: pd.DataFrame, points: pd.DataFrame, marks: Sequence[int] = ()) -> alt.LayerChart:
    """Lines for the trained tokenizer at every size, points for the reference tokenizers."""
    x = alt.X(
        "vocab size:Q",
        scale=alt.Scale(type="log", domain=[200, 250_000], nice=False),
        axis=alt.Axis(values=[256, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000], format="~s"),
        title="vocab size (log scale)",
    )
    values = [*curve.get("bytes per token", []), *points.get("bytes per token", [])]
    top = max(values, default=2.0)
    y = alt.Y(
        "bytes per token:Q",
        title="bytes per token",
        scale=alt.Scale(domain=[max(0.0, min(values, default=1.0) - 0.2), top + 0.1 * top + 0.2], nice=False),
    )
    texts = list(dict.fromkeys([*curve.get("text", []), *points.get("text", [])]))
    palette = ["#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9"]
    color = alt.Color(
        "text:N",
        title="text",
        scale=alt.Scale(domain=texts, range=palette[: len(texts)] or palette),
        legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=600),
    )
    tooltip = [
        "tokenizer:N",
        "text:N",
        alt.Tooltip("vocab size:Q", format=","),
        "bytes per token:Q",
        alt.Tooltip("tokens:Q", format=","),
    ]
    lines = alt.Chart(curve).mark_line(strokeWidth=2.5).encode(x=x, y=y, color=color, tooltip=tooltip)
    layers = [lines]
    if marks:
        rule = (
            alt.Chart(pd.DataFrame({"vocab size": list(marks)}))
            .mark_rule(color="#868e96", strokeDash=[4, 3])
            .encode(x="vocab size:Q", tooltip=[alt.Tooltip("vocab size:Q", title="compared size", format=",")])
        )
        layers.insert(0, rule)
    if not points.empty:
        shape = alt.Shape(
            "tokenizer:N",
            title="reference tokenizer",
            legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=300),
        )
        layers.append(
            alt.Chart(points)
            .mark_point(size=180, filled=True, opacity=0.85, stroke="#212529", strokeWidth=1)
            .encode(x=x, y=y, color=color, shape=shape, tooltip=tooltip)
        )
    return alt.layer(*layers).properties(height=420).interactive(bind_y=False)


# -- side by side ---------------------------------------------------------------------------------


@dataclass
class View:
    title: str
    subtitle: str
    tokens: list[bytes]
    ids: list[int | None]


def trained_view(tokenizer, segmentation, size: int, n_bytes: int) -> View:
    """The text at one vocab size, from its lifetimes (no re-encoding)."""
    k = voc.merges_for_vocab_size(tokenizer, size)
    tokens = segmentation.tokens_at(k)
    ids_of = tokenizer.mergeable_ranks
    specials = {token.encode("utf-8"): identifier for token, identifier in tokenizer.special_tokens.items()}
    ids = [ids_of.get(token, specials.get(token)) for token in tokens]
    actual = voc.vocab_size_of(tokenizer, k)
    return View(
        f"vocab {actual:,}",
        f"{len(tokens):,} tokens · {n_bytes / len(tokens):.2f} bytes/token" if tokens else "no tokens",
        tokens,
        ids,
    )


def reference_view(name: str, text: str) -> View:
    tokenizer = reference_tokenizer(name)
    ids = tokenizer.encode(text)
    tokens = tokenizer.decode_tokens_bytes(ids)
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    return View(
        f"{REFERENCE_LABELS[name]} · vocab {voc.vocab_size_of(tokenizer):,}",
        f"{len(tokens):,} tokens · {n_bytes / len(tokens):.2f} bytes/token" if tokens else "no tokens",
        tokens,
        list(ids),
    )


def neighbour_diffs(views: Sequence[View]) -> list[list[bool]]:
    """For each view, which tokens have an edge its neighbour lacks (the view before it; the first
    view is compared with the second)."""
    out = []
    for index, view in enumerate(views):
        if len(views) < 2:
            out.append([False] * len(view.tokens))
            continue
        other = views[index - 1] if index else views[1]
        out.append(voc.changed_tokens(view.tokens, other.tokens))
    return out


def view_html(view: View, diff: Sequence[bool], max_tokens: int = SIDE_MAX_TOKENS) -> str:
    shown = min(len(view.tokens), max_tokens)
    spans = []
    for i in range(shown):
        spans.append(tok_ui.token_span(view.tokens[i], view.ids[i], i, extra_class="diff" if diff[i] else ""))
    more = f'<span class="more">… {len(view.tokens) - shown:,} more tokens</span>' if shown < len(view.tokens) else ""
    changed = sum(diff)
    return (
        '<div class="cmp-view">'
        f'<div class="cmp-view-head">{html.escape(view.title)}</div>'
        f'<div class="cmp-view-sub">{html.escape(view.subtitle)} · {changed:,} outlined</div>'
        f'<div class="tokens">{"".join(spans)}{more}</div></div>'
    )


# -- vocabulary explorer --------------------------------------------------------------------------


def token_label(data: bytes) -> str:
    """A token as readable text: whitespace marked (· ↵ →), partial characters and control
    characters as hex (⟨E4 BD⟩, ⟨00⟩).

    >>> token_label(b"a b\\x00")
    'a·b⟨00⟩'
    """
    label = tok_ui.display_bytes(data)
    if label.isprintable():
        return label
    return "".join(
        ch if ch.isprintable() else "⟨" + " ".join(f"{b:02X}" for b in ch.encode("utf-8")) + "⟩" for ch in label
    )


def vocabulary_frame(rows: Sequence[voc.TokenInfo]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [row.id for row in rows],
            "token": [token_label(row.token) for row in rows],
            "bytes": [row.token.hex(" ") for row in rows],
            "length": [row.length for row in rows],
            "merge round": pd.array([row.merge_round for row in rows], dtype="Int64"),
            "count when merged": pd.array([row.count_when_merged for row in rows], dtype="Int64"),
            "used in corpus": [row.used for row in rows],
            "special": [row.special for row in rows],
        }
    )


def filter_frame(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token text (· for space, ↵ for newline) or hex bytes contain the query, or whose id is it."""
    if not query:
        return frame
    needle = tok_ui.show_whitespace(query)
    mask = frame["token"].str.contains(needle, regex=False) | frame["bytes"].str.contains(query.lower(), regex=False)
    if query.strip().isdigit():
        mask |= frame["id"] == int(query.strip())
    return frame[mask]


def length_chart(histogram: dict[int, int]) -> alt.Chart:
    frame = pd.DataFrame({"length (bytes)": list(histogram), "tokens": list(histogram.values())})
    return (
        alt.Chart(frame)
        .mark_bar(color="#1c7ed6")
        .encode(
            x=alt.X("length (bytes):O", title="token length in bytes"),
            y=alt.Y("tokens:Q", title="learned tokens"),
            tooltip=["length (bytes)", "tokens"],
        )
        .properties(height=260)
    )


def tree_html(tree: voc.MergeTree, max_depth: int = 12) -> str:
    """A merge tree as nested boxes: each token above its two parts (escaped text)."""

    def node(t: voc.MergeTree, depth: int) -> str:
        label = html.escape(token_label(t.token))
        meta = f"#{t.id}" + (f" r{t.merge_round}" if t.merge_round is not None else "")
        cls = "node leaf" if t.is_leaf else "node"
        kids = ""
        if not t.is_leaf and t.left is not None and t.right is not None:
            if depth >= max_depth:
                kids = '<div class="kids"><span class="meta">…</span></div>'
            else:
                kids = f'<div class="kids">{node(t.left, depth + 1)}{node(t.right, depth + 1)}</div>'
        return (
            f'<div class="{cls}" data-token-id="{int(t.id)}"><span class="lbl">{label}</span>'
            f'<span class="meta">{html.escape(meta)}</span>{kids}</div>'
        )

    return f'<div class="mtree">{node(tree, 0)}</div>'


# -- algorithms -----------------------------------------------------------------------------------


@dataclass
class AlgorithmRow:
    name: str
    tokens: int
    bytes_per_token: float
    view: View


def algorithm_row(name: str, tokenizer, text: str, *, classic: bool = False) -> AlgorithmRow:
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    if classic:
        words = tokenizer.encode_words(text)
        symbols = [symbol for word in words for symbol in word]
        tokens = [symbol.encode("utf-8") for symbol in symbols]
        ids = list(tokenizer.encode(text))
    else:
        ids = list(tokenizer.encode(text))
        tokens = tokenizer.decode_tokens_bytes(ids)
    bpt = n_bytes / len(tokens) if tokens else 0.0
    view = View(name, f"{len(tokens):,} tokens · {bpt:.2f} bytes/token", tokens, ids)
    return AlgorithmRow(name, len(tokens), bpt, view)


def classic_view_html(view: View) -> str:
    """Classic symbols (text, with </w>) as token spans; no outlines (boundaries are not comparable)."""
    spans = []
    for i, token in enumerate(view.tokens[:SIDE_MAX_TOKENS]):
        label = token.decode("utf-8", errors="replace")
        spans.append(
            f'<span class="tok c{i % len(tok_ui.PALETTE)}" data-token-id="{html.escape(str(view.ids[i]))}" '
            f'title="{html.escape(label, quote=True)}">{html.escape(label)}</span>'
        )
    return (
        '<div class="cmp-view classic">'
        f'<div class="cmp-view-head">{html.escape(view.title)}</div>'
        f'<div class="cmp-view-sub">{html.escape(view.subtitle)}</div>'
        f'<div class="tokens">{"".join(spans)}</div></div>'
    )


# -- export ---------------------------------------------------------------------------------------

EXPORT_LABELS = {
    "gpt2": "GPT-2 (zip)",
    "tiktoken": "tiktoken ranks",
    "hf": "Hugging Face",
    "bpe-playground": "Project JSON",
}
EXPORT_HELP = {
    "gpt2": "vocab.json + merges.txt, zipped together",
    "tiktoken": "one base64 token and its rank per line",
    "hf": "tokenizer.json for the Hugging Face tokenizers library",
    "bpe-playground": "this project's format, with the training settings",
}
EXPORT_MIME = {
    "gpt2": "application/zip",
    "tiktoken": "text/plain",
    "hf": "application/json",
    "bpe-playground": "application/json",
}


def export_files(tokenizer, fmt: str, training: dict | None = None) -> dict[str, bytes]:
    """The download for one format: {file name: bytes}; GPT-2's two files come as one zip."""
    from bpe_core import formats

    with tempfile.TemporaryDirectory(prefix="bpe-export-") as tmp:
        paths = formats.save(tokenizer, tmp, fmt, training=training if fmt == "bpe-playground" else None)
        if fmt == "gpt2":
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
                for path in paths:
                    zipped.write(path, Path(path).name)
            return {"tokenizer-gpt2.zip": buffer.getvalue()}
        return {Path(path).name: Path(path).read_bytes() for path in paths}


class _Upload:
    """A file-like upload (name + getvalue) for ui.encoding.load_uploaded."""

    def __init__(self, name: str, data: bytes):
        self.name = name
        self._data = data

    def getvalue(self) -> bytes:
        return self._data


def expand_uploads(files) -> list:
    """Uploaded files, with a .zip (the GPT-2 download) unpacked into its members."""
    out = []
    for uploaded in files:
        data = uploaded.getvalue()
        if uploaded.name.lower().endswith(".zip"):
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as zipped:
                    members = [info for info in zipped.infolist() if not info.is_dir()]
                    if len(members) > 8 or sum(info.file_size for info in members) > 500_000_000:
                        raise ValueError(f"{md_escape(uploaded.name)}: too many or too large files for a tokenizer")
                    out.extend(_Upload(Path(info.filename).name, zipped.read(info)) for info in members)
            except zipfile.BadZipFile:
                raise ValueError(f"{md_escape(uploaded.name)} is not a valid zip file") from None
        else:
            out.append(uploaded)
    return out


# -- the page's views (pages/3_Compare.py only dispatches) ----------------------------------------


@dataclass
class Context:
    """What every view of the Compare page works on."""

    tokenizer: Any  # bpe_core.Tokenizer (byte-level)
    key: str  # identifies the tokenizer in caches
    label: str
    trained: Any  # ui.state.Trained or None (a tokenizer loaded from files)
    corpus: Text | None  # the training text, when known


def default_sizes(tokenizer) -> list[int]:
    """Three sizes that show the change: a tenth, a third and all of the merges."""
    n = tokenizer.num_merges
    sizes = [voc.vocab_size_of(tokenizer, k) for k in (n // 10, n // 3, n)]
    return list(dict.fromkeys(sizes))


def _heldout_text() -> Text | None:
    ss = st.session_state
    choice = ss.get("cmp_heldout", HELDOUT_REST)
    if choice == "paste":
        st.text_area(
            "Held-out text",
            key="cmp_heldout_paste",
            height=120,
            persist_state="session",
            placeholder="Paste text the tokenizer was not trained on.",
        )
        text = ss.get("cmp_heldout_paste") or ""
        return make_text("held-out: pasted text", text, shareable=False) if text else None
    if choice == "upload":
        from ui.corpora import CorpusError, decode_upload

        uploaded = st.file_uploader(
            "Held-out text file (UTF-8)", type=["txt", "md", "py", "json", "csv"], key="cmp_heldout_file"
        )
        if uploaded is not None:
            digest_key = (uploaded.name, uploaded.size)
            if ss.get("_cmp_heldout_upload_key") != digest_key:
                try:
                    decoded = decode_upload(uploaded.getvalue(), md_escape(uploaded.name))  # named in st.error
                except CorpusError as error:
                    st.error(str(error))
                    return None
                ss["_cmp_heldout_upload_key"] = digest_key
                ss["_cmp_heldout_upload"] = make_text(f"held-out: {uploaded.name}", decoded.text, shareable=False)
        return ss.get("_cmp_heldout_upload")
    return heldout_from_choice(choice)


def render_curve(ctx: Context) -> None:
    ss = st.session_state
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.selectbox(
            "Held-out text",
            list(HELDOUT_CHOICES),
            format_func=HELDOUT_CHOICES.get,
            key="cmp_heldout",
            persist_state="session",
        )
        heldout = _heldout_text()
    with right:
        st.multiselect(
            "Reference tokenizers (points)",
            list(REFERENCE_NAMES),
            format_func=REFERENCE_LABELS.get,
            key="cmp_refs",
            persist_state="session",
        )
    texts = [t for t in (ctx.corpus, heldout) if t is not None and t.n_bytes]
    if not texts:
        st.info("No text to measure yet: choose or paste a held-out text.")
        return
    frame, seconds = session_cached(
        ("curve", ctx.key, tuple(t.digest for t in texts)), lambda: curve_frame(ctx.tokenizer, texts)
    )
    # the label may differ between runs for the same digest; use the current ones
    for text in texts:
        frame.loc[frame["text"].str.split(":").str[0] == text.label.split(":")[0], "text"] = text.label
    try:
        with st.spinner("Encoding with the reference tokenizers…"):
            points = reference_points(texts, ss.get("cmp_refs") or [])
    except Exception as error:  # noqa: BLE001 -- reference data may be missing: the curve still stands
        st.warning(f"Reference tokenizers unavailable: {error}")
        points = pd.DataFrame()
    from ui.share import parse_sizes

    marks = [s for s in parse_sizes(ss.get("cmp_sizes_text", "")) if 256 <= s <= 250_000]
    st.altair_chart(curve_chart(frame, points, marks), width="stretch", height=560, key="cmp_curve_chart")
    n = ctx.tokenizer.num_merges
    timing = ", ".join(
        f"{md_escape(t.label.split(':', 1)[-1].strip())} ({human(t.n_bytes)}) {seconds.get(t.label, 0):.2f} s"
        for t in texts
    )
    st.caption(
        f"Lines: the tokenizer at every one of its {n + 1:,} vocab sizes "
        f"({voc.vocab_size_of(ctx.tokenizer, 0):,}–{voc.vocab_size_of(ctx.tokenizer):,}), from one pass over each text "
        f"(boundary lifetimes) — {timing}. Points: the reference tokenizers on the same texts. Dashed lines: the "
        "sizes compared side by side. Vocab size counts every token, special tokens included."
    )
    if any(t.truncated for t in texts):
        st.caption(f"Texts longer than {MEASURE_LIMIT:,} characters are measured on their start.")
    if ctx.corpus is None:
        st.caption(
            "The training text is not at hand (tokenizer loaded from a file, or the corpus changed "
            "since training): only the held-out text is measured."
        )
    rows = []
    for text in texts:
        part = frame[frame["text"] == text.label]
        rows.append(
            {
                "tokenizer": "this tokenizer (all merges)",
                "text": text.label,
                "vocab size": int(part["vocab size"].iloc[-1]),
                "tokens": int(part["tokens"].iloc[-1]),
                "bytes per token": float(part["bytes per token"].iloc[-1]),
            }
        )
    if not points.empty:
        rows.extend(points.to_dict("records"))
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def human(n: int) -> str:
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def render_side(ctx: Context) -> None:
    from ui.share import MAX_SIZES, parse_sizes

    ss = st.session_state
    tokenizer = ctx.tokenizer
    low, high = voc.vocab_size_of(tokenizer, 0), voc.vocab_size_of(tokenizer)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.text_area("Text", key="cmp_side_text", height=110, persist_state="session")
    with right:
        st.text_input(
            f"Vocab sizes to compare (2–{MAX_SIZES}, between {low:,} and {high:,})",
            key="cmp_sizes_text",
            persist_state="session",
        )
        st.multiselect(
            "And the reference tokenizers",
            list(REFERENCE_NAMES),
            format_func=REFERENCE_LABELS.get,
            key="cmp_refs",
            persist_state="session",
        )
    asked = parse_sizes(ss.get("cmp_sizes_text", ""), limit=99)
    sizes = sorted({min(max(size, low), high) for size in asked})[:MAX_SIZES]
    if len(asked) > MAX_SIZES:
        st.warning(f"At most {MAX_SIZES} sizes: showing {', '.join(map(str, sizes))}.")
    elif any(size < low or size > high for size in asked):
        st.caption(f"Sizes outside {low:,}–{high:,} were moved to the nearest end.")
    if len(sizes) < 2 and not ss.get("cmp_refs"):
        st.info("Give at least two vocab sizes (or one size and a reference tokenizer).")
    text = ss.get("cmp_side_text") or ""
    if not text:
        st.info("Type a text to compare.")
        return
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    segmentation = session_cached(("segment", ctx.key, text), lambda: tokenizer.segment(text))
    views = [trained_view(tokenizer, segmentation, size, n_bytes) for size in sizes]
    for name in ss.get("cmp_refs") or []:
        try:
            views.append(reference_view(name, text))
        except Exception as error:  # noqa: BLE001 -- a missing reference is reported, the rest still drawn
            st.warning(f"{name} unavailable: {error}")
    if not views:
        return
    diffs = neighbour_diffs(views)
    st.caption(
        "Outlined and underlined: tokens the view before does not have (the first view is compared with "
        "the second) — against a smaller vocabulary, the tokens new merges made; against a larger one, the "
        "pieces that get merged. Hover a token for its id."
    )
    per_row = 3
    for start in range(0, len(views), per_row):
        columns = st.columns(per_row, gap="medium")
        for column, view, diff in zip(columns, views[start : start + per_row], diffs[start : start + per_row]):
            with column:
                st.html(view_html(view, diff))


def render_vocabulary(ctx: Context) -> None:
    from ui.state import corpus_text

    ss = st.session_state
    tokenizer = ctx.tokenizer
    corpus = ctx.corpus
    if corpus is None:
        text, label, _ = corpus_text()
        corpus = make_text(f"corpus: {label}", text) if text else None
    if corpus is None:
        st.info("No corpus to count token use on: pick one on the Train page.")
        usage: Any = {}
    else:
        usage = session_cached(("usage", ctx.key, corpus.digest), lambda: voc.token_usage(tokenizer, corpus.text))
    trace = ctx.trained.trace if ctx.trained is not None else None
    frame = session_cached(
        ("vocab-frame", ctx.key, corpus.digest if corpus else ""),
        lambda: vocabulary_frame(voc.vocabulary_rows(tokenizer, usage, trace)),
    )
    st.subheader("All tokens")
    if corpus is not None:
        st.caption(
            f"“used in corpus”: how often encoding {md_escape(corpus.label.split(':', 1)[-1].strip())} "
            f"({human(corpus.n_bytes)}) emits the token. Whitespace shows as · ↵ →; ⟨E4 BD⟩ are bytes of a "
            "partial character."
        )
    c1, c2, c3 = st.columns([3, 2, 1], vertical_alignment="bottom")
    c1.text_input("Search (token text, hex bytes or id)", key="cmp_vocab_search", persist_state="session")
    sort_by = c2.selectbox(
        "Sort by",
        ["merge round", "id", "length", "used in corpus", "count when merged", "token"],
        key="cmp_vocab_sort",
        persist_state="session",
    )
    descending = c3.toggle("Descending", key="cmp_vocab_desc", persist_state="session")
    shown = filter_frame(frame, ss.get("cmp_vocab_search") or "")
    shown = shown.sort_values(sort_by, ascending=not descending, kind="stable", na_position="last")
    st.caption(f"{len(shown):,} of {len(frame):,} tokens")
    st.dataframe(shown, hide_index=True, width="stretch", height=320, key="cmp_vocab_table")

    st.subheader("Merge tree of one token")
    learned = frame[frame["merge round"].notna()]
    if learned.empty:
        st.caption("This tokenizer has no merges.")
    else:
        if ss.get("cmp_tree_token") is None or int(ss["cmp_tree_token"]) not in tokenizer.vocab:
            used = learned[learned["used in corpus"] > 0]
            pool = used if not used.empty else learned
            ss["cmp_tree_token"] = int(pool.sort_values(["length", "id"], ascending=[False, True])["id"].iloc[0])
        st.number_input(
            "Token id",
            min_value=0,
            max_value=tokenizer.n_vocab - 1,
            step=1,
            key="cmp_tree_token",
            persist_state="session",
            help="Pick an id from the table above.",
        )
        token_id = int(ss["cmp_tree_token"])
        try:
            tree = voc.merge_tree(tokenizer, token_id)
        except ValueError as error:
            st.error(str(error))
        else:
            if tree.is_leaf:
                st.caption("A single byte or a special token: nothing was merged to make it.")
            else:
                st.caption(
                    f"{token_label(tree.token)} — made in round {tree.merge_round:,} from its two parts; "
                    f"{tree.depth()} merge levels down to {len(tree.leaves())} bytes. (#id, r = merge round)"
                )
            st.html(tree_html(tree))

    hist_col, never_col = st.columns([2, 3], gap="large")
    with hist_col:
        st.subheader("Token lengths")
        histogram = dict(sorted(voc.length_histogram(tokenizer).items()))
        if histogram:
            st.altair_chart(length_chart(histogram), width="stretch", key="cmp_length_chart")
        else:
            st.caption("No learned tokens.")
    with never_col:
        st.subheader("Learned but never emitted")
        if corpus is None:
            st.caption("Needs a corpus.")
        else:
            never = voc.never_emitted(tokenizer, corpus.text, usage)
            st.caption(
                f"{len(never):,} of {tokenizer.num_merges:,} learned tokens never appear when encoding the "
                "corpus: longer tokens made from them replaced them everywhere."
            )
            shown_never = never[:NEVER_SHOWN]
            st.html(tok_ui.tokens_html([tokenizer.token_bytes(i) for i in shown_never], shown_never))
            if len(never) > NEVER_SHOWN:
                st.caption(f"First {NEVER_SHOWN} shown, in merge order.")


ALGO_SAMPLE = (
    "Byte-pair encoding merges frequent pairs.\n"
    "字节对编码从字节开始，反复合并出现次数最多的相邻字节对。\n"
    "一个汉字在 UTF-8 中占三个字节。"
)
ALGO_CORPUS_LIMIT = 600_000


def _train_variants(text: str, vocab_size: int, pattern, specials: list[str]) -> dict[str, Any]:
    """Train byte-level with and without pre-tokenization, and classic BPE: {name: (tokenizer, s) or error}."""
    import bpe_core

    jobs: list[tuple[str, Callable[[], Any]]] = []
    if pattern is not None:
        jobs.append(
            (
                f"byte-level, pattern {pattern if len(str(pattern)) < 20 else 'custom'}",
                lambda: bpe_core.train(text, vocab_size, pattern=pattern, special_tokens=specials),
            )
        )
    jobs.append(
        (
            "byte-level, no pre-tokenization",
            lambda: bpe_core.train(text, vocab_size, pattern=None, special_tokens=specials),
        )
    )
    jobs.append(("classic char-level </w>", lambda: bpe_core.train_classic(text, vocab_size)))
    out: dict[str, Any] = {}
    for name, job in jobs:
        started = time.perf_counter()
        try:
            result = job()
        except ValueError as error:
            out[name] = str(error)
        else:
            out[name] = (result.tokenizer, time.perf_counter() - started)
    return out


def render_algorithms(ctx: Context) -> None:
    ss = st.session_state
    trained = ctx.trained
    if trained is None or ctx.corpus is None:
        st.info(
            "Comparing algorithms retrains on the training corpus: train a tokenizer on the Train page "
            "first (a tokenizer loaded from a file has no corpus)."
        )
        return
    settings = trained.settings
    vocab_size = int(settings["vocab_size"])
    pattern = settings["pattern"] if trained.kind == "byte" else "gpt2"
    specials = list(settings.get("special_tokens") or [])
    corpus = ctx.corpus.text[:ALGO_CORPUS_LIMIT]
    st.markdown(
        f"The same corpus (**{md_escape(trained.corpus_label)}**, "
        f"{human(len(corpus.encode('utf-8', 'surrogatepass')))}"
        f"{' — its start' if len(corpus) < len(ctx.corpus.text) else ''}) and vocab size **{vocab_size:,}**, "
        "trained three ways: byte-level BPE with pre-tokenization, without it (merges may cross words), "
        "and classic character-level BPE with `</w>` (Sennrich et al.)."
    )
    st.text_area(
        "Sample text (Chinese shows the byte vs character difference)",
        key="cmp_algo_text",
        height=100,
        persist_state="session",
    )
    key = ("algos", ctx.corpus.digest, vocab_size, str(pattern), tuple(specials))
    cache: OrderedDict = ss.setdefault("_cmp_cache", OrderedDict())
    if key not in cache:
        if st.button("Train the variants and compare ▶", type="primary", key="cmp_algos_run"):
            with st.spinner("Training…"):
                session_cached(key, lambda: _train_variants(corpus, vocab_size, pattern, specials))
        else:
            st.caption("Training takes a few seconds for the built-in samples.")
            return
    variants = session_cached(key, lambda: _train_variants(corpus, vocab_size, pattern, specials))
    sample = ss.get("cmp_algo_text") or ""
    rows, views, kinds = [], [], []
    for name, value in variants.items():
        if isinstance(value, str):
            st.warning(f"{name}: {value}")
            continue
        tokenizer, seconds = value
        classic = name.startswith("classic")
        corpus_row = session_cached(
            ("algo-corpus", key, name),
            lambda name=name, tokenizer=tokenizer, classic=classic: algorithm_row(
                name, tokenizer, corpus, classic=classic
            ),
        )
        sample_row = algorithm_row(name, tokenizer, sample, classic=classic) if sample else None
        rows.append(
            {
                "algorithm": name,
                "training (s)": round(seconds, 2),
                "corpus tokens": corpus_row.tokens,
                "corpus bytes/token": round(corpus_row.bytes_per_token, 3),
                "sample tokens": sample_row.tokens if sample_row else 0,
                "sample bytes/token": round(sample_row.bytes_per_token, 3) if sample_row else 0.0,
            }
        )
        if sample_row:
            views.append(sample_row.view)
            kinds.append(classic)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(
        "Bytes per token = UTF-8 bytes of the text / tokens. Classic BPE drops whitespace (a word ends in "
        "`</w>`) and maps characters never seen in training to <unk>; byte-level BPE keeps every byte, so "
        "a Chinese character it has not merged shows as ⟨byte⟩ pieces."
    )
    if views:
        byte_views = [v for v, classic in zip(views, kinds) if not classic]
        byte_diffs = neighbour_diffs(byte_views)
        columns = st.columns(len(views), gap="medium")
        b = 0
        for column, view, classic in zip(columns, views, kinds):
            with column:
                if classic:
                    st.html(classic_view_html(view))
                else:
                    st.html(view_html(view, byte_diffs[b]))
                    b += 1
