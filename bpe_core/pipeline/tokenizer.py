"""The tokenizer that runs a Hugging Face pipeline, with :class:`~bpe_core.Tokenizer`'s methods
wherever they make sense.

>>> from bpe_core.pipeline import AddedToken, normalizers, pre_tokenizers, decoders
>>> tokenizer = PipelineTokenizer(
...     normalizers.Lowercase(), pre_tokenizers.Whitespace(), BPE({"h": 0, "i": 1, "hi": 2}, [("h", "i")]),
...     decoders.Fuse(), AddedTokens([AddedToken("<s>", 3, special=True)]),
... )
>>> tokenizer.encode("Hi hih<s>"), tokenizer.pretokenize("Hi hih<s>")
([2, 2, 0, 3], ['hi', 'hih', '<s>'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..encoding.arguments import checked_text
from ..encoding.lifetimes import Segmentation
from ..encoding.pre_tokenization import PreTokenization
from ..pretokenize import replace_surrogates
from .added_tokens import AddedTokens
from .decoders import ByteFallback, Decoder
from .decoders import ByteLevel as ByteLevelDecoder
from .models import BPE
from .normalizers import Normalizer
from .pre_tokenizers import BYTE_TO_CHAR, CHAR_TO_BYTE, PreTokenizer, from_byte_level, to_byte_level
from .segmenting import segmentation
from .sizes import first_k, own_lifetimes, pair_ranks, truncated_model

if TYPE_CHECKING:
    from ..encoding.shape import TokenizerShape


class PipelineTokenizer:
    """Normalizer, pre-tokenizer, BPE model, decoder and added tokens (any stage may be None)."""

    def __init__(
        self,
        normalizer: Normalizer | None,
        pre_tokenizer: PreTokenizer | None,
        model: BPE,
        decoder: Decoder,
        added: AddedTokens,
        *,
        name: str | None = None,
        space_mark: str | None = None,
    ):
        self.normalizer, self.pre_tokenizer, self.model = normalizer, pre_tokenizer, model
        self.decoder, self.added, self.name = decoder, added, name
        # How a space is spelled inside tokens (Metaspace's ▁), for token_bytes.
        self.space_mark = space_mark
        self.byte_level = _uses(decoder, ByteLevelDecoder)
        self._tokens = dict(model.vocab_r)
        self._tokens.update(added.spelling)
        self._added_ids = {token.content: token.id for token in added.tokens}
        # The tokenizer.json it was loaded from (set by bpe_core.formats.parse_hf): what saving it writes.
        self.source_json: str | None = None
        self._pairs: dict[tuple[str, str], int] | None = None  # own_lifetimes' table, made when first asked

    # -- encoding -----------------------------------------------------------------------------

    def encode(self, text: str) -> list[int]:
        """The ids of ``tokenizers``' ``encode(text, add_special_tokens=False)``."""
        return self._encode(text, skip_special=False)

    def encode_ordinary(self, text: str) -> list[int]:
        """Special added tokens read as text (``tokenizers``' ``encode_special_tokens = True``);
        added tokens that are not special are still matched."""
        return self._encode(text, skip_special=True)

    def _encode(self, text: str, skip_special: bool) -> list[int]:
        ids: list[int] = []
        encode = self.model.encode
        for piece in self._pieces(text, skip_special):
            if isinstance(piece, int):
                ids.append(piece)
            else:
                ids.extend(encode(piece))
        return ids

    def encode_iterable(self, texts: Iterable[str]) -> Iterator[int]:
        """The ids of the texts joined. Held whole: a pipeline's stages may look across any cut
        (a regex, Metaspace's first piece), so only the whole text gives tokenizers' ids."""
        yield from self.encode("".join(texts))

    def encode_iterable_batches(self, texts: Iterable[str]) -> Iterator[list[int]]:
        """:meth:`encode_iterable`'s ids as one list."""
        yield self.encode("".join(texts))

    @property
    def pre_tokenization(self) -> PreTokenization:
        """The file's pre-tokenizer stages, described ("" when it has none)."""
        return PreTokenization(stages=self.pre_tokenizer.describe() if self.pre_tokenizer is not None else "")

    def pretokenize(self, text: str) -> list[str]:
        """The pieces the model sees (normalized, pre-tokenized) as text, added tokens as they matched. A byte-level
        pipeline's pieces are spelled in GPT-2's alphabet inside (``Ġ12``); here that is undone (`` 12``), so that a
        piece is text again, as every tokenizer's ``pretokenize`` gives it (the Encode page steps through one)."""
        tokens = self._tokens
        pieces = [tokens[piece] if isinstance(piece, int) else piece for piece in self._pieces(text, False)]
        if not self.byte_level:
            return pieces
        return [from_byte_level(piece) for piece in pieces]

    def model_pieces(self, text: str) -> Iterator[str]:
        """The pieces the model encodes, in its own spelling (a byte-level pipeline's ``Ġ12``), the added tokens
        left out: what continuing to train this pipeline counts (:mod:`bpe_core.training.extension`)."""
        return (piece for piece in self._pieces(text, False) if not isinstance(piece, int))

    def _pieces(self, text: str, skip_special: bool) -> Iterator[str | int]:
        text = replace_surrogates(checked_text(text))
        added, normalizer, pre_tokenizer = self.added, self.normalizer, self.pre_tokenizer
        for part, token_id, offset in added.split_raw(text, skip_special):
            if token_id is not None:
                yield token_id
                continue
            at_start = 1 if offset == 0 else 0
            if normalizer is not None:
                part, at_start = normalizer.normalize(part, at_start)
            for sub, sub_id, sub_offset in added.split_normalized(part, skip_special):
                if sub_id is not None:
                    yield sub_id
                elif pre_tokenizer is None:
                    yield sub
                else:
                    for piece, _ in pre_tokenizer.pre_tokenize([(sub, max(0, at_start - sub_offset))]):
                        yield piece

    def forget_encodings(self) -> None:
        self.model.forget()

    def segment(self, text: str) -> Segmentation:
        """``text``'s boundaries with their lifetimes: its tokens with the first k merges, for every k (bytes
        for a byte-level pipeline, else the tokens as the file spells them); see :mod:`.segmenting`."""
        return self._segmentation(self._pieces(text, False))

    def segment_piece(self, piece: str) -> Segmentation:
        """:meth:`segment` of one piece :meth:`pretokenize` gave, not normalized or pre-tokenized again (a Prepend or
        a Metaspace would add a second ``▁``); an added token's spelling, as :meth:`pretokenize` gives it, is it."""
        shown = from_byte_level if self.byte_level else str
        added = [token_id for token_id, spelled in self.added.spelling.items() if shown(spelled) == piece]
        return self._segmentation(added[:1] or [to_byte_level(piece) if self.byte_level else piece])

    def _segmentation(self, pieces: Iterable[str | int]) -> Segmentation:
        atom_bytes = self.token_bytes if self.byte_level else None
        added = {token.id: token.content for token in self.added.tokens}
        return segmentation(self.model, pieces, atom_bytes, added)

    # -- decoding -----------------------------------------------------------------------------

    def token_string(self, token_id: int) -> str:
        """The token as the file spells it (``id_to_token``); a bad id is a ValueError."""
        if type(token_id) is not int:
            if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
                raise ValueError(f"token id {token_id!r} is not an integer ({type(token_id).__name__})")
            token_id = token_id.__index__()
        token = self._tokens.get(token_id)
        if token is None:
            raise ValueError(f"token id {token_id} is not in this tokenizer (its ids run from 0 to {self.n_vocab - 1})")
        return token

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """The text, as ``tokenizers``' ``decode`` gives it (the decoder's rules, U+FFFD for bad UTF-8).
        An id not in the vocabulary is a ValueError, as for Tokenizer (tokenizers skips it silently)."""
        if isinstance(ids, (str, bytes)):
            raise TypeError(f"ids must be an iterable of integers, not {type(ids).__name__}")
        special = self.added.special_ids
        tokens = [self.token_string(i) for i in ids if not (skip_special_tokens and i in special)]
        return self.decoder.decode(tokens)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes a token stands for: GPT-2's alphabet undone, ``<0xXX>`` as its byte, the space
        mark as a space; an added token's text. (``decode`` applies the decoder's rules exactly.)"""
        token = self.token_string(token_id)
        if token_id in self.added.by_id:
            return self.added.by_id[token_id].content.encode("utf-8")
        if self.byte_level and all(char in CHAR_TO_BYTE for char in token):
            return bytes(CHAR_TO_BYTE[char] for char in token)
        if self.model.byte_fallback and _uses(self.decoder, ByteFallback):
            as_byte = ByteFallback().decode_chain([token])
            if as_byte != [token]:
                return bytes([int(token[3:5], 16)])
        if self.model.suffix:
            token = token.replace(self.model.suffix, " ")
        if self.space_mark:
            token = token.replace(self.space_mark, " ")
        return token.encode("utf-8")

    def token_text(self, token_id: int) -> str:
        """A token as text to show: its bytes as UTF-8, a byte not valid there as ``\\xNN``."""
        return self.token_bytes(token_id).decode("utf-8", errors="backslashreplace")

    def token_id(self, token: bytes | str) -> int | None:
        """The id of a token as :meth:`segment` cuts it (bytes byte-level, else as the file spells it), or an
        added token's text; else None."""
        if self.byte_level:
            raw = token.encode("utf-8") if isinstance(token, str) else token
            found = self.model.vocab.get("".join(BYTE_TO_CHAR[byte] for byte in raw))
            text = raw.decode("utf-8", errors="replace")
        else:
            text = token.decode("utf-8", errors="replace") if isinstance(token, bytes) else token
            found = self.model.vocab.get(text)
        return found if found is not None else self._added_ids.get(text)

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        return [self.token_bytes(i) for i in ids]

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The tokens' bytes joined (see :meth:`token_bytes`)."""
        return b"".join(self.decode_tokens_bytes(ids))

    # -- what it is ---------------------------------------------------------------------------

    @property
    def unknown_id(self) -> int | None:
        """The model's ``unk_token`` id (what a character no token covers becomes), None when it has none."""
        return self.model.unk_id

    @property
    def n_vocab(self) -> int:
        return max(self._tokens) + 1 if self._tokens else 0

    @property
    def vocab(self) -> dict[int, bytes]:
        return {identifier: self.token_bytes(identifier) for identifier in sorted(self._tokens)}

    @property
    def special_tokens(self) -> dict[str, int]:
        """Every added token (each is matched whole, as a Tokenizer's special tokens are)."""
        return {token.content: token.id for token in self.added.tokens}

    @property
    def merges(self) -> list[tuple[bytes, bytes]]:
        """The merges in rank order, as token bytes."""
        ordered = sorted(self.model.merges.items(), key=lambda item: item[1][0])
        return [(self.token_bytes(left), self.token_bytes(right)) for (left, right), _ in ordered]

    @property
    def num_merges(self) -> int:
        return len(self.model.merges)

    @property
    def end_of_word(self) -> str:
        """The model's end-of-word suffix (``</w>``), ``""`` without one."""
        return self.model.suffix

    # -- every size (bpe_core.analysis.ladder): the first k merges, k = 0 .. merge_steps ----------

    @property
    def merge_steps(self) -> int:
        """How many sizes past the smallest :meth:`segment` counts: one more than the highest merge rank."""
        return self.model.num_ranks

    def first_k(self) -> dict[int, int]:
        """Each model token's first size in merges (0: no merge makes it); added tokens are left out."""
        return first_k(self.model, set(self._added_ids.values()))

    def truncated(self, k: int) -> PipelineTokenizer:
        """The same pipeline with only its first k merges and their tokens (ids unchanged); see :mod:`.sizes`."""
        model, stages = truncated_model(self.model, k), (self.normalizer, self.pre_tokenizer)
        return PipelineTokenizer(*stages, model, self.decoder, self.added, name=self.name, space_mark=self.space_mark)

    def own_lifetimes(self, token_id: int) -> list[int]:
        """A model token's own symbols merged by the model's rule: the lifetimes between them (see :mod:`.sizes`)."""
        if self._pairs is None:
            self._pairs = pair_ranks(self.model)
        return own_lifetimes(self.model, self.token_string(token_id), self._pairs)

    def describe(self) -> str:
        """The stages, one per line."""
        stage = lambda part: part.describe() if part is not None else "none"  # noqa: E731
        return "\n".join(
            [
                f"added tokens: {self.added.describe()}",
                f"normalizer: {stage(self.normalizer)}",
                f"pre-tokenizer: {stage(self.pre_tokenizer)}",
                f"model: {self.model.describe()}",
                f"decoder: {self.decoder.describe()}",
                "post-processor: not run (ids as encode(..., add_special_tokens=False))",
            ]
        )

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"<PipelineTokenizer {label}{self.describe().replace(chr(10), '; ')}>"


def _uses(decoder: Decoder, kind: type) -> bool:
    return isinstance(decoder, kind) or any(_uses(step, kind) for step in getattr(decoder, "steps", []))


if TYPE_CHECKING:  # mypy holds the pipeline to the shape every tokenizer has (tests/test_types.py)

    def _fills_the_shape(tokenizer: PipelineTokenizer) -> TokenizerShape:
        return tokenizer
