"""``extend``: continue training a loaded byte-level tokenizer on a corpus, keeping every id.

1. The corpus is split on the base's special tokens (they take no part) and pre-tokenized with the
   base's own pattern (after its normalization, Qwen's NFC say), and the distinct pre-tokens counted.
2. Each distinct pre-token is encoded with the base, exactly as the base encodes it (its merges
   first, by rank; a pre-token that is itself a token stays whole).
3. From those token sequences, new merges are learned by the project's rule: the most frequent
   adjacent pair (overlapping occurrences counted, as in ``train``), ties to the lexicographically
   greatest (left bytes, right bytes). A pair whose two tokens together are already a token is
   skipped (that token cannot get a second id, and neither tiktoken ranks nor a ``tokenizer.json``
   vocabulary could hold two); so is one longer than ``max_token_length`` bytes.
4. The new tokens get ids after the highest id in use (special tokens included), in merge order,
   and their merges rank after every existing merge.

New special tokens (``special_tokens=[...]``) cut the corpus as the base's do, and take the ids right
after the highest in use, before the new merges' tokens (see :mod:`.specials`). A Hugging Face pipeline
(DeepSeek V4's ``tokenizer.json``) whose model is byte-level BPE is extended through its own stages
(see :mod:`.pipeline_base`); the result is a pipeline again.

>>> import bpe_core
>>> base = bpe_core.train("low lower lowest " * 10, 262).tokenizer
>>> result = extend(base, "newer newest widest " * 10, 266)
>>> base.encode(" newest")  # the base knows "st" (260) but not "new"
[32, 110, 101, 119, 101, 260]
>>> result.merges
[(b'w', b'e'), (b'n', b'e'), (b'ne', b'we'), (b' ', b'newe')]
>>> result.new_tokens, result.tokenizer.encode(" newest")
({262: b'we', 263: b'ne', 264: b'newe', 265: b' newe'}, [265, 260])
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from ...encoding.arguments import checked_text
from ...encoding.tokenizer import Tokenizer
from ...pipeline import PipelineTokenizer
from ...pretokenize import normalize
from ..corpus import Sources, count_blocks, expand_paths, text_blocks
from ..counting import count_text
from ..merge_engine import MergeEngine
from ..shape import MergeRecord, ProgressCallback, Reporter, check_limits, merge_rounds
from ..word_engine import MAX_SYMBOLS, WordEngine
from .pipeline_base import check_pipeline, counting_pipeline, extended_pipeline
from .specials import new_specials
from .tokenizer_base import extended_tokenizer

Extendable = Tokenizer | PipelineTokenizer
Base = TypeVar("Base", bound=Tokenizer | PipelineTokenizer)
"""The kind of base: the extension is one of the same kind (``extend(Tokenizer) -> ExtendResult[Tokenizer]``)."""


@dataclass
class ExtendResult(Generic[Base]):
    """What ``extend`` returns: the extended tokenizer, its base, and the record of each new merge."""

    tokenizer: Base
    base: Base
    trace: list[MergeRecord]
    first_new_id: int
    """The id of the first new token (one more than the base's highest id): the first new special token's, if any."""
    stop_reason: str | None
    seconds: float
    pretoken_counts: Mapping[str, int] = field(default_factory=dict, repr=False)
    """Each distinct pre-token (a pipeline's: as its model sees it, in GPT-2's byte alphabet) and its count."""
    new_special_tokens: dict[str, int] = field(default_factory=dict)
    """The special tokens added, with their ids (before the new merges' tokens)."""

    @property
    def merges(self) -> list[tuple[bytes, bytes]]:
        """The new merges only, in order (the tokenizer's ``merges`` hold the base's first)."""
        return [(record.left, record.right) for record in self.trace]

    @property
    def new_tokens(self) -> dict[int, bytes]:
        """Each new token by id."""
        return {record.new_id: record.token for record in self.trace}

    @property
    def stopped_early(self) -> bool:
        return self.stop_reason is not None

    def tokens_on_counts(self) -> tuple[int, int]:
        """How many tokens the counted pre-tokens make, with the base and with the extension."""
        before, after = _encoder(self.base), _encoder(self.tokenizer)
        totals = [0, 0]
        for pretoken, count in self.pretoken_counts.items():
            totals[0] += len(before(pretoken)) * count
            totals[1] += len(after(pretoken)) * count
        return totals[0], totals[1]


def _encoder(tokenizer: Extendable) -> Callable[[str], list[int]]:
    """One counted pre-token to ids, exactly as the tokenizer encodes it."""
    if isinstance(tokenizer, PipelineTokenizer):
        return tokenizer.model.encode
    return lambda piece: tokenizer._pieces.encode_pieces([piece])


def check_base(base: object) -> Extendable:
    """The base, or an error saying which tokenizers can be extended (a TypeError for another kind, a
    ValueError naming what makes a Hugging Face pipeline other than byte-level BPE)."""
    if isinstance(base, PipelineTokenizer):
        check_pipeline(base)
        return base
    if not isinstance(base, Tokenizer):
        raise TypeError(
            "extend takes a byte-level bpe_core.Tokenizer (one trained here, GPT-2 files, tiktoken ranks, "
            "bpe_core.reference(...), a plain byte-level tokenizer.json) or a byte-level BPE tokenizer.json "
            f"pipeline (bpe_core.reference('deepseek-v4')), not a {type(base).__name__}"
        )
    return base


def extend(
    base: Base,
    text_or_documents: str | Iterable[str],
    vocab_size: int,
    *,
    progress: ProgressCallback | None = None,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    special_tokens: Iterable[str] = (),
) -> ExtendResult[Base]:
    """Append merges learned on ``text_or_documents`` to ``base`` until it has ``vocab_size`` tokens.

    ``vocab_size`` counts every token, the base's (special ones too) and the new; the new ids follow
    the highest id in use, so where the base's ids have holes (cl100k's) the last id is above
    ``vocab_size - 1``. Several documents are each a text of their own (nothing merges across
    two). ``min_frequency`` and ``max_token_length`` (bytes) as in ``train``; ``progress(done,
    total)`` counts merges; ``special_tokens``: new ones (counted in ``vocab_size``). The steps: the
    module's docstring.
    """
    started = time.perf_counter()
    check_base(base)
    check_limits(min_frequency, max_token_length)
    added = new_specials(base, special_tokens, 0)
    documents = [text_or_documents] if isinstance(text_or_documents, str) else text_or_documents
    counts: Counter[str] = Counter()
    if isinstance(base, PipelineTokenizer):
        counter = counting_pipeline(base, added)
        for document in documents:
            counts.update(counter.model_pieces(checked_text(document)))
    else:
        specials = [*base.special_tokens, *added]
        for document in documents:
            text = normalize(checked_text(document), base.normalization)
            count_text(text, base.pattern, specials, counts=counts)
    return extend_counts(
        base, counts, vocab_size, progress, min_frequency, max_token_length, started, special_tokens=list(added)
    )


def extend_files(
    base: Base,
    sources: Sources,
    vocab_size: int,
    *,
    progress: ProgressCallback | None = None,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    special_tokens: Iterable[str] = (),
) -> ExtendResult[Base]:
    """``extend`` on files (a path, a glob, or several), streamed in blocks as ``train_files`` reads them;
    for a pipeline, each file read whole (its stages may look across any cut, as tokenizers reads a text).

    >>> import pathlib, tempfile, bpe_core
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = path.write_text("newer newest widest " * 10)
    >>> base = bpe_core.train("low lower lowest " * 10, 262).tokenizer
    >>> extend_files(base, path, 266).merges == extend(base, path.read_text(), 266).merges
    True
    """
    started = time.perf_counter()
    check_base(base)
    check_limits(min_frequency, max_token_length)
    added = list(new_specials(base, special_tokens, 0))
    if isinstance(base, PipelineTokenizer):
        files = (path.read_text(encoding="utf-8") for path in expand_paths(sources))
        return extend(
            base,
            files,
            vocab_size,
            progress=progress,
            min_frequency=min_frequency,
            max_token_length=max_token_length,
            special_tokens=added,
        )
    specials = [*base.special_tokens, *added]
    blocks = text_blocks(expand_paths(sources), base.pattern, specials)
    counts = count_blocks((normalize(block, base.normalization) for block in blocks), base.pattern, specials)
    return extend_counts(
        base, counts, vocab_size, progress, min_frequency, max_token_length, started, special_tokens=added
    )


def extend_counts(
    base: Base,
    counts: Mapping[str, int],
    vocab_size: int,
    progress: ProgressCallback | None = None,
    min_frequency: int = 0,
    max_token_length: int | None = None,
    started: float | None = None,
    *,
    special_tokens: Iterable[str] = (),
) -> ExtendResult[Base]:
    """``extend`` on pre-token counts already made with the base's pattern and special tokens (and the
    new ``special_tokens``); a pipeline's: its model's pieces (``PipelineTokenizer.model_pieces``)."""
    started = time.perf_counter() if started is None else started
    check_base(base)
    vocab = base.vocab
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    first_special = max(vocab) + 1
    specials = new_specials(base, special_tokens, first_special)
    if vocab_size < len(vocab) + len(specials):
        raise ValueError(
            f"vocab_size {vocab_size:,} is smaller than the base's {len(vocab):,} tokens"
            + (f" and the {len(specials)} new special ones" if specials else "")
        )
    n_merges = vocab_size - len(vocab) - len(specials)
    first_new = first_special + len(specials)
    if first_new + n_merges > MAX_SYMBOLS:
        raise ValueError(f"ids would pass {MAX_SYMBOLS:,}, the most a vocabulary here may have")
    # Symbols are the base's ids themselves (a hole, never met in the text, is empty), then the new
    # special tokens (never met either), so the engine's next symbol id is the next free id.
    symbols = [vocab.get(identifier, b"") for identifier in range(first_special)]
    symbols += [text.encode("utf-8") for text in specials]
    encode = _encoder(base)  # one pre-token at a time, exactly as the base encodes it
    words = [(list(encode(piece)), count) for piece, count in counts.items()]
    # A pipeline's added tokens share the model's vocabulary in its tokenizer.json: none may be made again.
    if isinstance(base, PipelineTokenizer):
        known = set(vocab.values()) | set(symbols[first_special:])
    else:
        known = set(base.mergeable_ranks)
    report = Reporter(progress, n_merges)

    def build_engine() -> MergeEngine:
        engine = WordEngine(words, symbols)
        engine.refuse = already_a_token(engine.symbol_bytes, set(known), first_new)
        if max_token_length is not None:
            engine.limit_length(max_token_length)
        return engine

    rounds = merge_rounds(build_engine, n_merges, report, min_frequency=min_frequency)
    if isinstance(base, PipelineTokenizer):
        tokenizer = cast(Base, extended_pipeline(base, rounds.trace, specials))
    else:
        tokenizer = cast(Base, extended_tokenizer(base, rounds.trace, specials))
    return ExtendResult(
        tokenizer=tokenizer,
        base=base,
        trace=rounds.trace,
        first_new_id=first_special,
        stop_reason=rounds.stop_reason,
        seconds=time.perf_counter() - started,
        pretoken_counts=counts,
        new_special_tokens=specials,
    )


def already_a_token(symbol_bytes: list[bytes], known: set[bytes], made: int) -> Callable[[int, int], bool]:
    """``refuse`` for the engine: does the pair make a token the vocabulary has (the base's, or one
    made since)? ``symbol_bytes`` grows with each merge; ``made``: the first symbol not yet in ``known``."""
    seen = [made]

    def refuse(a: int, b: int) -> bool:
        while seen[0] < len(symbol_bytes):
            known.add(symbol_bytes[seen[0]])
            seen[0] += 1
        return symbol_bytes[a] + symbol_bytes[b] in known

    return refuse
