"""Merge rounds as data for the player: computed once per trained tokenizer, sent compactly.

Round k means "after the first k merges"; round 0 is the raw bytes (classic: characters + </w>). A tokenizer that
continues a base (``playground.bases``) plays its new merges only: round 0 is the text in the base's tokens, round 1
its first new merge (lifetimes are counted from the base's last merge).
At round k a boundary of the window is drawn iff its lifetime >= k. The player (player.js) draws
every round in the browser from the payload built here; nothing is re-encoded per round.

The payload (``player_payload``) is JSON with two binary parts, base64: ``lifetimes`` (int32
little-endian, one per boundary of the window: the window is drawn from it at once) and ``blob``
(zlib-deflated little-endian columns, inflated in the browser). The merges refer to tokens by
index in a *token table*: first the ``base`` tokens (a byte's value, or classic characters and
``</w>``), then the token made by merge r at index ``len(base) + r``. Boundary j (after atom j) is drawn at round k iff
``lifetimes[j] >= k``; it is PERMANENT between words (pre-tokens) and KEPT inside a word where no
merge removes it. The blob's columns, in order (n merges, c candidates in all)::

    left, right uint32[n]    token-table index of each merge's parts
    id_step int32[n]         new id of merge r minus new id of merge r - 1 (the first: the id)
    count, replaced uint32[n]
    cand_left, cand_right uint32[c], cand_count uint32[c]   runner-up pairs, merge by merge
    cand_n uint8[n]          how many runner-ups each merge has (<= TOP_CANDIDATES)

What the player reports back is described by ``PlayerView``.
"""

from __future__ import annotations

import base64
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from bpe_core.encoding.classic import END_OF_WORD
from bpe_core.encoding.lifetimes import PERMANENT
from bpe_core.pretokenize import split_on_special
from playground.bases import base_offset
from playground.i18n import N_, t
from playground.session import SPEEDS, Session
from playground.trained import Trained
from ui import invisible_marks, token_html

TIE_RULE = N_("ties go to the lexicographically greatest pair")  # the player shows it translated
TIE_RULE_TEXTS = {
    "greatest": TIE_RULE,
    "first": N_("ties go to the pair seen first in the text"),
    "hf": N_("ties go to the pair of smallest ids (Hugging Face)"),
    "smallest": N_("ties go to the lexicographically smallest pair"),
}
"""What the player says decided a tie, by the trained request's rule (``Request.tie_break``)."""
CODE_KINDS = ("byte", "classic")
"""The kinds whose training the short trainer beside the player is (parity and superword tokens train otherwise)."""
TOP_CANDIDATES = 5
DEFAULT_SPEED = 4
PAYLOAD_VERSION = 1
KEPT = PERMANENT - 1  # inside a word, never merged: drawn at every round, but not a word boundary


@dataclass(frozen=True)
class PlayerView:
    """What the player reports when it pauses or steps (never while playing).

    The component's state value ``view`` is a JSON object ``{"round": int, "speed": int,
    "word": str | null}``: the round shown (0..num_merges), the speed chosen (rounds per second,
    one of ``SPEEDS``) and the word clicked in the window (the pre-token holding the clicked
    token, as text), if any. ``from_state`` validates it: anything else gives None.

    >>> PlayerView.from_state({"round": 7, "speed": 30, "word": "the"}, 10)
    PlayerView(round=7, speed=30, word='the')
    >>> PlayerView.from_state({"round": 70, "speed": 30}, 10) is None
    True
    """

    round: int
    speed: int
    word: str | None = None

    @classmethod
    def from_state(cls, value: Any, num_merges: int) -> PlayerView | None:
        if not isinstance(value, dict):
            return None
        k, speed, word = value.get("round"), value.get("speed"), value.get("word")
        if not isinstance(k, int) or not 0 <= k <= num_merges or speed not in SPEEDS:
            return None
        return cls(k, speed, word if isinstance(word, str) else None)


def picked_text(trained: Trained, word: str) -> str:
    """The text of a word the player reported: a classic word comes with its end-of-word mark (an atom of the
    window), which encoding adds by itself.

    >>> from types import SimpleNamespace
    >>> picked_text(SimpleNamespace(tokenizer=SimpleNamespace(byte_level=False)), "lowest</w>")
    'lowest'
    """
    return word if trained.tokenizer.byte_level else word.removesuffix(END_OF_WORD)


