"""Merge rounds as data: computed once per trained tokenizer from boundary lifetimes.

Round k means "after the first k merges"; round 0 is the raw bytes (classic: characters + </w>).
At round k a boundary is drawn iff its lifetime >= k, and the occurrences merged *at* round k
are the boundaries whose lifetime == k - 1. Nothing is re-encoded per round.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bpe_core.lifetimes import PERMANENT, Segmentation
from ui import tokens as tok_ui
from ui.trained import Trained

TIE_RULE = "ties go to the lexicographically greatest pair"
TOP_CANDIDATES = 5
END_OF_WORD = "</w>"


@dataclass
class Frames:
    """Everything needed to draw any round of the window: its segmentation at every round."""

    mode: str  # "bytes" or "symbols" (classic)
    segmentation: Segmentation

    @property
    def atoms(self) -> list:
        return list(self.segmentation.data)

    @property
    def lifetimes(self) -> list[int]:
        return self.segmentation.lifetimes

    @property
    def num_merges(self) -> int:
        return self.segmentation.num_merges

    def tokens_at(self, k: int) -> list[tuple[bytes | str, bool]]:
        """(token, just_merged) at round k: just merged if a boundary inside it went at round k."""
        cuts = self.segmentation.boundaries_at(k)
        lifetimes = self.lifetimes
        tokens = self.segmentation.tokens_at(k)
        return [
            (token, k > 0 and any(lifetimes[j] == k - 1 for j in range(start, stop - 1)))
            for token, start, stop in zip(tokens, cuts, cuts[1:])
        ]

    def token_count_at(self, k: int) -> int:
        return self.segmentation.token_count_at(k)


def frames_for(trained: Trained) -> Frames:
    cached = trained.extras.get("frames")
    if cached is None:
        mode = "symbols" if trained.is_classic else "bytes"
        cached = Frames(mode, trained.tokenizer.segment(trained.window_text))
        trained.extras["frames"] = cached
    return cached


def label(data: bytes) -> str:
    return tok_ui.display_bytes(data)


def round_rows(trained: Trained) -> list[list]:
    """Compact per-round data for the player: one list per merge (round k uses row k - 1)."""
    cached = trained.extras.get("round_rows")
    if cached is not None:
        return cached
    rows = []
    for record in trained.trace:
        candidates = [[label(c.left), label(c.right), c.count] for c in record.candidates[:TOP_CANDIDATES]]
        rows.append(
            [
                label(record.left),
                label(record.right),
                label(record.left + record.right),
                record.new_id,
                record.count,
                record.replaced,
                1 if record.tied else 0,
                candidates,
            ]
        )
    trained.extras["round_rows"] = rows
    return rows


def merges_table(trained: Trained):
    """All merges as a pandas DataFrame (built once)."""
    import pandas as pd

    cached = trained.extras.get("merges_table")
    if cached is None:
        trace = trained.trace
        cached = pd.DataFrame(
            {
                "round": [r.rank + 1 for r in trace],
                "id": [r.new_id for r in trace],
                "left": [label(r.left) for r in trace],
                "right": [label(r.right) for r in trace],
                "new token": [label(r.left + r.right) for r in trace],
                "count": [r.count for r in trace],
                "tie": [r.tied for r in trace],
            }
        )
        trained.extras["merges_table"] = cached
    return cached


def round_info_html(trained: Trained, k: int) -> str:
    """The merge made at round k (1-based) as escaped HTML: pair, new token, count, candidates."""
    n = trained.num_merges
    if k <= 0 or n == 0:
        return (
            '<div class="bpe-round" data-round="0"><div class="bpe-stat">Round 0 of '
            f"{n:,}: the text as raw {'symbols' if trained.is_classic else 'bytes'}, "
            "before any merge.</div></div>"
        )
    record = trained.trace[min(k, n) - 1]
    esc = html.escape
    left, right, new = label(record.left), label(record.right), label(record.left + record.right)
    parts = [
        f'<div class="bpe-round" data-round="{k}">',
        f'<div class="bpe-stat">Round {k:,} of {n:,}</div>',
        '<div class="bpe-pair">'
        f'<span class="part" title="left part">{esc(left)}</span> + '
        f'<span class="part" title="right part">{esc(right)}</span> → '
        f'<span class="new" title="new token">{esc(new)}</span></div>',
        f'<div class="bpe-stat">new token id <b>{record.new_id}</b> · pair count <b>{record.count:,}</b>'
        f" · occurrences replaced <b>{record.replaced:,}</b></div>",
    ]
    if record.candidates:
        items = "".join(
            f"<li><code>{esc(label(c.left))}</code> + <code>{esc(label(c.right))}</code>: {c.count:,}"
            + (" <b>(tie)</b>" if c.count == record.count else "")
            + "</li>"
            for c in record.candidates[:TOP_CANDIDATES]
        )
        parts.append(f'<div class="bpe-stat">Runner-up pairs:<ol class="bpe-cands">{items}</ol></div>')
    if record.tied:
        parts.append(
            f'<div class="bpe-note">Tie: several pairs had count {record.count:,}; {TIE_RULE}.</div>'
        )
    parts.append("</div>")
    return "".join(parts)


def window_html(trained: Trained, k: int) -> str:
    """The training-text window segmented at round k, the occurrences just merged emphasized."""
    frames = frames_for(trained)
    k = max(0, min(k, frames.num_merges))
    pieces = frames.tokens_at(k)
    if frames.mode == "bytes":
        spans = [
            tok_ui.token_span(data, None, i, extra_class="just" if just else "", title=_byte_count(data))
            for i, (data, just) in enumerate(pieces)
        ]
    else:
        spans = []
        for i, (symbol, just) in enumerate(pieces):
            cls = f"tok c{i % len(tok_ui.PALETTE)}" + (" just" if just else "")
            spans.append(
                f'<span class="{cls}" data-token-id="" title="{html.escape(symbol, quote=True)}">'
                f"{html.escape(symbol)}</span>"
                + (" " if symbol.endswith(END_OF_WORD) else "")
            )
    return f'<div class="tokens" data-round="{k}">{"".join(spans)}</div>'


def _byte_count(data: bytes) -> str:
    return f"{len(data)} byte{'s' if len(data) != 1 else ''}"


def player_payload(trained: Trained, start_round: int, seek: int) -> dict:
    """JSON-ready data for the player component (sent once; playing never talks to the server)."""
    frames = frames_for(trained)
    return {
        "sig": trained.request.key,
        "mode": frames.mode,
        "atoms": frames.atoms,
        "lifetimes": [min(life, PERMANENT) for life in frames.lifetimes],
        "rounds": round_rows(trained),
        "round": int(start_round),
        "seek": int(seek),
        "tieRule": TIE_RULE,
    }
