"""The ``encode`` and ``decode`` commands: text to ids and back, streamed, with any tokenizer file
or a reference tokenizer."""

from __future__ import annotations

import argparse
import codecs
from collections.abc import Iterator
from typing import Any, TextIO

from .. import formats
from ..encoding.tokenizer import Tokenizer
from .errors import CliError, describe
from .parser import pattern_arg
from .text_io import open_input, open_output, read_chunks


def load_tokenizer(args: argparse.Namespace) -> Any:
    """The tokenizer ``--tokenizer`` or ``--reference`` names: any family the library loads."""
    if args.reference is not None:
        from ..reference import reference, reference_names

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
    pattern = formats.NOT_GIVEN if args.pattern is None else pattern_arg(args.pattern)
    return formats.load(args.tokenizer, args.format, special_tokens=specials or None, pattern=pattern)


def run_encode(args: argparse.Namespace) -> int:
    """``encode``: text in, ids out (space-separated), streamed."""
    tokenizer = load_tokenizer(args)
    with open_input(args.file) as source, open_output(args.output) as sink:
        # Each id's text made once: str() of millions of ints costs more than a list lookup.
        id_text = [str(token_id) for token_id in range(tokenizer.n_vocab)]
        separator = ""
        # Streamed where the family allows it; a pipeline or SentencePiece model reads the whole text at once.
        for ids in tokenizer.encode_iterable_batches(read_chunks(source, args.file)):
            if ids:
                sink.write(separator + " ".join(map(id_text.__getitem__, ids)))
                separator = " "
        sink.write("\n")
    return 0


def run_decode(args: argparse.Namespace) -> int:
    """``decode``: ids in (whitespace, commas or brackets between them), text out."""
    tokenizer = load_tokenizer(args)
    # Ids are decoded in batches; a character split across two batches must still come out whole.
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    with open_input(args.file) as source, open_output(args.output) as sink:
        if not isinstance(tokenizer, Tokenizer):
            # A pipeline's or SentencePiece's decoder sees all the tokens at once (Metaspace drops the first token's
            # space, byte fallback joins bytes across tokens).
            sink.write(_decoded(tokenizer, list(read_ids(source))))
            return 0
        batch: list[int] = []
        for token_id in read_ids(source):
            batch.append(token_id)
            if len(batch) >= 4096:
                sink.write(decoder.decode(_decode_bytes(tokenizer, batch)))
                batch.clear()
        sink.write(decoder.decode(_decode_bytes(tokenizer, batch), final=True))
    return 0


def _decoded(tokenizer: Any, ids: list[int]) -> str:
    try:
        return tokenizer.decode(ids)
    except (KeyError, IndexError, ValueError) as error:
        raise CliError(describe(error)) from None


def _decode_bytes(tokenizer: Tokenizer, ids: list[int]) -> bytes:
    try:
        return tokenizer.decode_bytes(ids)
    except (KeyError, ValueError) as error:
        raise CliError(describe(error)) from None


def read_ids(source: TextIO) -> Iterator[int]:
    """The ids in a text: separated by whitespace, commas or brackets (a printed Python list reads too).

    >>> import io
    >>> list(read_ids(io.StringIO("[1, 2]\\n3")))
    [1, 2, 3]
    """
    for line_number, line in enumerate(source, 1):
        for word in line.replace(",", " ").replace("[", " ").replace("]", " ").split():
            if not word.isdigit():
                raise CliError(f"line {line_number}: {word[:40]!r} is not a token id")
            yield int(word)