def _uint(values: Iterable[int]) -> bytes:
    return array("I", values).tobytes()


def word_starts(trained: Trained) -> set[int]:
    """Atom offsets where a word of the window starts: a piece the tokenizer splits it into (a pre-token;
    classic: a whitespace-split word with its </w>), or a special token.

    The player reports the word holding a clicked token; lifetimes alone cannot tell a boundary
    between words from one inside a word that no merge removes.
    """
    tokenizer = trained.tokenizer
    specials = tokenizer.special_tokens
    words = [  # each piece's atoms as the tokenizer's own segmentation has them (bytes; classic: characters + </w>)
        len(tokenizer.segment(word).data)
        for piece, special in split_on_special(trained.window_text, specials)
        for word in ([piece] if special else tokenizer.pretokenize(piece))
    ]
    starts, at = set(), 0
    for size in words:
        starts.add(at)
        at += size
    return starts


def _columns(trained: Trained) -> dict:
    """The payload's parts that never change for a trained tokenizer: the window, the base
    tokens and the deflated columns."""
    classic = not trained.tokenizer.byte_level
    segmentation = trained.tokenizer.segment(trained.window_text)
    starts = word_starts(trained)
    # Read from the packed trace's columns, by symbol id: making a record per merge would cost the server ~1 KB a
    # merge of short-lived objects (a room of 30 at vocab 32,000 opening Merges: ~400 MB more resident memory).
    trace = trained.trace
    symbols, base_id, columns = trace.symbols, trace.base, trace.columns
    made: dict[bytes, int] = {}
    for rank in range(len(trace)):
        made.setdefault(symbols[base_id + rank], rank)
    kept = [  # the runner-ups shown, record by record: at most TOP_CANDIDATES each
        position
        for first, count in zip(accumulate(columns["runner_ups"], initial=0), columns["runner_ups"])
        for position in range(first, first + min(count, TOP_CANDIDATES))
    ]
    runner_left = [columns["runner_left"][position] for position in kept]
    runner_right = [columns["runner_right"][position] for position in kept]
    parts = {symbols[i] for i in {*columns["left"], *columns["right"], *runner_left, *runner_right}}
    base = sorted(p for p in parts if p not in made)
    index = {token: i for i, token in enumerate(base)}
    index.update((token, len(base) + rank) for token, rank in made.items() if token not in index)

    def indices(ids: Iterable[int]) -> bytes:
        return _uint(index[symbols[i]] for i in ids)

    # A continued tokenizer's rounds are its new merges: a boundary its base's merges remove is gone before round 0
    # (negative), and the others live as many rounds fewer as the base has merges.
    offset = base_offset(trained.tokenizer, len(trace))
    lifetimes = [
        (life if j + 1 in starts else min(life, KEPT)) - (offset if 0 <= life < KEPT else 0)
        for j, life in enumerate(segmentation.lifetimes)
    ]
    blob = [
        indices(columns["left"]),
        indices(columns["right"]),
        array("i", [base_id] + [1] * (len(trace) - 1) if len(trace) else []).tobytes(),  # new ids: base, +1, +1...
        _uint(columns["count"]),
        _uint(columns["replaced"]),
        indices(runner_left),
        indices(runner_right),
        _uint(columns["runner_count"][position] for position in kept),
        bytes(min(count, TOP_CANDIDATES) for count in columns["runner_ups"]),
    ]
    return {
        "mode": "symbols" if classic else "bytes",
        "atomCount": len(segmentation.data),
        # Classic atoms are characters and </w>; byte atoms are the window text's UTF-8 bytes.
        "window": list(segmentation.data) if classic else trained.window_text,
        # Base byte tokens are single bytes, sent as their value (a longer one as a list of values).
        "lifetimes": base64.b64encode(array("i", lifetimes).tobytes()).decode("ascii"),
        "base": [t.decode("utf-8") for t in base] if classic else [t[0] if len(t) == 1 else list(t) for t in base],
        # Level 6: within 2 % of level 9's size, seven times faster (8,000 merges: 78 KB, 50 ms).
        "blob": base64.b64encode(zlib.compress(b"".join(blob), 6)).decode("ascii"),
    }


