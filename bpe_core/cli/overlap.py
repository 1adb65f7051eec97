"""``python -m bpe_core overlap A B``: how two vocabularies overlap, compared by bytes
(:mod:`bpe_core.analysis.overlap`). A and B are reference names or tokenizer files::

    python -m bpe_core overlap gpt2 cl100k_base
    python -m bpe_core overlap my_tok/tokenizer.json o200k_base --list 20 --script han

Prints the sizes, shared tokens and Jaccard, the special tokens (apart), a table by script and one by length
in bytes, then the first tokens (by id) only in A, only in B and in both.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..analysis.overlap import SCRIPTS
from ..formats import PatternRequired
from .analysis import table
from .errors import CliError
from .text_io import open_output


def add_command(commands: argparse._SubParsersAction) -> None:
    overlap = commands.add_parser("overlap", help="vocabulary overlap of two tokenizers: shared, only in one, Jaccard")
    for name in ("a", "b"):
        overlap.add_argument(name, metavar=name.upper(), help="a built-in tokenizer's name (gpt2, ...) or a file")
    overlap.add_argument("--list", type=int, default=10, metavar="N", help="tokens listed of each set (10)")
    overlap.add_argument("--script", choices=SCRIPTS, help="list only tokens of this script")


def load(operand: str, load_tokenizer: Callable[..., Any]) -> Any:
    """A tokenizer by a reference's name or a file's path, through the command line's own loader
    (``bpe_core.cli.encode.load_tokenizer``, handed in: this module is imported by the parser, which it imports)."""
    from ..reference import reference_files, reference_names, reference_spec

    if operand in reference_names() and reference_spec(operand).kind == "file":
        # DeepSeek V4, Mistral 7B v3: reference() names their files rather than building them.
        operand = str(next(iter(reference_files(operand).values())))
    by_name = operand in reference_names()
    if not by_name and not Path(operand).exists():
        raise CliError(f"{operand}: no such file, nor a built-in tokenizer ({', '.join(reference_names())})")
    args = argparse.Namespace(
        reference=operand if by_name else None,
        tokenizer=None if by_name else operand,
        format=None,
        pattern=None,
        special_id=[],
    )
    try:
        return load_tokenizer(args)
    except PatternRequired:  # a tiktoken file of no known model: its vocabulary is all that is compared here
        args.pattern = "none"
        return load_tokenizer(args)


def run_overlap(args: argparse.Namespace, load_tokenizer: Callable[..., Any]) -> int:
    from ..analysis.overlap import vocabulary_overlap

    if args.list < 0:
        raise CliError(f"--list {args.list}: give a number of tokens, 0 or more")
    found = vocabulary_overlap(load(args.a, load_tokenizer), load(args.b, load_tokenizer))
    a, b = f"A ({args.a})", f"B ({args.b})"
    lines = table(
        ["", "tokens"],
        [
            [a, found.size_a],
            [b, found.size_b],
            ["shared", found.shared.__len__()],
            ["only in A", len(found.only_a)],
            ["only in B", len(found.only_b)],
            ["Jaccard", found.jaccard],
        ],
    )
    lines += ["", "compared by bytes (GPT-2's Ġ alphabet and SentencePiece's ▁ undone); special tokens apart:"]
    for label, specials in ((a, found.specials_a), (b, found.specials_b), ("both", found.shared_specials)):
        lines.append(f"  {label}: {_listed(specials)}")
    headers = ["shared", "only in A", "only in B"]
    lines += ["", *table(["script", *headers], [list(row) for row in found.by_script])]
    lines += ["", *table(["bytes", *headers], [list(row) for row in found.by_length])]
    for which, label in (("only_a", "only in A"), ("only_b", "only in B"), ("shared", "shared")):
        tokens = found.tokens(which, args.script)
        where = f", {args.script}" if args.script else ""
        shown = " ".join(_shown(token) for token in tokens[: args.list])
        lines += ["", f"{label}{where} ({len(tokens):,}; the first by id): {shown}"]
    with open_output(None) as out:
        out.write("\n".join(lines) + "\n")
    return 0


def _listed(specials: tuple[str, ...], most: int = 8) -> str:
    if not specials:
        return "none"
    more = f" … ({len(specials) - most:,} more)" if len(specials) > most else ""
    return " ".join(specials[:most]) + more


def _shown(token: bytes) -> str:
    """A token as a Python literal: its text when it is UTF-8, else its bytes."""
    try:
        return repr(token.decode("utf-8"))
    except UnicodeDecodeError:
        return repr(token)
