"""``python -m bpe_core check``: where a learner's merges part from bpe_core's training on the same text, and why.

::

    python -m bpe_core check --text corpus.txt --merges merges.txt --vocab vocab.json --specials "<|endoftext|>"
    python -m bpe_core check --text corpus.txt --merges my.model           # minbpe: its pattern and specials
    python -m bpe_core check --text toy.txt --merges pasted.txt --classic  # Sennrich et al.'s </w> merges

Prints the first difference, its cause and one sentence, both merge lists up to it, the pairs that led
at that round (the tie set flagged), which tie rules pick the learner's pair, and every hypothesis tested.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..pretokenize import PATTERNS
from .analysis import table
from .errors import CliError
from .text_io import open_output, read_all

if TYPE_CHECKING:  # the check's modules load only when the command runs
    from ..analysis.check import MergeCheck

SHOWN_BEFORE = 5
"""Merges shown before the first difference."""


def add_command(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser(
        "check", help="compare your own trainer's merges with bpe_core's, and say why they differ"
    )
    check.add_argument("--text", required=True, metavar="FILE", help="the text your trainer trained on ('-': stdin)")
    check.add_argument(
        "--merges", required=True, metavar="FILE", help="merges.txt, a minbpe .model, a tokenizer.json, or pasted lines"
    )
    check.add_argument("--vocab", metavar="FILE", help="the vocab.json beside the merges (checked against them)")
    check.add_argument(
        "--specials", nargs="+", action="extend", metavar="TOKEN", help="special tokens (default: the file's)"
    )
    check.add_argument(
        "--pattern",
        metavar="NAME|REGEX|none",
        help=f"pre-tokenization: {', '.join(PATTERNS)}, a regex, or 'none' (default: the file's, else gpt2)",
    )
    check.add_argument("--classic", action="store_true", help="classic BPE merges with </w> (Sennrich et al.)")
    check.add_argument(
        "--tie-break",
        default="greatest",
        choices=["greatest", "smallest", "first", "hf"],
        help="the rule to compare with (default greatest, as CS336)",
    )
    check.add_argument(
        "--alphabet", default="auto", choices=["auto", "gpt2", "utf-8"], help="how the merges' tokens are written"
    )


def run_check(args: argparse.Namespace) -> int:
    from ..analysis.check import check_merges, read_merges

    learner = read_merges(args.merges, args.vocab, alphabet=args.alphabet)
    specials = args.specials if args.specials is not None else learner.special_tokens
    if args.pattern is not None:
        pattern = None if args.pattern.lower() == "none" else args.pattern
    else:
        pattern = learner.pattern or "gpt2"
    if args.classic and (args.specials or args.pattern):
        raise CliError("--classic splits words on whitespace: --specials and --pattern do not apply")
    text = read_all(args.text)
    check = check_merges(
        text, learner.merges, specials, pattern=pattern, classic=args.classic, tie_break=args.tie_break
    )
    with open_output(None) as out:
        out.write("\n".join(report_lines(check, len(learner.merges))) + "\n")
    return 0


def report_lines(check: MergeCheck, total: int) -> list[str]:
    """The report as lines of text."""
    from ..analysis.check.explain import shown_pair

    if check.first_difference is None:
        return [f"{total:,} merges checked: no difference", "cause: none", check.explanation]
    k = check.first_difference
    lines = [f"first difference: merge {k + 1:,} (rank {k})", f"cause: {check.cause}", check.explanation, ""]
    rows = []
    for rank in range(max(0, k - SHOWN_BEFORE), k + 1):
        mine = shown_pair(*check.learner_merges[rank])
        ours = shown_pair(*check.reference_merges[rank]) if rank < len(check.reference_merges) else "(none left)"
        rows.append([str(rank), mine, ours, "<- differs" if rank == k else ""])
    lines += table(["rank", "your merge", "bpe_core's merge", ""], rows)
    if check.candidates:
        top, tied = check.candidates[0].count, len(check.tie_set) > 1
        lines += ["", f"pairs at merge {k + 1:,}, in bpe_core's order:"]
        learner_pair = check.learner_merges[k]
        body = [
            [
                shown_pair(c.left, c.right),
                c.count,
                "tie" if tied and c.count == top else "",
                "yours" if (c.left, c.right) == learner_pair else "",
            ]
            for c in check.candidates
        ]
        lines += table(["pair", "count", "", ""], body)
        lines.append(f"your pair occurs {check.learner_count:,} times there")
        if tied:
            rules = ", ".join(check.picking_rules) or "none of first, smallest, greatest, hf"
            lines.append(f"{len(check.tie_set):,} pairs share the top count; tie rules that pick yours: {rules}")
    if check.reproduced:
        lines += ["", "hypotheses tested (your merges each predicts in a row):"]
        lines += table(["hypothesis", "merges"], [[name, agreed] for name, agreed in check.reproduced.items()])
    lines += [
        "",
        f"after the difference: {check.later_agreeing:,} of your merges equal bpe_core's at the same rank, "
        f"{check.later_shared:,} are among bpe_core's merges",
    ]
    return lines