def player_payload(trained: Trained, start_round: int, speed: int = DEFAULT_SPEED) -> dict:
    """JSON-ready data for the player (sent once; playing never talks to the server).

    ``start_round`` and ``speed`` are where the player starts when it mounts (or gets another
    tokenizer); after that the player alone moves the round.
    """
    cached = trained.extras.get("player_columns")
    if cached is None:
        cached = _columns(trained)
        trained.extras["player_columns"] = cached
    return {
        "v": PAYLOAD_VERSION,
        "sig": trained.request.key,
        "n": trained.num_merges,
        **cached,
        "round": max(0, min(int(start_round), trained.num_merges)),
        "speed": speed if speed in SPEEDS else DEFAULT_SPEED,
        "speeds": list(SPEEDS),
        "tieRule": TIE_RULE_TEXTS.get(trained.request.tie_break, TIE_RULE),
        "rule": trained.request.tie_break,
        # animation_html.with_labels adds the code in its language (a continued training is not the short trainer)
        "coded": trained.request.kind in CODE_KINDS and not trained.request.base,
        "marks": invisible_marks.mark_table(),
        **({"zeroText": zero_text(trained)} if trained.request.base else {}),
    }


def zero_text(trained: Trained) -> str:
    """What round 0 of a continued tokenizer shows: the text in its base's tokens."""
    return t(
        "Round 0: the text in {base}'s tokens, before any new merge. Press ▶ or →.", base=trained.request.base_label
    )


# -- the chart and the table below the player ------------------------------------------------


def count_chart_points(trained: Trained, max_points: int = 1000) -> list[dict]:
    """The winning count per round, at most ``max_points`` points: each bucket of consecutive
    rounds keeps its round with the highest count (exact maxima, so no peak is lost)."""
    counts = trained.trace.counts
    size = max(1, -(-len(counts) // max_points))
    points = []
    for start in range(0, len(counts), size):
        bucket = counts[start : start + size]
        best = max(range(len(bucket)), key=bucket.__getitem__)
        points.append({"round": start + best + 1, "count": bucket[best]})
    return points


def merge_labels(trained: Trained) -> list[tuple[str, str, str]]:
    """(left, right, new token) labels of every merge, built once (at the first search)."""
    cached = trained.extras.get("merge_labels")
    if cached is None:
        trace, label = trained.trace, token_html.display_bytes
        symbols, lefts, rights = trace.symbols, trace.columns["left"], trace.columns["right"]
        cached = [(label(symbols[a]), label(symbols[b]), label(symbols[a] + symbols[b])) for a, b in zip(lefts, rights)]
        trained.extras["merge_labels"] = cached
    return cached


def search_merges(trained: Trained, query: str) -> list[int]:
    """Rounds (1-based) whose parts or new token contain ``query`` (a space may be typed as a
    space or ·), or whose id or round is the number typed; every round when the query is empty."""
    if not query:
        return list(range(1, trained.num_merges + 1))
    labels = merge_labels(trained)
    needle = token_html.display_str(query)
    number = int(query.strip()) if query.strip().isdigit() else None
    first_id = trained.trace.base  # merge k (from 1) made token first_id + k - 1
    return [
        k
        for k, names in enumerate(labels, start=1)
        if any(needle in name for name in names) or number in (first_id + k - 1, k)
    ]


def merges_rows(trained: Trained, rounds: list[int]) -> dict[str, list]:
    """Columns of the merge table (headers in the session's language) for the given rounds only (a page of it,
    not all 8,000)."""
    records = [trained.trace[k - 1] for k in rounds]
    label = token_html.display_bytes
    return {
        t("round"): rounds,
        t("id"): [r.new_id for r in records],
        t("left"): [label(r.left) for r in records],
        t("right"): [label(r.right) for r in records],
        t("new token"): [label(r.left + r.right) for r in records],
        t("count"): [r.count for r in records],
        t("tie"): [r.tied for r in records],
    }


PLAYER_KEY = "merge_player"
"""The player component's widget key: its state exists only while the Merges page shows it."""


def player_mounted(s: Session) -> bool:
    """Whether the player is on screen already (then its payload must not change: no resend)."""
    return PLAYER_KEY in s.state
