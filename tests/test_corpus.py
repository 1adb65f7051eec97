"""Streaming training from files: blocks count exactly like the whole text, files, globs, errors."""

from __future__ import annotations

import pytest
from conftest import CORPORA
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import train
from bpe_core.pretokenize import count_pretokens, last_safe_cut
from bpe_core.training.corpus import count_blocks, expand_paths, text_blocks, train_files

SPECIALS = ["<|endoftext|>", "<|e"]


def write(folder, name: str, text: str):
    path = folder / name
    path.write_bytes(text.encode("utf-8"))
    return path


# Letters, newlines and pieces of the special tokens: the places where a cut could go wrong.
cut_heavy_text = st.lists(st.sampled_from(["a", "é", "字", " ", "\n", "1", "'", "<|endoftext|>", "<|e", "<"])).map(
    "".join
)


@settings(max_examples=120, deadline=None)
@given(text=cut_heavy_text, block_bytes=st.integers(1, 40), pattern=st.sampled_from(["gpt2", "cl100k", None]))
def test_blocks_count_like_the_whole_text(tmp_path_factory, text, block_bytes, pattern):
    path = write(tmp_path_factory.mktemp("blocks"), "t.txt", text)
    blocks = list(text_blocks([path], pattern, SPECIALS, block_bytes=block_bytes))
    assert "".join(blocks) == text
    assert count_blocks(blocks, pattern, SPECIALS) == count_pretokens(text, pattern, SPECIALS)


def test_cuts_go_after_special_tokens_or_between_a_letter_and_a_newline():
    assert last_safe_cut("ab\ncd\n", "gpt2") == 5
    assert last_safe_cut("ab\ncd\n", None) == 0  # without pre-tokenization only a special token separates
    assert last_safe_cut("ab\ncd\n", r"\w+|\s") == 0  # a custom regex: no cut is known to be safe
    assert last_safe_cut("x<|endoftext|>" + " yz" * 10, "gpt2", SPECIALS) == len("x<|endoftext|>")
    # Nothing is cut in the last len("<|endoftext|>") characters: a special token may be arriving.
    assert last_safe_cut("x<|endoftext|>yz\n<|end", "gpt2", SPECIALS) == 0


def test_docs10m_blocks_keep_every_distinct_pretoken():
    """Cutting the 10 MB corpus into 256 KB blocks keeps its 55,766 distinct pre-tokens (a split at
    line ends gave 55,603)."""
    path = CORPORA / "docs10m.txt"
    if not path.exists():
        pytest.skip(f"{path} not available")
    blocks = text_blocks([path], "gpt2", ["<|endoftext|>"], block_bytes=1 << 18)
    counts = count_blocks(blocks, "gpt2", ["<|endoftext|>"])
    assert len(counts) == 55_766
    assert counts == count_pretokens(path.read_bytes().decode("utf-8"), "gpt2", ["<|endoftext|>"])


def test_train_files_treats_each_file_as_a_text_of_its_own(tmp_path, shakespeare):
    first, second = shakespeare[:20_000], shakespeare[20_000:45_000]
    write(tmp_path, "b.txt", second)
    write(tmp_path, "a.txt", first)
    progress = []
    result = train_files(tmp_path / "*.txt", 256 + 150, progress=lambda *call: progress.append(call), block_bytes=4096)
    expected = train(first + "<|sep|>" + second, 256 + 151, special_tokens=["<|sep|>"])
    assert result.merges == expected.merges
    assert result.unique_pretokens == expected.unique_pretokens
    assert result.settings["sources"] == [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    reads = [done for stage, done, _ in progress if stage == "read"]
    assert reads == sorted(reads) and reads[-1] == 45_000 == progress[0][2]
    assert progress[-1] == ("merge", 150, 150)


def test_paths_and_globs(tmp_path):
    one, two = write(tmp_path, "1.txt", "a"), write(tmp_path, "2.md", "b")
    (tmp_path / "sub").mkdir()
    three = write(tmp_path / "sub", "3.txt", "c")
    assert expand_paths([str(two), tmp_path / "*.txt"]) == [two, one]
    assert expand_paths(str(tmp_path / "**" / "*.txt")) == [one, three]
    with pytest.raises(FileNotFoundError, match="no file matches"):
        expand_paths(tmp_path / "*.json")
    with pytest.raises(FileNotFoundError, match="No such file"):
        expand_paths(tmp_path / "missing.txt")
    with pytest.raises(IsADirectoryError, match="pass its files"):
        expand_paths(tmp_path / "sub")


def test_a_file_that_is_not_utf8_is_named_with_the_offset(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9 au lait")
    with pytest.raises(ValueError, match=r"latin1.txt: not UTF-8 text \(invalid continuation byte at byte 3\)"):
        train_files(path, 300)
