"""The ``extend`` command: grow an existing tokenizer on a corpus, every id kept, and write it in
the base's own format (a ``tokenizer.json`` with merges appended, tiktoken ranks, GPT-2 files)::

    python -m bpe_core extend corpus_pt.txt --base llama3 --vocab-size 130000 --out llama3_pt
    python -m bpe_core extend 'data/*.txt' --base my_tok/tokenizer.json --vocab-size 40000 --out bigger
    python -m bpe_core extend code.txt --base deepseek-v4 --vocab-size 129400 --special-token '<|cell|>' --out ds

A byte-level Hugging Face pipeline (DeepSeek V4's ``tokenizer.json``) is extended through its own stages
and written as that file appended to. ``--special-token`` (repeated) adds special tokens: they cut the
corpus, take the ids after the highest in use (before the new merges), and count in ``--vocab-size``.

``--base`` is a built-in tokenizer's name or a tokenizer file (directory); ``--format`` writes
another format than the base's. A base that normalizes text first (Qwen's NFC) is written as a
``tokenizer.json``, which can say so (a tiktoken file cannot).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import formats
from ..encoding.tokenizer import Tokenizer
from ..pipeline import PipelineTokenizer
from ..training.corpus import expand_paths
from ..training.extension import ExtendResult, extend, extend_files, save_extension
from .errors import CliError
from .progress import TrainingProgress
from .text_io import read_all

SOURCE_FORMATS: dict[str, formats.FormatName] = {"gpt2": "gpt2", "tiktoken": "tiktoken", "tekken": "tiktoken"}
"""The format a built-in tokenizer is written in, by its kind (Tekken's JSON has no writer: its ranks)."""


def add_command(commands: argparse._SubParsersAction) -> None:
    """``extend``'s arguments."""
    command = commands.add_parser("extend", help="add merges learned on a corpus to an existing tokenizer")
    command.add_argument("files", nargs="+", metavar="FILE", help="UTF-8 text: paths or glob patterns, or '-'")
    command.add_argument(
        "--base", required=True, metavar="NAME|FILE", help="a built-in tokenizer (llama3, cl100k_base...) or a file"
    )
    command.add_argument("--vocab-size", type=int, required=True, help="every token, the base's and the new")
    command.add_argument("--out", required=True, help="directory to write the extended tokenizer into")
    command.add_argument("--format", choices=formats.FORMATS, help="write this format (default: the base's)")
    command.add_argument("--pattern", metavar="NAME|REGEX|none", help="a tiktoken base file's pattern")
    command.add_argument(
        "--special-token",
        "--special",
        action="append",
        default=[],
        metavar="TEXT",
        help="a new special token (repeat for more): ids after the highest in use, before the new merges",
    )
    add_limits(command)
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def add_limits(command: argparse.ArgumentParser) -> None:
    """``--min-frequency`` and ``--max-token-length`` (``train`` has them too)."""
    command.add_argument(
        "--min-frequency", type=int, default=0, metavar="N", help="stop when the best pair occurs fewer times"
    )
    command.add_argument(
        "--max-token-length", type=int, metavar="BYTES", help="never make a longer token (longer pairs are skipped)"
    )


def load_base(args: argparse.Namespace) -> tuple[Tokenizer | PipelineTokenizer, formats.FormatName, Path | None]:
    """The base tokenizer, the format it came in, and its ``tokenizer.json`` (to append to) if it has one."""
    from ..reference import reference, reference_files, reference_names, reference_spec

    path = Path(args.base)
    if path.exists():
        pattern = formats.NOT_GIVEN if args.pattern is None else (None if args.pattern == "none" else args.pattern)
        fmt, file = formats.detect_format(path)
        base = formats.load(file, pattern=pattern)
        source = file if fmt == "hf" else None
    elif args.base in reference_names():
        base, kind = reference(args.base), reference_spec(args.base).kind
        fmt = SOURCE_FORMATS.get(kind, "hf")
        files = [file for file in reference_files(args.base).values() if file.name.endswith(".json")]
        source = files[0] if kind == "file" and files else None
    else:
        raise CliError(f"--base {args.base}: no such file, nor a built-in tokenizer ({', '.join(reference_names())})")
    if fmt == "tiktoken" and getattr(base, "normalization", None):
        fmt = "hf"  # a tiktoken file cannot say the text is normalized first (Qwen's NFC); a tokenizer.json can
    if fmt not in formats.FORMATS:
        raise CliError(f"--base {args.base}: a {fmt} tokenizer cannot be extended (byte-level BPE only)")
    if not isinstance(base, (Tokenizer, PipelineTokenizer)):
        raise CliError(
            f"--base {args.base}: loads as a {type(base).__name__}; extend takes byte-level BPE tokenizers "
            "(a plain bpe_core.Tokenizer, or a byte-level tokenizer.json pipeline)"
        )
    if isinstance(base, PipelineTokenizer):
        if args.format not in (None, "hf"):
            raise CliError(
                f"--base {args.base}: a Hugging Face pipeline is written as its tokenizer.json only (--format hf)"
            )
        fmt = "hf"  # a pipeline is written as its own tokenizer.json, appended to
    return base, fmt, source


def run_extend(args: argparse.Namespace) -> int:
    """``extend``: load the base, learn the new merges, write them in the base's format, print a summary."""
    base, fmt, source = load_base(args)
    if (args.format or fmt) == "tiktoken" and args.special_token:
        raise CliError(
            "--special-token: a tiktoken ranks file holds no special tokens; write --format hf, gpt2 or "
            "bpe-playground, or pass them to tiktoken.Encoding(special_tokens=...) yourself"
        )
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    bar = None if args.quiet else TrainingProgress(sys.stderr)
    progress = None if bar is None else (lambda done, total: bar("merge", done, total))
    limits = {
        "min_frequency": args.min_frequency,
        "max_token_length": args.max_token_length,
        "special_tokens": args.special_token,
    }
    try:
        if args.files == ["-"]:
            result = extend(base, read_all("-"), args.vocab_size, progress=progress, **limits)
        elif "-" in args.files:
            raise CliError("'-' (stdin) cannot be mixed with files")
        else:
            result = extend_files(base, expand_paths(args.files), args.vocab_size, progress=progress, **limits)
        if bar is not None and result.stopped_early:
            bar.end_early(len(result.merges))
    finally:
        if bar is not None:
            bar.close()
    written = save_extension(result, out, args.format or fmt, source=source if args.format in (None, "hf") else None)
    print(summary(result, args.vocab_size, written), file=sys.stderr)
    if (args.format or fmt) == "tiktoken" and base.special_tokens:
        # As the base's own file: tiktoken's format has no place for them (the user passes them, as to the base).
        first = ", ".join(f"{text} = {identifier:,}" for text, identifier in list(base.special_tokens.items())[:2])
        print(
            f"note: a tiktoken file holds no special tokens: the base's {len(base.special_tokens):,} ({first}, …) are "
            "not in it; pass them as tiktoken.Encoding(special_tokens=...) or bpe_core.load(path, special_tokens=...), "
            "or write --format hf to keep them in the file",
            file=sys.stderr,
        )
    return 0


def summary(result: ExtendResult, vocab_size: int, written: list[Path]) -> str:
    """What was made, and what it saves on the corpus."""
    before, after = result.tokens_on_counts()
    specials = result.new_special_tokens
    asked = vocab_size - len(result.base.vocab) - len(specials)
    first_merge = result.first_new_id + len(specials)
    lines = [
        f"merges added:        {len(result.merges):,} of {asked:,} requested"
        + (f" (stopped early: {result.stop_reason})" if result.stopped_early else ""),
        "new ids:             "
        + (
            f"{first_merge:,} to {first_merge + len(result.merges) - 1:,}" if result.merges else "none (no merge added)"
        ),
        f"tokens on the text:  {before:,} with the base -> {after:,}"
        + (f" ({1 - after / before:.1%} fewer)" if before else ""),
        f"time:                {result.seconds:.2f} s",
        "files written:       " + ", ".join(str(path) for path in written),
    ]
    if specials:
        lines.insert(
            1, "special tokens:      " + ", ".join(f"{text} = {identifier:,}" for text, identifier in specials.items())
        )
    return "\n".join(lines)
