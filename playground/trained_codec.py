"""A trained tokenizer as the workspace store keeps it: a JSON header (what it was trained with, its
measurements) and its packed trace, from which the tokenizer itself is rebuilt (every token is the merge of two
earlier ones). About 90 bytes a merge before compression, against ~1.5 KB a merge of objects in memory.

>>> import bpe_core
>>> from playground.trained import Request, train_job
>>> request = Request("toy", "Toy", "d", "byte", 260, "gpt2", "gpt2", ())
>>> trained = train_job("aaabdaaabac aaabdaaabac", request)
>>> from_bytes(request, to_bytes(trained)).tokenizer.merges == trained.tokenizer.merges
True
"""

from __future__ import annotations

import json
import struct
from typing import Any

import bpe_core
from bpe_core.encoding.classic import END
from bpe_core.formats.native import tokenizer_from_json, tokenizer_to_json
from playground.bases import extended_again, is_file, reference_base
from playground.kinds import kind_of
from playground.packed_trace import PackedTrace
from playground.trained import Request, Trained, symbols_of

_LENGTH = struct.Struct("<I")


def to_bytes(trained: Trained) -> bytes:
    """A trained tokenizer in compact form: a JSON header (what it was trained with, its measurements) and its
    packed trace, from which :func:`from_bytes` rebuilds the tokenizer itself (every token is the merge of two
    earlier ones). About 90 bytes a merge before compression, against ~1.5 KB a merge of objects in memory.
    The request is not in it: the workspace keeps that, with the names a user gave."""
    result = trained.result
    header: dict[str, Any] = {
        "kind": trained.request.kind,
        "corpus_chars": trained.corpus_chars,
        "corpus_bytes": trained.corpus_bytes,
        "window_text": trained.window_text,
        "stats": trained.stats,
        "seconds": result.seconds,
        "stopped_early": result.stopped_early,
        "stop_reason": result.stop_reason,
    }
    if isinstance(result, bpe_core.TrainResult):
        header.update(
            settings=result.settings,
            pretoken_count=result.pretoken_count,
            unique_pretokens=result.unique_pretokens,
            timings=result.timings,
            special_token_count=result.special_token_count,
            special_tokens=result.tokenizer.special_tokens,
            pattern=result.tokenizer.pattern,
        )
    if trained.base is not None:  # a loaded base: kept with it (a built-in one is named by the request)
        header["base_json"] = tokenizer_to_json(trained.base)
    if isinstance(result, bpe_core.ParityResult):  # which language each merge served (not each count after it)
        languages = list(result.languages)
        header["parity"] = {
            "languages": languages,
            "byte_counts": result.byte_counts,
            "measure": result.measure,
            "chosen": [languages.index(language) for language in result.chosen_languages],
        }
    elif isinstance(result, bpe_core.ClassicResult):
        header["characters"] = result.tokenizer.symbols[: trained.trace.base - 1]  # then the end-of-word mark
    encoded = json.dumps(header, ensure_ascii=False).encode("utf-8", errors="surrogatepass")
    return _LENGTH.pack(len(encoded)) + encoded + trained.trace.to_bytes()


def from_bytes(request: Request, data: bytes) -> Trained:
    """The :class:`Trained` that :func:`to_bytes` wrote, for ``request``."""
    (size,) = _LENGTH.unpack_from(data)
    header = json.loads(data[_LENGTH.size : _LENGTH.size + size].decode("utf-8", errors="surrogatepass"))
    trace = PackedTrace.from_bytes(data[_LENGTH.size + size :])
    merges = trace.merges()
    result: bpe_core.TrainResult | bpe_core.ClassicResult
    base = None
    if request.base:
        base, result = _extended(request, header, trace)
    elif not kind_of(header["kind"]).byte_level:  # classic: characters and the end-of-word mark
        atoms: list[tuple[str, ...]] = [(symbol,) for symbol in [*header["characters"], END]]
        for left, right in merges:
            atoms.append(atoms[left] + atoms[right])
        classic = bpe_core.ClassicTokenizer.from_atoms(atoms, [(atoms[left], atoms[right]) for left, right in merges])
        result = bpe_core.ClassicResult(classic, [], header["seconds"], header["stopped_early"], header["stop_reason"])
    else:
        symbols = [bytes([byte]) for byte in range(256)]
        for left, right in merges:
            symbols.append(symbols[left] + symbols[right])
        tokenizer = bpe_core.Tokenizer(
            dict(enumerate(symbols)),
            [(symbols[a], symbols[b]) for a, b in merges],
            header["special_tokens"],
            header["pattern"],
        )
        result = _train_result(tokenizer, header, special_token_count=header["special_token_count"])
        if "parity" in header:
            parity = header["parity"]
            result = bpe_core.ParityResult(
                **vars(result),
                languages=tuple(parity["languages"]),
                byte_counts=parity["byte_counts"],
                chosen_languages=[parity["languages"][index] for index in parity["chosen"]],
                measure=parity["measure"],
            )
    symbols_made = symbols_of(result.tokenizer, trace.base + len(trace))
    return Trained(
        request,
        result,
        header["corpus_chars"],
        header["corpus_bytes"],
        header["window_text"],
        header["stats"],
        trace.with_symbols(symbols_made),
        base=base if is_file(request.base) else None,
    )


def _extended(request: Request, header: dict[str, Any], trace: PackedTrace) -> tuple[Any, bpe_core.TrainResult]:
    """A continued tokenizer rebuilt: its base (a built-in one by name; a loaded one from the header) and the new
    merges of its trace."""
    if is_file(request.base):
        base = tokenizer_from_json(header["base_json"], source=request.base_label)
    else:
        base = reference_base(request.base)
    symbols = symbols_of(base, trace.base) if len(trace) else []
    for left, right in trace.merges():
        symbols.append(symbols[left] + symbols[right])
    tokenizer = extended_again(base, list(trace.with_symbols(symbols)))
    return base, _train_result(tokenizer, header)


def _train_result(tokenizer: bpe_core.Tokenizer, header: dict[str, Any], **extra: Any) -> bpe_core.TrainResult:
    """A training's result from its stored header (its trace is kept packed, apart)."""
    return bpe_core.TrainResult(
        tokenizer,
        [],
        header["settings"],
        header["seconds"],
        header["pretoken_count"],
        header["unique_pretokens"],
        header["stopped_early"],
        header["stop_reason"],
        header["timings"],
        **extra,
    )
