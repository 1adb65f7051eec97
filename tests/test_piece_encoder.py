"""bpe_core.encoding.fast: the batch, the one-piece loop and heap and a naive encoder agree; the cache is bounded;
streaming encode on text with nothing to cut at (numbers, minified JSON, one long line) gives the
ids of the whole text."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, reference, train
from bpe_core.encoding.fast import piece_encoder as piece_encoder_module
from bpe_core.encoding.fast import routes
from bpe_core.encoding.fast.one_piece import heap, loop
from bpe_core.pretokenize import pretokenize
from bpe_core.reference import build_reference

# A small alphabet makes long runs of merges; digits and punctuation make number-like pieces.
ALPHABET = "abcab 0123456789.,-"
SAMPLE = "".join(random.Random(7).choices(ALPHABET, k=30_000))


@pytest.fixture(scope="module")
def trained():
    return train(SAMPLE, 256 + 400, pattern=None)


def numeric_csv(rows: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines = ["id,value,score"]
    for _ in range(rows):
        lines.append(f"{rng.randrange(10**9)},{rng.uniform(-1e4, 1e4):.6f},{rng.randrange(-(10**6), 10**6)}")
    return "\n".join(lines) + "\n"


def minified_json(records: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    rows = [
        {"id": rng.randrange(10**9), "lat": round(rng.uniform(-90, 90), 6), "tags": [rng.randrange(1000)] * 2}
        for _ in range(records)
    ]
    return json.dumps(rows, separators=(",", ":"))


def naive_encode_piece(piece: bytes, tokenizer: Tokenizer) -> list[int]:
    """tiktoken's rule spelled out: a whole token stays whole; else merge the adjacent pair whose
    concatenation has the lowest merge rank, leftmost first, until no pair is a merge."""
    ids = tokenizer.mergeable_ranks
    if piece in ids:
        return [ids[piece]]
    parts = [bytes([byte]) for byte in piece]
    while len(parts) > 1:
        ranked = [(tokenizer.merge_rank(a + b), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
        ranked = [(rank, i) for rank, i in ranked if rank is not None]
        if not ranked:
            break
        _, i = min(ranked)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return [ids[part] for part in parts]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, min_size=2, max_size=70), min_size=1, max_size=120))
def test_batch_one_piece_loop_and_naive_encoder_agree(trained, pieces):
    tokenizer = trained.tokenizer
    encoder = tokenizer._pieces
    data = [piece.encode() for piece in pieces]
    ranks = tokenizer.mergeable_ranks  # a copy each time it is read
    short = [piece for piece in dict.fromkeys(data) if piece not in ranks and len(piece) <= 64]
    batch = dict(zip(short, encoder._byte_batch.encode(short))) if short else {}
    for piece in data:
        naive = naive_encode_piece(piece, tokenizer)
        if piece not in ranks:  # both one-piece paths, whatever the piece's length
            assert loop(encoder._token_id, encoder._merge_rank, piece) == naive
            assert heap(encoder._token_id, encoder._merge_rank, piece) == naive
        if piece in batch:
            assert list(batch[piece]) == naive


def test_many_new_pieces_take_the_batch_and_match_a_naive_encoder():
    # Thousands of distinct number-like pre-tokens (pattern gpt2 splits digits from the rest).
    tokenizer = train(SAMPLE, 256 + 300).tokenizer
    text = numeric_csv(3000)
    naive = [i for piece in pretokenize(text, "gpt2") for i in naive_encode_piece(piece.encode(), tokenizer)]
    assert tokenizer.encode(text) == naive


def test_the_cache_stays_bounded_and_ids_stay_right(monkeypatch):
    monkeypatch.setattr(piece_encoder_module, "CACHE_LIMIT", 50)
    tokenizer = train(SAMPLE, 256 + 100).tokenizer
    text = numeric_csv(2000, seed=1)
    expected = [i for piece in pretokenize(text, "gpt2") for i in naive_encode_piece(piece.encode(), tokenizer)]
    lines = text.splitlines(keepends=True)
    ids = []
    for start in range(0, len(lines), 40):  # 40 lines: enough new pre-tokens for the batch
        ids.extend(tokenizer.encode("".join(lines[start : start + 40])))
        assert len(tokenizer._pieces._cache) <= max(50, 40 * 8)  # at most one call's pieces above the limit
    assert ids == expected


def test_a_pickled_tokenizer_leaves_its_caches_behind_and_encodes_the_same(monkeypatch):
    # A training job pickles its tokenizer back to the server after encoding the corpus: the cached
    # pieces and the numpy array of byte-pair ranks must not travel (the server would import numpy).
    monkeypatch.setattr(routes, "BATCH_BUILD_MIN_PIECES", 32)  # the batch on a small text
    tokenizer = train(SAMPLE, 256 + 300).tokenizer
    texts = [SAMPLE[:5000], numeric_csv(500)]  # the byte batch, then the path for tables of numbers
    ids = [tokenizer.encode(text) for text in texts]
    pieces = tokenizer._pieces
    assert pieces._cache and {"_byte_batch", "_digit_runs"} <= vars(pieces).keys()
    copy = pickle.loads(pickle.dumps(tokenizer, pickle.HIGHEST_PROTOCOL))
    assert copy._pieces._cache == {} and not {"_byte_batch", "_digit_runs"} & vars(copy._pieces).keys()
    assert [copy.encode(text) for text in texts] == ids
    assert tokenizer._pieces._cache  # the original keeps its caches


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
@pytest.mark.parametrize("kind", ["numeric CSV", "minified JSON", "one long line", "digits without end"])
def test_streaming_encode_equals_encode_on_the_whole_text(name, kind):
    text = {
        "numeric CSV": lambda: numeric_csv(6000),
        "minified JSON": lambda: minified_json(3000),
        "one long line": lambda: numeric_csv(6000).replace("\n", " "),
        "digits without end": lambda: "".join(random.Random(3).choices("0123456789", k=40_000)),
    }[kind]()
    tokenizer = reference(name)
    whole = tokenizer.encode(text)
    # As the command line reads a file: chunks of 64K characters, cut anywhere.
    chunks = [text[i : i + 65_536] for i in range(0, len(text), 65_536)]
    assert list(tokenizer.encode_iterable(chunks)) == whole
    odd = [text[i : i + 7_919] for i in range(0, len(text), 7_919)]
    assert list(tokenizer.encode_iterable(odd)) == whole


def test_pieces_too_long_to_keep_are_encoded_then_forgotten(trained):
    # With no pre-tokenization a whole text is one pre-token: it is encoded, but not kept.
    tokenizer = trained.tokenizer
    long_piece, short_piece = SAMPLE[:1000], SAMPLE[:100]
    ids = tokenizer.encode(long_piece)
    assert ids == naive_encode_piece(long_piece.encode(), tokenizer)
    assert long_piece not in tokenizer._pieces._cache
    tokenizer.encode(short_piece)
    assert short_piece in tokenizer._pieces._cache


def test_a_vocabulary_without_merges_encodes_bytes_through_the_batch():
    tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [])
    rng = random.Random(3)
    text = " ".join("".join(rng.choices("abcdéfgh", k=7)) for _ in range(5000))  # thousands of distinct pieces
    assert tokenizer.encode(text) == list(text.encode())
    assert vars(tokenizer._pieces).get("_byte_batch") is not None


def test_a_short_text_s_first_encode_builds_no_batch():
    # Building the batch costs ~0.03-0.06 s: a Compare page's short text takes the one-piece loop.
    tokenizer = build_reference("cl100k_base")
    text = " ".join(f"Byte pairs merge{n}, most frequent first; 中文也可以{n}。" for n in range(40))
    naive = [i for piece in pretokenize(text, "cl100k") for i in naive_encode_piece(piece.encode(), tokenizer)]
    assert tokenizer.encode(text) == naive
    assert "_byte_batch" not in vars(tokenizer._pieces)
