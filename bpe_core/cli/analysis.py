"""Command line for the analyses: ``choose``, ``languages`` and ``health``, plain text tables on stdout.

::

    python -m bpe_core choose --tokenizer my_tok --heldout heldout.txt --sizes 8000,16000 --d-model 768
    python -m bpe_core languages --reference cl100k_base
    python -m bpe_core languages --tokenizer my_tok --texts my_parallel_dir --baseline de
    python -m bpe_core health --reference gpt2 --heldout heldout.txt --list 5

:mod:`bpe_core.cli` registers them (:func:`add_commands`) and runs them (:func:`run`), handing in
its own tokenizer options and loader so that every command loads tokenizers the same way.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

from ..encoding.tokenizer import Tokenizer
from .errors import CliError
from .text_io import open_output, read_all

COMMANDS = ("choose", "languages", "health")


def add_commands(commands: argparse._SubParsersAction, add_tokenizer_options: Callable) -> None:
    """Add the three commands to ``commands``; ``add_tokenizer_options(parser)`` adds --tokenizer etc."""
    choose = commands.add_parser("choose", help="vocab size: tokens, gains, parameters and rare tokens per size")
    add_tokenizer_options(choose)
    choose.add_argument("--heldout", required=True, metavar="FILE", help="held-out text to measure on")
    choose.add_argument("--sizes", metavar="N,N,...", help="vocab sizes to show (default: powers of two and its own)")
    choose.add_argument("--d-model", type=int, default=768, help="model width for the parameter count (768)")
    choose.add_argument("--untied", action="store_true", help="output layer not tied to the embeddings (x2)")
    choose.add_argument("--min-uses", type=int, default=10, help="a token used fewer times is rare (10)")
    choose.add_argument("--min-gain", type=float, default=0.005, help="the suggestion's rule: 0.005 = 0.5%%")

    languages = commands.add_parser("languages", help="tokens and premium per language on a parallel text")
    add_tokenizer_options(languages)
    languages.add_argument("--texts", metavar="DIR", help="one <code>.txt per language (default: the built-in sample)")
    languages.add_argument("--baseline", default="en", help="the language premiums are relative to (en)")
    languages.add_argument("--vocab-size", type=int, metavar="N", help="measure the tokenizer cut to this size")

    health = commands.add_parser("health", help="unreachable, never emitted and intermediate tokens")
    add_tokenizer_options(health)
    health.add_argument("--heldout", metavar="FILE", help="text for the never-emitted and intermediate classes")
    health.add_argument("--threshold", type=float, default=0.02, help="intermediate below this share (0.02)")
    health.add_argument("--list", type=int, default=10, metavar="N", help="tokens listed per class (10)")


def run(args: argparse.Namespace, load_tokenizer: Callable) -> int:
    """Run one of :data:`COMMANDS`; ``load_tokenizer(args)`` gives the tokenizer the options name."""
    tokenizer = load_tokenizer(args)
    lines = {"choose": _choose, "languages": _languages, "health": _health}[args.command](args, tokenizer)
    with open_output(None) as out:
        out.write("\n".join(lines) + "\n")
    return 0


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Columns padded to their widest cell (as a terminal shows it: CJK characters take two columns,
    combining marks none); numbers and percentages right-aligned, text left-aligned.

    >>> print("\\n".join(table(["a", "n"], [["x", 1000], ["中文", 2]])))
    a         n
    x     1,000
    中文      2
    """
    cells = [[_cell(value) for value in row] for row in rows]
    right = [all(_is_number(row[i]) for row in rows) for i in range(len(headers))]
    widths = [max(_width(str(h)), *(_width(row[i]) for row in cells)) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        padded = [
            " " * (w - _width(v)) + v if is_right else v + " " * (w - _width(v))
            for v, w, is_right in zip(values, widths, right)
        ]
        return "  ".join(padded).rstrip()

    return [line([str(h) for h in headers]), *(line(row) for row in cells)]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) or (isinstance(value, str) and re.fullmatch(r"[0-9.,]+%", value) is not None)


def _width(text: str) -> int:
    wide, zero = ("W", "F"), ("Mn", "Me", "Cf")
    return sum(
        0 if unicodedata.category(c) in zero else 2 if unicodedata.east_asian_width(c) in wide else 1 for c in text
    )


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3f}"
    return str(value)


