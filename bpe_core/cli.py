"""Command line: ``python -m bpe_core train | encode | decode`` (and ``choose | languages | health``,
in :mod:`bpe_core.cli_analysis`).

Train a tokenizer and save it; several files or glob patterns are streamed (memory does not
grow with the corpus), and ``--dask-workers``/``--dask-scheduler`` count pre-tokens on Dask::

    python -m bpe_core train corpus.txt --vocab-size 4096 --out my_tok --special "<|endoftext|>"
    python -m bpe_core train corpus.txt --vocab-size 4096 --out my_tok --format all
    python -m bpe_core train 'data/*.txt' more.txt --vocab-size 32000 --out my_tok --dask-workers 4

Encode a file (or stdin) to ids, space-separated, streaming, so a huge file never has all its
ids in memory; decode them back::

    python -m bpe_core encode corpus.txt --tokenizer my_tok > ids.txt
    python -m bpe_core encode - --reference cl100k_base < corpus.txt
    python -m bpe_core decode ids.txt --tokenizer my_tok

Errors are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import codecs
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from . import cli_analysis, formats
from .cli_streams import CliError, open_input, open_output, read_all, read_chunks, read_ids
from .pretokenize import PATTERNS
from .tokenizer import Tokenizer

if TYPE_CHECKING:
    from .cli_progress import TrainingProgress
    from .training import TrainResult

PROG = "python -m bpe_core"
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage block before its message; one line is easier to read in a log.
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Byte-level BPE: train, encode, decode.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    train = commands.add_parser("train", help="train a tokenizer on text files and save it")
    train.add_argument(
        "files", nargs="+", metavar="FILE", help="UTF-8 training text: paths or glob patterns, or '-' for stdin"
    )
    train.add_argument("--vocab-size", type=int, required=True, help="256 bytes + merges + special tokens")
    train.add_argument("--out", required=True, help="directory to write the tokenizer files into")
    train.add_argument("--special", nargs="+", action="extend", default=[], metavar="TOKEN", help="special tokens")
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
        _add_tokenizer_options(command)
        command.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    cli_analysis.add_commands(commands, _add_tokenizer_options)
    return parser


def _add_tokenizer_options(command: argparse.ArgumentParser) -> None:
    """--tokenizer or --reference, and what a tokenizer file may leave out (read by _load_tokenizer)."""
    source = command.add_mutually_exclusive_group(required=True)
    source.add_argument("--tokenizer", metavar="PATH", help="a tokenizer file or directory")
    source.add_argument("--reference", metavar="NAME", help="gpt2, cl100k_base or o200k_base")
    command.add_argument("--format", choices=formats.FORMATS, help="the tokenizer file's format (default: detect)")
    command.add_argument(
        "--pattern",
        default="gpt2",
        metavar="NAME|REGEX|none",
        help="pattern for formats that do not store one (gpt2, tiktoken)",
    )
    command.add_argument(
        "--special-id",
        nargs=2,
        action="append",
        default=[],
        metavar=("TOKEN", "ID"),
        help="a special token for tiktoken files, which do not store them (repeatable)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.command == "train":
            return _train(args)
        if args.command == "encode":
            return _encode(args)
        if args.command in cli_analysis.COMMANDS:
            return cli_analysis.run(args, _load_tokenizer)
        return _decode(args)
    except CliError as error:
        return _fail(str(error))
    except (formats.FormatError, ValueError, KeyError, OSError, UnicodeError, RuntimeError) as error:
        if isinstance(error, BrokenPipeError):
            return 0  # `... | head`: the reader has what it wanted
        return _fail(_describe(error))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return _fail("interrupted")


def _fail(message: str) -> int:
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_USAGE


def _describe(error: BaseException) -> str:
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, OSError) and error.filename and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return str(error) or type(error).__name__


# -- train -----------------------------------------------------------------------------------------


def _train(args: argparse.Namespace) -> int:
    from .cli_progress import TrainingProgress  # training's modules load only when training

    pattern = _pattern_arg(args.pattern)
    fmts = _formats_arg(args.format)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)  # before training, so a bad --out fails fast
    progress = None if args.quiet else TrainingProgress(sys.stderr)
    try:
        result, n_bytes = _run_training(args, pattern, progress)
    finally:
        if progress is not None:
            progress.close()
    tokenizer = result.tokenizer
    n_tokens = result.special_token_count + sum(
        len(tokenizer.encode_ordinary(pretoken)) * count for pretoken, count in result.pretoken_counts.items()
    )
    training = {
        **result.settings,
        "source": args.files[0] if len(args.files) == 1 else args.files,
        "source_bytes": n_bytes,
        "merges": tokenizer.num_merges,
        "seconds": round(result.seconds, 3),
        "pretoken_count": result.pretoken_count,
        "unique_pretokens": result.unique_pretokens,
        "stopped_early": result.stopped_early,
        "stop_reason": result.stop_reason,
        "tokens_on_training_text": n_tokens,
    }
    written = [path for fmt in fmts for path in formats.save(tokenizer, out, fmt, training=training)]
    lines = [
        f"merges made:         {tokenizer.num_merges:,} of {args.vocab_size - 256 - len(args.special):,} requested"
        + (f" (stopped early: {result.stop_reason})" if result.stopped_early else ""),
        f"training time:       {result.seconds:.2f} s",
        f"pre-tokens:          {result.pretoken_count:,} ({result.unique_pretokens:,} unique)",
        f"training text:       {n_bytes:,} bytes -> {n_tokens:,} tokens"
        + (f" = {n_bytes / n_tokens:.3f} bytes per token" if n_tokens else ""),
        "files written:       " + ", ".join(str(path) for path in written),
    ]
    print("\n".join(lines), file=sys.stderr)
    return 0


def _run_training(
    args: argparse.Namespace, pattern: str | None, progress: TrainingProgress | None
) -> tuple[TrainResult, int]:
    """Train from stdin (read whole) or from files (streamed); returns the result and the bytes read."""
    from .corpus import expand_paths, train_files
    from .training import train

    if args.files == ["-"]:
        text = read_all("-")
        on_step = None if progress is None else (lambda done, total: progress("train", done, total))
        result = train(text, args.vocab_size, special_tokens=args.special, pattern=pattern, progress=on_step)
        return result, len(text.encode("utf-8"))
    if "-" in args.files:
        raise CliError("'-' (stdin) cannot be mixed with files")
    dask = None
    if args.dask_workers is not None or args.dask_scheduler is not None:
        from .distributed import DaskSettings

        dask = DaskSettings(scheduler=args.dask_scheduler, workers=args.dask_workers or 2)
    paths = expand_paths(args.files)
    result = train_files(
        paths, args.vocab_size, special_tokens=args.special, pattern=pattern, progress=progress, dask=dask
    )
    return result, sum(path.stat().st_size for path in paths)


# -- encode / decode -------------------------------------------------------------------------------


def _load_tokenizer(args: argparse.Namespace) -> Tokenizer:
    if args.reference is not None:
        from .reference import reference, reference_names

        if args.reference not in reference_names():
            raise CliError(
                f"unknown reference tokenizer {args.reference!r}; choose one of {', '.join(reference_names())}"
            )
        return reference(args.reference)
    specials = {}
    for token, identifier in args.special_id:
        if not identifier.isdigit():
            raise CliError(f"--special-id {token} {identifier}: the id must be a non-negative integer")
        specials[token] = int(identifier)
    return formats.load(args.tokenizer, args.format, special_tokens=specials, pattern=_pattern_arg(args.pattern))


def _encode(args: argparse.Namespace) -> int:
    tokenizer = _load_tokenizer(args)
    with open_input(args.file) as source, open_output(args.output) as sink:
        # Each id's text made once: str() of millions of ints costs more than a list lookup.
        id_text = [str(token_id) for token_id in range(tokenizer.n_vocab)]
        separator = ""
        for ids in tokenizer.encode_iterable_batches(read_chunks(source, args.file)):
            if ids:
                sink.write(separator + " ".join(map(id_text.__getitem__, ids)))
                separator = " "
        sink.write("\n")
    return 0


def _decode(args: argparse.Namespace) -> int:
    tokenizer = _load_tokenizer(args)
    # Ids are decoded in batches; a character split across two batches must still come out whole.
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    with open_input(args.file) as source, open_output(args.output) as sink:
        batch: list[int] = []
        for token_id in read_ids(source):
            batch.append(token_id)
            if len(batch) >= 4096:
                sink.write(decoder.decode(_decode_bytes(tokenizer, batch)))
                batch.clear()
        sink.write(decoder.decode(_decode_bytes(tokenizer, batch), final=True))
    return 0


def _decode_bytes(tokenizer: Tokenizer, ids: list[int]) -> bytes:
    try:
        return tokenizer.decode_bytes(ids)
    except (KeyError, ValueError) as error:
        raise CliError(_describe(error)) from None


def _pattern_arg(value: str) -> str | None:
    return None if value.lower() == "none" else value


def _formats_arg(values: list[str] | None) -> list[str]:
    if not values:
        return ["bpe-playground"]
    if "all" in values:
        return list(formats.FORMATS)
    return list(dict.fromkeys(values))


if __name__ == "__main__":
    raise SystemExit(main())
