"""The ``train`` command: train on files (streamed) or stdin, save, and print what was made."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import formats
from ..formats import FormatName
from ..training import TrainResult, train
from ..training.corpus import expand_paths, train_files
from .errors import CliError
from .parser import pattern_arg
from .progress import TrainingProgress
from .text_io import read_all


def run_train(args: argparse.Namespace) -> int:
    """``train``: train on the files (or stdin), save in the formats asked for, print a summary."""
    pattern = pattern_arg(args.pattern)
    fmts = _formats_arg(args.format)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)  # before training, so a bad --out fails fast
    progress = None if args.quiet else TrainingProgress(sys.stderr)
    try:
        result, n_bytes = _run_training(args, pattern, progress)
        if progress is not None and result.stopped_early:
            progress.end_early(result.tokenizer.num_merges)
    finally:
        if progress is not None:
            progress.close()
    tokenizer = result.tokenizer
    n_tokens = tokens_on_training_text(result)
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


def tokens_on_training_text(result: TrainResult) -> int:
    """How many tokens the trained tokenizer makes of its training text, from the training's own record.

    The pre-tokens start as their bytes, and each merge replaced ``replaced`` (weighted) occurrences of its pair by
    one symbol; encoding replays the merges in rank order as training made them, so what is left is what encoding
    gives (tests hold the two equal). Special tokens are one token each. O(merges + distinct pre-tokens), where
    encoding the pre-tokens again took 0.23 s of the CLI's 1.6 s on docs10m at 5,000.

    >>> from bpe_core import train
    >>> result = train("low low lower", 259)
    >>> tokens_on_training_text(result), len(result.tokenizer.encode("low low lower"))
    (5, 5)
    """
    start = sum(len(pretoken.encode("utf-8")) * count for pretoken, count in result.pretoken_counts.items())
    return result.special_token_count + start - sum(record.replaced for record in result.trace)


def _run_training(
    args: argparse.Namespace, pattern: str | None, progress: TrainingProgress | None
) -> tuple[TrainResult, int]:
    """Train from stdin (read whole) or from files (streamed); returns the result and the bytes read."""

    if args.files == ["-"]:
        text = read_all("-")
        on_step = None if progress is None else (lambda done, total: progress("train", done, total))
        result = train(
            text,
            args.vocab_size,
            special_tokens=args.special,
            pattern=pattern,
            progress=on_step,
            min_frequency=args.min_frequency,
            max_token_length=args.max_token_length,
            runners_up=0,  # the trace's runner-ups are for the app's player: the files written hold none
        )
        return result, len(text.encode("utf-8"))
    if "-" in args.files:
        raise CliError("'-' (stdin) cannot be mixed with files")
    dask = None
    if args.dask_workers is not None or args.dask_scheduler is not None:
        from ..distributed import DaskSettings

        dask = DaskSettings(scheduler=args.dask_scheduler, workers=args.dask_workers or 2)
    paths = expand_paths(args.files)
    result = train_files(
        paths,
        args.vocab_size,
        special_tokens=args.special,
        pattern=pattern,
        progress=progress,
        dask=dask,
        min_frequency=args.min_frequency,
        max_token_length=args.max_token_length,
        runners_up=0,
    )
    return result, sum(path.stat().st_size for path in paths)


def _formats_arg(values: list[str] | None) -> list[FormatName]:
    """The formats asked for, in the order given, once each (argparse has checked each name)."""
    if not values:
        return ["bpe-playground"]
    if "all" in values:
        return list(formats.FORMATS)
    by_name: dict[str, FormatName] = {name: name for name in formats.FORMATS}
    return [by_name[value] for value in dict.fromkeys(values)]
