"""The command line's arguments: ``train``, ``encode`` and ``decode`` and their options (the analyses'
commands add theirs through :func:`bpe_core.cli.analysis.add_commands`).

>>> build_parser().parse_args(["encode", "-", "--reference", "gpt2"]).reference
'gpt2'
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from .. import formats
from ..pretokenize import PATTERNS
from . import analysis, check, extend, overlap
from .errors import PROG, CliError


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block before its message; one line is easier to read in a log.
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m bpe_core``'s arguments; an error raises :class:`CliError`."""
    parser = _Parser(
        prog=PROG,
        description="BPE tokenizers: train, extend, encode, decode and check them; measure them (choose, "
        "languages, health, overlap).",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    train = commands.add_parser("train", help="train a tokenizer on text files and save it")
    train.add_argument(
        "files", nargs="+", metavar="FILE", help="UTF-8 training text: paths or glob patterns, or '-' for stdin"
    )
    train.add_argument("--vocab-size", type=int, required=True, help="256 bytes + merges + special tokens")
    train.add_argument("--out", required=True, help="directory to write the tokenizer files into")
    # One token a flag, repeated for more (as extend's): "--special TOKEN FILE" took FILE for a second token.
    train.add_argument(
        "--special",
        "--special-token",
        action="append",
        default=[],
        metavar="TOKEN",
        help="a special token, never split (repeat for more)",
    )
    train.add_argument(
        "--pattern",
        default="gpt2",
        metavar="NAME|REGEX|none",
        help=f"pre-tokenization: {', '.join(PATTERNS)}, a regex, or 'none' (default gpt2)",
    )
    train.add_argument(
        "--format",
        action="append",
        choices=[*formats.FORMATS, "all"],
        help="file format(s) to write; repeatable (default bpe-playground)",
    )
    extend.add_limits(train)
    train.add_argument("--quiet", action="store_true", help="no progress bar")
    dask = train.add_mutually_exclusive_group()
    dask.add_argument("--dask-scheduler", metavar="ADDRESS", help="count pre-tokens on this Dask cluster (tcp://...)")
    dask.add_argument(
        "--dask-workers", type=int, metavar="N", help="count pre-tokens on a local Dask cluster of N workers"
    )

    for name, help_text in (("encode", "text -> token ids"), ("decode", "token ids -> text")):
        command = commands.add_parser(name, help=help_text)
        what = "UTF-8 text" if name == "encode" else "whitespace-separated token ids"
        command.add_argument("file", nargs="?", default="-", help=f"{what} ('-' or nothing for stdin)")
        add_tokenizer_options(command)
        command.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    analysis.add_commands(commands, add_tokenizer_options)
    check.add_command(commands)
    extend.add_command(commands)
    overlap.add_command(commands)
    return parser


def add_tokenizer_options(command: argparse.ArgumentParser) -> None:
    """--tokenizer or --reference, and what a tokenizer file may leave out (read by ``encode.load_tokenizer``)."""
    source = command.add_mutually_exclusive_group(required=True)
    source.add_argument("--tokenizer", metavar="PATH", help="a tokenizer file or directory")
    source.add_argument("--reference", metavar="NAME", help="a built-in tokenizer: gpt2, cl100k_base, llama3, ...")
    command.add_argument("--format", choices=formats.FORMATS, help="the tokenizer file's format (default: detect)")
    command.add_argument(
        "--pattern",
        default=None,
        metavar="NAME|REGEX|none",
        help="pattern for formats that do not store one: gpt2 files (default gpt2) and tiktoken files that are no "
        "known model's (Llama 3 and 4, Qwen, cl100k and o200k files are recognised)",
    )
    command.add_argument(
        "--special-id",
        nargs=2,
        action="append",
        default=[],
        metavar=("TOKEN", "ID"),
        help="a special token for tiktoken files, which do not store them (repeatable)",
    )


def pattern_arg(value: str) -> str | None:
    """A ``--pattern`` value: a name or regex, or None for ``none`` (no pre-tokenization)."""
    return None if value.lower() == "none" else value
