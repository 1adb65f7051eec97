"""When a ``tokenizer.json`` is exactly a plain :class:`~bpe_core.Tokenizer` (its fast paths, every
app view), and that Tokenizer.

It is when: no normalizer (or an empty ``Sequence``); a ``ByteLevel`` pre-tokenizer without prefix
space, alone (``use_regex``: GPT-2's pattern; without: no pre-tokenization) or after one ``Split``
(``Isolated``) with one of our named patterns or the superword chunks' pattern; a byte-level BPE with every
byte, every other token
made by a merge, no prefix / suffix; added tokens without ``lstrip`` / ``rstrip`` / ``single_word``; a ``ByteLevel``
decoder (the Tokenizer decodes as it does: another decoder, or none, would decode otherwise).

And the merges must be tiktoken's. ``tokenizers`` merges *listed pairs* of tokens, while Tokenizer
merges any two neighbours whose concatenation is a token, by that token's rank. They agree when
each token is made by one merge and that merge is the one the ranks alone give
(:func:`~bpe_core.encoding.ranks.merge_parts`: BPE on the token's bytes with the lower-ranked
merges stops at exactly its two parts). Why: when Tokenizer makes token t over some stretch of
text, nothing outside touched that stretch, so the merges inside it were BPE on t's bytes alone,
lowest rank first; that run passes through t's two listed parts before any other two-part state,
so the pair it merges is t's listed pair, at the same rank. Without ``ignore_merges`` each merged
token must also come out whole from BPE on its own bytes, since Tokenizer emits a pre-token that
is a token whole. One pass of boundary lifetimes per token checks both (about 40 µs a token).
"""

from __future__ import annotations

from ..encoding.lifetimes import PERMANENT, piece_lifetimes
from ..encoding.tokenizer import Tokenizer
from ..pipeline import BPE, AddedToken
from ..pipeline import decoders as dec
from ..pipeline import normalizers as norm
from ..pipeline import pre_tokenizers as pre
from ..pretokenize import PATTERNS
from ..pretokenize.superword import SUPERWORD_PATTERN
from .gpt2 import from_gpt2_text
from .oniguruma_to_python import from_oniguruma


def plain_tokenizer(
    normalizer: norm.Normalizer | None,
    pre_tokenizer: pre.PreTokenizer | None,
    model: BPE,
    added: list[AddedToken],
    decoder: dec.Decoder,
    name: str | None,
) -> Tokenizer | None:
    """The Tokenizer that gives exactly ``tokenizers``' ids (and text back) for this pipeline, or None if there is
    none."""
    if normalizer is not None and not _does_nothing(normalizer):
        return None
    if not isinstance(decoder, dec.ByteLevel):
        return None
    found, pattern = plain_pattern(pre_tokenizer)
    if not found or model.prefix or model.suffix:
        return None
    if any(token.lstrip or token.rstrip or token.single_word for token in added):
        return None
    if len({token.normalized for token in added}) > 1:
        return None  # two passes (raw, then normalized) can match differently from one
    specials = {token.content: token.id for token in added}
    vocab: dict[int, bytes] = {}
    for text, identifier in model.vocab.items():
        if text in specials:
            continue
        token = from_gpt2_text(text)
        if not token:
            return None
        vocab[identifier] = token
    id_of = {token: identifier for identifier, token in vocab.items()}
    if len(id_of) != len(vocab) or any(bytes([byte]) not in id_of for byte in range(256)):
        return None
    merges = _merges(model, vocab)
    if merges is None or len(merges) != sum(len(token) > 1 for token in id_of):
        return None  # a token no merge makes, or a token two merges make
    if not _merges_agree(merges, check_whole=not model.ignore_merges):
        return None
    try:
        return Tokenizer(vocab, merges, specials, pattern, name=name)
    except ValueError:
        return None


def _does_nothing(normalizer: norm.Normalizer) -> bool:
    return isinstance(normalizer, norm.Sequence) and all(_does_nothing(step) for step in normalizer.steps)


def plain_pattern(pre_tokenizer: pre.PreTokenizer | None) -> tuple[bool, str | None]:
    """(True, our pattern) for a pre-tokenizer Tokenizer reproduces; (False, None) otherwise."""
    steps = pre_tokenizer.steps if isinstance(pre_tokenizer, pre.Sequence) else [pre_tokenizer]
    if not steps or not isinstance(steps[-1], pre.ByteLevel) or steps[-1].add_prefix_space:
        return False, None
    byte_level = steps[-1]
    if len(steps) == 1:
        return True, "gpt2" if byte_level.use_regex else None
    split = steps[0]
    if len(steps) != 2 or byte_level.use_regex or not isinstance(split, pre.Split):
        return False, None
    if split.behavior != "Isolated" or split.invert:
        return False, None
    try:
        pattern = from_oniguruma(split.shown)
    except ValueError:
        return False, None
    # Only patterns known to match every character: a custom regex may leave text unmatched, which
    # tokenizers encodes as pieces of its own and Tokenizer refuses. Our named patterns do, and so does
    # the superword chunks' pattern by construction (its last alternative takes what the split leaves).
    if pattern == SUPERWORD_PATTERN and split.compiled.pattern == SUPERWORD_PATTERN:
        return True, pattern
    if pattern not in PATTERNS or split.compiled.pattern != PATTERNS[pattern]:
        return False, None
    return True, pattern


def _merges(model: BPE, vocab: dict[int, bytes]) -> list[tuple[bytes, bytes]] | None:
    ordered = sorted(model.merges.items(), key=lambda item: item[1][0])
    merges = []
    made = set()
    for (left, right), (_, new_id) in ordered:
        if left not in vocab or right not in vocab or new_id not in vocab or new_id in made:
            return None
        made.add(new_id)
        merges.append((vocab[left], vocab[right]))
    return merges


def _merges_agree(merges: list[tuple[bytes, bytes]], check_whole: bool) -> bool:
    """Each merge is the one tiktoken's rule finds from the ranks alone (as :func:`merge_parts`
    finds it: the file is what this library would write), and, if asked, each merged token comes
    out whole. One pass of boundary lifetimes per token answers both."""
    rank = {left + right: index for index, (left, right) in enumerate(merges)}
    for index, (left, right) in enumerate(merges):
        token = left + right
        if len(token) < 3:
            continue  # two bytes: one way to make it
        lifetimes = piece_lifetimes(token, rank)
        # With the merges ranked below this one, only the cut between left and right may survive.
        if [cut for cut, life in enumerate(lifetimes, 1) if life >= index] != [len(left)]:
            return False
        if check_whole and PERMANENT in lifetimes:
            return False
    return True
