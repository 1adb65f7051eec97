"""The code view beside the Merges player: a short trainer (:mod:`.trainers`) as lines in the session's language,
the lines each step of a round runs, and what a round of the trace shows on them.

The player (ui/player_code.js) draws the lines and, at every round, highlights the line that decided it: the
``top`` line (the highest count) when one pair had it, the ``tie`` line and the rule's own line when several did;
beside the lines it shows the values of the round, read from the trace it already has (:func:`round_view` is
the same reading in Python, held to the trainer's own records by tests/test_code_view.py).

>>> view = code_view("symbols", "first", "en")
>>> view["lines"][view["steps"]["tie"]].strip().startswith("best = tied[0]")
True
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any

from bpe_core import MergeRecord
from playground.learn import trainers

SEPARATOR = " ‖ "
"""Between a comment's English and its Chinese (:mod:`.trainers`)."""
STEPS = {
    "rule": "RULES[",
    "count": "count every adjacent pair",
    "top": "the highest count",
    "tie": "a tie goes by the rule",
    "record": "record the merge",
    "merge": "merge it in every word",
}
"""Each step the view points at, by the words of its line (the first line holding them)."""
_RULE_LINE = {
    rule: line.strip()
    for line in inspect.getsource(trainers).splitlines()
    for rule in trainers.RULES
    if line.lstrip().startswith(f'"{rule}": lambda')
}
"""Each rule's line of ``trainers.RULES``, shown as ``RULES["first"] = lambda ...`` above the trainer."""


def _in_language(line: str, lang: str) -> str:
    """The line with its comment in ``lang`` only (English, or Chinese for "zh")."""
    code, hash_, comment = line.partition("# ")
    if not hash_ or SEPARATOR not in comment:
        return line
    english, chinese = comment.split(SEPARATOR, 1)
    return f"{code}# {chinese if lang == 'zh' else english}".rstrip()


def source(mode: str, rule: str) -> list[str]:
    """The shown trainer, bilingual: the rule's definition, then the trainer of ``mode`` ("bytes" or "symbols")."""
    if rule not in trainers.RULES:
        raise ValueError(f"rule must be one of {', '.join(trainers.RULES)}, not {rule!r}")
    if mode not in ("bytes", "symbols"):
        raise ValueError(f"mode must be 'bytes' or 'symbols', not {mode!r}")
    definition = _RULE_LINE[rule].replace(f'"{rule}": ', f'RULES["{rule}"] = ', 1).replace(",  #", "  #", 1)
    function = trainers.train if mode == "bytes" else trainers.train_classic
    return [definition, "", *inspect.getsource(function).splitlines()]


@lru_cache(maxsize=32)
def code_view(mode: str, rule: str, lang: str) -> dict[str, Any]:
    """What the player's code view gets: the lines in ``lang``, the line of each step, the rule's name (the same
    dict for the same arguments: read it, never change it)."""
    lines = source(mode, rule)
    steps = {step: next(i for i, line in enumerate(lines) if words in line) for step, words in STEPS.items()}
    return {"lines": [_in_language(line, lang) for line in lines], "steps": steps, "rule": rule}


def round_view(record: MergeRecord) -> dict[str, Any]:
    """What the code view shows of one round (the player's JS reads the same from its payload): the steps it
    highlights, the winning count, the top pairs' counts (the winner first) and whether the rule decided."""
    tied = record.tied
    return {
        "highlight": ["rule", "tie"] if tied else ["top"],
        "count": record.count,
        "top": [((record.left, record.right), record.count)]
        + [((c.left, c.right), c.count) for c in record.candidates],
        "tied": tied,
        "tied_pairs": [(record.left, record.right)]
        + [(c.left, c.right) for c in record.candidates if c.count == record.count],
    }
