"""Encode-page helpers: pick a tokenizer, encode, explain one word step by step."""

from __future__ import annotations

import html
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ui import tokens as tok_ui
from ui.state import KIND_CLASSIC, Trained

REFERENCE_NAMES = ("gpt2", "cl100k_base", "o200k_base")
REFERENCE_LABELS = {"gpt2": "GPT-2 (r50k)", "cl100k_base": "cl100k_base (GPT-4)", "o200k_base": "o200k_base (GPT-4o)"}
MAX_RENDERED_TOKENS = 4000


@st.cache_resource(show_spinner="Loading the reference vocabulary…")
def reference_tokenizer(name: str):
    """OpenAI's tokenizers, built offline from packaged files (shared by all sessions, read-only)."""
    from bpe_core.reference import reference

    return reference(name)


@dataclass
class Encoded:
    tokens: list[bytes]
    ids: list[int | None]
    n_chars: int
    n_bytes: int
    words: list[list[str]] | None = None  # classic only

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


def encode(tokenizer, text: str, classic: bool = False) -> Encoded:
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    if classic:
        words = tokenizer.encode_words(text)
        ids = tokenizer.encode(text)
        tokens = [symbol.encode("utf-8") for word in words for symbol in word]
        return Encoded(tokens, list(ids), len(text), n_bytes, words)
    ids = tokenizer.encode(text)
    return Encoded(tokenizer.decode_tokens_bytes(ids), list(ids), len(text), n_bytes)


def encoded_html(result: Encoded, show_ids: bool) -> str:
    if result.words is not None and not show_ids:
        return tok_ui.words_html(result.words)
    return tok_ui.tokens_html(result.tokens, result.ids, show_ids=show_ids, max_tokens=MAX_RENDERED_TOKENS)


_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def load_uploaded(files) -> tuple[object, str]:
    """Build a Tokenizer from uploaded files (one file, or vocab.json + merges.txt).

    Raises ValueError with a user-facing message.
    """
    from bpe_core import formats

    if not files:
        raise ValueError("Choose a tokenizer file first.")
    with tempfile.TemporaryDirectory(prefix="bpe-upload-") as tmp:
        names = []
        for uploaded in files:
            name = _SAFE_NAME.sub("_", Path(uploaded.name).name).lstrip(".") or "tokenizer"
            (Path(tmp) / name).write_bytes(uploaded.getvalue())
            names.append(name)
        target = Path(tmp) if len(files) > 1 else Path(tmp) / names[0]
        try:
            tokenizer = formats.load(target)
        except (ValueError, FileNotFoundError, KeyError, UnicodeDecodeError) as error:
            message = str(error).replace(tmp + "/", "").replace(tmp, "upload")
            raise ValueError(f"Could not load a tokenizer from {', '.join(names)}: {message}") from None
    label = " + ".join(Path(f.name).name for f in files)
    return tokenizer, label


def pretokens(tokenizer, text: str, classic: bool, limit: int = 300) -> list[str]:
    """Distinct words / pre-tokens of text, in order of appearance (for the step-by-step view)."""
    if classic:
        pieces = text.split()
    else:
        from bpe_core.pretokenize import pretokenize, split_on_special

        pieces = []
        specials = getattr(tokenizer, "special_tokens", {}) or {}
        try:
            for piece, is_special in split_on_special(text, specials):
                if not is_special:
                    pieces.extend(pretokenize(piece, tokenizer.pattern))
        except ValueError:
            pieces = text.split()
    seen: dict[str, None] = {}
    for piece in pieces:
        if piece and piece not in seen:
            seen[piece] = None
            if len(seen) >= limit:
                break
    return list(seen)


def word_steps(tokenizer, word: str, classic: bool) -> list[tuple[str, list[str], list[bool]]]:
    """[(caption, token labels, which tokens were just made)] from bytes to the final tokens."""
    if classic:
        return _classic_steps(tokenizer, word)
    from bpe_core.lifetimes import PERMANENT

    seg = tokenizer.segment(word)
    lifetimes = seg.lifetimes
    removed = sorted({life for life in lifetimes if 0 <= life < PERMANENT})
    steps = []
    tokens = seg.tokens_at(0)
    steps.append(("start: one token per byte", [tok_ui.display_bytes(t) for t in tokens], [False] * len(tokens)))
    for life in removed:
        cuts = seg.boundaries_at(life + 1)
        pieces, just = [], []
        for start, stop in zip(cuts, cuts[1:]):
            pieces.append(seg.data[start:stop])
            just.append(any(lifetimes[j] == life for j in range(start, stop - 1)))
        made = [p for p, j in zip(pieces, just) if j]
        made_ids = []
        for p in made:
            rank_id = tokenizer.mergeable_ranks.get(p) if hasattr(tokenizer, "mergeable_ranks") else None
            made_ids.append(f"{tok_ui.display_bytes(p)} (id {rank_id})")
        steps.append((f"merge rank {life:,}: " + ", ".join(made_ids), [tok_ui.display_bytes(p) for p in pieces], just))
    return steps


def _classic_steps(tokenizer, word: str):
    rank = {pair: r for r, pair in enumerate(tokenizer.merges)}
    parts = [*word, "</w>"]
    steps = [("start: one symbol per character, then </w>", list(parts), [False] * len(parts))]
    while len(parts) > 1:
        best = None
        for i in range(len(parts) - 1):
            r = rank.get((parts[i], parts[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        r, i = best
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        just = [j == i for j in range(len(parts))]
        steps.append((f"merge rank {r:,}: {parts[i]}", list(parts), just))
    return steps


def steps_html(steps) -> str:
    rows = []
    for caption, labels, just in steps:
        spans = "".join(
            f'<span class="tok c{i % len(tok_ui.PALETTE)}{" just" if j else ""}" data-token-id="">'
            f"{html.escape(label)}</span>"
            for i, (label, j) in enumerate(zip(labels, just))
        )
        rows.append(
            f'<div class="bpe-step"><div class="bpe-step-cap">{html.escape(caption)}</div>'
            f'<div class="tokens">{spans}</div></div>'
        )
    return '<div class="bpe-steps">' + "".join(rows) + "</div>"


def trained_option_label(trained: Trained | None) -> str:
    return "Just trained: " + trained.label if trained else ""


def is_classic(trained: Trained | None) -> bool:
    return bool(trained) and trained.kind == KIND_CLASSIC