def _choose(args: argparse.Namespace, tokenizer: Tokenizer) -> list[str]:
    from ..analysis.choose import size_curve, size_table, suggest_size
    from ..analysis.sizes import vocab_size_of

    heldout = read_all(args.heldout)
    smallest, largest = vocab_size_of(tokenizer, 0), vocab_size_of(tokenizer)
    if args.sizes:
        sizes = [_size(word) for word in args.sizes.split(",") if word.strip()]
        if not sizes:
            raise CliError(f"--sizes: {args.sizes[:20]!r} names no vocab size (whole numbers, comma-separated)")
    else:
        sizes = [smallest, *(2**p for p in range(9, 40) if smallest < 2**p < largest), largest]
    rows = size_table(tokenizer, heldout, sizes, d_model=args.d_model, tied=not args.untied, min_uses=args.min_uses)
    headers = ["vocab size", "tokens", "bytes/token", "tokens/1k chars", "gain of 1k merges", "embedding params"]
    body = [
        [
            row.vocab_size,
            row.tokens,
            row.bytes_per_token,
            row.tokens_per_1000_chars,
            f"{row.gain:.2%}",
            row.embedding_parameters,
            row.rare_tokens,
            row.note or "",
        ]
        for row in rows
    ]
    lines = table([*headers, f"rare (<{args.min_uses} uses)", ""], body)
    suggestion = suggest_size(size_curve(tokenizer, heldout, min_uses=None), min_gain=args.min_gain)
    if suggestion.dips_at is not None:  # the rule's answer depends on the threshold: say so where it is seen
        print(
            f"warning: the gain of 1,000 more merges falls below {suggestion.min_gain:.2%} at "
            f"{suggestion.dips_at:,} and rises above it again later; read the gain column before you choose",
            file=sys.stderr,
        )
    return [*lines, "", f"suggested: {suggestion.vocab_size:,}. {suggestion.reason}"]


def _size(word: str) -> int:
    text = word.strip().replace("_", "")
    if not text.isdigit():
        raise CliError(f"--sizes: {word.strip()[:20]!r} is not a vocab size (whole numbers, comma-separated)")
    return int(text)


def _languages(args: argparse.Namespace, tokenizer: Tokenizer) -> list[str]:
    from ..analysis.languages import LANGUAGE_BY_CODE, language_costs, parallel_sample, read_parallel

    if args.texts is None:
        texts = parallel_sample()
    else:
        directory = Path(args.texts)
        if not directory.is_dir():
            raise CliError(f"--texts {directory}: not a directory")
        files = sorted(directory.glob("*.txt"))
        if not files:
            raise CliError(f"--texts {directory}: no .txt files (one <code>.txt per language)")
        texts = read_parallel({path.name: path.read_bytes() for path in files})
    costs = language_costs(tokenizer, texts, baseline=args.baseline, vocab_size=args.vocab_size)
    body = [
        [
            row.code,
            LANGUAGE_BY_CODE[row.code].native if row.code in LANGUAGE_BY_CODE else row.name,
            row.tokens,
            row.tokens_per_sentence,
            row.bytes,
            row.characters,
            f"{row.premium:.2f}",
        ]
        for row in costs.rows
    ]
    lines = table(["code", "language", "tokens", "tokens/sentence", "bytes", "characters", "premium"], body)
    spread = f"premium vs {costs.baseline}: max/min {costs.max_min_ratio:.2f}, Gini {costs.gini:.3f}"
    return [*lines, "", spread]


def _health(args: argparse.Namespace, tokenizer: Tokenizer) -> list[str]:
    from ..analysis.health import health_report

    heldout = read_all(args.heldout) if args.heldout else None
    report = health_report(tokenizer, heldout, intermediate_threshold=args.threshold)
    counts = report.counts()
    lines = table(["class", "tokens"], [[name, count] for name, count in counts.items()])
    for name, count in counts.items():
        listed = report.rows_of(name)[: max(args.list, 0)]
        if not listed:
            continue
        lines += ["", f"{name} ({count:,}): {report.explanations[name]}"]
        shown = [[str(row.id), _shown(row.token), row.reason] for row in listed]
        lines += table(["id", "token", "reason"], shown)
    return lines


def _shown(token: bytes) -> str:
    """A token as a Python literal: its text when it is UTF-8, else its bytes."""
    try:
        return repr(token.decode("utf-8"))
    except UnicodeDecodeError:
        return repr(token)
