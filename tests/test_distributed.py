"""Counting on a small local Dask cluster gives exactly the counts and merges of one machine."""

from __future__ import annotations

import pytest

from bpe_core import train
from bpe_core.training.corpus import count_blocks, text_blocks, train_files

pytest.importorskip("distributed")

from bpe_core.distributed import DaskSettings, count_on_dask  # noqa: E402

SPECIAL = "<|endoftext|>"


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory, docs):
    path = tmp_path_factory.mktemp("dask") / "docs.txt"
    path.write_bytes(docs[:300_000].encode("utf-8"))
    return path


def test_counts_and_merges_on_two_workers_equal_one_machine(corpus_file):
    text = corpus_file.read_bytes().decode("utf-8")
    settings = DaskSettings(workers=2, processes=False)
    blocks = text_blocks([corpus_file], "gpt2", [SPECIAL], block_bytes=1 << 15)
    counts = count_on_dask(blocks, "gpt2", [SPECIAL], settings)
    assert counts == count_blocks(text_blocks([corpus_file], "gpt2", [SPECIAL]), "gpt2", [SPECIAL])
    result = train_files(corpus_file, 256 + 200 + 1, special_tokens=[SPECIAL], dask=settings, block_bytes=1 << 15)
    expected = train(text, 256 + 200 + 1, special_tokens=[SPECIAL])
    assert result.merges == expected.merges
    assert [record.candidates for record in result.trace] == [record.candidates for record in expected.trace]


def test_bad_worker_count_is_a_clear_error():
    with pytest.raises(ValueError, match="positive int"):
        DaskSettings(workers=0)
