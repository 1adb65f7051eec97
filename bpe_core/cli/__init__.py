"""Command line: ``python -m bpe_core train | extend | encode | decode | choose | languages | health | check |
overlap``.

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

Errors are one line on stderr and exit status 2 (:mod:`.errors`). The commands: :mod:`.train`
(with :mod:`.progress`, its bars), :mod:`.extend` (new merges on an existing tokenizer),
:mod:`.encode` (encode and decode), :mod:`.analysis` (choose a vocab
size, the cost of languages, a tokenizer's health: tables on stdout), :mod:`.check` (a learner's
merges against bpe_core's training), :mod:`.overlap` (two vocabularies compared); their arguments:
:mod:`.parser`; files and stdin/stdout: :mod:`.text_io`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .. import formats
from . import analysis
from .encode import load_tokenizer, run_decode, run_encode
from .errors import CliError, describe, fail
from .parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.command == "train":
            from .train import run_train  # training's modules (and tqdm) load only when training

            return run_train(args)
        if args.command == "encode":
            return run_encode(args)
        if args.command == "extend":
            from .extend import run_extend

            return run_extend(args)
        if args.command == "check":
            from .check import run_check

            return run_check(args)
        if args.command == "overlap":
            from .overlap import run_overlap

            return run_overlap(args, load_tokenizer)
        if args.command in analysis.COMMANDS:  # they read the whole text: any family, SentencePiece included
            return analysis.run(args, load_tokenizer)
        return run_decode(args)
    except CliError as error:
        return fail(str(error))
    except formats.PatternRequired as error:  # said in the command line's words, not the library's
        return fail(str(error).replace(formats.PatternRequired.ASK, "give --pattern:"))
    except (formats.FormatError, ValueError, KeyError, OSError, UnicodeError, RuntimeError) as error:
        if isinstance(error, BrokenPipeError):
            return 0  # `... | head`: the reader has what it wanted
        message = describe(error)
        # The library's "vocab_size N is too small" names its parameter; here it is an option.
        return fail("--" + message.replace("_", "-", 1) if message.startswith("vocab_size ") else message)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return fail("interrupted")
